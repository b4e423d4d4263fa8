// The view's pure helpers: reading a result defensively and putting its
// values into words. The browser test shows them on a page; these pin the
// edge cases a real result rarely has.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { HELD_IN_CONTEXT, addHold, checkPassengerName, cityOf, dayMark, duration, formatDate, ladderLine, localTime, modelContext, readOptions, readResult, stepLabel, stopsText, tripArgs, usd, viewLocale, withHolds, withoutFilter } from '../src/format.js';
import { airlinesOf, fareRange, heatLevel, matches, noFilter, sortOptions, timeOfDay } from '../src/options.js';
import { fitLabels, offsetMinutes, timeline } from '../src/timeline.js';

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

test('a day with nothing within the limits is empty, never $0', () => {
  const { result } = readResult({
    trip: { origin: 'JFK', destination: 'LHR' },
    flights: [],
    calendar: [
      { date: '2026-12-14', lowestUSD: 0 },
      { date: '2026-12-15', lowestUSD: 412, bestId: 'JFK-LHR-261215-AAAAA' },
      { date: '2026-12-16', lowestUSD: 0, bestId: '' },
    ],
  });
  assert.deepEqual(result.calendar.map((d) => d.empty), [true, false, true]);
  assert.deepEqual(fareRange(result.calendar), { lowest: 412, highest: 412 });
  const { options } = readOptions({
    options: [],
    calendar: [{ date: '2026-12-14', lowestUSD: 500, bestId: 'x', returns: [{ date: '2026-12-20', lowestUSD: 0 }, { date: '2026-12-21', lowestUSD: 500, bestId: 'x' }] }],
  });
  assert.deepEqual(options.calendar[0].returns.map((r) => r.empty), [true, false]);
});

test('heatLevel spreads the fares from the lowest (0) to the highest (4)', () => {
  assert.deepEqual([300, 350, 400, 450, 500].map((f) => heatLevel(f, 300, 500)), [0, 1, 2, 3, 4]);
  assert.equal(heatLevel(420, 420, 420), 0, 'one fare: the lowest');
  assert.equal(heatLevel(0, 300, 500), 0);
  assert.equal(fareRange([{ empty: true }]), undefined);
});

const seg = (airline, from, to, depart, arrive) => ({ flightNumber: `${airline}1`, airline, airlineName: airline, from, to, depart, arrive });
const option = (position, priceUSD, durationMinutes, depart, segments, ret) => ({ id: `o${position}`, position, priceUSD, durationMinutes, depart, stops: segments.length - 1, segments, return: ret });

test('the options sort by the server\'s order, fare, time or departure, ties in the server\'s order', () => {
  const list = [
    option(1, 500, 420, '2026-12-15T08:00:00-05:00', [seg('BA', 'JFK', 'LHR', '2026-12-15T08:00:00-05:00', '2026-12-15T20:00:00Z')]),
    option(2, 400, 600, '2026-12-15T22:00:00-05:00', [seg('FI', 'JFK', 'KEF', '2026-12-15T22:00:00-05:00', '2026-12-16T07:30:00Z'), seg('FI', 'KEF', 'LHR', '2026-12-16T09:00:00Z', '2026-12-16T12:00:00Z')]),
    option(3, 400, 300, '2026-12-14T13:00:00-05:00', [seg('AA', 'JFK', 'LHR', '2026-12-14T13:00:00-05:00', '2026-12-15T01:00:00Z')]),
  ];
  const ids = (key) => sortOptions(list, key).map((o) => o.id);
  assert.deepEqual(ids('best'), ['o1', 'o2', 'o3']);
  assert.deepEqual(ids('cheapest'), ['o2', 'o3', 'o1']);
  assert.deepEqual(ids('fastest'), ['o3', 'o1', 'o2']);
  assert.deepEqual(ids('departure'), ['o3', 'o1', 'o2']);
  assert.deepEqual(ids('unknown'), ['o1', 'o2', 'o3']);

  const f = noFilter();
  assert.deepEqual(list.filter((o) => matches(o, f)).length, 3);
  f.nonstop = true;
  assert.deepEqual(list.filter((o) => matches(o, f)).map((o) => o.id), ['o1', 'o3']);
  f.times.add('morning');
  assert.deepEqual(list.filter((o) => matches(o, f)).map((o) => o.id), ['o1']);
  f.nonstop = false;
  f.times = new Set(['night']);
  assert.deepEqual(list.filter((o) => matches(o, f)).map((o) => o.id), ['o2']);
  f.times = new Set();
  f.airlines = new Set(['FI']);
  assert.deepEqual(list.filter((o) => matches(o, f)).map((o) => o.id), ['o2'], 'every segment by a chosen airline');
  assert.deepEqual(airlinesOf(list).map((a) => [a.code, a.count]), [['AA', 1], ['BA', 1], ['FI', 1]]);
  assert.deepEqual(['2026-12-15T04:59:00Z', '2026-12-15T05:00:00Z', '2026-12-15T12:00:00+09:00', '2026-12-15T21:59:00-05:00', '2026-12-15T22:00:00-05:00', 'x'].map(timeOfDay), [
    'night',
    'morning',
    'afternoon',
    'evening',
    'night',
    undefined,
  ]);
});

test('a round trip is nonstop only when both ways are, and an airline filter covers the return', () => {
  const back = { stops: 1, segments: [seg('EI', 'LHR', 'DUB', '2026-12-20T10:00:00Z', '2026-12-20T11:00:00Z'), seg('EI', 'DUB', 'JFK', '2026-12-20T12:00:00Z', '2026-12-20T15:00:00-05:00')] };
  const rt = option(1, 800, 420, '2026-12-15T08:00:00-05:00', [seg('BA', 'JFK', 'LHR', '2026-12-15T08:00:00-05:00', '2026-12-15T20:00:00Z')], back);
  assert.equal(matches(rt, { ...noFilter(), nonstop: true }), false);
  assert.equal(matches(rt, { ...noFilter(), airlines: new Set(['BA']) }), false);
  assert.equal(matches(rt, { ...noFilter(), airlines: new Set(['BA', 'EI']) }), true);
});

test('the timeline puts each flight and connection on one axis, and the night where the traveller is', () => {
  assert.equal(offsetMinutes('2026-12-15T08:00:00-05:00'), -300);
  assert.equal(offsetMinutes('2026-12-15T08:00:00+05:30'), 330);
  assert.equal(offsetMinutes('2026-12-15T08:00:00Z'), 0);
  // JFK 20:00 (-05:00, 01:00Z) to KEF 06:00Z: 5 hours; 3 hours in KEF;
  // KEF 09:00 to LHR 12:00Z: 11 hours in all.
  const tl = timeline({
    segments: [seg('FI', 'JFK', 'KEF', '2026-12-15T20:00:00-05:00', '2026-12-16T06:00:00Z'), seg('FI', 'KEF', 'LHR', '2026-12-16T09:00:00Z', '2026-12-16T12:00:00Z')],
    layovers: [{ airport: 'KEF', minutes: 180, overnight: true }],
  });
  assert.deepEqual(
    tl.pieces.map((p) => [p.kind, p.x0, p.x1]),
    [
      ['flight', 0, 5 / 11],
      ['layover', 5 / 11, 8 / 11],
      ['flight', 8 / 11, 1],
    ],
  );
  assert.equal(tl.pieces[1].airport, 'KEF');
  assert.equal(tl.pieces[1].overnight, true);
  // In the air the zone moves evenly from -05:00 to Z, so the local time h
  // hours in is 20:00 + 2h: night (22:00) begins an hour in and ends (06:00)
  // as the plane lands; on the ground in KEF it is day.
  assert.equal(tl.nights.length, 1);
  const [night] = tl.nights;
  assert.ok(Math.abs(night.x0 - 1 / 11) < 0.01, `night begins an hour in: ${night.x0}`);
  assert.ok(Math.abs(night.x1 - 5 / 11) < 0.01, `night ends at landing in KEF: ${night.x1}`);
  assert.equal(timeline({ segments: [seg('BA', 'JFK', 'LHR', 'garbage', '2026-12-15T20:00:00Z')] }), null);
  const day = timeline({ segments: [seg('BA', 'LHR', 'CDG', '2026-12-15T10:00:00Z', '2026-12-15T12:15:00+01:00')] });
  assert.deepEqual(day.nights, [], 'a daytime flight has no night');
});

// A result may say anything: a flight that lands years after it leaves (or
// a connection years long) would have the night hours walked five minutes
// at a time for all those years. Such a leg is refused at once, as a
// RangeError (the view then says it could not draw the result); the longest
// a real one lasts is still drawn.
test('a timeline refuses a flight over 48 h or a leg over a week, and draws the longest real ones', () => {
  const iso = (ms) => new Date(ms).toISOString().replace('.000Z', 'Z');
  const t0 = Date.parse('2026-12-15T20:00:00Z');
  const h = 3_600_000;
  const flight = (from, to, dep, arr) => seg('SQ', from, to, iso(t0 + dep * h), iso(t0 + arr * h));
  for (const [what, segments] of [
    ['a flight of 49 h', [flight('SIN', 'EWR', 0, 49)]],
    ['a flight landing ten years later', [flight('SIN', 'EWR', 0, 10 * 8766)]],
    ['a flight landing in 9999', [seg('SQ', 'SIN', 'EWR', iso(t0), '9999-12-31T23:59:00Z')]],
    ['flights a year apart', [flight('SIN', 'FRA', 0, 13), flight('FRA', 'EWR', 8766, 8775)]],
    ['a leg of a week and an hour', [flight('SIN', 'FRA', 0, 13), flight('FRA', 'EWR', 160, 169)]],
  ]) {
    assert.throws(() => timeline({ segments }), RangeError, what);
  }
  // 48 h in the air, and a week from the first departure to the last
  // arrival, are drawn.
  assert.equal(timeline({ segments: [flight('SIN', 'EWR', 0, 48)] }).pieces.length, 1);
  const week = timeline({ segments: [flight('SIN', 'FRA', 0, 13), flight('FRA', 'EWR', 159, 168)] });
  assert.deepEqual(week.pieces.map((p) => p.kind), ['flight', 'layover', 'flight']);
  assert.ok(week.nights.length >= 6, `a week has its nights: ${week.nights.length}`);
});

test('a timeline\'s labels: first and last always, the others in full, shortened or left out so none touches', () => {
  const box = (left, right, short) => ({ left, right, short: short && { left: short[0], right: short[1] } });
  // 0-50 the departure, 250-300 the arrival, 4 pixels kept between labels.
  const first = box(0, 50);
  const last = box(250, 300);
  assert.deepEqual(fitLabels([first, last]), ['full', 'full']);
  assert.deepEqual(fitLabels([first, box(100, 160, [115, 145]), last]), ['full', 'full', 'full']);
  // Too close to the departure in full, clear of it shortened.
  assert.deepEqual(fitLabels([first, box(40, 100, [55, 85]), last]), ['full', 'short', 'full']);
  // Over the arrival even shortened: left out.
  assert.deepEqual(fitLabels([first, box(220, 280, [235, 265]), last]), ['full', 'none', 'full']);
  // Two close together: the second gives way to the first, then to the arrival.
  assert.deepEqual(fitLabels([first, box(60, 120, [75, 105]), box(110, 170, [125, 155]), box(200, 260, [215, 245]), last]), ['full', 'full', 'short', 'short', 'full']);
  assert.deepEqual(fitLabels([first, box(60, 120, [75, 105]), box(100, 160, [115, 118]), last]), ['full', 'full', 'none', 'full']);
});

test('the ladder in one line', () => {
  const base = { found: 47, candidates: 47, flights: [{}], ranked: true, attempts: [{ step: 'client_sampling', outcome: 'skipped', reason: 'client did not declare sampling' }] };
  assert.equal(ladderLine({ ...base, method: 'client_sampling', model: 'claude' }), "Ranked by your assistant's model (claude)");
  assert.equal(ladderLine({ ...base, method: 'server_llm' }), "Ranked by the server's LLM");
  assert.equal(ladderLine({ ...base, method: 'deterministic' }), 'Ranked by the deterministic score (price, stops and time) — your assistant could not rank: client did not declare sampling');
  assert.equal(ladderLine({ ...base, method: 'candidates', ranked: false }), 'Not ranked: a shortlist for you and your assistant to choose from');
  const empty = { ...base, candidates: 0, flights: [], method: 'deterministic' };
  assert.equal(ladderLine(empty), "Nothing to rank: none of the 47 flights found fits the trip's limits");
});

// Steps, methods and airport codes come from the result: one named like
// a property every object inherits is a name like any other.
test('a step or airport named like an inherited property is looked up as itself', () => {
  assert.equal(stepLabel('deterministic'), 'deterministic score');
  for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']) {
    assert.equal(stepLabel(name), name);
    assert.equal(cityOf(name, { LHR: 'Heathrow Airport, London, GB' }), '');
    const base = { found: 47, candidates: 47, flights: [{}], ranked: true, attempts: [] };
    assert.equal(ladderLine({ ...base, method: name }), `Ranked by ${name}`);
  }
  assert.equal(cityOf('LHR', { LHR: 'Heathrow Airport, London, GB' }), 'London');
  assert.equal(stepLabel(''), 'unknown step');
});

test('tripArgs asks again for the trip a result echoes, with a change', () => {
  const trip = { origin: 'NYC', destination: 'LON', originAirports: ['JFK'], date: '2026-12-15', returnDate: '2026-12-20', flexDays: 2, flexIndependently: true, passengers: 2, cabin: 'business', maxStops: 1, airlines: [], excludeAirlines: ['VS'], maxPrice: 900 };
  assert.deepEqual(tripArgs(trip), { origin: 'NYC', destination: 'LON', date: '2026-12-15', returnDate: '2026-12-20', flexDays: 2, flexIndependently: true, passengers: 2, cabin: 'business', maxStops: 1, excludeAirlines: ['VS'], maxPrice: 900 });
  assert.deepEqual(tripArgs(trip, { date: '2026-12-14', returnDate: '2026-12-21', flexDays: 0 }), { origin: 'NYC', destination: 'LON', date: '2026-12-14', returnDate: '2026-12-21', passengers: 2, cabin: 'business', maxStops: 1, excludeAirlines: ['VS'], maxPrice: 900 });
  assert.deepEqual(tripArgs(trip, withoutFilter('maxPrice')).maxPrice, undefined);
  assert.deepEqual(tripArgs(trip, withoutFilter('excludeAirlines')).excludeAirlines, undefined);
  const windows = tripArgs({ ...trip, departAfter: '08:00', departBefore: '12:00' }, withoutFilter('departAfter/departBefore'));
  assert.equal(windows.departAfter ?? windows.departBefore, undefined);
  assert.equal(tripArgs(trip, withoutFilter('maxStops')).maxStops, undefined);
});

test('viewLocale takes BCP 47 tags and mends POSIX names; what Intl cannot parse is dropped', () => {
  for (const [given, want] of [
    ['en-US', 'en-US'],
    ['de', 'de'],
    ['en_US', 'en-US'],
    ['de_DE.UTF-8', 'de-DE'],
    ['sr_RS@latin', 'sr-RS'],
    ['C.UTF-8', undefined],
    ['x', undefined],
    ['', undefined],
    [42, undefined],
    [undefined, undefined],
  ]) {
    assert.equal(viewLocale(given), want, JSON.stringify(given));
  }
  // Each one the view keeps formats, where the raw value throws.
  assert.throws(() => usd(1234, 'en_US'), RangeError);
  assert.equal(usd(1234, viewLocale('en_US')), '$1,234');
  assert.equal(formatDate('2026-12-31', viewLocale('en_US')), 'Thu, Dec 31, 2026');
});

test('a hold made again is one hold; the holds each context update repeats are bounded', () => {
  const { result } = readResult({
    trip: { origin: 'JFK', destination: 'LHR' },
    flights: [{ id: 'JFK-LHR-261231-DNRGV', totalUSD: 346, stops: 0, depart: '2026-12-31T22:10:00-05:00', arrive: '2027-01-01T10:05:00Z',
      segments: [{ flightNumber: 'VS3', from: 'JFK', to: 'LHR', depart: '2026-12-31T22:10:00-05:00', arrive: '2027-01-01T10:05:00Z' }] }],
  });
  const [flight] = result.flights;
  const held = (i) => ({ flight, booking: { reference: `BK-JFK-LHR-261231-DNRGV-${'A'.repeat(100)}${i}-TAG`, passengerName: 'N'.repeat(80), seat: 'aisle', priceUSD: 346 }, saved: null });
  const saved = { format: 'ics', uri: 'file:///tmp/x.ics', path: '/tmp/x.ics' };

  // The same reference again takes the first one's place, at the end, keeping its file.
  let holds = addHold(addHold([], { ...held(1), saved }), held(2));
  holds = addHold(holds, held(1));
  assert.deepEqual(holds.map((x) => x.booking.reference.slice(-5)), ['2-TAG', '1-TAG']);
  assert.deepEqual(holds[1].saved, saved);

  const now = { content: [{ type: 'text', text: 'In the flight results view the user is now looking at a day.' }], structuredContent: { flightIds: [] } };
  assert.equal(withHolds(now, []), now);
  const few = withHolds(now, holds);
  assert.equal(few.structuredContent.held.length, 2);
  assert.ok(few.content[0].text.endsWith(now.content[0].text));

  // However many the user held, an update repeats the latest HELD_IN_CONTEXT and counts the rest.
  const size = (n) => {
    let many = [];
    for (let i = 0; i < n; i++) many = addHold(many, held(i));
    const ctx = withHolds(now, many);
    return { ctx, bytes: JSON.stringify(ctx).length };
  };
  const { ctx: capped, bytes: at } = size(HELD_IN_CONTEXT);
  assert.equal(capped.structuredContent.heldNotRepeated, undefined);
  const { ctx: lots, bytes } = size(500);
  assert.equal(lots.structuredContent.held.length, HELD_IN_CONTEXT);
  assert.equal(lots.structuredContent.held.at(-1).booking.reference, held(499).booking.reference, 'the latest are kept');
  assert.equal(lots.structuredContent.heldNotRepeated, 500 - HELD_IN_CONTEXT);
  assert.match(lots.content[0].text, new RegExp(`^\\(The user held ${500 - HELD_IN_CONTEXT} more flights earlier in this view, not repeated here\\.\\) `));
  assert.ok(bytes < at + 200, `500 holds make a ${bytes}-byte update, ${HELD_IN_CONTEXT} a ${at}-byte one`);
});
