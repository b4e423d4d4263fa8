// Sorting and filtering every option of a search in the page, and the
// fare calendar's colours: pure functions of the options the server listed
// (readOptions), so test/format.test.mjs runs them in Node.

import { localTime } from './format.js';

// totalMinutes is an option's time travelling, both ways for a round trip.
export const totalMinutes = (f) => (f.durationMinutes ?? 0) + (f.return?.durationMinutes ?? 0);

// isNonstop: no connection on the way out, nor on the way back.
export const isNonstop = (f) => !f.stops && !f.return?.stops;

const departs = (f) => Date.parse(f.depart ?? '') || 0;

// SORTS are the orders the page offers: the server's (its deterministic
// score, best first), the lowest fare, the shortest journey, the earliest
// departure. Ties keep the server's order.
export const SORTS = [
  { key: 'best', label: 'Best', words: 'best first, as the server ordered them (price, stops and time together)', by: () => 0 },
  { key: 'cheapest', label: 'Cheapest', words: 'cheapest first', by: (a, b) => (a.priceUSD ?? Infinity) - (b.priceUSD ?? Infinity) },
  { key: 'fastest', label: 'Fastest', words: 'shortest journey first', by: (a, b) => totalMinutes(a) - totalMinutes(b) },
  { key: 'departure', label: 'Departure', words: 'earliest departure first', by: (a, b) => departs(a) - departs(b) },
];

export function sortOptions(options, key) {
  const sort = SORTS.find((s) => s.key === key) ?? SORTS[0];
  return [...options].sort((a, b) => sort.by(a, b) || (a.position ?? 0) - (b.position ?? 0));
}

// TIMES are the parts of the day an outbound flight may leave in, by its
// local departure hour.
export const TIMES = [
  { key: 'morning', label: 'Morning', words: 'leaving 05:00–11:59', from: 5, to: 12 },
  { key: 'afternoon', label: 'Afternoon', words: 'leaving 12:00–16:59', from: 12, to: 17 },
  { key: 'evening', label: 'Evening', words: 'leaving 17:00–21:59', from: 17, to: 22 },
  { key: 'night', label: 'Night', words: 'leaving 22:00–04:59', from: 22, to: 5 },
];

// timeOfDay is the part of the day a local ISO time falls in.
export function timeOfDay(iso) {
  const t = localTime(iso);
  if (!t) return undefined;
  const hour = Number(t.time.slice(0, 2));
  return TIMES.find((p) => (p.from < p.to ? hour >= p.from && hour < p.to : hour >= p.from || hour < p.to))?.key;
}

// airlinesOf are the airlines the options fly, each with its name and how
// many options it flies in, most first.
export function airlinesOf(options) {
  const seen = new Map();
  for (const f of options) {
    const codes = new Set();
    for (const s of [...f.segments, ...(f.return?.segments ?? [])]) {
      if (!s.airline) continue;
      codes.add(s.airline);
      if (!seen.has(s.airline)) seen.set(s.airline, { code: s.airline, name: s.airlineName || s.airline, count: 0 });
    }
    for (const c of codes) seen.get(c).count++;
  }
  return [...seen.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

// A filter is { nonstop, times: Set of TIMES keys, airlines: Set of codes };
// an empty set filters nothing. With airlines chosen, an option passes when
// every segment, both ways, is flown by one of them (as findBestFlight's
// `airlines` argument means it).
export const noFilter = () => ({ nonstop: false, times: new Set(), airlines: new Set() });

export function matches(f, filter) {
  if (filter.nonstop && !isNonstop(f)) return false;
  if (filter.times.size && !filter.times.has(timeOfDay(f.depart))) return false;
  if (filter.airlines.size && ![...f.segments, ...(f.return?.segments ?? [])].every((s) => filter.airlines.has(s.airline))) return false;
  return true;
}

export const isFiltering = (filter) => filter.nonstop || filter.times.size > 0 || filter.airlines.size > 0;

// HEAT_LEVELS is how many colours the fare calendar has, cheapest (0) to
// dearest.
export const HEAT_LEVELS = 5;

// heatLevel places a fare between the lowest and the highest of the
// calendar's days: 0 for the lowest, HEAT_LEVELS - 1 for the highest.
export function heatLevel(fare, lowest, highest) {
  if (!(fare > 0) || !(highest > lowest)) return 0;
  return Math.min(HEAT_LEVELS - 1, Math.max(0, Math.round(((fare - lowest) / (highest - lowest)) * (HEAT_LEVELS - 1))));
}

// fareRange is the lowest and highest fare of the days (or cells) that
// have one; undefined when none has.
export function fareRange(days) {
  const fares = days.filter((d) => !d.empty).map((d) => d.lowestUSD);
  return fares.length ? { lowest: Math.min(...fares), highest: Math.max(...fares) } : undefined;
}
