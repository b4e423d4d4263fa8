package ranking

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/flightserver/flightserver/flights"
)

var day = time.Date(2026, 12, 15, 0, 0, 0, 0, time.UTC)

// flight builds a flight departing at hh:mm UTC, taking the given hours,
// with the given stops and fare.
func flight(id string, hhmm string, hours float64, stops, price int) flights.Flight {
	c, _ := flights.ParseClock(hhmm)
	dep := day.Add(time.Duration(c) * time.Minute)
	arr := dep.Add(time.Duration(hours * float64(time.Hour)))
	f := flights.Flight{ID: id, PriceUSD: price, TotalUSD: price}
	legs := stops + 1
	for i := range legs {
		from, to := "AAA", "BBB"
		if i > 0 {
			from = "HB" + string(rune('A'+i-1))
		}
		if i < legs-1 {
			to = "HB" + string(rune('A'+i))
		}
		f.Segments = append(f.Segments, flights.Segment{FlightNumber: "XX1", Airline: "XX", From: from, To: to, Depart: dep, Arrive: arr})
	}
	return f
}

func ids(picks []Pick) string {
	var out []string
	for _, p := range picks {
		out = append(out, p.Flight.ID)
	}
	return strings.Join(out, " ")
}

func TestScore(t *testing.T) {
	w := Weights{StopPenaltyUSD: 75, HourCostUSD: 20}
	for _, tc := range []struct {
		f    flights.Flight
		want float64
	}{
		{flight("a", "08:00", 7, 0, 500), 500 + 140},
		{flight("b", "08:00", 10, 1, 400), 400 + 75 + 200},
		{flight("c", "08:00", 15.5, 2, 300), 300 + 150 + 310},
	} {
		if got := w.Score(tc.f); got != tc.want {
			t.Errorf("Score(%s) = %v, want %v", tc.f.ID, got, tc.want)
		}
	}
}

func TestOrderAndTieBreaks(t *testing.T) {
	w := Weights{StopPenaltyUSD: 75, HourCostUSD: 20}
	for _, tc := range []struct {
		name string
		fs   []flights.Flight
		want string
	}{
		{"lowest score first", []flights.Flight{flight("dear", "08:00", 7, 0, 900), flight("cheap", "08:00", 7, 0, 400)}, "cheap dear"},
		{"a stop costs $75", []flights.Flight{flight("stop", "08:00", 7, 1, 450), flight("nonstop", "08:00", 7, 0, 500)}, "nonstop stop"},
		{"an hour costs $20", []flights.Flight{flight("slow", "08:00", 9, 0, 450), flight("fast", "08:00", 7, 0, 480)}, "fast slow"},
		// Equal scores: shorter duration, then earlier departure, then id.
		{"tie: shorter first", []flights.Flight{flight("long", "08:00", 8, 0, 480), flight("short", "08:00", 7, 0, 500)}, "short long"},
		{"tie: earlier first", []flights.Flight{flight("late", "18:00", 7, 0, 500), flight("early", "06:00", 7, 0, 500)}, "early late"},
		{"tie: id last", []flights.Flight{flight("b", "06:00", 7, 0, 500), flight("a", "06:00", 7, 0, 500)}, "a b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os := OneWay(tc.fs)
			w.Order(os)
			var got []string
			for _, o := range os {
				got = append(got, o.Flight.ID)
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("order = %v, want %s", got, tc.want)
			}
		})
	}
}

func TestFilterRunsBeforeScoring(t *testing.T) {
	fs := []flights.Flight{
		flight("nonstop-dawn", "05:30", 7, 0, 300),
		flight("nonstop-noon", "12:00", 7, 0, 700),
		flight("onestop-morning", "09:00", 10, 1, 350),
		flight("twostop-evening", "19:00", 14, 2, 250),
	}
	after, before := flights.Clock(6*60), flights.Clock(20*60)
	for _, tc := range []struct {
		name string
		trip flights.Trip
		want string
	}{
		{"no limits", flights.Trip{MaxStops: 2}, "nonstop-dawn onestop-morning twostop-evening nonstop-noon"},
		{"nonstop only", flights.Trip{MaxStops: 0}, "nonstop-dawn nonstop-noon"},
		{"at most one stop", flights.Trip{MaxStops: 1}, "nonstop-dawn onestop-morning nonstop-noon"},
		{"departure window", flights.Trip{MaxStops: 2, DepartAfter: &after, DepartBefore: &before}, "onestop-morning twostop-evening nonstop-noon"},
		{"price cap is inclusive", flights.Trip{MaxStops: 2, MaxPriceUSD: 350}, "nonstop-dawn onestop-morning twostop-evening"},
		{"nothing left", flights.Trip{MaxStops: 0, MaxPriceUSD: 100}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := DefaultWeights.Rank(OneWay(DefaultWeights.Candidates(tc.trip, fs)), 10, Standouts{})
			if got := ids(r.Picks); got != tc.want {
				t.Errorf("ranked %q, want %q", got, tc.want)
			}
			if r.Considered != len(r.Picks) || r.Method != Deterministic || !r.Ranked {
				t.Errorf("considered %d, method %s, ranked %v", r.Considered, r.Method, r.Ranked)
			}
		})
	}
}

func TestRankGivesBestThreeWithReasons(t *testing.T) {
	fs := []flights.Flight{
		flight("a", "08:00", 7, 0, 600), flight("b", "09:00", 11, 1, 470), flight("c", "10:00", 16, 2, 380),
		flight("d", "11:00", 7.5, 0, 650),
	}
	r := DefaultWeights.Rank(OneWay(DefaultWeights.Candidates(flights.Trip{MaxStops: 2}, fs)), 3, Standouts{})
	if len(r.Picks) != 3 || r.Considered != 4 {
		t.Fatalf("%d picks of %d considered, want 3 of 4", len(r.Picks), r.Considered)
	}
	first := r.Picks[0].Reason
	for _, want := range []string{"$600", "nonstop", "7h00m", "best balance", "fastest", "score 740"} {
		if !strings.Contains(first, want) {
			t.Errorf("reason %q lacks %q", first, want)
		}
	}
	if !strings.Contains(r.Picks[1].Reason, "next best (score +") {
		t.Errorf("second reason %q does not compare with the first", r.Picks[1].Reason)
	}
	// Ranking does not reorder or change the caller's slice.
	if fs[0].ID != "a" || fs[3].ID != "d" {
		t.Error("Rank reordered its input")
	}
}

func TestShortlistIsUnranked(t *testing.T) {
	var fs []flights.Flight
	for i := range 15 {
		fs = append(fs, flight(string(rune('a'+i)), "08:00", 7, 0, 300+10*i))
	}
	r := DefaultWeights.Shortlist(OneWay(DefaultWeights.Candidates(flights.Trip{MaxStops: 2}, fs)), 10)
	if r.Method != Candidates || r.Ranked || len(r.Picks) != 10 || r.Considered != 15 {
		t.Fatalf("method %s ranked %v picks %d considered %d", r.Method, r.Ranked, len(r.Picks), r.Considered)
	}
	if r.Picks[0].Reason != "$300, nonstop, 7h00m" {
		t.Errorf("reason %q, want facts only", r.Picks[0].Reason)
	}
	if got := DefaultWeights.Shortlist(nil, 10); len(got.Picks) != 0 || got.Considered != 0 {
		t.Errorf("empty input gave %+v", got)
	}
}

// The ranker over a real search result: the best flight is never beaten by
// another on both price and time with no more stops.
func TestRankOnSyntheticFlightsIsParetoSane(t *testing.T) {
	trip, fs := search(t, "LAX", "SYD", "2027-01-05")
	best := DefaultWeights.Rank(OneWay(DefaultWeights.Candidates(trip, fs)), 3, Standouts{}).Picks[0].Flight
	for _, f := range fs {
		if f.PriceUSD < best.PriceUSD && f.Duration() < best.Duration() && f.Stops() <= best.Stops() {
			t.Errorf("%s ($%d, %v, %d stops) dominates the pick %s ($%d, %v, %d stops)", f.ID, f.PriceUSD, f.Duration(), f.Stops(), best.ID, best.PriceUSD, best.Duration(), best.Stops())
		}
	}
}

// search is a real search result from the embedded provider, for tests and
// benchmarks that want realistic flights.
func search(t testing.TB, origin, destination, date string) (flights.Trip, []flights.Flight) {
	t.Helper()
	c, err := flights.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }
	trip, err := flights.Validator{Catalog: c, Now: now}.Validate(flights.Request{Origin: origin, Destination: destination, Date: date})
	if err != nil {
		t.Fatal(err)
	}
	fs, err := flights.NewSynthetic(c, now, 0).Search(context.Background(), trip)
	if err != nil {
		t.Fatal(err)
	}
	return trip, fs
}

func inCabin(f flights.Flight, c flights.Cabin) flights.Flight { f.Cabin = c; return f }

// The penalties scale with the cabin, so a business traveller is not sold
// two stops for a few dollars, while in economy a much cheaper connection
// still beats a dear nonstop.
func TestScoreIsCabinAware(t *testing.T) {
	flat := Weights{StopPenaltyUSD: 75, HourCostUSD: 20, PremiumEconomyScale: 1, BusinessScale: 1, FirstScale: 1}
	for _, tc := range []struct {
		name          string
		cabin         flights.Cabin
		better, worse flights.Flight
		flatAgrees    bool // whether flat economy weights pick the same
	}{
		{"business: one stop 7h50 over two stops 13h $40 cheaper", flights.Business,
			flight("one", "08:00", 7+50.0/60, 1, 3000), flight("two", "08:00", 13, 2, 2960), true},
		{"business: one stop 7h50 over two stops 13h20 $400 cheaper", flights.Business,
			flight("one", "08:00", 7+50.0/60, 1, 3000), flight("two", "08:00", 13+20.0/60, 2, 2600), false},
		{"first: nonstop over a one-stop $500 cheaper", flights.First,
			flight("nonstop", "08:00", 7, 0, 9000), flight("one", "08:00", 10, 1, 8500), false},
		{"economy: a much cheaper one-stop over a dear nonstop", flights.Economy,
			flight("one", "08:00", 10, 1, 600), flight("nonstop", "08:00", 7, 0, 1100), true},
		{"economy: a nonstop over a one-stop $50 cheaper", flights.Economy,
			flight("nonstop", "08:00", 7, 0, 500), flight("one", "08:00", 7, 1, 450), true},
		{"business: the same trade-off, fares x4.2: the cheaper one-stop still", flights.Business,
			flight("one", "08:00", 10, 1, 2520), flight("nonstop", "08:00", 7, 0, 4620), true},
		{"premium economy: one stop 8h over two stops 12h $250 cheaper", flights.PremiumEconomy,
			flight("one", "08:00", 8, 1, 1200), flight("two", "08:00", 12, 2, 950), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			better, worse := inCabin(tc.better, tc.cabin), inCabin(tc.worse, tc.cabin)
			if b, w := DefaultWeights.Score(better), DefaultWeights.Score(worse); b >= w {
				t.Errorf("%s scores %.0f, %s %.0f: want %s lower", better.ID, b, worse.ID, w, better.ID)
			}
			os := OneWay([]flights.Flight{worse, better})
			DefaultWeights.Order(os)
			if os[0].Flight.ID != better.ID {
				t.Errorf("Order put %s first", os[0].Flight.ID)
			}
			if agrees := flat.Score(better) < flat.Score(worse); agrees != tc.flatAgrees {
				t.Errorf("flat weights agree: %v, want %v (the case does not test what it says)", agrees, tc.flatAgrees)
			}
		})
	}
}

func TestScaleAndExplain(t *testing.T) {
	for _, tc := range []struct {
		w     Weights
		cabin flights.Cabin
		scale float64
	}{
		{DefaultWeights, flights.Economy, 1},
		{DefaultWeights, "", 1}, // a flight built without a cabin is scored as economy
		{DefaultWeights, flights.PremiumEconomy, 1.7},
		{DefaultWeights, flights.Business, 4.2},
		{DefaultWeights, flights.First, 7},
		{Weights{StopPenaltyUSD: 75, HourCostUSD: 20}, flights.Business, 4.2}, // unset: the default
		{Weights{BusinessScale: 3}, flights.Business, 3},
		{Weights{BusinessScale: 1}, flights.Business, 1},
	} {
		if got := tc.w.Scale(tc.cabin); got != tc.scale {
			t.Errorf("%+v.Scale(%q) = %v, want %v", tc.w, tc.cabin, got, tc.scale)
		}
	}
	if got, want := DefaultWeights.Explain(), "score = fare + $75 per stop + $20 per hour in economy, both x1.7 in premium economy, x4.2 in business, x7 in first; lowest first"; got != want {
		t.Errorf("Explain() = %q, want %q", got, want)
	}
	for cabin, want := range map[flights.Cabin]string{
		flights.Economy:        "score = fare + $75 per stop + $20 per hour; lowest first",
		flights.Business:       "score = fare + $315 per stop + $84 per hour; lowest first (business: x4.2 the economy $75 and $20)",
		flights.PremiumEconomy: "score = fare + $128 per stop + $34 per hour; lowest first (premium economy: x1.7 the economy $75 and $20)",
	} {
		if got := DefaultWeights.ExplainCabin(cabin); got != want {
			t.Errorf("ExplainCabin(%s) = %q, want %q", cabin, got, want)
		}
	}
}

// A pick's reason takes its score apart, so the one line shows the rule.
func TestReasonShowsTheScore(t *testing.T) {
	fs := []flights.Flight{inCabin(flight("one", "08:00", 7+50.0/60, 1, 3000), flights.Business), inCabin(flight("two", "08:00", 13, 2, 2960), flights.Business)}
	fs[0].TotalUSD, fs[1].TotalUSD = 6000, 5920
	r := DefaultWeights.Rank(OneWay(DefaultWeights.Candidates(flights.Trip{MaxStops: 2}, fs)), 2, Standouts{})
	if got, want := r.Picks[0].Reason, "$3000 ($6000 for 2), 1 stop (HBA), 7h50m: best balance of price, stops and time; fastest of all (score 3973 = $3000 fare + $315 for 1 stop + $658 for 7h50m)"; got != want {
		t.Errorf("reason = %q\nwant     %q", got, want)
	}
	if got := r.Picks[1].Reason; !strings.Contains(got, "next best (score +709 vs #1); cheapest of all (score 4682 = $2960 fare + $630 for 2 stops + $1092 for 13h00m)") {
		t.Errorf("second reason = %q", got)
	}
}

// A fare or a duration more than one option has makes each of them the
// joint cheapest or fastest, among the options or with the standout of
// all found, and only one option that has it is simply the cheapest or
// fastest.
func TestReasonSaysWhenAnExtremeIsShared(t *testing.T) {
	standout := func(f flights.Flight) *Pick { return &Pick{Option: Option{Flight: f}} }
	for _, tc := range []struct {
		name string
		fs   []flights.Flight
		all  Standouts
		want map[string]string // what each pick's reason says of the extremes, by id
	}{
		{"one of each",
			[]flights.Flight{flight("a", "08:00", 6, 0, 400), flight("b", "09:00", 7, 0, 300)},
			Standouts{}, map[string]string{"a": "; fastest of all (", "b": "; cheapest of all ("}},
		{"two as fast",
			[]flights.Flight{flight("a", "08:00", 6, 0, 400), flight("b", "09:00", 6, 0, 450), flight("c", "10:00", 8, 0, 300)},
			Standouts{}, map[string]string{"a": "; joint fastest of all (", "b": "; joint fastest of all (", "c": "; cheapest of all ("}},
		{"as cheap and as fast as one not listed",
			[]flights.Flight{flight("a", "08:00", 6, 0, 400)},
			Standouts{Cheapest: standout(flight("z", "12:00", 9, 1, 400)), Fastest: standout(flight("y", "13:00", 6, 0, 900))},
			map[string]string{"a": "; joint cheapest and joint fastest of all ("}},
		{"the standout itself",
			[]flights.Flight{flight("a", "08:00", 6, 0, 400)},
			Standouts{Cheapest: standout(flight("a", "08:00", 6, 0, 400)), Fastest: standout(flight("a", "08:00", 6, 0, 400))},
			map[string]string{"a": "; cheapest and fastest of all ("}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := DefaultWeights.Rank(OneWay(DefaultWeights.Candidates(flights.Trip{MaxStops: 2}, tc.fs)), len(tc.fs), tc.all)
			if len(r.Picks) != len(tc.want) {
				t.Fatalf("%d picks, want %d", len(r.Picks), len(tc.want))
			}
			for _, p := range r.Picks {
				if want := tc.want[p.ID()]; want == "" || !strings.Contains(p.Reason, want) {
					t.Errorf("pick %s: %q, want it to say %q", p.ID(), p.Reason, want)
				}
			}
		})
	}
}

func TestFilterArrivalAndAirlines(t *testing.T) {
	at := func(f flights.Flight, airlines ...string) flights.Flight {
		for i := range f.Segments {
			f.Segments[i].Airline = airlines[i%len(airlines)]
		}
		return f
	}
	fs := []flights.Flight{
		at(flight("ba-dawn", "00:30", 5, 0, 300), "BA"),          // lands 05:30
		at(flight("ba-aa-noon", "07:00", 5, 1, 400), "BA", "AA"), // lands 12:00
		at(flight("dl-night", "17:00", 6, 0, 500), "DL"),         // lands 23:00
		at(flight("vs-late", "20:00", 7, 0, 350), "VS"),          // lands 03:00 the next day
	}
	six, noon, ten := flights.Clock(6*60), flights.Clock(12*60), flights.Clock(22*60)
	for _, tc := range []struct {
		name string
		trip flights.Trip
		want string // in filter order
	}{
		{"no limits", flights.Trip{MaxStops: 2}, "ba-dawn ba-aa-noon dl-night vs-late"},
		{"arrive after 06:00", flights.Trip{MaxStops: 2, ArriveAfter: &six}, "ba-aa-noon dl-night"},
		{"arrive by noon, inclusive", flights.Trip{MaxStops: 2, ArriveBefore: &noon}, "ba-dawn ba-aa-noon vs-late"}, // 03:00 is a time of day before noon
		{"arrival window", flights.Trip{MaxStops: 2, ArriveAfter: &six, ArriveBefore: &ten}, "ba-aa-noon"},
		{"only BA: every segment", flights.Trip{MaxStops: 2, Airlines: []string{"BA"}}, "ba-dawn"},
		{"only BA or AA", flights.Trip{MaxStops: 2, Airlines: []string{"AA", "BA"}}, "ba-dawn ba-aa-noon"},
		{"not AA: no segment", flights.Trip{MaxStops: 2, ExcludeAirlines: []string{"AA"}}, "ba-dawn dl-night vs-late"},
		{"only BA and DL, not DL", flights.Trip{MaxStops: 2, Airlines: []string{"BA", "DL"}, ExcludeAirlines: []string{"DL"}}, "ba-dawn"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range Filter(tc.trip, fs) {
				got = append(got, f.ID)
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("kept %v, want %s", got, tc.want)
			}
		})
	}
}
