// The MCP Bundle as a desktop host installs it: packaging/bundle packs the
// built server for this platform with the official mcpb CLI, mcpb unpacks
// it, and mcpb's own getMcpConfigForManifest (the code that turns a
// manifest and the user's settings into a server command) says how to start
// it. The server is then started exactly so and spoken to over stdio: with
// nothing configured it must start, rank deterministically and refuse to save
// saying how to enable it; with the settings filled in it must use them.
//
//   FLIGHTSERVER_BIN=/path/to/flightserver node --test   (in packaging/)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, readdirSync, statSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { unpackExtension, getMcpConfigForManifest } from '@anthropic-ai/mcpb';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const bin = process.env.FLIGHTSERVER_BIN;
const goos = { linux: 'linux', darwin: 'darwin', win32: 'windows' }[process.platform];
const goarch = { x64: 'amd64', arm64: 'arm64' }[process.arch];

function travelDate() {
  const d = new Date(Date.now() + 30 * 86400e3);
  return d.toISOString().slice(0, 10);
}

// mcp starts the configured command and returns a client that sends one
// JSON-RPC request at a time and reads its answer.
function mcp(config) {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...config.env };
  const child = spawn(config.command, config.args ?? [], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b) => (stderr += b));
  const lines = createInterface({ input: child.stdout });
  const waiting = new Map();
  lines.on('line', (line) => {
    const msg = JSON.parse(line);
    waiting.get(msg.id)?.(msg);
    waiting.delete(msg.id);
  });
  let id = 0;
  // A command that cannot be started (EACCES, ENOENT) is an 'error', not an
  // exit: report it as the exit, with the reason in stderr.
  const exited = new Promise((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.on('error', (err) => ((stderr += `could not start ${config.command}: ${err.message}\n`), resolve(err.code)));
  });
  return {
    stderr: () => stderr,
    exited,
    request(method, params) {
      const msg = { jsonrpc: '2.0', id: ++id, method, params };
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to ${method}; stderr:\n${stderr}`)), 20000);
        waiting.set(msg.id, (m) => (clearTimeout(timer), resolve(m)));
        exited.then((code) => reject(new Error(`the server exited ${code} before answering ${method}; stderr:\n${stderr}`)));
        child.stdin.write(JSON.stringify(msg) + '\n');
      });
    },
    notify(method) {
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method }) + '\n');
    },
    close() {
      child.stdin.end();
      return exited;
    },
  };
}

test('the bundle installs and runs as a desktop host configures it', async (t) => {
  assert.ok(bin, 'set FLIGHTSERVER_BIN to the built server');
  const work = mkdtempSync(path.join(tmpdir(), 'flightserver-bundle-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const out = path.join(work, 'dist');
  // One platform, this one: the smoke test of what goreleaser does for all.
  execFileSync(path.join(root, 'packaging', 'bundle'), [bin, goos, goos === 'darwin' ? 'all' : goarch, '0.0.0-test', out], { stdio: 'inherit' });
  const [bundle] = readdirSync(out).filter((f) => f.endsWith('.mcpb'));
  assert.equal(bundle, `flightserver_0.0.0-test_${goos}_${goos === 'darwin' ? 'all' : goarch}.mcpb`);

  const unpacked = path.join(work, 'installed');
  assert.equal(await unpackExtension({ mcpbPath: path.join(out, bundle), outputDir: unpacked, silent: true }), true);
  const manifest = JSON.parse(readFileSync(path.join(unpacked, 'manifest.json'), 'utf8'));
  assert.equal(manifest.version, '0.0.0-test');
  assert.deepEqual(manifest.compatibility.platforms, [process.platform]);
  const entry = path.join(unpacked, manifest.server.entry_point);
  assert.ok(existsSync(entry) && (statSync(entry).mode & 0o111) !== 0, `${manifest.server.entry_point} is in the bundle and executable`);

  const systemDirs = { HOME: work, DESKTOP: path.join(work, 'Desktop'), DOCUMENTS: path.join(work, 'Documents'), DOWNLOADS: path.join(work, 'Downloads') };
  const configure = (userConfig) =>
    getMcpConfigForManifest({ manifest, extensionPath: unpacked, systemDirs, userConfig, pathSeparator: path.sep });

  await t.test('nothing configured: it starts, ranks deterministically, and says how to enable saving', async () => {
    const config = await configure({});
    assert.ok(config, 'the manifest needs no setting to start');
    if (process.platform !== 'win32') {
      // Claude Desktop on macOS unpacks every file of a bundle as 0600,
      // dropping the modes the zip stores (modelcontextprotocol/mcpb#294): the
      // first start after an install must work on a binary that is not
      // executable, and leave it executable.
      chmodSync(entry, 0o600);
    }
    // Every variable the manifest uses was substituted: none reaches the
    // server as a literal ${user_config...}, which it would refuse.
    assert.doesNotMatch(JSON.stringify(config), /\$\{/);
    const s = mcp(config);
    const init = await s.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bundle-test', version: '1' } });
    assert.equal(init.result.serverInfo.version, 'dev', 'the test binary is an unstamped build');
    s.notify('notifications/initialized');
    const listed = await s.request('tools/list', {});
    assert.deepEqual(listed.result.tools.map((x) => x.name).sort(), manifest.tools.map((x) => x.name).sort());
    const found = await s.request('tools/call', { name: 'findBestFlight', arguments: { origin: 'JFK', destination: 'LHR', date: travelDate() } });
    assert.equal(found.result.structuredContent.method, 'deterministic');
    const saved = await s.request('tools/call', { name: 'saveItinerary', arguments: { flightId: found.result.structuredContent.flights[0].id } });
    assert.equal(saved.result.isError, true);
    assert.match(saved.result.content[0].text, /nowhere to write[\s\S]*--export-dir/);
    assert.equal(await s.close(), 0);
    assert.notEqual(statSync(entry).mode & 0o100, 0, `${manifest.server.entry_point} is executable again`);
  });

  await t.test('configured: the folder, the fallback and the model reach the server', async () => {
    const trips = mkdtempSync(path.join(work, 'Trips-'));
    const config = await configure({ export_dir: trips, fallback: 'candidates', llm_model: 'llama3.2' });
    const s = mcp({ ...config, env: { ...config.env, FLIGHTSERVER_LOG_LEVEL: 'debug' } });
    await s.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bundle-test', version: '1' } });
    s.notify('notifications/initialized');
    const found = await s.request('tools/call', { name: 'findBestFlight', arguments: { origin: 'JFK', destination: 'LHR', date: travelDate() } });
    assert.equal(found.result.structuredContent.method, 'candidates');
    const id = found.result.structuredContent.flights[0].id;
    const saved = await s.request('tools/call', { name: 'saveItinerary', arguments: { flightId: id, format: 'markdown' } });
    assert.notEqual(saved.result.isError, true, JSON.stringify(saved.result));
    assert.equal(path.dirname(saved.result.structuredContent.path), trips);
    assert.equal(await s.close(), 0);
  });

  await t.test('a placeholder key is refused at start, naming its variable, never echoing it', async () => {
    const config = await configure({ llm_api_key: 'sk-...' });
    const s = mcp(config);
    assert.equal(await s.exited, 2);
    assert.match(s.stderr(), /FLIGHTSERVER_LLM_API_KEY looks like a placeholder/);
    assert.doesNotMatch(s.stderr(), /sk-\.\.\./);
  });
});

// mcpb merges a platform override field by field (an override without args
// keeps the base args), so Windows, which has no /bin/sh, must get its own
// command and args: the .exe, which is the bundle's entry point, with the same
// environment. Packed from this platform's binary (only its name matters).
test('on Windows the bundle starts its entry point, the .exe, directly, with no shell', async (t) => {
  assert.ok(bin, 'set FLIGHTSERVER_BIN to the built server');
  const work = mkdtempSync(path.join(tmpdir(), 'flightserver-bundle-win-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  execFileSync(path.join(root, 'packaging', 'bundle'), [bin, 'windows', 'amd64', '0.0.0-test', work], { stdio: 'inherit' });
  const unpacked = path.join(work, 'installed');
  assert.equal(await unpackExtension({ mcpbPath: path.join(work, 'flightserver_0.0.0-test_windows_amd64.mcpb'), outputDir: unpacked, silent: true }), true);
  const manifest = JSON.parse(readFileSync(path.join(unpacked, 'manifest.json'), 'utf8'));
  assert.deepEqual(manifest.compatibility.platforms, ['win32']);
  assert.equal(manifest.server.entry_point, 'server/flightserver.exe');
  assert.ok(existsSync(path.join(unpacked, manifest.server.entry_point)), `${manifest.server.entry_point} is in the bundle`);
  const extensionPath = 'C:\\Users\\ada\\AppData\\Roaming\\Claude\\Claude Extensions\\flightserver';
  const systemDirs = { HOME: 'C:\\Users\\ada', DESKTOP: 'C:\\Users\\ada\\Desktop', DOCUMENTS: 'C:\\Users\\ada\\Documents', DOWNLOADS: 'C:\\Users\\ada\\Downloads' };
  const platform = Object.getOwnPropertyDescriptor(process, 'platform');
  Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
  let config;
  try {
    config = await getMcpConfigForManifest({ manifest, extensionPath, systemDirs, userConfig: {}, pathSeparator: '\\' });
  } finally {
    Object.defineProperty(process, 'platform', platform);
  }
  assert.equal(config.command, `${extensionPath}/${manifest.server.entry_point}`);
  assert.deepEqual(config.args, []);
  assert.deepEqual(Object.keys(config.env).sort(), Object.keys(manifest.server.mcp_config.env).sort());
});
