// The findBestFlight results view (ui://flightserver/results): an MCP App
// (io.modelcontextprotocol/ui). The host renders it in a sandboxed iframe
// and talks to it over postMessage (bridge.js):
//
//   host -> view  ui/notifications/tool-input    the call's arguments (a "searching" line,
//                                                a "still waiting" one after 30 s)
//                 ui/notifications/tool-result   the result: structuredContent is rendered
//                 ui/notifications/tool-cancelled   the call cancelled: says so
//                 ui/notifications/host-context-changed   theme, styles, locale
//   view -> host  tools/call listFlightOptions           every option, for the full list
//                 tools/call findBestFlight              another day of the calendar, or
//                                                        the trip without a filter
//                 tools/call bookFlight, saveItinerary   holding and saving a flight
//                 ui/update-model-context (or ui/message) what the user chose or looks at
//
// Every step that needs something of the host checks that the host offers
// it, and says plainly what to do instead when it does not.

import { HostBridge, applyFonts, applyStyleVariables, applyTheme } from './bridge.js';
import { addDays, addHold, checkPassengerName, dayOffset, formatDate, modelContext, readOptions, readResult, textOf, tripArgs, viewLocale, withHolds, withoutFilter } from './format.js';
import { airlinesOf, matches, noFilter, sortOptions } from './options.js';
import { bookedView, calendarView, chooseButton, confirmView, countWords, emptyView, flightCard, h, heldView, ladderView, optionsView, picksHeading, standoutsView, tripView } from './render.js';

// How long a tool call through the host may take before the view gives up
// on it; the server's own budget for one call is 45 s by default.
const CALL_TIMEOUT_MS = 60_000;

// How long after the call's arguments the view waits for its result (or
// a cancel) before it says the answer may come in the conversation instead:
// a host may never pass the result on, and the server's own budget for a
// call is 45 s by default.
const RESULT_HINT_MS = 30_000;

// How many rows of the full list show before "Show all".
const LIST_LIMIT = 10;

const root = document.getElementById('app');
const status = document.getElementById('status');

const state = {
  locale: undefined, // the host's, once known; the browser's until then
  strategy: undefined, // the strategy of the call the host showed, if it named one
  result: null, // readResult()'s result: what the picks show
  noResult: '', // what the model is told the user sees in place of a result (see noResult)
  calendar: null, // the flexible search's calendar, kept while other days are shown
  shown: null, // { date, returnDate }: the day of the calendar the picks are for
  dayBusy: false,
  dayError: '',
  showing: '', // what the picks are, when the view asked for them (a day, the trip without a filter)
  options: { status: 'idle', list: [], visible: [], sort: 'best', filter: noFilter(), limit: LIST_LIMIT, showAll: false, allAirlines: false, error: '' },
  ladderOpen: false,
  seq: 0, // counts the results shown, so a late answer for an older one is dropped
  selected: null, // the flight the user chose
  selectedList: '', // which list it was chosen in: picks or all
  phase: 'idle', // idle | confirm | booking | booked | saving
  passengerName: '',
  seat: 'no_preference',
  nameProblem: '',
  error: '', // what the last call's failure said, shown as is
  booking: null, // bookFlight's structuredContent
  saved: null, // saveItinerary's structuredContent
  holds: [], // every hold made in this view, oldest first: { flight, booking, saved }; kept across results
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
// No result is on the page then, so every flight held in this view is
// listed under it: a hold's reference must not leave the page with the
// result it was made on.
function notice(title, text, kind = 'info') {
  show(h('section', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : undefined }, h('h1', { text: title }), text && h('p', { class: 'pre', text })), heldView(state.holds, state.locale));
}

// noResult is a notice in place of a result (it failed, could not be read
// or drawn): nothing of the last result is kept, so nothing redraws it
// over the notice, and a late answer for it is dropped. `told` is what the
// model is told the user sees.
function noResult(title, text, told, kind = 'error') {
  Object.assign(state, { result: null, noResult: told, selected: null, phase: 'idle', booking: null, saved: null, error: '' });
  state.seq++;
  notice(title, text, kind);
}

// showHolds redraws the list of holds after one was made or saved while
// the page showed something else: the result (when no panel is open), or
// the notice in its place.
function showHolds() {
  if (state.result) {
    if (state.phase === 'idle') keepFocus(renderResult);
    return;
  }
  const list = heldView(state.holds, state.locale);
  const old = root.querySelector('section.held');
  if (old) old.replaceWith(list);
  else if (list) root.append(list);
}

const app = new HostBridge({ name: 'flightserver-results', version: __VIEW_VERSION__ });

// ---- host context: theme, styles, fonts, locale ----

function applyHostContext() {
  const ctx = app.hostContext ?? {};
  if (ctx.theme === 'light' || ctx.theme === 'dark') applyTheme(ctx.theme);
  if (ctx.styles?.variables && typeof ctx.styles.variables === 'object') applyStyleVariables(ctx.styles.variables);
  if (ctx.styles?.css?.fonts) applyFonts(ctx.styles.css.fonts);
  // A locale Intl cannot parse would make every price and date throw.
  const locale = viewLocale(ctx.locale);
  if (locale) {
    state.locale = locale;
    document.documentElement.lang = locale;
  }
}

// ---- results ----

// keepFocus runs `render` and gives focus back to the element that had it
// (by id, or by its day in the calendar), since rendering replaces it.
function keepFocus(render) {
  const el = document.activeElement;
  const id = el?.id;
  const day = el?.dataset?.date && { date: el.dataset.date, ret: el.dataset.return };
  render();
  let again = id ? document.getElementById(id) : null;
  if (!again && day) again = [...root.querySelectorAll('button.day')].find((b) => b.dataset.date === day.date && (b.dataset.return ?? '') === (day.ret ?? ''));
  again?.focus();
}

function calendarSection() {
  return [
    calendarView(state.calendar, { locale: state.locale, shown: state.shown, busy: state.dayBusy, onDay: showDay }),
    state.dayError && h('p', { class: 'error', role: 'alert', text: state.dayError }),
  ];
}

function optionsSection() {
  const r = state.result;
  if (!r.flights.length) return null;
  return optionsView(state.options, r, {
    locale: state.locale,
    airlines: airlinesOf(state.options.list),
    onSort,
    onFilter,
    onShowAll,
    onMoreAirlines,
    onSelect: select,
  });
}

function renderResult() {
  const r = state.result;
  const picks = h(
    'ol',
    { class: r.ranked ? 'flights picks ranked' : 'flights picks unranked', 'aria-labelledby': 'picks-h' },
    r.flights.map((f) => flightCard(f, r, { locale: state.locale, list: 'picks', onSelect: select })),
  );
  show(
    tripView(r, state.locale, { flexible: state.calendar?.trip !== r.trip ? state.calendar?.trip : undefined }),
    heldView(earlierHolds(), state.locale),
    h('div', { id: 'calendar-slot' }, calendarSection()),
    h(
      'section',
      { class: 'picks', 'aria-labelledby': 'picks-h' },
      r.flights.length ? picksHeading(r) : emptyView(r, { onRelax: relax }),
      ladderView(r, state.ladderOpen),
      r.flights.length > 0 && picks,
      r.flights.length > 0 && standoutsView(r, state.locale),
      r.unreadable > 0 && h('p', { class: 'hint', text: `${r.unreadable} more entries had no flight id and are not shown.` }),
    ),
    h('div', { id: 'options-slot' }, optionsSection()),
  );
  root.querySelector('details.ladder')?.addEventListener('toggle', (e) => {
    state.ladderOpen = e.target.open;
  });
  if (state.selected) renderAction();
}

// renderOptions redraws only the full list (a sort, a filter, the options
// arriving), keeping focus where it was.
function renderOptions() {
  keepFocus(() => {
    root.querySelector('#options-slot')?.replaceChildren(...[optionsSection()].filter(Boolean));
    if (state.selected?.id && state.selectedList === 'all') renderAction();
  });
}

function renderCalendar() {
  keepFocus(() => root.querySelector('#calendar-slot')?.replaceChildren(...calendarSection().filter(Boolean)));
}

// refilter recomputes which options the list shows.
function refilter() {
  const o = state.options;
  o.visible = sortOptions(o.list, o.sort).filter((f) => matches(f, o.filter));
}

function onSort(key) {
  state.options.sort = key;
  refilter();
  renderOptions();
  say(countWords(state.options));
}

function onFilter(kind, value) {
  const f = state.options.filter;
  if (kind === 'nonstop') f.nonstop = !f.nonstop;
  else {
    const set = kind === 'time' ? f.times : f.airlines;
    if (set.has(value)) set.delete(value);
    else set.add(value);
  }
  refilter();
  renderOptions();
  say(countWords(state.options));
}

function onMoreAirlines() {
  state.options.allAirlines = !state.options.allAirlines;
  renderOptions();
}

function onShowAll() {
  state.options.showAll = !state.options.showAll;
  renderOptions();
  say(countWords(state.options));
}

// calendarOf is the calendar a flexible result brings: its days, and how
// to name each outbound day's return day when both dates move together.
function calendarOf(r, days) {
  const t = r.trip;
  const stay = t.returnDate && t.date ? dayOffset(t.date, t.returnDate) : undefined;
  return {
    trip: t,
    days,
    roundTrip: Boolean(t.returnDate),
    independent: Boolean(t.returnDate && t.flexIndependently),
    returnDateOf: t.returnDate && !t.flexIndependently ? (d) => addDays(d, stay) : undefined,
  };
}

// showResult shows a findBestFlight result and asks the server for every
// option of it. A flexible result brings its calendar; a day of it keeps
// the calendar it came from.
function showResult(r, { keepCalendar = false } = {}) {
  const seq = ++state.seq;
  Object.assign(state, { result: r, selected: null, phase: 'idle', booking: null, saved: null, error: '', noResult: '', told: '', dayError: '' });
  if (!keepCalendar) {
    // A flexible result's picks may leave on any of its days: none is "shown".
    state.calendar = r.calendar.length ? calendarOf(r, r.calendar) : null;
    state.shown = null;
  }
  Object.assign(state.options, { status: r.flights.length ? 'loading' : 'idle', list: [], visible: [], showAll: false, error: '' });
  keepFocus(renderResult);
  if (r.flights.length) loadOptions(r, seq).catch((err) => drawFailed(err));
}

// loadOptions asks the server (listFlightOptions, a tool for the view only)
// for every option of the result's trip, and for a flexible round trip the
// fare of each pair of days.
async function loadOptions(r, seq) {
  const { value, error } = await callTool('listFlightOptions', tripArgs(r.trip));
  if (seq !== state.seq) return;
  const read = value && readOptions(value);
  if (error || read.problem) {
    Object.assign(state.options, { status: 'failed', error: error ?? read.problem });
    renderOptions();
    return;
  }
  try {
    Object.assign(state.options, { status: 'loaded', list: read.options.options });
    Object.assign(state.result.airports, read.options.airports);
    refilter();
    if (state.calendar && state.calendar.trip === r.trip && read.options.calendar.some((d) => d.returns.length)) {
      state.calendar = calendarOf(r, read.options.calendar);
      renderCalendar();
    }
    renderOptions();
  } catch (err) {
    // A list the view cannot draw costs the list, not the picks above it.
    console.error('flightserver-results: could not draw the full list:', err);
    Object.assign(state.options, { status: 'failed', list: [], visible: [], error: 'The view could not draw them: the picks above are complete.' });
    renderOptions();
    return;
  }
  say(`${state.showing ? `${state.showing}: ` : ''}${picksWords(state.result)}; ${countWords(state.options)}`);
}

// picksWords counts the picks for the live region.
function picksWords(r) {
  if (!r.flights.length) return 'nothing within your limits';
  const n = r.flights.length;
  return r.ranked ? `${n} ranked ${n === 1 ? 'pick' : 'picks'}` : `${n} ${n === 1 ? 'flight' : 'flights'}, not ranked`;
}

// searchAgain calls findBestFlight from the view for `args` and shows what
// it found; the model is told what the user is now looking at.
async function searchAgain(args, { keepCalendar, what }) {
  const { value, error } = await callTool('findBestFlight', { ...args, ...(state.strategy && { strategy: state.strategy }) });
  if (error) return error;
  const { result: r, problem } = readResult(value);
  if (problem) return `findBestFlight answered with nothing the view can read: ${problem}.`;
  state.showing = what;
  try {
    showResult(r, { keepCalendar });
  } catch (err) {
    drawFailed(err, 'This answer came to the view, not to the conversation: ask your assistant to search again.');
    return '';
  }
  say(`${what}: ${picksWords(r)}.`);
  tellModelLooking(r, what);
  return '';
}

// showDay asks the server for one day of the calendar (a pair of days, on
// the grid) and shows it under the calendar.
async function showDay(date, returnDate) {
  if (state.dayBusy || ['booking', 'saving'].includes(state.phase)) return;
  const base = state.calendar.trip;
  Object.assign(state, { shown: { date, returnDate }, dayBusy: true, dayError: '' });
  renderCalendar();
  const when = `${formatDate(date, state.locale)}${returnDate ? `, back ${formatDate(returnDate, state.locale)}` : ''}`;
  say(`Looking for flights on ${when}…`);
  const failed = await searchAgain(tripArgs(base, { date, returnDate: returnDate ?? base.returnDate, flexDays: 0 }), { keepCalendar: true, what: `Flights on ${when}` });
  state.dayBusy = false;
  if (failed) {
    state.dayError = `Could not show ${when}. ${failed}`;
    say(state.dayError);
  }
  renderCalendar();
}

// relax searches again without one of the trip's filters.
async function relax(x) {
  say(`Searching without ${x.filter}…`);
  const failed = await searchAgain(tripArgs(state.result.trip, withoutFilter(x.filter)), { keepCalendar: false, what: `Without ${x.filter}` });
  if (failed) {
    root.querySelector('ul.relaxed')?.after(h('p', { class: 'error', role: 'alert', text: `Could not search without ${x.filter}. ${failed}` }));
    say(`Could not search without ${x.filter}.`);
  } else root.querySelector('#picks-h')?.focus();
}

// earlierHolds are the holds made in this view other than the one the
// action panel shows: made on a result no longer on screen.
function earlierHolds() {
  return state.holds.filter((x) => x.booking.reference !== state.booking?.reference);
}

// withEarlierHolds adds the earlier holds to a model-context update
// (withHolds: repeated, since each update replaces the last; bounded).
function withEarlierHolds(ctx) {
  return withHolds(ctx, earlierHolds());
}

// tellModelLooking lets the model know what the user now sees, when the
// host takes context updates (nothing is said in the chat). With no result
// (the latest was one the view could not draw) it says so, and still
// repeats every hold: a hold that completed after it is the user's all the
// same, and this update replaces the one that named the earlier holds.
async function tellModelLooking(r, what) {
  if (!app.hostCapabilities?.updateModelContext) return;
  let ctx;
  if (r) {
    const picks = r.flights.map((f) => `#${f.position} ${f.id}`).join(', ');
    const text = `In the flight results view the user is now looking at ${what.toLowerCase()} (${r.trip.origin} to ${r.trip.destination}): ${picks || 'nothing within the trip\'s limits'}.`;
    ctx = withEarlierHolds({ content: [{ type: 'text', text }], structuredContent: { viewing: tripArgs(r.trip), flightIds: r.flights.map((f) => f.id) } });
  } else {
    const text = state.noResult || 'The flight results view shows no flight search result.';
    ctx = withHolds({ content: [{ type: 'text', text }], structuredContent: { viewing: null, flightIds: [] } }, state.holds);
  }
  try {
    await app.updateModelContext(ctx, { timeout: CALL_TIMEOUT_MS });
  } catch {
    // The view still shows the day; the model hears of it when the user chooses.
  }
}

// drawFailed is the page when drawing a result threw: rather than a page
// left blank or at "Searching…", it says so (`where` tells where the result
// can be read instead) and logs the error for whoever debugs the view.
// Nothing of the result is kept, so nothing redraws it; the holds made in
// the view stay listed.
function drawFailed(err, where = 'The full result is in the conversation: the host has it too.') {
  console.error('flightserver-results: could not draw the result:', err);
  noResult('The view could not draw this result', where, 'The flight results view could not draw the latest flight search result: the user sees no flights from it.');
  say('The view could not draw this result.');
}

// waiting is the timer of the hint that the result is late.
let waiting;

function onToolResult(result) {
  clearTimeout(waiting);
  try {
    drawToolResult(result);
  } catch (err) {
    drawFailed(err);
  }
}

function drawToolResult(result) {
  if (result.isError) {
    noResult('The flight search failed', textOf(result) || 'The server reported an error without saying more.', 'The latest flight search failed: the flight results view shows no flights from it.');
    say('The flight search failed.');
    return;
  }
  const { result: r, problem } = readResult(result.structuredContent);
  if (problem) {
    // The text content is complete for every host; show it rather than nothing.
    noResult('Flight results', `${textOf(result) || 'Nothing to show.'}\n\n(The view could not read the result: ${problem}.)`, 'The flight results view could not read the latest flight search result: the user sees no flights from it.', 'info');
    return;
  }
  state.showing = '';
  showResult(r);
  say(`${picksWords(r)}.`);
}

// ---- choosing, confirming, holding, saving ----

// actionSlot is the chosen flight's card in the list it was chosen from.
function actionSlot() {
  return root.querySelector(`li.flight[data-list="${state.selectedList}"][data-flight-id="${CSS.escape(state.selected.id)}"]`);
}

// renderAction draws the panel for the current phase under the chosen
// flight, and moves focus to `focus` (a selector inside it) when given;
// otherwise what had focus in the old panel has it in the new one.
function renderAction(focus) {
  const old = root.querySelector('section.action');
  const had = old?.contains(document.activeElement) && document.activeElement.id;
  old?.remove();
  for (const b of root.querySelectorAll('button.select')) {
    const li = b.closest('li.flight');
    const chosen = state.selected && li?.dataset.flightId === state.selected.id && li?.dataset.list === state.selectedList;
    chooseButton(b, Boolean(chosen));
    li?.classList.toggle('chosen', Boolean(chosen));
    b.disabled = ['booking', 'booked', 'saving'].includes(state.phase) && !chosen;
  }
  if (!state.selected) return;
  const handlers = { onHold: hold, onCancel: cancel, onName, onSeat, onSave: save };
  const panel = ['booked', 'saving'].includes(state.phase) ? bookedView(state, handlers) : confirmView(state, handlers);
  const slot = actionSlot();
  if (!slot) return; // filtered out of the list: chosen again when it shows
  slot.append(panel);
  const target = focus ?? (had && `#${had}`);
  if (target) panel.querySelector(target)?.focus();
}

function select(flight, list) {
  if (['booking', 'booked', 'saving'].includes(state.phase)) return;
  Object.assign(state, { selected: flight, selectedList: list, phase: 'confirm', error: '', nameProblem: '' });
  renderAction('#passenger');
  say(`Chose ${flight.id}. Enter the passenger name to hold it.`);
}

function cancel() {
  const id = state.selected?.id;
  const list = state.selectedList;
  Object.assign(state, { selected: null, phase: 'idle', error: '', nameProblem: '' });
  renderAction();
  root.querySelector(`li.flight[data-list="${list}"][data-flight-id="${CSS.escape(id)}"] button.select`)?.focus();
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
  if (!app.hostCapabilities?.serverTools) {
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
  const flight = state.selected;
  const seq = state.seq;
  say(`Holding ${flight.id}…`);
  const { value, error } = await callTool('bookFlight', {
    flightId: flight.id,
    confirm: true,
    passengerName: name,
    seat: state.seat,
    cabin: state.result.trip.cabin || undefined,
  });
  if (seq !== state.seq) {
    // The host sent another result while the server held the flight: the
    // hold was made all the same, so it joins the earlier ones, listed
    // under the header and repeated to the model.
    if (!error && typeof value.reference === 'string') {
      state.holds = addHold(state.holds, { flight, booking: value, saved: null });
      showHolds();
      say(`Held: reference ${value.reference}.`);
      tellModelLooking(state.result, state.showing || 'the search results');
    }
    return;
  }
  if (error || typeof value.reference !== 'string') {
    Object.assign(state, { phase: 'confirm', error: error ?? 'bookFlight gave no booking reference.' });
    renderAction('#passenger');
    say('Not held.');
    return;
  }
  Object.assign(state, { phase: 'booked', booking: value });
  state.holds = addHold(state.holds, { flight, booking: value, saved: null });
  renderAction('#booked-h');
  say(`Held: reference ${value.reference}.`);
  await tellModel();
}

async function save(format) {
  if (state.phase !== 'booked') return;
  Object.assign(state, { phase: 'saving', error: '' });
  renderAction();
  say('Saving the itinerary…');
  const ref = state.booking.reference;
  const seq = state.seq;
  const { value, error } = await callTool('saveItinerary', { bookingRef: ref, format });
  if (seq !== state.seq) {
    // Another result came meanwhile: the file is its hold's, listed with it.
    const hold = !error && state.holds.find((x) => x.booking.reference === ref);
    if (hold) {
      hold.saved = value;
      showHolds();
      say(`Saved ${value.path ?? value.uri ?? ''}.`);
      tellModelLooking(state.result, state.showing || 'the search results');
    }
    return;
  }
  state.phase = 'booked';
  if (error) {
    state.error = error;
    renderAction(`#save-${format}`);
    say('Not saved.');
    return;
  }
  state.saved = value;
  const hold = state.holds.find((x) => x.booking.reference === ref);
  if (hold) hold.saved = value;
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
  const caps = app.hostCapabilities ?? {};
  try {
    if (caps.updateModelContext) {
      await app.updateModelContext(withEarlierHolds(ctx), { timeout: CALL_TIMEOUT_MS });
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

app.on('toolinput', ({ arguments: args }) => {
  const a = args && typeof args === 'object' ? args : {};
  if (typeof a.strategy === 'string') state.strategy = a.strategy;
  if (state.result) return;
  const route = a.origin && a.destination ? `${a.origin} → ${a.destination}` : 'flights';
  const looking = `Looking for ${route}${a.date ? ` on ${a.date}` : ''}.`;
  notice('Searching…', looking);
  say('Searching for flights…');
  clearTimeout(waiting);
  waiting = setTimeout(() => {
    notice('Still waiting for the flight search', `${looking}\nNo result has reached this view after ${RESULT_HINT_MS / 1000} s: the answer may appear in the conversation instead.`);
    say('Still waiting for the flight search; the answer may appear in the conversation instead.');
  }, RESULT_HINT_MS);
});
app.on('toolresult', onToolResult);
app.on('toolcancelled', ({ reason }) => {
  clearTimeout(waiting);
  if (!state.result) notice('The flight search was cancelled', typeof reason === 'string' ? reason : '', 'error');
});
app.on('hostcontextchanged', () => {
  applyHostContext();
  try {
    showHolds();
  } catch (err) {
    drawFailed(err);
  }
});
app.onteardown = async () => {};

if (window.parent === window) {
  notice('Flight results', 'This page is an MCP App view: a host that supports MCP Apps shows it beside a findBestFlight result.');
} else {
  notice('Waiting for the flight search…', '');
  app
    .connect()
    .then(applyHostContext)
    .catch((err) => notice('The view could not connect to the host', err?.message ?? String(err), 'error'));
}
