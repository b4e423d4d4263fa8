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

// Flight-time model. A jet cruises at about 810 km/h; taxi, climb and descent
// add about half an hour; winds change the time by up to 6% either way.
const (
	cruiseKmPerMinute = 13.5
	taxiMinutes       = 30
	windEffect        = 0.06
)

// BlockTime is the scheduled gate-to-gate time between two airports, rounded
// to five minutes as airline schedules are.
func BlockTime(from, to *Airport) time.Duration {
	minutes := taxiMinutes + DistanceKm(from, to)/cruiseKmPerMinute*(1-windEffect*eastward(from, to))
	return (time.Duration(minutes) * time.Minute).Round(5 * time.Minute)
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
