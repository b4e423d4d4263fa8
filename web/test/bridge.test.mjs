// The bridge's reading of the host's messages (src/bridge.js), without a
// browser: a HostBridge over a stand-in for the host window.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { HostBridge } from '../src/bridge.js';

// bridgeOver returns a bridge whose host is a stand-in window, what it
// sent, and a `receive` that delivers a message as coming from that host.
function bridgeOver() {
  const sent = [];
  const host = { postMessage: (m) => sent.push(m) };
  const bridge = new HostBridge({ name: 'test', version: '0' }, host);
  const emitted = [];
  for (const event of ['toolinput', 'toolresult', 'toolcancelled', 'hostcontextchanged']) bridge.on(event, (params) => emitted.push([event, params]));
  const emit = bridge.emit.bind(bridge);
  bridge.emit = (event, params) => {
    emitted.push(['emit', event]);
    emit(event, params);
  };
  return { bridge, sent, emitted, receive: (data) => bridge.receive({ source: host, data }) };
}

// The method is the host's: one named like a property every object
// inherits must not find it in the table of notifications.
const INHERITED = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'];

test('a notification named like an inherited property becomes no event', () => {
  const { emitted, receive } = bridgeOver();
  for (const method of INHERITED) receive({ jsonrpc: '2.0', method, params: { arguments: { origin: 'JFK' } } });
  assert.deepEqual(emitted, []);
  // The same path does deliver the notifications it knows.
  receive({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: { origin: 'JFK' } } });
  assert.deepEqual(emitted, [['emit', 'toolinput'], ['toolinput', { arguments: { origin: 'JFK' } }]]);
});

test('a request named like an inherited property is answered: method not found', async () => {
  const { sent, receive } = bridgeOver();
  INHERITED.forEach((method, i) => receive({ jsonrpc: '2.0', id: i + 1, method, params: {} }));
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(
    sent.map((m) => [m.id, m.error?.code]),
    INHERITED.map((_, i) => [i + 1, -32601]),
  );
});

test('listeners are kept by event name, whatever the name', () => {
  const { bridge } = bridgeOver();
  const got = [];
  bridge.on('constructor', (p) => got.push(p));
  bridge.emit('constructor', 1);
  bridge.emit('toString', 2);
  bridge.emit('__proto__', 3);
  assert.deepEqual(got, [1]);
});
