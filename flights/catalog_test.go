package flights

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/flightserver/flightserver/data"
)

func mustCatalog(t testing.TB) *Catalog {
	t.Helper()
	c, err := Embedded()
	if err != nil {
		t.Fatalf("embedded catalog: %v", err)
	}
	return c
}

func TestEmbeddedCatalogCoversTheWorld(t *testing.T) {
	c := mustCatalog(t)
	codes := c.AirportCodes()
	if len(codes) < 80 {
		t.Fatalf("%d airports, want at least 80", len(codes))
	}
	// Every inhabited continent, read off the IANA zone's region; South
	// America is the part of the Americas south of the equator.
	regions := map[string]int{}
	for _, code := range codes {
		a := c.Airport(code)
		region, _, _ := strings.Cut(a.TZ, "/")
		if region == "America" && a.Lat < 0 {
			region = "South America"
		}
		if region == "Pacific" {
			region = "Australia"
		}
		regions[region]++
	}
	for _, want := range []string{"America", "South America", "Europe", "Asia", "Africa", "Australia"} {
		if regions[want] == 0 {
			t.Errorf("no airport in %s (regions: %v)", want, regions)
		}
	}
	if len(c.Airlines()) < 20 {
		t.Errorf("%d airlines, want at least 20", len(c.Airlines()))
	}
	alliances := map[string]bool{}
	for _, al := range c.Airlines() {
		alliances[al.Alliance] = true
	}
	for _, want := range []string{"oneworld", "Star Alliance", "SkyTeam", "none"} {
		if !alliances[want] {
			t.Errorf("no airline in %q", want)
		}
	}
}

func TestEmbeddedFactsSpotCheck(t *testing.T) {
	c := mustCatalog(t)
	for _, tc := range []struct {
		code, city, country, tz string
		lat, lon                float64
	}{
		{"JFK", "New York", "US", "America/New_York", 40.64, -73.78},
		{"LHR", "London", "GB", "Europe/London", 51.47, -0.45},
		{"NRT", "Tokyo", "JP", "Asia/Tokyo", 35.77, 140.39},
		{"SYD", "Sydney", "AU", "Australia/Sydney", -33.94, 151.18},
		{"JNB", "Johannesburg", "ZA", "Africa/Johannesburg", -26.14, 28.24},
		{"GRU", "Sao Paulo", "BR", "America/Sao_Paulo", -23.43, -46.47},
	} {
		a := c.Airport(tc.code)
		if a == nil {
			t.Errorf("%s missing", tc.code)
			continue
		}
		if a.City != tc.city || a.Country != tc.country || a.TZ != tc.tz || math.Abs(a.Lat-tc.lat) > 0.05 || math.Abs(a.Lon-tc.lon) > 0.05 {
			t.Errorf("%s = %+v, want city %s, country %s, tz %s, near %.2f,%.2f", tc.code, *a, tc.city, tc.country, tc.tz, tc.lat, tc.lon)
		}
	}
	if ba := c.Airline("BA"); ba == nil || ba.Alliance != "oneworld" || ba.Hubs[0] != "LHR" {
		t.Errorf("BA = %+v, want oneworld with hub LHR first", ba)
	}
}

func TestNewCatalogRejectsBadData(t *testing.T) {
	const airportsHeader = "iata,name,city,country,lat,lon,tz\n"
	const good = "JFK,John F. Kennedy International Airport,New York,US,40.6413,-73.7781,America/New_York\n" +
		"LHR,Heathrow Airport,London,GB,51.4700,-0.4543,Europe/London\n"
	const airlinesHeader = "iata,name,alliance,hubs\n"
	const networkHeader = "iata,name,alliance,hubs,kind,focus,range_km,cabins,markets\n"
	for _, tc := range []struct {
		name, airports, airlines, want string
	}{
		{"wrong header", "code,name\nJFK,x\n", airlinesHeader, "header"},
		{"lower-case code", airportsHeader + "jfk,x,y,US,1,1,UTC\n", airlinesHeader, "three upper-case"},
		{"duplicate airport", airportsHeader + good + "JFK,x,y,US,1,1,UTC\n", airlinesHeader, "listed twice"},
		{"latitude out of range", airportsHeader + "AAA,x,y,US,91,1,UTC\n", airlinesHeader, "latitude"},
		{"longitude not a number", airportsHeader + "AAA,x,y,US,1,east,UTC\n", airlinesHeader, "longitude"},
		{"unknown time zone", airportsHeader + "AAA,x,y,US,1,1,Mars/Olympus\n", airlinesHeader, "time zone"},
		{"short row", airportsHeader + "AAA,x,y\n", airlinesHeader, "wrong number of fields"},
		{"unknown hub", airportsHeader + good, airlinesHeader + "BA,British Airways,oneworld,LHR XXX\n", "hub XXX"},
		{"unknown alliance", airportsHeader + good, airlinesHeader + "BA,British Airways,Skyteam,LHR\n", "alliance"},
		{"no hubs", airportsHeader + good, airlinesHeader + "BA,British Airways,oneworld,\n", "no hubs"},
		{"duplicate airline", airportsHeader + good, airlinesHeader + "BA,x,none,LHR\nBA,y,none,JFK\n", "listed twice"},
		{"tier out of range", "iata,name,city,country,lat,lon,tz,tier\nAAA,x,y,US,1,1,UTC,6\n", airlinesHeader, "tier"},
		{"intl tier not a number", "iata,name,city,country,lat,lon,tz,tier,intl_tier\nAAA,x,y,US,1,1,UTC,3,big\n", airlinesHeader, "intl_tier"},
		{"od tier above the intl tier", "iata,name,city,country,lat,lon,tz,tier,intl_tier,taxi_delay,od_tier\nAAA,x,y,US,1,1,UTC,3,2,,3\n", airlinesHeader, "od_tier \"3\" is not a number from 1 to its intl_tier, 2"},
		{"od tier not a number", "iata,name,city,country,lat,lon,tz,tier,intl_tier,taxi_delay,od_tier\nAAA,x,y,US,1,1,UTC,3,2,,most\n", airlinesHeader, "od_tier"},
		{"optional column out of order", "iata,name,city,country,lat,lon,tz,intl_tier\n", airlinesHeader, "followed by the first columns"},
		{"unknown kind", airportsHeader + good, networkHeader + "BA,British Airways,oneworld,LHR,flag,,,,\n", "kind"},
		{"unknown focus city", airportsHeader + good, networkHeader + "BA,British Airways,oneworld,LHR,network,XXX,,,\n", "focus city XXX"},
		{"hub also a focus city", airportsHeader + good, networkHeader + "BA,British Airways,oneworld,LHR,network,LHR,,,\n", "listed twice"},
		{"range not a number", airportsHeader + good, networkHeader + "BA,British Airways,oneworld,LHR,network,,far,,\n", "range_km"},
		{"unknown cabin", airportsHeader + good, networkHeader + "BA,British Airways,oneworld,LHR,network,,13000,Y C,\n", "cabin"},
		{"no economy", airportsHeader + good, networkHeader + "BA,British Airways,oneworld,LHR,network,,13000,J F,\n", "economy"},
		{"unknown market", airportsHeader + good, networkHeader + "BA,British Airways,oneworld,LHR,network,,13000,Y J,narnia\n", "market"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewCatalog([]byte(tc.airports), []byte(tc.airlines))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, tc.want)
			}
		})
	}
}

func TestSuggest(t *testing.T) {
	c := mustCatalog(t)
	for _, tc := range []struct {
		typed string
		want  string // must be among the suggestions
		none  bool
	}{
		{typed: "JKF", want: "JFK"},      // transposed letters
		{typed: "lhx", want: "LHR"},      // one wrong letter, lower case
		{typed: "heathrow", want: "LHR"}, // airport name
		{typed: "Tokyo", want: "HND"},    // city
		{typed: "londn", want: "LHR"},    // misspelt city
		{typed: "NYC", want: "JFK"},      // a metro, not YYC
		{typed: "QQQ", none: true},       // nothing close: no random codes
		{typed: "", none: true},
	} {
		got := c.Suggest(tc.typed, 3)
		switch {
		case tc.none && len(got) > 0:
			t.Errorf("Suggest(%q) = %v, want none", tc.typed, got)
		case !tc.none && !slices.Contains(got, tc.want):
			t.Errorf("Suggest(%q) = %v, want it to include %s", tc.typed, got, tc.want)
		case len(got) > 3:
			t.Errorf("Suggest(%q) = %v, want at most 3", tc.typed, got)
		}
	}
}

func TestResolvePlace(t *testing.T) {
	c := mustCatalog(t)
	for _, tc := range []struct {
		query    string
		kind     PlaceKind
		label    string // what a Trip records
		airports string
	}{
		{"jfk", AirportPlace, "JFK", "JFK"},
		{" LHR ", AirportPlace, "LHR", "LHR"},
		{"NYC", MetroPlace, "NYC", "JFK LGA EWR"},
		{"lon", MetroPlace, "LON", "LHR LGW STN LCY LTN"},
		{"CHI", MetroPlace, "CHI", "ORD MDW"},
		{"WAS", MetroPlace, "WAS", "IAD DCA BWI"},
		{"TYO", MetroPlace, "TYO", "HND NRT"},
		{"MIL", MetroPlace, "MIL", "MXP LIN BGY"},
		{"San Francisco", CityPlace, "San Francisco", "SFO"},
		{"new york city", CityPlace, "New York", "JFK LGA EWR"},
		{"NEW YORK", CityPlace, "New York", "JFK LGA EWR"},
		{"London", CityPlace, "London", "LHR LGW STN LCY LTN"},
		{"são paulo", CityPlace, "Sao Paulo", "GRU CGH VCP"},
		{"sao paulo", CityPlace, "Sao Paulo", "GRU CGH VCP"},
		{"Washington DC", CityPlace, "Washington", "IAD DCA BWI"},
		{"washington, d.c.", CityPlace, "Washington", "IAD DCA BWI"},
		{"Zürich", CityPlace, "Zurich", "ZRH"},
		{"København", CityPlace, "Copenhagen", "CPH"},
		{"Bombay", CityPlace, "Mumbai", "BOM"},
		{"Shanghai", CityPlace, "Shanghai", "PVG SHA"}, // no metro code: SHA is Hongqiao's
		{"Baltimore", CityPlace, "Baltimore", "BWI"},   // its own city as well as part of WAS
		{"San Jose, Costa Rica", CityPlace, "San Jose", "SJO"},
		{"san jose us", CityPlace, "San Jose", "SJC"},
		{"Paris, France", CityPlace, "Paris", "CDG ORY"},
		{"Heathrow", AirportPlace, "LHR", "LHR"},
		{"London Heathrow", AirportPlace, "LHR", "LHR"},
		{"o'hare", AirportPlace, "ORD", "ORD"},
		{"SHA", AirportPlace, "SHA", "SHA"}, // an airport code means that airport
		// A code with "airport" after it, as travellers write it.
		{"JFK airport", AirportPlace, "JFK", "JFK"},
		{"LHR International Airport", AirportPlace, "LHR", "LHR"},
		{"NYC airports", MetroPlace, "NYC", "JFK LGA EWR"},
		{"Paris airport", CityPlace, "Paris", "CDG ORY"},
		{"London City Airport", AirportPlace, "LCY", "LCY"},
		{"Dubai International", AirportPlace, "DXB", "DXB"}, // its airport's name, in part
		// An airport's own name means that airport, even when the words
		// before "airport" name a city with others: Osaka International is
		// Itami, not Kansai; Reykjavík Airport is not Keflavík.
		{"Osaka International Airport", AirportPlace, "ITM", "ITM"},
		{"Reykjavík Airport", AirportPlace, "RKV", "RKV"},
		{"Osaka airport", CityPlace, "Osaka", "KIX ITM"},
		// The short names a traveller gives the cities: not Lagos or Las
		// Vegas for LA.
		{"LA", CityPlace, "Los Angeles", "LAX"},
		{"L.A.", CityPlace, "Los Angeles", "LAX"},
		{"SF", CityPlace, "San Francisco", "SFO"},
		{"DC", CityPlace, "Washington", "IAD DCA BWI"},
		// An island named for its city's airport, as Bali and Tahiti are.
		{"Oahu", CityPlace, "Honolulu", "HNL"},
	} {
		p, err := c.ResolvePlace(tc.query)
		if err != nil {
			t.Errorf("ResolvePlace(%q): %v", tc.query, err)
			continue
		}
		if p.Kind != tc.kind || p.Label() != tc.label || strings.Join(p.Airports, " ") != tc.airports || p.Query != strings.TrimSpace(tc.query) {
			t.Errorf("ResolvePlace(%q) = %+v (label %s), want %s %s with %s", tc.query, p, p.Label(), tc.kind, tc.label, tc.airports)
		}
	}
}

// What a traveller is told when a place does not resolve: the places it
// could mean, never codes that only share letters with it.
func TestResolvePlaceProblems(t *testing.T) {
	c := mustCatalog(t)
	for _, tc := range []struct {
		query     string
		ambiguous bool
		reason    string
		suggest   string // the suggestions' String()s, joined with "; "
	}{
		{"San Jose", true, `"San Jose" is more than one city`, "San Jose, CR (SJO); San Jose, US (SJC)"},
		{"londn", false, "not a known airport, metro area or city", "London, GB (LON: LHR, LGW, STN, LCY, LTN)"},
		{"Frankfrut", false, "not a known", "Frankfurt, DE (FRA)"},
		{"york", false, "not a known", "New York, US (NYC: JFK, LGA, EWR)"},
		{"gatw", false, "not a known", "LGW (Gatwick Airport, London, GB)"},
		{"JKF", false, `"JKF" is not a known airport or metro code`, "JFK (John F. Kennedy International Airport, New York, US); JKT (Jakarta, ID: CGK, HLP)"},
		{"hou", false, "not a known airport or metro code", "Houston, US (IAH); ALG (Houari Boumediene Airport, Algiers, DZ)"},
		{"Japan", false, "is a country", "Osaka, JP (OSA: KIX, ITM); Tokyo, JP (TYO: HND, NRT)"},
		{"international", false, "not a known", ""}, // in too many names to mean one
		{"QQQ", false, "not a known airport or metro code", ""},
		// ICAO codes: said to be ICAO, with the airport when its code
		// follows from the IATA one (K and P in the US, C in Canada).
		{"KJFK", false, "ICAO code", "JFK (John F. Kennedy International Airport, New York, US)"},
		{"CYYZ", false, "ICAO code", "YYZ (Toronto Pearson International Airport, Toronto, CA)"},
		{"PHNL", false, "ICAO code", "HNL (Daniel K. Inouye International Airport, Honolulu, US)"},
		{"EGLL", false, `"EGLL" is not a known airport, metro area or city; it looks like a four-letter ICAO code: give the airport's three-letter IATA code (JFK, not KJFK; LHR, not EGLL) or its city`, ""},
		{"KLHR", false, "ICAO code", ""}, // K is American; LHR is not
		{"JFK terminal", false, "not a known", ""},
		// Real places the catalogue has no airport in: the nearest it has,
		// by distance, for each place of that name.
		{"Kraków", false, `"Kraków" has no airport`, "WAW (Warsaw Chopin Airport, Warsaw, PL); BUD (Budapest Ferenc Liszt International Airport, Budapest, HU); VIE (Vienna International Airport, Vienna, AT)"},
		{"portland, maine", false, "has no airport", "BOS (General Edward Lawrence Logan International Airport, Boston, US); YUL (Montréal-Trudeau International Airport, Montreal, CA); LGA (LaGuardia Airport, New York, US)"},
		{"Springfield of Nowhere", false, "not a known", ""},
		{"", false, "not a place name", ""},
		{strings.Repeat("x", 41), false, "too long", ""},
	} {
		_, err := c.ResolvePlace(tc.query)
		var pe *PlaceError
		if !errors.As(err, &pe) {
			t.Errorf("ResolvePlace(%q) err = %v, want a *PlaceError", tc.query, err)
			continue
		}
		var got []string
		for _, p := range pe.Suggestions {
			got = append(got, p.String())
		}
		if pe.Ambiguous != tc.ambiguous || !strings.Contains(pe.Reason, tc.reason) || strings.Join(got, "; ") != tc.suggest {
			t.Errorf("ResolvePlace(%q) = ambiguous %v, %q, suggestions %q; want %v, %q, %q", tc.query, pe.Ambiguous, pe.Reason, got, tc.ambiguous, tc.reason, tc.suggest)
		}
	}
	// As a Problem, the suggestions follow what is accepted.
	_, err := c.ResolvePlace("San Jose")
	var pe *PlaceError
	errors.As(err, &pe)
	if p := pe.Problem("origin"); p.Field != "origin" || !strings.HasPrefix(p.Accepted, PlaceAccepted+"; one of: San Jose, CR (SJO)") {
		t.Errorf("Problem = %+v", p)
	}
}

func TestFindAirports(t *testing.T) {
	c := mustCatalog(t)
	for _, tc := range []struct {
		query, country, want string
	}{
		{"new york", "", "EWR JFK LGA"},
		{"NYC", "", "EWR JFK LGA"},
		{"JFK", "", "JFK"},
		{"london", "", "LCY LGW LHR LTN STN"},
		{"heath", "", "LHR"},
		{"são", "", "CGH GRU VCP"}, // the start of a word of the city (a metro: VCP is in Campinas) or the name
		{"san jose", "", "SJC SJO"},
		{"san jose", "Costa Rica", "SJO"},
		{"", "JP", "HND ITM KIX NRT"},
		{"", "japan", "HND ITM KIX NRT"},
		{"tokyo", "US", ""},
		{"london", "Narnia", ""},
		{"JFK airport", "", "JFK"},
		{"Paris airport", "", "CDG ORY"},
		{"SF", "", "SFO"},
		{"ork", "", ""}, // not the start of a word
		{"", "", ""},
		{strings.Repeat("a", 41), "", ""},
	} {
		var got []string
		for _, a := range c.FindAirports(tc.query, tc.country) {
			got = append(got, a.Code)
			if a.Name == "" || a.City == "" || a.Country == "" || a.TZ == "" || a.Location() == nil {
				t.Errorf("FindAirports(%q, %q): %s lacks a field: %+v", tc.query, tc.country, a.Code, a)
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("FindAirports(%q, %q) = %v, want %s", tc.query, tc.country, got, tc.want)
		}
	}
	// Los Angeles's short name comes before the names that begin with it.
	if got := c.FindAirports("LA", ""); len(got) == 0 || got[0].Code != "LAX" {
		t.Errorf("FindAirports(LA) = %v, want LAX first", got)
	}
	// An exact code comes before the airports that merely mention it.
	if got := c.FindAirports("sha", ""); len(got) == 0 || got[0].Code != "SHA" {
		t.Errorf("FindAirports(sha) = %v, want SHA first", got)
	}
}

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"São Paulo": "sao paulo", "  ZÜRICH ": "zurich", "København": "kobenhavn", "Washington, D.C.": "washington dc",
		"O'Hare": "ohare", "Tel Aviv-Yafo": "tel aviv yafo", "Straße": "strasse", "東京": "東京", "--": "",
		// Decomposed by Unicode normalisation, not by a table: stacked marks
		// (Vietnamese), ligatures and full-width forms.
		"Hà Nội": "ha noi", "Đà Nẵng": "da nang", "Kraków": "krakow", "ﬁnland": "finland", "ＬＯＮＤＯＮ": "london", "Łódź": "lodz", "Ålesund": "alesund",
	} {
		if got := fold(in); got != want {
			t.Errorf("fold(%q) = %q, want %q", in, got, want)
		}
	}
}

// The ASCII fast path must fold exactly as the general one: every pair of
// ASCII bytes, alone, among spaces and between letters (so every
// transition between letters, digits, punctuation and controls), and every
// airport's name and city as the data spells them.
func TestFoldASCIIIsFold(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if got, want := foldASCII(s), foldUnicode(s); got != want {
			t.Errorf("foldASCII(%q) = %q, foldUnicode = %q", s, got, want)
		}
	}
	for a := range 128 {
		for b := range 128 {
			check(string([]byte{byte(a), byte(b)}))
			check(string([]byte{' ', byte(a), 'x', byte(b), ' '}))
			// Between letters, where dropping a byte and making it a space
			// read differently.
			check(string([]byte{'x', byte(a), 'x', byte(b), 'x'}))
		}
	}
	c := mustCatalog(t)
	for _, code := range c.AirportCodes() {
		a := c.Airport(code)
		for _, s := range []string{a.Name, a.City, a.Code} {
			if fold(s) != foldUnicode(s) {
				t.Errorf("fold(%q) = %q, foldUnicode = %q", s, fold(s), foldUnicode(s))
			}
		}
	}
}

func TestResolveCountryAndAirline(t *testing.T) {
	c := mustCatalog(t)
	for in, want := range map[string]string{"GB": "GB", "uk": "GB", "United Kingdom": "GB", "côte": "", "south korea": "KR", "us": "US"} {
		if co, ok := c.ResolveCountry(in); co.Code != want || ok != (want != "") {
			t.Errorf("ResolveCountry(%q) = %v %v, want %q", in, co.Code, ok, want)
		}
	}
	for in, want := range map[string]string{
		"ba": "BA", "British Airways": "BA", "lufthansa": "LH", "6e": "6E", "XX": "",
		// The names people use: how the name begins, or a word of it,
		// when only one airline answers to it.
		"Delta": "DL", "KLM": "KL", "Swiss": "LX", "American": "AA", "British": "BA", "aeromexico": "AM", "Atlantic": "VS",
		"Air": "", "Virgin": "", "China": "", "Airlines": "", "ai": "AI",
	} {
		al, err := c.ResolveAirline(in)
		if al.Code != want || (err == nil) != (want != "") {
			t.Errorf("ResolveAirline(%q) = %v %v, want %q", in, al.Code, err, want)
		}
	}
}

// A short name that is more than one airline's says so and lists them.
func TestAmbiguousAirlineListsItsMatches(t *testing.T) {
	c := mustCatalog(t)
	_, err := c.ResolveAirline("virgin")
	if err == nil || !strings.Contains(err.Error(), "more than one airline") {
		t.Fatalf("err = %v", err)
	}
	if got := c.airlineAccepted("virgin"); !strings.Contains(got, "it could be VA (Virgin Australia), VS (Virgin Atlantic)") {
		t.Errorf("accepted = %s", got)
	}
}

// Every place of the gazetteer parses, lies where its country's airports
// are (a lat/lon typed the wrong way round would put it an ocean away), and
// none repeats one name in one country without a region to tell them apart.
func TestEmbeddedGazetteer(t *testing.T) {
	g, err := parseGazetteer(data.GazetteerCSV)
	if err != nil {
		t.Fatal(err)
	}
	c := mustCatalog(t)
	seen := map[string]bool{}
	for _, towns := range g.byName {
		for _, tw := range towns {
			if seen[tw.label()] {
				continue
			}
			seen[tw.label()] = true
			n := c.nearest(tw.name, tw)
			if n.Airports[0].Km > 3000 {
				t.Errorf("%s: the nearest airport is %s, %d km away", tw.label(), n.Airports[0].Place.Code, n.Airports[0].Km)
			}
		}
	}
	if len(seen) < 300 {
		t.Errorf("%d places; the gazetteer should know the well-known ones", len(seen))
	}
	if _, err := parseGazetteer([]byte("name,region,country,lat,lon,aliases\nX,,PL,95,1,\n")); err == nil {
		t.Error("a latitude out of range parsed")
	}
}

// The embedded place data is what the brief's cities need: every metro code
// a traveller is likely to type for a city in the data, and real airports
// behind each.
func TestEmbeddedMetros(t *testing.T) {
	c := mustCatalog(t)
	var codes []string
	for _, m := range c.Metros() {
		codes = append(codes, m.Code)
		if c.Metro(m.Code) == nil || len(m.Airports) == 0 {
			t.Errorf("metro %s: %+v", m.Code, m)
		}
	}
	for _, want := range []string{"NYC", "LON", "CHI", "WAS", "TYO", "PAR", "MIL", "SAO", "RIO", "BUE", "MOW", "STO", "OSA", "SEL", "BJS", "YTO", "YMQ", "ROM"} {
		if !slices.Contains(codes, want) {
			t.Errorf("no metro %s (have %v)", want, codes)
		}
	}
}

func TestNewCatalogRejectsBadPlaceData(t *testing.T) {
	airports := []byte("iata,name,city,country,lat,lon,tz\n" +
		"JFK,John F. Kennedy International Airport,New York,US,40.6413,-73.7781,America/New_York\n" +
		"LGA,LaGuardia Airport,New York,US,40.7772,-73.8726,America/New_York\n" +
		"LHR,Heathrow Airport,London,GB,51.4700,-0.4543,Europe/London\n")
	airlines := []byte("iata,name,alliance,hubs\nBA,British Airways,oneworld,LHR\n")
	const (
		metros    = "code,city,country,airports\n"
		cities    = "city,country,aliases\n"
		countries = "code,name,aliases\nUS,United States,USA\nGB,United Kingdom,UK\n"
	)
	for _, tc := range []struct {
		name, metros, cities, countries, want string
	}{
		{"metro is an airport code", metros + "JFK,New York,US,JFK LGA\n", "", "", "also an airport code"},
		{"metro of an unknown airport", metros + "NYC,New York,US,JFK EWR\n", "", "", "EWR is not a known airport"},
		{"metro across countries", metros + "NYC,New York,US,JFK LHR\n", "", "", "LHR is in GB"},
		{"metro leaves out an airport of its city", metros + "NYC,New York,US,JFK\n", "", "", "leaves out LGA"},
		{"metro listed twice", metros + "NYC,New York,US,JFK LGA\nNYC,New York,US,JFK LGA\n", "", "", "listed twice"},
		{"alias of an unknown city", "", cities + "Gotham,US,Metropolis\n", "", "not the city of any airport"},
		{"country missing", "", "", "code,name,aliases\nUS,United States,\n", "LHR is in GB, which is not listed"},
		{"country name twice", "", "", countries + "XX,UK,\n", "both GB and XX"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewCatalogFrom(Sources{Airports: airports, Airlines: airlines, Metros: []byte(tc.metros), Cities: []byte(tc.cities), Countries: []byte(tc.countries)})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, tc.want)
			}
		})
	}
	c, err := NewCatalogFrom(Sources{Airports: airports, Airlines: airlines, Metros: []byte(metros + "NYC,New York,US,JFK LGA\n"),
		Cities: []byte(cities + "New York,US,Big Apple\n"), Countries: []byte(countries)})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := c.ResolvePlace("the big apple"); err == nil {
		t.Errorf("an alias matched with extra words: %+v", p)
	}
	if p, err := c.ResolvePlace("big apple"); err != nil || p.Code != "NYC" {
		t.Errorf("alias: %+v %v", p, err)
	}
}

// The embedded catalog loads its time zones when flights need them, not at
// start; this is where a bad zone name in data/airports.csv is caught: every
// one loads, and is the zone a catalog that checks them up front gets.
func TestEmbeddedZonesLoad(t *testing.T) {
	lazy, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	checked, err := NewCatalogFrom(embeddedSources())
	if err != nil {
		t.Fatalf("the embedded data with every zone loaded: %v", err)
	}
	for _, code := range lazy.AirportCodes() {
		a := lazy.Airport(code)
		if err := a.zone.load(); err != nil {
			t.Errorf("%s: time zone %q: %v", code, a.TZ, err)
			continue
		}
		if got, want := a.Location().String(), checked.Airport(code).Location().String(); got != want || got != a.TZ {
			t.Errorf("%s: zone %s, want %s (%s)", code, got, want, a.TZ)
		}
	}
}

// The network model's data is checked at load, and a bad row says which
// file, line and field is wrong.
func TestNewCatalogRejectsBadNetworkData(t *testing.T) {
	airports := []byte("iata,name,city,country,lat,lon,tz\n" +
		"JFK,John F. Kennedy International Airport,New York,US,40.6413,-73.7781,America/New_York\n" +
		"LGA,LaGuardia Airport,New York,US,40.7772,-73.8726,America/New_York\n" +
		"LHR,Heathrow Airport,London,GB,51.4700,-0.4543,Europe/London\n")
	airlines := []byte("iata,name,alliance,hubs,kind,focus,range_km,cabins,markets\n" +
		"BA,British Airways,oneworld,LHR,network,,13000,Y W J F,northamerica\n" +
		"AA,American Airlines,oneworld,JFK,network,LGA,13500,Y W J F,europe\n")
	const (
		regions    = "region,countries\nnorthamerica,US\neurope,GB\n"
		partners   = "name,airlines\n"
		noService  = "country,with,reason\n"
		affinities = "country,with,affinity,reason\n"
		bilaterals = "country,with,per_week,source\n"
		limits     = "iata,max_km,countries,exempt,curfew,kinds,note\n"
	)
	for _, tc := range []struct {
		name                                                         string
		regions, partners, noService, affinities, bilaterals, limits string
		airlines                                                     string // instead of the airlines above
		want                                                         string
	}{
		{name: "country in two regions", regions: regions + "atlantic,GB\n", want: "already in europe"},
		{name: "airport in no region", regions: "region,countries\nnorthamerica,US\n", want: "LHR is in GB, which is in no region"},
		{name: "market not a region", regions: "region,countries\namericas,US\neurope,GB\n", want: `market "northamerica"`},
		{name: "market leaves out no country code", regions: regions, airlines: "iata,name,alliance,hubs,kind,focus,range_km,cabins,markets\nAA,American Airlines,oneworld,JFK,network,,13500,Y,europe -X1\n", want: `market "-X1" is not`},
		{name: "market leaves a country out of no region", regions: regions, airlines: "iata,name,alliance,hubs,kind,focus,range_km,cabins,markets\nAA,American Airlines,oneworld,JFK,network,,13500,Y,GB -GB\n", want: `"-GB" excludes GB from no region`},
		{name: "partner unknown", regions: regions, partners: partners + "Atlantic,AA XX\n", want: "XX is not a known airline"},
		{name: "partnership of one", regions: regions, partners: partners + "Alone,AA\n", want: "fewer than two"},
		{name: "no-service pair without a reason", regions: regions, noService: noService + "GB,US,\n", want: "no reason"},
		{name: "no-service with itself", regions: regions, noService: noService + "GB,GB,closed\n", want: "not another known country"},
		{name: "no-service with no country", regions: regions, noService: noService + "GB,,closed\n", want: "with names no country"},
		{name: "no-service twice", regions: regions, noService: noService + "GB,US,closed\nUS,GB,sanctions\n", want: "listed twice"},
		{name: "affinity without a reason", regions: regions, affinities: affinities + "GB,US,3,\n", want: "no reason"},
		{name: "affinity not a number", regions: regions, affinities: affinities + "GB,US,lots,ties\n", want: `affinity "lots" is not a number`},
		{name: "affinity above a country's own", regions: regions, affinities: affinities + "GB,US,7,ties\n", want: "at most 6"},
		{name: "affinity of nothing", regions: regions, affinities: affinities + "GB,US,0,ties\n", want: "above 0"},
		{name: "affinity with itself", regions: regions, affinities: affinities + "US,US,3,ties\n", want: "not another known country"},
		{name: "affinity with an unknown country", regions: regions, affinities: affinities + "US,G1,3,ties\n", want: "not another known country"},
		{name: "affinity with no country", regions: regions, affinities: affinities + "US,,3,ties\n", want: "with names no country"},
		{name: "affinity twice", regions: regions, affinities: affinities + "US,GB,3,ties\nGB,US,3,ties\n", want: "listed twice"},
		{name: "bilateral without a source", regions: regions, bilaterals: bilaterals + "GB,US,12,\n", want: "no source"},
		{name: "bilateral not a number", regions: regions, bilaterals: bilaterals + "GB,US,twelve,agreement\n", want: `per_week "twelve" is not a whole number`},
		{name: "bilateral of a part of a flight", regions: regions, bilaterals: bilaterals + "GB,US,1.5,agreement\n", want: `per_week "1.5"`},
		{name: "bilateral of no flights", regions: regions, bilaterals: bilaterals + "GB,US,0,agreement\n", want: "no_service.csv"},
		{name: "bilateral with itself", regions: regions, bilaterals: bilaterals + "US,US,12,agreement\n", want: "not another known country"},
		{name: "bilateral with an unknown country", regions: regions, bilaterals: bilaterals + "X1,US,12,agreement\n", want: "X1"},
		{name: "bilateral with no country", regions: regions, bilaterals: bilaterals + "US,,12,agreement\n", want: "with names no country"},
		{name: "bilateral twice", regions: regions, bilaterals: bilaterals + "US,GB,12,agreement\nGB,US,14,agreement\n", want: "listed twice"},
		{name: "limit of an unknown airport", regions: regions, limits: limits + "XXX,0,,,,,\n", want: "XXX is not a known airport"},
		{name: "limit without a note", regions: regions, limits: limits + "LGA,2414,,,,,\n", want: "needs a note"},
		{name: "bad curfew", regions: regions, limits: limits + "LHR,0,,,23:30,,night\n", want: "curfew"},
		{name: "bad kind", regions: regions, limits: limits + "LHR,0,,,,cheap,slots\n", want: "kinds"},
		{name: "exempt unknown", regions: regions, limits: limits + "LGA,2414,US,DEN,,,perimeter\n", want: "exempt DEN"},
		{name: "limit twice", regions: regions, limits: limits + "LGA,2414,US,,,,perimeter\nLGA,2414,US,,,,perimeter\n", want: "listed twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			airlines := airlines
			if tc.airlines != "" {
				airlines = []byte(tc.airlines)
			}
			_, err := NewCatalogFrom(Sources{Airports: airports, Airlines: airlines, Regions: []byte(tc.regions),
				Partners: []byte(tc.partners), NoService: []byte(tc.noService), Affinities: []byte(tc.affinities), Bilaterals: []byte(tc.bilaterals), Limits: []byte(tc.limits)})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, tc.want)
			}
		})
	}
	c, err := NewCatalogFrom(Sources{Airports: airports, Airlines: airlines, Regions: []byte(regions),
		Partners: []byte(partners + "Atlantic,AA BA\n"), NoService: []byte(noService),
		Affinities: []byte(affinities + "GB,US,2.5,ties\n"), Limits: []byte(limits + "LGA,2414,US,,,,perimeter rule\n")})
	if err != nil {
		t.Fatal(err)
	}
	// An agreement of three flights a week each side: American and
	// British Airways fly JFK-LHR three times a week, where they flew it
	// more without one.
	capped, err := NewCatalogFrom(Sources{Airports: airports, Airlines: airlines, Regions: []byte(regions),
		Partners: []byte(partners + "Atlantic,AA BA\n"), NoService: []byte(noService),
		Affinities: []byte(affinities + "GB,US,2.5,ties\n"), Bilaterals: []byte(bilaterals + "GB,US,3,agreement\n"), Limits: []byte(limits + "LGA,2414,US,,,,perimeter rule\n")})
	if err != nil {
		t.Fatal(err)
	}
	perWeek := func(c *Catalog) map[string]int32 {
		n := c.network()
		got := map[string]int32{}
		for _, id := range n.routesBetween(n.index["JFK"], n.index["LHR"]) {
			got[c.airlines[n.routes[id].airline].Code] = n.routes[id].perWeek
		}
		return got
	}
	if free, held := perWeek(c), perWeek(capped); !(free["AA"] > 3 && free["BA"] > 3) || held["AA"] != 3 || held["BA"] != 3 {
		t.Errorf("JFK-LHR a week: %v without an agreement, %v with one of 3 each side; want more than 3 each, then 3 each", free, held)
	}
	// A country pair's affinity is its own, not its regions' (2).
	n := c.network()
	if got := n.affinity(c.Airport("JFK"), c.Airport("LHR"), 5540); got != 2.5 {
		t.Errorf("affinity of JFK and LHR = %v, want the pair's 2.5", got)
	}
	if got := n.affinity(c.Airport("LHR"), c.Airport("JFK"), 5540); got != 2.5 {
		t.Errorf("affinity of LHR and JFK = %v, want the pair's 2.5", got)
	}
	if got := nonstopAirlines(c, "JFK", "LHR"); !slices.Equal(got, []string{"AA", "BA"}) {
		t.Errorf("JFK-LHR flown by %v, want AA and BA", got)
	}
	if got := nonstopAirlines(c, "LGA", "LHR"); len(got) != 0 || c.Airport("LGA").Restriction() != "perimeter rule" {
		t.Errorf("LGA-LHR flown by %v (LGA's restriction %q), want none", got, c.Airport("LGA").Restriction())
	}
}

// A catalogue built from the required columns only works as before the
// network model: every airline a network airline, selling every cabin,
// flying anywhere its hubs reach.
func TestCatalogWithoutTheNetworkData(t *testing.T) {
	c, err := NewCatalog([]byte("iata,name,city,country,lat,lon,tz\n"+
		"JFK,John F. Kennedy International Airport,New York,US,40.6413,-73.7781,America/New_York\n"+
		"LHR,Heathrow Airport,London,GB,51.4700,-0.4543,Europe/London\n"), []byte("iata,name,alliance,hubs\nBA,British Airways,oneworld,LHR\n"))
	if err != nil {
		t.Fatal(err)
	}
	ba := c.Airline("BA")
	if ba.Kind != NetworkAirline || !slices.Equal(ba.Cabins, Cabins) || ba.RangeKm != maxLegKm || len(ba.Markets) != 0 || c.Airport("JFK").Tier != DefaultTier {
		t.Errorf("BA = %+v, JFK tier %d: want the defaults", *ba, c.Airport("JFK").Tier)
	}
	if got := nonstopAirlines(c, "JFK", "LHR"); !slices.Equal(got, []string{"BA"}) {
		t.Errorf("JFK-LHR flown by %v, want BA", got)
	}
}

// The embedded airlines have the network model's facts, every one.
func TestEmbeddedAirlinesHaveTheirNetworks(t *testing.T) {
	c := mustCatalog(t)
	for _, al := range c.Airlines() {
		if al.Kind == "" || al.RangeKm < 3000 || len(al.Cabins) == 0 || len(al.Markets) == 0 {
			t.Errorf("%s (%s): kind %q, range %d, cabins %v, markets %v", al.Code, al.Name, al.Kind, al.RangeKm, al.Cabins, al.Markets)
		}
	}
	for _, tc := range []struct {
		code  string
		kind  AirlineKind
		focus string // one of its focus cities
	}{
		{"AA", NetworkAirline, "JFK"}, {"DL", NetworkAirline, "JFK"}, {"VS", LongHaulOnly, ""}, {"FR", LowCost, ""}, {"6E", LowCost, ""},
	} {
		al := c.Airline(tc.code)
		if al.Kind != tc.kind || (tc.focus != "" && !slices.Contains(al.Focus, tc.focus)) {
			t.Errorf("%s: kind %s, focus %v; want %s with %s", tc.code, al.Kind, al.Focus, tc.kind, tc.focus)
		}
	}
	if ua := c.Airline("UA"); !slices.Contains(ua.Hubs, "EWR") {
		t.Errorf("UA hubs %v, want Newark among them", ua.Hubs)
	}
}
