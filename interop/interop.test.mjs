// Interop test: the official TypeScript MCP client (@modelcontextprotocol/client
// 2.x) drives the BUILT flightserver binary, over stdio and streamable HTTP, in
// both protocol eras. The Go tests check the server against itself; this one
// checks it against someone else's reading of the spec.
//
//   cd interop && npm ci && npm test
//   FLIGHTSERVER_BIN=/path/to/flightserver npm test   # skip the go build

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
// The stdio transport spawns processes, so it lives in its own Node-only entry point.
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Every wait is bounded: a broken server must fail the test, never hang CI.
const BUILD_TIMEOUT_MS = 180_000;
const STEP_TIMEOUT_MS = 20_000;
const REQUEST_TIMEOUT_MS = 10_000;

const TRANSPORTS = ['stdio', 'http'];
const ERAS = ['2025-11-25', '2026-07-28'];

// The server accepts dates from today up to a year ahead; 30 days out stays
// valid whatever the time zone of the origin airport.
const DATE = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

// Options that make the client speak exactly one era. The client defaults to
// the legacy `initialize` handshake; `{ pin }` accepts only modern (2026-07-28+)
// revisions (connect() rejects `{ pin: '2025-11-25' }` with a TypeError), so
// the legacy era is 'legacy' mode with the offered version narrowed to the one
// under test.
function clientOptionsFor(era) {
  if (era === '2026-07-28') {
    return { versionNegotiation: { mode: { pin: era } } };
  }
  return { versionNegotiation: { mode: 'legacy' }, supportedProtocolVersions: [era] };
}

let bin = process.env.FLIGHTSERVER_BIN;
let buildDir;

before(
  () => {
    if (bin) return;
    // Build once for the whole file, into a temp dir so the repo stays clean.
    buildDir = mkdtempSync(path.join(os.tmpdir(), 'flightserver-interop-'));
    bin = path.join(buildDir, 'flightserver');
    execFileSync('go', ['build', '-o', bin, './cmd/flightserver'], {
      cwd: repoRoot,
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: BUILD_TIMEOUT_MS,
    });
  },
  { timeout: BUILD_TIMEOUT_MS + 5_000 },
);

after(() => {
  if (buildDir) rmSync(buildDir, { recursive: true, force: true });
});

// startHTTPServer runs the binary on a free loopback port and resolves with
// the address it logged. Port 0 lets the kernel choose, so parallel runs
// never collide; the one "listening" log line on stderr tells us the port.
function startHTTPServer() {
  const proc = spawn(bin, ['--transport', 'http', '--addr', '127.0.0.1:0', '--shutdown-grace', '2s'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const logs = []; // kept so a failure can show what the server said
  const addr = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line within 10s:\n${logs.join('\n')}`)), 10_000);
    readline.createInterface({ input: proc.stderr }).on('line', (line) => {
      logs.push(line);
      let entry;
      try {
        entry = JSON.parse(line);
      } catch {
        return; // not JSON: a panic or a stray line; it stays in logs
      }
      if (entry.message === 'listening') {
        clearTimeout(timer);
        resolve(entry.addr);
      }
    });
    proc.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    proc.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (code ${code}, signal ${signal}) before listening:\n${logs.join('\n')}`));
    });
  });
  return { proc, addr, logs };
}

// stopProcess sends SIGTERM (the server shuts down gracefully on it) and
// falls back to SIGKILL so a stuck server cannot outlive the test run.
async function stopProcess(proc) {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

for (const transportKind of TRANSPORTS) {
  for (const era of ERAS) {
    describe(`${transportKind}, protocol ${era}`, { timeout: 60_000 }, () => {
      let client;
      let server; // only for http: the process we spawned ourselves

      before(
        async () => {
          let transport;
          if (transportKind === 'stdio') {
            // The transport owns the child process and kills it on close.
            // In pinned-modern mode the SDK first spawns a short-lived sibling
            // to send `server/discover`, then the session process.
            transport = new StdioClientTransport({ command: bin, args: [], stderr: 'ignore' });
          } else {
            server = startHTTPServer();
            const addr = await server.addr;
            transport = new StreamableHTTPClientTransport(new URL(`http://${addr}/mcp`));
          }
          client = new Client({ name: 'flightserver-interop', version: '1.0.0' }, clientOptionsFor(era));
          await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
        },
        { timeout: STEP_TIMEOUT_MS },
      );

      after(
        async () => {
          await client?.close();
          if (server) await stopProcess(server.proc);
        },
        { timeout: STEP_TIMEOUT_MS },
      );

      test('negotiates the pinned protocol version', { timeout: STEP_TIMEOUT_MS }, () => {
        assert.equal(client.getNegotiatedProtocolVersion(), era);
        // Modern means `server/discover` replaced `initialize`.
        assert.equal(client.getProtocolEra(), era === '2026-07-28' ? 'modern' : 'legacy');
      });

      test('lists findBestFlight with an output schema', { timeout: STEP_TIMEOUT_MS }, async () => {
        const { tools } = await client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
        const tool = tools.find((t) => t.name === 'findBestFlight');
        assert.ok(tool, `findBestFlight missing from ${JSON.stringify(tools.map((t) => t.name))}`);
        assert.equal(tool.outputSchema?.type, 'object');
        assert.ok(tool.outputSchema.properties?.flights, 'outputSchema describes flights');
      });

      test('findBestFlight JFK->LHR returns a ranked structured result', { timeout: STEP_TIMEOUT_MS }, async () => {
        // Having listed the tools, the client validates structuredContent
        // against the outputSchema itself and throws if it does not match;
        // the asserts below check the values the schema cannot.
        const result = await client.callTool(
          { name: 'findBestFlight', arguments: { origin: 'JFK', destination: 'LHR', date: DATE } },
          { timeout: REQUEST_TIMEOUT_MS },
        );
        assert.notEqual(result.isError, true, JSON.stringify(result.content));
        const sc = result.structuredContent;
        assert.ok(sc, 'structuredContent present');
        assert.equal(sc.trip.origin, 'JFK');
        assert.equal(sc.trip.destination, 'LHR');
        assert.equal(sc.trip.date, DATE);
        // Only the deterministic ranker is configured, so no fallback happens.
        assert.equal(sc.method, 'deterministic');
        assert.equal(sc.ranked, true);
        assert.equal(sc.flights.length, 3);
        for (const flight of sc.flights) {
          assert.match(flight.id, /^JFK-LHR-\d{6}-[0-9A-Z]{5}$/);
        }
        assert.equal(sc.attempts[0].outcome, 'used');
      });

      test('invalid origin is a tool error naming the argument', { timeout: STEP_TIMEOUT_MS }, async () => {
        // Bad arguments are a result with isError (the model can read and fix
        // them), not a JSON-RPC error, so callTool resolves rather than throws.
        const result = await client.callTool(
          { name: 'findBestFlight', arguments: { origin: 'ZZZ', destination: 'LHR', date: DATE } },
          { timeout: REQUEST_TIMEOUT_MS },
        );
        assert.equal(result.isError, true);
        const text = result.content
          .filter((c) => c.type === 'text')
          .map((c) => c.text)
          .join('\n');
        assert.match(text, /origin/);
      });
    });
  }
}
