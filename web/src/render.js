// The DOM of the results view, built from a result readResult() checked.
// Every value is set as text (never as HTML), so nothing in a result can
// add markup or script to the page.

import { SEATS, NAME_MAX, dayMark, duration, formatDate, localTime, stepLabel, stopsText, usd } from './format.js';

// h creates an element: props are attributes, except `text` (its text),
// `class`, and on* (listeners); children are nodes or strings.
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') el.textContent = v;
    else if (k === 'class') el.className = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c !== undefined && c !== null && c !== false) el.append(c);
  }
  return el;
}

// numbersOf names a leg by its flight numbers, e.g. "VS1070 + VS113".
const numbersOf = (leg) => leg.segments.map((s) => s.flightNumber).join(' + ') || leg.id;

// choiceName names an option for its choose button: its flight numbers,
// the return's for a round trip, and the day it leaves, since a schedule
// flies the same numbers every day (a flexible search shows several days).
const choiceName = (f, locale) => {
  const start = localTime(f.depart)?.date;
  return `${numbersOf(f)}${f.return ? `, back ${numbersOf(f.return)}` : ''}${start ? ` on ${formatDate(start, locale, 'short')}` : ''}`;
};

// hidden text for screen readers, where the eye reads a symbol.
const said = (text) => h('span', { class: 'vh', text });

const DAY_WORDS = { '+1': 'next day', '+2': 'two days later', '-1': 'previous day' };

// clock shows a local time as written for the airport, with a day mark
// when it falls on another local day than `fromDate`.
function clock(iso, fromDate) {
  const t = localTime(iso);
  if (!t) return h('span', { text: '--:--' });
  const mark = fromDate ? dayMark(fromDate, t.date) : '';
  return h(
    'span',
    { class: 'clock' },
    h('time', { datetime: iso, title: `${t.date} ${t.time} (UTC${t.offset})`, text: t.time }),
    mark && h('sup', { class: 'daymark' }, h('span', { 'aria-hidden': 'true', text: mark }), said(` ${DAY_WORDS[mark] ?? `${mark} days`}`)),
  );
}

function layover(prev, next) {
  const a = Date.parse(prev.arrive);
  const b = Date.parse(next.depart);
  if (Number.isNaN(a) || Number.isNaN(b) || b < a) return null;
  return h('li', { class: 'layover', text: `${duration((b - a) / 60_000)} connection in ${prev.to}` });
}

// legView lists the segments of one direction, with the connections.
function legView(leg, title, locale) {
  const start = localTime(leg.depart)?.date;
  const items = [];
  leg.segments.forEach((s, i) => {
    if (i > 0) items.push(layover(leg.segments[i - 1], s));
    items.push(
      h(
        'li',
        { class: 'segment' },
        h('span', { class: 'fn', text: s.flightNumber }),
        h('span', { class: 'hop' }, `${s.from} `, clock(s.depart, start), h('span', { 'aria-hidden': 'true', text: ' → ' }), said(' to '), `${s.to} `, clock(s.arrive, start)),
      ),
    );
  });
  return h(
    'div',
    { class: 'leg' },
    title && h('h4', { text: `${title} · ${start ? formatDate(start, locale) : ''}` }),
    h('ol', { class: 'segments', 'aria-label': `${title ?? 'Flight'} segments` }, items),
  );
}

// headline is the title of a flight card: its flight numbers and the
// journey's first and last local times.
function headline(leg) {
  const first = leg.segments[0];
  const last = leg.segments.at(-1);
  const start = localTime(leg.depart)?.date;
  return [
    h('span', { class: 'numbers', text: numbersOf(leg) }),
    ' ',
    first && last
      ? h('span', { class: 'route' }, `${first.from} `, clock(leg.depart, null), h('span', { 'aria-hidden': 'true', text: ' → ' }), said(' to '), `${last.to} `, clock(leg.arrive, start))
      : null,
  ];
}

// tripView is the header: where, when, for whom, within which limits.
export function tripView(r, locale) {
  const t = r.trip;
  const facts = [
    t.date && `${t.returnDate ? 'Out ' : ''}${formatDate(t.date, locale)}`,
    t.returnDate && `back ${formatDate(t.returnDate, locale)}`,
    t.flexDays ? `± ${t.flexDays} ${t.flexDays === 1 ? 'day' : 'days'}` : null,
    `${t.passengers} ${t.passengers === 1 ? 'passenger' : 'passengers'}`,
    t.cabin && t.cabin.replace(/_/g, ' '),
    Number.isFinite(t.maxStops) && (t.maxStops === 0 ? 'nonstop only' : `up to ${t.maxStops} ${t.maxStops === 1 ? 'stop' : 'stops'}`),
    t.departAfter && `leaving after ${t.departAfter}`,
    t.departBefore && `leaving before ${t.departBefore}`,
    Number.isFinite(t.maxPrice) && `at most ${usd(t.maxPrice, locale)}`,
  ].filter(Boolean);
  return h(
    'header',
    { class: 'trip' },
    h('h1', {}, `${t.origin} `, h('span', { 'aria-hidden': 'true', text: t.returnDate ? '⇄' : '→' }), said(t.returnDate ? ' to and from ' : ' to '), ` ${t.destination}`),
    h('ul', { class: 'facts', 'aria-label': 'Trip' }, facts.map((f) => h('li', { text: f }))),
    h('p', { class: 'hint', text: 'Times are local to each airport.' }),
  );
}

// calendarView is the flexible-dates strip: the lowest fare of each day
// searched, the day shown highlighted.
export function calendarView(r, locale) {
  if (!r.calendar.length) return null;
  const shown = localTime(r.flights[0]?.depart)?.date;
  const chosen = r.calendar.some((d) => d.date === shown) ? shown : r.trip.date;
  return h(
    'section',
    { class: 'calendar', 'aria-labelledby': 'calendar-h' },
    h('h2', { id: 'calendar-h', text: 'Lowest fare by day' }),
    h(
      'ol',
      {},
      r.calendar.map((d) =>
        h(
          'li',
          { class: d.date === chosen ? 'day chosen' : 'day', 'aria-current': d.date === chosen ? 'date' : undefined },
          h('span', { class: 'date', text: formatDate(d.date, locale, 'short') }),
          h('span', { class: 'fare', text: Number.isFinite(d.lowestUSD) ? usd(d.lowestUSD, locale) : 'none' }),
          d.date === chosen && said(' (shown below)'),
        ),
      ),
    ),
  );
}

// picksHeading says plainly whether the list is ranked, and by which rung.
export function picksHeading(r) {
  if (r.ranked) {
    const by = `Ranked by ${stepLabel(r.method)}${r.model ? ` (model ${r.model})` : ''}`;
    const of = Number.isFinite(r.found) ? ` · best ${r.flights.length} of ${r.found} flights found` : '';
    return [h('h2', { id: 'picks-h', text: 'Ranked picks' }), h('p', { class: 'ranked-by', text: by + of })];
  }
  return [
    h('h2', { id: 'picks-h', class: 'unranked' }, 'Shortlist ', h('span', { class: 'badge warn', text: 'not ranked — choose with the user' })),
    h('p', {
      class: 'ranked-by',
      text: `The server did not rank these ${r.flights.length} flights${Number.isFinite(r.found) ? ` (of ${r.found} found)` : ''}; they are in its own order. Compare them and choose with your assistant.`,
    }),
  ];
}

// chooseButton labels a flight's choose button; its accessible name adds
// the flight numbers and the day (choiceName), so a screen reader's list of
// buttons tells them apart.
export function chooseButton(button, chosen) {
  const label = chosen ? 'Chosen' : 'Choose this flight';
  button.textContent = label;
  button.setAttribute('aria-label', `${label}: ${button.dataset.flights}`);
  button.setAttribute('aria-pressed', String(chosen));
  return button;
}

// flightCard renders one flight; onSelect is called with it.
export function flightCard(f, r, locale, onSelect) {
  const hid = `f-${f.id}-h`;
  const total = f.totalUSD ?? f.priceUSD;
  const each = r.trip.passengers > 1 && Number.isFinite(f.priceUSD) ? ` · ${usd(f.priceUSD, locale)} each` : '';
  return h(
    'li',
    { class: 'flight', 'data-flight-id': f.id },
    h(
      'article',
      { 'aria-labelledby': hid },
      h(
        'div',
        { class: 'flight-head' },
        r.ranked && Number.isFinite(f.position) && h('span', { class: 'rank' }, said('Pick '), `${f.position}`),
        h('h3', { id: hid }, headline(f)),
        h('p', { class: 'price' }, h('span', { class: 'amount', text: usd(total, locale) }), h('span', { class: 'per', text: `${f.return ? 'round trip' : 'total'}${each}` })),
      ),
      h('p', { class: 'facts', text: [stopsText(f.stops, f.via), duration(f.durationMinutes), f.airlines.join(', ')].filter(Boolean).join(' · ') }),
      f.reason && h('p', { class: 'reason', text: f.reason }),
      legView(f, f.return ? 'Outbound' : null, locale),
      f.return && legView(f.return, 'Return', locale),
      h(
        'div',
        { class: 'choose' },
        chooseButton(h('button', { type: 'button', class: 'select', 'aria-pressed': 'false', 'data-flights': choiceName(f, locale), onclick: () => onSelect(f) }), false),
        h('code', { class: 'id', text: f.id }),
      ),
    ),
  );
}

const capitalized = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// ladderView is findBestFlight's ladder made visible: each rung tried, in
// order, what came of it and the server's one-line why.
export function ladderView(r) {
  return h(
    'section',
    { class: 'ladder', 'aria-labelledby': 'ladder-h' },
    h('h2', { id: 'ladder-h', text: 'How these were chosen' }),
    h('p', { class: 'hint', text: 'findBestFlight tries each way of ranking in turn and says why it moved on.' }),
    h(
      'ol',
      {},
      r.attempts.map((a) =>
        h(
          'li',
          { class: `attempt ${a.outcome}` },
          h('span', { class: `badge ${a.outcome}`, text: a.outcome }),
          h('span', { class: 'step' }, h('strong', { text: capitalized(stepLabel(a.step)) }), ' ', h('code', { text: a.step })),
          h('span', { class: 'why', text: a.reason }),
          a.why && h('code', { class: 'code', title: 'reason code', text: a.why }),
          Number.isFinite(a.elapsedMs) && h('span', { class: 'ms', text: `${a.elapsedMs} ms` }),
        ),
      ),
    ),
    r.summary && h('p', { class: 'summary', text: r.summary }),
  );
}

// confirmView is the explicit confirmation: the view itself asks, so the
// call carries confirm: true and the name the user typed.
export function confirmView(state, handlers) {
  const f = state.selected;
  const busy = state.phase === 'booking';
  const start = localTime(f.depart)?.date;
  return h(
    'section',
    { class: 'action', 'aria-labelledby': 'confirm-h' },
    h('h4', { id: 'confirm-h', tabindex: '-1', text: `Hold ${numbersOf(f)}${start ? ` on ${formatDate(start, state.locale)}` : ''}?` }),
    h('p', { class: 'hint', text: `A simulation: nothing is charged or sent. ${usd(f.totalUSD ?? f.priceUSD, state.locale)} for ${state.result.trip.passengers} ${state.result.trip.passengers === 1 ? 'passenger' : 'passengers'}.` }),
    h(
      'form',
      { novalidate: true, onsubmit: handlers.onHold, 'aria-busy': busy ? 'true' : undefined },
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'passenger', text: 'Passenger name, as on their ID' }),
        h('input', {
          id: 'passenger',
          name: 'passengerName',
          autocomplete: 'name',
          required: true,
          maxlength: String(NAME_MAX),
          value: state.passengerName,
          'aria-invalid': state.nameProblem ? 'true' : undefined,
          'aria-describedby': state.nameProblem ? 'passenger-problem' : undefined,
          disabled: busy,
          oninput: handlers.onName,
        }),
        state.nameProblem && h('p', { id: 'passenger-problem', class: 'error', text: state.nameProblem }),
      ),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'seat', text: 'Seat' }),
        h(
          'select',
          { id: 'seat', name: 'seat', disabled: busy, onchange: handlers.onSeat },
          SEATS.map((s) => h('option', { value: s.value, selected: s.value === state.seat, text: s.label })),
        ),
      ),
      h(
        'div',
        { class: 'buttons' },
        h('button', { type: 'submit', id: 'hold', class: 'primary', disabled: busy }, busy ? 'Holding…' : 'Hold this flight (simulation)'),
        h('button', { type: 'button', id: 'cancel', disabled: busy, onclick: handlers.onCancel }, 'Cancel'),
      ),
      state.error && h('div', { class: 'error', role: 'alert' }, h('strong', { text: 'Not held. ' }), state.error),
    ),
  );
}

// bookedView shows the hold the server made and offers to save it.
export function bookedView(state, handlers) {
  const b = state.booking;
  const saving = state.phase === 'saving';
  const seat = SEATS.find((s) => s.value === b.seat)?.label ?? b.seat;
  return h(
    'section',
    { class: 'action booked', 'aria-labelledby': 'booked-h' },
    h('h4', { id: 'booked-h', tabindex: '-1' }, 'Held (simulation) ', h('code', { class: 'ref', text: b.reference })),
    h(
      'dl',
      {},
      h('dt', { text: 'Passenger' }),
      h('dd', { text: b.passengerName }),
      h('dt', { text: 'Seat' }),
      h('dd', { text: seat }),
      h('dt', { text: 'Price' }),
      h('dd', { text: usd(b.priceUSD, state.locale) }),
    ),
    b.summary && h('p', { class: 'hint', text: b.summary }),
    h(
      'div',
      { class: 'buttons', role: 'group', 'aria-label': 'Save the itinerary' },
      h('button', { type: 'button', id: 'save-ics', class: 'primary', disabled: saving, onclick: () => handlers.onSave('ics') }, 'Save to calendar (.ics)'),
      h('button', { type: 'button', id: 'save-markdown', disabled: saving, onclick: () => handlers.onSave('markdown') }, 'Save as Markdown'),
    ),
    saving && h('p', { class: 'hint', text: 'Saving…' }),
    state.saved &&
      h(
        'p',
        { class: 'saved', id: 'saved' },
        h('strong', { text: `Saved ${state.saved.format === 'ics' ? 'calendar file' : 'Markdown'}: ` }),
        h('code', { text: state.saved.path ?? state.saved.uri }),
        Number.isFinite(state.saved.bytes) ? ` (${state.saved.bytes} bytes)` : '',
      ),
    state.error && h('div', { class: 'error', role: 'alert' }, h('strong', { text: 'Not saved. ' }), state.error),
    state.told && h('p', { class: 'told', text: state.told }),
  );
}
