// How a Node test runs the flightserver binary: built once into a temp dir
// (or taken from FLIGHTSERVER_BIN), over streamable HTTP on a free loopback
// port, stopped so it cannot outlive the run, and the client options that
// make the official TypeScript client speak exactly one protocol era.
// Shared by interop/ and web/test/, so there is one way to do each; it
// imports only Node built-ins, so either package can load it.

import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The first build on a cold cache compiles every dependency.
export const BUILD_TIMEOUT_MS = 180_000;

// buildBinary returns FLIGHTSERVER_BIN when set, and otherwise builds
// ./cmd/flightserver into a temp dir, so the repo stays clean; `cleanup`
// removes what was built.
export function buildBinary() {
  if (process.env.FLIGHTSERVER_BIN) return { bin: process.env.FLIGHTSERVER_BIN, cleanup() {} };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flightserver-bin-'));
  const bin = path.join(dir, 'flightserver');
  execFileSync('go', ['build', '-o', bin, './cmd/flightserver'], {
    cwd: repoRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: BUILD_TIMEOUT_MS,
  });
  return { bin, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

// clientOptionsFor returns options that make the client speak exactly one
// era. The client defaults to the legacy `initialize` handshake; `{ pin }`
// accepts only modern (2026-07-28+) revisions (connect() rejects
// `{ pin: '2025-11-25' }` with a TypeError), so the legacy era is 'legacy'
// mode with the offered version narrowed to the one under test.
export function clientOptionsFor(era) {
  if (era === '2026-07-28') {
    return { versionNegotiation: { mode: { pin: era } } };
  }
  return { versionNegotiation: { mode: 'legacy' }, supportedProtocolVersions: [era] };
}

// serverEnv is the environment the server runs in: this process's, without
// what would change the server's decisions behind the tests' back (a
// developer's OPENAI_API_KEY turns the server-LLM rung on; FLIGHTSERVER_*
// sets flags).
export function serverEnv() {
  return Object.fromEntries(
    Object.entries(process.env).filter(([k]) => k !== 'OPENAI_API_KEY' && !k.startsWith('FLIGHTSERVER_')),
  );
}

// startHTTPServer runs the binary on a free loopback port and resolves `addr`
// with the address it logged. Port 0 lets the kernel choose, so parallel runs
// never collide; the one "listening" log line on stderr tells us the port.
// `args` are further flags, e.g. ['--export-dir', dir].
export function startHTTPServer(bin, args = []) {
  const proc = spawn(bin, ['--transport', 'http', '--addr', '127.0.0.1:0', '--shutdown-grace', '2s', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: serverEnv(),
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
export async function stopProcess(proc) {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
