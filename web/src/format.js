// Pure helpers of the results view: reading the findBestFlight result the
// host hands over and turning its values into words. No DOM here, so
// test/format.test.mjs runs them in Node.

// The rungs of findBestFlight's ladder, in the words the view shows. A step
// the view does not know (a rung added later) is shown by its identifier.
const STEP_LABELS = {
  client_sampling: "your assistant's model (sampling)",
  server_llm: "the server's LLM",
  deterministic: 'deterministic score',
  candidates: 'shortlist for your assistant',
};

// stepLabel names a rung for people; the identifier stays visible beside it.
export function stepLabel(step) {
  return STEP_LABELS[step] ?? String(step || 'unknown step');
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
    from: str(s.from) ?? '',
    to: str(s.to) ?? '',
    depart: str(s.depart),
    arrive: str(s.arrive),
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

// readResult checks the findBestFlight structuredContent the host passed
// and returns it with every field the view uses in its expected type, or
// `{ problem }` saying what is missing. It comes through the host from the
// server, so it is read, not trusted: a missing field shows as absent,
// never as a crash.
export function readResult(sc) {
  if (!sc || typeof sc !== 'object') return { problem: 'the tool result carries no structured content' };
  if (!sc.trip || typeof sc.trip !== 'object') return { problem: 'the tool result names no trip' };
  if (!Array.isArray(sc.flights)) return { problem: 'the tool result lists no flights' };
  const t = sc.trip;
  const flights = objects(sc.flights).map(readFlight);
  return {
    result: {
      trip: {
        origin: str(t.origin) ?? '?',
        destination: str(t.destination) ?? '?',
        date: str(t.date),
        returnDate: str(t.returnDate),
        flexDays: num(t.flexDays),
        passengers: num(t.passengers) ?? 1,
        cabin: str(t.cabin),
        maxStops: num(t.maxStops),
        departAfter: str(t.departAfter),
        departBefore: str(t.departBefore),
        maxPrice: num(t.maxPrice),
      },
      method: str(sc.method) ?? '',
      model: str(sc.model),
      ranked: sc.ranked === true,
      flights: flights.filter((f) => f.id),
      unreadable: flights.filter((f) => !f.id).length,
      found: num(sc.found),
      candidates: num(sc.candidates),
      attempts: objects(sc.attempts).map(readAttempt),
      summary: str(sc.summary) ?? '',
      calendar: objects(sc.calendar)
        .map((d) => ({ date: str(d.date), lowestUSD: num(d.lowestUSD), bestId: str(d.bestId) }))
        .filter((d) => d.date),
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
