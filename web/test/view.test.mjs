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
async function withHost({ transport = 'stdio', era, exportDir = true, extension = true }, fn) {
  const dir = exportDir ? mkdtempSync(path.join(os.tmpdir(), 'flightserver-view-')) : undefined;
  const session = await openSession({ bin: built.bin, transport, era, extension, serverArgs: dir ? ['--export-dir', dir] : [] });
  const context = await browser.newContext({ viewport: { width: 860, height: 900 } });
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
const isFocused = (locator) => locator.evaluate((el) => el === document.activeElement);
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
// each with its flight numbers, local departure times and price.
async function assertPicks(view, sc) {
  const cards = view.locator('li.flight');
  await visible(cards.first());
  assert.deepEqual(await ids(cards), sc.flights.map((f) => f.id));
  for (const [i, f] of sc.flights.entries()) {
    const text = await cards.nth(i).innerText();
    for (const s of f.segments) {
      assert.ok(text.includes(s.flightNumber), `card ${i + 1} names ${s.flightNumber}: ${text}`);
      // The airport's local time, as the server wrote it (no conversion).
      assert.ok(text.includes(s.depart.slice(11, 16)), `card ${i + 1} shows ${s.from} departure ${s.depart}: ${text}`);
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

// assertLadder checks that every attempt of the ladder is shown, in order,
// with its outcome and the server's one-line reason.
async function assertLadder(view, sc) {
  const rungs = view.locator('section.ladder li.attempt');
  assert.equal(await rungs.count(), sc.attempts.length);
  for (const [i, a] of sc.attempts.entries()) {
    const text = await rungs.nth(i).innerText();
    const step = a.step ?? a.tier;
    assert.ok(text.includes(step), `rung ${i + 1} names ${step}: ${text}`);
    assert.ok(text.includes(a.outcome), `rung ${i + 1} says ${a.outcome}: ${text}`);
    assert.ok(text.includes(a.reason), `rung ${i + 1} gives the reason "${a.reason}": ${text}`);
  }
}

// chooseAndHold picks flight `index` with the keyboard, fills in the
// confirmation and submits it with Enter.
async function chooseAndHold(page, view, index, { name = 'Ada Lovelace', seat = 'aisle' } = {}) {
  const choose = view.locator('li.flight').nth(index).getByRole('button', { name: 'Choose this flight' });
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
          assert.equal(await view.locator('#picks-h').innerText(), 'Ranked picks');
          assert.match(await view.locator('.ranked-by').innerText(), new RegExp(`^Ranked by .*best ${sc.flights.length} of ${sc.found} flights found$`));
          await assertLadder(view, sc);
          // The arrow is hidden from screen readers, which hear "to".
          await visible(view.getByRole('heading', { level: 1, name: 'JFK to LHR', exact: true }));

          // Nothing is sent before the user confirms, and an empty name is
          // refused by the view. Then the user changes their mind.
          await view.locator('li.flight').nth(0).getByRole('button', { name: 'Choose this flight' }).click();
          await view.getByRole('button', { name: 'Hold this flight (simulation)' }).click();
          await visible(view.locator('#passenger-problem'));
          assert.equal(record.calls.length, 0, 'no call before the user gave a name');

          const choice = sc.flights[1];
          await chooseAndHold(page, view, 1);
          assert.equal(await view.locator('section.action').count(), 1, 'one confirmation, under the flight chosen last');
          assert.equal(await view.locator('li.flight.chosen').getAttribute('data-flight-id'), choice.id);
          const booked = view.locator('#booked-h');
          await visible(booked);
          assert.equal(record.calls.length, 1);
          const [book] = record.calls;
          assert.equal(book.name, 'bookFlight');
          assert.deepEqual(book.arguments, { flightId: choice.id, confirm: true, passengerName: 'Ada Lovelace', seat: 'aisle' });
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
          assert.equal(record.calls.length, 2);
          const [, saveCall] = record.calls;
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
      assert.equal(await view.locator('#picks-h').innerText(), 'Shortlist not ranked — choose with the user');
      assert.equal(await view.locator('li.flight .rank').count(), 0, 'no pick numbers on an unranked list');
      await assertLadder(view, sc);
      assert.equal(await view.locator('li.attempt.used', { hasText: sc.method }).count(), 1, 'the rung that made the shortlist is marked used');
      assert.deepEqual(errors, []);
    });
  });
}

test('the server\'s refusal of a name is shown as it said it, and a corrected name books', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2025-11-25' }, async ({ page, session, view: source }) => {
    const { result, record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP });
    await visible(view.locator('li.flight').first());
    // The view checks only the length; which characters a name may hold is the server's rule.
    await chooseAndHold(page, view, 0, { name: 'R2-D2' });
    const alert = view.getByRole('alert');
    await visible(alert);
    assert.equal(record.calls.length, 1);
    assert.equal(record.calls[0].result.isError, true);
    assert.equal(await alert.innerText(), `Not held. The server said: ${textOf(record.calls[0].result)}`);
    assert.ok(await isFocused(view.locator('#passenger')), 'focus back on the name to correct it');

    await view.locator('#passenger').fill('Grace Hopper');
    await view.locator('#passenger').press('Enter');
    await visible(view.locator('#booked-h'));
    assert.equal(record.calls[1].arguments.passengerName, 'Grace Hopper');
    assert.equal(record.calls[1].arguments.flightId, result.structuredContent.flights[0].id);
  });
});

test('saving on a server with nowhere to write shows the server\'s error', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2026-07-28', exportDir: false }, async ({ page, session, view: source }) => {
    const { record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP });
    await visible(view.locator('li.flight').first());
    await chooseAndHold(page, view, 0);
    await visible(view.locator('#booked-h'));
    await view.getByRole('button', { name: 'Save as Markdown' }).click();
    const alert = view.getByRole('alert');
    await visible(alert);
    const saveCall = record.calls[1];
    assert.deepEqual(saveCall.arguments, { bookingRef: record.calls[0].result.structuredContent.reference, format: 'markdown' });
    assert.equal(saveCall.result.isError, true);
    assert.equal(await alert.innerText(), `Not saved. The server said: ${textOf(saveCall.result)}`);
    // The hold stands; the user can still try the other format.
    assert.equal(await view.getByRole('button', { name: 'Save to calendar (.ics)' }).isEnabled(), true);
  });
});

test('a host that lets the view call no tools gets no call, and the user is told to ask the assistant', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2026-07-28' }, async ({ page, session, view: source }) => {
    const { record, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP, hostCapabilities: {} });
    await visible(view.locator('li.flight').first());
    await chooseAndHold(page, view, 0);
    const alert = view.getByRole('alert');
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

test('the view runs under the sandbox\'s CSP: it fetched nothing and can reach nothing', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2026-07-28' }, async ({ page, session, view: source, errors }) => {
    pages.served.length = 0;
    const { view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP });
    await visible(view.locator('li.flight').first());
    assert.deepEqual([...pages.served].sort(), ['/host.html', '/host.js', '/sandbox.html', '/sandbox.js']);
    const frame = page.frames().find((f) => f.url() === 'about:srcdoc');
    assert.ok(frame, 'the view is the srcdoc frame');
    const fetched = await frame.evaluate((url) => fetch(url).then(() => 'fetched', (e) => `refused: ${e.name}`), `${pages.host}/host.js`);
    assert.equal(fetched, 'refused: TypeError');
    await waitFor(() => errors.some((e) => /Content Security Policy/.test(e)), 'the CSP violation report in the console');
  });
});

test('the view takes the host\'s dark theme', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2025-11-25' }, async ({ page, session, view: source }) => {
    const { view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args: TRIP, hostContext: { theme: 'dark' } });
    await visible(view.locator('li.flight').first());
    assert.equal(await view.locator('html').getAttribute('data-theme'), 'dark');
    const [r, g, b] = (await view.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor)).match(/\d+/g).map(Number);
    assert.ok(r + g + b < 120, `a dark background: rgb(${r}, ${g}, ${b})`);
  });
});

// A round trip over flexible dates, as the server answers it: each option
// has its return leg, and the strip shows the lowest fare of each day.
test('a round trip and a flexible-dates strip render from the server\'s result', { timeout: TEST_TIMEOUT_MS }, async () => {
  await withHost({ era: '2026-07-28' }, async ({ page, session, view: source }) => {
    const args = { ...TRIP, returnDate: day(37), flexDays: 1 };
    const { result, view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args });
    assert.notEqual(result.isError, true, textOf(result));
    const sc = result.structuredContent;
    await assertPicks(view, sc);
    const first = view.locator('li.flight').first();
    assert.deepEqual(await first.locator('.leg h4').allInnerTexts().then((t) => t.map((s) => s.split(' · ')[0])), ['Outbound', 'Return']);
    const returnText = await first.locator('.leg').nth(1).innerText();
    for (const s of sc.flights[0].return.segments) assert.ok(returnText.includes(s.flightNumber), returnText);
    assert.match(await first.locator('.per').innerText(), /^round trip/);
    assert.match(await view.locator('header.trip').innerText(), /back /);

    // Three days, the one the best option leaves on highlighted.
    const strip = view.locator('section.calendar li');
    assert.equal(await strip.count(), 3);
    assert.deepEqual(
      sc.calendar.map((d) => d.date),
      [day(29), DATE, day(31)],
    );
    const shown = sc.calendar.findIndex((d) => d.date === sc.flights[0].depart.slice(0, 10));
    assert.ok(shown >= 0, `the best option leaves on a day of the strip: ${sc.flights[0].depart}`);
    assert.equal(await strip.nth(shown).getAttribute('aria-current'), 'date');
    assert.equal(await view.locator('section.calendar li[aria-current]').count(), 1);
    assert.ok((await strip.nth(0).innerText()).includes(`$${sc.calendar[0].lowestUSD.toLocaleString('en-US')}`));
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
      await visible(view.locator('li.flight').first());
      await chooseAndHold(page, view, 0);
      await visible(view.locator('.told'));
      const reference = record.calls[0].result.structuredContent.reference;
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
    await visible(view.locator('li.flight').first());
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

