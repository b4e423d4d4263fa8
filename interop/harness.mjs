// What every interop test file shares, whatever client SDK it drives: the
// built server binary, starting it over stdio or streamable HTTP, the bounds
// on every wait, and the helpers that read a result. The client SDKs differ
// (1.x and 2.x name and call things differently), so each test file builds
// its own client; everything about the server lives here, once.

import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

// The binary itself (building, starting, stopping it) is one module that the
// browser test of the view (web/test) shares.
import { BUILD_TIMEOUT_MS, buildBinary, serverEnv, startHTTPServer, stopProcess } from './flightserver.mjs';

export { BUILD_TIMEOUT_MS, serverEnv };

// Every wait is bounded: a broken server must fail the test, never hang CI.
export const STEP_TIMEOUT_MS = 20_000;
export const REQUEST_TIMEOUT_MS = 10_000;

export const TRANSPORTS = ['stdio', 'http'];

// The two protocol eras: sessions after `initialize`, and stateless
// requests that carry their capabilities in `_meta`.
export const LEGACY = '2025-11-25';
export const MODERN = '2026-07-28';

// The server accepts dates from today up to a year ahead; 30 days out stays
// valid whatever the time zone of the origin airport.
export const DATE = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

// A flight id: origin, destination, YYMMDD, a hash of the flight.
export const FLIGHT_ID = /^[A-Z]{3}-[A-Z]{3}-\d{6}-[0-9A-Z]{5}$/;

// Where an isError result keeps its machine-readable details.
export const ERROR_META_KEY = 'io.github.flightserver/error';

// serverBinary registers, in the calling test file, the hooks that provide
// the server binary: FLIGHTSERVER_BIN when set (CI builds once for every
// file), otherwise a build from this worktree into a temp dir, so the repo
// stays clean. Read `.path` inside tests and hooks, after it is built.
export function serverBinary() {
  const server = { path: undefined };
  let built;
  before(
    () => {
      built = buildBinary();
      server.path = built.bin;
    },
    { timeout: BUILD_TIMEOUT_MS + 5_000 },
  );
  after(() => built?.cleanup());
  return server;
}

// launchServer prepares the server for one client over one transport, with
// extra flags. stdio: `stdio` holds the parameters both SDKs' stdio
// transports take (the transport spawns and owns the process). http: the
// server is already listening at `url`. Either way `stop` ends what this
// function started.
export async function launchServer(bin, transportKind, args = []) {
  if (transportKind === 'stdio') {
    return { stdio: { command: bin, args, env: serverEnv(), stderr: 'ignore' }, stop: async () => {} };
  }
  const server = startHTTPServer(bin, args);
  const addr = await server.addr.catch(async (err) => {
    await stopProcess(server.proc);
    throw err;
  });
  return { url: new URL(`http://${addr}/mcp`), stop: () => stopProcess(server.proc) };
}

// settleGETStream gives a legacy streamable HTTP client time to open its
// standalone GET stream, the only one mcp-go sends sampling and roots
// requests on: the client starts it, unawaited, once
// `notifications/initialized` is accepted. A call that still races it is
// skipped by the server with a reason naming the GET stream, and the test
// that needed it says so.
export async function settleGETStream(transportKind, era) {
  if (transportKind === 'http' && era === LEGACY) await delay(200);
}

// tempDir is a fresh directory and the function that removes it.
export function tempDir(prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// ---- reading results ----

export function textOf(result) {
  return (result.content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

// usedStep is the step of the attempt a result marks used.
export function usedStep(attempts) {
  return attempts.find((a) => a.outcome === 'used')?.step;
}

// only keeps the named keys, to compare an attempt without its elapsedMs.
export function only(obj, ...keys) {
  return Object.fromEntries(keys.filter((k) => obj && k in obj).map((k) => [k, obj[k]]));
}

// assertAttempts checks the shape every attempt list has, in results and in
// error details: each a step, an outcome, a reason for people, a
// non-negative whole elapsed time, and a why exactly when it was not used.
export function assertAttempts(attempts) {
  assert.ok(Array.isArray(attempts) && attempts.length > 0, `attempts: ${JSON.stringify(attempts)}`);
  for (const a of attempts) {
    assert.equal(typeof a.step, 'string', JSON.stringify(a));
    assert.ok(['used', 'skipped', 'failed'].includes(a.outcome), JSON.stringify(a));
    assert.ok(typeof a.reason === 'string' && a.reason.length > 0, JSON.stringify(a));
    assert.ok(Number.isInteger(a.elapsedMs) && a.elapsedMs >= 0, JSON.stringify(a));
    assert.equal(typeof a.why === 'string' && a.why.length > 0, a.outcome !== 'used', JSON.stringify(a));
  }
}

// assertSucceeded checks a result the client accepted as a success and
// returns its structuredContent. `used` are the steps its attempts mark
// used, in order (findBestFlight: the trip details when a form gave them,
// then the ranking).
export function assertSucceeded(result, used) {
  assert.notEqual(result.isError, true, textOf(result));
  const sc = result.structuredContent;
  assert.ok(sc, `structuredContent present: ${JSON.stringify(result)}`);
  assertAttempts(sc.attempts);
  assert.deepEqual(
    sc.attempts.filter((a) => a.outcome === 'used').map((a) => a.step),
    used,
    JSON.stringify(sc.attempts),
  );
  return sc;
}

// assertToolError checks an isError result the client accepted: no
// structuredContent (a validating client would check it against the output
// schema), the details for programs in _meta, and text for the host's model
// that says what to do. `want` gives error and why (absent means none), and
// optionally askedUser, the fields in order, and a pattern for the text.
// It returns the details.
export function assertToolError(result, want) {
  assert.equal(result.isError, true, JSON.stringify(result));
  assert.equal(result.structuredContent, undefined, `an error carries no structuredContent: ${JSON.stringify(result)}`);
  const details = result._meta?.[ERROR_META_KEY];
  assert.ok(details, `the details are in _meta["${ERROR_META_KEY}"]: ${JSON.stringify(result)}`);
  assert.equal(details.error, want.error, JSON.stringify(details));
  assert.equal(details.why, want.why, JSON.stringify(details));
  if ('askedUser' in want) assert.equal(details.askedUser, want.askedUser, JSON.stringify(details));
  if (want.fields) {
    assert.deepEqual(
      details.fields?.map((f) => f.field),
      want.fields,
      JSON.stringify(details),
    );
    for (const f of details.fields) {
      assert.ok(f.problem && f.accepted, `each field says what is wrong and what is accepted: ${JSON.stringify(f)}`);
    }
  }
  if (details.attempts) assertAttempts(details.attempts);
  if (want.text) assert.match(textOf(result), want.text);
  return details;
}

// ---- stand-ins for the client's user and model ----

// scriptedUser answers each form with the next answer it was given and
// records every form it was shown. A form it has no answer for fails the
// test's expectations: the handler throws, which the server reports as a
// client error, never as the answer a test expects.
export function scriptedUser() {
  const user = { forms: [], answers: [] };
  user.script = (...answers) => {
    user.answers = answers;
    user.forms = [];
  };
  const answering = new Set(); // answers not given yet (a slow user)
  const answer = async (request) => {
    user.forms.push(request.params);
    const next = user.answers.shift();
    if (!next) throw new Error(`scripted user: no answer for form ${JSON.stringify(request.params.message)}`);
    if (next.afterMs) await new Promise((resolve) => setTimeout(resolve, next.afterMs));
    return next.response;
  };
  user.handler = (request) => {
    const p = answer(request);
    answering.add(p);
    p.catch(() => {}).finally(() => answering.delete(p));
    return p;
  };
  // idle resolves when every answer has been given, so a slow user's late
  // answer cannot land in the next test.
  user.idle = () => Promise.allSettled([...answering]);
  return user;
}

// The flight ids of the prompt, in order: the rows between the `<flights>`
// and `</flights>` lines, after the column header. Throws on anything else,
// so a change in the prompt format fails loudly.
function promptFlightIds(text) {
  const lines = text.split('\n');
  const open = lines.indexOf('<flights>');
  const close = lines.indexOf('</flights>');
  if (open < 0 || close < open) throw new Error('stand-in LLM: no <flights> ... </flights> block in the prompt');
  const [header, ...rows] = lines.slice(open + 1, close);
  if (header !== 'id|dep|arr|dur|stops|airlines|usd') throw new Error(`stand-in LLM: unexpected header ${header}`);
  return rows.map((row) => {
    const id = row.split('|')[0];
    if (!FLIGHT_ID.test(id)) throw new Error(`stand-in LLM: not a flight id: ${row}`);
    return id;
  });
}

// The one tool the server offers a client that declared `sampling.tools`:
// calling it is the answer.
export const ANSWER_TOOL = 'submit_ranking';

// standInLLM is a deterministic sampling handler. It picks the LAST three
// flights of the prompt, the last one first: the server lists candidates in
// its own (deterministic) order, best first, so flights led by the last one
// listed can only come from this answer, never from the fallback. Offered
// the answer tool, it calls it, as a model required to call a tool does: a
// sentence, then a `tool_use` block whose input is its picks. Set
// `behaviour` to 'text' (it writes its answer as text even when offered the
// tool, as some hosts make it), 'reject' (the user says no: the handler
// throws), 'garbage' (an answer that names no flight) or 'silent' (the host
// never answers: the handler settles only when the SDK aborts the request).
export function standInLLM() {
  const llm = { requests: [], picks: [], behaviour: 'answer' };
  llm.rejection = new Error('User rejected sampling request');
  llm.handler = async (request, extra) => {
    llm.requests.push(request.params);
    if (llm.behaviour === 'reject') throw llm.rejection;
    if (llm.behaviour === 'silent') {
      return new Promise((_, reject) => extra?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    }
    let text = 'I would take the morning one.';
    if (llm.behaviour === 'answer' || llm.behaviour === 'text') {
      const chosen = promptFlightIds(request.params.messages.at(-1)?.content?.text ?? '')
        .slice(-3)
        .reverse();
      llm.picks.push(chosen);
      const answer = { picks: chosen.map((id) => ({ id, reason: 'interop choice' })) };
      if (llm.behaviour === 'answer' && (request.params.tools ?? []).some((t) => t.name === ANSWER_TOOL)) {
        return {
          role: 'assistant',
          model: 'interop-llm',
          stopReason: 'toolUse',
          content: [
            { type: 'text', text: 'Submitting my ranking.' },
            { type: 'tool_use', id: 'toolu_interop_1', name: ANSWER_TOOL, input: answer },
          ],
        };
      }
      text = JSON.stringify(answer);
    }
    return { role: 'assistant', model: 'interop-llm', stopReason: 'endTurn', content: { type: 'text', text } };
  };
  return llm;
}
