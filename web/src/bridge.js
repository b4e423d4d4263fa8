// The view's side of MCP Apps (io.modelcontextprotocol/ui, spec 2026-01-26):
// JSON-RPC 2.0 over postMessage with the host window that embeds the view.
// Only what this page uses: the ui/initialize handshake, the host's
// notifications (tool input and result, cancellation, context changes),
// its ping and teardown requests, and the view's requests (tools/call,
// ui/update-model-context, ui/message) with a timeout each, plus the size
// notifications a host fits the frame by.
//
// It stands in for ext-apps' App, which brings the whole MCP SDK and zod
// (most of the page: docs/BENCHMARKS.md#the-results-view) to check every
// message against the full schema; here each message is read defensively
// where it is used. The
// browser test runs this against ext-apps' own AppBridge, so the two speak
// the same protocol (see web/README.md).

export const PROTOCOL_VERSION = '2026-01-26';

// HostError is an error the host answered a request with.
export class HostError extends Error {
  constructor(error) {
    super(typeof error?.message === 'string' ? error.message : 'the host answered with an error');
    this.code = error?.code;
  }
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// The notifications the view listens for, by method, and the event each
// becomes. A Map: the method is the host's, and a method named like a
// property every object inherits (constructor, toString, __proto__) must
// find nothing.
const EVENTS = new Map([
  ['ui/notifications/tool-input', 'toolinput'],
  ['ui/notifications/tool-result', 'toolresult'],
  ['ui/notifications/tool-cancelled', 'toolcancelled'],
  ['ui/notifications/host-context-changed', 'hostcontextchanged'],
]);

export class HostBridge {
  // appInfo is { name, version }; host is the window to talk to.
  constructor(appInfo, host = window.parent) {
    this.appInfo = appInfo;
    this.host = host;
    this.nextId = 1;
    this.pending = new Map(); // id -> { resolve, reject, timer }
    this.listeners = new Map(); // event -> [fn]
    this.hostCapabilities = undefined;
    this.hostContext = {};
    this.onteardown = undefined;
    this.onMessage = (e) => this.receive(e);
  }

  // on adds a listener for toolinput, toolresult, toolcancelled or
  // hostcontextchanged; it is called with the notification's params.
  on(event, fn) {
    if (!this.listeners.has(event)) this.listeners.set(event, []);
    this.listeners.get(event).push(fn);
  }

  emit(event, params) {
    for (const fn of this.listeners.get(event) ?? []) fn(params);
  }

  // connect does the handshake: ui/initialize, then the initialized
  // notification, then size reports as the page changes.
  async connect({ timeout = 10_000 } = {}) {
    window.addEventListener('message', this.onMessage);
    const init = await this.request('ui/initialize', { appInfo: this.appInfo, appCapabilities: {}, protocolVersion: PROTOCOL_VERSION }, { timeout });
    if (!isObject(init)) throw new Error('the host answered ui/initialize without a result');
    this.hostCapabilities = isObject(init.hostCapabilities) ? init.hostCapabilities : {};
    this.hostContext = isObject(init.hostContext) ? init.hostContext : {};
    this.notify('ui/notifications/initialized', {});
    this.reportSize();
    return init;
  }

  send(message) {
    this.host.postMessage({ jsonrpc: '2.0', ...message }, '*');
  }

  notify(method, params) {
    this.send({ method, params });
  }

  // request sends a request and resolves with its result; it rejects with a
  // HostError when the host answers with an error, and after `timeout` ms
  // without an answer (telling the host it gave up, as JSON-RPC peers do).
  request(method, params, { timeout = 60_000 } = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.notify('notifications/cancelled', { requestId: id, reason: `no answer within ${timeout} ms` });
        reject(new Error(`${method}: no answer from the host within ${Math.round(timeout / 1000)} s`));
      }, timeout);
      this.pending.set(id, { resolve, reject, timer });
      this.send({ id, method, params });
    });
  }

  receive(event) {
    if (event.source !== this.host) return; // only the host speaks for the host
    const m = event.data;
    if (!isObject(m) || m.jsonrpc !== '2.0') return;
    if ('id' in m && !('method' in m)) {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      clearTimeout(p.timer);
      if ('error' in m) p.reject(new HostError(m.error));
      else p.resolve(m.result);
      return;
    }
    if (typeof m.method !== 'string') return;
    const params = isObject(m.params) ? m.params : {};
    if ('id' in m) {
      this.answer(m.id, m.method, params);
      return;
    }
    if (m.method === 'ui/notifications/host-context-changed') this.hostContext = { ...this.hostContext, ...params };
    const name = EVENTS.get(m.method);
    if (name) this.emit(name, params);
  }

  // answer replies to the host's own requests: ping and teardown; any
  // other method is not one this view offers.
  async answer(id, method, params) {
    if (method === 'ping') return this.send({ id, result: {} });
    if (method === 'ui/resource-teardown') {
      await this.onteardown?.(params);
      return this.send({ id, result: {} });
    }
    this.send({ id, error: { code: -32601, message: `the view does not handle ${method}` } });
  }

  callServerTool(params, options) {
    return this.request('tools/call', params, options);
  }

  updateModelContext(params, options) {
    return this.request('ui/update-model-context', params, options);
  }

  sendMessage(params, options) {
    return this.request('ui/message', params, options);
  }

  // reportSize tells the host the page's size whenever it changes, so the
  // host fits the frame to it (ui/notifications/size-changed).
  reportSize() {
    let queued = false;
    let last = '';
    const measure = () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        const el = document.documentElement;
        const height = el.style.height;
        el.style.height = 'max-content';
        const size = { width: Math.ceil(window.innerWidth), height: Math.ceil(el.getBoundingClientRect().height) };
        el.style.height = height;
        if (`${size.width}x${size.height}` === last) return;
        last = `${size.width}x${size.height}`;
        this.notify('ui/notifications/size-changed', size);
      });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.documentElement);
    observer.observe(document.body);
  }
}

// The host's theme and styles (hostContext.theme, .styles), as MCP Apps
// defines them: a theme sets data-theme and the colour scheme on the root;
// style variables are CSS custom properties; fonts are CSS (@font-face or
// @import rules), added once.
export function applyTheme(theme) {
  document.documentElement.setAttribute('data-theme', theme);
  document.documentElement.style.colorScheme = theme;
}

export function applyStyleVariables(vars) {
  for (const [k, v] of Object.entries(vars)) {
    if (typeof v === 'string' && k.startsWith('--')) document.documentElement.style.setProperty(k, v);
  }
}

export function applyFonts(css) {
  if (typeof css !== 'string' || document.getElementById('host-fonts')) return;
  const style = document.createElement('style');
  style.id = 'host-fonts';
  style.textContent = css;
  document.head.append(style);
}
