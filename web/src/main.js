// The findBestFlight results view (ui://flightserver/results): an MCP App
// (io.modelcontextprotocol/ui). The host renders it in a sandboxed iframe
// and talks to it through ext-apps' App over postMessage:
//
//   host -> view  ui/notifications/tool-input    the call's arguments (a "searching" line)
//                 ui/notifications/tool-result   the result: structuredContent is rendered
//                 ui/notifications/host-context-changed   theme, styles, locale
//   view -> host  tools/call bookFlight, saveItinerary     proxied to the server
//                 ui/update-model-context (or ui/message)  what the user chose
//
// Every step that needs something of the host checks that the host offers
// it, and says plainly what to do instead when it does not.

import { App, PostMessageTransport, applyDocumentTheme, applyHostFonts, applyHostStyleVariables } from '@modelcontextprotocol/ext-apps';

import { checkPassengerName, modelContext, readResult, textOf } from './format.js';
import { bookedView, calendarView, chooseButton, confirmView, flightCard, h, ladderView, picksHeading, tripView } from './render.js';

// How long a tool call through the host may take before the view gives up
// on it; the server's own budget for one call is 45 s by default.
const CALL_TIMEOUT_MS = 60_000;

const root = document.getElementById('app');
const status = document.getElementById('status');

const state = {
  locale: undefined, // the host's, once known; the browser's until then
  result: null, // readResult()'s result
  selected: null, // the flight the user chose
  phase: 'idle', // idle | confirm | booking | booked | saving
  passengerName: '',
  seat: 'no_preference',
  nameProblem: '',
  error: '', // what the last call's failure said, shown as is
  booking: null, // bookFlight's structuredContent
  saved: null, // saveItinerary's structuredContent
  told: '', // how the model was told, in words
};

function say(text) {
  status.textContent = text;
}

// show replaces the page's content with `nodes`.
function show(...nodes) {
  root.replaceChildren(...nodes.flat().filter(Boolean));
  root.removeAttribute('aria-busy');
}

// notice is a page that states one thing: waiting, an error, a cancel.
function notice(title, text, kind = 'info') {
  show(h('section', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : undefined }, h('h1', { text: title }), text && h('p', { class: 'pre', text })));
}

const app = new App({ name: 'flightserver-results', version: __VIEW_VERSION__ }, {}, { autoResize: true });

// ---- host context: theme, styles, fonts, locale ----

function applyHostContext() {
  const ctx = app.getHostContext() ?? {};
  if (ctx.theme === 'light' || ctx.theme === 'dark') applyDocumentTheme(ctx.theme);
  if (ctx.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
  if (ctx.styles?.css?.fonts) applyHostFonts(ctx.styles.css.fonts);
  if (typeof ctx.locale === 'string' && ctx.locale) {
    state.locale = ctx.locale;
    document.documentElement.lang = ctx.locale;
  }
}

// ---- results ----

function renderResult() {
  const r = state.result;
  const list = h(
    'ol',
    { class: r.ranked ? 'flights ranked' : 'flights unranked', 'aria-labelledby': 'picks-h' },
    r.flights.map((f) => flightCard(f, r, state.locale, select)),
  );
  show(
    tripView(r, state.locale),
    calendarView(r, state.locale),
    h(
      'section',
      { class: 'picks', 'aria-labelledby': 'picks-h' },
      picksHeading(r),
      r.flights.length ? list : h('p', { class: 'notice', text: r.summary || 'No flight matched the trip.' }),
      r.unreadable > 0 && h('p', { class: 'hint', text: `${r.unreadable} more entries had no flight id and are not shown.` }),
    ),
    ladderView(r),
  );
}

function onToolResult(result) {
  if (result.isError) {
    notice('The flight search failed', textOf(result) || 'The server reported an error without saying more.', 'error');
    say('The flight search failed.');
    return;
  }
  const { result: r, problem } = readResult(result.structuredContent);
  if (problem) {
    // The text content is complete for every host; show it rather than nothing.
    notice('Flight results', `${textOf(result) || 'Nothing to show.'}\n\n(The view could not read the result: ${problem}.)`);
    return;
  }
  Object.assign(state, { result: r, selected: null, phase: 'idle', booking: null, saved: null, error: '', told: '' });
  renderResult();
  say(r.ranked ? `${r.flights.length} ranked flights.` : `${r.flights.length} flights, not ranked.`);
}

// ---- choosing, confirming, holding, saving ----

function actionSlot() {
  return root.querySelector(`li.flight[data-flight-id="${CSS.escape(state.selected.id)}"]`);
}

// renderAction draws the panel for the current phase under the chosen
// flight, and moves focus to `focus` (a selector inside it) when given;
// otherwise what had focus in the old panel has it in the new one.
function renderAction(focus) {
  const old = root.querySelector('section.action');
  const had = old?.contains(document.activeElement) && document.activeElement.id;
  old?.remove();
  for (const b of root.querySelectorAll('button.select')) {
    const chosen = state.selected && b.closest('li.flight')?.dataset.flightId === state.selected.id;
    chooseButton(b, Boolean(chosen));
    b.closest('li.flight')?.classList.toggle('chosen', Boolean(chosen));
    b.disabled = ['booking', 'booked', 'saving'].includes(state.phase) && !chosen;
  }
  if (!state.selected) return;
  const handlers = { onHold: hold, onCancel: cancel, onName, onSeat, onSave: save };
  const panel = ['booked', 'saving'].includes(state.phase) ? bookedView(state, handlers) : confirmView(state, handlers);
  actionSlot().append(panel);
  const target = focus ?? (had && `#${had}`);
  if (target) panel.querySelector(target)?.focus();
}

function select(flight) {
  if (['booking', 'booked', 'saving'].includes(state.phase)) return;
  Object.assign(state, { selected: flight, phase: 'confirm', error: '', nameProblem: '' });
  renderAction('#passenger');
  say(`Chose ${flight.id}. Enter the passenger name to hold it.`);
}

function cancel() {
  const id = state.selected?.id;
  Object.assign(state, { selected: null, phase: 'idle', error: '', nameProblem: '' });
  renderAction();
  root.querySelector(`li.flight[data-flight-id="${CSS.escape(id)}"] button.select`)?.focus();
  say('Not held.');
}

function onName(e) {
  state.passengerName = e.target.value;
}

function onSeat(e) {
  state.seat = e.target.value;
}

// callTool asks the host to call one of the server's tools. It returns the
// result, or `{ error }` in words when the call could not be made or the
// tool said it failed: the view shows that as is, saying whose words they are.
async function callTool(name, args) {
  if (!app.getHostCapabilities()?.serverTools) {
    return { error: `This host does not let the view call the server's tools. Ask your assistant to call ${name} instead.` };
  }
  let result;
  try {
    result = await app.callServerTool({ name, arguments: args }, { timeout: CALL_TIMEOUT_MS });
  } catch (err) {
    return { error: `The host could not call ${name}: ${err?.message ?? String(err)}` };
  }
  if (result.isError) return { error: `The server said: ${textOf(result) || `${name} failed without saying why.`}` };
  if (!result.structuredContent || typeof result.structuredContent !== 'object') {
    return { error: `${name} answered without structured content: ${textOf(result) || 'nothing'}` };
  }
  return { value: result.structuredContent };
}

async function hold(e) {
  e.preventDefault();
  if (state.phase !== 'confirm') return;
  const { name, problem } = checkPassengerName(state.passengerName);
  if (problem) {
    Object.assign(state, { nameProblem: problem, error: '' });
    renderAction('#passenger');
    say(problem);
    return;
  }
  Object.assign(state, { passengerName: name, nameProblem: '', error: '', phase: 'booking' });
  renderAction();
  say(`Holding ${state.selected.id}…`);
  const { value, error } = await callTool('bookFlight', {
    flightId: state.selected.id,
    confirm: true,
    passengerName: name,
    seat: state.seat,
  });
  if (error || typeof value.reference !== 'string') {
    Object.assign(state, { phase: 'confirm', error: error ?? 'bookFlight gave no booking reference.' });
    renderAction('#passenger');
    say('Not held.');
    return;
  }
  Object.assign(state, { phase: 'booked', booking: value });
  renderAction('#booked-h');
  say(`Held: reference ${value.reference}.`);
  await tellModel();
}

async function save(format) {
  if (state.phase !== 'booked') return;
  Object.assign(state, { phase: 'saving', error: '' });
  renderAction();
  say('Saving the itinerary…');
  const { value, error } = await callTool('saveItinerary', { bookingRef: state.booking.reference, format });
  state.phase = 'booked';
  if (error) {
    state.error = error;
    renderAction(`#save-${format}`);
    say('Not saved.');
    return;
  }
  state.saved = value;
  renderAction(`#save-${format}`);
  say(`Saved ${value.path ?? value.uri ?? ''}.`);
  await tellModel();
}

// tellModel lets the host's model know what the user did in the view:
// ui/update-model-context when the host takes it (the next turn reads it,
// nothing is said in the chat), else a ui/message, else the user is asked
// to tell the assistant themselves.
async function tellModel() {
  const ctx = modelContext({ flight: state.selected, booking: state.booking, saved: state.saved });
  const caps = app.getHostCapabilities() ?? {};
  try {
    if (caps.updateModelContext) {
      await app.updateModelContext(ctx, { timeout: CALL_TIMEOUT_MS });
      state.told = 'Your assistant can see this in the conversation.';
    } else if (caps.message) {
      const sent = await app.sendMessage({ role: 'user', content: ctx.content }, { timeout: CALL_TIMEOUT_MS });
      state.told = sent?.isError ? `The host refused the message; tell your assistant: ${ctx.content[0].text}` : 'Sent to your assistant as a message.';
    } else {
      state.told = `This host takes no messages from the view; tell your assistant: ${ctx.content[0].text}`;
    }
  } catch (err) {
    state.told = `Could not tell your assistant (${err?.message ?? String(err)}); tell it: ${ctx.content[0].text}`;
  }
  renderAction();
}

// ---- start ----

app.addEventListener('toolinput', ({ arguments: args }) => {
  if (state.result) return;
  const a = args ?? {};
  const route = a.origin && a.destination ? `${a.origin} → ${a.destination}` : 'flights';
  notice('Searching…', `Looking for ${route}${a.date ? ` on ${a.date}` : ''}.`);
  say('Searching for flights…');
});
app.addEventListener('toolresult', onToolResult);
app.addEventListener('toolcancelled', ({ reason }) => {
  if (!state.result) notice('The flight search was cancelled', reason || '', 'error');
});
app.addEventListener('hostcontextchanged', () => {
  applyHostContext();
  if (state.result && state.phase === 'idle') renderResult();
});
app.onteardown = async () => ({});

if (window.parent === window) {
  notice('Flight results', 'This page is an MCP App view: a host that supports MCP Apps shows it beside a findBestFlight result.');
} else {
  notice('Waiting for the flight search…', '');
  app
    .connect(new PostMessageTransport(window.parent, window.parent))
    .then(applyHostContext)
    .catch((err) => notice('The view could not connect to the host', err?.message ?? String(err), 'error'));
}
