// The test host's page: the chat window of a web host. It embeds the
// sandbox proxy (another origin) in an iframe and relays JSON-RPC messages
// between it and the host's AppBridge, which runs in Node and reaches this
// page through two functions: window.hostReceive (exposed by Playwright:
// page -> Node) and window.hostSend (called by Node: Node -> page).
'use strict';

const params = new URLSearchParams(location.search);
const sandboxURL = new URL(params.get('sandbox'));
const frame = document.createElement('iframe');
frame.id = 'sandbox';
frame.title = 'Flight results';
// The spec asks the sandbox proxy for these; it gives the view less.
frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
frame.src = sandboxURL.href;
document.querySelector('main').append(frame);

window.addEventListener('message', (event) => {
  // Only the sandbox we embedded, from its origin, speaks for the view.
  if (event.source !== frame.contentWindow || event.origin !== sandboxURL.origin) return;
  window.hostReceive(event.data);
});

window.hostSend = (message) => frame.contentWindow.postMessage(message, sandboxURL.origin);

// The view reports its size (ui/notifications/size-changed); the host
// fits the iframe to it, as a chat does for an inline view.
// (The screenshots set holdSize to cut a long view at a height of theirs.)
window.hostResize = ({ height }) => {
  if (Number.isFinite(height) && !window.holdSize) frame.style.height = `${Math.ceil(height) + 2}px`;
};
