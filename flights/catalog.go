// Package flights is the domain: airports, airlines, the trip a user asks
// for, its validation, and the Provider that turns a trip into flights.
//
// It knows nothing of MCP or of ranking, so everything here is testable with
// plain table tests and reusable by any front end.
package flights

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	// The time zone database is embedded so that local flight times are right
	// on machines (and distroless images) without /usr/share/zoneinfo.
	_ "time/tzdata"

	"github.com/flightserver/flightserver/data"
)

// Airport is a real airport, with the time zone its schedules are written in.
type Airport struct {
	Code     string // IATA code, upper case
	Name     string
	City     string
	Country  string // ISO 3166-1 alpha-2
	Lat, Lon float64
	TZ       string // IANA zone name
	zone     *zone
}

// Location is the time zone the airport's schedules are written in.
func (a *Airport) Location() *time.Location { return a.zone.location() }

// zone is one IANA time zone, loaded once, when first needed: a load reads
// and parses a zoneinfo file (~30us), and the embedded airports use 88 of
// them, so loading every one up front was a quarter of the server's start.
// Airports in the same zone share one.
type zone struct {
	name string
	once sync.Once
	loc  *time.Location
	err  error
}

func (z *zone) load() error {
	z.once.Do(func() { z.loc, z.err = time.LoadLocation(z.name) })
	return z.err
}

// location is the zone, or UTC if it cannot be loaded: that cannot happen
// for a catalog built by NewCatalogFrom, which loads every zone, nor for
// the embedded one, whose zones a test loads (TestEmbeddedZonesLoad).
func (z *zone) location() *time.Location {
	if z.load() != nil {
		return time.UTC
	}
	return z.loc
}

// Airline is a real airline and the airports it connects passengers through.
type Airline struct {
	Code     string // IATA designator
	Name     string
	Alliance string // "oneworld", "Star Alliance", "SkyTeam" or "none"
	Hubs     []string
}

// Catalog is the validated, indexed reference data. It is immutable after
// construction and safe for concurrent use.
type Catalog struct {
	airports map[string]*Airport
	codes    []string  // sorted airport codes
	airlines []Airline // sorted by code
	byCode   map[string]*Airline

	// Places: metro areas, cities (with their aliases) and countries, and
	// the folded names a traveller may type for them. See places.go.
	metros    map[string]*Metro
	metroList []*Metro // in data order
	cities    []*city  // sorted by name, then country
	cityNames map[string][]*city
	countries map[string]*Country // by code
	countryBy map[string]*Country // by folded code, name or alias
	// searchText is each airport's folded city and name, with a leading
	// space so that " "+query finds a match at a word's start.
	searchText map[string]string

	// Hub index for the provider's routing, built once: every airport that
	// is some airline's hub, each airline's hubs as indexes into that list,
	// and the distances between the hubs, computed when the first search
	// needs them (a few thousand great circles: a third of the catalog's
	// build, and of no use to a process that has not searched yet).
	hubs       []*Airport
	airlineHub [][]int // airlineHub[i] are the hubs of airlines[i]
	hubDistKm  func() [][]float64
}

// Embedded returns the catalog built from the data package, parsed once.
// An error here means the embedded files are broken: a build defect that the
// tests catch, reported rather than panicking so callers can exit cleanly.
//
// Its time zones are loaded as flights need them rather than checked up
// front: they are the same in every build, so a test checks them instead
// of every start.
var Embedded = sync.OnceValues(func() (*Catalog, error) {
	return newCatalog(embeddedSources(), false)
})

func embeddedSources() Sources {
	return Sources{Airports: data.AirportsCSV, Airlines: data.AirlinesCSV,
		Metros: data.MetrosCSV, Cities: data.CitiesCSV, Countries: data.CountriesCSV}
}

// Sources is the CSV data a catalog is built from, in the formats the data
// package documents. Airports and Airlines are required; the place data is
// optional (without it a catalog knows airport codes and the cities in
// airports.csv, but no metro codes, aliases or country names).
type Sources struct {
	Airports, Airlines        []byte
	Metros, Cities, Countries []byte
}

// NewCatalog builds a catalog from airports and airlines only, as tests with
// hand-made data need. See NewCatalogFrom.
func NewCatalog(airportsCSV, airlinesCSV []byte) (*Catalog, error) {
	return NewCatalogFrom(Sources{Airports: airportsCSV, Airlines: airlinesCSV})
}

// NewCatalogFrom parses and cross-checks the data: codes are unique,
// coordinates in range, every time zone loads, every hub is a known airport,
// and the place data agrees with the airports (see indexPlaces).
func NewCatalogFrom(src Sources) (*Catalog, error) {
	return newCatalog(src, true)
}

// newCatalog builds a catalog, loading every time zone now when
// checkZones says so.
func newCatalog(src Sources, checkZones bool) (*Catalog, error) {
	c := &Catalog{airports: map[string]*Airport{}, byCode: map[string]*Airline{}}
	zones := map[string]*zone{}
	err := readCSV(src.Airports, []string{"iata", "name", "city", "country", "lat", "lon", "tz"}, func(line int, f []string) error {
		a := &Airport{Code: f[0], Name: f[1], City: f[2], Country: f[3], TZ: f[6]}
		if !isCode(a.Code, 3) {
			return fmt.Errorf("iata %q is not three upper-case letters", a.Code)
		}
		if _, dup := c.airports[a.Code]; dup {
			return fmt.Errorf("airport %s listed twice", a.Code)
		}
		var err error
		if a.Lat, err = strconv.ParseFloat(f[4], 64); err != nil || a.Lat < -90 || a.Lat > 90 {
			return fmt.Errorf("airport %s: latitude %q is not in [-90, 90]", a.Code, f[4])
		}
		if a.Lon, err = strconv.ParseFloat(f[5], 64); err != nil || a.Lon < -180 || a.Lon > 180 {
			return fmt.Errorf("airport %s: longitude %q is not in [-180, 180]", a.Code, f[5])
		}
		if a.zone = zones[a.TZ]; a.zone == nil {
			a.zone = &zone{name: a.TZ}
			zones[a.TZ] = a.zone
		}
		if checkZones {
			if err := a.zone.load(); err != nil {
				return fmt.Errorf("airport %s: time zone: %w", a.Code, err)
			}
		}
		c.airports[a.Code] = a
		c.codes = append(c.codes, a.Code)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("airports: %w", err)
	}
	err = readCSV(src.Airlines, []string{"iata", "name", "alliance", "hubs"}, func(line int, f []string) error {
		al := Airline{Code: f[0], Name: f[1], Alliance: f[2], Hubs: strings.Fields(f[3])}
		if len(al.Code) != 2 {
			return fmt.Errorf("airline code %q is not two characters", al.Code)
		}
		if _, dup := c.byCode[al.Code]; dup {
			return fmt.Errorf("airline %s listed twice", al.Code)
		}
		if !slices.Contains([]string{"oneworld", "Star Alliance", "SkyTeam", "none"}, al.Alliance) {
			return fmt.Errorf("airline %s: unknown alliance %q", al.Code, al.Alliance)
		}
		if len(al.Hubs) == 0 {
			return fmt.Errorf("airline %s has no hubs", al.Code)
		}
		for _, h := range al.Hubs {
			if c.airports[h] == nil {
				return fmt.Errorf("airline %s: hub %s is not a known airport", al.Code, h)
			}
		}
		c.airlines = append(c.airlines, al)
		c.byCode[al.Code] = &c.airlines[len(c.airlines)-1]
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("airlines: %w", err)
	}
	slices.Sort(c.codes)
	slices.SortFunc(c.airlines, func(a, b Airline) int { return strings.Compare(a.Code, b.Code) })
	for i := range c.airlines { // re-point after sorting moved the elements
		c.byCode[c.airlines[i].Code] = &c.airlines[i]
	}
	c.indexHubs()
	if err := c.indexPlaces(src); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Catalog) indexHubs() {
	index := map[string]int{}
	c.airlineHub = make([][]int, len(c.airlines))
	for i, al := range c.airlines {
		for _, h := range al.Hubs {
			k, ok := index[h]
			if !ok {
				k = len(c.hubs)
				index[h] = k
				c.hubs = append(c.hubs, c.airports[h])
			}
			c.airlineHub[i] = append(c.airlineHub[i], k)
		}
	}
	c.hubDistKm = sync.OnceValue(func() [][]float64 {
		dist := make([][]float64, len(c.hubs))
		for i := range c.hubs {
			dist[i] = make([]float64, len(c.hubs))
		}
		for i, a := range c.hubs { // distance is symmetric: half the matrix
			for j := i + 1; j < len(c.hubs); j++ {
				d := DistanceKm(a, c.hubs[j])
				dist[i][j], dist[j][i] = d, d
			}
		}
		return dist
	})
}

func readCSV(b []byte, header []string, row func(line int, fields []string) error) error {
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = len(header)
	got, err := r.Read()
	if err != nil {
		return fmt.Errorf("header: %w", err)
	}
	if !slices.Equal(got, header) {
		return fmt.Errorf("header is %v, want %v", got, header)
	}
	for {
		fields, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		line, _ := r.FieldPos(0)
		if err := row(line, fields); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
	}
}

func isCode(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// Airport returns the airport with the given IATA code, or nil.
func (c *Catalog) Airport(code string) *Airport { return c.airports[code] }

// Airline returns the airline with the given IATA designator, or nil.
func (c *Catalog) Airline(code string) *Airline { return c.byCode[code] }

// AirportCodes returns every airport code, sorted. The slice is a copy.
func (c *Catalog) AirportCodes() []string { return slices.Clone(c.codes) }

// Airlines returns every airline, sorted by code. The slice is a copy.
func (c *Catalog) Airlines() []Airline { return slices.Clone(c.airlines) }

// ResolveAirline reads an airline as a traveller gives it: its IATA code in
// any case ("ba"), its name ("British Airways", "lufthansa"), or the short
// name people use, which is how the name begins or a word of it ("Delta",
// "KLM", "Swiss", "Atlantic"), case- and accent-insensitively, when only one
// airline answers to it. The error says what was not found, or that the
// name is more than one airline's; see airlineAccepted for what to suggest.
func (c *Catalog) ResolveAirline(s string) (Airline, error) {
	q := strings.TrimSpace(s)
	if al := c.byCode[strings.ToUpper(q)]; al != nil {
		return *al, nil
	}
	switch named := c.airlinesNamed(q); len(named) {
	case 0:
		return Airline{}, fmt.Errorf("%s is not a known airline", Quote(q))
	case 1:
		return *named[0], nil
	}
	return Airline{}, fmt.Errorf("%s is the name of more than one airline", Quote(q))
}

// minAirlinePrefix is the shortest part of a name that may stand for an
// airline: two letters are a code, not a name.
const minAirlinePrefix = 3

// airlinesNamed are the airlines a typed name stands for, in code order:
// the one whose whole name it is; else those whose name begins with it;
// else those with a word that begins with it ("atlantic").
func (c *Catalog) airlinesNamed(typed string) []*Airline {
	q := fold(typed)
	if q == "" || len(q) > maxSuggestInput {
		return nil
	}
	var prefix, word []*Airline
	for i := range c.airlines {
		al := &c.airlines[i]
		name := fold(al.Name)
		switch {
		case name == q:
			return []*Airline{al}
		case len(q) < minAirlinePrefix:
		case strings.HasPrefix(name, q):
			prefix = append(prefix, al)
		case strings.Contains(" "+name, " "+q):
			word = append(word, al)
		}
	}
	if len(prefix) > 0 {
		return prefix
	}
	return word
}

// airlineAccepted is what an airline field accepts, with the airlines a
// name that is more than one airline's stands for ("virgin": VS, VA), or
// the airline whose code is the typed one with its letters swapped ("AB"
// -> BA), or else every known code: there are few enough, and two letters
// one edit apart say nothing.
func (c *Catalog) airlineAccepted(typed string) string {
	const accepted = "an IATA airline code, or an airline's name"
	var close []string
	for _, al := range c.airlinesNamed(typed) {
		close = append(close, al.Code+" ("+al.Name+")")
	}
	if len(close) > 1 {
		return accepted + "; it could be " + strings.Join(close, ", ")
	}
	if code := []rune(strings.ToUpper(strings.TrimSpace(typed))); len(code) == 2 {
		if al := c.byCode[string([]rune{code[1], code[0]})]; al != nil {
			return accepted + "; closest known: " + al.Code + " (" + al.Name + ")"
		}
	}
	codes := make([]string, len(c.airlines))
	for i, al := range c.airlines {
		codes[i] = al.Code
	}
	return accepted + "; known: " + strings.Join(codes, ", ")
}
