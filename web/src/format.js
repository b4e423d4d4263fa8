// Pure helpers of the results view: reading the findBestFlight result the
// host hands over and turning its values into words. No DOM here, so
// test/format.test.mjs runs them in Node.

// The steps' labels come from the server's registry of steps (steps.js is
// written from tools/steps.go). A step the view does not know (a rung a
// newer server added) is shown by its identifier.
import { STEP_LABELS } from './steps.js';

// own is what `table` holds under `name` itself, never what it inherits: a
// name from the result (a step, an airport code) may be toString,
// constructor or __proto__, which a plain object's lookup answers with one
// of Object's functions.
export const own = (table, name) => (table && typeof name === 'string' && Object.hasOwn(table, name) ? table[name] : undefined);

// stepLabel names a rung for people; the identifier stays visible beside it.
export function stepLabel(step) {
  return own(STEP_LABELS, step) ?? String(step || 'unknown step');
}

// An ISO 8601 time as the server writes it: the airport's local wall time
// and its UTC offset (e.g. 2026-12-31T22:25:00-05:00, or Z for +00:00).
const ISO_LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

// localTime splits an ISO time into the airport's local date and clock, as
// written, without converting to the viewer's zone: a flight leaves at the
// time printed on the ticket, wherever the user is. Null when not a time.
export function localTime(iso) {
  const m = typeof iso === 'string' ? ISO_LOCAL.exec(iso) : null;
  if (!m) return null;
  const [, y, mo, d, h, mi, zone] = m;
  return { date: `${y}-${mo}-${d}`, time: `${h}:${mi}`, offset: zone === 'Z' ? '+00:00' : zone };
}

// dayOffset is how many calendar days `to` (YYYY-MM-DD) lies after `from`:
// the "+1" beside an arrival the next local day.
export function dayOffset(from, to) {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(a) || Number.isNaN(b)) return 0;
  return Math.round((b - a) / 86_400_000);
}

// dayMark is the suffix for an arrival on another local day than the
// departure: "+1", "+2", "-1" (west across the date line), or "".
export function dayMark(fromDate, toDate) {
  const n = dayOffset(fromDate, toDate);
  if (n === 0) return '';
  return n > 0 ? `+${n}` : String(n);
}

// viewLocale is the host's locale (hostContext.locale) as Intl takes it:
// a BCP 47 tag, or a POSIX name such as en_US or de_DE.UTF-8 mended into
// one; undefined (the browser's own) when it is neither. The spec asks for
// BCP 47, but a host may pass the system's name on, and one Intl formatter
// given a tag it cannot parse throws a RangeError on every call, which
// would leave the view unable to show any result.
export function viewLocale(v) {
  if (typeof v !== 'string' || !v.trim()) return undefined;
  for (const tag of [v.trim(), v.trim().split(/[.@]/)[0].replace(/_/g, '-')]) {
    try {
      const [canonical] = Intl.getCanonicalLocales(tag);
      new Intl.NumberFormat(canonical);
      new Intl.DateTimeFormat(canonical);
      return canonical;
    } catch {
      // not a tag Intl takes; try the next spelling
    }
  }
  return undefined;
}

// formatDate writes a YYYY-MM-DD calendar date, e.g. "Thu, Dec 31, 2026".
// The date is a calendar day, not an instant, so it is formatted in UTC.
export function formatDate(ymd, locale, style = 'long') {
  const t = Date.parse(`${ymd}T00:00:00Z`);
  if (Number.isNaN(t)) return String(ymd ?? '');
  const options =
    style === 'short'
      ? { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' }
      : { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' };
  return new Intl.DateTimeFormat(locale, options).format(t);
}

// duration writes minutes as "7h 05m".
export function duration(minutes) {
  if (!Number.isFinite(minutes) || minutes < 0) return '';
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes % 60);
  return `${h}h ${String(m).padStart(2, '0')}m`;
}

// usd writes whole dollars, e.g. "$1,234".
export function usd(amount, locale) {
  if (!Number.isFinite(amount)) return '';
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(amount);
}

// stopsText says how a journey connects: "nonstop", "1 stop via MAN".
export function stopsText(stops, via = []) {
  if (!stops) return 'nonstop';
  const where = via.length ? ` via ${via.join(', ')}` : '';
  return `${stops} ${stops === 1 ? 'stop' : 'stops'}${where}`;
}

// SEATS are bookFlight's seat preferences, in its words.
export const SEATS = [
  { value: 'no_preference', label: 'No preference' },
  { value: 'window', label: 'Window' },
  { value: 'aisle', label: 'Aisle' },
  { value: 'middle', label: 'Middle' },
];

// The passenger name bounds bookFlight's input schema declares; the server
// checks the rest (which characters), and the view shows what it says.
export const NAME_MIN = 2;
export const NAME_MAX = 80;

// checkPassengerName returns the name with its white space folded, or a
// problem in words when it cannot be right.
export function checkPassengerName(raw) {
  const name = String(raw ?? '').split(/\s+/).filter(Boolean).join(' ');
  const n = [...name].length;
  if (n === 0) return { problem: 'Enter the passenger name as it appears on their ID.' };
  if (n < NAME_MIN || n > NAME_MAX) return { problem: `The name must be ${NAME_MIN} to ${NAME_MAX} characters.` };
  return { name };
}

const str = (v) => (typeof v === 'string' ? v : undefined);
const num = (v) => (Number.isFinite(v) ? v : undefined);
const strings = (v) => (Array.isArray(v) ? v.filter((s) => typeof s === 'string') : []);
const objects = (v) => (Array.isArray(v) ? v.filter((o) => o && typeof o === 'object') : []);

function readSegment(s) {
  return {
    flightNumber: str(s.flightNumber) ?? '',
    airline: str(s.airline) ?? '',
    airlineName: str(s.airlineName) ?? str(s.airline) ?? '',
    from: str(s.from) ?? '',
    to: str(s.to) ?? '',
    depart: str(s.depart),
    arrive: str(s.arrive),
  };
}

function readLayover(l) {
  return {
    airport: str(l.airport) ?? '',
    minutes: num(l.minutes),
    overnight: l.overnight === true,
    changeOfAirport: l.changeOfAirport === true,
    departFrom: str(l.departFrom),
  };
}

// readLeg reads one direction of a journey: an outbound flight or its return.
function readLeg(f) {
  return {
    id: str(f.id),
    depart: str(f.depart),
    arrive: str(f.arrive),
    durationMinutes: num(f.durationMinutes),
    stops: num(f.stops) ?? 0,
    via: strings(f.via),
    airlines: strings(f.airlines),
    segments: objects(f.segments).map(readSegment),
    layovers: objects(f.layovers).map(readLayover),
  };
}

function readFlight(f) {
  return {
    ...readLeg(f),
    position: num(f.position),
    reason: str(f.reason) ?? '',
    priceUSD: num(f.priceUSD),
    totalUSD: num(f.totalUSD),
    return: f.return && typeof f.return === 'object' ? readLeg(f.return) : undefined,
    airportChanges: strings(f.airportChanges),
  };
}

function readAttempt(a) {
  return {
    // The field was `tier` before it became `step`; either is read.
    step: str(a.step) ?? str(a.tier) ?? '',
    outcome: ['used', 'skipped', 'failed'].includes(a.outcome) ? a.outcome : 'unknown',
    reason: str(a.reason) ?? '',
    why: str(a.why),
    elapsedMs: num(a.elapsedMs),
  };
}

function readOption(o) {
  if (!o || typeof o !== 'object' || !str(o.id)) return undefined;
  return { id: o.id, priceUSD: num(o.priceUSD), totalUSD: num(o.totalUSD), durationMinutes: num(o.durationMinutes), stops: num(o.stops), position: num(o.position) };
}

function readDay(d) {
  return { date: str(d.date), lowestUSD: num(d.lowestUSD), bestId: str(d.bestId) || undefined };
}

// readCalendar reads the days of a flexible search; a day is empty (no
// fare) when nothing fit: the server writes lowestUSD 0 and no bestId.
function readCalendar(v) {
  return objects(v)
    .map((d) => ({ ...readDay(d), returns: objects(d.returns).map(readDay).filter((r) => r.date) }))
    .filter((d) => d.date)
    .map((d) => ({ ...d, empty: !d.bestId || !(d.lowestUSD > 0), returns: d.returns.map((r) => ({ ...r, empty: !r.bestId || !(r.lowestUSD > 0) })) }));
}

function readTrip(t) {
  return {
    origin: str(t.origin) ?? '?',
    destination: str(t.destination) ?? '?',
    originAirports: strings(t.originAirports),
    destinationAirports: strings(t.destinationAirports),
    date: str(t.date),
    returnDate: str(t.returnDate),
    flexDays: num(t.flexDays),
    flexIndependently: t.flexIndependently === true,
    passengers: num(t.passengers) ?? 1,
    cabin: str(t.cabin),
    maxStops: num(t.maxStops),
    departAfter: str(t.departAfter),
    departBefore: str(t.departBefore),
    arriveAfter: str(t.arriveAfter),
    arriveBefore: str(t.arriveBefore),
    airlines: strings(t.airlines),
    excludeAirlines: strings(t.excludeAirlines),
    maxPrice: num(t.maxPrice),
  };
}

const readAirports = (v) => (v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([k, n]) => typeof n === 'string' && /^[A-Z0-9]{3}$/.test(k))) : {});

// readResult checks the findBestFlight structuredContent the host passed
// and returns it with every field the view uses in its expected type, or
// `{ problem }` saying what is missing. It comes through the host from the
// server, so it is read, not trusted: a missing field shows as absent,
// never as a crash.
export function readResult(sc) {
  if (!sc || typeof sc !== 'object') return { problem: 'the tool result carries no structured content' };
  if (!sc.trip || typeof sc.trip !== 'object') return { problem: 'the tool result names no trip' };
  if (!Array.isArray(sc.flights)) return { problem: 'the tool result lists no flights' };
  const flights = objects(sc.flights).map(readFlight);
  return {
    result: {
      trip: readTrip(sc.trip),
      method: str(sc.method) ?? '',
      model: str(sc.model),
      ranked: sc.ranked === true,
      flights: flights.filter((f) => f.id),
      unreadable: flights.filter((f) => !f.id).length,
      found: num(sc.found),
      candidates: num(sc.candidates),
      attempts: objects(sc.attempts).map(readAttempt),
      summary: str(sc.summary) ?? '',
      calendar: readCalendar(sc.calendar),
      cheapest: readOption(sc.cheapest),
      fastest: readOption(sc.fastest),
      nonstop: readOption(sc.nonstop),
      relaxed: objects(sc.relaxed).map((x) => ({ filter: str(x.filter) ?? '', limit: str(x.limit) ?? '', options: num(x.options) ?? 0, gives: str(x.gives) ?? '' })),
      airports: readAirports(sc.airports),
      provider: { name: str(sc.provider?.name) ?? '', synthetic: sc.provider?.synthetic === true, note: str(sc.provider?.note) ?? '' },
    },
  };
}

// readOptions reads listFlightOptions' structuredContent: every option of
// the search, and the calendar with a round trip's return days.
export function readOptions(sc) {
  if (!sc || typeof sc !== 'object' || !Array.isArray(sc.options)) return { problem: 'listFlightOptions answered without a list of options' };
  return {
    options: {
      options: objects(sc.options).map(readFlight).filter((f) => f.id),
      calendar: readCalendar(sc.calendar),
      airports: readAirports(sc.airports),
      found: num(sc.found),
    },
  };
}

// textOf joins the text blocks of a tool result: what a tool error says.
export function textOf(result) {
  return objects(result?.content)
    .filter((c) => c.type === 'text' && typeof c.text === 'string')
    .map((c) => c.text)
    .join('\n')
    .trim();
}

// flightLine is a one-line description of a flight for the model and for
// the confirmation: numbers, route, local times, stops and price.
export function flightLine(f) {
  const first = f.segments[0];
  const last = f.segments.at(-1);
  const dep = localTime(f.depart);
  const arr = localTime(f.arrive);
  const numbers = f.segments.map((s) => s.flightNumber).join('+') || f.id;
  const route = first && last ? `${first.from} ${dep?.time ?? ''} → ${last.to} ${arr?.time ?? ''}${dep && arr ? dayMark(dep.date, arr.date) : ''}` : '';
  const day = dep ? ` on ${dep.date}` : '';
  return `${numbers}, ${route}${day}, ${stopsText(f.stops, f.via)}`;
}

// modelContext is what the view tells the host's model once the user has
// acted: the flight chosen, the simulated hold and the saved file, each
// once it happened. Text for the model (in en-US, whatever the user's
// locale), structured content beside it.
export function modelContext({ flight, booking, saved }) {
  const lines = [`In the flight results view the user chose ${flight.id} (${flightLine(flight)}; ${usd(flight.totalUSD ?? flight.priceUSD, 'en-US')}).`];
  if (flight.return) lines.push(`Return: ${flightLine(flight.return)}.`);
  if (booking) {
    lines.push(
      `They held it (a simulation: nothing was charged or sent): reference ${booking.reference}, passenger ${booking.passengerName}, seat ${booking.seat}.`,
    );
  }
  if (saved) lines.push(`The itinerary was saved as ${saved.format}: ${saved.uri ?? saved.path}.`);
  return {
    content: [{ type: 'text', text: lines.join(' ') }],
    structuredContent: {
      chosenFlightId: flight.id,
      ...(booking && { booking: { reference: booking.reference, passengerName: booking.passengerName, seat: booking.seat, priceUSD: booking.priceUSD } }),
      ...(saved && { itinerary: { format: saved.format, uri: saved.uri, path: saved.path } }),
    },
  };
}

// HELD_IN_CONTEXT is how many earlier holds each model-context update
// repeats, the latest first kept: every update carries them again, so
// without a bound a user who held many would make every update, and the
// model's next turn, as long as all of them.
export const HELD_IN_CONTEXT = 10;

// addHold records a hold made in the view: the same booking always gets
// the same reference, so a hold made again (another day, then back) takes
// the place of the first, keeping the file it was saved to until it is
// saved again, rather than being listed twice.
export function addHold(holds, hold) {
  const i = holds.findIndex((x) => x.booking.reference === hold.booking.reference);
  if (i < 0) return [...holds, hold];
  return [...holds.slice(0, i), ...holds.slice(i + 1), { ...hold, saved: hold.saved ?? holds[i].saved }];
}

// withHolds adds the holds made earlier in the view (oldest first) to a
// model-context update: each ui/update-model-context replaces the view's
// previous one, so what the user held must be said again in every later
// update, or the model loses it. At most HELD_IN_CONTEXT are repeated, the
// latest; the rest are counted.
export function withHolds(ctx, holds) {
  if (!holds.length) return ctx;
  const kept = holds.slice(-HELD_IN_CONTEXT).map(modelContext);
  const left = holds.length - kept.length;
  const texts = kept.map((c) => c.content[0].text);
  if (left > 0) texts.unshift(`(The user held ${left} more ${left === 1 ? 'flight' : 'flights'} earlier in this view, not repeated here.)`);
  return {
    content: [{ type: 'text', text: [...texts, ctx.content[0].text].join(' ') }],
    structuredContent: { ...ctx.structuredContent, held: kept.map((c) => c.structuredContent), ...(left > 0 && { heldNotRepeated: left }) },
  };
}

// cityOf is the city of an airport from the result's airports map
// ("Heathrow Airport, London, GB" -> "London"); '' when unknown.
export function cityOf(code, airports) {
  const parts = String(own(airports, code) ?? '').split(', ');
  return parts.length >= 3 ? parts.at(-2) : '';
}

// ladderLine is the ladder in one line: who ranked, and why not the
// client's model when it did not.
export function ladderLine(r) {
  if (r.candidates === 0 || (!r.flights.length && r.found >= 0)) {
    return `Nothing to rank: none of the ${r.found ?? 0} flights found fits the trip's limits`;
  }
  if (!r.ranked) return 'Not ranked: a shortlist for you and your assistant to choose from';
  const model = r.model ? ` (${r.model})` : '';
  switch (r.method) {
    case 'client_sampling':
      return `Ranked by your assistant's model${model}`;
    case 'server_llm':
      return `Ranked by the server's LLM${model}`;
    case 'deterministic': {
      const asked = r.attempts.find((a) => a.step === 'client_sampling');
      const why = asked && asked.outcome !== 'used' && asked.reason ? `: ${asked.reason}` : '';
      return `Ranked by the deterministic score (price, stops and time) — your assistant could not rank${why}`;
    }
    default:
      return `Ranked by ${stepLabel(r.method)}${model}`;
  }
}

// tripArgs are findBestFlight's arguments for the trip a result echoes,
// with `change` applied (a key set to undefined is dropped): what the view
// sends to ask for another day, or for the trip without a filter.
export function tripArgs(trip, change = {}) {
  const t = { ...trip, ...change };
  const args = {
    origin: t.origin,
    destination: t.destination,
    date: t.date,
    returnDate: t.returnDate,
    flexDays: t.flexDays || undefined,
    flexIndependently: t.flexDays && t.returnDate && t.flexIndependently ? true : undefined,
    passengers: t.passengers,
    cabin: t.cabin,
    maxStops: t.maxStops,
    departAfter: t.departAfter,
    departBefore: t.departBefore,
    arriveAfter: t.arriveAfter,
    arriveBefore: t.arriveBefore,
    airlines: t.airlines?.length ? t.airlines : undefined,
    excludeAirlines: t.excludeAirlines?.length ? t.excludeAirlines : undefined,
    maxPrice: t.maxPrice,
  };
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

// withoutFilter is the change to a trip that drops one of findBestFlight's
// filters, as a result's `relaxed` names them.
export function withoutFilter(filter) {
  const names = filter.split('/').map((s) => s.trim());
  const change = {};
  for (const n of names) change[n] = n === 'airlines' || n === 'excludeAirlines' ? [] : undefined;
  if (names.includes('maxStops')) change.maxStops = undefined;
  return change;
}

// addDays moves a YYYY-MM-DD date by n days.
export function addDays(ymd, n) {
  const t = Date.parse(`${ymd}T00:00:00Z`);
  return Number.isNaN(t) ? ymd : new Date(t + n * 86_400_000).toISOString().slice(0, 10);
}
