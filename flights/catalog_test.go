package flights

import (
	"math"
	"slices"
	"strings"
	"testing"
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
