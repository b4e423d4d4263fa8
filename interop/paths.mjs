// Every path of every tool, as one table that any client SDK runs: each
// isError path (the code, the why, the fields, and text that says what to
// do) and each success path (which step was used), plus the listed schema a
// client sees. v1.test.mjs runs it with the 1.x SDK (2025-11-25 only), the
// client most desktop hosts embed, which validates every result against the
// tool's output schema; interop.test.mjs runs it with the 2.x SDK in both
// eras. A test file supplies `open`, which connects its SDK's client to a
// fresh server; everything else is here, once.

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import {
  ANSWER_TOOL,
  DATE,
  FLIGHT_ID,
  LEGACY,
  MODERN,
  STEP_TIMEOUT_MS,
  assertSucceeded,
  assertToolError,
  only,
  scriptedUser,
  standInLLM,
  tempDir,
  textOf,
} from './harness.mjs';

// A flight id of the right form, on a real route and date, that names no
// flight.
const UNKNOWN_FLIGHT = `JFK-LHR-${DATE.slice(2).replaceAll('-', '')}-ZZZZZ`;

const TRIP = { origin: 'JFK', destination: 'LHR', date: DATE };
const ADA = { confirm: true, passengerName: 'Ada Lovelace', seat: 'window' };
// A name the server refuses: digits are not part of anyone's name on an ID.
const BAD_NAME = 'R2-D2';

const accept = (content) => ({ response: { action: 'accept', content } });
const decline = { response: { action: 'decline' } };
const cancel = { response: { action: 'cancel' } };

// The clients a table row may need, as declared capabilities, handlers and
// the flags of the server it talks to. `s` holds the stand-ins the handlers
// use and the directories the server may write in.
function profile(name, s) {
  switch (name) {
    case 'formless': // declares nothing, like most desktop hosts
      return {};
    case 'forms': // the bare `elicitation: {}`, which means form mode
      return { elicitation: s.user.handler, elicitationCapability: {} };
    case 'slowForms': // a user who takes longer than the server waits
      return { elicitation: s.user.handler, elicitationCapability: {}, serverArgs: ['--elicitation-timeout', '300ms'] };
    case 'urlOnly':
      return {
        elicitation: async () => {
          throw new Error('a client that declared only URL mode was sent a form');
        },
        elicitationCapability: { url: {} },
      };
    case 'sampling':
      return { sampling: s.llm.handler };
    case 'samplingTools': // sampling with tools (`sampling: { tools: {} }`)
      return { sampling: s.llm.handler, samplingCapability: { tools: {} } };
    case 'slowSampling': // a host whose model may not answer within the server's wait
      return { sampling: s.llm.handler, serverArgs: ['--sampling-timeout', '300ms'] };
    case 'exporting': // no roots; the operator configured --export-dir
      return { serverArgs: ['--export-dir', s.exportDir] };
    case 'roots': // a root inside --export-dir, so it counts over HTTP too
      return {
        roots: async () => ({ roots: [{ uri: pathToFileURL(s.rootDir).href, name: 'trips' }] }),
        serverArgs: ['--export-dir', s.exportDir],
      };
    default:
      throw new Error(`no client profile ${name}`);
  }
}

// The rows. Each names the client profile it needs, the eras it applies to
// (default: both), calls the tool through `s.call`, and checks the result.
// `s.flightId()` is a real flight from a deterministic search.
const ERROR_ROWS = [
  // ---- findBestFlight: missing trip details ----
  {
    name: 'findBestFlight without origin and date, from a client that cannot ask',
    profile: 'formless',
    call: (s) => s.call('findBestFlight', { destination: 'LHR' }),
    want: {
      error: 'trip_details_needed',
      why: 'client_cannot_ask',
      askedUser: false,
      fields: ['origin', 'date'],
      text: /could not ask the user[\s\S]*- origin: is missing[\s\S]*Ask the user for these in the conversation, then call findBestFlight again/,
    },
    then: (d) =>
      assert.deepEqual(only(d.attempts[0], 'step', 'outcome', 'why'), {
        step: 'trip_details',
        outcome: 'skipped',
        why: 'client_cannot_ask',
      }),
  },
  {
    name: 'findBestFlight without details, from a client that declared only URL elicitation',
    profile: 'urlOnly',
    call: (s) => s.call('findBestFlight', { destination: 'LHR' }),
    want: {
      error: 'trip_details_needed',
      why: 'url_mode_only',
      askedUser: false,
      fields: ['origin', 'date'],
      text: /could not ask the user/,
    },
  },
  {
    name: 'findBestFlight without details, the user declines the form',
    profile: 'forms',
    script: [decline],
    call: (s) => s.call('findBestFlight', { destination: 'LHR' }),
    want: {
      error: 'trip_details_needed',
      why: 'user_declined',
      askedUser: true,
      fields: ['origin', 'date'],
      text: /the user declined[\s\S]*Do not guess them/,
    },
    then: (d, s) => assert.equal(s.user.forms.length, 1, 'one form'),
  },
  {
    name: 'findBestFlight without details, the user dismisses the form',
    profile: 'forms',
    script: [cancel],
    call: (s) => s.call('findBestFlight', { destination: 'LHR' }),
    want: {
      error: 'trip_details_needed',
      why: 'user_cancelled',
      askedUser: true,
      fields: ['origin', 'date'],
      text: /dismissed the form[\s\S]*Do not guess them/,
    },
  },
  {
    name: 'findBestFlight without details, the user answers wrong twice',
    profile: 'forms',
    script: [accept({ origin: 'QQX', date: DATE }), accept({ origin: 'QQY' })],
    call: (s) => s.call('findBestFlight', { destination: 'LHR' }),
    want: {
      error: 'trip_details_needed',
      why: 'still_invalid',
      askedUser: true,
      fields: ['origin'],
      text: /still not valid after a second form[\s\S]*call findBestFlight again/,
    },
    then: (d, s) => assert.equal(s.user.forms.length, 2, 'a form, then one more'),
  },
  {
    // Modern: the client's handler runs inside its own callTool, with no
    // server waiting, so there is no server-side timeout to hit.
    name: 'findBestFlight without details, the user does not answer in time',
    profile: 'slowForms',
    eras: [LEGACY],
    script: [{ ...accept({ origin: 'JFK', date: DATE }), afterMs: 1_000 }],
    call: (s) => s.call('findBestFlight', { destination: 'LHR' }),
    want: {
      error: 'trip_details_needed',
      why: 'no_answer',
      askedUser: true,
      fields: ['origin', 'date'],
      text: /no answer within/,
    },
  },
  // ---- findBestFlight: bad arguments ----
  {
    name: 'findBestFlight with an unknown airport and too many passengers',
    profile: 'formless',
    call: (s) => s.call('findBestFlight', { ...TRIP, origin: 'ZZZ', passengers: 12 }),
    want: { error: 'invalid_arguments', fields: ['origin', 'passengers'], text: /2 problem\(s\)[\s\S]*Fix these and call again/ },
  },
  {
    // A mistake in the host's own arguments is the host's to fix: no form,
    // even for a client that could show one.
    name: 'findBestFlight with a bad argument and missing details, from a client that can ask',
    profile: 'forms',
    script: [],
    call: (s) => s.call('findBestFlight', { destination: 'LHR', passengers: 12 }),
    want: { error: 'invalid_arguments', fields: ['origin', 'date', 'passengers'], text: /Fix these and call again/ },
    then: (d, s) => assert.equal(s.user.forms.length, 0, "no form for the host's mistakes"),
  },
  // ---- findBestFlight: a single-rung strategy that cannot rank ----
  {
    name: 'findBestFlight strategy sampling, from a client without sampling',
    profile: 'formless',
    call: (s) => s.call('findBestFlight', { ...TRIP, strategy: 'sampling' }),
    want: {
      error: 'not_ranked',
      why: 'client_cannot_ask',
      text: /strategy "sampling" could not rank: client did not declare sampling[\s\S]*strategy auto/,
    },
    then: (d) =>
      assert.deepEqual(
        d.attempts.map((a) => only(a, 'step', 'outcome')),
        [{ step: 'client_sampling', outcome: 'skipped' }],
      ),
  },
  {
    name: 'findBestFlight strategy server_llm, with no server LLM configured',
    profile: 'formless',
    call: (s) => s.call('findBestFlight', { ...TRIP, strategy: 'server_llm' }),
    want: {
      error: 'not_ranked',
      why: 'not_configured',
      text: /strategy "server_llm" could not rank: no server-side LLM configured[\s\S]*strategy auto/,
    },
  },
  {
    name: "findBestFlight strategy sampling, the client's model answers with no flight",
    profile: 'sampling',
    llm: 'garbage',
    call: (s) => s.call('findBestFlight', { ...TRIP, strategy: 'sampling' }),
    want: { error: 'not_ranked', why: 'unusable_answer', text: /strategy "sampling" could not rank[\s\S]*strategy auto/ },
    then: (d, s) => assert.equal(s.llm.requests.length, 1, 'the model was asked once'),
  },
  {
    // Modern: a rejecting handler ends the call on the client, and no retry
    // reaches the server (interop.test.mjs checks that).
    name: 'findBestFlight strategy sampling, the user rejects the request',
    profile: 'sampling',
    eras: [LEGACY],
    llm: 'reject',
    call: (s) => s.call('findBestFlight', { ...TRIP, strategy: 'sampling' }),
    want: { error: 'not_ranked', why: 'user_rejected', text: /the user rejected the request[\s\S]*strategy auto/ },
  },
  {
    // A 2026-07-28 retry only: a legacy client (the 1.x SDK included) has
    // no requestState to forge, so this row never runs in that era.
    name: 'findBestFlight retried with a forged requestState and a made-up answer',
    profile: 'forms',
    eras: [MODERN],
    script: [],
    call: (s) =>
      s.call(
        'findBestFlight',
        { destination: 'LHR' },
        {
          // The state's form (version, payload '{}', signature), with a
          // signature the server never made.
          requestState: 'v1.e30.c2lnbmVkIGJ5IG5vYm9keQ',
          inputResponses: { trip: { action: 'accept', content: { origin: 'JFK', date: DATE } } },
        },
      ),
    want: {
      error: 'state_refused',
      text: /requestState cannot be used: [^.]*signature[\s\S]*Call findBestFlight again without requestState and inputResponses to start over/,
    },
    then: (d, s) => assert.equal(s.user.forms.length, 0, 'the user was not asked'),
  },

  // ---- bookFlight ----
  {
    name: 'bookFlight without confirm, from a client that cannot show the form',
    profile: 'formless',
    call: async (s) => s.call('bookFlight', { flightId: await s.flightId() }),
    want: {
      error: 'not_booked',
      why: 'not_confirmed',
      text: /Ask the user to approve booking .+, then call bookFlight again with confirm: true and passengerName/,
    },
    then: (d) =>
      assert.deepEqual(
        d.attempts.map((a) => only(a, 'step', 'outcome', 'why')),
        [
          { step: 'confirm_form', outcome: 'skipped', why: 'client_cannot_ask' },
          { step: 'confirm_arguments', outcome: 'failed', why: 'not_confirmed' },
        ],
      ),
  },
  {
    name: 'bookFlight with confirm and a passenger name the server refuses',
    profile: 'formless',
    call: async (s) => s.call('bookFlight', { flightId: await s.flightId(), confirm: true, passengerName: BAD_NAME }),
    // The text names what is wrong with the name, so the host's model asks
    // for the name again instead of sending it again.
    want: {
      error: 'not_booked',
      why: 'unusable_answer',
      text: /passengerName may hold only letters[\s\S]*call bookFlight again with confirm: true and that name/,
    },
    then: (d) => assert.match(d.reason, /passengerName may hold only letters/),
  },
  {
    name: 'bookFlight with a flight id that names no flight',
    profile: 'formless',
    call: (s) => s.call('bookFlight', { flightId: UNKNOWN_FLIGHT, confirm: true, passengerName: 'Ada Lovelace' }),
    want: {
      error: 'invalid_arguments',
      fields: ['flightId'],
      text: /is not a flight on JFK to LHR[\s\S]*Fix these and call again/,
    },
  },
  {
    name: 'bookFlight without a flight id and with an unknown seat',
    profile: 'formless',
    call: (s) => s.call('bookFlight', { seat: 'roof' }),
    want: { error: 'invalid_arguments', fields: ['flightId', 'seat'], text: /Fix these and call again/ },
  },
  {
    name: 'bookFlight, the user declines the confirmation form',
    profile: 'forms',
    script: [decline],
    call: async (s) => s.call('bookFlight', { flightId: await s.flightId() }),
    want: {
      error: 'not_booked',
      why: 'user_declined',
      text: /Not booked: the user declined\. Ask the user, then call bookFlight again/,
    },
    then: (d, s) => assertConfirmationForm(s.user.forms),
  },
  {
    name: 'bookFlight, the user dismisses the confirmation form',
    profile: 'forms',
    script: [cancel],
    call: async (s) => s.call('bookFlight', { flightId: await s.flightId() }),
    want: { error: 'not_booked', why: 'user_cancelled', text: /dismissed the form[\s\S]*call bookFlight again/ },
  },
  {
    name: 'bookFlight, the user leaves the confirmation unticked',
    profile: 'forms',
    script: [accept({ ...ADA, confirm: false })],
    call: async (s) => s.call('bookFlight', { flightId: await s.flightId() }),
    want: { error: 'not_booked', why: 'not_confirmed', text: /did not tick the confirmation/ },
  },
  {
    name: 'bookFlight, the user types a passenger name the server refuses',
    profile: 'forms',
    script: [accept({ ...ADA, passengerName: BAD_NAME })],
    call: async (s) => s.call('bookFlight', { flightId: await s.flightId() }),
    want: {
      error: 'not_booked',
      why: 'unusable_answer',
      text: /passenger name in the form may hold only letters[\s\S]*Call bookFlight again to ask once more/,
    },
  },
  // ---- saveItinerary ----
  {
    name: 'saveItinerary with no roots and no --export-dir',
    profile: 'formless',
    call: async (s) => s.call('saveItinerary', { flightId: await s.flightId() }),
    want: {
      error: 'not_saved',
      why: 'not_configured',
      text: /nowhere to write[\s\S]*start the server with --export-dir[\s\S]*does not pick a directory itself/,
    },
    then: (d) =>
      assert.deepEqual(
        d.attempts.map((a) => only(a, 'step', 'outcome')),
        [
          { step: 'client_roots', outcome: 'skipped' },
          { step: 'export_dir', outcome: 'skipped' },
        ],
      ),
  },
  {
    name: 'saveItinerary into a directory outside the allowed one',
    profile: 'exporting',
    call: async (s) => s.call('saveItinerary', { flightId: await s.flightId(), directory: path.dirname(s.exportDir) }),
    want: {
      error: 'invalid_arguments',
      fields: ['directory'],
      text: /is not inside an allowed directory[\s\S]*Fix these and call again/,
    },
  },
  {
    name: 'saveItinerary in an unknown format, by a booking reference the server never issued',
    profile: 'exporting',
    call: (s) => s.call('saveItinerary', { bookingRef: `BK-${UNKNOWN_FLIGHT}-AAAAAA`, format: 'pdf' }),
    want: { error: 'invalid_arguments', fields: ['format', 'bookingRef'], text: /not a booking reference this server issued/ },
  },
  {
    name: 'saveItinerary over an existing file without overwrite',
    profile: 'exporting',
    call: async (s) => {
      const args = { flightId: await s.flightId(), filename: 'kept' };
      const first = assertSucceeded(await s.call('saveItinerary', args), ['export_dir']);
      s.kept = { args, path: first.path, bytes: readFileSync(first.path) };
      return s.call('saveItinerary', args);
    },
    want: { error: 'not_saved', text: /kept\.ics already exists in .+; pass overwrite true to replace it/ },
    then: async (d, s) => {
      assert.deepEqual(readFileSync(s.kept.path), s.kept.bytes, 'the existing file is unchanged');
      // What the text advises works.
      const replaced = assertSucceeded(await s.call('saveItinerary', { ...s.kept.args, overwrite: true }), ['export_dir']);
      assert.equal(replaced.path, s.kept.path);
    },
  },
];

const SUCCESS_ROWS = [
  {
    name: 'findBestFlight with the whole trip ranks deterministically',
    profile: 'formless',
    call: (s) => s.call('findBestFlight', TRIP),
    used: ['deterministic'],
    then: (sc) => {
      assert.equal(sc.method, 'deterministic');
      assert.equal(sc.ranked, true);
      assert.equal(sc.model, undefined);
      assert.deepEqual(
        sc.attempts.map((a) => only(a, 'step', 'outcome', 'why')),
        [
          { step: 'client_sampling', outcome: 'skipped', why: 'client_cannot_ask' },
          { step: 'server_llm', outcome: 'skipped', why: 'not_configured' },
          { step: 'deterministic', outcome: 'used' },
          // This client does not render MCP Apps: the text is the result.
          { step: 'view', outcome: 'skipped', why: 'client_cannot_ask' },
        ],
      );
      assert.deepEqual([sc.trip.origin, sc.trip.destination, sc.trip.date], ['JFK', 'LHR', DATE]);
      assert.equal(sc.flights.length, 3);
      for (const f of sc.flights) assert.match(f.id, FLIGHT_ID);
    },
  },
  {
    name: 'findBestFlight strategy candidates gives an unranked shortlist',
    profile: 'formless',
    call: (s) => s.call('findBestFlight', { ...TRIP, strategy: 'candidates' }),
    used: ['candidates'],
    then: (sc) => {
      assert.equal(sc.ranked, false);
      assert.ok(sc.flights.length > 3, `a shortlist: ${sc.flights.length}`);
    },
  },
  {
    name: "findBestFlight ranks through the client's model",
    profile: 'sampling',
    llm: 'answer',
    call: (s) => s.call('findBestFlight', TRIP),
    used: ['client_sampling'],
    then: (sc, s) => {
      assert.equal(sc.model, 'interop-llm');
      assert.deepEqual(
        sc.flights.map((f) => f.id),
        s.llm.picks.at(-1),
      );
      // Plain sampling: no tools offered, and the model's text was read.
      const [params] = s.llm.requests;
      assert.equal('tools' in params, false, `no tools for a client without sampling.tools: ${JSON.stringify(params.tools)}`);
      assert.equal('toolChoice' in params, false);
      assert.equal(sc.attempts[0].answer, 'text', JSON.stringify(sc.attempts[0]));
    },
  },
  {
    // A client that declared sampling.tools is offered the one answer tool
    // and required to call it; its model's tool_use input is the answer.
    name: "findBestFlight ranks by the client's model's call of submit_ranking",
    profile: 'samplingTools',
    llm: 'answer',
    call: (s) => s.call('findBestFlight', TRIP),
    used: ['client_sampling'],
    then: (sc, s) => {
      assert.equal(s.llm.requests.length, 1, 'the model was asked once');
      const [params] = s.llm.requests;
      assert.deepEqual(
        params.tools?.map((t) => t.name),
        [ANSWER_TOOL],
        JSON.stringify(params.tools),
      );
      assert.deepEqual(params.toolChoice, { mode: 'required' });
      // The tool's input schema is the answer contract: picks of id and reason.
      const schema = params.tools[0].inputSchema;
      assert.equal(schema.type, 'object');
      assert.deepEqual(schema.required, ['picks']);
      assert.deepEqual(schema.properties.picks.items.required, ['id', 'reason']);
      assert.match(params.systemPrompt, new RegExp(`calling the ${ANSWER_TOOL} tool`));
      assert.deepEqual(
        sc.flights.map((f) => f.id),
        s.llm.picks.at(-1),
      );
      for (const f of sc.flights) assert.equal(f.reason, 'interop choice');
      assert.deepEqual(only(sc.attempts[0], 'step', 'outcome', 'answer'), {
        step: 'client_sampling',
        outcome: 'used',
        answer: 'structured',
      });
    },
  },
  {
    // Offered the tool, the model answers in text anyway (some hosts do):
    // the text reader reads it.
    name: 'findBestFlight reads the text of a model that ignored submit_ranking',
    profile: 'samplingTools',
    llm: 'text',
    call: (s) => s.call('findBestFlight', TRIP),
    used: ['client_sampling'],
    then: (sc, s) => {
      assert.deepEqual(
        s.llm.requests[0].tools?.map((t) => t.name),
        [ANSWER_TOOL],
      );
      assert.deepEqual(
        sc.flights.map((f) => f.id),
        s.llm.picks.at(-1),
      );
      assert.deepEqual(only(sc.attempts[0], 'step', 'outcome', 'answer'), {
        step: 'client_sampling',
        outcome: 'used',
        answer: 'text',
      });
    },
  },
  {
    // A host that never answers the sampling request: the server waits
    // its --sampling-timeout, then ranks itself and says why. Modern: a
    // silent host never sends the retry, so only the client can end that
    // call (as with a rejection).
    name: "findBestFlight when the client's model never answers",
    profile: 'slowSampling',
    eras: [LEGACY],
    llm: 'silent',
    call: (s) => s.call('findBestFlight', TRIP),
    used: ['deterministic'],
    then: (sc, s) => {
      assert.equal(s.llm.requests.length, 1, 'the model was asked once');
      assert.deepEqual(only(sc.attempts[0], 'step', 'outcome', 'why'), {
        step: 'client_sampling',
        outcome: 'failed',
        why: 'no_answer',
      });
      assert.match(sc.attempts[0].reason, /no answer within 300ms/);
    },
  },
  {
    name: 'findBestFlight asks the user for the missing details',
    profile: 'forms',
    script: [accept({ origin: 'JFK', date: DATE })],
    call: (s) => s.call('findBestFlight', { destination: 'LHR' }),
    used: ['trip_details', 'deterministic'],
    then: (sc, s) => {
      assert.equal(s.user.forms.length, 1);
      assert.deepEqual(s.user.forms[0].requestedSchema.required, ['origin', 'date']);
      assert.deepEqual([sc.trip.origin, sc.trip.destination, sc.trip.date], ['JFK', 'LHR', DATE]);
    },
  },
  {
    name: 'bookFlight with confirm and passengerName, from a client that cannot show the form',
    profile: 'formless',
    call: async (s) => s.call('bookFlight', { flightId: await s.flightId(), confirm: true, passengerName: 'Ada Lovelace' }),
    used: ['confirm_arguments'],
    then: async (sc, s) => {
      assert.equal(sc.simulated, true);
      assert.equal(sc.flightId, await s.flightId());
      assert.equal(sc.passengerName, 'Ada Lovelace');
      assert.deepEqual(only(sc.attempts[0], 'step', 'outcome', 'why'), {
        step: 'confirm_form',
        outcome: 'skipped',
        why: 'client_cannot_ask',
      });
    },
  },
  {
    name: 'bookFlight, the user confirms in the form',
    profile: 'forms',
    script: [accept(ADA)],
    call: async (s) => s.call('bookFlight', { flightId: await s.flightId() }),
    used: ['confirm_form'],
    then: (sc, s) => {
      assertConfirmationForm(s.user.forms);
      assert.deepEqual([sc.passengerName, sc.seat], ['Ada Lovelace', 'window']);
      assert.match(sc.reference, /^BK-.+-[A-Z2-7]{6}$/);
      assert.ok(Number.isInteger(sc.priceUSD) && sc.priceUSD > 0, `priceUSD ${sc.priceUSD}`);
    },
  },
  {
    name: 'saveItinerary writes a booking into --export-dir',
    profile: 'exporting',
    call: async (s) => {
      const booked = await s.call('bookFlight', { flightId: await s.flightId(), confirm: true, passengerName: 'Ada Lovelace' });
      const { reference } = assertSucceeded(booked, ['confirm_arguments']);
      return s.call('saveItinerary', { bookingRef: reference });
    },
    used: ['export_dir'],
    then: async (sc, s) => {
      assert.deepEqual(only(sc.attempts[0], 'step', 'outcome'), { step: 'client_roots', outcome: 'skipped' });
      assert.equal(path.dirname(sc.path), s.exportDir);
      assert.equal(sc.flightId, await s.flightId());
      assert.match(readFileSync(sc.path, 'utf8'), /^BEGIN:VCALENDAR/);
    },
  },
  {
    name: "saveItinerary writes inside the client's root",
    profile: 'roots',
    call: async (s) => s.call('saveItinerary', { flightId: await s.flightId(), format: 'markdown' }),
    used: ['client_roots'],
    then: (sc, s) => {
      assert.equal(path.dirname(sc.path), s.rootDir);
      assert.equal(sc.uri, pathToFileURL(sc.path).href);
      assert.equal(readFileSync(sc.path).length, sc.bytes);
    },
  },
];

// assertConfirmationForm checks the one form the user saw: flat primitives
// (what form elicitation allows), confirm and the name required, and the
// word that it is a simulation.
export function assertConfirmationForm(forms) {
  assert.equal(forms.length, 1, 'one form');
  const [{ message, mode, requestedSchema: schema }] = forms;
  assert.match(message, /simulation/);
  assert.notEqual(mode, 'url');
  for (const [name, prop] of Object.entries(schema.properties)) {
    assert.ok(['boolean', 'string', 'number', 'integer'].includes(prop.type), `${name} is a primitive: ${JSON.stringify(prop)}`);
  }
  assert.equal(schema.properties.confirm?.type, 'boolean');
  assert.deepEqual(schema.required, ['confirm', 'passengerName']);
}

// The trip details a client that cannot show forms must give up front.
const TRIP_FIELDS = ['origin', 'destination', 'date'];

// describeToolPaths defines the table for one SDK, transport and era.
// open(transport, era, profile) connects a client declaring the profile's
// capabilities to a fresh server started with its serverArgs, and returns
// { call(name, args, params), listTools(), close() } (params: more
// tools/call params); it lists the tools before returning (a validating
// client learns the output schemas from that).
export function describeToolPaths({ sdk, transport, era, open }) {
  describe(`${sdk}, ${transport}, protocol ${era}: every tool path`, { timeout: 120_000 }, () => {
    const exportDir = tempDir('flightserver-interop-export-');
    const s = {
      user: scriptedUser(),
      llm: standInLLM(),
      exportDir: exportDir.dir,
      rootDir: path.join(exportDir.dir, 'root'),
    };
    mkdirSync(s.rootDir);
    const sessions = new Map(); // profile name -> a promise of its session
    const session = (name) => {
      if (!sessions.has(name)) sessions.set(name, open(transport, era, profile(name, s)));
      return sessions.get(name);
    };
    let flightId;
    s.flightId = async () => {
      flightId ??= assertSucceeded(
        await (await session('formless')).call('findBestFlight', { ...TRIP, strategy: 'deterministic' }),
        ['deterministic'],
      ).flights[0].id;
      return flightId;
    };

    after(
      async () => {
        for (const p of sessions.values()) await (await p.catch(() => null))?.close();
        exportDir.remove();
      },
      { timeout: STEP_TIMEOUT_MS },
    );

    const applies = (row) => (row.eras ?? [LEGACY, MODERN]).includes(era);
    const prepare = async (row) => {
      const client = await session(row.profile);
      s.user.script(...(row.script ?? []));
      s.llm.behaviour = row.llm ?? 'answer';
      s.llm.requests = [];
      return { ...s, call: client.call, listTools: client.listTools };
    };

    for (const [name, required] of [
      ['formless', true],
      ['urlOnly', true],
      ['forms', false],
    ]) {
      test(
        `listing: a ${name} client sees origin, destination and date ${required ? 'required' : 'optional'}`,
        { timeout: STEP_TIMEOUT_MS },
        async () => {
          const { tools } = await (await session(name)).listTools();
          const find = tools.find((t) => t.name === 'findBestFlight');
          assert.ok(find, JSON.stringify(tools.map((t) => t.name)));
          const listed = find.inputSchema.required ?? [];
          assert.deepEqual(
            TRIP_FIELDS.filter((f) => listed.includes(f)),
            required ? TRIP_FIELDS : [],
            JSON.stringify(find.inputSchema),
          );
          for (const t of tools) assert.equal(t.outputSchema?.type, 'object', `${t.name} has an output schema`);
          assert.ok(find.outputSchema.properties?.flights, 'the output schema describes flights');
        },
      );
    }

    for (const row of ERROR_ROWS.filter(applies)) {
      test(`error: ${row.name}`, { timeout: STEP_TIMEOUT_MS }, async () => {
        const c = await prepare(row);
        // The call resolves: the client accepted the result as it came.
        const result = await row.call(c);
        const details = assertToolError(result, row.want);
        await row.then?.(details, c);
        await s.user.idle();
      });
    }

    for (const row of SUCCESS_ROWS.filter(applies)) {
      test(`success: ${row.name}`, { timeout: STEP_TIMEOUT_MS }, async () => {
        const c = await prepare(row);
        const result = await row.call(c);
        const reason = result.structuredContent?.attempts?.[0]?.reason ?? '';
        if (/no GET stream/.test(reason)) {
          assert.fail(`the call raced the client's standalone GET stream, so the server skipped asking: ${reason}`);
        }
        const sc = assertSucceeded(result, row.used);
        assert.equal(typeof sc.summary, 'string');
        assert.ok(textOf(result).length > 0, 'text for people');
        await row.then?.(sc, c);
      });
    }
  });
}
