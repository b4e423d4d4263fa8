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
	// Tier is the airport's size by passengers a year, 1 (under 3 million)
	// to 5 (over 50 million): how much traffic the network model gives it.
	// DefaultTier when the data gives none.
	Tier int
	// IntlTier is its size by international passengers a year, in the same
	// bands: what long-haul demand is reckoned from. Tier when the data
	// gives none.
	IntlTier int
	// ODTier is its size by the international passengers who begin or end
	// their journey there, not those who only change planes, in the same
	// bands: what the demand between two places is reckoned from, where
	// IntlTier says how big a gateway it is. A transfer hub's is lower
	// (Doha's passengers mostly connect). IntlTier when the data gives none.
	ODTier int
	// TaxiDelay is the minutes a departure's taxi out takes beyond what is
	// usual for an airport of its tier (the New York airports' are the
	// longest in the US).
	TaxiDelay int
	zone      *zone
	limits    airportLimits
}

// DefaultTier is the Tier of an airport whose data gives none.
const DefaultTier = 3

// Restriction says, in a few words, what limits the flights the airport can
// take ("perimeter rule: ...", "domestic only; overnight closure"), or ""
// when the data gives it no limits: what a caller can tell a traveller who
// finds no flight from it.
func (a *Airport) Restriction() string { return a.limits.note }

// Location is the time zone the airport's schedules are written in.
func (a *Airport) Location() *time.Location { return a.zone.location() }

// zone is one IANA time zone, loaded once, when first needed: a load reads
// and parses a zoneinfo file, and the embedded airports use 88 zones, too
// many to load on the start-up path (docs/BENCHMARKS.md#beside-the-peers).
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

// Airline is a real airline, what kind of airline it is and where it flies:
// the network model (see network.go) builds its routes from these facts.
type Airline struct {
	Code     string // IATA designator
	Name     string
	Alliance string // "oneworld", "Star Alliance", "SkyTeam" or "none"
	// Hubs are the airports it connects passengers through (a low-cost
	// airline's bases), the main one first: its home country is the first
	// hub's.
	Hubs []string
	Kind AirlineKind
	// Focus are the other airports it flies from (gateways, focus cities),
	// without connecting banks.
	Focus []string
	// RangeKm is the longest leg its fleet flies.
	RangeKm int
	// Cabins are the cabins it sells, cheapest first.
	Cabins []Cabin
	// Markets are where it flies beyond its home country: region names
	// (see data/regions.csv), country codes, and airport codes for the
	// long-haul gateways it serves; empty means everywhere. A country code
	// after a minus ("-TR") leaves that country out of the regions named.
	// A country or an airport named outright is served all the same.
	Markets []string
}

// AirlineKind is the kind of airline, which decides how it flies.
type AirlineKind string

// The kinds of airline.
const (
	// Network airlines fly from their hubs and focus cities and sell
	// connections, on their own flights and their partners'.
	NetworkAirline AirlineKind = "network"
	// LowCost airlines fly point to point from their bases and sell
	// connections only on their own flights.
	LowCost AirlineKind = "lowcost"
	// LongHaulOnly airlines fly no short or medium haul at all.
	LongHaulOnly AirlineKind = "longhaul"
)

// Sells reports whether the airline sells cabin on some of its flights.
// Premium economy is sold only on long legs, first only on its flagship
// routes among them (see cabinOn).
func (a *Airline) Sells(cabin Cabin) bool { return slices.Contains(a.Cabins, cabin) }

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

	// The network model's data (see network.go): regions by name and by
	// country, partnerships beyond alliances, country pairs without
	// service, with an affinity of their own and with an agreement that
	// caps their flights, and the network itself,
	// built when the first search needs it.
	regions   map[string][]string
	regionOf  map[string]string
	partners  map[[2]string]string  // by the two airlines' codes, sorted: the partnership's name
	noService map[[2]string]string  // by the two countries, sorted: the reason
	affinity  map[[2]string]float64 // by the two countries, sorted: their markets' affinity
	bilateral map[[2]string]int     // by the two countries, sorted: each side's flights a week at most
	network   func() *network
	seasons   *seasonCache
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
		Metros: data.MetrosCSV, Cities: data.CitiesCSV, Countries: data.CountriesCSV,
		Regions: data.RegionsCSV, Partners: data.PartnersCSV, NoService: data.NoServiceCSV, Affinities: data.AffinitiesCSV, Bilaterals: data.BilateralsCSV, Limits: data.AirportLimitsCSV}
}

// Sources is the CSV data a catalog is built from, in the formats the data
// package documents. Airports and Airlines are required; the rest is
// optional. Without the place data a catalog knows airport codes and the
// cities in data/airports.csv, but no metro codes, aliases or country names;
// without the network data (and the optional columns of airports and
// airlines) every airline may fly anywhere its hubs reach, as a network
// airline with every cabin, and no airport or country pair is restricted.
type Sources struct {
	Airports, Airlines        []byte
	Metros, Cities, Countries []byte
	// Regions, Partners, NoService, Affinities, Bilaterals and Limits are
	// the network model's rules: see data/README.md.
	Regions, Partners, NoService, Affinities, Bilaterals, Limits []byte
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
	err := readColumns(src.Airports, []string{"iata", "name", "city", "country", "lat", "lon", "tz"}, []string{"tier", "intl_tier", "taxi_delay", "od_tier"}, func(line int, f []string) error {
		a := &Airport{Code: f[0], Name: f[1], City: f[2], Country: f[3], TZ: f[6], Tier: DefaultTier}
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
		if f[7] != "" {
			if a.Tier, err = strconv.Atoi(f[7]); err != nil || a.Tier < 1 || a.Tier > 5 {
				return fmt.Errorf("airport %s: tier %q is not a number from 1 to 5", a.Code, f[7])
			}
		}
		a.IntlTier = a.Tier
		if f[8] != "" {
			if a.IntlTier, err = strconv.Atoi(f[8]); err != nil || a.IntlTier < 1 || a.IntlTier > 5 {
				return fmt.Errorf("airport %s: intl_tier %q is not a number from 1 to 5", a.Code, f[8])
			}
		}
		a.ODTier = a.IntlTier
		if f[10] != "" {
			if a.ODTier, err = strconv.Atoi(f[10]); err != nil || a.ODTier < 1 || a.ODTier > a.IntlTier {
				return fmt.Errorf("airport %s: od_tier %q is not a number from 1 to its intl_tier, %d", a.Code, f[10], a.IntlTier)
			}
		}
		if f[9] != "" {
			if a.TaxiDelay, err = strconv.Atoi(f[9]); err != nil || a.TaxiDelay < 0 || a.TaxiDelay > 30 {
				return fmt.Errorf("airport %s: taxi_delay %q is not a number of minutes from 0 to 30", a.Code, f[9])
			}
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
	err = readColumns(src.Airlines, []string{"iata", "name", "alliance", "hubs"}, []string{"kind", "focus", "range_km", "cabins", "markets"}, func(line int, f []string) error {
		al, err := c.parseAirline(f)
		if err != nil {
			return err
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
	if err := c.indexPlaces(src); err != nil {
		return nil, err
	}
	if err := c.readNetworkRules(src); err != nil {
		return nil, err
	}
	c.network = sync.OnceValue(func() *network { return buildNetwork(c) })
	c.seasons = newSeasonCache()
	return c, nil
}

// parseAirline reads one row of data/airlines.csv: the required columns, and the
// network model's (kind, focus, range_km, cabins, markets), which default
// to a network airline with every cabin flying anywhere its range allows.
func (c *Catalog) parseAirline(f []string) (Airline, error) {
	al := Airline{Code: f[0], Name: f[1], Alliance: f[2], Hubs: strings.Fields(f[3]),
		Kind: AirlineKind(f[4]), Focus: strings.Fields(f[5]), RangeKm: maxLegKm, Cabins: slices.Clone(Cabins), Markets: strings.Fields(f[8])}
	if len(al.Code) != 2 {
		return al, fmt.Errorf("airline code %q is not two characters", al.Code)
	}
	if _, dup := c.byCode[al.Code]; dup {
		return al, fmt.Errorf("airline %s listed twice", al.Code)
	}
	if !slices.Contains([]string{"oneworld", "Star Alliance", "SkyTeam", "none"}, al.Alliance) {
		return al, fmt.Errorf("airline %s: unknown alliance %q", al.Code, al.Alliance)
	}
	if len(al.Hubs) == 0 {
		return al, fmt.Errorf("airline %s has no hubs", al.Code)
	}
	switch al.Kind {
	case "":
		al.Kind = NetworkAirline
	case NetworkAirline, LowCost, LongHaulOnly:
	default:
		return al, fmt.Errorf("airline %s: kind %q is not one of %s, %s, %s", al.Code, al.Kind, NetworkAirline, LowCost, LongHaulOnly)
	}
	stations := map[string]bool{}
	for i, h := range append(slices.Clone(al.Hubs), al.Focus...) {
		what := "hub"
		if i >= len(al.Hubs) {
			what = "focus city"
		}
		if c.airports[h] == nil {
			return al, fmt.Errorf("airline %s: %s %s is not a known airport", al.Code, what, h)
		}
		if stations[h] {
			return al, fmt.Errorf("airline %s: %s is listed twice among its hubs and focus cities", al.Code, h)
		}
		stations[h] = true
	}
	if f[6] != "" {
		km, err := strconv.Atoi(f[6])
		if err != nil || km < minLegKm || km > maxLegKm+1000 {
			return al, fmt.Errorf("airline %s: range_km %q is not a number of kilometres from %d to %d", al.Code, f[6], minLegKm, maxLegKm+1000)
		}
		al.RangeKm = km
	}
	if f[7] != "" {
		al.Cabins = nil
		for _, letter := range strings.Fields(f[7]) {
			cabin, ok := cabinLetters[letter]
			if !ok {
				return al, fmt.Errorf("airline %s: cabin %q is not one of Y (economy), W (premium economy), J (business), F (first)", al.Code, letter)
			}
			if slices.Contains(al.Cabins, cabin) {
				return al, fmt.Errorf("airline %s: cabin %s listed twice", al.Code, letter)
			}
			al.Cabins = append(al.Cabins, cabin)
		}
		if !slices.Contains(al.Cabins, Economy) {
			return al, fmt.Errorf("airline %s sells no economy (Y): every airline here does", al.Code)
		}
		slices.SortFunc(al.Cabins, func(a, b Cabin) int { return slices.Index(Cabins, a) - slices.Index(Cabins, b) })
	}
	return al, nil
}

// cabinLetters are the cabins by the letters data/airlines.csv uses for them
// (the usual fare-class letters of each cabin).
var cabinLetters = map[string]Cabin{"Y": Economy, "W": PremiumEconomy, "J": Business, "F": First}

func readCSV(b []byte, header []string, row func(line int, fields []string) error) error {
	return readColumns(b, header, nil, row)
}

// readColumns is readCSV for a file whose header is required followed by
// the first few (or none) of optional: each row has the header's columns,
// and row gets every column, "" for the optional ones the file leaves out.
func readColumns(b []byte, required, optional []string, row func(line int, fields []string) error) error {
	r := csv.NewReader(bytes.NewReader(b))
	got, err := r.Read()
	if err != nil {
		return fmt.Errorf("header: %w", err)
	}
	all := append(slices.Clone(required), optional...)
	if len(got) < len(required) || len(got) > len(all) || !slices.Equal(got, all[:len(got)]) {
		if len(optional) == 0 {
			return fmt.Errorf("header is %v, want %v", got, required)
		}
		return fmt.Errorf("header is %v, want %v followed by the first columns of %v, if any", got, required, optional)
	}
	r.FieldsPerRecord = len(got)
	for {
		fields, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		line, _ := r.FieldPos(0)
		for len(fields) < len(all) {
			fields = append(fields, "")
		}
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
