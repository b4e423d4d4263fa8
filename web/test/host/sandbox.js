// The sandbox proxy (MCP Apps, "Sandbox proxy"): a page on its own origin,
// served with the view's Content-Security-Policy as an HTTP header. It tells
// the host it is ready, loads the HTML the host then sends into an inner
// iframe (srcdoc, so the view inherits this page's CSP), and relays every
// other message both ways.
'use strict';

const hostOrigin = new URLSearchParams(location.search).get('host');
const inner = document.createElement('iframe');
inner.id = 'view';
inner.title = 'Flight results';
// No allow-same-origin: the view runs in an opaque origin and reaches
// nothing but this proxy, through postMessage. No allow-forms either: the
// spec's minimum is allow-scripts and allow-same-origin, so a host may block
// form submission, and the view must work without it.
inner.setAttribute('sandbox', 'allow-scripts');
document.body.append(inner);

window.addEventListener('message', (event) => {
  if (event.source === window.parent) {
    if (event.origin !== hostOrigin) return;
    const message = event.data;
    if (message?.method === 'ui/notifications/sandbox-resource-ready') {
      inner.srcdoc = message.params.html;
      return;
    }
    inner.contentWindow.postMessage(message, '*');
  } else if (event.source === inner.contentWindow) {
    window.parent.postMessage(event.data, hostOrigin);
  }
});

window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, hostOrigin);
