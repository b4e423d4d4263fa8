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

const day = (n) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const DATE = day(30);
const TRIP = { origin: 'JFK', destination: 'LHR', date: DATE };

const built = buildBinary();
const pages = await startPages();
const browser = await launchBrowser();
// The export directory shows in the ranked picture (the saved file's
// path): a plain name, made fresh.
const dir = path.join(os.tmpdir(), 'itineraries');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir);

// shoot renders one findBestFlight call, lets `act` use the view, and
// saves the view's frame (sized to its content by the host) as `file`.
// `upTo` ends the picture below that element of the view (the whole frame
// when not given), so a long list does not make a long picture.
async function shoot(file, args, { act = async () => {}, serverArgs = [], ready = (view) => view.locator('li.flight.pick').first().waitFor(), upTo } = {}) {
  const session = await openSession({ bin: built.bin, transport: 'stdio', era: '2026-07-28', serverArgs: ['--export-dir', dir, ...serverArgs] });
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
  await shoot('view-flexible.png', { ...TRIP, returnDate: day(37), flexDays: 2, flexIndependently: true }, {
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
