package flights

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Metro is an IATA metropolitan-area code and the airports it stands for:
// NYC is JFK, LGA and EWR. A search from a metro searches all of them.
type Metro struct {
	Code     string
	City     string
	Country  string
	Airports []string // the busiest first
}

// Country is a country the airports are in, with the names travellers give it.
type Country struct {
	Code    string // ISO 3166-1 alpha-2
	Name    string
	Aliases []string
}

// city is one city of the catalog: every airport whose City and Country are
// its own, or the metro of the same name, which may add airports in other
// towns (EWR, in Newark, is a New York airport).
type city struct {
	name, country string
	metro         string   // metro code, or ""
	airports      []string // the metro's order, else sorted by code
}

// PlaceKind says what a place names.
type PlaceKind string

// The kinds of place a traveller may give as an origin or destination.
const (
	AirportPlace PlaceKind = "airport" // an IATA airport code or an airport's name
	MetroPlace   PlaceKind = "metro"   // an IATA metropolitan-area code
	CityPlace    PlaceKind = "city"    // a city's name, in any case, with or without accents
)

// Place is what an origin or destination resolved to: the airports to search
// and how to name them back to the traveller.
type Place struct {
	// Query is what the caller gave, trimmed.
	Query string
	Kind  PlaceKind
	// Code is the airport or metro code; for a city, its metro code or its
	// only airport, or "" for a city of several airports with no metro code.
	Code string
	// Name is the airport's name, or the city's canonical name.
	Name    string
	City    string
	Country string
	// Airports are the IATA codes to search, the main one first.
	Airports []string
}

// Label is how a trip records the place: the code the traveller gave for an
// airport or metro, the city's canonical name for a city.
func (p Place) Label() string {
	if p.Kind == CityPlace {
		return p.Name
	}
	return p.Code
}

// String names the place in a suggestion so that each part can be given back
// as an origin or destination: "LHR (Heathrow Airport, London, GB)",
// "NYC (New York, US: JFK, LGA, EWR)", "San Jose, US (SJC)".
func (p Place) String() string {
	switch p.Kind {
	case AirportPlace:
		return fmt.Sprintf("%s (%s, %s, %s)", p.Code, p.Name, p.City, p.Country)
	case MetroPlace:
		return fmt.Sprintf("%s (%s, %s: %s)", p.Code, p.City, p.Country, strings.Join(p.Airports, ", "))
	}
	switch {
	case p.Code == "":
		return fmt.Sprintf("%s, %s (%s)", p.Name, p.Country, strings.Join(p.Airports, ", "))
	case len(p.Airports) > 1:
		return fmt.Sprintf("%s, %s (%s: %s)", p.Name, p.Country, p.Code, strings.Join(p.Airports, ", "))
	}
	return fmt.Sprintf("%s, %s (%s)", p.Name, p.Country, p.Code)
}

// PlaceError says why a place did not resolve and what the caller may have
// meant, best first.
type PlaceError struct {
	Query string
	// Ambiguous is true when the query names more than one place (the
	// Suggestions are those places), false when it names none.
	Ambiguous   bool
	Reason      string // e.g. `"Portland" is more than one city`
	Suggestions []Place
	// Nearby, for a real place the catalogue has no airport for ("Kraków"),
	// is each place of that name with the nearest airports the catalogue
	// has; the Suggestions are those airports.
	Nearby []Nearby
}

func (e *PlaceError) Error() string {
	if len(e.Suggestions) == 0 {
		return e.Reason
	}
	return e.Reason + "; " + e.suggestionText()
}

// PlaceAccepted is what an origin or destination may be, for Problems.
const PlaceAccepted = "an IATA airport code (e.g. JFK), a metro code (e.g. NYC) or a city name (e.g. New York)"

// Problem is the error as a Problem on field, in the Validator's style.
func (e *PlaceError) Problem(field string) Problem {
	accepted := PlaceAccepted
	if len(e.Suggestions) > 0 {
		accepted += "; " + e.suggestionText()
	}
	return Problem{Field: field, Problem: e.Reason, Accepted: accepted}
}

func (e *PlaceError) suggestionText() string {
	if len(e.Nearby) > 0 {
		parts := make([]string, len(e.Nearby))
		for i, n := range e.Nearby {
			parts[i] = n.String()
		}
		return "the airports there are: " + strings.Join(parts, "; ")
	}
	names := make([]string, len(e.Suggestions))
	for i, p := range e.Suggestions {
		names[i] = p.String()
	}
	if e.Ambiguous {
		return "one of: " + strings.Join(names, "; ")
	}
	return "closest known: " + strings.Join(names, "; ")
}

// maxPlaceSuggestions bounds the suggestions of a PlaceError: enough for the
// cities of one name, few enough to read.
const maxPlaceSuggestions = 5

// indexPlaces reads the optional place data and indexes every name a
// traveller may type. It checks that the data agrees with the airports: a
// metro's airports are known, share one time zone (so "today at the origin"
// is one date) and include every airport of the city it is named for; a
// metro code is not also an airport code; an alias names a known city.
func (c *Catalog) indexPlaces(src Sources) error {
	c.metros, c.cityNames = map[string]*Metro{}, map[string][]*city{}
	c.countries, c.countryBy = map[string]*Country{}, map[string]*Country{}
	c.searchText = map[string]string{}

	if len(src.Countries) > 0 {
		err := readCSV(src.Countries, []string{"code", "name", "aliases"}, func(_ int, f []string) error {
			co := &Country{Code: f[0], Name: f[1], Aliases: splitList(f[2])}
			if !isCode(co.Code, 2) {
				return fmt.Errorf("country code %q is not two upper-case letters", co.Code)
			}
			if c.countries[co.Code] != nil {
				return fmt.Errorf("country %s listed twice", co.Code)
			}
			c.countries[co.Code] = co
			for _, name := range append([]string{co.Code, co.Name}, co.Aliases...) {
				if other := c.countryBy[fold(name)]; other != nil {
					return fmt.Errorf("country name %q is both %s and %s", name, other.Code, co.Code)
				}
				c.countryBy[fold(name)] = co
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("countries: %w", err)
		}
		for _, code := range c.codes {
			if a := c.airports[code]; c.countries[a.Country] == nil {
				return fmt.Errorf("countries: airport %s is in %s, which is not listed", code, a.Country)
			}
		}
	}

	byKey := map[[2]string]*city{}
	for _, code := range c.codes { // sorted, so each city's airports are too
		a := c.airports[code]
		k := [2]string{a.City, a.Country}
		if byKey[k] == nil {
			byKey[k] = &city{name: a.City, country: a.Country}
		}
		byKey[k].airports = append(byKey[k].airports, code)
		c.searchText[code] = " " + fold(a.City+" "+a.Name)
	}

	if len(src.Metros) > 0 {
		err := readCSV(src.Metros, []string{"code", "city", "country", "airports"}, func(_ int, f []string) error {
			m := &Metro{Code: f[0], City: f[1], Country: f[2], Airports: strings.Fields(f[3])}
			switch {
			case !isCode(m.Code, 3):
				return fmt.Errorf("metro code %q is not three upper-case letters", m.Code)
			case c.metros[m.Code] != nil:
				return fmt.Errorf("metro %s listed twice", m.Code)
			case c.airports[m.Code] != nil:
				return fmt.Errorf("metro %s is also an airport code; list only codes that mean one thing", m.Code)
			case len(m.Airports) == 0:
				return fmt.Errorf("metro %s has no airports", m.Code)
			}
			for _, code := range m.Airports {
				a := c.airports[code]
				if a == nil {
					return fmt.Errorf("metro %s: airport %s is not a known airport", m.Code, code)
				}
				if first := c.airports[m.Airports[0]]; a.TZ != first.TZ || a.Country != m.Country {
					return fmt.Errorf("metro %s: airport %s is in %s (%s), not %s (%s) like the rest", m.Code, code, a.Country, a.TZ, m.Country, first.TZ)
				}
			}
			k := [2]string{m.City, m.Country}
			ct := byKey[k]
			if ct == nil {
				ct = &city{name: m.City, country: m.Country}
				byKey[k] = ct
			}
			if ct.metro != "" {
				return fmt.Errorf("metro %s: %s, %s already has metro %s", m.Code, m.City, m.Country, ct.metro)
			}
			for _, code := range ct.airports {
				if !slices.Contains(m.Airports, code) {
					return fmt.Errorf("metro %s leaves out %s, an airport of %s", m.Code, code, m.City)
				}
			}
			ct.metro, ct.airports = m.Code, m.Airports
			c.metros[m.Code] = m
			c.metroList = append(c.metroList, m)
			return nil
		})
		if err != nil {
			return fmt.Errorf("metros: %w", err)
		}
	}

	for _, ct := range byKey {
		c.cities = append(c.cities, ct)
		c.addCityName(ct.name, ct)
	}
	slices.SortFunc(c.cities, func(a, b *city) int { return cmp.Or(cmp.Compare(a.name, b.name), cmp.Compare(a.country, b.country)) })
	for _, names := range c.cityNames {
		slices.SortFunc(names, func(a, b *city) int { return cmp.Or(cmp.Compare(a.name, b.name), cmp.Compare(a.country, b.country)) })
	}

	if len(src.Cities) > 0 {
		err := readCSV(src.Cities, []string{"city", "country", "aliases"}, func(_ int, f []string) error {
			ct := byKey[[2]string{f[0], f[1]}]
			if ct == nil {
				return fmt.Errorf("%s, %s is not the city of any airport or metro", f[0], f[1])
			}
			for _, alias := range splitList(f[2]) {
				if fold(alias) == "" {
					return fmt.Errorf("%s, %s: alias %q has no letters", f[0], f[1], alias)
				}
				c.addCityName(alias, ct)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("cities: %w", err)
		}
	}
	return nil
}

func (c *Catalog) addCityName(name string, ct *city) {
	k := fold(name)
	if !slices.Contains(c.cityNames[k], ct) {
		c.cityNames[k] = append(c.cityNames[k], ct)
	}
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ";") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// Metro returns the metro area with the given code, or nil.
func (c *Catalog) Metro(code string) *Metro { return c.metros[code] }

// Metros returns every metro area, in data order. The slice is a copy.
func (c *Catalog) Metros() []Metro {
	out := make([]Metro, len(c.metroList))
	for i, m := range c.metroList {
		out[i] = *m
	}
	return out
}

// ResolveCountry finds a country by ISO code or name ("GB", "uk", "United
// Kingdom"), case- and accent-insensitively.
func (c *Catalog) ResolveCountry(s string) (Country, bool) {
	if co := c.countryBy[fold(s)]; co != nil {
		return *co, true
	}
	if co := c.countries[strings.ToUpper(strings.TrimSpace(s))]; co != nil {
		return *co, true
	}
	return Country{}, false
}

func (c *Catalog) airportPlace(query, code string) Place {
	a := c.airports[code]
	return Place{Query: query, Kind: AirportPlace, Code: code, Name: a.Name, City: a.City, Country: a.Country, Airports: []string{code}}
}

func (c *Catalog) metroPlace(query string, m *Metro) Place {
	return Place{Query: query, Kind: MetroPlace, Code: m.Code, Name: m.City, City: m.City, Country: m.Country, Airports: slices.Clone(m.Airports)}
}

func (c *Catalog) cityPlace(query string, ct *city) Place {
	code := ct.metro
	if code == "" && len(ct.airports) == 1 {
		code = ct.airports[0]
	}
	return Place{Query: query, Kind: CityPlace, Code: code, Name: ct.name, City: ct.name, Country: ct.country, Airports: slices.Clone(ct.airports)}
}

// ResolvePlace reads an origin or destination: an IATA airport code ("jfk"),
// a metro code ("NYC"), a city's name in any case, with or without accents
// and in its common forms ("new york city", "São Paulo", "Washington DC"),
// a city with its country ("San Jose, Costa Rica", "Paris FR"), a unique
// part of an airport's name ("Heathrow"), or any of these followed by
// "airport", "airports", "international" or "intl" ("JFK airport", "Paris
// airport"). An airport code wins over
// everything else, so a code always means that airport.
//
// The error is a *PlaceError: ambiguous (the suggestions are the places the
// query names) or unknown (the suggestions are the closest matches, metro
// and city names before codes that merely look alike).
func (c *Catalog) ResolvePlace(s string) (Place, error) {
	query := strings.TrimSpace(s)
	if len(query) > maxSuggestInput {
		return Place{}, &PlaceError{Query: query, Reason: fmt.Sprintf("%s is too long for a place name", Quote(query))}
	}
	q := fold(query)
	if q == "" {
		return Place{}, &PlaceError{Query: query, Reason: fmt.Sprintf("%s is not a place name", Quote(query))}
	}
	if code := strings.ToUpper(query); isCode(code, 3) {
		if c.airports[code] != nil {
			return c.airportPlace(query, code), nil
		}
		if m := c.metros[code]; m != nil {
			return c.metroPlace(query, m), nil
		}
	}
	if cities := c.cityNames[q]; len(cities) > 0 {
		return c.oneCity(query, cities, "city")
	}
	if cities, ok := c.cityInCountry(q); ok {
		return c.oneCity(query, cities, "city in that country")
	}
	if len(q) >= 4 {
		var named []string
		for _, code := range c.codes {
			if containsWords(c.searchText[code], q) {
				named = append(named, code)
			}
		}
		if len(named) == 1 {
			return c.airportPlace(query, named[0]), nil
		}
	}
	if rest, ok := withoutAirport(q); ok {
		// "JFK airport", "Paris airport", "NYC airports": what the words
		// before it name, if they name a place. After an airport's own
		// name (above), which means that airport even when the words
		// before "airport" name a city with others ("Osaka International
		// Airport" is Itami, not Kansai too).
		if p, err := c.ResolvePlace(rest); err == nil {
			p.Query = query
			return p, nil
		}
	}
	if towns := embeddedGazetteer().lookup(c, q); len(towns) > 0 {
		return Place{}, c.noAirport(query, towns)
	}
	if co, ok := c.ResolveCountry(query); ok {
		return Place{}, &PlaceError{Query: query, Reason: fmt.Sprintf("%s is a country; give a city or an airport in it", Quote(query)),
			Suggestions: c.citiesOf(query, co.Code)}
	}
	what := "a known airport, metro area or city"
	if isCode(strings.ToUpper(query), 3) {
		what = "a known airport or metro code"
	}
	if isCode(query, 4) {
		e := &PlaceError{Query: query, Reason: fmt.Sprintf("%s is not %s; it looks like a four-letter ICAO code: give the airport's three-letter IATA code (JFK, not KJFK; LHR, not EGLL) or its city", Quote(query), what)}
		if code := c.icaoToIATA(query); code != "" {
			e.Suggestions = []Place{c.airportPlace(query, code)}
		}
		return Place{}, e
	}
	return Place{}, &PlaceError{Query: query, Reason: fmt.Sprintf("%s is not %s", Quote(query), what), Suggestions: c.suggestPlaces(query, q)}
}

// withoutAirport is q (folded) without the words a traveller writes after
// a code or a city to say it is an airport ("JFK airport", "LHR
// International Airport", "NYC airports"), if it ends in them and has
// words before them.
func withoutAirport(q string) (string, bool) {
	words := strings.Fields(q)
	n := len(words)
	for n > 1 && slices.Contains([]string{"airport", "airports", "international", "intl"}, words[n-1]) {
		n--
	}
	if n == len(words) {
		return "", false
	}
	return strings.Join(words[:n], " "), true
}

// icaoToIATA is the airport an ICAO code names where the IATA code follows
// from it: K and the IATA code in the contiguous US, P in Alaska and
// Hawaii (PANC, PHNL), C in Canada (CYYZ); "" elsewhere, where the two
// codes are unrelated (EGLL is LHR).
func (c *Catalog) icaoToIATA(icao string) string {
	a := c.airports[icao[1:]]
	if a == nil {
		return ""
	}
	ok := false
	switch a.Country {
	case "US":
		pacific := a.TZ == "Pacific/Honolulu" || a.TZ == "America/Anchorage"
		ok = (icao[0] == 'K' && !pacific) || (icao[0] == 'P' && pacific)
	case "CA":
		ok = icao[0] == 'C'
	}
	if !ok {
		return ""
	}
	return a.Code
}

// noAirport is the error for real places the catalogue has no airport in:
// each with its nearest airports, which are the suggestions.
func (c *Catalog) noAirport(query string, towns []*town) *PlaceError {
	e := &PlaceError{Query: query, Reason: fmt.Sprintf("%s has no airport in this server's catalogue", Quote(query))}
	for _, t := range towns[:min(len(towns), maxPlaceSuggestions)] {
		n := c.nearest(query, t)
		e.Nearby = append(e.Nearby, n)
		for _, a := range n.Airports {
			if !slices.ContainsFunc(e.Suggestions, func(p Place) bool { return p.Code == a.Place.Code }) {
				e.Suggestions = append(e.Suggestions, a.Place)
			}
		}
	}
	return e
}

func (c *Catalog) oneCity(query string, cities []*city, what string) (Place, error) {
	if len(cities) == 1 {
		return c.cityPlace(query, cities[0]), nil
	}
	e := &PlaceError{Query: query, Ambiguous: true, Reason: fmt.Sprintf("%s is more than one %s", Quote(query), what)}
	for _, ct := range cities[:min(len(cities), maxPlaceSuggestions)] {
		e.Suggestions = append(e.Suggestions, c.cityPlace(query, ct))
	}
	return Place{}, e
}

// cityInCountry reads "<city>, <country>" or "<city> <country>", where the
// country is a code or a name: the cities of that name in that country.
func (c *Catalog) cityInCountry(q string) ([]*city, bool) {
	words := strings.Fields(q)
	for k := 1; k < len(words) && k <= 4; k++ {
		name, country := strings.Join(words[:len(words)-k], " "), strings.Join(words[len(words)-k:], " ")
		co := c.countryBy[country]
		if co == nil {
			continue
		}
		var in []*city
		for _, ct := range c.cityNames[name] {
			if ct.country == co.Code {
				in = append(in, ct)
			}
		}
		if len(in) > 0 {
			return in, true
		}
	}
	return nil, false
}

// citiesOf suggests a country's cities, the ones with the most airports first.
func (c *Catalog) citiesOf(query, country string) []Place {
	var in []*city
	for _, ct := range c.cities {
		if ct.country == country {
			in = append(in, ct)
		}
	}
	slices.SortStableFunc(in, func(a, b *city) int { return cmp.Compare(len(b.airports), len(a.airports)) })
	var out []Place
	for _, ct := range in[:min(len(in), maxPlaceSuggestions)] {
		out = append(out, c.cityPlace(query, ct))
	}
	return out
}

// suggestPlaces finds what an unknown query may have meant, best first:
// cities whose name begins with it or contains it as words ("hou" ->
// Houston, "york" -> New York), airports whose name does ("gatw" ->
// Gatwick), cities a small edit away ("londn" -> London), airports with a
// word of their name a small edit away ("heathrw" -> LHR), and, for a
// code-shaped query only, codes one edit away ("JKF" -> JFK). Name matches
// come first: two letters in common out of three say little, so "NYC" must
// never turn into YYC while New York is known.
func (c *Catalog) suggestPlaces(query, q string) []Place {
	var out []Place
	seen := map[string]bool{} // places and the airports they cover
	add := func(p Place) {
		if k := string(p.Kind) + p.Label() + p.Country; !seen[k] && !(p.Kind == AirportPlace && seen[p.Code]) && len(out) < maxPlaceSuggestions {
			seen[k] = true
			for _, a := range p.Airports {
				seen[a] = true
			}
			out = append(out, p)
		}
	}
	// Cities by name, in order of their folded names so the result is stable.
	names := make([]string, 0, len(c.cityNames))
	for name := range c.cityNames {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if strings.HasPrefix(name, q) || (len(q) >= 3 && containsWords(" "+name, q)) {
			for _, ct := range c.cityNames[name] {
				add(c.cityPlace(query, ct))
			}
		}
	}
	if len(q) >= 3 {
		// A word many airports share ("international") names none of them.
		var named []string
		for _, code := range c.codes {
			if strings.Contains(c.searchText[code], " "+q) {
				named = append(named, code)
			}
		}
		if len(named) <= maxPlaceSuggestions {
			for _, code := range named {
				add(c.airportPlace(query, code))
			}
		}
	}
	if len(out) == 0 && len(q) > 3 {
		best, limit := []string(nil), len(q)/3
		for _, name := range names {
			switch d := editDistance(q, name); {
			case d < limit || (d == limit && best == nil):
				best, limit = []string{name}, d
			case d == limit:
				best = append(best, name)
			}
		}
		for _, name := range best {
			for _, ct := range c.cityNames[name] {
				add(c.cityPlace(query, ct))
			}
		}
	}
	if len(out) == 0 && len(q) > 3 && !strings.Contains(q, " ") {
		// A misspelt word of an airport's name ("heathrw").
		limit := len(q) / 3
		var named []string
		for _, code := range c.codes {
			for _, word := range strings.Fields(c.searchText[code]) {
				if len(word) > 3 && editDistance(q, word) <= limit {
					named = append(named, code)
					break
				}
			}
		}
		if len(named) <= maxPlaceSuggestions { // as above: a common word names none
			for _, code := range named {
				add(c.airportPlace(query, code))
			}
		}
	}
	if code := strings.ToUpper(query); isCode(code, 3) {
		for _, a := range c.codes {
			if editDistance(code, a) == 1 {
				add(c.airportPlace(query, a))
			}
		}
		for _, m := range c.metroList {
			if editDistance(code, m.Code) == 1 {
				add(c.metroPlace(query, m))
			}
		}
	}
	return out
}

// containsWords reports whether q occurs in text as whole words: text has a
// leading space, q is folded.
func containsWords(text, q string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], " "+q)
		if j < 0 {
			return false
		}
		end := i + j + 1 + len(q)
		if end == len(text) || text[end] == ' ' {
			return true
		}
		i += j + 1
	}
}

// FindAirports lists the airports a query names, for a traveller who wants
// to look before searching: by airport or metro code, by city or alias (a
// metro's every airport), or by a word of the airport's name, each from the
// start of a word, case- and accent-insensitively. country, if given, is an
// ISO code or a name and keeps only the airports there; with an empty query
// it lists that country's airports. Exact codes come first, then the city's
// airports, then name matches, each in code order.
func (c *Catalog) FindAirports(query, country string) []Airport {
	q := fold(query)
	var only string
	if strings.TrimSpace(country) != "" {
		co, ok := c.ResolveCountry(country)
		if !ok {
			return nil
		}
		only = co.Code
	}
	if len(q) > maxSuggestInput || (q == "" && only == "") {
		return nil
	}
	rank := map[string]int{}
	note := func(code string, r int) {
		if old, ok := rank[code]; !ok || r < old {
			rank[code] = r
		}
	}
	if code := strings.ToUpper(strings.TrimSpace(query)); isCode(code, 3) {
		if c.airports[code] != nil {
			note(code, 0)
		}
		if m := c.metros[code]; m != nil {
			for _, a := range m.Airports {
				note(a, 1)
			}
		}
	}
	for name, cities := range c.cityNames {
		r := -1
		switch {
		case name == q:
			r = 1
		case q == "" || strings.Contains(" "+name, " "+q):
			r = 2
		}
		for _, ct := range cities {
			for _, a := range ct.airports {
				if r >= 0 {
					note(a, r)
				}
			}
		}
	}
	for _, code := range c.codes {
		if q == "" || strings.Contains(c.searchText[code], " "+q) {
			note(code, 3)
		}
	}
	var codes []string
	for code := range rank {
		if only == "" || c.airports[code].Country == only {
			codes = append(codes, code)
		}
	}
	if len(codes) == 0 {
		if rest, ok := withoutAirport(q); ok {
			return c.FindAirports(rest, country) // "JFK airport", "Paris airport"
		}
	}
	slices.SortFunc(codes, func(a, b string) int { return cmp.Or(cmp.Compare(rank[a], rank[b]), cmp.Compare(a, b)) })
	out := make([]Airport, len(codes))
	for i, code := range codes {
		out[i] = *c.airports[code]
	}
	return out
}

// fold makes a name comparable as travellers type it: lower case, accents
// and ligatures off ("São" -> "sao", "Zürich" -> "zurich", "ø" -> "o"), dots
// and apostrophes dropped ("D.C." -> "dc", "O'Hare" -> "ohare"), any other
// punctuation a space, spaces collapsed.
//
// Most of what it reads is plain ASCII (codes, and most names as typed),
// which foldASCII does in one pass without decoding runes or a table.
func fold(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return foldUnicode(s)
		}
	}
	return foldASCII(s)
}

// foldASCII is fold for a string of ASCII bytes only.
func foldASCII(s string) string {
	b := make([]byte, 0, len(s))
	space := true // no leading space
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'A' <= c && c <= 'Z':
			b = append(b, c+'a'-'A')
			space = false
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			b = append(b, c)
			space = false
		case c == '.' || c == '\'' || c == '`':
		case !space:
			b = append(b, ' ')
			space = true
		}
	}
	return strings.TrimRight(string(b), " ")
}

// foldUnicode is fold for any string: Unicode compatibility decomposition
// (NFKD, golang.org/x/text) splits each accented letter into its base and
// its marks, and ligatures and full-width forms into plain letters, and the
// marks are dropped, so "Hà Nội" is "ha noi" and "ﬁ" is "fi". The few
// letters that decompose into nothing simpler (ß, æ, ø, ł: letters of their
// own, not accented ones) are spelt as their languages transliterate them.
func foldUnicode(s string) string {
	var b strings.Builder
	space := true // no leading space
	for _, r := range norm.NFKD.String(strings.ToLower(s)) {
		if rep, ok := ownLetters[r]; ok {
			b.WriteString(rep)
			space = false
			continue
		}
		switch {
		case unicode.Is(unicode.Mn, r):
		case r == '.' || r == '\'' || r == '’' || r == '`':
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
			space = false
		case !space:
			b.WriteByte(' ')
			space = true
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// ownLetters are the letters of Latin scripts that no decomposition
// reduces to a base letter, with their usual ASCII spelling.
var ownLetters = map[rune]string{
	'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'ł': "l", 'đ': "d", 'ð': "d", 'þ': "th", 'ı': "i", 'ħ': "h", 'ŧ': "t",
}
