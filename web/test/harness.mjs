// A minimal MCP Apps host for tests, built the way a desktop host is: the
// host's logic runs in Node — the official TypeScript client (v2) connected
// to the REAL flightserver binary, and ext-apps' AppBridge speaking to the
// view — and a real browser window (headless Chromium, driven by
// playwright-core) shows the chat page, which embeds a sandbox proxy on
// another origin, which embeds the view in a sandboxed iframe under the
// view's Content-Security-Policy. The page relays the bridge's JSON-RPC
// messages; every tools/call the view makes goes through the client to the
// server.
//
//   view (iframe, srcdoc, opaque origin, CSP)
//     <-postMessage-> sandbox proxy (origin B, CSP header)
//     <-postMessage-> host page (origin A)
//     <-Playwright binding / evaluate-> AppBridge (Node)
//     <-client.callTool-> flightserver (stdio or streamable HTTP)

import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { AppBridge, RESOURCE_MIME_TYPE, getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import { chromium } from 'playwright-core';

import { clientOptionsFor, startHTTPServer, stopProcess } from '../../interop/flightserver.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

export const VIEW_URI = 'ui://flightserver/results';
export const BUILT_VIEW = path.join(here, '..', 'dist', 'results.html');
export const REQUEST_TIMEOUT_MS = 15_000;

const HOST_INFO = { name: 'flightserver-test-host', version: '1.0.0' };
const UI_EXTENSION = { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } };

// ---- where the view's HTML comes from ----

// viewFromFile reads the built page from web/dist, as the server will embed it.
export async function viewFromFile() {
  return { html: readFileSync(BUILT_VIEW, 'utf8'), csp: undefined, permissions: undefined, source: 'file' };
}

// viewFromServer reads the view as a real host does: the URI findBestFlight's
// listing links (`_meta.ui.resourceUri`), through resources/read, checked to
// be an MCP App page.
export async function viewFromServer(client, tool) {
  const uri = getToolUiResourceUri(tool);
  if (!uri) throw new Error(`${tool.name} lists no _meta.ui.resourceUri: the server did not offer the view to a client that declared the extension`);
  const { contents } = await client.readResource({ uri }, { timeout: REQUEST_TIMEOUT_MS });
  if (contents.length !== 1) throw new Error(`resources/read ${uri} returned ${contents.length} contents, want 1`);
  const [c] = contents;
  if (c.mimeType !== RESOURCE_MIME_TYPE) throw new Error(`resources/read ${uri}: mimeType ${c.mimeType}, want ${RESOURCE_MIME_TYPE}`);
  const html = typeof c.text === 'string' ? c.text : Buffer.from(c.blob ?? '', 'base64').toString('utf8');
  return { html, csp: c._meta?.ui?.csp, permissions: c._meta?.ui?.permissions, source: uri };
}

// The view comes from the server, as a host reads it: the ui:// resource
// findBestFlight's listing links, read with resources/read.
export const loadView = viewFromServer;

// ---- the server and the client ----

// openSession starts the real binary (stdio: the transport spawns it; http:
// on a free loopback port) and connects the official client in one era.
// The client declares the MCP Apps extension unless `extension` is false.
export async function openSession({ bin, transport, era, serverArgs = [], extension = true }) {
  let t;
  let server;
  if (transport === 'stdio') {
    t = new StdioClientTransport({ command: bin, args: serverArgs, stderr: 'ignore' });
  } else {
    server = startHTTPServer(bin, serverArgs);
    const addr = await server.addr.catch(async (err) => {
      await stopProcess(server.proc);
      throw err;
    });
    t = new StreamableHTTPClientTransport(new URL(`http://${addr}/mcp`));
  }
  const client = new Client(HOST_INFO, { ...clientOptionsFor(era), capabilities: extension ? { extensions: UI_EXTENSION } : {} });
  const close = async () => {
    await client.close().catch(() => {});
    if (server) await stopProcess(server.proc);
  };
  try {
    await client.connect(t, { timeout: REQUEST_TIMEOUT_MS });
  } catch (err) {
    await close();
    throw err;
  }
  const { tools } = await client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
  return { client, tools, close };
}

// ---- the pages: the host's origin and the sandbox's ----

// cspFor is the policy a host puts on the sandbox, from the resource's
// `_meta.ui.csp` (MCP Apps, "Content Security Policy Enforcement"), or the
// spec's restrictive default when the resource declares none.
export function cspFor(csp) {
  if (!csp) {
    return "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'";
  }
  const list = (v) => (Array.isArray(v) ? v.filter((s) => typeof s === 'string' && /^[\w:./*-]+$/.test(s)).join(' ') : '');
  const res = list(csp.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${res}`,
    `style-src 'self' 'unsafe-inline' ${res}`,
    `connect-src 'self' ${list(csp.connectDomains)}`,
    `img-src 'self' data: ${res}`,
    `font-src 'self' ${res}`,
    `media-src 'self' data: ${res}`,
    `frame-src ${list(csp.frameDomains) || "'none'"}`,
    "object-src 'none'",
    `base-uri ${list(csp.baseUriDomains) || "'self'"}`,
  ].join('; ');
}

function listen(handler) {
  const server = http.createServer(handler);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${server.address().port}` }));
  });
}

// startPages serves the host page and the sandbox proxy from two loopback
// ports: two origins, as the spec asks of a web host. `served` records
// every request, so a test can tell that the view fetched nothing.
export async function startPages() {
  const served = [];
  const file = (name) => readFileSync(path.join(here, 'host', name));
  const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };
  const serve = (names, headers) => (req, res) => {
    const url = new URL(req.url, 'http://x');
    served.push(url.pathname);
    const name = url.pathname.slice(1);
    if (!names.includes(name)) {
      res.writeHead(404).end();
      return;
    }
    let csp;
    if (name === 'sandbox.html') {
      const declared = url.searchParams.get('csp');
      csp = cspFor(declared ? JSON.parse(declared) : undefined);
    }
    res.writeHead(200, { 'content-type': types[path.extname(name)], 'cache-control': 'no-store', ...(csp && { 'content-security-policy': csp }), ...headers });
    res.end(file(name));
  };
  const host = await listen(serve(['host.html', 'host.js']));
  const sandbox = await listen(serve(['sandbox.html', 'sandbox.js']));
  return {
    host: host.origin,
    sandbox: sandbox.origin,
    served,
    close: () => Promise.all([host, sandbox].map(({ server }) => new Promise((r) => server.close(r)))),
  };
}

// ---- the browser ----

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

// launchBrowser starts Debian's Chromium headless; playwright-core brings
// no browser of its own. A fresh profile every launch (Playwright's).
export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    chromiumSandbox: false, // root in CI: Chromium's own sandbox needs a user namespace
    args: ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// PageTransport carries the bridge's JSON-RPC messages to and from the host
// page: in through the page's window.hostReceive, out through hostSend.
class PageTransport {
  constructor(page) {
    this.page = page;
  }

  async start() {
    await this.page.exposeFunction('hostReceive', (message) => this.onmessage?.(message));
  }

  async send(message) {
    await this.page.evaluate((m) => window.hostSend(m), message);
  }

  async close() {
    this.onclose?.();
  }
}

// DEFAULT_CAPABILITIES is what the test host offers a view: calls to the
// server's tools, context updates and messages for the model, logging.
export const DEFAULT_CAPABILITIES = { serverTools: {}, updateModelContext: { text: {} }, message: { text: {} }, logging: {} };

function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// showToolCall does what a host does when the model calls a tool that links
// a view: it calls the tool, renders the view in the page, and passes the
// view the call's arguments and then its result. It resolves once the view
// has the result, with what the host recorded: the view's tool calls
// (with the server's results), its model-context updates and its messages.
// `messageResult` is what the host answers the view's ui/message with
// ({ isError: true }: the host refused it). `alter` rewrites (a copy of)
// the server's result before the view gets it: a result the view cannot
// draw; `alterCall(name, result)` does the same to the answers of the
// view's own tool calls. With `sendResult` false the view gets the call's arguments and
// nothing more; the test sends what it will through the returned `bridge`.
export async function showToolCall({ page, pages, session, view, name, args, hostCapabilities = DEFAULT_CAPABILITIES, hostContext = {}, messageResult = {}, alter, alterCall, sendResult = true }) {
  const { client, tools } = session;
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`the server lists no ${name}`);
  const record = { calls: [], contexts: [], messages: [], logs: [] };

  const bridge = new AppBridge(null, HOST_INFO, hostCapabilities, {
    hostContext: { theme: 'light', locale: 'en-US', timeZone: 'UTC', platform: 'web', displayMode: 'inline', availableDisplayModes: ['inline'], toolInfo: { tool }, ...hostContext },
  });
  bridge.oncalltool = async (params) => {
    // A host passes on only tools of this server that the view may call.
    const target = tools.find((t) => t.name === params.name);
    if (!target) throw new Error(`no tool ${params.name} on this server`);
    const visibility = target._meta?.ui?.visibility;
    if (Array.isArray(visibility) && !visibility.includes('app')) throw new Error(`${params.name} is not callable from a view`);
    const entry = { name: params.name, arguments: params.arguments };
    record.calls.push(entry);
    entry.result = await client.callTool({ name: params.name, arguments: params.arguments }, { timeout: REQUEST_TIMEOUT_MS });
    return alterCall ? alterCall(params.name, structuredClone(entry.result)) : entry.result;
  };
  bridge.onupdatemodelcontext = async (params) => {
    record.contexts.push(params);
    return {};
  };
  bridge.onmessage = async (params) => {
    record.messages.push(params);
    return messageResult;
  };
  bridge.addEventListener('loggingmessage', (params) => record.logs.push(params));
  bridge.addEventListener('sizechange', (size) => {
    page.evaluate((s) => window.hostResize(s), size).catch(() => {}); // the page may be closing
  });
  bridge.addEventListener('sandboxready', () => {
    bridge.sendSandboxResourceReady({ html: view.html, csp: view.csp, permissions: view.permissions }).catch(() => {});
  });
  const initialized = new Promise((resolve) => bridge.addEventListener('initialized', resolve));

  await bridge.connect(new PageTransport(page));
  const called = client.callTool({ name, arguments: args }, { timeout: REQUEST_TIMEOUT_MS });
  const sandbox = new URL('/sandbox.html', pages.sandbox);
  sandbox.searchParams.set('host', pages.host);
  if (view.csp) sandbox.searchParams.set('csp', JSON.stringify(view.csp));
  const hostPage = new URL('/host.html', pages.host);
  hostPage.searchParams.set('sandbox', sandbox.href);
  await page.goto(hostPage.href);

  await within(initialized, REQUEST_TIMEOUT_MS, 'the view did not initialize');
  await bridge.sendToolInput({ arguments: args });
  let result;
  try {
    result = await called;
  } catch (err) {
    await bridge.sendToolCancelled({ reason: err.message });
    throw err;
  }
  const frame = page.frameLocator('#sandbox').frameLocator('#view');
  if (!sendResult) return { result, bridge, record, view: frame };
  await bridge.sendToolResult(alter ? alter(structuredClone(result)) : result);
  return { result, bridge, record, view: frame };
}
