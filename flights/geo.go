package flights

import (
	"math"
	"time"
)

const earthRadiusKm = 6371.0

// DistanceKm is the great-circle distance between two airports (haversine).
func DistanceKm(a, b *Airport) float64 {
	lat1, lat2 := radians(a.Lat), radians(b.Lat)
	dLat, dLon := lat2-lat1, radians(b.Lon-a.Lon)
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1)*math.Cos(lat2)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthRadiusKm * math.Asin(math.Min(1, math.Sqrt(h)))
}

// eastward is the east component of the initial great-circle heading from a
// to b: +1 due east, -1 due west. Jet streams blow west to east, so eastbound
// flights are quicker.
func eastward(a, b *Airport) float64 {
	lat1, lat2 := radians(a.Lat), radians(b.Lat)
	dLon := radians(b.Lon - a.Lon)
	y := math.Sin(dLon) * math.Cos(lat2)
	x := math.Cos(lat1)*math.Sin(lat2) - math.Sin(lat1)*math.Cos(lat2)*math.Cos(dLon)
	return math.Sin(math.Atan2(y, x))
}

func radians(deg float64) float64 { return deg * math.Pi / 180 }

// Flight-time model, fitted to typical published block times (see
// TestBlockTimesMatchPublishedOnes): taxi out and in (longer at bigger and
// congested airports), a fixed allowance for climb and descent, and a
// cruise whose average speed rises with the stage length, from about 590
// km/h on a short hop (most of it climbing and descending) to about 920
// km/h on the longest; prevailing westerlies speed eastbound flights and
// slow westbound ones, most where the jet streams are strongest (over North
// America, the Atlantic and the North Pacific); and a route whose great
// circle crosses the polar regions flies a longer track than it.
const (
	climbDescentMinutes = 21
	shortHaulKmPerMin   = 9.8  // the average speed a very short leg tends to
	cruiseKmPerMin      = 15.3 // and a very long one
	speedScaleKm        = 3600 // how fast the speed rises with the distance
	windEffect          = 0.118
	weakJetShare        = 0.41 // of windEffect, away from the strongest jets
	polarDetour         = 0.063
)

// BlockTime is the scheduled gate-to-gate time between two airports, rounded
// to five minutes as airline schedules are.
func BlockTime(from, to *Airport) time.Duration {
	return time.Duration(blockMinutes(from, to, DistanceKm(from, to))) * time.Minute
}

// blockMinutes is BlockTime in minutes, for a leg of km.
func blockMinutes(from, to *Airport, km float64) int {
	there, _ := blockMinutesBothWays(from, to, km)
	return there
}

// blockMinutesBothWays is the block time from a to b and from b to a, in
// minutes: the route's shape is sampled once for both.
func blockMinutesBothWays(a, b *Airport, km float64) (there, back int) {
	speed := cruiseKmPerMin - (cruiseKmPerMin-shortHaulKmPerMin)*math.Exp(-km/speedScaleKm)
	jet, maxLat := alongRoute(a, b)
	east := (eastward(a, b) - eastward(b, a)) / 2 // the same either way, reversed
	detour := 1 + polarDetour*math.Max(0, maxLat-70)/20
	minutes := func(from, to *Airport, east float64) int {
		headwind := -windEffect * east * (weakJetShare + (1-weakJetShare)*jet)
		m := taxiOut(from) + taxiIn(to) + climbDescentMinutes + (km*detour+headwind*math.Max(0, km-300))/speed
		return int(math.Round(m/5)) * 5
	}
	return minutes(a, b, east), minutes(b, a, -east)
}

// taxiOut and taxiIn are the minutes from the gate to the runway and back:
// longer at a bigger airport, and longer still where the data says the
// airport is congested (Airport.TaxiDelay).
func taxiOut(a *Airport) float64 {
	return math.Max(5, 8.5+3*float64(a.Tier-3)) + float64(a.TaxiDelay)
}

func taxiIn(a *Airport) float64 { return math.Max(4, 8.7+1.5*float64(a.Tier-3)) }

// alongRoute samples the great circle from a to b: the share of it where
// the jet streams are strongest (north of 20N and south of 65N, over North
// America, the Atlantic and the North Pacific) and the highest latitude it
// reaches, north or south.
func alongRoute(a, b *Airport) (jet, maxLat float64) {
	ends := math.Max(math.Abs(a.Lat), math.Abs(b.Lat))
	// Points on the chord between the two, projected onto the sphere: not
	// evenly spaced along the arc, but close enough to sample it. A
	// latitude is compared by its sine, z over the point's length.
	ax, ay, az := unitVector(a)
	bx, by, bz := unitVector(b)
	const samples = 16
	sin20, sin65 := math.Sin(radians(20)), math.Sin(radians(65))
	in, highest := 0, math.Sin(radians(ends))
	for i := range samples {
		f := (float64(i) + 0.5) / samples
		x, y, z := ax+f*(bx-ax), ay+f*(by-ay), az+f*(bz-az)
		sinLat := z / math.Sqrt(x*x+y*y+z*z)
		highest = math.Max(highest, math.Abs(sinLat))
		if sinLat <= sin20 || sinLat >= sin65 {
			continue
		}
		if lon := math.Atan2(y, x) * 180 / math.Pi; (lon > -130 && lon < -5) || lon > 120 || lon < -150 {
			in++
		}
	}
	maxLat = ends
	if highest > math.Sin(radians(ends)) {
		// The circle's vertex lies between them: its latitude exactly, from
		// the initial course, rather than the nearest sample's.
		maxLat = math.Acos(math.Abs(eastward(a, b))*math.Cos(radians(a.Lat))) * 180 / math.Pi
	}
	return float64(in) / samples, maxLat
}

func unitVector(a *Airport) (x, y, z float64) {
	lat, lon := radians(a.Lat), radians(a.Lon)
	return math.Cos(lat) * math.Cos(lon), math.Cos(lat) * math.Sin(lon), math.Sin(lat)
}

// MinConnectTime is the shortest layover the provider schedules at hub:
// 50 minutes when both flights are domestic, 80 when either crosses a border
// (passport control, often a security re-check).
func MinConnectTime(arrivingFrom, hub, departingTo *Airport) time.Duration {
	if arrivingFrom.Country == hub.Country && departingTo.Country == hub.Country {
		return 50 * time.Minute
	}
	return 80 * time.Minute
}
