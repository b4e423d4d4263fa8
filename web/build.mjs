// Builds the results view into one self-contained HTML file,
// dist/results.html: src/main.js and what it imports bundled and minified by
// esbuild, and src/style.css, both inlined into src/index.html. Nothing is
// fetched at run time, so the page works under the MCP Apps default CSP
// (inline scripts and styles, no connections).
//
// The output depends only on the sources, the locked packages and these
// options (no dates, no absolute paths), so `npm ci && npm run build`
// rebuilds the committed file byte for byte; CI checks that it does.
//
// A host reads the whole page with every resources/read, so its size is a
// cost per view shown: at most package.json's config.maxBytes. The build
// fails above it, and `node build.mjs --size` (npm run size) checks the
// committed file, as CI does.

import { readFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));
const out = path.join(here, 'dist', 'results.html');
const maxBytes = pkg.config.maxBytes;

// withinBudget says how big the page is, and fails when it is too big.
function withinBudget(bytes) {
  const line = `${path.relative(process.cwd(), out)}: ${bytes.toLocaleString('en-US')} bytes (at most ${maxBytes.toLocaleString('en-US')})`;
  if (bytes > maxBytes) {
    console.error(`${line}: too big. Every resources/read sends the whole page; bundle less.`);
    process.exit(1);
  }
  console.log(line);
}

if (process.argv.includes('--size')) {
  withinBudget(statSync(out).size);
  process.exit(0);
}

const common = { bundle: true, minify: true, write: false, charset: 'utf8', logLevel: 'warning', absWorkingDir: here };

const js = await esbuild.build({
  ...common,
  entryPoints: ['src/main.js'],
  format: 'iife',
  platform: 'browser',
  target: ['chrome120', 'firefox121', 'safari17'],
  // Licence comments of the bundled packages go to the end of the script.
  legalComments: 'eof',
  define: { __VIEW_VERSION__: JSON.stringify(pkg.version) },
});
const css = await esbuild.build({ ...common, entryPoints: ['src/style.css'], loader: { '.css': 'css' } });

const script = js.outputFiles[0].text.trim();
const style = css.outputFiles[0].text.trim();

// An inlined script or style must not close its own element early.
if (/<\/script/i.test(script)) throw new Error('the bundled script contains "</script": it cannot be inlined as is');
if (/<\/style/i.test(style)) throw new Error('the stylesheet contains "</style": it cannot be inlined as is');

const template = readFileSync(path.join(here, 'src', 'index.html'), 'utf8');
for (const mark of ['/*STYLE*/', '/*SCRIPT*/']) {
  if (template.split(mark).length !== 2) throw new Error(`src/index.html must hold ${mark} exactly once`);
}
// Functions as replacements, so a "$&" in the bundle stays as written.
const html = template.replace('/*STYLE*/', () => style).replace('/*SCRIPT*/', () => script);

mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, html);
withinBudget(Buffer.byteLength(html));
