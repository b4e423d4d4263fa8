// Takes the two screenshots the docs show, through the same test host as
// the browser test and the real server: a ranked result (with a flight
// chosen and held, to show the confirmation's outcome) and a candidates
// shortlist of five. Writes docs/view-ranked.png and docs/view-candidates.png.
//
//   cd web && npm run screenshots     (FLIGHTSERVER_BIN to skip the go build)

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { buildBinary, repoRoot } from '../../interop/flightserver.mjs';
import { launchBrowser, loadView, openSession, showToolCall, startPages } from './harness.mjs';

const DATE = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const TRIP = { origin: 'JFK', destination: 'LHR', date: DATE };

const built = buildBinary();
const pages = await startPages();
const browser = await launchBrowser();
const dir = mkdtempSync(path.join(os.tmpdir(), 'flightserver-shots-'));

// shoot renders one findBestFlight call, lets `act` use the view, and
// saves the view's frame (sized to its content by the host) as `file`.
async function shoot(file, args, { act = async () => {}, serverArgs = [] } = {}) {
  const session = await openSession({ bin: built.bin, transport: 'stdio', era: '2026-07-28', serverArgs: ['--export-dir', dir, ...serverArgs] });
  const context = await browser.newContext({ viewport: { width: 760, height: 2400 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    const source = await loadView(session.client, session.tools.find((t) => t.name === 'findBestFlight'));
    const { view } = await showToolCall({ page, pages, session, view: source, name: 'findBestFlight', args });
    await view.locator('li.flight').first().waitFor();
    await act(view);
    // Focus moves scrolled the view; show it from the top, once the host
    // has applied its last size change.
    await page.waitForTimeout(400);
    await view.locator('html').evaluate(() => window.scrollTo(0, 0));
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
      await view.locator('li.flight').nth(1).getByRole('button', { name: 'Choose this flight' }).click();
      await view.getByLabel('Passenger name, as on their ID').fill('Ada Lovelace');
      await view.getByLabel('Seat').selectOption('window');
      await view.getByRole('button', { name: 'Hold this flight (simulation)' }).click();
      await view.getByRole('button', { name: 'Save to calendar (.ics)' }).click();
      await view.locator('#saved').waitFor();
    },
  });
  // A shortlist of five (the server's --candidates) keeps the picture short.
  await shoot('view-candidates.png', { ...TRIP, strategy: 'candidates' }, { serverArgs: ['--candidates', '5'] });
} finally {
  await browser.close();
  await pages.close();
  rmSync(dir, { recursive: true, force: true });
  built.cleanup();
}
