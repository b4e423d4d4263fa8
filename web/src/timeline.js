// The timeline of one leg (an outbound flight or its return): its flights
// and connections on one time axis from departure to arrival, and the night
// hours on it. Pure, so test/format.test.mjs checks it in Node.
//
// Night is the time of day where the traveller is: at an airport, the
// airport's local time; in the air, a time zone that moves evenly from the
// departure airport's to the arrival airport's over the flight (the offsets
// come from the times the server wrote, e.g. 2026-12-31T22:10:00-05:00).

import { localTime } from './format.js';

// Night hours, local: from NIGHT_FROM in the evening to NIGHT_TO in the
// morning.
export const NIGHT_FROM = 22;
export const NIGHT_TO = 6;

const STEP_MS = 5 * 60_000;

// The longest a flight and a leg may last for a timeline to be drawn. No
// flight is in the air for two days, nor does a journey take a week (the
// server's longest: three flights and two connections of at most 12 h); a
// result that says otherwise is broken or hostile, and walking its night
// hours five minutes at a time would keep the page busy for as long as it
// claims (a flight landing in the year 9999: minutes).
export const MAX_FLIGHT_MS = 48 * 3_600_000;
export const MAX_LEG_MS = 7 * 86_400_000;

// offsetMinutes reads "+05:30" (or "Z") as minutes east of UTC.
export function offsetMinutes(iso) {
  const t = localTime(iso);
  if (!t) return undefined;
  const [h, m] = t.offset.slice(1).split(':').map(Number);
  return (t.offset[0] === '-' ? -1 : 1) * (h * 60 + m);
}

const hours = (ms) => `${Math.round(ms / 3_600_000)} h`;

const isNight = (minutesOfDay) => {
  const hour = minutesOfDay / 60;
  return hour >= NIGHT_FROM || hour < NIGHT_TO;
};

// timeline lays out a leg: `pieces` in order (each flight, each connection
// between them) from `x0` to `x1`, fractions of the axis from 0 at
// departure to 1 at arrival, and `nights`, the stretches of the axis that
// fall in night hours where the traveller is. Null when the leg's times
// cannot be read; a RangeError when a flight lasts over MAX_FLIGHT_MS or
// the leg over MAX_LEG_MS: not a journey to draw, so the view says it could
// not draw the result.
export function timeline(leg) {
  const segs = leg.segments.map((s) => ({ ...s, start: Date.parse(s.depart ?? ''), end: Date.parse(s.arrive ?? ''), from0: offsetMinutes(s.depart), to0: offsetMinutes(s.arrive) }));
  if (!segs.length || segs.some((s) => Number.isNaN(s.start) || Number.isNaN(s.end) || s.end < s.start || s.from0 === undefined || s.to0 === undefined)) return null;
  const start = segs[0].start;
  const end = segs.at(-1).end;
  const long = segs.find((s) => s.end - s.start > MAX_FLIGHT_MS);
  if (long) throw new RangeError(`flight ${long.flightNumber || '?'} lasts ${hours(long.end - long.start)}, longer than any flight (${hours(MAX_FLIGHT_MS)})`);
  if (end - start > MAX_LEG_MS) throw new RangeError(`the leg lasts ${hours(end - start)}, longer than any journey (${hours(MAX_LEG_MS)})`);
  const span = Math.max(end - start, 1);
  const frac = (t) => Math.min(1, Math.max(0, (t - start) / span));
  const pieces = [];
  segs.forEach((s, i) => {
    if (i > 0) {
      const prev = segs[i - 1];
      const l = leg.layovers?.[i - 1];
      pieces.push({
        kind: 'layover',
        airport: l?.airport || prev.to,
        minutes: l?.minutes ?? Math.round((s.start - prev.end) / 60_000),
        overnight: l?.overnight === true,
        changeOfAirport: l?.changeOfAirport === true,
        departFrom: l?.departFrom,
        x0: frac(prev.end),
        x1: frac(s.start),
      });
    }
    pieces.push({ kind: 'flight', flightNumber: s.flightNumber, airline: s.airlineName, from: s.from, to: s.to, x0: frac(s.start), x1: frac(s.end) });
  });

  // The traveller's offset at instant t, for t never decreasing: the
  // segment it falls in (or before) is found from the last one's, so the
  // walk below is as long as the leg, not the leg times its flights.
  let i = 0;
  const offsetAt = (t) => {
    while (i < segs.length && t > segs[i].end) i++;
    if (i === segs.length) return segs.at(-1).to0;
    const s = segs[i];
    if (t < s.start) return segs[i - 1]?.to0 ?? s.from0; // on the ground between flights
    const k = s.end > s.start ? (t - s.start) / (s.end - s.start) : 0;
    return s.from0 + (s.to0 - s.from0) * k;
  };
  const nights = [];
  let open = null;
  for (let t = start; t <= end + STEP_MS; t += STEP_MS) {
    const at = Math.min(t, end);
    const local = (((at / 60_000 + offsetAt(at)) % 1440) + 1440) % 1440;
    const night = isNight(local) && at < end;
    if (night && open === null) open = at;
    if (!night && open !== null) {
      nights.push({ x0: frac(open), x1: frac(at) });
      open = null;
    }
    if (at === end) break;
  }
  if (open !== null) nights.push({ x0: frac(open), x1: 1 });
  return { start, end, pieces, nights: nights.filter((n) => n.x1 - n.x0 > 0.005) };
}

// LABEL_GAP is the room, in pixels, kept between two labels of a timeline.
export const LABEL_GAP = 4;

// fitLabels chooses how each label under a timeline is drawn so that no two
// touch: `labels` are the boxes ({ left, right }, in pixels) of the labels
// in order, the departure first and the arrival last, each with `short`,
// its box shortened (a connection's airport without its length). The first
// and last are always drawn in full; each one between them, left to right,
// in full if it fits after the last one drawn and before the arrival's,
// else shortened if that fits, else not at all. Returns 'full', 'short' or
// 'none' for each.
export function fitLabels(labels, gap = LABEL_GAP) {
  const out = labels.map((_, i) => (i === 0 || i === labels.length - 1 ? 'full' : 'none'));
  if (labels.length < 3) return out;
  const end = labels.at(-1).left - gap;
  let after = labels[0].right + gap;
  for (let i = 1; i < labels.length - 1; i++) {
    for (const [how, box] of [
      ['full', labels[i]],
      ['short', labels[i].short],
    ]) {
      if (box && box.left >= after && box.right <= end) {
        out[i] = how;
        after = box.right + gap;
        break;
      }
    }
  }
  return out;
}
