package flights

import (
	"context"
	"strings"
	"testing"
	"time"
)

// search is a validated trip's flights for one day, the way the tool layer
// will ask: the outbound with trip.On, the return with trip.Return.
func searchLegs(t *testing.T, trip Trip) (outs, rets []Flight) {
	t.Helper()
	p := NewSynthetic(mustCatalog(t), now, 0)
	outs, err := p.Search(context.Background(), trip.On(trip.Date))
	if err != nil {
		t.Fatal(err)
	}
	rets, err = p.Search(context.Background(), trip.Return(trip.ReturnDate))
	if err != nil {
		t.Fatal(err)
	}
	return outs, rets
}

func TestRoundTripOverARealSearch(t *testing.T) {
	v := Validator{Catalog: mustCatalog(t), Now: now}
	trip, err := v.Validate(Request{Origin: "JFK", Destination: "LHR", Date: "2026-12-15", ReturnDate: "2026-12-22", Passengers: ptrTo(3), Cabin: "business"})
	if err != nil {
		t.Fatal(err)
	}
	outs, rets := searchLegs(t, trip)
	r, err := NewRoundTrip(outs[0], rets[0])
	if err != nil {
		t.Fatal(err)
	}
	if r.ID() != outs[0].ID+"_"+rets[0].ID || !strings.HasPrefix(rets[0].ID, "LHR-JFK-261222-") {
		t.Errorf("ID = %s", r.ID())
	}
	if r.PriceUSD() != r.Out.PriceUSD+r.Return.PriceUSD || r.TotalUSD() != 3*r.PriceUSD() || r.PriceUSD() > outs[0].PriceUSD+rets[0].PriceUSD {
		t.Errorf("price %d total %d for 3 passengers, legs %d and %d", r.PriceUSD(), r.TotalUSD(), outs[0].PriceUSD, rets[0].PriceUSD)
	}
	if r.Duration() != outs[0].Duration()+rets[0].Duration() || r.Stay() < 6*24*time.Hour {
		t.Errorf("duration %v, stay %v", r.Duration(), r.Stay())
	}
	out, ret, err := ParseRoundTripID(r.ID())
	if err != nil || out != outs[0].ID || ret != rets[0].ID || !IsRoundTripID(r.ID()) || IsRoundTripID(out) {
		t.Errorf("ParseRoundTripID(%s) = %s %s %v", r.ID(), out, ret, err)
	}
}

func TestNewRoundTripRefuses(t *testing.T) {
	c := mustCatalog(t)
	at := func(code string, d, hh, mm int) time.Time {
		return time.Date(2026, 12, d, hh, mm, 0, 0, c.Airport(code).Location())
	}
	leg := func(id, from, to string, depDay, depH, arrDay, arrH, price, pax int, cabin Cabin) Flight {
		return Flight{ID: id, Cabin: cabin, PriceUSD: price, TotalUSD: price * pax, Segments: []Segment{{FlightNumber: "BA1", Airline: "BA", From: from, To: to, Depart: at(from, depDay, depH, 0), Arrive: at(to, arrDay, arrH, 0)}}}
	}
	out := leg("JFK-LHR-261215-AAAAA", "JFK", "LHR", 15, 8, 15, 20, 500, 2, Economy)
	for _, tc := range []struct {
		name string
		ret  Flight
		want string
	}{
		{"turnaround too short", leg("LHR-JFK-261215-BBBBB", "LHR", "JFK", 15, 22, 16, 1, 400, 2, Economy), "leaves 2h00m after the outbound lands"},
		{"return before the outbound lands", leg("LHR-JFK-261215-BBBBB", "LHR", "JFK", 15, 9, 15, 12, 400, 2, Economy), "under the 3h00m minimum"},
		{"another cabin", leg("LHR-JFK-261222-BBBBB", "LHR", "JFK", 22, 9, 22, 12, 1400, 2, Business), "different cabins or parties"},
		{"another party", leg("LHR-JFK-261222-BBBBB", "LHR", "JFK", 22, 9, 22, 12, 400, 3, Economy), "different cabins or parties"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewRoundTrip(out, tc.ret); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
	ok := leg("LHR-JFK-261215-BBBBB", "LHR", "JFK", 15, 23, 16, 2, 400, 2, Economy) // a day trip, 3 hours on the ground
	if r, err := NewRoundTrip(out, ok); err != nil || r.TotalUSD() != 1800 || r.PriceUSD() != 900 {
		t.Errorf("same-day return: %v, total %d", err, r.TotalUSD())
	}
}

func TestParseRoundTripIDRejects(t *testing.T) {
	for _, tc := range []struct{ id, want string }{
		{"JFK-LHR-261215-K3M9P", "not a round trip id"},
		{"JFK-LHR-261215-K3M9P_LHR-JFK-261222-M2N4Q_X", "not a round trip id"},
		{"JFK-LHR-261215-K3M9_LHR-JFK-261222-M2N4Q", "outbound"},
		{"JFK-LHR-261215-K3M9P_LHR-JFK-261322-M2N4Q", "return"},
		{"JFK-LHR-261215-K3M9P_LHR-JFK-261214-M2N4Q", "dated before the outbound"},
		{"JFK-LHR-261215-K3M9P_JFK-LHR-261222-M2N4Q", "repeats an end"},
	} {
		if _, _, err := ParseRoundTripID(tc.id); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseRoundTripID(%s) = %v, want %q", tc.id, err, tc.want)
		}
	}
	// A metro round trip may come back from another airport of the city.
	if out, ret, err := ParseRoundTripID("JFK-LHR-261215-K3M9P_LGW-EWR-261222-M2N4Q"); err != nil || out != "JFK-LHR-261215-K3M9P" || ret != "LGW-EWR-261222-M2N4Q" {
		t.Errorf("open jaw within metros: %s %s %v", out, ret, err)
	}
}

// A round trip is priced as one: on one airline both ways, each leg costs
// its half-round-trip fare, less than its one-way, and more so on a long
// haul; on two airlines of one alliance half as much less; on airlines of
// no common alliance, or a low-cost airline, the sum of two one-ways.
func TestRoundTripFares(t *testing.T) {
	c := mustCatalog(t)
	p := NewSynthetic(c, now, 0)
	legs := func(o, d, date string) []Flight {
		fs, err := p.Search(context.Background(), tripFor(t, c, o, d, date))
		if err != nil {
			t.Fatal(err)
		}
		return fs
	}
	// The first nonstop of each airline, each way.
	nonstop := func(fs []Flight, airline string) Flight {
		for _, f := range fs {
			if f.Stops() == 0 && f.Segments[0].Airline == airline {
				return f
			}
		}
		t.Fatalf("no %s nonstop among %d flights", airline, len(fs))
		return Flight{}
	}
	discount := func(out, ret Flight) float64 {
		t.Helper()
		r, err := NewRoundTrip(out, ret)
		if err != nil {
			t.Fatal(err)
		}
		if r.PriceUSD() != r.Out.PriceUSD+r.Return.PriceUSD || r.TotalUSD() != r.Out.TotalUSD+r.Return.TotalUSD {
			t.Errorf("%s: price %d, total %d: not the sum of the legs' shares", r.ID(), r.PriceUSD(), r.TotalUSD())
		}
		again, err := NewRoundTrip(r.Out, r.Return)
		if err != nil || again.PriceUSD() != r.PriceUSD() {
			t.Errorf("%s: pairing the priced legs again gives %d, not %d (%v)", r.ID(), again.PriceUSD(), r.PriceUSD(), err)
		}
		return 1 - float64(r.PriceUSD())/float64(out.PriceUSD+ret.PriceUSD)
	}
	lhr, jfk := legs("JFK", "LHR", "2027-01-20"), legs("LHR", "JFK", "2027-01-27")
	long := discount(nonstop(lhr, "BA"), nonstop(jfk, "BA"))
	partners := discount(nonstop(lhr, "BA"), nonstop(jfk, "AA"))
	strangers := discount(nonstop(lhr, "BA"), nonstop(jfk, "VS"))
	bos, lga := legs("LGA", "BOS", "2027-01-20"), legs("BOS", "LGA", "2027-01-21")
	short := discount(nonstop(bos, "DL"), nonstop(lga, "DL"))
	lowCost := discount(nonstop(bos, "B6"), nonstop(lga, "B6"))
	t.Logf("round-trip discounts: BA JFK-LHR %.3f, BA out AA back %.3f, BA out VS back %.3f, DL LGA-BOS %.3f, B6 LGA-BOS %.3f", long, partners, strangers, short, lowCost)
	switch {
	case long < 0.15 || long > 0.3:
		t.Errorf("BA both ways across the Atlantic: %.0f%% less than two one-ways, want 15-30%%", 100*long)
	case partners < long/2-0.02 || partners > long/2+0.02:
		t.Errorf("BA out, AA back: %.0f%% less, want half of BA both ways (%.0f%%)", 100*partners, 100*long)
	case strangers != 0 || lowCost != 0:
		t.Errorf("BA out, VS back: %.1f%% less; JetBlue both ways: %.1f%% less; want two one-ways", 100*strangers, 100*lowCost)
	case short < 0.04 || short > long/2:
		t.Errorf("Delta both ways LGA-BOS: %.0f%% less, want a small discount, well under the long haul's %.0f%%", 100*short, 100*long)
	}
}
