package flights

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/flightserver/flightserver/data"
)

// The gazetteer knows where well-known towns and cities are, airport or
// not, so that a place missing from the catalogue ("Kraków", "Portland")
// gets the catalogue's nearest airports rather than a bare "unknown". It is
// never used to guess: a place it finds is still an error, with the
// airports to choose from.

// town is one gazetteer entry.
type town struct {
	name     string
	regions  []string // the state or province, its forms; empty when the name is clear without it
	country  string
	lat, lon float64
}

// label names the town in an error: "Portland, Oregon, US".
func (t *town) label() string {
	parts := []string{t.name}
	if len(t.regions) > 0 {
		parts = append(parts, t.regions[0])
	}
	return strings.Join(append(parts, t.country), ", ")
}

// gazetteer indexes towns by every folded name they go by.
type gazetteer struct {
	byName map[string][]*town
}

// embeddedGazetteer is the data package's gazetteer, parsed once. A broken
// file leaves it empty (unknown places then get only the catalogue's close
// matches); TestEmbeddedGazetteer catches that.
var embeddedGazetteer = sync.OnceValue(func() *gazetteer {
	g, err := parseGazetteer(data.GazetteerCSV)
	if err != nil {
		return &gazetteer{}
	}
	return g
})

func parseGazetteer(b []byte) (*gazetteer, error) {
	g := &gazetteer{byName: map[string][]*town{}}
	err := readCSV(b, []string{"name", "region", "country", "lat", "lon", "aliases"}, func(_ int, f []string) error {
		t := &town{name: f[0], regions: splitList(f[1]), country: f[2]}
		var err error
		if t.lat, err = strconv.ParseFloat(f[3], 64); err != nil || t.lat < -90 || t.lat > 90 {
			return fmt.Errorf("%s: latitude %q is not in [-90, 90]", t.name, f[3])
		}
		if t.lon, err = strconv.ParseFloat(f[4], 64); err != nil || t.lon < -180 || t.lon > 180 {
			return fmt.Errorf("%s: longitude %q is not in [-180, 180]", t.name, f[4])
		}
		if !isCode(t.country, 2) {
			return fmt.Errorf("%s: country %q is not an ISO code", t.name, t.country)
		}
		for _, name := range append([]string{t.name}, splitList(f[5])...) {
			k := fold(name)
			if k == "" {
				return fmt.Errorf("%s: name %q has no letters", t.name, name)
			}
			if !slices.Contains(g.byName[k], t) {
				g.byName[k] = append(g.byName[k], t)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("gazetteer: %w", err)
	}
	return g, nil
}

// lookup finds the towns q (folded) names: by name, or by name and then a
// region or country ("portland oregon", "portland or", "valencia spain").
func (g *gazetteer) lookup(c *Catalog, q string) []*town {
	if towns := g.byName[q]; len(towns) > 0 {
		return towns
	}
	words := strings.Fields(q)
	for k := 1; k < len(words) && k <= 4; k++ {
		name, qual := strings.Join(words[:len(words)-k], " "), strings.Join(words[len(words)-k:], " ")
		var in []*town
		for _, t := range g.byName[name] {
			if t.qualifiedBy(c, qual) {
				in = append(in, t)
			}
		}
		if len(in) > 0 {
			return in
		}
	}
	return nil
}

// qualifiedBy reports whether qual (folded) names the town's region or
// country.
func (t *town) qualifiedBy(c *Catalog, qual string) bool {
	for _, r := range t.regions {
		if fold(r) == qual {
			return true
		}
	}
	if fold(t.country) == qual {
		return true
	}
	co := c.countryBy[qual]
	return co != nil && co.Code == t.country
}

// NearAirport is a catalogue airport near a place, and how far.
type NearAirport struct {
	Place Place
	Km    int
}

// Nearby is a place the catalogue has no airport for, and the nearest
// airports it does have.
type Nearby struct {
	// Name is the place as the gazetteer knows it: "Portland, Oregon, US".
	Name     string
	Airports []NearAirport
}

// maxNearAirports is how many airports a Nearby lists.
const maxNearAirports = 3

// nearest are the catalogue's airports nearest to t, nearest first.
func (c *Catalog) nearest(query string, t *town) Nearby {
	here := &Airport{Lat: t.lat, Lon: t.lon}
	type near struct {
		code string
		km   float64
	}
	all := make([]near, 0, len(c.codes))
	for _, code := range c.codes {
		all = append(all, near{code, DistanceKm(here, c.airports[code])})
	}
	slices.SortFunc(all, func(a, b near) int { return cmp.Or(cmp.Compare(a.km, b.km), cmp.Compare(a.code, b.code)) })
	n := Nearby{Name: t.label()}
	for _, a := range all[:min(len(all), maxNearAirports)] {
		n.Airports = append(n.Airports, NearAirport{Place: c.airportPlace(query, a.code), Km: int(a.km + 0.5)})
	}
	return n
}

// String is the place and its nearest airports, for an error:
// "Kraków, PL: nearest WAW (Warsaw Chopin Airport, Warsaw, PL) 252 km, ...".
func (n Nearby) String() string {
	parts := make([]string, len(n.Airports))
	for i, a := range n.Airports {
		parts[i] = fmt.Sprintf("%s %d km", a.Place, a.Km)
	}
	return n.Name + ": nearest " + strings.Join(parts, ", ")
}
