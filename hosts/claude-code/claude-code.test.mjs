// Claude Code as a real host of flightserver: the CLI from npm, in -p mode,
// over stdio and over streamable HTTP, in both protocol eras (2026-07-28 by
// default; MCP_PROTOCOL_NEGOTIATION=legacy for 2025-11-25), its model
// replaced by a scripted stand-in (model.mjs) so it runs offline. Each test
// asserts on what the server received and returned (wire.mjs records every
// JSON-RPC message), on what the stand-in model was shown, on what Claude
// Code passed its Elicitation hook, and on the file the server wrote.
//
//   FLIGHTSERVER_BIN=/path/to/flightserver npm test     (in hosts/claude-code, after npm ci)
//
// What Claude Code does that these tests pin (docs/HOSTS.md#claude-code): it shows
// the model structuredContent as JSON and drops the text; in -p mode it
// answers every form with cancel unless an Elicitation hook answers; it
// declares roots (its working directory) and form elicitation, no sampling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, realpathSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { startModel, tool, text } from './model.mjs';
import { readRecord, recordHTTP } from './wire.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = process.env.FLIGHTSERVER_BIN;
const claude = path.join(here, 'node_modules', '.bin', 'claude');
const TOOLS = ['findBestFlight', 'bookFlight', 'saveItinerary'].map((t) => `mcp__flights__${t}`);

function travelDate(days = 30) {
  return new Date(Date.now() + days * 86400e3).toISOString().slice(0, 10);
}

// startHTTPServer runs flightserver over HTTP on a free loopback port. Claude
// Code runs on the same machine, so its roots are directories the server may
// write to: --shared-filesystem.
function startHTTPServer(logFile) {
  const child = spawn(bin, ['--transport', 'http', '--addr', '127.0.0.1:0', '--shared-filesystem'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stderr });
    lines.on('line', (line) => {
      log += line + '\n';
      writeFileSync(logFile, log);
      const l = JSON.parse(line);
      if (l.message === 'listening') resolve({ url: `http://${l.addr}`, stop: () => (child.kill('SIGTERM'), new Promise((r) => child.on('exit', r))) });
    });
    child.on('exit', (code) => reject(new Error(`flightserver exited ${code} before listening:\n${log}`)));
  });
}

// host runs one Claude Code conversation against the server and returns
// everything it left behind.
// Its temporary directory (Claude Code's home and working directory, the
// records) is removed when the test t ends.
async function host(t, { transport, era, prompt, turns, hookAnswer }) {
  assert.ok(bin, 'set FLIGHTSERVER_BIN to the built server');
  const work = mkdtempSync(path.join(tmpdir(), `claude-code-${transport}-${era}-`));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const home = path.join(work, 'home');
  const project = path.join(work, 'project');
  mkdirSync(home);
  mkdirSync(project);
  const serverLog = path.join(work, 'server.log');
  const hookRecord = path.join(work, 'hook.jsonl');
  const model = await startModel(turns);

  let wire, stop;
  let server;
  if (transport === 'stdio') {
    const record = path.join(work, 'wire.jsonl');
    server = { type: 'stdio', command: process.execPath, args: [path.join(here, 'wire.mjs'), record, serverLog, '--', bin] };
    wire = () => readRecord(record);
    stop = async () => {};
  } else {
    const s = await startHTTPServer(serverLog);
    const proxy = await recordHTTP(s.url);
    server = { type: 'http', url: proxy.url };
    wire = () => proxy.messages;
    stop = async () => {
      await proxy.close();
      await s.stop();
    };
  }
  const mcpConfig = path.join(work, 'mcp.json');
  writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { flights: server } }));
  const args = ['-p', prompt, '--mcp-config', mcpConfig, '--strict-mcp-config', '--output-format', 'stream-json', '--verbose', '--allowedTools', TOOLS.join(',')];
  if (hookAnswer) {
    const settings = path.join(work, 'settings.json');
    writeFileSync(settings, JSON.stringify({ hooks: { Elicitation: [{ hooks: [{ type: 'command', command: `"${process.execPath}" "${path.join(here, 'hook.mjs')}"` }] }] } }));
    args.push('--settings', settings);
  }
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'stand-in-model-needs-no-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    FLIGHTS_HOOK_RECORD: hookRecord,
    FLIGHTS_HOOK_ANSWER: JSON.stringify(hookAnswer ?? {}),
  };
  if (era === 'legacy') env.MCP_PROTOCOL_NEGOTIATION = 'legacy';
  const child = spawn(claude, args, { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const events = [];
  let stderr = '';
  child.stderr.on('data', (b) => (stderr += b));
  createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      events.push(JSON.parse(line));
    } catch {
      events.push({ unparsed: line });
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
  const code = await new Promise((resolve) => child.on('exit', (c, sig) => resolve(c ?? sig)));
  clearTimeout(timer);
  // Claude Code ends a stdio server with SIGINT as it exits; give the
  // recorder a moment to write the server's last lines.
  for (let i = 0; i < 50 && transport === 'stdio' && !wire().some((m) => m.dir === 'exit'); i++) await new Promise((r) => setTimeout(r, 100));
  await stop();
  await model.close();
  const hookEvents = existsSync(hookRecord) ? readFileSync(hookRecord, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
  const result = {
    code,
    events,
    stderr,
    work,
    project: realpathSync(project),
    model,
    wire: wire(),
    serverLog: existsSync(serverLog) ? readFileSync(serverLog, 'utf8') : '',
    hookEvents,
  };
  result.explain = () =>
    `claude exited ${code}; the stand-in served ${model.turnsServed()} of ${turns.length} turns\n` +
    `last events: ${JSON.stringify(events.slice(-2)).slice(0, 1500)}\nclaude stderr: ${stderr.slice(-1500)}\nserver log (tail): ${result.serverLog.slice(-1500)}`;
  return result;
}

// calls pairs each tools/call the server received with its answer:
// { name, arguments, inputResponses, result }.
function calls(wire) {
  const answers = new Map();
  for (const m of wire) if (m.dir === 'server' && m.msg.id !== undefined && !m.msg.method) answers.set(m.msg.id, m.msg);
  return wire
    .filter((m) => m.dir === 'host' && m.msg.method === 'tools/call')
    .map((m) => ({
      name: m.msg.params.name,
      arguments: m.msg.params.arguments,
      inputResponses: m.msg.params.inputResponses,
      meta: m.msg.params._meta,
      result: answers.get(m.msg.id)?.result,
    }));
}

// finals are the tool calls that ended (not input_required rounds).
function finals(wire) {
  return calls(wire).filter((c) => c.result && c.result.resultType !== 'input_required');
}

// checkEra asserts the era the host and server spoke, and what the host
// declared in it.
function checkEra(r, era) {
  const hostMsgs = r.wire.filter((m) => m.dir === 'host').map((m) => m.msg);
  if (era === 'legacy') {
    const init = hostMsgs.find((m) => m.method === 'initialize');
    assert.ok(init, 'a 2025-11-25 host initializes');
    assert.equal(init.params.protocolVersion, '2025-11-25');
    assert.ok(init.params.capabilities.roots && init.params.capabilities.elicitation, `declared ${JSON.stringify(init.params.capabilities)}`);
    assert.equal(init.params.capabilities.sampling, undefined, 'Claude Code declares no sampling');
  } else {
    assert.ok(hostMsgs.some((m) => m.method === 'server/discover'), 'a 2026-07-28 host discovers');
    assert.ok(!hostMsgs.some((m) => m.method === 'initialize'), 'and does not initialize');
    for (const c of calls(r.wire)) {
      assert.equal(c.meta['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
      const caps = c.meta['io.modelcontextprotocol/clientCapabilities'];
      assert.ok(caps.roots && caps.elicitation && !caps.sampling, `declared ${JSON.stringify(caps)}`);
    }
  }
}

// shown is what the model was shown of each tool call, from the last request
// the stand-in received.
function shown(r) {
  const last = r.model.requests.filter((q) => q.tools?.length).at(-1);
  const out = [];
  const uses = new Map();
  for (const m of last.messages) {
    if (!Array.isArray(m.content)) continue;
    for (const c of m.content) {
      if (c.type === 'tool_use') uses.set(c.id, c.name);
      if (c.type === 'tool_result') {
        const t = typeof c.content === 'string' ? c.content : c.content.filter((x) => x.type === 'text').map((x) => x.text).join('\n');
        let json;
        try {
          json = JSON.parse(t);
        } catch {}
        out.push({ name: uses.get(c.tool_use_id), isError: c.is_error === true, text: t, json });
      }
    }
  }
  return out;
}

for (const transport of ['stdio', 'http']) {
  for (const era of ['modern', 'legacy']) {
    // A search that leaves out the date; Claude Code asks its Elicitation
    // hook (the person), which fills the form the server sent, in the order
    // the server sent its fields.
    test(`${transport}/${era}: a search whose missing date the user gives in the form`, async (t) => {
      const date = travelDate(40);
      const r = await host(t, {
        transport,
        era,
        prompt: 'Find me a flight from New York to London.',
        hookAnswer: { date },
        turns: [() => [tool('findBestFlight', { origin: 'New York', destination: 'London' })], ({ results }) => [text(`ranked by ${results[0].json.method}`)]],
      });
      assert.equal(r.code, 0, r.explain());
      assert.equal(r.model.turnsServed(), 2, r.explain());
      checkEra(r, era);

      // The hook was shown the server's form, fields in filling order.
      assert.equal(r.hookEvents.length, 1, r.explain());
      const form = r.hookEvents[0];
      assert.equal(form.mcp_server_name, 'flights');
      assert.equal(form.mode, 'form');
      assert.deepEqual(Object.keys(form.requested_schema.properties), ['origin', 'destination', 'date', 'passengers', 'cabin']);
      assert.deepEqual(form.requested_schema.required, ['date']);
      assert.equal(form.requested_schema.properties.origin.default, 'New York');
      assert.match(form.message, /departure date/);

      // The server received the answer, in the era's way.
      const all = calls(r.wire);
      if (era === 'modern') {
        assert.equal(all[0].result.resultType, 'input_required');
        assert.equal(all[0].result.inputRequests.trip.method, 'elicitation/create');
        const answer = all[1].inputResponses.trip.result ?? all[1].inputResponses.trip;
        assert.equal(answer.action, 'accept');
        assert.deepEqual(answer.content, { date });
        assert.equal(all[1].meta['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
      } else {
        const ask = r.wire.find((m) => m.dir === 'server' && m.msg.method === 'elicitation/create');
        const answer = r.wire.find((m) => m.dir === 'host' && m.msg.id === ask.msg.id && m.msg.result);
        assert.deepEqual(answer.msg.result.content, { date });
        assert.equal(answer.msg.result.action, 'accept');
      }
      const [done] = finals(r.wire);
      const found = done.result.structuredContent;
      assert.equal(found.trip.date, date);
      assert.ok(found.trip.originAirports.includes('JFK') && found.trip.destinationAirports.includes('LHR'), JSON.stringify(found.trip));
      assert.deepEqual(found.attempts[0], { ...found.attempts[0], step: 'trip_details', outcome: 'used' });
      assert.equal(found.method, 'deterministic');
      assert.equal(found.flights.length, 3);

      // The model was shown exactly the structured result, as JSON.
      const [seen] = shown(r);
      assert.equal(seen.isError, false);
      assert.deepEqual(seen.json, found);
      assert.equal(r.events.at(-1).type, 'result');
      assert.equal(r.events.at(-1).subtype, 'success');
    });

    // In -p mode with no hook, Claude Code cancels every form without
    // showing anyone. The search's form is cancelled, so the model asks in
    // the conversation (the prompt has the date) and calls again; the
    // booking's confirmation form is cancelled, so the model calls again
    // with the approval the prompt gave (confirm: true, passengerName),
    // which books; the save lands in Claude Code's root, its working
    // directory, with the booking in the file.
    test(`${transport}/${era}: cancelled forms, the conversation's answers, a booking and a save into the host's root`, async (t) => {
      const date = travelDate(45);
      const expectError = (res, words) => {
        if (!res?.isError || !words.test(res.text)) throw new Error(`expected an error matching ${words}, got ${JSON.stringify(res)}`);
      };
      const r = await host(t, {
        transport,
        era,
        prompt: `Fly me from JFK to London Heathrow on ${date} and hold the best flight for Ada Lovelace, window seat: yes, I confirm the booking. Then save the itinerary here as markdown.`,
        turns: [
          () => [tool('findBestFlight', { origin: 'JFK', destination: 'LHR' })],
          ({ results }) => (expectError(results[0], /dismissed the form/), [tool('findBestFlight', { origin: 'JFK', destination: 'LHR', date })]),
          ({ results }) => [tool('bookFlight', { flightId: results[1].json.flights[0].id })],
          ({ results }) => (
            expectError(results[2], /Not booked: the user dismissed the form without answering/),
            [tool('bookFlight', { flightId: results[1].json.flights[0].id, confirm: true, passengerName: 'Ada Lovelace', seat: 'window' })]
          ),
          ({ results }) => [tool('saveItinerary', { bookingRef: results[3].json.reference, format: 'markdown' })],
          ({ results }) => [text(`saved ${results[4].json.path}`)],
        ],
      });
      assert.equal(r.code, 0, r.explain());
      assert.equal(r.model.turnsServed(), 6, r.explain());
      checkEra(r, era);
      assert.equal(r.hookEvents.length, 0);

      const done = finals(r.wire);
      assert.deepEqual(done.map((c) => c.name), ['findBestFlight', 'findBestFlight', 'bookFlight', 'bookFlight', 'saveItinerary']);
      // Every form went out and came back cancelled: the search's, the
      // first booking's, and the second booking's too (the server shows its
      // form whenever it can; only its cancellation lets the arguments
      // decide).
      const cancelled = era === 'modern'
        ? calls(r.wire).filter((c) => c.inputResponses).map((c) => Object.values(c.inputResponses)[0])
        : r.wire.filter((m) => m.dir === 'host' && m.msg.result?.action).map((m) => m.msg.result);
      assert.equal(cancelled.filter((a) => (a.result ?? a).action === 'cancel').length, 3, JSON.stringify(cancelled));

      const details = (c) => c.result._meta['io.github.flightserver/error'];
      assert.equal(done[0].result.isError, true);
      assert.equal(details(done[0]).why, 'user_cancelled');
      assert.deepEqual(details(done[0]).fields.map((f) => f.field), ['date']);
      assert.equal(done[2].result.isError, true);
      assert.equal(details(done[2]).error, 'not_booked');
      assert.equal(details(done[2]).why, 'user_cancelled');

      const booked = done[3].result.structuredContent;
      assert.equal(done[3].result.isError, undefined);
      assert.equal(booked.passengerName, 'Ada Lovelace');
      assert.equal(booked.seat, 'window');
      const step = (as, s) => as.find((a) => a.step === s);
      assert.equal(step(booked.attempts, 'confirm_form').outcome, 'failed');
      assert.equal(step(booked.attempts, 'confirm_form').why, 'user_cancelled');
      assert.equal(step(booked.attempts, 'confirm_arguments').outcome, 'used');
      assert.match(step(booked.attempts, 'confirm_arguments').reason, /form was cancelled.*confirm: true/);

      // The server asked for the roots and got Claude Code's working
      // directory; the file is there, and holds the booking.
      const rootsAnswer = era === 'modern'
        ? calls(r.wire).map((c) => c.inputResponses?.roots).find(Boolean)
        : r.wire.find((m) => m.dir === 'host' && m.msg.result?.roots)?.msg;
      const roots = (rootsAnswer?.result ?? rootsAnswer)?.roots ?? [];
      assert.ok(roots.some((x) => x.uri === `file://${r.project}`), `roots ${JSON.stringify(roots)}`);
      const saved = done[4].result.structuredContent;
      assert.equal(step(saved.attempts, 'client_roots').outcome, 'used');
      assert.equal(path.dirname(saved.path), r.project);
      const file = readFileSync(saved.path, 'utf8');
      assert.match(file, /- Passenger: Ada Lovelace\n- Seat preference: window\n/);
      assert.ok(file.includes(booked.reference));

      // What the model was shown: the error texts (no structuredContent on
      // an error), then each result's structuredContent as JSON.
      const seen = shown(r);
      assert.equal(seen.length, 6 - 1);
      assert.equal(seen[0].isError, true);
      assert.match(seen[0].text, /findBestFlight did not search: it needs the departure date/);
      assert.deepEqual(seen[1].json, done[1].result.structuredContent);
      assert.match(seen[2].text, /call bookFlight again with confirm: true and passengerName/);
      assert.deepEqual(seen[3].json, booked);
      assert.deepEqual(seen[4].json, saved);
      assert.equal(r.events.at(-1).subtype, 'success');
    });
  }
}
