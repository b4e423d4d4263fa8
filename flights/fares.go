package flights

import (
	"math"
	"time"
)

// Fares. An economy fare grows with the distance (cheaper per km on long
// hauls) and the market (fares per km are lower in Europe and South Asia
// than in North America or Africa); a low-cost airline sells for less; a
// connection for less than a nonstop; a real overnight flight for less
// than a day flight, a short hop at the business peaks for more; a late
// booking for more. A cabin's fare is a multiple of economy's that depends
// on the distance and the market: business on a short hop in Europe is a
// modest premium, on a long haul about five times economy, and first
// (sold on flagship long hauls only) more again. A round trip on one
// airline costs less than two one-ways, more so on a long haul; on two
// airlines of one alliance, half as much less; on a low-cost airline,
// nothing less.

// Fare is how a flight's fare was built, for pricing it with another flight
// as a round trip (see NewRoundTrip).
type Fare struct {
	// Carrier is the airline that sells the fare: the one flying the
	// longest segment. Alliance is its alliance, or "" for none.
	Carrier, Alliance string
	// OneWayUSD is the fare per passenger as a one-way ticket: the
	// flight's PriceUSD when the provider returned it.
	OneWayUSD int
	// HalfRoundTripUSD is the fare per passenger as half of a round trip
	// on Carrier, at most OneWayUSD; 0 when Carrier sells no round-trip
	// fares (low-cost airlines price each way on its own).
	HalfRoundTripUSD int
}

// Market fare levels, per region, against the world's average: what a km
// of economy costs there. A flight between two regions pays the geometric
// mean of both.
var regionFare = map[string]float64{
	"northamerica": 1.15, "latinamerica": 1.05, "europe": 0.9, "middleeast": 1.0, "africa": 1.25,
	"southasia": 0.65, "eastasia": 1.0, "southeastasia": 0.8, "oceania": 1.1,
}

// economyUSD is the one-way economy fare per passenger before the time of
// day, the booking date and the noise: the distance, the market, the
// airline and the stops.
func economyUSD(c *Catalog, o, d *Airport, km float64, carrier *Airline, stops int) float64 {
	base := 40 + 0.11*math.Min(km, 3000) + 0.07*math.Max(0, km-3000)
	return base * marketFactor(c, o, d) * carrierFactor(carrier) * []float64{1, 0.82, 0.7}[stops]
}

func marketFactor(c *Catalog, o, d *Airport) float64 {
	f := func(a *Airport) float64 {
		if v, ok := regionFare[c.regionOf[a.Country]]; ok {
			return v
		}
		return 1
	}
	return math.Sqrt(f(o) * f(d))
}

// carrierFactor places an airline: a low-cost airline at 0.7, the others
// between 0.92 and 1.12 (a hash of the code, the same on every run).
func carrierFactor(al *Airline) float64 {
	if al.Kind == LowCost {
		return 0.7
	}
	return 0.92 + 0.2*unit(hash64(al.Code), 0)
}

// cabinFactor is a cabin's fare as a multiple of economy's on a route of km
// whose both ends are in region ("" when they are not in the same one).
// Premium economy and first are sold only on legs of at least
// longCabinKm, so their short-haul ends are never used.
func cabinFactor(cabin Cabin, km float64, region string) float64 {
	long := smoothstep(1500, 7000, km) // 0 on a short hop, 1 on a long haul
	business := func() float64 {
		short := 2.2 // a short-haul business cabin or US domestic first
		if region == "europe" {
			short = 1.4 // a blocked middle seat and a lounge
		}
		return short + (5-short)*long
	}
	switch cabin {
	case PremiumEconomy:
		return 1.45 + 0.35*long
	case Business:
		return business()
	case First:
		return business() * (1.45 + 0.35*smoothstep(5000, 12000, km))
	}
	return 1
}

// roundTripDiscount is how much less a round trip on one network airline
// costs than two one-ways: 6% on a short hop, MaxRoundTripDiscount on a
// long haul.
func roundTripDiscount(carrier *Airline, km float64) float64 {
	if carrier.Kind == LowCost {
		return 0
	}
	return 0.06 + (MaxRoundTripDiscount-0.06)*smoothstep(1000, 8000, km)
}

// MaxRoundTripDiscount bounds how much less a leg costs as part of a round
// trip than as a one-way (see NewRoundTrip): a pair of flights never costs
// less than this fraction off the sum of their one-way fares, which lets a
// caller prune pairs without pricing every one.
const MaxRoundTripDiscount = 0.25

func smoothstep(from, to, x float64) float64 {
	t := math.Min(1, math.Max(0, (x-from)/(to-from)))
	return t * t * (3 - 2*t)
}

// RedEye reports whether the flight is a real overnight flight: it leaves
// between 21:00 and 02:00 local, takes at least four hours, and lands the
// next morning (04:30 to 10:00 local), so the night is spent on board. A
// short hop after 22:00 is a late flight, not a red-eye.
func (f Flight) RedEye() bool {
	dep, arr := f.Depart(), f.Arrive()
	h := dep.Hour()*60 + dep.Minute()
	a := arr.Hour()*60 + arr.Minute()
	dy, dm, dd := dep.Date()
	ay, am, ad := arr.Date()
	return (h >= 21*60 || h < 2*60) && f.Duration() >= 4*time.Hour && a >= 4*60+30 && a <= 10*60 && (ay != dy || am != dm || ad != dd)
}

// basePrice is the part of the itinerary's fare per passenger that does
// not depend on the search: economy's, with the time of day and the noise.
func basePrice(c *Catalog, f Flight, directKm float64, carrier *Airline, noise float64) float64 {
	o, d := c.Airport(f.Segments[0].From), c.Airport(f.Segments[len(f.Segments)-1].To)
	p := economyUSD(c, o, d, directKm, carrier, f.Stops()) * noise
	switch hour := f.Depart().Hour(); {
	case f.RedEye():
		p *= 0.85
	case directKm < 3000 && ((hour >= 7 && hour < 9) || (hour >= 17 && hour < 19)):
		p *= 1.12 // business peaks
	}
	return p
}

// price is the fare per passenger for the itinerary in cabin Cabins[ci],
// times the booking date's advanceFactor.
func (it *itinerary) price(ci int, advance float64) int {
	return max(39, int(math.Round(it.fares[ci]*advance)))
}

// advanceFactor is what booking daysAhead of departure does to a fare: a
// late booking costs up to 1.6 times an early one.
func advanceFactor(daysAhead float64) float64 {
	return 0.92 + 0.7*math.Exp(-math.Max(0, daysAhead)/9)
}

// fare is the Fare of the itinerary at price.
func (it *itinerary) fare(price int) Fare {
	f := Fare{Carrier: it.carrier.Code, OneWayUSD: price}
	if it.carrier.Alliance != "none" {
		f.Alliance = it.carrier.Alliance
	}
	if it.rtDiscount > 0 {
		f.HalfRoundTripUSD = max(1, int(math.Ceil(float64(price)*(1-it.rtDiscount)))) // never below MaxRoundTripDiscount off
	}
	return f
}
