// What passed between Claude Code and the server, message by message, so a
// test can assert what the server received and what it answered.
//
// stdio: Claude Code starts this file as the server's command
//   node wire.mjs RECORD.jsonl SERVER-LOG -- flightserver [flags]
// and it starts the server, passing every line through unchanged and
// recording each JSON-RPC message ({"dir":"host"|"server","msg":…}), the
// server's stderr (its JSON log) to SERVER-LOG, and signals through (Claude
// Code ends a stdio server with SIGINT).
//
// HTTP: recordHTTP(target) is a proxy in front of the server's /mcp that
// records the same, reading event streams as they arrive.
import { spawn } from 'node:child_process';
import { appendFileSync, createWriteStream, readFileSync, existsSync } from 'node:fs';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

// readRecord reads a stdio record: the messages, in order.
export function readRecord(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

// recordHTTP proxies to target (the server's base URL) and resolves to
// { url, messages, close }: messages as the stdio record has them, each
// also with the HTTP method and the mcp-method header of its request.
export function recordHTTP(target) {
  const messages = [];
  const add = (dir, msg, extra) => messages.push({ dir, msg, ...extra });
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const meta = { http: req.method, mcpMethod: req.headers['mcp-method'], protocolVersion: req.headers['mcp-protocol-version'] };
      if (body) {
        try {
          add('host', JSON.parse(body), meta);
        } catch {
          add('host', { unparsed: body }, meta);
        }
      }
      const headers = { ...req.headers };
      delete headers.host;
      const upstream = http.request(new URL(req.url, target), { method: req.method, headers }, (up) => {
        res.writeHead(up.statusCode, up.headers);
        const sse = (up.headers['content-type'] ?? '').startsWith('text/event-stream');
        let buffered = '';
        up.on('data', (chunk) => {
          res.write(chunk);
          buffered += chunk;
          if (!sse) return;
          let cut;
          while ((cut = buffered.indexOf('\n\n')) >= 0) {
            const event = buffered.slice(0, cut);
            buffered = buffered.slice(cut + 2);
            for (const line of event.split('\n')) {
              if (line.startsWith('data:')) add('server', JSON.parse(line.slice(5)), { ...meta, status: up.statusCode });
            }
          }
        });
        up.on('end', () => {
          if (!sse && buffered.trim()) {
            try {
              add('server', JSON.parse(buffered), { ...meta, status: up.statusCode });
            } catch {
              add('server', { unparsed: buffered }, { ...meta, status: up.statusCode });
            }
          }
          res.end();
        });
      });
      upstream.on('error', (err) => {
        res.writeHead(502);
        res.end(String(err));
      });
      upstream.end(body);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/mcp`,
        messages,
        close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))),
      }),
    );
  });
}

// As a command: the stdio recorder.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [record, serverLog, dashes, cmd, ...args] = process.argv.slice(2);
  if (dashes !== '--' || !cmd) {
    process.stderr.write('usage: node wire.mjs RECORD.jsonl SERVER-LOG -- COMMAND [ARGS...]\n');
    process.exit(2);
  }
  const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const log = createWriteStream(serverLog, { flags: 'a' });
  child.stderr.pipe(log);
  const note = (dir, line) => {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      msg = { unparsed: line };
    }
    appendFileSync(record, JSON.stringify({ dir, msg }) + '\n');
  };
  createInterface({ input: process.stdin }).on('line', (line) => {
    note('host', line);
    child.stdin.write(line + '\n');
  }).on('close', () => child.stdin.end());
  createInterface({ input: child.stdout }).on('line', (line) => {
    note('server', line);
    process.stdout.write(line + '\n');
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => {
    appendFileSync(record, JSON.stringify({ dir: 'exit', msg: { code, signal } }) + '\n');
    log.end(() => process.exit(code ?? 0));
  });
}
