// The view's pure helpers: reading a result defensively and putting its
// values into words. The browser test shows them on a page; these pin the
// edge cases a real result rarely has.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { checkPassengerName, dayMark, duration, localTime, modelContext, readResult, stopsText } from '../src/format.js';

test('localTime keeps the airport\'s wall clock, whatever the offset', () => {
  for (const [iso, want] of [
    ['2026-12-31T22:25:00-05:00', { date: '2026-12-31', time: '22:25', offset: '-05:00' }],
    ['2027-01-01T10:25:00Z', { date: '2027-01-01', time: '10:25', offset: '+00:00' }],
    ['2027-03-29T07:05:00.000+05:30', { date: '2027-03-29', time: '07:05', offset: '+05:30' }],
    ['2027-03-29T07:05', null], // no offset: not a time the server writes
    ['not a time', null],
    [undefined, null],
  ]) {
    assert.deepEqual(localTime(iso), want, String(iso));
  }
});

test('dayMark counts local calendar days, across months, years and the date line', () => {
  for (const [from, to, want] of [
    ['2026-12-31', '2026-12-31', ''],
    ['2026-12-31', '2027-01-01', '+1'],
    ['2027-02-28', '2027-03-02', '+2'],
    ['2027-01-02', '2027-01-01', '-1'],
    ['2027-01-02', 'garbage', ''],
  ]) {
    assert.equal(dayMark(from, to), want, `${from} -> ${to}`);
  }
});

test('duration and stops in words', () => {
  assert.equal(duration(420), '7h 00m');
  assert.equal(duration(535), '8h 55m');
  assert.equal(duration(-1), '');
  assert.equal(stopsText(0, []), 'nonstop');
  assert.equal(stopsText(1, ['MAN']), '1 stop via MAN');
  assert.equal(stopsText(2, ['DUB', 'KEF']), '2 stops via DUB, KEF');
});

test('readResult reads attempts under `step` or the older `tier`', () => {
  const { result } = readResult({
    trip: { origin: 'JFK', destination: 'LHR', date: '2026-12-31' },
    flights: [],
    attempts: [
      { step: 'client_sampling', outcome: 'skipped', reason: 'client did not declare sampling', elapsedMs: 0 },
      { tier: 'deterministic', outcome: 'used', reason: 'scored each flight', elapsedMs: 1 },
      { step: 'server_llm', outcome: 'exploded', reason: 'odd' },
    ],
  });
  assert.deepEqual(
    result.attempts.map((a) => [a.step, a.outcome]),
    [
      ['client_sampling', 'skipped'],
      ['deterministic', 'used'],
      ['server_llm', 'unknown'],
    ],
  );
});

test('readResult says what is missing instead of failing on it', () => {
  for (const [sc, problem] of [
    [undefined, 'the tool result carries no structured content'],
    ['text', 'the tool result carries no structured content'],
    [{ flights: [] }, 'the tool result names no trip'],
    [{ trip: {} }, 'the tool result lists no flights'],
  ]) {
    assert.equal(readResult(sc).problem, problem, JSON.stringify(sc));
  }
  // Flights without an id cannot be booked: counted, not shown.
  const { result } = readResult({ trip: { origin: 'JFK' }, flights: [{ id: 'JFK-LHR-261231-XR1DV', segments: 'nope' }, { priceUSD: 1 }, null] });
  assert.deepEqual(result.flights.map((f) => [f.id, f.segments]), [['JFK-LHR-261231-XR1DV', []]]);
  assert.equal(result.unreadable, 1);
  assert.equal(result.trip.destination, '?');
  assert.equal(result.ranked, false, 'not ranked unless the result says so');
});

test('checkPassengerName folds white space and bounds the length; the server judges the rest', () => {
  assert.deepEqual(checkPassengerName('  Ada   Lovelace '), { name: 'Ada Lovelace' });
  assert.match(checkPassengerName('   ').problem, /Enter the passenger name/);
  assert.match(checkPassengerName('A').problem, /2 to 80 characters/);
  assert.match(checkPassengerName('x'.repeat(81)).problem, /2 to 80 characters/);
  assert.deepEqual(checkPassengerName('R2-D2'), { name: 'R2-D2' });
});

test('modelContext tells the model the flight, then the hold, then the file', () => {
  const { result } = readResult({
    trip: { origin: 'JFK', destination: 'LHR' },
    flights: [
      {
        id: 'JFK-LHR-261231-DNRGV',
        totalUSD: 346,
        stops: 1,
        via: ['MAN'],
        depart: '2026-12-31T22:10:00-05:00',
        arrive: '2027-01-01T12:05:00Z',
        segments: [
          { flightNumber: 'VS1070', from: 'JFK', to: 'MAN', depart: '2026-12-31T22:10:00-05:00', arrive: '2027-01-01T10:00:00Z' },
          { flightNumber: 'VS113', from: 'MAN', to: 'LHR', depart: '2027-01-01T11:20:00Z', arrive: '2027-01-01T12:05:00Z' },
        ],
      },
    ],
  });
  const [flight] = result.flights;
  assert.equal(
    modelContext({ flight }).content[0].text,
    'In the flight results view the user chose JFK-LHR-261231-DNRGV (VS1070+VS113, JFK 22:10 → LHR 12:05+1 on 2026-12-31, 1 stop via MAN; $346).',
  );
  const booking = { reference: 'BK-JFK-LHR-261231-DNRGV-V4S4PD', passengerName: 'Ada Lovelace', seat: 'aisle', priceUSD: 346 };
  const saved = { format: 'ics', uri: 'file:///tmp/x.ics', path: '/tmp/x.ics' };
  const ctx = modelContext({ flight, booking, saved });
  assert.match(ctx.content[0].text, /held it \(a simulation: nothing was charged or sent\): reference BK-JFK-LHR-261231-DNRGV-V4S4PD, passenger Ada Lovelace, seat aisle\. The itinerary was saved as ics: file:\/\/\/tmp\/x\.ics\.$/);
  assert.deepEqual(ctx.structuredContent, {
    chosenFlightId: 'JFK-LHR-261231-DNRGV',
    booking: { reference: booking.reference, passengerName: 'Ada Lovelace', seat: 'aisle', priceUSD: 346 },
    itinerary: { format: 'ics', uri: 'file:///tmp/x.ics', path: '/tmp/x.ics' },
  });
});
