package flights

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The network model: which airlines fly which nonstops, how often, and
// where a passenger may change planes. It is built from the catalog's data
// (see data/README.md for where each rule comes from) the first time a
// search needs it, in a few milliseconds, and is the same on every machine:
// nothing in it is random.
//
// An airline flies a nonstop from one of its stations (hubs and focus
// cities) to an airport when all of these hold:
//
//   - the other airport is in its home country or one of its markets;
//   - the leg is within its fleet's range, and a long-haul-only airline's
//     leg is long haul (at least longHaulMinKm);
//   - a leg over ultraLongKm goes to one of its own stations, or from a
//     hub to a gateway its markets name (daily): no airline flies 13,000
//     km on spec;
//   - a leg over longRouteKm joins two international gateways (see
//     longHaulEnd): Saudia flies Jeddah to Washington, not to Salt Lake
//     City or Charlotte, whichever hubs they are; and its other end, unless
//     a major gateway (IntlTier 4 or more), is in a country or a gateway
//     its markets name, not only in a region they name: Turkish Airlines'
//     latinamerica does not take it to Lima (see servesByName);
//   - a leg over dailyLongKm from a focus city goes to one of its own
//     stations, a country or gateway its markets name, or a partner's hub,
//     and a long haul to another region's airport has enough international
//     passengers; it sells the others over a hub, and keeps its share of
//     their passengers (see fliesTo);
//   - neither airport's limits forbid it (perimeter rules, domestic-only
//     fields, short runways) and the two countries are not a pair without
//     service;
//   - its share of the pair's demand fills at least minPerWeek departures
//     a week (see demandPerDay).
type network struct {
	c        *Catalog
	airports []*Airport // by index, in code order
	index    map[string]int
	dist     []float64 // dist[a*n+b] is the great-circle distance from a to b
	routes   []route
	// pairs holds in row o*n+d the ids of the routes flying o to d, in
	// ascending order (routesBetween).
	pairs rows[int32]
	// connect are the airports where some airline connects passengers
	// (hubs and focus cities), by index; outConnect's row x those that x
	// has a route to, inConnect's row x those with a route to x, in index
	// order.
	connect               []int
	outConnect, inConnect rows[int32]
	// station[a][x] says what airport x is to airline a.
	station [][]stationKind
	// partner[a][b] says whether airlines a and b sell connections
	// together (an alliance or a partnership in data/partners.csv).
	partner [][]bool
	// gateway[a][x] says whether airline a's markets name airport x.
	gateway [][]bool
	// region[x] is airport x's region, as an index into affinities, which
	// holds each pair of regions' affinity (see affinity); -1 for none.
	region     []int
	affinities [][]float64
	// outbound[x] is the sum, over every airport y x could fly to, of y's
	// attraction from x (see attraction): [0] within x's country, [1]
	// abroad.
	outbound [][2]float64
	// nightHub[x] says whether x is a hub that banks through the night;
	// anyHub[x] whether it is some network airline's hub (a low-cost
	// airline's base feeds no connections to others).
	nightHub, anyHub []bool
	// country[x] numbers airport x's country, so that the planner
	// compares countries as integers (see comesBack); pairAffinity[i*
	// countries+j] is countries i and j's affinity where
	// data/affinities.csv gives one, 0 where it does not.
	country      []int16
	countries    int
	pairAffinity []float64
}

type stationKind uint8

const (
	notStation stationKind = iota
	focusCity
	hub
)

// route is one airline's nonstop in one direction.
type route struct {
	km       float64
	airline  int32 // index into the catalog's airlines
	block    int32 // minutes, BlockTime
	perWeek  int32 // departures a week
	from, to int16 // airport indexes: codes of three letters are fewer than 1<<15
}

// Limits of the network model.
const (
	// longHaulMinKm is the shortest leg a long-haul-only airline flies.
	longHaulMinKm = 2500
	// ultraLongKm is the leg beyond which an airline flies only to its own
	// stations and the gateways its markets name.
	ultraLongKm = 12500
	// longRouteKm is the leg beyond which both ends are international
	// gateways (see longHaulEnd).
	longRouteKm = 11000
	// minPerWeek is the fewest departures a week that make a route, and
	// minPerWeekLong a route over 3,000 km.
	minPerWeek     = 2
	minPerWeekLong = 3
	// hubTrunkKm is the longest route between two hubs that is flown
	// daily whatever its demand (see hubTrunk).
	hubTrunkKm = 3000
)

func (n *network) size() int { return len(n.airports) }

// km is the great-circle distance between airports a and b.
func (n *network) km(a, b int) float64 { return n.dist[a*len(n.airports)+b] }

// routesBetween are the routes flying o to d.
func (n *network) routesBetween(o, d int) []int32 {
	return n.pairs.row(o*len(n.airports) + d)
}

// Connections. A passenger may arrive at an airport on airline a and leave
// on airline b, on one ticket: on the same airline at any of its stations
// (a low-cost airline only at its bases); on partners (an alliance, a
// joint venture) at a hub or focus city of either; and, where no partners
// connect on the way, on any two network airlines there (an interline
// ticket), which a search ranks below the partners' connections.
type connection uint8

const (
	noConnection connection = iota
	online                  // one airline
	partners                // an alliance or a partnership
	interline               // two airlines with no partnership
)

func (n *network) connection(a, b, at int) connection {
	switch {
	case a == b && n.c.airlines[a].Kind == LowCost:
		return pickConnection(n.station[a][at] == hub, online)
	case a == b:
		return pickConnection(n.station[a][at] != notStation, online)
	case n.c.airlines[a].Kind == LowCost || n.c.airlines[b].Kind == LowCost:
		return noConnection
	case n.station[a][at] == notStation && n.station[b][at] == notStation:
		return noConnection
	case n.partner[a][b]:
		return partners
	}
	return interline
}

func pickConnection(ok bool, c connection) connection {
	if ok {
		return c
	}
	return noConnection
}

// buildNetwork applies the rules above to every station of every airline.
func buildNetwork(c *Catalog) *network {
	n := &network{c: c, index: map[string]int{}}
	for i, code := range c.codes {
		n.airports = append(n.airports, c.airports[code])
		n.index[code] = i
	}
	size := len(n.airports)
	n.country = make([]int16, size)
	countries := map[string]int16{}
	for x, a := range n.airports {
		k, ok := countries[a.Country]
		if !ok {
			k = int16(len(countries))
			countries[a.Country] = k
		}
		n.country[x] = k
	}
	n.countries = len(countries)
	n.pairAffinity = make([]float64, n.countries*n.countries)
	for pair, v := range c.affinity {
		i, ok1 := countries[pair[0]]
		j, ok2 := countries[pair[1]]
		if ok1 && ok2 { // a country without airports has no pairs
			n.pairAffinity[int(i)*n.countries+int(j)], n.pairAffinity[int(j)*n.countries+int(i)] = v, v
		}
	}
	n.dist = make([]float64, size*size)
	for a := range size {
		for b := a + 1; b < size; b++ {
			km := DistanceKm(n.airports[a], n.airports[b])
			n.dist[a*size+b], n.dist[b*size+a] = km, km
		}
	}
	n.station = make([][]stationKind, len(c.airlines))
	n.gateway = make([][]bool, len(c.airlines))
	n.partner = make([][]bool, len(c.airlines))
	connect := make([]bool, size)
	n.nightHub, n.anyHub = make([]bool, size), make([]bool, size)
	for ai, al := range c.airlines {
		n.station[ai] = make([]stationKind, size)
		n.gateway[ai] = make([]bool, size)
		for _, f := range al.Focus {
			n.station[ai][n.index[f]] = focusCity
			connect[n.index[f]] = true
		}
		for _, h := range al.Hubs {
			x := n.index[h]
			n.station[ai][x] = hub
			connect[x] = true
			n.anyHub[x] = n.anyHub[x] || al.Kind != LowCost
			// The Gulf's hubs bank through the night: their long hauls to
			// Europe and Asia leave in the small hours.
			n.nightHub[x] = n.nightHub[x] || c.regionOf[c.airports[h].Country] == "middleeast"
		}
		for _, m := range al.Markets {
			if x, ok := n.index[m]; ok {
				n.gateway[ai][x] = true
			}
		}
		n.partner[ai] = make([]bool, len(c.airlines))
		for bi, other := range c.airlines {
			n.partner[ai][bi] = ai != bi && ((al.Alliance != "none" && al.Alliance == other.Alliance) || c.partners[sortedPair(al.Code, other.Code)] != "")
		}
	}
	for x, ok := range connect {
		if ok {
			n.connect = append(n.connect, x)
		}
	}

	n.indexRegions()
	n.outbound = make([][2]float64, size)
	for x := range size {
		for y := range size {
			if km := n.km(x, y); x != y && km >= minLegKm {
				k := 1
				if n.airports[x].Country == n.airports[y].Country {
					k = 0
				}
				n.outbound[x][k] += n.attraction(x, y, km)
			}
		}
	}

	// Every airline that may fly each pair, with its weight in the pair's
	// market; then the pair's demand shared among them.
	type bid struct {
		airline int
		weight  float64
		gateway bool
		flies   bool // else it sells the pair over a hub (see eligible)
	}
	bids := map[[2]int][]bid{}
	var pairs [][2]int
	for ai := range c.airlines {
		al := &c.airlines[ai]
		for s := range size {
			if n.station[ai][s] == notStation {
				continue
			}
			for x := range size {
				if x == s || (n.station[ai][x] != notStation && x < s) {
					continue // each pair of stations once
				}
				w, flies, ok := n.eligible(ai, al, s, x)
				if !ok {
					continue
				}
				key := [2]int{min(s, x), max(s, x)}
				if bids[key] == nil {
					pairs = append(pairs, key)
				}
				bids[key] = append(bids[key], bid{ai, w, n.gateway[ai][x] || n.gateway[ai][s], flies})
			}
		}
	}
	// Each airline's share of each pair's demand, in departures a week.
	type share struct {
		pair    [2]int
		airline int
		perWeek float64
		market  float64 // the pair's departures a day, every airline's (demandPerDay)
	}
	var shares []share
	for _, key := range pairs { // in the order found: deterministic
		km := n.km(key[0], key[1])
		// Whether an airline with a hub at each end may fly it (one
		// airline with both, or two): only then do both hubs' banks feed
		// it (see demandPerDay).
		var hubAt [2]bool
		for _, bd := range bids[key] {
			for k, x := range key {
				hubAt[k] = hubAt[k] || n.station[bd.airline][x] == hub
			}
		}
		perDay := n.demandPerDay(n.airports[key[0]], n.airports[key[1]], km, hubAt[0] && hubAt[1])
		thin := n.thinHubTrunk(key[0], key[1], km)
		total := 0.0
		for _, bd := range bids[key] {
			total += bd.weight
		}
		for _, bd := range bids[key] {
			if !bd.flies {
				continue
			}
			perWeek := 7 * perDay * bd.weight / total
			if bd.gateway && km > ultraLongKm {
				perWeek = max(perWeek, 7) // the ultra long hauls it is known for
			}
			if thin && c.airlines[bd.airline].Kind != LowCost {
				perWeek = max(perWeek, 7)
			}
			most := maxPerDay(km, c.airlines[bd.airline].Kind, n.longTrunk(bd.airline, key[0], key[1]), n.thinMarket(key[0], key[1], km), n.topGateway(key[0], key[1]))
			shares = append(shares, share{key, bd.airline, min(perWeek, float64(7*most)), perDay})
		}
	}
	// A share makes a route if it fills enough departures; and an airline
	// flies at least its best few routes from each station, however thin:
	// an airline at a small hub (RwandAir, Fiji Airways) still has a
	// network.
	keep := make([]bool, len(shares))
	routesAt := make([][]int, len(c.airlines)) // routes kept at each station
	for ai := range routesAt {
		routesAt[ai] = make([]int, size)
	}
	enough := func(sh share) bool {
		least := float64(minPerWeek)
		if n.km(sh.pair[0], sh.pair[1]) > 3000 {
			least = minPerWeekLong
		}
		return math.Round(sh.perWeek) >= least
	}
	for i, sh := range shares {
		if keep[i] = enough(sh); keep[i] {
			routesAt[sh.airline][sh.pair[0]]++
			routesAt[sh.airline][sh.pair[1]]++
		}
	}
	byDemand := make([]int, len(shares))
	for i := range byDemand {
		byDemand[i] = i
	}
	slices.SortStableFunc(byDemand, func(a, b int) int { return cmp.Compare(shares[b].perWeek, shares[a].perWeek) })
	for _, i := range byDemand {
		sh := shares[i]
		if keep[i] {
			continue
		}
		if n.km(sh.pair[0], sh.pair[1]) > 9000 {
			continue // not a thin route any airline flies to keep busy
		}
		for _, end := range sh.pair {
			if want := leastRoutes(n.station[sh.airline][end]); routesAt[sh.airline][end] < want {
				keep[i] = true
				shares[i].perWeek = max(sh.perWeek, minPerWeekLong)
				routesAt[sh.airline][sh.pair[0]]++
				routesAt[sh.airline][sh.pair[1]]++
				break
			}
		}
	}
	// Each kept share's departures a week, whole; then the bilateral
	// agreements' caps (see capBilaterals).
	perWeek := make([]int, len(shares))
	for i, sh := range shares {
		if !keep[i] {
			continue
		}
		perWeek[i] = int(math.Round(sh.perWeek))
		if n.hubTrunk(sh.airline, sh.pair[0], sh.pair[1], n.km(sh.pair[0], sh.pair[1])) {
			perWeek[i] = max(perWeek[i], 7)
		}
	}
	n.capBilaterals(len(shares), func(i int) ([2]int, int, float64) { return shares[i].pair, shares[i].airline, shares[i].market }, perWeek)
	var last [2]int // the pair whose block times there and back are known
	var there, back int
	for i, sh := range shares { // each pair's shares are together
		if perWeek[i] == 0 {
			continue
		}
		a, b := n.airports[sh.pair[0]], n.airports[sh.pair[1]]
		km := n.km(sh.pair[0], sh.pair[1])
		if sh.pair != last || there == 0 {
			last = sh.pair
			there, back = blockMinutesBothWays(a, b, km)
		}
		n.addRoute(sh.pair[0], sh.pair[1], sh.airline, km, there, perWeek[i])
		n.addRoute(sh.pair[1], sh.pair[0], sh.airline, km, back, perWeek[i])
	}
	n.pairs = groupRows(size*size, len(n.routes), func(id int) int { return int(n.routes[id].from)*size + int(n.routes[id].to) })
	n.outConnect = n.connectRows(func(x, h int) bool { return len(n.routesBetween(x, h)) > 0 })
	n.inConnect = n.connectRows(func(x, h int) bool { return len(n.routesBetween(h, x)) > 0 })
	return n
}

// capBilaterals holds the flights between two countries whose agreement
// caps them (data/bilaterals.csv) to the cap on each side: the departures
// a week, each way, that one country's airlines fly between the two in
// all. Of the shares 0..count-1 (each a pair of airports, an airline and
// the pair's market, its departures a day by every airline; flown
// perWeek[i] times a week, 0 for not at all) each side flies between the
// biggest airports first (by their international passengers, IntlTier),
// then the biggest markets, then the most flown share: first each at
// most daily, while the cap lasts, so that the agreement's flights reach
// several cities (Turkish Airlines' twelve a week to Canada are Toronto
// daily and Montreal five times), then each as often as it would
// uncapped, with what is left. A share that what is
// left cannot make a route (minPerWeek, minPerWeekLong) is not flown. An
// airline's side is its first hub's country; an airline of a third
// country flying between them is not counted (no agreement here grants
// that).
func (n *network) capBilaterals(count int, share func(i int) (pair [2]int, airline int, market float64), perWeek []int) {
	c := n.c
	if len(c.bilateral) == 0 {
		return
	}
	type capped struct {
		i, want, least int
		size, market   float64   // the two airports' international sizes, multiplied; the pair's market
		side           [3]string // the two countries, sorted, and the airline's
	}
	var all []capped
	for i := range count {
		pair, ai, market := share(i)
		from, to := n.airports[pair[0]].Country, n.airports[pair[1]].Country
		countries := sortedPair(from, to)
		home := c.airports[c.airlines[ai].Hubs[0]].Country
		if perWeek[i] == 0 || c.bilateral[countries] == 0 || (home != from && home != to) {
			continue
		}
		least := minPerWeek
		if n.km(pair[0], pair[1]) > 3000 {
			least = minPerWeekLong
		}
		size := tierWeight[n.airports[pair[0]].IntlTier] * tierWeight[n.airports[pair[1]].IntlTier]
		all = append(all, capped{i, perWeek[i], least, size, market, [3]string{countries[0], countries[1], home}})
		perWeek[i] = 0
	}
	slices.SortStableFunc(all, func(a, b capped) int {
		return cmp.Or(cmp.Compare(b.size, a.size), cmp.Compare(b.market, a.market), cmp.Compare(b.want, a.want))
	})
	left := map[[3]string]int{}
	for _, s := range all {
		left[s.side] = c.bilateral[[2]string{s.side[0], s.side[1]}]
	}
	for _, s := range all {
		if give := min(s.want, 7, left[s.side]); give >= s.least {
			perWeek[s.i] = give
			left[s.side] -= give
		}
	}
	for _, s := range all {
		if perWeek[s.i] > 0 {
			more := min(s.want-perWeek[s.i], left[s.side])
			perWeek[s.i] += more
			left[s.side] -= more
		}
	}
}

// hubTrunk reports whether airline ai's route between airports a and b,
// km apart, joins one of its hubs to another network airline's hub within
// a few hours: such a route feeds both hubs' banks, so it is flown daily
// however small the hubs (RwandAir from Kigali to Johannesburg, Nairobi
// and Addis Ababa), and a thin hub's passengers can connect on any day.
func (n *network) hubTrunk(ai, a, b int, km float64) bool {
	if km > hubTrunkKm || n.c.airlines[ai].Kind == LowCost {
		return false
	}
	return (n.station[ai][a] == hub && n.anyHub[b]) || (n.station[ai][b] == hub && n.anyHub[a])
}

// bigHubs reports whether airports x and y are both network airlines'
// hubs, and big ones for the trip between them: within a country of Tier
// 4 or more (25 million passengers a year), between two countries of
// IntlTier 2 or more as well (3 million international ones). Phoenix and
// Salt Lake City are big domestic hubs with few international passengers:
// a hub of theirs is no trunk to another country's.
func (n *network) bigHubs(x, y int) bool {
	a, b := n.airports[x], n.airports[y]
	if !n.anyHub[x] || !n.anyHub[y] || a.Tier < 4 || b.Tier < 4 {
		return false
	}
	return a.Country == b.Country || a.IntlTier >= 2 && b.IntlTier >= 2
}

// thinHubTrunk reports whether the route between airports x and y, km
// apart, joins two big hubs in a thin market (affinity crossRegionAffinity:
// Delhi to Tokyo, Jeddah to Washington): its demand is the pair's sizes',
// not the three a day of a dense market's trunk, but each network airline
// that flies it from its station does so daily at least, so that the
// hubs' passengers connect on any day.
func (n *network) thinHubTrunk(x, y int, km float64) bool {
	return n.bigHubs(x, y) && n.affinity(n.airports[x], n.airports[y], km) <= crossRegionAffinity
}

// connectRows are, for each airport x, the connecting airports h for which
// linked(x, h) holds, in index order: one row per airport, in an array of
// their exact total length.
func (n *network) connectRows(linked func(x, h int) bool) rows[int32] {
	size := len(n.airports)
	total := 0
	for x := range size {
		for _, h := range n.connect {
			if linked(x, h) {
				total++
			}
		}
	}
	r := newRows[int32](size, total)
	for x := range size {
		for _, h := range n.connect {
			if linked(x, h) {
				r.push(int32(h))
			}
		}
		r.end()
	}
	return r
}

// leastRoutes is how many routes an airline flies from a station of kind k
// at least, if it has that many to fly.
func leastRoutes(k stationKind) int {
	switch k {
	case hub:
		return 8
	case focusCity:
		return 2
	}
	return 0
}

func (n *network) addRoute(from, to, airline int, km float64, block, perWeek int) {
	n.routes = append(n.routes, route{from: int16(from), to: int16(to), airline: int32(airline), km: km, block: int32(block), perWeek: int32(perWeek)})
}

// eligible reports whether airline al (index ai) sells the pair of its
// station s and x, its weight in that market (a hub counts for more than a
// focus city, and both ends being its stations for more still), and
// whether it flies the pair nonstop: one it sells but does not fly (see
// fliesTo) keeps its share of the pair's passengers, who connect.
func (n *network) eligible(ai int, al *Airline, s, x int) (w float64, flies, ok bool) {
	c := n.c
	from, to := n.airports[s], n.airports[x]
	km := n.km(s, x)
	ownStation := n.station[ai][x] != notStation
	switch {
	case km < minLegKm || km > float64(min(al.RangeKm, maxLegKm)):
		return 0, false, false
	case al.Kind == LongHaulOnly && km < longHaulMinKm:
		return 0, false, false
	case !ownStation && !c.serves(al, to, n.gateway[ai][x]):
		return 0, false, false
	case km > ultraLongKm && !ownStation && (!n.gateway[ai][x] || n.station[ai][s] != hub):
		return 0, false, false
	case km > longRouteKm && (!n.longHaulEnd(ai, s) || !n.longHaulEnd(ai, x)):
		return 0, false, false
	case km > longRouteKm && !ownStation && to.IntlTier < 4 && !c.servesByName(al, to, n.gateway[ai][x]):
		return 0, false, false
	case !c.limitsAllow(from, to, al, km) || !c.limitsAllow(to, from, al, km):
		return 0, false, false
	case c.noService[sortedPair(from.Country, to.Country)] != "":
		return 0, false, false
	}
	w = stationWeight(n.station[ai][s]) + stationWeight(n.station[ai][x])
	switch {
	case al.Kind == LowCost && km > 4000:
		w *= 0.3 // a few long hauls on narrowbodies
	case al.Kind == LowCost:
		w *= 0.8
	}
	return w, ownStation || n.fliesTo(ai, al, s, x, km), true
}

// fliesTo reports whether airline al (index ai), which sells the pair of
// its station s and airport x (not its station), km apart, flies it
// nonstop, or sells it over a hub. It sells these over a hub:
//
//   - from a focus city, a leg of over dailyLongKm to an airport its
//     markets name only by region, and no partner's hub: from Los
//     Angeles American flies to London, Delta to Paris and Amsterdam,
//     and neither to Frankfurt or Budapest;
//   - a long haul (over thinLongKm) to another region's airport with few
//     international passengers (IntlTier 1): Anchorage's are Alaska's
//     and Canada's, not Lufthansa's from Frankfurt or Cathay Pacific's
//     from Hong Kong.
func (n *network) fliesTo(ai int, al *Airline, s, x int, km float64) bool {
	to := n.airports[x]
	switch {
	case km > dailyLongKm && n.station[ai][s] == focusCity && !n.c.servesByName(al, to, n.gateway[ai][x]) && !n.partnerHub(ai, x):
		return false
	case km > thinLongKm && to.IntlTier <= 1 && n.region[s] != n.region[x]:
		return false
	}
	return true
}

// partnerHub reports whether airport x is a hub of an airline that sells
// connections with airline ai (an alliance, or data/partners.csv), whose
// banks feed ai's flights there.
func (n *network) partnerHub(ai, x int) bool {
	for bi, ok := range n.partner[ai] {
		if ok && n.station[bi][x] == hub {
			return true
		}
	}
	return false
}

// longHaulEnd reports whether airport x may be an end of airline ai's leg
// of over longRouteKm: a leg that long fills its seats at an international
// gateway (IntlTier 3 or more) or at one its markets name (Qantas' Perth,
// Emirates' Seattle). A domestic hub (Salt Lake City, Charlotte, Denver)
// draws too few international passengers for one, though its own airline
// feeds it.
func (n *network) longHaulEnd(ai, x int) bool {
	return n.airports[x].IntlTier >= 3 || n.gateway[ai][x]
}

func stationWeight(k stationKind) float64 {
	switch k {
	case hub:
		return 3
	case focusCity:
		return 1.5
	}
	return 0
}

// serves reports whether airline al sells flights to airport a: in its home
// country, or in a region, country or gateway its markets name, but not in
// a country of that region they exclude ("europe -TR": no US airline flies
// to Turkey).
func (c *Catalog) serves(al *Airline, a *Airport, gateway bool) bool {
	if c.servesByName(al, a, gateway) {
		return true
	}
	region := c.regionOf[a.Country]
	return region != "" && slices.Contains(al.Markets, region) && !slices.Contains(al.Markets, "-"+a.Country)
}

// servesByName reports whether airline al serves airport a other than
// through a region its markets name: in its home country, or in a country
// or gateway they name. Over longRouteKm a region alone reaches only its
// major gateways (IntlTier 4 or more; see eligible): Turkish Airlines'
// latinamerica is São Paulo and Bogotá, not Lima or Buenos Aires, and
// Lufthansa's northamerica is not Honolulu.
func (c *Catalog) servesByName(al *Airline, a *Airport, gateway bool) bool {
	return gateway || a.Country == c.airports[al.Hubs[0]].Country || len(al.Markets) == 0 || slices.Contains(al.Markets, a.Country)
}

// limitsAllow reports whether airport a's limits let airline al fly a leg
// of km from it to other.
func (c *Catalog) limitsAllow(a, other *Airport, al *Airline, km float64) bool {
	l := &a.limits
	if (len(l.countries) > 0 && !slices.Contains(l.countries, other.Country)) || (len(l.kinds) > 0 && !slices.Contains(l.kinds, al.Kind)) {
		return false
	}
	return l.maxKm == 0 || km <= l.maxKm || slices.Contains(l.exempt, other.Code)
}

// Demand: how many departures a day a pair of airports fills, across every
// airline that flies it. A gravity model: the product of the airports'
// sizes (see tierWeight: by all passengers within a country, by
// international ones across a border, where one end's connecting
// passengers count and not both ends': IntlTier at one, ODTier at the
// other, whichever gives more), most for pairs 600 to 6,000 km
// apart (shorter ones lose travellers to the road and the train, longer
// ones are dearer and fly bigger aircraft), times the affinity of the two
// markets: a country's domestic market is the densest, then a region's
// (Europe, Latin America...), then the North Atlantic, then the other
// intercontinental markets. A hub's spokes within a few hours carry its
// connecting passengers as well: hubPull, which stationWeight gives the
// hub's airlines the share of.
var tierWeight = [6]float64{0, 0.5, 3, 9, 20, 40}

const demandScale = 14

// Market affinities (see demandPerDay). Pairs of regions that
// regionAffinity does not list get crossRegionAffinity.
const (
	domesticAffinity    = 6
	sameRegionAffinity  = 3
	crossRegionAffinity = 0.8
)

var regionAffinity = map[[2]string]float64{
	{"europe", "northamerica"}:       2,
	{"latinamerica", "northamerica"}: 1.2,
	{"europe", "latinamerica"}:       1.2,
	{"europe", "middleeast"}:         1.2,
	{"eastasia", "southeastasia"}:    1.5,
	{"middleeast", "southasia"}:      1.5,
	{"eastasia", "northamerica"}:     2,
	{"oceania", "southeastasia"}:     1,
	{"northamerica", "oceania"}:      1.5,
	{"africa", "europe"}:             1,
	{"africa", "middleeast"}:         1,
}

func (n *network) demandPerDay(a, b *Airport, km float64, fedBoth bool) float64 {
	// ta and tb size the passengers who begin or end their journey at
	// each end (ODTier abroad); ga and gb with those who connect there
	// (IntlTier abroad).
	ta, tb, ga, gb := a.ODTier, b.ODTier, a.IntlTier, b.IntlTier
	affinity := n.affinity(a, b, km)
	if a.Country == b.Country {
		ta, tb = a.Tier, b.Tier
		ga, gb = ta, tb
	}
	// A hub's connecting passengers fly to the other end, not on through
	// it: Emirates' from Asia fly to Istanbul, not on to Turkish's
	// Europe, which they reach over Dubai itself.
	d := max(tierWeight[ga]*tierWeight[tb], tierWeight[ta]*tierWeight[gb]) / (tierWeight[5] * tierWeight[5]) * affinity * demandScale
	switch {
	case km < 600:
		d *= 0.6 + 0.4*(km-minLegKm)/(600-minLegKm)
	case km > 6000:
		d *= 6000 / km
	}
	x, y := n.index[a.Code], n.index[b.Code]
	ha, hb := n.anyHub[x], n.anyHub[y]
	if ha && hb {
		// Both ends feed it connecting passengers: a trunk between two
		// big hubs in a dense market (affinity above crossRegionAffinity:
		// a country, a region, the North Atlantic, the transpacific) is
		// flown three times a day, however far, when an airline of each
		// hub may fly it (fedBoth: Alaska's Seattle feeds no long haul,
		// and no US airline's hub feeds Istanbul). In a thin market (India
		// to Copenhagen or Manila, Jeddah to Washington) it fills what
		// the hubs' sizes say, and each airline flies it daily at least
		// (see thinHubTrunk).
		d *= 1.5
		if n.bigHubs(x, y) && affinity > crossRegionAffinity && fedBoth {
			d = math.Max(d, 3)
		}
	}
	if ha {
		d = math.Max(d, hubPull(ga, tb, km))
	}
	if hb {
		d = math.Max(d, hubPull(gb, ta, km))
	}
	// A small airport's traffic goes to the few places it can: a market of
	// small airports (a small country, islands) is denser than their
	// sizes say.
	k := 1
	if a.Country == b.Country {
		k = 0
	}
	share := func(from, to int, t int) float64 {
		return departuresPerDay[t] * n.attraction(from, to, km) / n.outbound[from][k]
	}
	return math.Max(d, 0.5*math.Sqrt(share(x, y, ta)*share(y, x, tb)))
}

// departuresPerDay is about how many departures a day an airport of each
// tier has to the airports of the catalog.
var departuresPerDay = [6]float64{0, 12, 45, 110, 220, 400}

// attraction is how much of x's traffic y draws: its size (by all
// passengers within a country, abroad by the international ones who begin
// or end their journey there: ODTier), the affinity of
// the two markets, and less the further it is.
func (n *network) attraction(x, y int, km float64) float64 {
	a, b := n.airports[x], n.airports[y]
	t := b.ODTier
	if a.Country == b.Country {
		t = b.Tier
	}
	w := tierWeight[t] * n.affinity(a, b, km)
	switch {
	case km < 600:
		w *= 0.6 + 0.4*(km-minLegKm)/(600-minLegKm)
	case km > 3000:
		w *= math.Pow(3000/km, 1.5)
	}
	return w
}

// affinity is how much two airports' markets fly to each other beyond
// their sizes (see demandPerDay): their countries' own where
// data/affinities.csv gives one (Mexico and the United States fly to each
// other more than Latin America and North America do), else their
// regions'.
func (n *network) affinity(a, b *Airport, km float64) float64 {
	x, y := n.index[a.Code], n.index[b.Code]
	pair := n.pairAffinity[int(n.country[x])*n.countries+int(n.country[y])]
	switch ra, rb := n.region[x], n.region[y]; {
	case a.Country == b.Country:
		if km > 2500 {
			return domesticAffinity * math.Pow(2500/km, 1.5) // a long domestic flight competes with connections
		}
		return domesticAffinity
	case pair > 0:
		return pair
	case ra < 0 || rb < 0:
		return crossRegionAffinity
	default:
		return n.affinities[ra][rb]
	}
}

// indexRegions numbers the catalog's regions and fills in the affinity of
// each pair of them, so that demand is array lookups.
func (n *network) indexRegions() {
	c := n.c
	var names []string
	for name := range c.regions {
		names = append(names, name)
	}
	slices.Sort(names)
	n.affinities = make([][]float64, len(names))
	for i, ri := range names {
		n.affinities[i] = make([]float64, len(names))
		for j, rj := range names {
			v, ok := regionAffinity[sortedPair(ri, rj)]
			switch {
			case i == j:
				v = sameRegionAffinity
			case !ok:
				v = crossRegionAffinity
			}
			n.affinities[i][j] = v
		}
	}
	n.region = make([]int, len(n.airports))
	for x, a := range n.airports {
		n.region[x] = slices.Index(names, c.regionOf[a.Country])
	}
}

// hubPull is the departures a day a hub's connecting traffic fills to a
// spoke, by their tiers: about six a day to a mid-sized airport near a big
// hub, fewer to a smaller one or from a smaller hub, and few beyond 2,500
// km.
func hubPull(hub, spoke int, km float64) float64 {
	p := 6 * math.Sqrt(tierWeight[spoke]/tierWeight[3]*tierWeight[hub]/tierWeight[5])
	if km > 2500 {
		p *= math.Pow(2500/km, 3)
	}
	return p
}

// maxPerDay is the most departures a day one airline flies on a leg of km:
// shuttles on short hops, a few long hauls, and over dailyLongKm one a
// day, or two on a trunk (see longTrunk); no more than two long hauls on a
// low-cost airline's narrowbodies. In a thin market (see thinMarket) a
// long haul is flown three times a day at most, however big its ends: the
// hubs' size is their connecting traffic, which does not fly between two
// of them (Turkish Airlines flies Istanbul to Singapore about daily, not
// six times). Over denseLongKm it is three a day in any market: the
// shuttles of eight a day across an ocean are the North Atlantic's
// shortest trunks (London and Paris to New York), and no airline flies
// Istanbul to New York or Frankfurt to Toronto eight times a day. And
// three only to one of the world's top gateways (top: see topGateway);
// between two others it is twice a day on a trunk and daily otherwise, as
// over dailyLongKm: Air Canada flies Toronto to Brussels daily, American
// New York to Barcelona. Over dailyLongKm a leg is half a day's flying
// each way: Lufthansa flies Frankfurt to Los Angeles once a day,
// Singapore Airlines Barcelona to Singapore less; the few that fly more
// are the trunks between two major gateways (British Airways' London to
// Singapore twice).
func maxPerDay(km float64, kind AirlineKind, trunk, thin, top bool) int {
	most := 1
	switch {
	case km < 1500:
		most = 10
	case km < thinLongKm, km < denseLongKm && !thin:
		most = 8
	case km <= denseLongKm, km <= dailyLongKm && top:
		most = 3
	case trunk:
		most = 2
	}
	if kind == LowCost && km >= 4000 {
		most = min(most, 2)
	}
	return most
}

// thinLongKm is the shortest long haul whose frequency a thin market
// caps, denseLongKm the shortest that every market caps at three a day,
// and dailyLongKm the shortest flown once a day, twice on a trunk (see
// maxPerDay).
const (
	thinLongKm  = 4000
	denseLongKm = 6000
	dailyLongKm = 9000
)

// topGateway reports whether one of airports x and y is among the world's
// biggest for the trip between them: Tier 5 within a country, IntlTier 5
// across a border.
func (n *network) topGateway(x, y int) bool {
	a, b := n.airports[x], n.airports[y]
	if a.Country == b.Country {
		return max(a.Tier, b.Tier) >= 5
	}
	return max(a.IntlTier, b.IntlTier) >= 5
}

// thinMarket reports whether airports x and y, km apart, are in markets
// that fly to each other no more than their sizes say: another country in
// another region, of affinity crossRegionAffinity or less.
func (n *network) thinMarket(x, y int, km float64) bool {
	return n.affinity(n.airports[x], n.airports[y], km) <= crossRegionAffinity
}

// longTrunk reports whether airline ai's leg between airports a and b
// joins one of its hubs to another airport and both are major
// international gateways (IntlTier 4 or more): the only legs of over
// dailyLongKm an airline flies twice a day (Cathay Pacific from Hong Kong
// to New York and Los Angeles).
func (n *network) longTrunk(ai, a, b int) bool {
	if n.airports[a].IntlTier < 4 || n.airports[b].IntlTier < 4 {
		return false
	}
	return n.station[ai][a] == hub || n.station[ai][b] == hub
}

// knownCountry says what is wrong with a country code: not two letters,
// or, where the catalog has data/countries.csv, not in it.
func (c *Catalog) knownCountry(code string) error {
	if !isCode(code, 2) {
		return fmt.Errorf("%q is not a two-letter country code", code)
	}
	if len(c.countries) > 0 && c.countries[code] == nil {
		return fmt.Errorf("country %s is not in countries.csv", code)
	}
	return nil
}

// readCountryPairs reads a file of country pairs with the columns header:
// country, with (one or more other countries, space-separated), the
// file's own, and last a reason or source, which every row gives. It
// puts value's reading of each row (its fields; an error says what is
// wrong with them) into pairs under the two countries, sorted; a pair
// listed twice, in either order, is refused.
func readCountryPairs[T any](c *Catalog, src []byte, header []string, pairs map[[2]string]T, value func(f []string) (T, error)) error {
	return readCSV(src, header, func(_ int, f []string) error {
		if err := c.knownCountry(f[0]); err != nil {
			return err
		}
		v, err := value(f)
		if err != nil {
			return err
		}
		if f[len(f)-1] == "" {
			return fmt.Errorf("%s: no %s given", f[0], header[len(header)-1])
		}
		if len(strings.Fields(f[1])) == 0 {
			return fmt.Errorf("%s: with names no country", f[0])
		}
		for _, other := range strings.Fields(f[1]) {
			if err := c.knownCountry(other); err != nil || other == f[0] {
				return fmt.Errorf("%s with %q: not another known country", f[0], other)
			}
			pair := sortedPair(f[0], other)
			if _, ok := pairs[pair]; ok {
				return fmt.Errorf("%s with %s listed twice", f[0], other)
			}
			pairs[pair] = v
		}
		return nil
	})
}

func sortedPair(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// airportLimits are what an airport cannot take (data/airport_limits.csv).
type airportLimits struct {
	maxKm     float64       // the longest leg; 0 for no limit
	countries []string      // the only countries it has flights to; empty for any
	exempt    []string      // airports beyond maxKm it still serves
	kinds     []AirlineKind // the only kinds of airline it has; empty for any
	curfew    *window       // no scheduled departure or arrival in it, local time
	note      string
}

// window is a span of the local day in minutes after midnight, [from, to);
// it wraps past midnight when to < from.
type window struct{ from, to int }

func (w *window) contains(minute int) bool {
	if w == nil {
		return false
	}
	m := ((minute % 1440) + 1440) % 1440
	if w.from <= w.to {
		return m >= w.from && m < w.to
	}
	return m >= w.from || m < w.to
}

func parseWindow(s string) (*window, error) {
	a, b, ok := strings.Cut(s, "-")
	from, err1 := ParseClock(a)
	to, err2 := ParseClock(b)
	if !ok || err1 != nil || err2 != nil || from == to {
		return nil, fmt.Errorf("%q is not a span of the day in HH:MM-HH:MM form", s)
	}
	return &window{int(from), int(to)}, nil
}

// readNetworkRules reads the network model's data, checks it against the
// airports and airlines, and records it in the catalog.
func (c *Catalog) readNetworkRules(src Sources) error {
	c.regions, c.regionOf = map[string][]string{}, map[string]string{}
	c.partners, c.noService = map[[2]string]string{}, map[[2]string]string{}
	knownCountry := c.knownCountry
	if len(src.Regions) > 0 {
		err := readCSV(src.Regions, []string{"region", "countries"}, func(_ int, f []string) error {
			name := f[0]
			if name == "" || strings.ToLower(name) != name || c.regions[name] != nil {
				return fmt.Errorf("region %q is not a new lower-case name", name)
			}
			c.regions[name] = strings.Fields(f[1])
			for _, code := range c.regions[name] {
				if err := knownCountry(code); err != nil {
					return fmt.Errorf("region %s: %w", name, err)
				}
				if other := c.regionOf[code]; other != "" {
					return fmt.Errorf("region %s: %s is already in %s", name, code, other)
				}
				c.regionOf[code] = name
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("regions: %w", err)
		}
		for _, code := range c.codes {
			if a := c.airports[code]; c.regionOf[a.Country] == "" {
				return fmt.Errorf("regions: airport %s is in %s, which is in no region", code, a.Country)
			}
		}
	}
	for _, al := range c.airlines {
		for _, m := range al.Markets {
			switch {
			case c.regions[m] != nil, c.airports[m] != nil && len(m) == 3:
			case len(m) == 2 && knownCountry(m) == nil:
			case len(m) == 3 && m[0] == '-' && knownCountry(m[1:]) == nil:
				if r := c.regionOf[m[1:]]; r == "" || !slices.Contains(al.Markets, r) {
					return fmt.Errorf("airlines: %s: market %q excludes %s from no region its markets name; name the region too, or drop %q", al.Code, m, m[1:], m)
				}
			default:
				return fmt.Errorf("airlines: %s: market %q is not a region of regions.csv, a country code, an airport code or a country to leave out (-TR)", al.Code, m)
			}
		}
	}
	if len(src.Partners) > 0 {
		err := readCSV(src.Partners, []string{"name", "airlines"}, func(_ int, f []string) error {
			codes := strings.Fields(f[1])
			if len(codes) < 2 {
				return fmt.Errorf("partnership %q names fewer than two airlines", f[0])
			}
			for i, a := range codes {
				if c.byCode[a] == nil {
					return fmt.Errorf("partnership %q: %s is not a known airline", f[0], a)
				}
				for _, b := range codes[:i] {
					c.partners[sortedPair(a, b)] = f[0]
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("partners: %w", err)
		}
	}
	if len(src.NoService) > 0 {
		err := readCountryPairs(c, src.NoService, []string{"country", "with", "reason"}, c.noService, func(f []string) (string, error) { return f[2], nil })
		if err != nil {
			return fmt.Errorf("no_service: %w", err)
		}
	}
	if len(src.Affinities) > 0 {
		c.affinity = map[[2]string]float64{}
		err := readCountryPairs(c, src.Affinities, []string{"country", "with", "affinity", "reason"}, c.affinity, func(f []string) (float64, error) {
			v, err := strconv.ParseFloat(f[2], 64)
			if err != nil || !(v > 0 && v <= domesticAffinity) {
				return 0, fmt.Errorf("%s: affinity %q is not a number above 0 and at most %v (a country's own market)", f[0], f[2], float64(domesticAffinity))
			}
			return v, nil
		})
		if err != nil {
			return fmt.Errorf("affinities: %w", err)
		}
	}
	if len(src.Bilaterals) > 0 {
		c.bilateral = map[[2]string]int{}
		err := readCountryPairs(c, src.Bilaterals, []string{"country", "with", "per_week", "source"}, c.bilateral, func(f []string) (int, error) {
			v, err := strconv.Atoi(f[2])
			if err != nil || v < minPerWeek {
				return 0, fmt.Errorf("%s: per_week %q is not a whole number of flights a week of at least %d (to forbid them, list the pair in no_service.csv)", f[0], f[2], minPerWeek)
			}
			return v, nil
		})
		if err != nil {
			return fmt.Errorf("bilaterals: %w", err)
		}
	}
	if len(src.Limits) > 0 {
		err := readCSV(src.Limits, []string{"iata", "max_km", "countries", "exempt", "curfew", "kinds", "note"}, func(_ int, f []string) error {
			a := c.airports[f[0]]
			if a == nil {
				return fmt.Errorf("%s is not a known airport", f[0])
			}
			if a.limits.note != "" || a.limits.curfew != nil || a.limits.maxKm != 0 {
				return fmt.Errorf("airport %s listed twice", f[0])
			}
			km, err := strconv.Atoi(f[1])
			if err != nil || km < 0 {
				return fmt.Errorf("airport %s: max_km %q is not a number of kilometres (0 for no limit)", f[0], f[1])
			}
			l := airportLimits{maxKm: float64(km), countries: strings.Fields(f[2]), exempt: strings.Fields(f[3]), note: f[6]}
			for _, k := range strings.Fields(f[5]) {
				if kind := AirlineKind(k); kind == NetworkAirline || kind == LowCost || kind == LongHaulOnly {
					l.kinds = append(l.kinds, kind)
				} else {
					return fmt.Errorf("airport %s: kinds: %q is not %s, %s or %s", f[0], k, NetworkAirline, LowCost, LongHaulOnly)
				}
			}
			for _, code := range l.countries {
				if err := knownCountry(code); err != nil {
					return fmt.Errorf("airport %s: countries: %w", f[0], err)
				}
			}
			for _, code := range l.exempt {
				if c.airports[code] == nil {
					return fmt.Errorf("airport %s: exempt %s is not a known airport", f[0], code)
				}
			}
			if f[4] != "" {
				if l.curfew, err = parseWindow(f[4]); err != nil {
					return fmt.Errorf("airport %s: curfew: %w", f[0], err)
				}
			}
			if (l.maxKm > 0 || len(l.countries) > 0 || len(l.kinds) > 0) && l.note == "" {
				return fmt.Errorf("airport %s: a limit needs a note saying what it is", f[0])
			}
			a.limits = l
			return nil
		})
		if err != nil {
			return fmt.Errorf("airport_limits: %w", err)
		}
	}
	return nil
}
