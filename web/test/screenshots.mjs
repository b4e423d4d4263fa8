// Takes the screenshots the docs show, through the same test host as the
// browser test and the real server: a ranked result (with a flight chosen
// and held, to show the confirmation's outcome), a candidates shortlist of
// five, a flexible round trip (its fare grid, a day chosen), a connecting
// itinerary (its timeline: layovers and night hours) and an empty result.
// Writes docs/view-*.png.
//
//   cd web && npm run screenshots     (FLIGHTSERVER_BIN to skip the go build)

import { mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { buildBinary, repoRoot } from '../../interop/flightserver.mjs';
import { launchBrowser, loadView, openSession, showToolCall, startPages } from './harness.mjs';

// The pictures search fixed dates, so the same flights show whenever they
// are made. The server has no clock but the real one (and gets none for
// pictures), which still matters twice: it books up to a year ahead, and a
// fare is dearer the closer it is to the day (flights/fares.go,
// advanceFactor: 0.92 + 0.7·e^(-days/9)). At 200 days or more ahead that
// second term is below 2·10⁻¹⁰, under a millionth of a dollar on a
// $5,000 fare, so every price rounds the same. Outside that window this
// script stops, rather than make pictures that differ: move DATE (a
// Wednesday, within a year) and commit the new pictures with it.
const DATE = '2027-11-24';
const LAST_DAY = 9; // the latest day searched, after DATE: the flexible round trip's
const MIN_LEAD = 200;
const MAX_LEAD = 365 - LAST_DAY - 1; // a day's margin: the server's "today" is the origin's
const day = (n) => new Date(Date.parse(DATE) + n * 86_400_000).toISOString().slice(0, 10);
const lead = Math.floor((Date.parse(DATE) - Date.parse(new Date().toISOString().slice(0, 10))) / 86_400_000);
if (lead < MIN_LEAD || lead > MAX_LEAD) {
  console.error(`screenshots: DATE ${DATE} is ${lead} days ahead; the pictures are the same from ${MIN_LEAD} to ${MAX_LEAD} days ahead. Move DATE in web/test/screenshots.mjs.`);
  process.exit(1);
}
const TRIP = { origin: 'JFK', destination: 'LHR', date: DATE };
// Booking references are signed with the server's state key (random per
// process unless given): a fixed one, for pictures only, keeps the held
// flight's reference the same.
const STATE_KEY = '5ce7e5' + '0'.repeat(58);

const built = buildBinary();
const pages = await startPages();
const browser = await launchBrowser();
// The export directory shows in the ranked picture (the saved file's
// path): a plain name, made fresh, and the same on every machine (not
// $TMPDIR's).
const dir = process.platform === 'win32' ? path.join(os.tmpdir(), 'itineraries') : '/tmp/itineraries';
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir);

// shoot renders one findBestFlight call, lets `act` use the view, and
// saves the view's frame (sized to its content by the host) as `file`.
// `upTo` ends the picture below that element of the view (the whole frame
// when not given), so a long list does not make a long picture.
async function shoot(file, args, { act = async () => {}, serverArgs = [], ready = (view) => view.locator('li.flight.pick').first().waitFor(), upTo } = {}) {
  const session = await openSession({ bin: built.bin, transport: 'stdio', era: '2026-07-28', serverArgs: ['--export-dir', dir, '--state-key', STATE_KEY, ...serverArgs] });
  const context = await browser.newContext({ viewport: { width: 760, height: 2400 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    const source = await loadView(session.client, session.tools.find((t) => t.name === 'findBestFlight'));
    const { view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args });
    await ready(view);
    await act(view);
    // Focus moves scrolled the view; show it from the top, once the host
    // has applied its last size change.
    await page.waitForTimeout(800);
    await view.locator('html').evaluate(() => window.scrollTo(0, 0));
    if (upTo) {
      // The frame cut below `upTo`: the host stops fitting it to the view.
      const frame = await page.locator('#sandbox').boundingBox();
      const end = await view.locator(upTo).boundingBox();
      await page.evaluate((height) => {
        window.holdSize = true;
        document.getElementById('sandbox').style.height = `${height}px`;
      }, Math.ceil(end.y + end.height + 16 - frame.y));
      await page.waitForTimeout(300);
    }
    await page.locator('#sandbox').screenshot({ path: path.join(repoRoot, 'docs', file) });
    console.log(`docs/${file}`);
  } finally {
    await context.close();
    await session.close();
  }
}

try {
  await shoot('view-ranked.png', TRIP, {
    act: async (view) => {
      await view.locator('li.flight.pick').nth(1).getByRole('button', { name: 'Choose this flight' }).click();
      await view.getByLabel('Passenger name, as on their ID').fill('Ada Lovelace');
      await view.getByLabel('Seat').selectOption('window');
      await view.getByRole('button', { name: 'Hold this flight (simulation)' }).click();
      await view.getByRole('button', { name: 'Save to calendar (.ics)' }).click();
      await view.locator('#saved').waitFor();
    },
    upTo: 'section.picks',
  });
  // A shortlist of five (the server's --candidates) keeps the picture short.
  await shoot('view-candidates.png', { ...TRIP, strategy: 'candidates' }, { serverArgs: ['--candidates', '5'], upTo: 'section.picks' });
  // A round trip whose dates move on their own: the grid, then one pair of
  // days chosen in it (the cheapest), as the server answers for that pair.
  await shoot('view-flexible.png', { ...TRIP, returnDate: day(7), flexDays: 2, flexIndependently: true }, {
    act: async (view) => {
      await view.locator('table.grid').waitFor();
      await view.locator('button.day.lowest').click();
      await view.locator('button.day[aria-pressed="true"]').waitFor();
      await view.locator('section.calendar:not([aria-busy])').waitFor();
      await view.locator('section.all ol.options').waitFor();
    },
    upTo: 'section.picks',
  });
  // Connections: the timeline's layovers, an overnight one, night hours.
  await shoot('view-connecting.png', { origin: 'SFO', destination: 'DEL', date: DATE }, {
    // The picks, the ladder opened, and the first rows of every option sorted by time.
    act: async (view) => {
      await view.locator('section.all ol.options').waitFor();
      await view.locator('details.ladder summary').click();
      await view.locator('#sort-fastest').click();
    },
    upTo: 'section.all li.flight.option:nth-child(4)',
  });
  // Nothing within the limits: what each limit costs, and a way out.
  await shoot('view-empty.png', { ...TRIP, maxPrice: 50 }, { ready: (view) => view.locator('ul.relaxed').waitFor() });
} finally {
  await browser.close();
  await pages.close();
  rmSync(dir, { recursive: true, force: true });
  built.cleanup();
}
