// Interop test: the official TypeScript MCP client (@modelcontextprotocol/client
// 2.x) drives the BUILT flightserver binary, over stdio and streamable HTTP, in
// both protocol eras. The Go tests check the server against itself; this one
// checks it against someone else's reading of the spec. Every path of every
// tool runs here in both eras (paths.mjs, shared with v1.test.mjs); the tests
// below add what only this client shows: how each answer travelled on the
// wire (a 2026-07-28 retry, a 2025-11-25 server request), and a client's
// sampling, including a user who rejects it.
//
//   cd interop && npm ci && npm test
//   FLIGHTSERVER_BIN=/path/to/flightserver npm test   # skip the go build

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
// The stdio transport spawns processes, so it lives in its own Node-only entry point.
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import {
  DATE,
  LEGACY,
  MODERN,
  REQUEST_TIMEOUT_MS,
  STEP_TIMEOUT_MS,
  TRANSPORTS,
  assertSucceeded,
  launchServer,
  only,
  scriptedUser,
  serverBinary,
  settleGETStream,
  standInLLM,
  textOf,
} from './harness.mjs';
import { clientOptionsFor } from './flightserver.mjs';
import { assertConfirmationForm, describeToolPaths } from './paths.mjs';

const ERAS = [LEGACY, MODERN];
const server = serverBinary();

// openSession connects one client to a fresh server (started with
// serverArgs) over one transport in one era, and lists the tools, so that
// callTool validates structuredContent against the output schemas. With a
// sampling handler the client declares the `sampling` capability (as
// `samplingCapability`, e.g. `{ tools: {} }`) and registers the handler
// (2.x refuses a handler whose capability was not declared); likewise
// roots, and an elicitation handler, with `elicitationCapability` as the
// declared `elicitation` object. `sent`
// records every JSON-RPC message the client wrote, so tests can check what
// went over the wire, e.g. that a modern call was retried.
async function openSession(
  transportKind,
  era,
  { sampling, samplingCapability = {}, elicitation, elicitationCapability = { form: {} }, roots, serverArgs = [] } = {},
) {
  const launched = await launchServer(server.path, transportKind, serverArgs);
  // Over stdio the transport owns the child process and kills it on close.
  // In pinned-modern mode the SDK first spawns a short-lived sibling to send
  // `server/discover`, then the session process.
  const transport = launched.stdio ? new StdioClientTransport(launched.stdio) : new StreamableHTTPClientTransport(launched.url);
  const sent = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };

  const options = clientOptionsFor(era);
  options.capabilities = {
    ...(sampling && { sampling: samplingCapability }),
    ...(elicitation && { elicitation: elicitationCapability }),
    ...(roots && { roots: { listChanged: true } }),
  };
  const client = new Client({ name: 'flightserver-interop', version: '1.0.0' }, options);
  if (sampling) client.setRequestHandler('sampling/createMessage', sampling);
  if (elicitation) client.setRequestHandler('elicitation/create', elicitation);
  if (roots) client.setRequestHandler('roots/list', roots);
  const close = async () => {
    await client.close();
    await launched.stop();
  };
  const listTools = () => client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
  try {
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
    await listTools();
    await settleGETStream(transportKind, era);
  } catch (err) {
    await close().catch(() => {}); // the connect error is the one to report
    throw err;
  }
  const call = (name, args, params) => client.callTool({ name, arguments: args, ...params }, { timeout: REQUEST_TIMEOUT_MS });
  return { client, sent, call, listTools, close };
}

// sessionFor opens one session for a describe block and closes it after.
function sessionFor(transportKind, era, options) {
  const holder = {};
  before(async () => Object.assign(holder, await openSession(transportKind, era, options)), { timeout: STEP_TIMEOUT_MS });
  after(() => holder.close?.(), { timeout: STEP_TIMEOUT_MS });
  return holder;
}

// toolCalls are the tools/call requests the client sent for one tool: the
// call and, in 2026-07-28, each retry.
function toolCalls(session, name) {
  return session.sent.filter((m) => m.method === 'tools/call' && m.params.name === name);
}

// A flight to book: the first of a deterministic search, which never asks
// the client anything, so it cannot interfere with the question under test.
async function firstFlightId(session) {
  const sc = assertSucceeded(
    await session.call('findBestFlight', { origin: 'JFK', destination: 'LHR', date: DATE, strategy: 'deterministic' }),
    ['deterministic'],
  );
  return sc.flights[0].id;
}

for (const transportKind of TRANSPORTS) {
  for (const era of ERAS) {
    describeToolPaths({ sdk: 'SDK 2.4', transport: transportKind, era, open: openSession });

    describe(`${transportKind}, protocol ${era}`, { timeout: 60_000 }, () => {
      const session = sessionFor(transportKind, era);

      test('negotiates the pinned protocol version', { timeout: STEP_TIMEOUT_MS }, () => {
        assert.equal(session.client.getNegotiatedProtocolVersion(), era);
        // Modern means `server/discover` replaced `initialize`.
        assert.equal(session.client.getProtocolEra(), era === MODERN ? 'modern' : 'legacy');
      });

      // subscriptions/listen: the client waits for the acknowledgement, and
      // a result that overtakes it fails the subscription ("closed the
      // subscription gracefully before acknowledging"). flightserver has
      // nothing to subscribe to, so it acknowledges an empty filter and
      // ends the stream. mcp-go alone sent the result first over stdio
      // every time, and sometimes lost the acknowledgement over HTTP
      // (fallback/listen.go); twenty in a row failed on both transports.
      if (era === MODERN) {
        test('every subscriptions/listen is acknowledged before it ends', { timeout: STEP_TIMEOUT_MS }, async () => {
          for (let i = 0; i < 20; i++) {
            const sub = await session.client.listen({ toolsListChanged: true }, { timeout: REQUEST_TIMEOUT_MS });
            assert.deepEqual(sub.honoredFilter, {}, `listen ${i}: nothing can be subscribed`);
            assert.equal(await sub.closed, 'graceful', `listen ${i}`);
          }
        });
      }
    });

    // A client that lends its LLM. Legacy: the server sends
    // `sampling/createMessage` while the call is open. Modern: the call
    // answers `input_required`, the client fulfils it through the same
    // handler and calls again with the answer (inside one callTool).
    describe(`${transportKind}, protocol ${era}, client with sampling`, { timeout: 60_000 }, () => {
      const llm = standInLLM();
      const session = sessionFor(transportKind, era, { sampling: llm.handler });

      test('the sampling request, and how its answer travelled', { timeout: STEP_TIMEOUT_MS }, async () => {
        const result = await session.call('findBestFlight', { origin: 'JFK', destination: 'LHR', date: DATE });
        const reason = result.structuredContent?.attempts?.[0]?.reason ?? '';
        if (/no GET stream/.test(reason)) {
          assert.fail(`the call raced the client's standalone GET stream, so the server skipped sampling: ${reason}`);
        }
        const sc = assertSucceeded(result, ['client_sampling']);
        // Sampling ranked at once; then the view decision, for a client
        // without MCP Apps.
        assert.deepEqual(sc.attempts.map((a) => a.step), ['client_sampling', 'view'], JSON.stringify(sc.attempts));
        assert.deepEqual(
          sc.flights.map((f) => f.id),
          llm.picks[0],
        );

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

        const calls = toolCalls(session, 'findBestFlight');
        if (era === MODERN) {
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

    // Legacy: the server sends `elicitation/create` while the call is open.
    // Modern: the call answers `input_required`; inside one callTool the
    // client fulfils it through the same handler and calls again with the
    // answer.
    describe(`${transportKind}, protocol ${era}, client with form elicitation`, { timeout: 60_000 }, () => {
      const user = scriptedUser();
      const session = sessionFor(transportKind, era, { elicitation: user.handler });

      test("the booking form's answer, and how it travelled", { timeout: STEP_TIMEOUT_MS }, async () => {
        const flightId = await firstFlightId(session);
        const answer = { confirm: true, passengerName: 'Ada Lovelace', seat: 'window' };
        user.script({ response: { action: 'accept', content: answer } });
        const sc = assertSucceeded(await session.call('bookFlight', { flightId }), ['confirm_form']);
        assertConfirmationForm(user.forms);
        // BK-<flight id>-<the booking, encoded>-<tag>
        assert.ok(sc.reference.startsWith(`BK-${flightId}-`), sc.reference);
        assert.equal(sc.passengerName, 'Ada Lovelace');

        const calls = toolCalls(session, 'bookFlight');
        if (era === MODERN) {
          // The retry carries the form's answer and the server's requestState.
          assert.equal(calls.length, 2, 'the call and its retry');
          const retry = calls[1].params;
          assert.equal(typeof retry.requestState, 'string');
          const answers = Object.values(retry.inputResponses ?? {});
          assert.equal(answers.length, 1, JSON.stringify(retry.inputResponses));
          assert.deepEqual(answers[0], { action: 'accept', content: answer });
        } else {
          assert.equal(calls.length, 1);
          assert.ok(
            session.sent.some((m) => m.result?.action === 'accept'),
            'the form answer was sent as a JSON-RPC response',
          );
        }
      });

      // The call names only the destination. The user first types an
      // airport that does not exist, is asked again with the problem
      // stated, and then answers.
      test('the trip form asked twice, and where the answers travelled', { timeout: STEP_TIMEOUT_MS }, async () => {
        user.script(
          { response: { action: 'accept', content: { origin: 'QQX', date: DATE } } },
          { response: { action: 'accept', content: { origin: 'JFK', date: DATE } } },
        );
        const args = { destination: 'LHR', strategy: 'deterministic' };
        const sc = assertSucceeded(await session.call('findBestFlight', args), ['trip_details', 'deterministic']);
        assert.equal(user.forms.length, 2, 'asked, then asked again');
        // The second form requires only what the first answer got wrong.
        assertTripForm(user.forms[0], ['origin', 'date']);
        assertTripForm(user.forms[1], ['origin']);
        assert.match(user.forms[0].message, /origin airport and departure date/);
        assert.match(user.forms[1].message, /"QQX" is not a known airport or metro code/);
        assert.deepEqual([sc.trip.origin, sc.trip.destination, sc.trip.date], ['JFK', 'LHR', DATE]);
        if (era === MODERN) {
          // Every retry carries the original arguments; the answers ride in
          // the sealed requestState.
          const calls = toolCalls(session, 'findBestFlight').filter(
            (c) => c.params.arguments.strategy === 'deterministic' && !c.params.arguments.origin,
          );
          assert.equal(calls.length, 3, 'the call and two retries');
          for (const c of calls) assert.deepEqual(c.params.arguments, args);
        }
      });
    });
  }
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

// The user says no at the host's approval prompt: the handler throws. On
// stdio only; the transport does not change what happens next.
for (const era of ERAS) {
  describe(`stdio, protocol ${era}, user rejects sampling`, { timeout: 60_000 }, () => {
    const llm = standInLLM();
    llm.behaviour = 'reject';
    const session = sessionFor('stdio', era, { sampling: llm.handler });
    const trip = { origin: 'JFK', destination: 'LHR', date: DATE };

    if (era === LEGACY) {
      test('the call falls back to the deterministic ranker and says why', { timeout: STEP_TIMEOUT_MS }, async () => {
        const sc = assertSucceeded(await session.call('findBestFlight', trip), ['deterministic']);
        assert.equal(llm.requests.length, 1);
        assert.equal(sc.model, undefined);
        // The 2.x client answers a throwing handler with JSON-RPC error
        // -32603 and the thrown message; the server reads the message.
        assert.deepEqual(only(sc.attempts[0], 'step', 'outcome', 'why'), {
          step: 'client_sampling',
          outcome: 'failed',
          why: 'user_rejected',
        });
        assert.match(sc.attempts[0].reason, /user rejected/);
      });
    } else {
      test('the client ends the call itself, and the session still works', { timeout: STEP_TIMEOUT_MS }, async () => {
        // The handler's error is the call's error: the client never sends
        // the retry, so the server (which holds nothing between rounds)
        // never hears of the rejection.
        await assert.rejects(session.call('findBestFlight', trip), (err) => err === llm.rejection);
        assert.equal(llm.requests.length, 1);
        assert.equal(toolCalls(session, 'findBestFlight').length, 1, 'no retry was sent');

        // A call that does not ask the client anything still works.
        const result = await session.call('findBestFlight', { ...trip, strategy: 'deterministic' });
        assertSucceeded(result, ['deterministic']);
        assert.ok(textOf(result).length > 0);
        assert.equal(llm.requests.length, 1, 'the handler was not asked again');
      });
    }
  });
}
