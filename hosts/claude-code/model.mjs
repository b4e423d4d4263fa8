// A scripted stand-in for the Anthropic Messages API, in place of Claude
// Code's model (ANTHROPIC_BASE_URL). Claude Code calls only
// POST /v1/messages?beta=true, always streaming (server-sent events), plus a
// HEAD /api/hello to see that the address answers.
//
// A conversation is a list of turns. Each request of the main loop (one that
// offers tools) is answered by the next turn, a function of what the model is
// shown so far: it gets the request and the contents of the tool results in
// it, in order, and returns the blocks to answer with, text or tool calls.
// Claude Code's side requests (no tools: a title, a summary) get a short text.
// Every request is recorded, so a test can assert what the model was shown.
import http from 'node:http';

// startModel serves the turns on a free loopback port; it resolves to
// { url, requests, close }.
export function startModel(turns) {
  const requests = [];
  let served = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method === 'HEAD' || !req.url.startsWith('/v1/messages')) {
        res.writeHead(req.method === 'HEAD' ? 200 : 404, { 'content-type': 'application/json' });
        res.end(req.method === 'HEAD' ? undefined : '{"type":"error","error":{"type":"not_found_error","message":"stand-in: only /v1/messages"}}');
        return;
      }
      const request = JSON.parse(body);
      requests.push(request);
      if (!request.tools?.length) {
        stream(res, [{ type: 'text', text: 'A trip' }], 'end_turn');
        return;
      }
      const turn = turns[served++];
      if (!turn) {
        stream(res, [{ type: 'text', text: `stand-in: the script has ${turns.length} turns and Claude Code asked for another` }], 'end_turn');
        return;
      }
      let blocks;
      try {
        blocks = turn({ request, results: toolResults(request) });
      } catch (err) {
        blocks = [{ type: 'text', text: `stand-in: turn ${served} failed: ${err.stack}` }];
      }
      stream(res, blocks, blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        requests,
        turnsServed: () => served,
        close: () => new Promise((r) => server.close(r)),
      });
    });
  });
}

// toolResults is what the model was shown of each tool call so far, in
// order: { name, input, isError, text, json } (json: the text parsed, when it
// is JSON, as Claude Code sends structuredContent).
export function toolResults(request) {
  const calls = new Map();
  const out = [];
  for (const m of request.messages ?? []) {
    if (!Array.isArray(m.content)) continue;
    for (const c of m.content) {
      if (c.type === 'tool_use') calls.set(c.id, c);
      if (c.type === 'tool_result') {
        const text = typeof c.content === 'string' ? c.content : (c.content ?? []).filter((x) => x.type === 'text').map((x) => x.text).join('\n');
        let json;
        try {
          json = JSON.parse(text);
        } catch {}
        const call = calls.get(c.tool_use_id);
        out.push({ name: call?.name, input: call?.input, isError: c.is_error === true, text, json });
      }
    }
  }
  return out;
}

// tool is a tool_use block calling an MCP tool of the server named flights.
let nextID = 0;
export function tool(name, input) {
  return { type: 'tool_use', id: `toolu_standin_${++nextID}`, name: `mcp__flights__${name}`, input };
}

export function text(t) {
  return { type: 'text', text: t };
}

function stream(res, blocks, stopReason) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (event, data) => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  send('message_start', {
    message: { id: `msg_standin_${++nextID}`, type: 'message', role: 'assistant', model: 'stand-in', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } },
  });
  blocks.forEach((b, index) => {
    if (b.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index, delta: { type: 'text_delta', text: b.text } });
    } else {
      send('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
    }
    send('content_block_stop', { index });
  });
  send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 1 } });
  send('message_stop', {});
  res.end();
}
