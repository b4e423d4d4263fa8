// The DOM of the results view, built from a result readResult() checked.
// Every value is set as text (never as HTML), so nothing in a result can
// add markup or script to the page.

import {
  SEATS,
  NAME_MAX,
  cityOf,
  dayMark,
  duration,
  formatDate,
  ladderLine,
  localTime,
  own,
  stepLabel,
  stopsText,
  usd,
} from './format.js';
import { HEAT_LEVELS, SORTS, TIMES, fareRange, heatLevel } from './options.js';
import { NIGHT_FROM, NIGHT_TO, fitLabels, timeline } from './timeline.js';

// h creates an element: props are attributes, except `text` (its text),
// `class`, `style` (an object of CSS properties) and on* (listeners);
// children are nodes or strings.
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') el.textContent = v;
    else if (k === 'class') el.className = v;
    else if (k === 'style') Object.assign(el.style, v);
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c !== undefined && c !== null && c !== false) el.append(c);
  }
  return el;
}

// numbersOf names a leg by its flight numbers, e.g. "VS1070 + VS113".
export const numbersOf = (leg) => leg.segments.map((s) => s.flightNumber).join(' + ') || leg.id;

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

const pct = (x) => `${(x * 100).toFixed(2)}%`;

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

// place is an airport as a segment shows it: its code, its city beside it,
// its full name on hover.
function place(code, airports) {
  const city = cityOf(code, airports);
  return h('span', { class: 'place', title: own(airports, code) }, h('span', { class: 'code', text: code }), city && h('span', { class: 'city', text: ` ${city}` }));
}

const arrow = () => [h('span', { 'aria-hidden': 'true', text: ' → ' }), said(' to ')];

// ---- the timeline ----

// connectionWords says what a connection is: "1h 20m in KEF", overnight,
// change of airport.
function connectionWords(p, airports) {
  const city = cityOf(p.airport, airports);
  const notes = [p.overnight && 'overnight', p.changeOfAirport && `change of airport to ${p.departFrom || 'another airport'}`].filter(Boolean);
  return `${duration(p.minutes)} in ${p.airport}${city ? ` (${city})` : ''}${notes.length ? ` · ${notes.join(' · ')}` : ''}`;
}

// fitTicks draws the labels of timelines (their .ticks rows) so that none
// overlaps another, as fitLabels chooses from their boxes as drawn: a
// connection's label shortened to its airport (.short), or left out
// (.dropped; its gap says it on hover, the description in full). It runs
// whenever a row of labels is laid out or changes width (a ResizeObserver),
// measuring all the rows of one change together.
let fitter;
function fitTicks(rows) {
  rows = rows.filter((row) => row.isConnected || fitter.unobserve(row));
  const spans = rows.map((row) => [...row.children]);
  const all = spans.flat();
  const boxes = () => spans.map((list) => list.map((el) => el.getBoundingClientRect()));
  for (const el of all) el.classList.remove('short', 'dropped');
  const full = boxes();
  for (const el of all) el.classList.add('short');
  const short = boxes();
  for (const el of all) el.classList.remove('short');
  spans.forEach((list, r) =>
    fitLabels(full[r].map((b, i) => ({ left: b.left, right: b.right, short: short[r][i] }))).forEach((how, i) => {
      if (how !== 'full') list[i].classList.add(how === 'short' ? 'short' : 'dropped');
    }),
  );
}

function fitted(row) {
  fitter ??= new ResizeObserver((entries) => fitTicks(entries.map((e) => e.target)));
  fitter.observe(row);
  return row;
}

// timelineView draws one leg on a time axis: each flight a bar, each
// connection a gap labelled with its airport and length, the night hours
// shaded. The drawing is hidden from screen readers, which get its
// description instead (the segment list says the same in full).
export function timelineView(leg, airports) {
  const tl = timeline(leg);
  if (!tl) return null;
  const first = leg.segments[0];
  const last = leg.segments.at(-1);
  const start = localTime(first.depart);
  const connections = tl.pieces.filter((p) => p.kind === 'layover');
  const described = [
    `${first.from} ${start?.time ?? ''} to ${last.to} ${localTime(last.arrive)?.time ?? ''}`,
    ...tl.pieces.map((p) => (p.kind === 'flight' ? `${p.flightNumber} ${p.from} to ${p.to}` : `then ${connectionWords(p, airports)}`)),
    tl.nights.length ? `partly at night (${NIGHT_FROM}:00 to ${String(NIGHT_TO).padStart(2, '0')}:00 where you are)` : 'no night hours',
  ].join('; ');
  return h(
    'div',
    { class: 'timeline', role: 'img', 'aria-label': `Timeline: ${described}` },
    h(
      'div',
      { class: 'axis', 'aria-hidden': 'true' },
      tl.pieces.map((p) =>
        p.kind === 'flight'
          ? h('span', { class: 'bar', title: `${p.flightNumber} ${p.from}–${p.to}${p.airline ? `, ${p.airline}` : ''}`, style: { left: pct(p.x0), width: pct(Math.max(p.x1 - p.x0, 0.004)) } })
          : h('span', {
              class: `gap${p.overnight ? ' overnight' : ''}${p.changeOfAirport ? ' change' : ''}`,
              title: connectionWords(p, airports),
              style: { left: pct(p.x0), width: pct(p.x1 - p.x0) },
            }),
      ),
    ),
    h(
      'div',
      { class: 'nights', 'aria-hidden': 'true' },
      tl.nights.map((n) => h('span', { class: 'night', title: `night hours (${NIGHT_FROM}:00–0${NIGHT_TO}:00 where you are)`, style: { left: pct(n.x0), width: pct(n.x1 - n.x0) } })),
    ),
    fitted(
      h(
        'div',
        { class: 'ticks', 'aria-hidden': 'true' },
        h('span', { class: 'end start', text: `${first.from} ${start?.time ?? ''}` }),
        connections.map((p) =>
          h(
            'span',
            { class: `stop${p.overnight ? ' overnight' : ''}${p.changeOfAirport ? ' change' : ''}`, style: { left: pct((p.x0 + p.x1) / 2) } },
            p.airport,
            h('span', { class: 'len', text: ` ${duration(p.minutes).replace(' ', '')}` }),
            `${p.overnight ? ' ☾' : ''}${p.changeOfAirport ? ' ⇄' : ''}`,
          ),
        ),
        h('span', { class: 'end finish', text: `${last.to} ${localTime(last.arrive)?.time ?? ''}` }),
      ),
    ),
  );
}

// ---- a flight ----

// legView lists the segments of one direction with their airlines and
// airports, and the connections between them.
function legView(leg, title, r, locale) {
  const start = localTime(leg.depart)?.date;
  const items = [];
  leg.segments.forEach((s, i) => {
    if (i > 0) {
      const l = leg.layovers[i - 1];
      const minutes = l?.minutes ?? Math.round((Date.parse(s.depart) - Date.parse(leg.segments[i - 1].arrive)) / 60_000);
      const p = { airport: l?.airport || leg.segments[i - 1].to, minutes, overnight: l?.overnight, changeOfAirport: l?.changeOfAirport, departFrom: l?.departFrom };
      items.push(
        h(
          'li',
          { class: `layover${p.overnight ? ' overnight' : ''}${p.changeOfAirport ? ' change' : ''}` },
          `${duration(minutes)} connection in ${p.airport}`,
          cityOf(p.airport, r.airports) && ` (${cityOf(p.airport, r.airports)})`,
          p.overnight && h('span', { class: 'badge warn', text: 'overnight' }),
          p.changeOfAirport && h('span', { class: 'badge warn', text: `change of airport to ${p.departFrom || 'another airport'}` }),
        ),
      );
    }
    items.push(
      h(
        'li',
        { class: 'segment' },
        h('span', { class: 'fn', text: s.flightNumber }),
        h('span', { class: 'airline', text: s.airlineName }),
        h('span', { class: 'hop' }, place(s.from, r.airports), ' ', clock(s.depart, start), arrow(), place(s.to, r.airports), ' ', clock(s.arrive, start)),
      ),
    );
  });
  return h(
    'div',
    { class: 'leg' },
    title && h('h4', { text: `${title} · ${start ? formatDate(start, locale) : ''}` }),
    timelineView(leg, r.airports),
    h('ol', { class: 'segments', 'aria-label': `${title ?? 'Flight'} segments` }, items),
  );
}

// legFacts is one direction in a few words: stops, time, airlines.
function legFacts(leg) {
  const names = [...new Set(leg.segments.map((s) => s.airlineName || s.airline))];
  return [stopsText(leg.stops, leg.via), duration(leg.durationMinutes), names.join(', ')].filter(Boolean).join(' · ');
}

// headline is the title of a flight card: the local date it leaves, its
// flight numbers and the journey's first and last local times.
function headline(leg, locale) {
  const first = leg.segments[0];
  const last = leg.segments.at(-1);
  const start = localTime(leg.depart)?.date;
  return [
    start && h('span', { class: 'when', text: formatDate(start, locale, 'short') }),
    ' ',
    h('span', { class: 'numbers', text: numbersOf(leg) }),
    ' ',
    first && last ? h('span', { class: 'route' }, `${first.from} `, clock(leg.depart, null), arrow(), `${last.to} `, clock(leg.arrive, start)) : null,
  ];
}

// chooseButton labels a flight's choose button; its accessible name adds
// the flight numbers, the return's and the day (choiceName; and for a row
// of the full list its fare), so a screen reader's list of buttons tells
// them apart.
export function chooseButton(button, chosen) {
  const label = chosen ? 'Chosen' : button.dataset.label;
  button.textContent = chosen ? 'Chosen' : 'Choose this flight';
  button.setAttribute('aria-label', `${label}: ${button.dataset.flights}`);
  button.setAttribute('aria-pressed', String(chosen));
  return button;
}

// standoutBadges mark an option as the cheapest, fastest or best nonstop of
// all found, and as one of the picks.
function standoutBadges(f, r) {
  return [
    r.cheapest?.id === f.id && h('span', { class: 'badge good', text: 'cheapest of all' }),
    r.fastest?.id === f.id && h('span', { class: 'badge good', text: 'fastest of all' }),
    r.nonstop?.id === f.id && h('span', { class: 'badge good', text: 'best nonstop' }),
  ];
}

// flightCard renders one option: a pick in full (`list` "picks"), or a row
// of the full list ("all") with its timeline and facts; onSelect is called
// with the flight and the list.
export function flightCard(f, r, { locale, list, pickPosition, onSelect }) {
  const hid = `${list}-${f.id}-h`;
  const total = f.totalUSD ?? f.priceUSD;
  const each = r.trip.passengers > 1 && Number.isFinite(f.priceUSD) ? ` · ${usd(f.priceUSD, locale)} each` : '';
  const full = list === 'picks';
  return h(
    'li',
    { class: `flight ${full ? 'pick' : 'option'}`, 'data-flight-id': f.id, 'data-list': list },
    h(
      'article',
      { 'aria-labelledby': hid },
      h(
        'div',
        { class: 'flight-head' },
        full && r.ranked && Number.isFinite(f.position) && h('span', { class: 'rank' }, said('Pick '), `${f.position}`),
        h('h3', { id: hid }, headline(f, locale)),
        h('p', { class: 'price' }, h('span', { class: 'amount', text: usd(total, locale) }), h('span', { class: 'per', text: `${f.return ? 'round trip' : 'total'}${each}` })),
      ),
      h(
        'p',
        { class: 'facts' },
        f.return ? [h('span', { text: `Out: ${legFacts(f)}` }), h('span', { text: `Back: ${legFacts(f.return)}` })] : h('span', { text: legFacts(f) }),
      ),
      h('p', { class: 'badges' }, !full && pickPosition && h('span', { class: 'badge', text: r.ranked ? `pick #${pickPosition}` : `shortlist #${pickPosition}` }), standoutBadges(f, r)),
      full && f.reason && h('p', { class: 'reason', text: f.reason }),
      f.airportChanges.map((c) => h('p', { class: 'badge warn block', text: `Changes airport: ${c}` })),
      full
        ? [legView(f, f.return ? 'Outbound' : null, r, locale), f.return && legView(f.return, 'Return', r, locale)]
        : [timelineView(f, r.airports), f.return && [h('p', { class: 'leg-label', text: 'Return' }), timelineView(f.return, r.airports)]],
      h(
        'div',
        { class: 'choose' },
        chooseButton(
          h('button', {
            type: 'button',
            class: 'select',
            'aria-pressed': 'false',
            'data-flights': full ? choiceName(f, locale) : `${choiceName(f, locale)}, ${usd(total, locale)}`,
            'data-label': full ? 'Choose this flight' : 'Choose',
            onclick: () => onSelect(f, list),
          }),
          false,
        ),
        h('code', { class: 'id', text: f.id }),
      ),
    ),
  );
}

// ---- the header ----

const clockRange = (after, before, verb) => {
  if (after && before) return `${verb} between ${after} and ${before}`;
  if (after) return `${verb} after ${after}`;
  if (before) return `${verb} before ${before}`;
  return null;
};

// airlineWords names airlines by the names the result's segments give them.
function airlineWords(codes, r) {
  const names = new Map();
  for (const f of r.flights) for (const s of [...f.segments, ...(f.return?.segments ?? [])]) names.set(s.airline, s.airlineName);
  return codes.map((c) => (names.get(c) && names.get(c) !== c ? `${names.get(c)} (${c})` : c)).join(', ');
}

// tripView is the header: where, when, for whom, within which limits, and
// where the flights come from.
export function tripView(r, locale, { flexible } = {}) {
  const t = r.trip;
  const flex = flexible ?? t;
  const facts = [
    t.date && `${t.returnDate ? 'Out ' : ''}${formatDate(t.date, locale)}`,
    t.returnDate && `back ${formatDate(t.returnDate, locale)}`,
    flex.flexDays ? `± ${flex.flexDays} ${flex.flexDays === 1 ? 'day' : 'days'}${flex.returnDate ? (flex.flexIndependently ? ', each date on its own' : ', both dates together') : ''}` : null,
    flexible && !t.flexDays && 'one day of the flexible search',
    `${t.passengers} ${t.passengers === 1 ? 'passenger' : 'passengers'}`,
    t.cabin && t.cabin.replace(/_/g, ' '),
    Number.isFinite(t.maxStops) && (t.maxStops === 0 ? 'nonstop only' : `up to ${t.maxStops} ${t.maxStops === 1 ? 'stop' : 'stops'}`),
    clockRange(t.departAfter, t.departBefore, 'leaving'),
    clockRange(t.arriveAfter, t.arriveBefore, 'arriving'),
    t.airlines.length && `only ${airlineWords(t.airlines, r)}`,
    t.excludeAirlines.length && `not ${airlineWords(t.excludeAirlines, r)}`,
    Number.isFinite(t.maxPrice) && `at most ${usd(t.maxPrice, locale)} per passenger`,
  ].filter(Boolean);
  const many = (code, airports) => (airports.length > 1 || (airports.length === 1 && airports[0] !== code) ? ` (${airports.join(', ')})` : '');
  return h(
    'header',
    { class: 'trip' },
    h(
      'h1',
      {},
      `${t.origin}${many(t.origin, t.originAirports)} `,
      h('span', { 'aria-hidden': 'true', text: t.returnDate ? '⇄' : '→' }),
      said(t.returnDate ? ' to and from ' : ' to '),
      ` ${t.destination}${many(t.destination, t.destinationAirports)}`,
    ),
    h('ul', { class: 'facts', 'aria-label': 'Trip' }, facts.map((f) => h('li', { text: f }))),
    r.provider.synthetic && h('p', { class: 'badge warn block synthetic', title: r.provider.note, text: 'Synthetic sample data: not real flights or fares' }),
    h('p', { class: 'hint', text: 'Times are local to each airport.' }),
    h(
      'p',
      { class: 'legend', 'aria-hidden': 'true' },
      'Timelines: ',
      h('span', { class: 'key bar' }),
      ' flight ',
      h('span', { class: 'key gap' }),
      ' connection ',
      h('span', { class: 'key gap overnight' }),
      ' overnight or change of airport ',
      h('span', { class: 'key night' }),
      ` night hours (${NIGHT_FROM}:00–0${NIGHT_TO}:00 where you are)`,
    ),
  );
}

// ---- the fare calendar ----

// fareWords is a calendar cell in words, for its button.
const fareWords = (cell, locale) => (cell.empty ? 'nothing within your limits' : `from ${usd(cell.lowestUSD, locale)}`);

// calendarView is the fare calendar of a flexible search: each day's
// lowest fare as a coloured cell, the lowest marked, days with nothing
// within the limits empty; for a round trip whose dates move on their own,
// a grid of outbound by return day. Each day with a fare is a button that
// asks the server for that day (`onDay(date, returnDate)`); the day shown
// is pressed. Arrow keys move between days.
export function calendarView(cal, { locale, shown, busy, onDay }) {
  if (!cal?.days.length) return null;
  const grid = cal.independent && cal.days.some((d) => d.returns.length);
  const cells = grid ? cal.days.flatMap((d) => d.returns) : cal.days;
  const range = fareRange(cells);
  const cheapest = range && cells.find((c) => !c.empty && c.lowestUSD === range.lowest);
  const cell = (c, date, returnDate, words) => {
    if (c.empty) return h('span', { class: 'day empty', role: 'img', 'aria-label': words }, h('span', { 'aria-hidden': 'true', class: 'fare', text: '—' }));
    const isShown = Boolean(shown && shown.date === date && (!returnDate || shown.returnDate === returnDate));
    const lowest = c === cheapest;
    return h(
      'button',
      {
        type: 'button',
        class: `day heat-${heatLevel(c.lowestUSD, range.lowest, range.highest)}${lowest ? ' lowest' : ''}`,
        'data-date': date,
        'data-return': returnDate,
        'aria-pressed': String(isShown),
        'aria-label': `${words}${lowest ? ', the lowest' : ''}`,
        onclick: () => onDay(date, returnDate),
      },
      h('span', { class: 'fare', 'aria-hidden': 'true', text: usd(c.lowestUSD, locale) }),
      lowest && h('span', { class: 'star', 'aria-hidden': 'true', text: '★ lowest' }),
    );
  };
  let body;
  if (grid) {
    body = h(
      'div',
      { class: 'grid-scroll' },
      h(
        'table',
        { class: 'grid', onkeydown: arrows },
        h('caption', { class: 'vh', text: 'Lowest round-trip fare per passenger: outbound days down, return days across' }),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'Out ↓ · back →' }), cal.days[0].returns.map((r) => h('th', { scope: 'col', text: formatDate(r.date, locale, 'short') })))),
        h(
          'tbody',
          {},
          cal.days.map((d) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row', text: formatDate(d.date, locale, 'short') }),
              d.returns.map((c) => h('td', {}, cell(c, d.date, c.date, `Out ${formatDate(d.date, locale)}, back ${formatDate(c.date, locale)}: ${fareWords(c, locale)}`))),
            ),
          ),
        ),
      ),
    );
  } else {
    body = h(
      'ol',
      { class: 'strip', onkeydown: arrows },
      cal.days.map((d) => {
        const back = cal.returnDateOf?.(d.date);
        const words = `${formatDate(d.date, locale)}${back ? `, back ${formatDate(back, locale)}` : ''}: ${fareWords(d, locale)}`;
        return h(
          'li',
          {},
          h('span', { class: 'date', 'aria-hidden': 'true', text: formatDate(d.date, locale, 'short') }),
          back && h('span', { class: 'back', 'aria-hidden': 'true', text: `back ${formatDate(back, locale, 'short')}` }),
          cell(d, d.date, back, words),
        );
      }),
    );
  }
  return h(
    'section',
    { class: 'calendar', 'aria-labelledby': 'calendar-h', 'aria-busy': busy ? 'true' : undefined },
    h('h2', { id: 'calendar-h', text: grid ? 'Lowest fare by dates' : 'Lowest fare by day' }),
    h('p', { class: 'hint', text: `Per passenger${cal.roundTrip ? ', both ways' : ''}. Choose a day to see its flights.` }),
    body,
    h(
      'p',
      { class: 'legend', 'aria-hidden': 'true' },
      'cheaper ',
      Array.from({ length: HEAT_LEVELS }, (_, i) => h('span', { class: `swatch heat-${i}` })),
      ' dearer · ★ the lowest · — nothing within your limits',
    ),
  );
}

// arrows moves focus between the calendar's day buttons: left and right
// along a row, up and down between the rows of the grid, Home and End to a
// row's ends; empty days are passed over.
function arrows(e) {
  const from = e.target.closest?.('button.day');
  if (!from) return;
  const table = from.closest('table');
  const rows = table ? [...table.tBodies[0].rows].map((tr) => [...tr.cells].slice(1)) : [[...e.currentTarget.children]];
  const button = (ri, ci) => rows[ri]?.[ci]?.querySelector('button.day');
  const r = rows.findIndex((row) => row.some((c) => c.contains(from)));
  const c = rows[r].findIndex((x) => x.contains(from));
  const walk = (ri, ci, dr, dc) => {
    for (ri += dr, ci += dc; rows[ri] && ci >= 0 && ci < rows[ri].length; ri += dr, ci += dc) {
      if (button(ri, ci)) return button(ri, ci);
    }
    return null;
  };
  const target = {
    ArrowLeft: () => walk(r, c, 0, -1),
    ArrowRight: () => walk(r, c, 0, 1),
    ArrowUp: () => walk(r, c, -1, 0),
    ArrowDown: () => walk(r, c, 1, 0),
    Home: () => walk(r, -1, 0, 1),
    End: () => walk(r, rows[r].length, 0, -1),
  }[e.key]?.();
  if (target) {
    e.preventDefault();
    target.focus();
  }
}

// ---- the picks ----

// picksHeading says what the list is (ranked picks, a shortlist) with
// counts that agree with the server's summary.
export function picksHeading(r) {
  const what = r.trip.returnDate ? 'round trips' : 'flights';
  const among = Number.isFinite(r.found) ? `${r.found} flights found; the ranking chose among ${r.candidates ?? r.flights.length} ${what} within your limits.` : '';
  if (r.ranked) {
    return [h('h2', { id: 'picks-h', text: `Best ${r.flights.length} of ${r.candidates ?? r.flights.length} ${what}` }), among && h('p', { class: 'ranked-by', text: among })];
  }
  const used = r.attempts.find((a) => a.step === r.method && a.outcome === 'used');
  return [
    h('h2', { id: 'picks-h', class: 'unranked' }, `Shortlist: ${r.flights.length} of ${r.candidates ?? r.flights.length} ${what} `, h('span', { class: 'badge warn', text: 'not ranked — choose with the user' })),
    h('p', { class: 'ranked-by', text: `Not ranked${used?.reason ? `: ${used.reason}` : ''}. Compare them and choose with your assistant.` }),
  ];
}

// emptyView is a search that left nothing within the limits: how many
// flights were found, and what dropping each filter would give, each with a
// button to search without it.
export function emptyView(r, { onRelax }) {
  return [
    h('h2', { id: 'picks-h', text: 'Nothing within your limits' }),
    h('p', { class: 'ranked-by', text: r.found ? `${r.found} flights found; none fits the trip's limits.` : 'The search found no flights for this trip.' }),
    r.relaxed.length > 0 &&
      h(
        'ul',
        { class: 'relaxed', 'aria-label': 'What each limit costs' },
        r.relaxed.map((x) =>
          h(
            'li',
            {},
            h('span', { text: `Without ${x.filter} (${x.limit}): ${x.options} ${x.options === 1 ? 'option' : 'options'}${x.gives ? `; ${x.gives}` : ''}. ` }),
            onRelax && h('button', { type: 'button', class: 'relax', onclick: () => onRelax(x) }, `Search without ${x.filter}`),
          ),
        ),
      ),
  ];
}

// partyFare is an option's fare as the cards give it: for a party, the
// total and the fare each; for one passenger, the fare.
function partyFare(o, passengers, locale) {
  if (!(passengers > 1) || !Number.isFinite(o.totalUSD)) return usd(o.priceUSD, locale);
  return `${usd(o.totalUSD, locale)} total (${usd(o.priceUSD, locale)} each)`;
}

// standoutsView names the cheapest, the fastest and the best nonstop
// option of all, and where they are.
export function standoutsView(r, locale) {
  // One line per option, naming all it is (the fastest is often the nonstop).
  const items = [];
  for (const [label, o] of [
    ['the cheapest of all', r.cheapest],
    ['the fastest of all', r.fastest],
    ['the best nonstop', r.nonstop],
  ]) {
    if (!o) continue;
    const same = items.find(([, x]) => x.id === o.id);
    if (same) same[0] += ` and ${label}`;
    else items.push([label, o]);
  }
  if (!items.length) return null;
  return h(
    'ul',
    { class: 'standouts', 'aria-label': 'What stands out' },
    items.map(([label, o]) =>
      h(
        'li',
        {},
        h('strong', { text: `${label.charAt(0).toUpperCase()}${label.slice(1)}: ` }),
        `${partyFare(o, r.trip.passengers, locale)} · ${stopsText(o.stops)} · ${duration(o.durationMinutes)}`,
        o.position ? ` (${r.ranked ? 'pick' : 'shortlist'} #${o.position})` : ' (in the full list below)',
      ),
    ),
  );
}

// ---- the ladder ----

// ladderView is findBestFlight's ladder behind a disclosure: one line that
// says who ranked, and each rung tried (what came of it and the server's
// one-line why) one click away.
export function ladderView(r, open) {
  return h(
    'details',
    { class: 'ladder', open: open || undefined },
    h('summary', {}, h('span', { class: 'line', text: ladderLine(r) }), h('span', { class: 'more', text: ' · how this was decided' })),
    h('p', { class: 'hint', text: 'findBestFlight tries each way of ranking in turn and says why it moved on.' }),
    h(
      'ol',
      {},
      r.attempts.map((a) => {
        return h(
          'li',
          { class: `attempt ${a.outcome}` },
          h('span', { class: `badge ${a.outcome}`, text: a.outcome }),
          h('span', { class: 'step' }, h('strong', { text: capitalized(stepLabel(a.step)) }), ' ', h('code', { text: a.step })),
          h('span', { class: 'why', text: a.reason }),
          a.why && h('code', { class: 'code', title: 'reason code', text: a.why }),
          Number.isFinite(a.elapsedMs) && h('span', { class: 'ms', text: `${a.elapsedMs} ms` }),
        );
      }),
    ),
    r.summary && h('p', { class: 'summary', text: r.summary }),
  );
}

const capitalized = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// ---- every option ----

// AIRLINE_CHIPS is how many airline chips show before "All N airlines":
// the airlines in the most options.
const AIRLINE_CHIPS = 6;

// chip is a toggle button of the options toolbar.
const chip = (id, label, pressed, onclick, extra = {}) =>
  h('button', { type: 'button', id, class: 'chip', 'aria-pressed': String(Boolean(pressed)), onclick, ...extra }, label);

// optionsView is every option of the search, sorted and filtered in the
// page: sort chips (one pressed), filter chips (any), the list (the first
// `limit` rows, or all), and a line saying how many are shown.
export function optionsView(o, r, { locale, airlines, onSort, onFilter, onShowAll, onMoreAirlines, onSelect }) {
  const pickPos = new Map(r.flights.map((f) => [f.id, f.position]));
  const title = h('h2', { id: 'all-h', text: o.status !== 'loaded' ? 'All options' : o.list.length === 1 ? 'The one option' : `All ${o.list.length} options` });
  if (o.status !== 'loaded') {
    return h(
      'section',
      { class: 'all', 'aria-labelledby': 'all-h', 'aria-busy': o.status === 'loading' ? 'true' : undefined },
      title,
      h('p', { class: o.status === 'failed' ? 'error' : 'hint', role: o.status === 'failed' ? 'alert' : undefined, text: o.status === 'failed' ? `The other options could not be shown. ${o.error}` : 'Asking the server for every option…' }),
    );
  }
  const shown = o.visible.slice(0, o.showAll ? undefined : o.limit);
  const f = o.filter;
  return h(
    'section',
    { class: 'all', 'aria-labelledby': 'all-h' },
    title,
    h('p', {
      class: 'hint',
      text: `The ${Math.min(r.candidates ?? o.list.length, o.list.length)} options the ranking chose among${o.list.length > (r.candidates ?? o.list.length) ? ', then the cheapest, fastest or nonstop option of all beyond them' : ''}. Sort and filter them here; the picks above stay as ranked.`,
    }),
    h(
      'div',
      { class: 'toolbar' },
      h('div', { class: 'chips', role: 'group', 'aria-label': 'Sort by' }, h('span', { class: 'chips-label', 'aria-hidden': 'true', text: 'Sort' }), SORTS.map((s) => chip(`sort-${s.key}`, s.label, o.sort === s.key, () => onSort(s.key), { title: s.words }))),
      h(
        'div',
        { class: 'chips', role: 'group', 'aria-label': 'Filter' },
        h('span', { class: 'chips-label', 'aria-hidden': 'true', text: 'Filter' }),
        chip('filter-nonstop', 'Nonstop', f.nonstop, () => onFilter('nonstop')),
        TIMES.map((t) => chip(`filter-time-${t.key}`, t.label, f.times.has(t.key), () => onFilter('time', t.key), { title: t.words, 'aria-label': `${t.label}, ${t.words}` })),
      ),
      airlines.length > 1 &&
        h(
          'div',
          { class: 'chips', role: 'group', 'aria-label': 'Airlines (only these)' },
          h('span', { class: 'chips-label', 'aria-hidden': 'true', text: 'Airlines' }),
          airlines
            .filter((a, i) => o.allAirlines || i < AIRLINE_CHIPS || f.airlines.has(a.code))
            .map((a) => chip(`filter-airline-${a.code}`, a.name, f.airlines.has(a.code), () => onFilter('airline', a.code), { title: `${a.code}: in ${a.count} options` })),
          airlines.length > AIRLINE_CHIPS &&
            h(
              'button',
              { type: 'button', id: 'more-airlines', class: 'chip more-chips', 'aria-expanded': String(Boolean(o.allAirlines)), onclick: onMoreAirlines },
              o.allAirlines ? 'Fewer airlines' : `All ${airlines.length} airlines`,
            ),
        ),
    ),
    h('p', { class: 'count', id: 'all-count', text: countWords(o) }),
    shown.length
      ? h('ol', { class: 'flights options', 'aria-labelledby': 'all-h', 'aria-describedby': 'all-count' }, shown.map((x) => flightCard(x, r, { locale, list: 'all', pickPosition: pickPos.get(x.id), onSelect })))
      : h('p', { class: 'notice', text: 'No option passes these filters. Turn one off to see more.' }),
    o.visible.length > o.limit && h('button', { type: 'button', id: 'show-all', class: 'more', 'aria-expanded': String(o.showAll), onclick: onShowAll }, o.showAll ? `Show the first ${o.limit}` : `Show all ${o.visible.length}`),
  );
}

// countWords says how many options the list shows, and in which order.
export function countWords(o) {
  const sort = SORTS.find((s) => s.key === o.sort) ?? SORTS[0];
  const shown = o.showAll ? o.visible.length : Math.min(o.limit, o.visible.length);
  const options = (n) => `${n} ${n === 1 ? 'option' : 'options'}`;
  if (o.list.length === 1) return `Showing the one option.`;
  const of = o.visible.length === o.list.length ? options(o.list.length) : `${o.visible.length} of ${options(o.list.length)} (filtered)`;
  return `Showing ${shown === o.visible.length ? 'all' : `${shown} of`} ${of}, ${sort.words}.`;
}


// ---- holding and saving ----

// holdWords says what a hold costs. bookFlight holds one passenger, the one
// named, at the fare per passenger, so for a party it says that, and what
// the party's fare is, rather than promise the party's total.
function holdWords(f, passengers, locale) {
  if (!(passengers > 1)) return `${usd(f.totalUSD ?? f.priceUSD, locale)} for 1 passenger.`;
  const all = Number.isFinite(f.totalUSD) ? `; ${usd(f.totalUSD, locale)} for all ${passengers}` : '';
  return `It holds one passenger, the one named below, at ${usd(f.priceUSD, locale)} (the fare per passenger${all}).`;
}

// confirmView is the explicit confirmation: the view itself asks, so the
// call carries confirm: true and the name the user typed. It holds on the
// button's click and on Enter in the name, never through the form's
// submission: the spec's minimum sandbox (allow-scripts allow-same-origin)
// has no allow-forms, and there a submission is blocked before any submit
// event fires, so a form-driven hold would do nothing.
export function confirmView(state, handlers) {
  const f = state.selected;
  const busy = state.phase === 'booking';
  const start = localTime(f.depart)?.date;
  return h(
    'section',
    { class: 'action', 'aria-labelledby': 'confirm-h' },
    h('h4', { id: 'confirm-h', tabindex: '-1', text: `Hold ${numbersOf(f)}${start ? ` on ${formatDate(start, state.locale)}` : ''}?` }),
    h('p', { class: 'hint', text: `A simulation: nothing is charged or sent. ${holdWords(f, state.result.trip.passengers, state.locale)}` }),
    h(
      'form',
      { novalidate: true, onsubmit: (e) => e.preventDefault(), 'aria-busy': busy ? 'true' : undefined },
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
          onkeydown: (e) => {
            if (e.key !== 'Enter' || e.isComposing) return;
            e.preventDefault(); // no implicit submission: it is blocked without allow-forms
            handlers.onHold(e);
          },
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
        h('button', { type: 'button', id: 'hold', class: 'primary', disabled: busy, onclick: handlers.onHold }, busy ? 'Holding…' : 'Hold this flight (simulation)'),
        h('button', { type: 'button', id: 'cancel', disabled: busy, onclick: handlers.onCancel }, 'Cancel'),
      ),
      state.error && h('div', { class: 'error', role: 'alert' }, h('strong', { text: 'Not held. ' }), state.error),
    ),
  );
}

// heldView lists the holds made in this view on results no longer shown
// (the user held a flight, then turned to another day), so their
// references stay on the page.
export function heldView(holds, locale) {
  if (!holds.length) return null;
  return h(
    'section',
    { class: 'held', 'aria-labelledby': 'held-h' },
    h('h2', { id: 'held-h', text: holds.length === 1 ? 'Held in this view (simulation)' : `${holds.length} flights held in this view (simulation)` }),
    h(
      'ul',
      {},
      holds.map(({ flight: f, booking: b, saved }) => {
        const start = localTime(f.depart)?.date;
        return h(
          'li',
          {},
          h('code', { class: 'ref', text: b.reference }),
          ` ${numbersOf(f)}${f.return ? `, back ${numbersOf(f.return)}` : ''}${start ? ` on ${formatDate(start, locale)}` : ''} · ${b.passengerName} · ${usd(b.priceUSD, locale)}`,
          saved && ` · saved: ${saved.path ?? saved.uri ?? ''}`,
        );
      }),
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
      h('dt', { text: 'Fare' }),
      h('dd', { text: `${usd(b.priceUSD, state.locale)} for this passenger` }),
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
