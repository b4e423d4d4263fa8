package flights

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sync"
	"time"
)

// Schedules repeat. Each route's departures are planned once per IATA
// season, at local times of the origin, with the same flight numbers every
// week of it: a route flown less than daily flies on the same weekdays
// every week, and a busy short hop drops its least attractive departure on
// Saturdays. Departure times are chosen as an airline would: in the day's
// waking hours, long hauls overnight when that lands them in the morning,
// connecting flights in their hub's banks, never in an airport's curfew
// on any day of the season (see fits).

// season is an IATA scheduling season: summer from the last Sunday of
// March, winter from the last Sunday of October, named S27, W26.
type season struct {
	summer bool
	year   int // the year it starts in
}

func (s season) String() string {
	if s.summer {
		return fmt.Sprintf("S%02d", s.year%100)
	}
	return fmt.Sprintf("W%02d", s.year%100)
}

// seasonOf is the season a local calendar date (held as midnight UTC) is in.
func seasonOf(date time.Time) season {
	y := date.Year()
	switch summer, winter := lastSunday(y, time.March), lastSunday(y, time.October); {
	case date.Before(summer):
		return season{summer: false, year: y - 1}
	case date.Before(winter):
		return season{summer: true, year: y}
	}
	return season{summer: false, year: y}
}

func lastSunday(year int, month time.Month) time.Time {
	d := time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC) // the month's last day
	return d.AddDate(0, 0, -int(d.Weekday()))
}

// dates are the season's first local date and the next season's first, as
// midnight UTC.
func (s season) dates() (first, next time.Time) {
	if s.summer {
		return lastSunday(s.year, time.March), lastSunday(s.year, time.October)
	}
	return lastSunday(s.year, time.October), lastSunday(s.year+1, time.March)
}

// reference is the mid-season day whose UTC offsets the season's timetable
// is planned with, so that it is one timetable whichever day asks for it.
func (s season) reference() time.Time {
	if s.summer {
		return time.Date(s.year, time.July, 15, 12, 0, 0, 0, time.UTC)
	}
	return time.Date(s.year+1, time.January, 15, 12, 0, 0, 0, time.UTC)
}

// departure is one scheduled departure of a route.
type departure struct {
	minute int16 // local time at the route's origin, minutes after midnight
	days   uint8 // the weekdays it flies: bit i for time.Weekday(i)
	number int16 // flight number, with the route's airline's code before it
}

const everyDay = 0x7f

func (d departure) on(w time.Weekday) bool { return d.days&(1<<w) != 0 }

// timetable is a season's departures, in time order, a row per route id.
type timetable struct{ deps rows[departure] }

// of is route id's departures; writing through it changes the timetable,
// and its capacity ends at its own last departure.
func (tt *timetable) of(id int32) []departure { return tt.deps.row(int(id)) }

// routes is how many routes the timetable has departures for.
func (tt *timetable) routes() int { return tt.deps.len() }

// seasonCache keeps the timetables of the last few seasons asked for: a
// year's searches span three at most, and each is a few hundred KB.
type seasonCache struct {
	mu      sync.Mutex
	entries map[season]*seasonEntry
	order   []season
}

type seasonEntry struct {
	once sync.Once
	tt   *timetable
}

const seasonCacheSize = 4

func newSeasonCache() *seasonCache { return &seasonCache{entries: map[season]*seasonEntry{}} }

// Prepare builds now what searches on date need and would otherwise build
// on the first of them: the network model and the timetable of date's
// season (tens of milliseconds; see BenchmarkFirstSearch). A server may
// call it in the background at start, so that its first call's budget
// does not pay for them. It is safe to call any number of times.
func (c *Catalog) Prepare(date time.Time) { c.timetable(seasonOf(date)) }

// timetable is the catalog's timetable for season s, planned once.
func (c *Catalog) timetable(s season) *timetable {
	sc := c.seasons
	sc.mu.Lock()
	e := sc.entries[s]
	if e == nil {
		e = &seasonEntry{}
		sc.entries[s] = e
		sc.order = append(sc.order, s)
		if len(sc.order) > seasonCacheSize {
			delete(sc.entries, sc.order[0])
			sc.order = sc.order[1:]
		}
	}
	sc.mu.Unlock()
	e.once.Do(func() { e.tt = planSeason(c.network(), s) })
	return e.tt
}

// clocks are the UTC offsets a season's timetable is planned with: each
// airport's on the reference day, which place its times of day, and for a
// route to an airport with a curfew, the offsets its arrival sees on every
// day of the season (see arrivalShifts), which keep it out of the curfew
// on each of them.
type clocks struct {
	offset []int     // minutes east of UTC on the reference day, by airport
	shifts [][]shift // by route id; nil unless its destination has a curfew
}

// shift is how much later local time at a route's destination is than at
// its origin, for the departures at origin-local minutes [from,
// from+length) of the day (mod 1440) on some days of the season; a length
// of 1440 or more covers every minute.
type shift struct{ from, length, minutes int }

// planSeason plans every route's departures for season s and numbers them.
func planSeason(n *network, s season) *timetable {
	ref := s.reference()
	ck := &clocks{offset: make([]int, n.size()), shifts: make([][]shift, len(n.routes))}
	for i, a := range n.airports {
		_, off := ref.In(a.Location()).Zone()
		ck.offset[i] = off / 60
	}
	first, next := s.dates()
	var zones [][]zoneSpan // by airport, when first needed
	for id := range n.routes {
		if r := &n.routes[id]; n.airports[r.to].limits.curfew != nil {
			if zones == nil {
				zones = make([][]zoneSpan, n.size())
				for i, a := range n.airports {
					zones[i] = zoneSpans(a.Location(), first.AddDate(0, 0, -2), next.AddDate(0, 0, 3))
				}
			}
			ck.shifts[id] = arrivalShifts(r, n.airports[r.from], zones[r.from], zones[r.to], first, next)
		}
	}
	banks := make([]*bankWindows, n.size())
	for _, x := range n.connect {
		banks[x] = newBankWindows(bankTimes(n.airports[x], n.nightHub[x]))
	}
	room := 0 // planRoute plans at most a departure a day, or perWeek/7
	for i := range n.routes {
		room += max(1, int(n.routes[i].perWeek)/7)
	}
	tt := &timetable{deps: newRows[departure](len(n.routes), room)}
	// The routes of one pair of airports (one airline after another) share
	// their times of day's penalties: buildNetwork adds them together.
	var times [2]struct {
		from, to int16
		p        [slotsPerDay]float64
	}
	for id := range n.routes {
		r := &n.routes[id]
		t := &times[id%2]
		if t.from != r.from || t.to != r.to || id < 2 {
			t.from, t.to = r.from, r.to
			for slot := range slotsPerDay {
				t.p[slot] = timesPenalty(n, id, slot*slotMinutes, ck)
			}
		}
		tt.deps.push(planRoute(n, id, s, ck, banks, &t.p)...)
		tt.deps.end()
	}
	numberFlights(n, tt)
	return tt
}

// The day is planned in quarter hours; a departure then moves by up to ten
// minutes, as real timetables are not all on the quarter.
const (
	slotMinutes = 15
	slotsPerDay = 1440 / slotMinutes
)

// planRoute chooses a route's departures: the best-scoring slots of the day
// (see slotPenalty), spaced apart, on the weekdays the route flies.
func planRoute(n *network, id int, s season, ck *clocks, banks []*bankWindows, times *[slotsPerDay]float64) []departure {
	r := &n.routes[id]
	perDay, days := 1, uint8(everyDay)
	if r.perWeek >= 7 {
		perDay = int(r.perWeek) / 7
	} else {
		days = weekdays(int(r.perWeek), hash64(n.c.airlines[r.airline].Code, n.airports[r.from].Code, n.airports[r.to].Code))
	}
	seed := hash64(n.c.airlines[r.airline].Code, n.airports[r.from].Code, n.airports[r.to].Code, s.String())
	var scores [slotsPerDay]float64
	banked := n.station[r.airline][r.from] == hub || n.station[r.airline][r.to] == hub
	for slot := range slotsPerDay {
		scores[slot] = times[slot] + 0.6*unit(seed, uint64(slot))
		if banked {
			scores[slot] += bankBonus(n, r, slot*slotMinutes, ck.offset, banks)
		}
	}
	spacing := 900 / perDay
	if r.block >= 300 {
		spacing = 360 / perDay
	}
	spacing = min(max(spacing, 30), 180)
	out := make([]departure, 0, perDay)
	var taken [slotsPerDay]bool
	picked := make([]int, 0, perDay)
	reach := (spacing + slotMinutes - 1) / slotMinutes // slots closer than spacing
	for len(out) < perDay {
		best := -1
		for slot := range slotsPerDay {
			if !taken[slot] && !math.IsInf(scores[slot], 1) && (best < 0 || scores[slot] < scores[best]) {
				best = slot
			}
		}
		if (best < 0 || times[best] >= nightPenalty) && reach > 1 {
			// The spacing leaves only the small hours (a shuttle's tenth
			// departure, picked after gaps too short for it): space the
			// rest closer in the waking day instead, as a busy route's
			// timetable does.
			reach = (reach + 1) / 2
			taken = [slotsPerDay]bool{}
			for _, b := range picked {
				for k := b - reach + 1; k < b+reach; k++ {
					taken[(k+slotsPerDay)%slotsPerDay] = true
				}
			}
			continue
		}
		if best < 0 {
			break // the curfews leave no more room
		}
		picked = append(picked, best)
		for k := best - reach + 1; k < best+reach; k++ {
			taken[(k+slotsPerDay)%slotsPerDay] = true
		}
		minute := best*slotMinutes + 5*int(hashMod(seed, uint64(best), 3))
		if !fits(n, id, minute, ck) {
			minute = best * slotMinutes
		}
		out = append(out, departure{minute: int16(minute), days: days})
	}
	// A busy short hop flies one departure fewer on Saturdays: the least
	// attractive one, chosen last.
	if len(out) >= 4 && r.block < 240 {
		out[len(out)-1].days &^= 1 << time.Saturday
	}
	slices.SortFunc(out, func(a, b departure) int { return int(a.minute) - int(b.minute) })
	return out
}

// nightPenalty is the times penalty (see timesPenalty) of a departure in
// the small hours, or of one landing in them away from a hub that banks
// through the night: no airline schedules a short hop at 03:30 while the
// day has room for it.
const nightPenalty = 5

// fits reports whether a departure of route id at minute (local at the
// origin) keeps clear of both airports' curfews on every day of the
// season, at the local times of each: a daylight-saving change at one end
// and not the other moves the landing by an hour for a few weeks.
func fits(n *network, id int, minute int, ck *clocks) bool {
	r := &n.routes[id]
	if n.airports[r.from].limits.curfew.contains(minute) {
		return false
	}
	curfew := n.airports[r.to].limits.curfew
	for _, sh := range ck.shifts[id] {
		if (sh.length >= 1440 || ((minute-sh.from)%1440+1440)%1440 < sh.length) && curfew.contains(minute+int(r.block)+sh.minutes) {
			return false
		}
	}
	return true
}

// zoneSpan is a span of time with one UTC offset: from start (Unix
// seconds) to the next span's.
type zoneSpan struct {
	start  int64
	offset int // minutes east of UTC
}

// zoneSpans are loc's offsets from one time to another, each from when it
// takes effect (the first from the start).
func zoneSpans(loc *time.Location, from, to time.Time) []zoneSpan {
	var out []zoneSpan
	for t := from; t.Before(to); {
		_, off := t.In(loc).Zone()
		out = append(out, zoneSpan{t.Unix(), off / 60})
		_, end := t.In(loc).ZoneBounds()
		if end.IsZero() || !end.After(t) {
			break
		}
		t = end
	}
	return out
}

// offsetAt is the offset of the span that holds Unix time t.
func offsetAt(spans []zoneSpan, t int64) int {
	k := 0
	for k+1 < len(spans) && spans[k+1].start <= t {
		k++
	}
	return spans[k].offset
}

// arrivalShifts are route r's shifts (see shift) over the local dates of
// the season at its origin, [first, next): the offsets there when it
// leaves and at its destination when it lands change only when a clock
// does, at either end, so each span between those changes has one.
func arrivalShifts(r *route, from *Airport, fromZone, toZone []zoneSpan, first, next time.Time) []shift {
	start := time.Date(first.Year(), first.Month(), first.Day(), 0, 0, 0, 0, from.Location()).Unix()
	end := time.Date(next.Year(), next.Month(), next.Day(), 0, 0, 0, 0, from.Location()).Unix()
	block := int64(r.block) * 60
	breaks := []int64{start, end}
	for _, z := range fromZone {
		if z.start > start && z.start < end {
			breaks = append(breaks, z.start)
		}
	}
	for _, z := range toZone {
		if t := z.start - block; t > start && t < end {
			breaks = append(breaks, t)
		}
	}
	slices.Sort(breaks)
	breaks = slices.Compact(breaks)
	var out []shift
	for i := 0; i+1 < len(breaks); i++ {
		t := breaks[i]
		off := offsetAt(fromZone, t)
		sh := shift{from: int(((t/60+int64(off))%1440 + 1440) % 1440), length: int((breaks[i+1] - t) / 60), minutes: offsetAt(toZone, t+block) - off}
		if k := slices.IndexFunc(out, func(o shift) bool { return o.minutes == sh.minutes && o.length >= 1440 }); k >= 0 {
			continue // every minute already has this shift
		}
		if sh.length >= 1440 {
			out = slices.DeleteFunc(out, func(o shift) bool { return o.minutes == sh.minutes })
		}
		out = append(out, sh)
	}
	return out
}

// timesPenalty is how unattractive a departure at minute (local at the
// origin) is for route id, whatever the airline: +Inf inside a curfew;
// otherwise the penalties of its departure and arrival times of day, less
// a bonus for an overnight long haul that lands in the morning and for a
// short hop at the business peaks.
func timesPenalty(n *network, id int, minute int, ck *clocks) float64 {
	r, offset := &n.routes[id], ck.offset
	if !fits(n, id, minute, ck) {
		return math.Inf(1)
	}
	arrive := minute + int(r.block) + offset[r.to] - offset[r.from]
	local := ((arrive % 1440) + 1440) % 1440
	long := r.block >= 300
	p := departPenalty(minute, long, n.nightHub[r.from]) + arrivePenalty(local, long, n.nightHub[r.to])
	if r.block >= 360 && minute >= 17*60 && arrive >= 1440 && local >= 5*60+30 && local <= 10*60+30 {
		p -= 1 // the overnight flight: sleep on board, land in the morning
	}
	if !long && ((minute >= 7*60 && minute < 9*60+30) || (minute >= 16*60+30 && minute < 19*60+30)) {
		p -= 0.3
	}
	return p
}

// bankBonus is what timing a departure at minute in route r's airline's
// banks is worth: leaving in its origin hub's departure bank, landing in
// its destination hub's arrival bank.
func bankBonus(n *network, r *route, minute int, offset []int, banks []*bankWindows) float64 {
	b := 0.0
	if n.station[r.airline][r.from] == hub && banks[r.from].depart[minute/5] {
		b -= 0.8
	}
	local := ((minute+int(r.block)+offset[r.to]-offset[r.from])%1440 + 1440) % 1440
	if n.station[r.airline][r.to] == hub && banks[r.to].arrive[local/5] {
		b -= 0.8
	}
	return b
}

// departPenalty and arrivePenalty score a local time of day: nothing in the
// waking day, a little late in the evening (less for a long haul, whose
// late departures are normal), a lot in the small hours (less at a hub that
// banks through the night).
func departPenalty(minute int, long, nightHub bool) float64 {
	switch h := minute / 60; {
	case h >= 6 && h < 22:
		return 0
	case h >= 22:
		return pick(long, 0.2, 1)
	case h == 0:
		return pick(long, 0.8, 3)
	case nightHub:
		return pick(long, 0.8, 4)
	case h == 5:
		return pick(long, 1.5, 2)
	}
	return pick(long, 4, 6)
}

func arrivePenalty(minute int, long, nightHub bool) float64 {
	switch {
	case minute >= 6*60 && minute < 23*60:
		return 0
	case minute >= 23*60:
		return 1
	case minute < 60:
		return 2.5
	case minute >= 4*60+30:
		return pick(long, 0.6, 1.5)
	case nightHub:
		return 2
	}
	return 6
}

func pick(cond bool, yes, no float64) float64 {
	if cond {
		return yes
	}
	return no
}

// bankTimes are the times of a hub's connecting banks, local: every two and
// a half hours from the morning to the late evening, or every three hours
// round the clock at a hub that banks through the night. Each hub's start
// differs a little (a hash of its code), as real ones do.
func bankTimes(a *Airport, nightHub bool) []int {
	start, step, last := 6*60+30, 150, 22*60
	if nightHub {
		start, step, last = 30, 180, 23*60+59
	}
	start += 10 * int(hashMod(hash64(a.Code), 0, 6))
	var out []int
	for t := start; t <= last; t += step {
		out = append(out, t)
	}
	return out
}

// bankWindows are a hub's departure and arrival windows, by five minutes of
// the local day: a flight leaving 40 to 100 minutes after a bank, or
// landing 10 to 70 minutes before one, connects in it.
type bankWindows struct {
	depart, arrive [288]bool
}

func newBankWindows(banks []int) *bankWindows {
	w := &bankWindows{}
	for k := range 288 {
		w.depart[k] = inBank(banks, 5*k, 40, 100)
		w.arrive[k] = inBank(banks, 5*k, -70, -10)
	}
	return w
}

// inBank reports whether minute is within [from, to) minutes of one of the
// banks.
func inBank(banks []int, minute, from, to int) bool {
	for _, b := range banks {
		d := ((minute-b)%1440 + 1440) % 1440
		if d >= 720 {
			d -= 1440
		}
		if d >= from && d < to {
			return true
		}
	}
	return false
}

// weekdays chooses perWeek weekdays (fewer than seven), spread through the
// week, starting on a day the hash picks.
func weekdays(perWeek int, h uint64) uint8 {
	var days uint8
	start := int(h % 7)
	for i := range perWeek {
		days |= 1 << ((start + i*7/perWeek) % 7)
	}
	return days
}

// numberFlights gives every departure a flight number, unique per airline:
// long hauls from 1, medium hauls from 1000, short hops from 3000, the two
// directions of a route alternating odd and even as airlines number them.
func numberFlights(n *network, tt *timetable) {
	next := make([][3]int, len(n.c.airlines))
	for ai := range next {
		next[ai] = [3]int{1, 1001, 3001}
	}
	for id := 0; id+1 < len(n.routes); id += 2 { // buildNetwork adds both directions together
		r := &n.routes[id]
		band := 2
		switch {
		case r.km >= 4000:
			band = 0
		case r.km >= 1500:
			band = 1
		}
		out, back := tt.of(int32(id)), tt.of(int32(id+1))
		base := next[r.airline][band]
		for k := range out {
			out[k].number = int16(base + 2*k)
		}
		for k := range back {
			back[k].number = int16(base + 2*k + 1)
		}
		next[r.airline][band] = base + 2*max(len(out), len(back))
	}
}

func hash64(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// unit is a number in [0, 1) derived from seed and k, the same on every run.
func unit(seed, k uint64) float64 { return float64(mix(seed, k)>>11) / (1 << 53) }

func hashMod(seed, k, m uint64) uint64 { return mix(seed, k) % m }

// mix is SplitMix64's finaliser over seed and k.
func mix(seed, k uint64) uint64 {
	z := seed + (k+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
