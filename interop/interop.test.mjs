// Interop test: the official TypeScript MCP client (@modelcontextprotocol/client
// 2.x) drives the BUILT flightserver binary, over stdio and streamable HTTP, in
// both protocol eras. The Go tests check the server against itself; this one
// checks it against someone else's reading of the spec. That includes the
// sampling tier of findBestFlight: a client that lends its LLM (a stand-in
// that answers deterministically), and one whose user rejects the request.
//
//   cd interop && npm ci && npm test
//   FLIGHTSERVER_BIN=/path/to/flightserver npm test   # skip the go build

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
// The stdio transport spawns processes, so it lives in its own Node-only entry point.
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { BUILD_TIMEOUT_MS, buildBinary, clientOptionsFor, startHTTPServer, stopProcess } from './flightserver.mjs';

// Every wait is bounded: a broken server must fail the test, never hang CI.
const STEP_TIMEOUT_MS = 20_000;
const REQUEST_TIMEOUT_MS = 10_000;

const TRANSPORTS = ['stdio', 'http'];
const ERAS = ['2025-11-25', '2026-07-28'];

// The server accepts dates from today up to a year ahead; 30 days out stays
// valid whatever the time zone of the origin airport.
const DATE = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

let bin;
let built;

before(
  () => {
    // Built once for the whole file (unless FLIGHTSERVER_BIN names one).
    built = buildBinary();
    bin = built.bin;
  },
  { timeout: BUILD_TIMEOUT_MS + 5_000 },
);

after(() => built?.cleanup());

// openSession connects one client to a fresh server over one transport in one
// era. With a sampling handler the client declares the `sampling` capability
// and registers the handler (2.x refuses a handler whose capability was not
// declared); likewise an elicitation handler, with `elicitationCapability` as
// the declared `elicitation` object. `sent` records every JSON-RPC message the
// client wrote, so tests can check what went over the wire, e.g. that a
// modern call was retried.
async function openSession(transportKind, era, { sampling, elicitation, elicitationCapability = { form: {} } } = {}) {
  let transport;
  let server; // only for http: the process we spawned ourselves
  if (transportKind === 'stdio') {
    // The transport owns the child process and kills it on close.
    // In pinned-modern mode the SDK first spawns a short-lived sibling
    // to send `server/discover`, then the session process.
    transport = new StdioClientTransport({ command: bin, args: [], stderr: 'ignore' });
  } else {
    server = startHTTPServer(bin);
    const addr = await server.addr.catch(async (err) => {
      await stopProcess(server.proc);
      throw err;
    });
    transport = new StreamableHTTPClientTransport(new URL(`http://${addr}/mcp`));
  }
  const sent = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };

  const options = clientOptionsFor(era);
  if (sampling || elicitation) {
    options.capabilities = {
      ...(sampling && { sampling: {} }),
      ...(elicitation && { elicitation: elicitationCapability }),
    };
  }
  const client = new Client({ name: 'flightserver-interop', version: '1.0.0' }, options);
  if (sampling) client.setRequestHandler('sampling/createMessage', sampling);
  if (elicitation) client.setRequestHandler('elicitation/create', elicitation);
  const close = async () => {
    await client.close();
    if (server) await stopProcess(server.proc);
  };
  try {
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
  } catch (err) {
    await close().catch(() => {}); // the connect error is the one to report
    throw err;
  }
  return { client, sent, close };
}

function findBestFlight(client, extra = {}) {
  return client.callTool(
    { name: 'findBestFlight', arguments: { origin: 'JFK', destination: 'LHR', date: DATE, ...extra } },
    { timeout: REQUEST_TIMEOUT_MS },
  );
}

// only keeps the named keys, to compare an attempt without its elapsedMs.
function only(obj, ...keys) {
  return Object.fromEntries(keys.filter((k) => obj && k in obj).map((k) => [k, obj[k]]));
}

// The flight ids of the prompt, in order: the rows between the `<flights>`
// and `</flights>` lines, after the column header. Throws on anything else,
// so a change in the prompt format fails loudly.
const FLIGHT_ID = /^[A-Z]{3}-[A-Z]{3}-\d{6}-[0-9A-Z]{5}$/;
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

// standInLLM is a deterministic sampling handler. It picks the LAST three
// flights of the prompt, the last one first: the server lists candidates in
// its own (deterministic) order, best first, so flights led by the last one
// listed can only come from this answer, never from the fallback.
function standInLLM() {
  const requests = []; // the params of every sampling request received
  const picks = []; // the ids answered, per request
  const handler = async (request) => {
    requests.push(request.params);
    const chosen = promptFlightIds(request.params.messages.at(-1)?.content?.text ?? '').slice(-3).reverse();
    picks.push(chosen);
    return {
      role: 'assistant',
      model: 'interop-llm',
      stopReason: 'endTurn',
      content: {
        type: 'text',
        text: JSON.stringify({ picks: chosen.map((id) => ({ id, reason: 'interop choice' })) }),
      },
    };
  };
  return { handler, requests, picks };
}

for (const transportKind of TRANSPORTS) {
  for (const era of ERAS) {
    describe(`${transportKind}, protocol ${era}`, { timeout: 60_000 }, () => {
      let session;
      let client;

      before(
        async () => {
          session = await openSession(transportKind, era);
          client = session.client;
        },
        { timeout: STEP_TIMEOUT_MS },
      );

      after(() => session?.close(), { timeout: STEP_TIMEOUT_MS });

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
        const result = await findBestFlight(client);
        assert.notEqual(result.isError, true, JSON.stringify(result.content));
        const sc = result.structuredContent;
        assert.ok(sc, 'structuredContent present');
        assert.equal(sc.trip.origin, 'JFK');
        assert.equal(sc.trip.destination, 'LHR');
        assert.equal(sc.trip.date, DATE);
        // This client declares no sampling, so the ladder skips the client's
        // LLM (and says why) and ends with the deterministic ranker.
        assert.equal(sc.method, 'deterministic', JSON.stringify(sc.attempts));
        assert.equal(sc.model, undefined);
        assert.equal(sc.ranked, true);
        assert.equal(sc.flights.length, 3);
        for (const flight of sc.flights) {
          assert.match(flight.id, /^JFK-LHR-\d{6}-[0-9A-Z]{5}$/);
        }
        assert.deepEqual(only(sc.attempts[0], 'tier', 'outcome', 'reason'), {
          tier: 'client_sampling',
          outcome: 'skipped',
          reason: 'client did not declare sampling',
        });
        assert.deepEqual(only(sc.attempts.at(-1), 'tier', 'outcome'), { tier: 'deterministic', outcome: 'used' });
      });

      test('invalid origin is a tool error naming the argument', { timeout: STEP_TIMEOUT_MS }, async () => {
        // Bad arguments are a result with isError (the model can read and fix
        // them), not a JSON-RPC error, so callTool resolves rather than throws.
        const result = await findBestFlight(client, { origin: 'ZZZ' });
        assert.equal(result.isError, true);
        const text = result.content
          .filter((c) => c.type === 'text')
          .map((c) => c.text)
          .join('\n');
        assert.match(text, /origin/);
      });
    });

    // A client that lends its LLM. Legacy: the server sends
    // `sampling/createMessage` while the call is open. Modern: the call
    // answers `input_required`, the client fulfils it through the same
    // handler and calls again with the answer (inside one callTool).
    describe(`${transportKind}, protocol ${era}, client with sampling`, { timeout: 60_000 }, () => {
      const llm = standInLLM();
      let session;

      before(
        async () => {
          session = await openSession(transportKind, era, { sampling: llm.handler });
          // Lists the tools so callTool validates structuredContent. On
          // legacy streamable HTTP it also gives the client time to open its
          // standalone GET stream, the only one mcp-go sends sampling
          // requests on: the client starts it, unawaited, once
          // `notifications/initialized` is accepted. A call that still
          // races it fails below, saying so.
          await session.client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
          if (transportKind === 'http' && era === '2025-11-25') await delay(200);
        },
        { timeout: STEP_TIMEOUT_MS },
      );

      after(() => session?.close(), { timeout: STEP_TIMEOUT_MS });

      test('findBestFlight ranks through the client\'s LLM', { timeout: STEP_TIMEOUT_MS }, async () => {
        const result = await findBestFlight(session.client);
        assert.notEqual(result.isError, true, JSON.stringify(result.content));
        const sc = result.structuredContent;
        const reason = sc.attempts[0]?.reason ?? '';
        if (/no GET stream/.test(reason)) {
          assert.fail(`the call raced the client's standalone GET stream, so the server skipped sampling: ${reason}`);
        }
        assert.equal(sc.method, 'client_sampling', `attempts: ${JSON.stringify(sc.attempts)}`);

        // The request as the handler received it: no tools, no context,
        // a bounded answer, the system prompt and one user message.
        assert.equal(llm.requests.length, 1, 'the handler was asked exactly once');
        const params = llm.requests[0];
        assert.equal(params.includeContext, 'none');
        assert.equal('tools' in params, false, 'no tools offered');
        assert.ok(params.maxTokens > 0, `maxTokens ${params.maxTokens}`);
        assert.equal(typeof params.systemPrompt, 'string');
        assert.ok(params.systemPrompt.length > 0, 'a system prompt');
        assert.equal(params.messages.length, 1);

        // The ranking is the handler's answer, in its order.
        const [picked] = llm.picks;
        assert.equal(sc.model, 'interop-llm');
        assert.equal(sc.flights[0].id, picked[0]);
        assert.deepEqual(sc.flights.map((f) => f.id), picked);
        assert.equal(sc.attempts.length, 1, JSON.stringify(sc.attempts));
        assert.deepEqual(only(sc.attempts[0], 'tier', 'outcome'), { tier: 'client_sampling', outcome: 'used' });

        // How the answer travelled.
        const calls = session.sent.filter((m) => m.method === 'tools/call');
        if (era === '2026-07-28') {
          // The first call got `input_required`; the retry carries the one
          // answer and the server's opaque requestState, on a new id.
          assert.equal(calls.length, 2, 'the call and its retry');
          const retry = calls[1].params;
          assert.notEqual(calls[1].id, calls[0].id);
          assert.equal(typeof retry.requestState, 'string');
          const answers = Object.values(retry.inputResponses ?? {});
          assert.equal(answers.length, 1, JSON.stringify(retry.inputResponses));
          assert.equal(answers[0].model, 'interop-llm');
        } else {
          // One call; the answer went back as the response to the server's
          // own sampling request.
          assert.equal(calls.length, 1);
          assert.ok(
            session.sent.some((m) => m.result?.model === 'interop-llm'),
            'the sampling answer was sent as a JSON-RPC response',
          );
        }
      });
    });
  }
}

// The user says no at the host's approval prompt: the handler throws. On
// stdio only; the transport does not change what happens next.
for (const era of ERAS) {
  describe(`stdio, protocol ${era}, user rejects sampling`, { timeout: 60_000 }, () => {
    const rejection = new Error('User rejected sampling request');
    let asked = 0;
    let session;

    before(
      async () => {
        session = await openSession('stdio', era, {
          sampling: async () => {
            asked++;
            throw rejection;
          },
        });
        await session.client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
      },
      { timeout: STEP_TIMEOUT_MS },
    );

    after(() => session?.close(), { timeout: STEP_TIMEOUT_MS });

    if (era === '2025-11-25') {
      test('the call falls back to the deterministic ranker and says why', { timeout: STEP_TIMEOUT_MS }, async () => {
        const result = await findBestFlight(session.client);
        assert.notEqual(result.isError, true, JSON.stringify(result.content));
        const sc = result.structuredContent;
        assert.equal(asked, 1);
        assert.equal(sc.method, 'deterministic', JSON.stringify(sc.attempts));
        assert.equal(sc.model, undefined);
        // The 2.x client answers a throwing handler with JSON-RPC error
        // -32603 and the thrown message; the server reads the message.
        assert.deepEqual(only(sc.attempts[0], 'tier', 'outcome'), { tier: 'client_sampling', outcome: 'failed' });
        assert.match(sc.attempts[0].reason, /user rejected/);
        assert.deepEqual(only(sc.attempts.at(-1), 'tier', 'outcome'), { tier: 'deterministic', outcome: 'used' });
      });
    } else {
      test('the client ends the call itself, and the session still works', { timeout: STEP_TIMEOUT_MS }, async () => {
        // The handler's error is the call's error: the client never sends
        // the retry, so the server (which holds nothing between rounds)
        // never hears of the rejection.
        await assert.rejects(findBestFlight(session.client), (err) => err === rejection);
        assert.equal(asked, 1);
        const calls = session.sent.filter((m) => m.method === 'tools/call');
        assert.equal(calls.length, 1, 'no retry was sent');

        // A call that does not ask the client anything still works.
        const result = await findBestFlight(session.client, { strategy: 'deterministic' });
        assert.notEqual(result.isError, true, JSON.stringify(result.content));
        assert.equal(result.structuredContent.method, 'deterministic');
        assert.equal(asked, 1, 'the handler was not asked again');
      });
    }
  });
}

// ---- bookFlight: confirmation through the client's form (elicitation) ----

function bookFlight(client, args) {
  return client.callTool({ name: 'bookFlight', arguments: args }, { timeout: REQUEST_TIMEOUT_MS });
}

function textOf(result) {
  return result.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

// A flight to book: the first of a deterministic search, which never asks
// the client anything, so it cannot interfere with the form under test.
async function firstFlightId(client) {
  const result = await findBestFlight(client, { strategy: 'deterministic' });
  assert.notEqual(result.isError, true, JSON.stringify(result.content));
  const id = result.structuredContent.flights[0]?.id;
  assert.match(id ?? '', FLIGHT_ID);
  return id;
}

// The user's answer in every accepting case.
const FORM_ANSWER = { confirm: true, passengerName: 'Ada Lovelace', seat: 'window' };

// formUser is an elicitation handler standing in for the user: it records
// every request and answers each with `response`.
function formUser(response) {
  const requests = []; // the params of every elicitation request received
  const handler = async (request) => {
    requests.push(request.params);
    return response;
  };
  return { handler, requests };
}

// assertConfirmationForm checks the form as the handler received it. Form
// elicitation only allows a flat object of primitive properties, so a host
// can render it without a general JSON Schema engine.
function assertConfirmationForm(params) {
  assert.match(params.message, /simulation/);
  assert.notEqual(params.mode, 'url', 'a form, not a URL');
  const schema = params.requestedSchema;
  assert.equal(schema.type, 'object');
  for (const [name, prop] of Object.entries(schema.properties)) {
    assert.ok(['boolean', 'string', 'number', 'integer'].includes(prop.type), `${name} is a primitive: ${JSON.stringify(prop)}`);
  }
  assert.equal(schema.properties.confirm?.type, 'boolean');
  assert.equal(schema.properties.passengerName?.type, 'string');
  assert.equal(schema.properties.seat?.type, 'string');
  assert.ok(schema.required.includes('confirm'), JSON.stringify(schema.required));
  assert.ok(schema.required.includes('passengerName'), JSON.stringify(schema.required));
}

// Legacy: the server sends `elicitation/create` while the call is open.
// Modern: the call answers `input_required`; inside one callTool the client
// fulfils it through the same handler and calls again with the answer.
for (const transportKind of TRANSPORTS) {
  for (const era of ERAS) {
    describe(`${transportKind}, protocol ${era}, client with form elicitation`, { timeout: 60_000 }, () => {
      const user = formUser({ action: 'accept', content: FORM_ANSWER });
      let session;

      before(
        async () => {
          session = await openSession(transportKind, era, { elicitation: user.handler });
          // Listing the tools makes callTool validate structuredContent
          // against bookFlight's outputSchema. On legacy HTTP the server
          // sends the form on the client's standalone GET stream, which
          // the client opens unawaited after initialize (as for sampling).
          await session.client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
          if (transportKind === 'http' && era === '2025-11-25') await delay(200);
        },
        { timeout: STEP_TIMEOUT_MS },
      );

      after(() => session?.close(), { timeout: STEP_TIMEOUT_MS });

      test('bookFlight asks the user in a form and books what they entered', { timeout: STEP_TIMEOUT_MS }, async () => {
        const flightId = await firstFlightId(session.client);
        assert.equal(user.requests.length, 0, 'the search asked the user nothing');

        const result = await bookFlight(session.client, { flightId });
        assert.notEqual(result.isError, true, textOf(result));
        assert.equal(user.requests.length, 1, 'the user was asked exactly once');
        assertConfirmationForm(user.requests[0]);

        const sc = result.structuredContent;
        assert.equal(sc.simulated, true);
        assert.match(sc.reference, /^BK-.+-[A-Z2-7]{6}$/);
        assert.equal(sc.reference.slice(3, -7), flightId);
        assert.equal(sc.flightId, flightId);
        assert.equal(sc.passengerName, 'Ada Lovelace');
        assert.equal(sc.seat, 'window');
        assert.equal(sc.confirmedBy, 'form');
        assert.ok(Number.isInteger(sc.priceUSD) && sc.priceUSD > 0, `priceUSD ${sc.priceUSD}`);
        assert.equal(typeof sc.summary, 'string');

        // How the answer travelled.
        const calls = session.sent.filter((m) => m.method === 'tools/call' && m.params.name === 'bookFlight');
        if (era === '2026-07-28') {
          // The retry carries the form's answer and the server's requestState.
          assert.equal(calls.length, 2, 'the call and its retry');
          const retry = calls[1].params;
          assert.equal(typeof retry.requestState, 'string');
          const answers = Object.values(retry.inputResponses ?? {});
          assert.equal(answers.length, 1, JSON.stringify(retry.inputResponses));
          assert.deepEqual(answers[0], { action: 'accept', content: FORM_ANSWER });
        } else {
          assert.equal(calls.length, 1);
          assert.ok(
            session.sent.some((m) => m.result?.action === 'accept'),
            'the form answer was sent as a JSON-RPC response',
          );
        }
      });
    });
  }
}

// The user declines the form. On stdio only; the transport does not change
// what the server does with the answer. The capability is declared as the
// bare `elicitation: {}`, which means form mode, so that spelling is covered.
for (const era of ERAS) {
  describe(`stdio, protocol ${era}, user declines the booking form`, { timeout: 60_000 }, () => {
    const user = formUser({ action: 'decline' });
    let session;

    before(
      async () => {
        session = await openSession('stdio', era, { elicitation: user.handler, elicitationCapability: {} });
        await session.client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
      },
      { timeout: STEP_TIMEOUT_MS },
    );

    after(() => session?.close(), { timeout: STEP_TIMEOUT_MS });

    test('bookFlight is a tool error saying the user declined', { timeout: STEP_TIMEOUT_MS }, async () => {
      const flightId = await firstFlightId(session.client);
      const result = await bookFlight(session.client, { flightId });
      assert.equal(user.requests.length, 1);
      assertConfirmationForm(user.requests[0]);
      // A tool error (the model reads it), not a JSON-RPC error.
      assert.equal(result.isError, true, JSON.stringify(result));
      assert.match(textOf(result), /the user declined/);
      assert.equal(result.structuredContent, undefined, 'no booking');
    });
  });
}

// A client that cannot show forms: the call itself must carry the user's
// approval. One era is enough; no round trip to the client is involved.
describe('stdio, protocol 2025-11-25, client without elicitation', { timeout: 60_000 }, () => {
  let session;

  before(
    async () => {
      session = await openSession('stdio', '2025-11-25');
      await session.client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
    },
    { timeout: STEP_TIMEOUT_MS },
  );

  after(() => session?.close(), { timeout: STEP_TIMEOUT_MS });

  test('bookFlight refuses without confirm and books with it', { timeout: STEP_TIMEOUT_MS }, async () => {
    const flightId = await firstFlightId(session.client);

    const refused = await bookFlight(session.client, { flightId });
    assert.equal(refused.isError, true, JSON.stringify(refused));
    assert.match(textOf(refused), /confirm: true/);

    const result = await bookFlight(session.client, { flightId, confirm: true, passengerName: 'Ada Lovelace' });
    assert.notEqual(result.isError, true, textOf(result));
    const sc = result.structuredContent;
    assert.equal(sc.simulated, true);
    assert.equal(sc.flightId, flightId);
    assert.equal(sc.passengerName, 'Ada Lovelace');
    assert.equal(sc.confirmedBy, 'arguments');
    assert.equal(sc.reference.slice(3, -7), flightId);
  });
});

// ---- findBestFlight: asking the user for missing trip details ----

// tripUser answers each trip form with the next of `answers` (the last
// repeats) and records every form it was shown.
function tripUser(...answers) {
  const requests = [];
  const handler = async (request) => {
    requests.push(request.params);
    return answers[Math.min(requests.length, answers.length) - 1];
  };
  return { handler, requests };
}

// assertTripForm checks a trip form as the handler received it: flat
// primitives, exactly `required` required, destination pre-filled from the call.
function assertTripForm(params, required) {
  assert.notEqual(params.mode, 'url', 'a form, not a URL');
  const schema = params.requestedSchema;
  assert.equal(schema.type, 'object');
  for (const [name, prop] of Object.entries(schema.properties)) {
    assert.ok(['boolean', 'string', 'number', 'integer'].includes(prop.type), `${name} is a primitive: ${JSON.stringify(prop)}`);
  }
  assert.deepEqual(schema.required, required);
  assert.equal(schema.properties.date.format, 'date');
  assert.equal(schema.properties.destination.default, 'LHR');
  assert.equal(schema.properties.passengers.type, 'integer');
  assert.ok(schema.properties.cabin.oneOf.every((o) => typeof o.const === 'string' && typeof o.title === 'string'));
}

// The call names only the destination. The user first types an airport that
// does not exist, is asked again with the problem stated, and then answers.
for (const transportKind of TRANSPORTS) {
  for (const era of ERAS) {
    describe(`${transportKind}, protocol ${era}, findBestFlight asks for missing details`, { timeout: 60_000 }, () => {
      const user = tripUser(
        { action: 'accept', content: { origin: 'QQX', date: DATE } },
        { action: 'accept', content: { origin: 'JFK', date: DATE } },
      );
      let session;

      before(
        async () => {
          session = await openSession(transportKind, era, { elicitation: user.handler });
          await session.client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
          if (transportKind === 'http' && era === '2025-11-25') await delay(200);
        },
        { timeout: STEP_TIMEOUT_MS },
      );

      after(() => session?.close(), { timeout: STEP_TIMEOUT_MS });

      test('the user fills in origin and date, the second time right', { timeout: STEP_TIMEOUT_MS }, async () => {
        const result = await session.client.callTool(
          { name: 'findBestFlight', arguments: { destination: 'LHR', strategy: 'deterministic' } },
          { timeout: REQUEST_TIMEOUT_MS },
        );
        assert.notEqual(result.isError, true, textOf(result));
        assert.equal(user.requests.length, 2, 'asked, then asked again');
        // The second form requires only what the first answer got wrong.
        assertTripForm(user.requests[0], ['origin', 'date']);
        assertTripForm(user.requests[1], ['origin']);
        assert.match(user.requests[0].message, /origin airport and departure date/);
        assert.match(user.requests[1].message, /"QQX" is not a known airport code/);
        const trip = result.structuredContent.trip;
        assert.deepEqual([trip.origin, trip.destination, trip.date], ['JFK', 'LHR', DATE]);
        assert.equal(result.structuredContent.flights.length, 3);
        if (era === '2026-07-28') {
          // Every retry carries the original arguments; the answers ride in
          // the sealed requestState.
          const calls = session.sent.filter((m) => m.method === 'tools/call' && m.params.name === 'findBestFlight');
          assert.equal(calls.length, 3, 'the call and two retries');
          for (const c of calls) assert.deepEqual(c.params.arguments, { destination: 'LHR', strategy: 'deterministic' });
        }
      });
    });
  }
}

// The user declines, and a client that cannot show forms: both are tool
// errors naming the missing fields, told apart in structuredContent (which
// the client does not check against the output schema on an error).
for (const era of ERAS) {
  describe(`stdio, protocol ${era}, no trip details from the user`, { timeout: 60_000 }, () => {
    const user = tripUser({ action: 'decline' });
    let declining;
    let formless;

    before(
      async () => {
        declining = await openSession('stdio', era, { elicitation: user.handler, elicitationCapability: {} });
        formless = await openSession('stdio', era);
        await declining.client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
        await formless.client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
      },
      { timeout: STEP_TIMEOUT_MS },
    );

    after(async () => {
      await declining?.close();
      await formless?.close();
    }, { timeout: STEP_TIMEOUT_MS });

    for (const [who, why, askedUser, words] of [
      ['the user declines', 'user_declined', true, /the user declined/],
      ['the client cannot ask', 'client_cannot_ask', false, /could not ask the user/],
    ]) {
      test(`${who}: a tool error naming origin and date`, { timeout: STEP_TIMEOUT_MS }, async () => {
        const session = askedUser ? declining : formless;
        const result = await session.client.callTool(
          { name: 'findBestFlight', arguments: { destination: 'LHR' } },
          { timeout: REQUEST_TIMEOUT_MS },
        );
        assert.equal(result.isError, true, JSON.stringify(result));
        assert.match(textOf(result), words);
        assert.match(textOf(result), /- origin: is missing/);
        assert.match(textOf(result), /- date: is missing/);
        const sc = result.structuredContent;
        assert.equal(sc.error, 'trip_details_needed');
        assert.equal(sc.why, why);
        assert.equal(sc.askedUser, askedUser);
        assert.deepEqual(sc.fields.map((f) => f.field), ['origin', 'date']);
        assert.equal(user.requests.length, 1, 'only the declining user saw a form');
      });
    }
  });
}
