// The results view in a real browser, in a host built on ext-apps'
// AppBridge and the official TypeScript client, against the REAL
// flightserver binary in both protocol eras: the picks render, the ladder
// is shown, and choosing a flight books and saves it through real tool
// calls. See harness.mjs for how the host is put together.
//
//   cd web && npm ci && npm test       (needs /usr/bin/chromium and go)
//   FLIGHTSERVER_BIN=/path/to/flightserver npm test   # skip the go build

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { BUILD_TIMEOUT_MS, buildBinary } from '../../interop/flightserver.mjs';
import { launchBrowser, loadView, openSession, showToolCall, startPages } from './harness.mjs';

const ERAS = ['2025-11-25', '2026-07-28'];
const TEST_TIMEOUT_MS = 45_000;
const UI_TIMEOUT_MS = 10_000;

// Dates the server accepts (today up to a year ahead) in every time zone.
const day = (n) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const DATE = day(30);
const TRIP = { origin: 'JFK', destination: 'LHR', date: DATE };

let built;
let pages;
let browser;

before(
  async () => {
    built = buildBinary();
    pages = await startPages();
    browser = await launchBrowser();
  },
  { timeout: BUILD_TIMEOUT_MS + 30_000 },
);

after(async () => {
  await browser?.close();
  await pages?.close();
  built?.cleanup();
});

// withHost runs `fn` with a fresh server, client, browser context and page,
// and closes them all afterwards. It records the page's console errors
// (every frame's, the view's included) so a test can require none.
async function withHost({ transport = 'stdio', era, exportDir = true, extension = true, width = 860 }, fn) {
  const dir = exportDir ? mkdtempSync(path.join(os.tmpdir(), 'flightserver-view-')) : undefined;
  const session = await openSession({ bin: built.bin, transport, era, extension, serverArgs: dir ? ['--export-dir', dir] : [] });
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  context.setDefaultTimeout(UI_TIMEOUT_MS);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (err) => errors.push(String(err)));
  try {
    const tool = session.tools.find((t) => t.name === 'findBestFlight');
    const view = await loadView(session.client, tool);
    await fn({ session, page, view, dir, errors });
  } finally {
    await context.close();
    await session.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

const textOf = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
const ids = (cards) => cards.evaluateAll((els) => els.map((e) => e.dataset.flightId));
const callsTo = (record, name) => record.calls.filter((c) => c.name === name);
const shortDate = (ymd) => new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' }).format(Date.parse(`${ymd}T00:00:00Z`));
const longDate = (ymd) => new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }).format(Date.parse(`${ymd}T00:00:00Z`));
const usd = (n) => `$${n.toLocaleString('en-US')}`;
const minutes = (m) => `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
const stopsWords = (leg) => (leg.stops ? `${leg.stops} ${leg.stops === 1 ? 'stop' : 'stops'} via ${leg.via.join(', ')}` : 'nonstop');
const legs = (f) => [f, ...(f.return ? [f.return] : [])];
const isFocused = (locator) => locator.evaluate((el) => el === document.activeElement);
const focusedDay = (view) => view.locator('html').evaluate(() => document.activeElement?.dataset.date);
const visible = (locator) => locator.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });

// waitFor polls `check` until it returns something truthy (a host-side
// record the view's action fills in), failing after UI_TIMEOUT_MS.
async function waitFor(check, what) {
  const end = Date.now() + UI_TIMEOUT_MS;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// assertPicks checks that the view shows the flights of `sc` in its order,
// each with its date, flight numbers, airlines, airports, local departure
// times, connections and price.
async function assertPicks(view, sc) {
  const cards = view.locator('li.flight.pick');
  await visible(cards.first());
  assert.deepEqual(await ids(cards), sc.flights.map((f) => f.id));
  for (const [i, f] of sc.flights.entries()) {
    const text = await cards.nth(i).innerText();
    // The day it leaves, so the picks of a flexible search tell apart.
    assert.equal(await cards.nth(i).locator('h3 .when').innerText(), shortDate(f.depart.slice(0, 10)));
    for (const leg of legs(f)) {
      for (const s of leg.segments) {
        assert.ok(text.includes(s.flightNumber), `card ${i + 1} names ${s.flightNumber}: ${text}`);
        assert.ok(text.includes(s.airlineName), `card ${i + 1} names the airline ${s.airlineName}: ${text}`);
        // The airport's local time, as the server wrote it (no conversion).
        assert.ok(text.includes(s.depart.slice(11, 16)), `card ${i + 1} shows ${s.from} departure ${s.depart}: ${text}`);
        for (const code of [s.from, s.to]) {
          const city = sc.airports[code].split(', ').at(-2);
          assert.ok(text.includes(`${code} ${city}`), `card ${i + 1} shows ${code} with its city ${city}: ${text}`);
        }
      }
      for (const l of leg.layovers ?? []) assert.ok(text.includes(`${minutes(l.minutes)} connection in ${l.airport}`), `card ${i + 1} shows the connection in ${l.airport}: ${text}`);
    }
    assert.ok(text.includes(`$${f.totalUSD.toLocaleString('en-US')}`), `card ${i + 1} shows $${f.totalUSD}: ${text}`);
    assert.ok(text.includes(f.reason), `card ${i + 1} gives the server's reason: ${text}`);
    // Each button's accessible name says which flight it chooses (its
    // numbers, a round trip's return, the day: the same numbers fly every
    // day), and no other button has it.
    const name = await cards.nth(i).getByRole('button').getAttribute('aria-label');
    const numbers = `Choose this flight: ${f.segments.map((s) => s.flightNumber).join(' + ')}${f.return ? `, back ${f.return.segments.map((s) => s.flightNumber).join(' + ')}` : ''} on `;
    assert.ok(name.startsWith(numbers), `${name} starts with ${numbers}`);
    assert.equal(await view.getByRole('button', { name, exact: true }).count(), 1, name);
  }
}

// assertLadder checks the ladder's disclosure: one line, the attempts
// hidden until the user opens it with the keyboard, then every attempt in
// order with its outcome and the server's one-line reason.
async function assertLadder(page, view, sc, line) {
  const ladder = view.locator('details.ladder');
  const rungs = ladder.locator('li.attempt');
  assert.equal(await ladder.getAttribute('open'), null, 'the ladder starts closed');
  assert.equal(await rungs.first().isVisible(), false, 'its attempts are hidden');
  if (line) assert.match(await ladder.locator('summary .line').innerText(), line);
  await ladder.locator('summary').focus();
  await page.keyboard.press('Enter');
  await visible(rungs.first());
  assert.equal(await rungs.count(), sc.attempts.length);
  for (const [i, a] of sc.attempts.entries()) {
    const text = await rungs.nth(i).innerText();
    const step = a.step ?? a.tier;
    assert.ok(text.includes(step), `rung ${i + 1} names ${step}: ${text}`);
    assert.ok(text.includes(a.outcome), `rung ${i + 1} says ${a.outcome}: ${text}`);
    assert.ok(text.includes(a.reason), `rung ${i + 1} gives the reason "${a.reason}": ${text}`);
  }
}

// optionsOf waits for the view's full list and returns what the server
// listed for it (the view's listFlightOptions call).
async function optionsOf(view, record) {
  await visible(view.locator('section.all ol.options'));
  const [call] = callsTo(record, 'listFlightOptions');
  assert.notEqual(call.result.isError, true, textOf(call.result));
  return call.result.structuredContent;
}

// rows are the full list's rows, all of them shown.
async function allRows(view) {
  const more = view.locator('#show-all');
  if ((await more.count()) && (await more.getAttribute('aria-expanded')) === 'false') await more.click();
  return view.locator('section.all li.flight.option');
}

// chooseAndHold picks flight `index` with the keyboard, fills in the
// confirmation and submits it with Enter.
async function chooseAndHold(page, view, index, { name = 'Ada Lovelace', seat = 'aisle' } = {}) {
  const choose = view.locator('li.flight.pick').nth(index).getByRole('button', { name: 'Choose this flight' });
  await choose.focus();
  await page.keyboard.press('Enter');
  const passenger = view.getByLabel('Passenger name, as on their ID');
  await visible(passenger);
  assert.ok(await isFocused(passenger), 'choosing a flight moves focus to the passenger name');
  await passenger.fill(name);
  await view.getByLabel('Seat').selectOption(seat);
  await passenger.press('Enter');
}

for (const transport of ['stdio', 'http']) {
  for (const era of ERAS) {
    describe(`${transport}, protocol ${era}`, () => {
      test('a ranked result renders, and choosing a flight holds and saves it through the server', { timeout: TEST_TIMEOUT_MS }, async () => {
        await withHost({ transport, era }, async ({ page, session, view: source, dir, errors }) => {
          const { result, record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP });
          const sc = result.structuredContent;
          assert.equal(sc.ranked, true, JSON.stringify(sc.attempts));

          await assertPicks(view, sc);
          // The counts are the summary's.
          const heading = `Best ${sc.flights.length} of ${sc.candidates} flights`;
          assert.equal(await view.locator('#picks-h').innerText(), heading);
          assert.ok(sc.summary.startsWith(heading), `the summary says "${heading}" too: ${sc.summary}`);
          assert.equal(await view.locator('.ranked-by').innerText(), `${sc.found} flights found; the ranking chose among ${sc.candidates} flights within your limits.`);
          await assertLadder(page, view, sc, /^Ranked by the deterministic score \(price, stops and time\) — your assistant could not rank: client did not declare sampling$/);
          assert.match(await view.locator('header.trip .synthetic').innerText(), /^Synthetic sample data/);
          // The arrow is hidden from screen readers, which hear "to".
          await visible(view.getByRole('heading', { level: 1, name: 'JFK to LHR', exact: true }));

          // Nothing is sent before the user confirms, and an empty name is
          // refused by the view. Then the user changes their mind.
          await view.locator('li.flight.pick').nth(0).getByRole('button', { name: 'Choose this flight' }).click();
          await view.getByRole('button', { name: 'Hold this flight (simulation)' }).click();
          await visible(view.locator('#passenger-problem'));
          assert.equal(callsTo(record, 'bookFlight').length, 0, 'no call before the user gave a name');

          const choice = sc.flights[1];
          await chooseAndHold(page, view, 1);
          assert.equal(await view.locator('section.action').count(), 1, 'one confirmation, under the flight chosen last');
          assert.equal(await view.locator('li.flight.chosen').getAttribute('data-flight-id'), choice.id);
          const booked = view.locator('#booked-h');
          await visible(booked);
          assert.equal(callsTo(record, 'bookFlight').length, 1);
          const [book] = callsTo(record, 'bookFlight');
          assert.equal(book.name, 'bookFlight');
          assert.deepEqual(book.arguments, { flightId: choice.id, confirm: true, passengerName: 'Ada Lovelace', seat: 'aisle', cabin: sc.trip.cabin });
          assert.notEqual(book.result.isError, true, textOf(book.result));
          const ref = book.result.structuredContent.reference;
          assert.equal(book.result.structuredContent.attempts.find((a) => a.outcome === 'used')?.step, 'confirm_arguments');
          assert.equal(await booked.innerText(), `Held (simulation) ${ref}`);
          assert.ok(await isFocused(booked), 'the hold moves focus to its result');

          // The model is told what was chosen, without a chat message.
          const told = await waitFor(() => record.contexts[0], 'ui/update-model-context');
          assert.match(told.content[0].text, new RegExp(`chose ${choice.id} .*reference ${ref}, passenger Ada Lovelace, seat aisle`));
          assert.deepEqual(told.structuredContent.booking.reference, ref);
          assert.equal(record.messages.length, 0);

          await view.getByRole('button', { name: 'Save to calendar (.ics)' }).click();
          await visible(view.locator('#saved'));
          assert.deepEqual(record.calls.map((c) => c.name), ['listFlightOptions', 'bookFlight', 'saveItinerary']);
          const [saveCall] = callsTo(record, 'saveItinerary');
          assert.equal(saveCall.name, 'saveItinerary');
          assert.deepEqual(saveCall.arguments, { bookingRef: ref, format: 'ics' });
          assert.notEqual(saveCall.result.isError, true, textOf(saveCall.result));
          const saved = saveCall.result.structuredContent;
          assert.equal(path.dirname(saved.path), dir, 'saved in the server\'s export directory');
          assert.ok((await view.locator('#saved').innerText()).includes(saved.path));
          const ics = readFileSync(saved.path, 'utf8');
          assert.match(ics, /^BEGIN:VCALENDAR\r?\n/);
          for (const s of choice.segments) assert.ok(ics.includes(s.flightNumber), `the .ics names ${s.flightNumber}`);

          const toldAgain = await waitFor(() => record.contexts[1], 'a second ui/update-model-context');
          assert.ok(toldAgain.content[0].text.includes(saved.uri), toldAgain.content[0].text);

          assert.deepEqual(errors, [], 'no console errors in any frame');
        });
      });
    });
  }
}

for (const era of ERAS) {
  test(`stdio, protocol ${era}: the candidates shortlist is labelled as not ranked`, { timeout: TEST_TIMEOUT_MS }, async () => {
    await withHost({ era }, async ({ page, session, view: source, errors }) => {
      const { result, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: { ...TRIP, strategy: 'candidates' } });
      const sc = result.structuredContent;
      assert.equal(sc.ranked, false);
      assert.ok(sc.flights.length > 3, `a shortlist: ${sc.flights.length} flights`);

      await assertPicks(view, sc);
      assert.equal(await view.locator('#picks-h').innerText(), `Shortlist: ${sc.flights.length} of ${sc.candidates} flights not ranked — choose with the user`);
      // Said in the server's words, not "its own order".
      const used = sc.attempts.find((a) => a.step === sc.method && a.outcome === 'used');
      assert.equal(await view.locator('.ranked-by').innerText(), `Not ranked: ${used.reason}. Compare them and choose with your assistant.`);
      assert.equal(await view.locator('li.flight .rank').count(), 0, 'no pick numbers on an unranked list');
      await assertLadder(page, view, sc, /^Not ranked: a shortlist/);
      assert.equal(await view.locator('li.attempt.used', { hasText: sc.method }).count(), 1, 'the rung that made the shortlist is marked used');
      assert.deepEqual(errors, []);
    });
  });
}

test('the server\'s refusal of a name is shown as it said it, and a corrected name books', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2025-11-25' }, async ({ page, session, view: source }) => {
    const { result, record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP });
    await visible(view.locator('li.flight.pick').first());
    // The view checks only the length; which characters a name may hold is the server's rule.
    await chooseAndHold(page, view, 0, { name: 'R2-D2' });
    const alert = view.locator('section.action').getByRole('alert');
    await visible(alert);
    const books = () => callsTo(record, 'bookFlight');
    assert.equal(books().length, 1);
    assert.equal(books()[0].result.isError, true);
    assert.equal(await alert.innerText(), `Not held. The server said: ${textOf(books()[0].result)}`);
    assert.ok(await isFocused(view.locator('#passenger')), 'focus back on the name to correct it');

    await view.locator('#passenger').fill('Grace Hopper');
    await view.locator('#passenger').press('Enter');
    await visible(view.locator('#booked-h'));
    assert.equal(books()[1].arguments.passengerName, 'Grace Hopper');
    assert.equal(books()[1].arguments.flightId, result.structuredContent.flights[0].id);
  });
});

test('saving on a server with nowhere to write shows the server\'s error', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2026-07-28', exportDir: false }, async ({ page, session, view: source }) => {
    const { record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP });
    await visible(view.locator('li.flight.pick').first());
    await chooseAndHold(page, view, 0);
    await visible(view.locator('#booked-h'));
    await view.getByRole('button', { name: 'Save as Markdown' }).click();
    const alert = view.locator('section.action').getByRole('alert');
    await visible(alert);
    const [saveCall] = callsTo(record, 'saveItinerary');
    assert.deepEqual(saveCall.arguments, { bookingRef: callsTo(record, 'bookFlight')[0].result.structuredContent.reference, format: 'markdown' });
    assert.equal(saveCall.result.isError, true);
    assert.equal(await alert.innerText(), `Not saved. The server said: ${textOf(saveCall.result)}`);
    // The hold stands; the user can still try the other format.
    assert.equal(await view.getByRole('button', { name: 'Save to calendar (.ics)' }).isEnabled(), true);
  });
});

test('a host that lets the view call no tools gets no call, and the user is told to ask the assistant', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2026-07-28' }, async ({ page, session, view: source }) => {
    const { record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP, hostCapabilities: {} });
    await visible(view.locator('li.flight.pick').first());
    // The picks are whole without the other options, and the page says why those are missing.
    assert.equal(
      await view.locator('section.all').getByRole('alert').innerText(),
      "The other options could not be shown. This host does not let the view call the server's tools. Ask your assistant to call listFlightOptions instead.",
    );
    await chooseAndHold(page, view, 0);
    const alert = view.locator('section.action').getByRole('alert');
    await visible(alert);
    assert.match(await alert.innerText(), /does not let the view call the server's tools\. Ask your assistant to call bookFlight instead\./);
    assert.equal(record.calls.length, 0);
  });
});

test('a failed search shows the server\'s error text', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2025-11-25' }, async ({ page, session, view: source }) => {
    const { result, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: { ...TRIP, origin: 'ZZZ' } });
    assert.equal(result.isError, true);
    await visible(view.getByRole('heading', { name: 'The flight search failed' }));
    assert.equal(await view.locator('section.notice .pre').innerText(), textOf(result));
  });
});

// A result the view reads but cannot draw must not leave the page blank or
// at "Searching…": it says so, points to the conversation, and logs the
// error. Here a flight that lands fifty years after it leaves, whose
// timeline the view refuses to walk (seconds of work for each timeline,
// minutes for a landing in the year 9999).
const UNDRAWABLE = [
  {
    what: 'a flight landing fifty years after it leaves',
    error: /RangeError: flight \S+ lasts \d+ h, longer than any flight \(48 h\)/,
    alter: (sc) => {
      const s = sc.flights[0].segments[0];
      s.arrive = `${Number(s.arrive.slice(0, 4)) + 50}${s.arrive.slice(4)}`;
    },
  },
];
for (const tc of UNDRAWABLE) {
  test(`a result the view cannot draw (${tc.what}) says so and points to the conversation`, { timeout: TEST_TIMEOUT_MS }, async () => {
    await withHost({ era: '2025-11-25' }, async ({ page, session, view: source, errors }) => {
      const alter = (result) => {
        tc.alter(result.structuredContent);
        return result;
      };
      const { view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP, alter });
      const heading = view.getByRole('heading', { name: 'The view could not draw this result' });
      await visible(heading);
      const notice = view.locator('section.notice');
      assert.equal(await notice.getAttribute('role'), 'alert');
      assert.match(await notice.innerText(), /The full result is in the conversation/);
      assert.ok(!(await view.locator('main').innerText()).includes('Searching'), 'no longer "Searching…"');
      assert.equal(await view.locator('main').getAttribute('aria-busy'), null);
      await waitFor(() => errors.some((e) => /could not draw/.test(e) && tc.error.test(e)), 'the error logged to the console');
    });
  });
}

// A full list the view cannot draw (its options landing fifty years after
// they leave) costs the list, not the picks: they stay on the page, and the
// list's place says it could not be drawn.
test('a full list the view cannot draw leaves the picks on the page', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2025-11-25' }, async ({ page, session, view: source, errors }) => {
    const alterCall = (name, result) => {
      if (name === 'listFlightOptions') {
        for (const o of result.structuredContent.options) {
          const s = o.segments[0];
          s.arrive = `${Number(s.arrive.slice(0, 4)) + 50}${s.arrive.slice(4)}`;
        }
      }
      return result;
    };
    const { view, result } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP, alterCall });
    await visible(view.getByText('The other options could not be shown. The view could not draw them: the picks above are complete.'));
    assert.equal(await view.getByRole('heading', { name: 'The view could not draw this result' }).count(), 0, 'the whole page was replaced');
    const text = await view.locator('main').innerText();
    for (const f of result.structuredContent.flights) assert.ok(text.includes(f.segments[0].flightNumber), `pick ${f.id} is no longer shown`);
    await waitFor(() => errors.some((e) => /could not draw the full list/.test(e) && /RangeError/.test(e)), 'the error logged to the console');
  });
});

// Names in a result are the server's or the model's: a step, a method or
// an airport named like one of Object's own properties (toString,
// constructor, __proto__) is shown as the name it is, never as the function
// or object a plain object's lookup inherits (which crashed the ladder, and
// put function source in the ladder's line and an airport's tooltip).
test('a step, method or airport named toString, constructor or __proto__ is shown as plain text', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2025-11-25' }, async ({ page, session, view: source, errors }) => {
    const alter = (result) => {
      const sc = result.structuredContent;
      assert.ok(sc.ranked && sc.attempts.length >= 2, JSON.stringify(sc.attempts));
      sc.method = 'constructor';
      sc.attempts[0].step = 'toString';
      sc.attempts[1].step = '__proto__';
      sc.flights[0].segments[0].from = 'toString';
      sc.flights[0].segments.at(-1).to = 'constructor';
      return result;
    };
    const { result, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP, alter });
    const card = view.locator('li.flight.pick').first();
    await visible(card);
    assert.equal(await view.locator('section.notice').count(), 0, 'no "could not draw" notice');
    const ladder = view.locator('details.ladder');
    assert.equal(await ladder.locator('summary .line').innerText(), 'Ranked by constructor');
    await ladder.locator('summary').click();
    const rungs = ladder.locator('li.attempt');
    await visible(rungs.first());
    assert.equal(await rungs.nth(0).locator('.step').textContent(), 'ToString toString');
    assert.equal(await rungs.nth(1).locator('.step').textContent(), '__proto__ __proto__');
    assert.ok((await rungs.nth(0).innerText()).includes(result.structuredContent.attempts[0].reason));
    const places = card.locator('.place');
    const codes = await places.locator('.code').allInnerTexts();
    assert.ok(codes.includes('toString') && codes.includes('constructor'), codes.join(' '));
    // Nothing inherited anywhere: not in the text, nor in a tooltip or a
    // description.
    const text = await view.locator('main').innerText();
    const attributes = await view.locator('main').evaluate((main) => [...main.querySelectorAll('*')].flatMap((el) => [el.title, el.getAttribute('aria-label') ?? '']).join('\n'));
    for (const inherited of ['native code', 'function', '[object Object]']) {
      assert.ok(!text.includes(inherited), `the page says "${inherited}": ${text}`);
      assert.ok(!attributes.includes(inherited), `a title or label says "${inherited}": ${attributes}`);
    }
    for (const code of ['toString', 'constructor']) assert.equal(await places.filter({ hasText: code }).first().getAttribute('title'), null, `${code} has no full name to show`);
    assert.deepEqual(errors, []);
  });
});

// The host passes the call's arguments and then, for a while, nothing: the
// view says it is still waiting and that the answer may come in the
// conversation instead, and still shows a result that comes late; a
// cancellation says so, and no later hint replaces it. Playwright's fake
// clock (the whole context's: the view's frame too) stands in for the 30 s.
test('no result for 30 s: the view says it is still waiting, a late result still shows; a cancel says so; a result in time stays', { timeout: TEST_TIMEOUT_MS }, async () => {
  const heading = (view) => view.locator('section.notice h1');
  await withHost({ era: '2025-11-25' }, async ({ page, session, view: source }) => {
    await page.clock.install();
    const { result, bridge, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP, sendResult: false });
    await visible(view.getByRole('heading', { name: 'Searching…' }));
    await page.clock.fastForward(29_000);
    assert.equal(await heading(view).innerText(), 'Searching…', 'not yet after 29 s');
    await page.clock.fastForward(1_000);
    await visible(view.getByRole('heading', { name: 'Still waiting for the flight search' }));
    const text = await view.locator('section.notice').innerText();
    assert.ok(text.includes(`JFK → LHR on ${DATE}`), text);
    assert.match(text, /may appear in the conversation instead/);
    await waitFor(async () => /still waiting/i.test(await view.locator('#status').innerText()), 'the live region saying so');
    await bridge.sendToolResult(result);
    await assertPicks(view, result.structuredContent);
  });
  await withHost({ era: '2026-07-28' }, async ({ page, session, view: source }) => {
    await page.clock.install();
    const { bridge, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP, sendResult: false });
    await visible(view.getByRole('heading', { name: 'Searching…' }));
    await bridge.sendToolCancelled({ reason: 'The user stopped the search.' });
    await visible(view.getByRole('heading', { name: 'The flight search was cancelled' }));
    await page.clock.fastForward(60_000);
    assert.equal(await heading(view).innerText(), 'The flight search was cancelled', 'no waiting hint after a cancel');
    assert.equal(await view.locator('section.notice .pre').innerText(), 'The user stopped the search.');
  });
  // A result in time is not replaced by the hint later.
  await withHost({ era: '2025-11-25' }, async ({ page, session, view: source }) => {
    await page.clock.install();
    const { result, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP });
    await assertPicks(view, result.structuredContent);
    await page.clock.fastForward(60_000);
    assert.equal(await view.locator('section.notice').count(), 0, 'no notice over the result');
    await assertPicks(view, result.structuredContent);
  });
});

test('the view runs under the sandbox\'s CSP: it fetched nothing and can reach nothing', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2026-07-28' }, async ({ page, session, view: source, errors }) => {
    pages.served.length = 0;
    const { view, record } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP });
    await optionsOf(view, record); // the view's own tool call went through the host, not the network
    assert.deepEqual([...pages.served].sort(), ['/host.html', '/host.js', '/sandbox.html', '/sandbox.js']);
    const frame = page.frames().find((f) => f.url() === 'about:srcdoc');
    assert.ok(frame, 'the view is the srcdoc frame');
    const fetched = await frame.evaluate((url) => fetch(url).then(() => 'fetched', (e) => `refused: ${e.name}`), `${pages.host}/host.js`);
    assert.equal(fetched, 'refused: TypeError');
    await waitFor(() => errors.some((e) => /Content Security Policy/.test(e)), 'the CSP violation report in the console');
  });
});

// The host's dark theme reaches every element, the fare calendar's
// coloured days and the chips included.
test('the view takes the host\'s dark theme', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2025-11-25' }, async ({ page, session, view: source }) => {
    const { view, record } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: { ...TRIP, flexDays: 1 }, hostContext: { theme: 'dark' } });
    await optionsOf(view, record);
    assert.equal(await view.locator('html').getAttribute('data-theme'), 'dark');
    for (const [what, el] of [
      ['the page', view.locator('body')],
      ['a day of the calendar', view.locator('button.day').first()],
      ['a sort chip', view.locator('#sort-cheapest')],
    ]) {
      const { bg, fg } = await el.evaluate((e) => ({ bg: getComputedStyle(e).backgroundColor, fg: getComputedStyle(e).color }));
      const sum = (c) => c.match(/\d+/g).slice(0, 3).map(Number).reduce((x, y) => x + y);
      assert.ok(sum(bg) < 300, `${what}: a dark background: ${bg}`);
      assert.ok(sum(fg) > 450, `${what}: light text: ${fg}`);
    }
  });
});

// A chat column on a phone is about 320 CSS pixels wide (WCAG's reflow
// width): nothing may stick out of the view sideways, neither the cards
// of a connecting trip nor the full list; the grid of a round trip whose
// dates move on their own (7 x 7 days) scrolls in its own box.
test('at 320 pixels wide nothing sticks out sideways; the date grid scrolls in its own box', { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
  const overflow = (view) =>
    view.locator('html').evaluate(() => {
      const w = document.documentElement.clientWidth;
      const out = [...document.querySelectorAll('main *')].filter((el) => el.getBoundingClientRect().right > w + 0.5 && !el.closest('.grid-scroll')).map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
      return { width: w, scrollWidth: document.documentElement.scrollWidth, out: out.slice(0, 8) };
    });
  const trips = [
    ['a connecting trip', { origin: 'SFO', destination: 'DEL', date: DATE }],
    ['a 7 x 7 grid of dates', { ...TRIP, returnDate: day(37), flexDays: 3, flexIndependently: true }],
  ];
  for (const [what, args] of trips) {
    // The host page's padding takes 32 pixels.
    await withHost({ era: '2025-11-25', width: 320 + 32 }, async ({ page, session, view: source, errors }) => {
      const { record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args });
      await optionsOf(view, record);
      await allRows(view);
      const o = await overflow(view);
      assert.equal(o.width, 320, 'the view is 320 pixels wide');
      assert.ok(o.scrollWidth <= o.width && o.out.length === 0, `${what}: the page is ${o.scrollWidth} pixels wide in 320; sticking out: ${o.out.join(', ')}`);
      if (args.flexIndependently) {
        const box = view.locator('.grid-scroll');
        assert.equal(await box.count(), 1, 'the grid has a box of its own');
        const { scroll, client } = await box.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
        assert.ok(client <= 320 && scroll > client, `the grid scrolls in its box: ${scroll} in ${client}`);
        // The last day of the first row, reached by keyboard, is scrolled into sight.
        await view.locator('table.grid button.day').first().focus();
        await page.keyboard.press('End');
        const seen = await view.locator('html').evaluate(() => {
          const r = document.activeElement.getBoundingClientRect();
          return r.left >= 0 && r.right <= document.documentElement.clientWidth;
        });
        assert.ok(seen, 'the day focused is in sight');
      }
      assert.deepEqual(errors, []);
    });
  }
});

// At 320 pixels a timeline's labels (the departure, each connection, the
// arrival) have little room: no two shown may overlap, the first and last
// are always shown, and a connection's label is shortened to its airport or
// left out when it would collide (its gap still says it on hover, the
// description in full). San Francisco-Delhi has connections close enough
// to collide at that width.
test('at 320 pixels wide no two labels of a timeline overlap; the first and last stay', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2025-11-25', width: 320 + 32 }, async ({ session, page, view: source, errors }) => {
    const { record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: { origin: 'SFO', destination: 'DEL', date: DATE } });
    const opts = await optionsOf(view, record);
    const rows = await allRows(view);
    assert.equal(await rows.count(), opts.options.length);
    const found = await view.locator('html').evaluate(async () => {
      // What is drawn once the page has settled.
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const seen = (el) => el.checkVisibility({ visibilityProperty: true });
      return [...document.querySelectorAll('main .timeline .ticks')].map((ticks) => {
        const spans = [...ticks.children];
        const shown = spans.filter(seen).map((el) => {
          const r = el.getBoundingClientRect();
          return { text: el.innerText, full: el.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
        });
        return { count: spans.length, shown, first: seen(spans[0]), last: seen(spans.at(-1)) };
      });
    });
    assert.ok(found.length >= opts.options.length, `a timeline per option at least: ${found.length}`);
    let fitted = 0;
    for (const [i, t] of found.entries()) {
      assert.ok(t.first && t.last, `timeline ${i}: the first and last labels are shown: ${JSON.stringify(t.shown)}`);
      for (const [j, a] of t.shown.entries()) {
        for (const b of t.shown.slice(j + 1)) {
          const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          assert.ok(!overlap, `timeline ${i}: "${a.text}" (${a.left.toFixed(1)}-${a.right.toFixed(1)}) overlaps "${b.text}" (${b.left.toFixed(1)}-${b.right.toFixed(1)})`);
        }
      }
      fitted += t.count - t.shown.length + t.shown.filter((s) => s.text !== s.full).length;
    }
    assert.ok(fitted > 0, 'some labels had to be shortened or left out at 320 pixels');
    assert.deepEqual(errors, []);
  });
});

// ui/update-model-context replaces what the view said before, and a day of
// the calendar replaces the picks: a flight held, then another day looked
// at, must stay on the page and in what the model is told, or its
// reference is lost to both.
test('a flight held stays on the page and in the model\'s context when the user turns to another day', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2026-07-28' }, async ({ page, session, view: source, errors }) => {
    const { record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: { ...TRIP, flexDays: 1 } });
    await chooseAndHold(page, view, 0);
    await visible(view.locator('#booked-h'));
    const held = callsTo(record, 'bookFlight')[0].result.structuredContent;
    assert.ok(record.contexts.at(-1).content[0].text.includes(held.reference), 'the model is told of the hold');

    await view.locator('section.calendar button.day').first().click();
    await waitFor(() => callsTo(record, 'findBestFlight')[0]?.result, 'the day asked for');
    const told = await waitFor(() => record.contexts.find((c) => c.content[0].text.includes('now looking at')), 'the model told of the day');
    assert.ok(told.content[0].text.includes(held.reference), `the context still names the hold: ${told.content[0].text}`);
    assert.equal(told.structuredContent.held?.[0]?.booking?.reference, held.reference, JSON.stringify(told.structuredContent));
    const banner = view.locator('.held');
    await visible(banner);
    const text = await banner.innerText();
    assert.ok(text.includes(held.reference) && text.includes(held.passengerName), `the page still shows the hold: ${text}`);
    assert.deepEqual(errors, []);
  });
});

// The same booking always gets the same reference (bookFlight signs the
// flight, name, seat and cabin), so holding a flight again after turning
// to another day and back is the same hold: listed once, said once.
test('a flight held twice (another day, then back) is one hold on the page and in the model\'s context', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2026-07-28' }, async ({ page, session, view: source, errors }) => {
    const { record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: { ...TRIP, flexDays: 1 } });
    const days = view.locator('section.calendar button.day:not([disabled])');
    const dayAsked = async (i, n) => {
      await days.nth(i).click();
      await waitFor(() => callsTo(record, 'findBestFlight')[n - 1]?.result, `day ${i} asked for`);
      await waitFor(async () => (await view.locator('section.calendar[aria-busy="true"]').count()) === 0, 'the day shown');
    };
    await dayAsked(0, 1);
    await chooseAndHold(page, view, 0);
    await visible(view.locator('#booked-h'));
    await dayAsked(1, 2);
    await dayAsked(0, 3);
    await chooseAndHold(page, view, 0);
    await visible(view.locator('#booked-h'));
    const [first, again] = callsTo(record, 'bookFlight').map((c) => c.result.structuredContent.reference);
    assert.equal(again, first, 'the same booking, the same reference');
    const before = record.contexts.length;
    await dayAsked(1, 4);
    const told = await waitFor(() => record.contexts.slice(before).find((c) => c.content[0].text.includes('now looking at')), 'the model told of the day');
    assert.equal(told.structuredContent.held.length, 1, `one hold: ${JSON.stringify(told.structuredContent.held)}`);
    assert.equal(told.content[0].text.split(first).length - 1, 1, `the reference said once: ${told.content[0].text}`);
    assert.equal(await view.locator('section.held li').count(), 1, await view.locator('section.held').innerText());
    assert.deepEqual(errors, []);
  });
});

// gateCalls holds the first call the view makes of each tool in names
// until the test releases it: gates[name].asked says it came, and
// gates[name].release() lets it through to the server.
function gateCalls(bridge, names) {
  const forward = bridge.oncalltool;
  const gates = {};
  for (const name of names) {
    let release;
    gates[name] = { asked: false, opened: new Promise((resolve) => (release = resolve)) };
    gates[name].release = release;
  }
  bridge.oncalltool = async (params, extra) => {
    const gate = gates[params.name];
    if (gate && !gate.asked) {
      gate.asked = true;
      await gate.opened;
    }
    return forward(params, extra);
  };
  return gates;
}

// A host may send the view a result while bookFlight is on its way (the
// model called findBestFlight again): the server holds the flight all the
// same, so the hold is listed and told, and the view keeps working.
test('a hold the server makes after another result arrived is listed, and the view keeps working', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2026-07-28' }, async ({ page, session, view: source, errors }) => {
    const { result, bridge, record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP });
    const gates = gateCalls(bridge, ['bookFlight', 'saveItinerary']);
    const release = () => gates.bookFlight.release();
    await chooseAndHold(page, view, 0);
    await waitFor(() => gates.bookFlight.asked, 'bookFlight asked for');
    await bridge.sendToolResult(result);
    await visible(view.locator('li.flight.pick button.select:not([disabled])').first());
    release();
    const held = (await waitFor(() => callsTo(record, 'bookFlight')[0]?.result, 'the hold')).structuredContent;
    const banner = view.locator('section.held');
    await visible(banner);
    assert.ok((await banner.innerText()).includes(held.reference), await banner.innerText());
    const told = await waitFor(() => record.contexts.find((c) => c.structuredContent?.held), 'the model told of the hold');
    assert.equal(told.structuredContent.held[0].booking.reference, held.reference);
    // Another flight can be chosen and held; a result arriving while it is
    // saved loses neither the hold nor the file.
    await chooseAndHold(page, view, 1);
    await visible(view.locator('#booked-h'));
    const second = callsTo(record, 'bookFlight')[1].result.structuredContent;
    await view.getByRole('button', { name: 'Save to calendar (.ics)' }).click();
    await waitFor(() => gates.saveItinerary.asked, 'saveItinerary asked for');
    await bridge.sendToolResult(result);
    await visible(view.locator('li.flight.pick button.select:not([disabled])').first());
    gates.saveItinerary.release();
    const saved = (await waitFor(() => callsTo(record, 'saveItinerary')[0]?.result, 'the save')).structuredContent;
    await waitFor(async () => (await banner.innerText()).includes(saved.path), 'the file listed with its hold');
    const text = await banner.innerText();
    assert.ok(text.includes(held.reference) && text.includes(second.reference), text);
    assert.deepEqual(errors, []);
  });
});

// The result that comes while bookFlight (or saveItinerary) is on its way
// may be one the view cannot draw: the hold, and the file, are the user's
// all the same, and each context update replaces the last, so the model is
// told of them again, with every earlier hold, and that nothing is shown.
test('a hold or a save completed after a result the view could not draw is still in the model\'s context', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2026-07-28' }, async ({ page, session, view: source }) => {
    const { result, bridge, record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP });
    const undrawable = structuredClone(result);
    UNDRAWABLE[0].alter(undrawable.structuredContent);
    const gates = gateCalls(bridge, ['bookFlight', 'saveItinerary']);
    const notDrawn = view.getByRole('heading', { name: 'The view could not draw this result' });
    // A hold on its way when the result comes.
    await chooseAndHold(page, view, 0);
    await waitFor(() => gates.bookFlight.asked, 'bookFlight asked for');
    await bridge.sendToolResult(undrawable);
    await visible(notDrawn);
    const before = record.contexts.length;
    gates.bookFlight.release();
    const first = (await waitFor(() => callsTo(record, 'bookFlight')[0]?.result, 'the hold')).structuredContent;
    assert.equal(typeof first.reference, 'string', JSON.stringify(first));
    let told = await waitFor(() => record.contexts.slice(before).find((c) => c.structuredContent?.held), 'the model told of the hold');
    assert.deepEqual(told.structuredContent.held.map((x) => x.booking.reference), [first.reference]);
    assert.equal(told.structuredContent.viewing, null, JSON.stringify(told.structuredContent));
    assert.ok(told.content[0].text.includes(first.reference), told.content[0].text);
    assert.match(told.content[0].text, /could not draw the latest flight search result/);
    const banner = view.locator('section.held');
    await waitFor(async () => (await banner.count()) === 1 && (await banner.innerText()).includes(first.reference), 'the hold listed under the notice');
    await visible(notDrawn);
    // A result the view draws, a second hold, and its save on its way when
    // another result it cannot draw comes: both holds and the file are told.
    await bridge.sendToolResult(result);
    await chooseAndHold(page, view, 1);
    await visible(view.locator('#booked-h'));
    const second = callsTo(record, 'bookFlight')[1].result.structuredContent;
    await view.getByRole('button', { name: 'Save to calendar (.ics)' }).click();
    await waitFor(() => gates.saveItinerary.asked, 'saveItinerary asked for');
    await bridge.sendToolResult(undrawable);
    await visible(notDrawn);
    const later = record.contexts.length;
    gates.saveItinerary.release();
    const saved = (await waitFor(() => callsTo(record, 'saveItinerary')[0]?.result, 'the save')).structuredContent;
    told = await waitFor(() => record.contexts.slice(later).find((c) => c.structuredContent?.held), 'the model told of the save');
    assert.deepEqual(told.structuredContent.held.map((x) => x.booking.reference), [first.reference, second.reference]);
    assert.equal(told.structuredContent.held[1].itinerary?.path, saved.path, JSON.stringify(told.structuredContent.held[1]));
    assert.ok(told.content[0].text.includes(saved.uri ?? saved.path), told.content[0].text);
  });
});

// A hold made before a result the view cannot draw (or a failed search)
// is the user's all the same: its reference stays on the page, under the
// notice that replaced the result, and a change of the host's context
// does not bring the old result back over the notice.
test('flights held before a result the view cannot draw, or a failed search, stay listed on the page', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2026-07-28' }, async ({ page, session, view: source }) => {
    const { result, bridge, record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP });
    await chooseAndHold(page, view, 0);
    await visible(view.locator('#booked-h'));
    const held = callsTo(record, 'bookFlight')[0].result.structuredContent;
    assert.equal(typeof held.reference, 'string', JSON.stringify(held));
    const undrawable = structuredClone(result);
    UNDRAWABLE[0].alter(undrawable.structuredContent);
    await bridge.sendToolResult(undrawable);
    const notDrawn = view.getByRole('heading', { name: 'The view could not draw this result' });
    await visible(notDrawn);
    const banner = view.locator('section.held');
    await visible(banner);
    let text = await banner.innerText();
    assert.ok(text.includes(held.reference) && text.includes(held.passengerName), `the hold under the notice: ${text}`);
    assert.equal(await view.locator('li.flight').count(), 0, 'no flight of the earlier result on the page');

    await bridge.sendToolResult({ isError: true, content: [{ type: 'text', text: 'the provider is down' }] });
    await visible(view.getByRole('heading', { name: 'The flight search failed' }));
    text = await banner.innerText();
    assert.ok(text.includes(held.reference), `the hold under the failed search: ${text}`);
    bridge.setHostContext({ theme: 'dark' });
    await waitFor(async () => (await view.locator('html').getAttribute('data-theme')) === 'dark', 'the theme applied');
    assert.equal(await view.getByRole('heading', { name: 'The flight search failed' }).count(), 1, 'the notice stays');
    assert.equal(await view.locator('li.flight').count(), 0, 'the earlier result is not drawn again over the notice');
    assert.ok((await banner.innerText()).includes(held.reference));
  });
});

// hostContext.locale is BCP 47 by the spec, but a host may pass its system's
// name on (en_US, C.UTF-8): every Intl formatter throws on such a tag, which
// left the view on "Searching…" for good. The view mends it or drops it.
test('a host locale that is not BCP 47 (en_US, then C.UTF-8) still shows the result', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2025-11-25' }, async ({ page, session, view: source, errors }) => {
    const { result, bridge, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP, hostContext: { locale: 'en_US' } });
    await assertPicks(view, result.structuredContent); // in en-US's words: en_US mended
    assert.equal(await view.locator('html').getAttribute('lang'), 'en-US');
    bridge.setHostContext({ theme: 'dark', locale: 'C.UTF-8' });
    await waitFor(async () => (await view.locator('html').getAttribute('data-theme')) === 'dark', 'the context change');
    await assertPicks(view, result.structuredContent);
    assert.deepEqual(errors, []);
  });
});

// A flexible one-way search: the calendar has a cell per day searched, the
// days the limits leave empty empty (never "$0"), the lowest marked; each
// card says the day it leaves; a day chosen by keyboard is asked of the
// server and shown, the calendar staying as it was.
test('the fare calendar: empty days, the lowest marked, and a day chosen by keyboard shown from the server', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2026-07-28' }, async ({ page, session, view: source, errors }) => {
    // A price limit between the days' lowest fares, read from the server,
    // leaves some days empty. The server fills a filtered page from what
    // the unfiltered one left out, so a day's lowest under a limit can be
    // below its unfiltered lowest: the fares are read under a limit every
    // day meets (the highest unfiltered lowest), then cut between them.
    const lowestFares = async (extra) => (await session.client.callTool({ name: 'findBestFlight', arguments: { ...TRIP, flexDays: 3, ...extra } })).structuredContent.calendar.map((d) => d.lowestUSD);
    const fares = (await lowestFares({ maxPrice: Math.max(...(await lowestFares({}))) })).sort((x, y) => x - y);
    const maxPrice = fares[Math.floor(fares.length / 2)];
    const args = { ...TRIP, flexDays: 3, maxPrice };
    const { result, record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args });
    const sc = result.structuredContent;
    const empty = sc.calendar.filter((d) => !d.bestId);
    const priced = sc.calendar.filter((d) => d.bestId);
    assert.ok(empty.length >= 1 && priced.length >= 2, `some days empty and some priced under $${maxPrice}: ${JSON.stringify(sc.calendar)}`);
    assert.ok(empty.every((d) => d.lowestUSD === 0), 'the server writes 0 for an empty day');

    const cal = view.locator('section.calendar');
    await visible(cal);
    assert.equal(await cal.locator('ol.strip > li').count(), sc.calendar.length);
    assert.equal(await cal.locator('.day.empty').count(), empty.length);
    assert.equal(await cal.locator('button.day').count(), priced.length);
    assert.ok(!(await cal.innerText()).includes('$0'), 'no day reads $0');
    for (const d of empty) {
      assert.equal(await cal.getByRole('img', { name: `${longDate(d.date)}: nothing within your limits`, exact: true }).count(), 1, `${d.date} is empty`);
    }
    for (const d of priced) assert.equal(await cal.getByRole('button', { name: new RegExp(`^${longDate(d.date)}: from \\${usd(d.lowestUSD)}`) }).count(), 1);
    const lowest = Math.min(...priced.map((d) => d.lowestUSD));
    assert.match(await cal.locator('button.day.lowest').getAttribute('aria-label'), new RegExp(`from \\${usd(lowest)}, the lowest$`));
    assert.equal(await cal.locator('button.day[aria-pressed="true"]').count(), 0, 'the picks span the days: none is "shown"');
    await assertPicks(view, sc);

    // Keyboard: arrows move between the priced days, Enter asks for one.
    await cal.locator('button.day').first().focus();
    await page.keyboard.press('ArrowRight');
    const day = priced[1];
    assert.equal(await focusedDay(view), day.date, 'ArrowRight passes over empty days to the next priced one');
    await page.keyboard.press('End');
    assert.equal(await focusedDay(view), priced.at(-1).date);
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    const asked = await waitFor(() => callsTo(record, 'findBestFlight')[0]?.result && callsTo(record, 'findBestFlight')[0], 'the view asking for the day');
    assert.deepEqual(asked.arguments, { origin: 'JFK', destination: 'LHR', date: day.date, passengers: 1, cabin: 'economy', maxStops: 2, maxPrice });
    const daySc = asked.result.structuredContent;
    await waitFor(async () => JSON.stringify(await ids(view.locator('li.flight.pick'))) === JSON.stringify(daySc.flights.map((f) => f.id)), 'the day\'s picks');
    await assertPicks(view, daySc);
    for (const f of daySc.flights) assert.equal(f.depart.slice(0, 10), day.date);
    await waitFor(async () => (await view.locator(`button.day[data-date="${day.date}"]`).getAttribute('aria-pressed')) === 'true', 'the day pressed');
    assert.equal(await cal.locator('ol.strip > li').count(), sc.calendar.length, 'the calendar stays');
    assert.equal(await focusedDay(view), day.date, 'focus stays on the day');
    assert.match(await view.locator('header.trip').innerText(), /± 3 days[\s\S]*one day of the flexible search/);
    // The day's own options, and the model told what the user looks at.
    await waitFor(() => callsTo(record, 'listFlightOptions').find((c) => c.arguments.date === day.date && !('flexDays' in c.arguments)), 'that day\'s options');
    const told = await waitFor(() => record.contexts.find((c) => c.content[0].text.includes('now looking at')), 'the model told');
    assert.ok(told.content[0].text.includes(daySc.flights[0].id), told.content[0].text);
    const said = new RegExp(`^Flights on ${longDate(day.date)}: ${daySc.flights.length} ranked pick`);
    await waitFor(async () => said.test(await view.locator('#status').innerText()), `the live region saying ${said}`);
    assert.deepEqual(errors, []);
  });
});

// A round trip whose dates move on their own: a grid of outbound by return
// day from the server's fares per pair of days, a cell asked for by click,
// and each card's facts for both ways.
test('a round trip with independent dates: a depart x return grid, and a pair of days shown from the server', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ transport: 'http', era: '2025-11-25' }, async ({ page, session, view: source }) => {
    const args = { ...TRIP, returnDate: day(37), flexDays: 1, flexIndependently: true };
    const { result, record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args });
    const sc = result.structuredContent;
    assert.equal(sc.trip.flexIndependently, true);
    await assertPicks(view, sc);
    const opts = await optionsOf(view, record);
    const grid = view.locator('table.grid');
    await visible(grid);
    assert.equal(await grid.locator('tbody tr').count(), opts.calendar.length);
    for (const [i, d] of opts.calendar.entries()) {
      assert.equal(d.returns.length, 3);
      const cells = grid.locator('tbody tr').nth(i).locator('td');
      for (const [j, c] of d.returns.entries()) {
        const text = await cells.nth(j).innerText();
        assert.ok(c.bestId ? text.startsWith(usd(c.lowestUSD)) : text === '—', `${d.date} → ${c.date}: ${text}, want ${c.bestId ? usd(c.lowestUSD) : '—'}`);
      }
    }
    assert.match(await view.locator('header.trip').innerText(), /± 1 day, each date on its own/);

    // The round trip's facts say both ways.
    const first = view.locator('li.flight.pick').first();
    const f = sc.flights[0];
    const facts = (leg) => `${stopsWords(leg)} · ${minutes(leg.durationMinutes)} · ${[...new Set(leg.segments.map((x) => x.airlineName))].join(', ')}`;
    assert.deepEqual(await first.locator('p.facts span').allInnerTexts(), [`Out: ${facts(f)}`, `Back: ${facts(f.return)}`]);
    assert.deepEqual(await first.locator('.leg h4').allInnerTexts().then((t) => t.map((x) => x.split(' · ')[0])), ['Outbound', 'Return']);

    // Click the lowest pair of days.
    const lowest = grid.locator('button.day.lowest');
    const [date, returnDate] = [await lowest.getAttribute('data-date'), await lowest.getAttribute('data-return')];
    await lowest.click();
    const asked = await waitFor(() => callsTo(record, 'findBestFlight')[0]?.result && callsTo(record, 'findBestFlight')[0], 'the view asking for the pair of days');
    assert.equal(asked.arguments.date, date);
    assert.equal(asked.arguments.returnDate, returnDate);
    assert.equal(asked.arguments.flexDays, undefined);
    const pair = asked.result.structuredContent;
    await waitFor(async () => JSON.stringify(await ids(view.locator('li.flight.pick'))) === JSON.stringify(pair.flights.map((x) => x.id)), 'the pair\'s picks');
    for (const x of pair.flights) {
      assert.equal(x.depart.slice(0, 10), date);
      assert.equal(x.return.depart.slice(0, 10), returnDate);
    }
    assert.ok(pair.cheapest.priceUSD === opts.calendar.find((d) => d.date === date).returns.find((c) => c.date === returnDate).lowestUSD, 'the cell\'s fare is that pair\'s cheapest');
    assert.equal(await grid.locator('button.day[aria-pressed="true"]').count(), 1);
    assert.equal(await view.locator('table.grid').count(), 1, 'the grid stays');
  });
});

// A connecting itinerary: each leg's timeline has a gap per connection,
// labelled with its airport and length, overnight connections marked, and
// a night band where the flight is in night hours. Los Angeles-Delhi
// has both on every day 20 to 59 days ahead in the synthetic timetable
// (checked when connections were bounded tighter, which took San
// Francisco-Delhi's overnight connections; SFO-SIN lost them earlier).
test('the timeline: layovers as labelled gaps, overnight connections marked, the night band', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2025-11-25' }, async ({ page, session, view: source }) => {
    const { result, record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: { origin: 'LAX', destination: 'DEL', date: DATE } });
    const sc = result.structuredContent;
    await assertPicks(view, sc);
    const opts = await optionsOf(view, record);
    const rows = await allRows(view);
    assert.equal(await rows.count(), opts.options.length);
    let overnight = 0;
    let nightStart = 0;
    for (const [i, o] of opts.options.entries()) {
      const row = rows.nth(i);
      const tl = row.locator('.timeline').first();
      assert.equal(await tl.locator('.bar').count(), o.segments.length, `${o.id}: a bar per flight`);
      assert.equal(await tl.locator('.gap').count(), o.segments.length - 1, `${o.id}: a gap per connection`);
      // Its words (drawn shortened or not at all where they would overlap another label).
      const stops = await tl.locator('.ticks .stop').allTextContents();
      const label = await tl.getAttribute('aria-label');
      for (const [j, l] of (o.layovers ?? []).entries()) {
        assert.ok(stops[j].startsWith(`${l.airport} ${minutes(l.minutes).replace(' ', '')}`), `${o.id}: the gap says ${l.airport} ${l.minutes} min: ${stops[j]}`);
        assert.ok(label.includes(`then ${minutes(l.minutes)} in ${l.airport}`), label);
        assert.equal(await tl.locator('.gap').nth(j).evaluate((e) => e.classList.contains('overnight')), l.overnight, `${o.id}: ${l.airport} overnight ${l.overnight}`);
        if (l.overnight) {
          overnight++;
          assert.ok(label.includes('overnight'), label);
        }
      }
      // Leaving in the night hours, the band starts at departure.
      const hour = Number(o.depart.slice(11, 13));
      if (hour >= 22 || hour < 6) {
        nightStart++;
        assert.equal(await tl.locator('.nights .night').first().evaluate((e) => parseFloat(e.style.left)), 0, `${o.id} leaves at ${o.depart}: night from the start`);
        assert.ok(label.includes('partly at night'), label);
      }
    }
    assert.ok(overnight > 0, 'the route has an overnight connection to show');
    assert.ok(nightStart > 0, 'the route has a flight leaving at night to show');
    // The picks name an overnight connection in words too.
    for (const [i, f] of sc.flights.entries()) {
      for (const l of f.layovers ?? []) {
        const li = view.locator('li.flight.pick').nth(i).locator('li.layover', { hasText: `connection in ${l.airport}` });
        assert.equal(await li.locator('.badge', { hasText: 'overnight' }).count(), l.overnight ? 1 : 0);
      }
    }
  });
});

// Every option, sorted and filtered in the page by keyboard, with no
// further call: each order and filter checked against what the server
// listed, focus kept on the chip, the count announced.
test('every option: sort and filter chips, by keyboard, in the page', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2026-07-28' }, async ({ page, session, view: source }) => {
    const { record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP });
    const opts = (await optionsOf(view, record)).options;
    const calls = record.calls.length;
    assert.equal(await view.locator('#all-h').innerText(), `All ${opts.length} options`);
    const rows = await allRows(view);
    const shownIds = () => ids(rows);
    const total = (o) => o.durationMinutes + (o.return?.durationMinutes ?? 0);
    const order = (by) => [...opts].sort((a, b) => by(a, b) || a.position - b.position).map((o) => o.id);
    const press = async (id) => {
      await view.locator(`#${id}`).focus();
      await page.keyboard.press('Space');
      assert.ok(await isFocused(view.locator(`#${id}`)), `focus stays on ${id}`);
    };
    assert.deepEqual(await shownIds(), order(() => 0), 'best first: the server\'s order');
    for (const [chip, by] of [
      ['sort-cheapest', (a, b) => a.priceUSD - b.priceUSD],
      ['sort-fastest', (a, b) => total(a) - total(b)],
      ['sort-departure', (a, b) => Date.parse(a.depart) - Date.parse(b.depart)],
      ['sort-best', () => 0],
    ]) {
      await press(chip);
      assert.equal(await view.locator(`#${chip}`).getAttribute('aria-pressed'), 'true');
      assert.equal(await view.locator('section.all [id^="sort-"][aria-pressed="true"]').count(), 1, 'one order at a time');
      assert.deepEqual(await shownIds(), order(by), chip);
    }

    const nonstop = (o) => o.stops === 0 && !o.return?.stops;
    await press('filter-nonstop');
    assert.deepEqual(await shownIds(), opts.filter(nonstop).map((o) => o.id));
    assert.ok(opts.filter(nonstop).length > 0 && opts.filter(nonstop).length < opts.length, 'the route has some nonstops and some not');
    assert.equal(await view.locator('#all-count').innerText(), `Showing all ${opts.filter(nonstop).length} of ${opts.length} options (filtered), best first, as the server ordered them (price, stops and time together).`);
    await waitFor(async () => (await view.locator('#status').innerText()).startsWith(`Showing all ${opts.filter(nonstop).length} of`), 'the count announced');
    await press('filter-nonstop');

    const morning = (o) => Number(o.depart.slice(11, 13)) >= 5 && Number(o.depart.slice(11, 13)) < 12;
    await press('filter-time-morning');
    assert.deepEqual(await shownIds(), opts.filter(morning).map((o) => o.id));
    await press('filter-time-morning');

    // An airline chip: only options flown entirely by it.
    const chip = view.locator('[id^="filter-airline-"]').first();
    const code = (await chip.getAttribute('id')).slice('filter-airline-'.length);
    const only = (o) => [...o.segments, ...(o.return?.segments ?? [])].every((x) => x.airline === code);
    await press(`filter-airline-${code}`);
    assert.deepEqual(await shownIds(), opts.filter(only).map((o) => o.id));
    assert.ok(opts.filter(only).length > 0);
    // Filters combine (an airline and a time of day); when nothing passes, the page says so.
    const hourOf = (o) => Number(o.depart.slice(11, 13));
    const times = { morning: (o) => hourOf(o) >= 5 && hourOf(o) < 12, afternoon: (o) => hourOf(o) >= 12 && hourOf(o) < 17, evening: (o) => hourOf(o) >= 17 && hourOf(o) < 22, night: (o) => hourOf(o) >= 22 || hourOf(o) < 5 };
    const [t, inTime] = Object.entries(times).sort(([, a], [, b]) => opts.filter((o) => only(o) && a(o)).length - opts.filter((o) => only(o) && b(o)).length)[0];
    await press(`filter-time-${t}`);
    const both = opts.filter((o) => only(o) && inTime(o)).map((o) => o.id);
    if (both.length === 0) assert.equal(await view.locator('section.all p.notice').innerText(), 'No option passes these filters. Turn one off to see more.');
    else assert.deepEqual(await shownIds(), both);
    assert.equal(record.calls.length, calls, 'sorting and filtering called nothing');
  });
});
// The header names every limit of the trip: arrival windows and airlines
// included; a pick held is held in the cabin searched.
test('the header names every limit of the trip', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2026-07-28' }, async ({ page, session, view: source }) => {
    const args = { origin: 'NYC', destination: 'LON', date: DATE, passengers: 4, cabin: 'business', maxStops: 1, departAfter: '08:00', arriveAfter: '06:00', arriveBefore: '23:00', airlines: ['BA', 'AA'], excludeAirlines: ['VS'], maxPrice: 5000 };
    const { result, record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args });
    const t = result.structuredContent.trip;
    const header = view.locator('header.trip');
    await visible(header);
    assert.equal(await header.locator('h1').innerText().then((x) => x.replace(/\s+/g, ' ')), `NYC (${t.originAirports.join(', ')}) ⇄ to LON (${t.destinationAirports.join(', ')})`.replace(' ⇄ to ', ' → to '));
    const facts = await header.locator('ul.facts li').allInnerTexts();
    for (const want of ['4 passengers', 'business', 'up to 1 stop', 'leaving after 08:00', 'arriving between 06:00 and 23:00', 'at most $5,000 per passenger']) {
      assert.ok(facts.includes(want), `the header says "${want}": ${facts.join(' | ')}`);
    }
    assert.ok(facts.some((x) => /^only .*\bAA\b.*\bBA\b|^only .*\bBA\b.*\bAA\b/.test(x)), `the header names the airlines: ${facts.join(' | ')}`);
    assert.ok(facts.some((x) => /^not .*\bVS\b/.test(x)), `the header names the airline left out: ${facts.join(' | ')}`);
    // A party's standouts give the party's total and the fare each, as the cards do.
    const sc = result.structuredContent;
    const standouts = await view.locator('ul.standouts').innerText();
    assert.ok(standouts.includes(`${usd(sc.cheapest.totalUSD)} total (${usd(sc.cheapest.priceUSD)} each)`), `the cheapest for 4: ${standouts}`);
    // Holding a pick holds it in the cabin searched, at the fare shown.
    // bookFlight holds one passenger, the one named: the confirmation says
    // so and gives that passenger's fare, not the party's total.
    const pick = sc.flights[0];
    await view.locator('li.flight.pick').first().getByRole('button', { name: 'Choose this flight' }).click();
    const hint = await view.locator('section.action .hint').innerText();
    assert.ok(hint.includes(`holds one passenger, the one named below, at ${usd(pick.priceUSD)}`) && hint.includes(`${usd(pick.totalUSD)} for all 4`), hint);
    await view.getByLabel('Passenger name, as on their ID').fill('Ada Lovelace');
    await view.getByLabel('Passenger name, as on their ID').press('Enter');
    await visible(view.locator('#booked-h'));
    const [book] = callsTo(record, 'bookFlight');
    assert.equal(book.arguments.cabin, 'business');
    assert.equal(book.result.structuredContent.cabin, 'business');
    assert.equal(book.result.structuredContent.priceUSD, pick.priceUSD, 'the fare held is the business fare the pick showed');
    assert.equal(await view.locator('section.action.booked dl').innerText().then((x) => x.replace(/\s+/g, ' ').trim()), `Passenger Ada Lovelace Seat No preference Fare ${usd(pick.priceUSD)} for this passenger`);
  });
});

// An empty result is not "ranked": it says nothing fits, what each limit
// costs, and offers the search without one, which the server answers.
test('an empty result: nothing within the limits, what each costs, and a search without one', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2025-11-25' }, async ({ page, session, view: source }) => {
    const { result, record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: { ...TRIP, maxPrice: 1 } });
    const sc = result.structuredContent;
    assert.equal(sc.flights.length, 0);
    assert.equal(sc.candidates, 0);
    await visible(view.locator('#picks-h'));
    assert.equal(await view.locator('#picks-h').innerText(), 'Nothing within your limits');
    assert.equal(await view.locator('.ranked-by').innerText(), `${sc.found} flights found; none fits the trip's limits.`);
    assert.ok(!/Ranked picks|Best \d/.test(await view.locator('main').innerText()));
    await assertLadder(page, view, sc, new RegExp(`^Nothing to rank: none of the ${sc.found} flights found fits the trip's limits$`));
    assert.equal(await view.locator('li.attempt.used', { hasText: 'deterministic' }).count(), 0, 'no ranking rung "used" on nothing');
    const relaxed = view.locator('ul.relaxed li');
    assert.equal(await relaxed.count(), sc.relaxed.length);
    const x = sc.relaxed[0];
    assert.ok((await relaxed.first().innerText()).startsWith(`Without ${x.filter} (${x.limit}): ${x.options} options; ${x.gives}.`));
    assert.equal(callsTo(record, 'listFlightOptions').length, 0, 'no options to list');

    await view.getByRole('button', { name: `Search without ${x.filter}` }).click();
    const asked = await waitFor(() => callsTo(record, 'findBestFlight')[0]?.result && callsTo(record, 'findBestFlight')[0], 'the search without the filter');
    assert.equal(asked.arguments[x.filter], undefined);
    assert.equal(asked.arguments.date, DATE);
    await assertPicks(view, asked.result.structuredContent);
  });
});

// How the view lets the host's model know of a booking depends on what the
// host takes (a host that takes context updates is the default one, above):
// a ui/message, or, when the host refuses it or takes neither, words for
// the user to pass on, with the booking reference.
for (const tc of [
  {
    host: 'takes no context updates: it is told through ui/message',
    era: '2025-11-25',
    capabilities: { serverTools: {}, message: { text: {} } },
    told: /^Sent to your assistant as a message\.$/,
    messages: 1,
  },
  {
    host: 'refuses the view\'s message: the user is told what to tell the assistant',
    era: '2025-11-25',
    capabilities: { serverTools: {}, message: { text: {} } },
    messageResult: { isError: true },
    told: /^The host refused the message; tell your assistant: /,
    passesOn: true,
    messages: 1,
  },
  {
    host: 'takes neither context updates nor messages: the user is told what to tell the assistant',
    era: '2026-07-28',
    capabilities: { serverTools: {} },
    told: /^This host takes no messages from the view; tell your assistant: /,
    passesOn: true,
    messages: 0,
  },
]) {
  test(`a host that ${tc.host}`, { timeout: TEST_TIMEOUT_MS }, async () => {
    await withHost({ era: tc.era }, async ({ page, session, view: source }) => {
      const { record, view } = await showToolCall({
        page,
        pages,
        session,
        view: source,
        name: 'findBestFlight',
        args: TRIP,
        hostCapabilities: tc.capabilities,
        messageResult: tc.messageResult,
      });
      await visible(view.locator('li.flight.pick').first());
      await chooseAndHold(page, view, 0);
      await visible(view.locator('.told'));
      const reference = callsTo(record, 'bookFlight')[0].result.structuredContent.reference;
      const told = await view.locator('.told').innerText();
      assert.match(told, tc.told);
      if (tc.passesOn) assert.ok(told.includes(reference), `the user is given the reference to pass on: ${told}`);
      assert.equal(record.messages.length, tc.messages);
      for (const m of record.messages) {
        assert.equal(m.role, 'user');
        assert.ok(m.content[0].text.includes(reference), m.content[0].text);
      }
      assert.equal(record.contexts.length, 0);
    });
  });
}

// A host that names no theme leaves the view to the system's colour
// scheme, and the view follows it as it changes.
test('without a host theme the view follows the system colour scheme', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2025-11-25' }, async ({ page, session, view: source }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const { view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP, hostContext: { theme: undefined } });
    await visible(view.locator('li.flight.pick').first());
    assert.equal(await view.locator('html').getAttribute('data-theme'), null);
    const brightness = async () =>
      (await view.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor))
        .match(/\d+/g)
        .slice(0, 3)
        .map(Number)
        .reduce((a, b) => a + b);
    assert.ok((await brightness()) < 120, 'dark under a dark system scheme');
    await page.emulateMedia({ colorScheme: 'light' });
    assert.ok((await brightness()) > 600, 'light under a light system scheme');
  });
});

// A host that does not declare the extension sees the tools exactly as
// before: no `ui` metadata anywhere in the listing.
for (const era of ERAS) {
  test(`stdio, protocol ${era}: a client without the extension gets no ui metadata`, { timeout: TEST_TIMEOUT_MS }, async () => {
    const session = await openSession({ bin: built.bin, transport: 'stdio', era, extension: false });
    try {
      assert.equal(session.tools.find((t) => t.name === 'listFlightOptions'), undefined, 'the view\'s own tool is not listed');
      for (const tool of session.tools) {
        const meta = tool._meta ?? {};
        assert.equal(meta.ui, undefined, `${tool.name} has _meta.ui`);
        assert.equal(meta['ui/resourceUri'], undefined, `${tool.name} has _meta["ui/resourceUri"]`);
      }
    } finally {
      await session.close();
    }
  });
}

