// Package data holds the reference data the server ships with: real airports
// and airlines, embedded in the binary so that every replica and every test
// sees the same facts without touching the network or the disk.
//
// The files are plain CSV so that a reader can check a fact with a glance and
// a reviewer can see a change in a diff. Parsing and validation live in the
// flights package; this package only embeds.
package data

import _ "embed"

// AirportsCSV lists airports: iata,name,city,country,lat,lon,tz (IANA
// zone),tier (1 to 5: under 3, 3-10, 10-25, 25-50, over 50 million
// passengers a year),intl_tier (the same bands for international
// passengers),taxi_delay (minutes of taxi out beyond the tier's
// usual, at congested airports; empty for none),od_tier (the same bands
// for the international passengers who begin or end their journey there,
// at the big transfer hubs; empty for intl_tier).
//
//go:embed airports.csv
var AirportsCSV []byte

// AirlinesCSV lists airlines: iata,name,alliance,hubs (space-separated
// IATA codes, the main one first),kind (network, lowcost or longhaul),focus
// (focus cities and gateways, space-separated),range_km (the fleet's longest
// leg),cabins (Y W J F: economy, premium economy, business, first),markets
// (where it flies beyond its home country: region names, country codes and
// long-haul gateway airports, space-separated). README.md says where each
// fact comes from.
//
//go:embed airlines.csv
var AirlinesCSV []byte

// MetrosCSV lists IATA metropolitan-area codes: code,city,country,airports
// (space-separated IATA codes, the busiest first). Only real codes, and only
// those that are not also an airport's code, so a code means one thing.
//
//go:embed metros.csv
var MetrosCSV []byte

// CitiesCSV lists other names travellers use for a city: city,country,aliases
// (separated by ";"). Accents need no alias: matching ignores them.
//
//go:embed cities.csv
var CitiesCSV []byte

// CountriesCSV names the countries of the airports: code (ISO 3166-1
// alpha-2),name,aliases (separated by ";").
//
//go:embed countries.csv
var CountriesCSV []byte

// GazetteerCSV lists well-known towns and cities, most of them without an
// airport in airports.csv, so that a traveller who names one learns the
// nearest airports there are: name,region,country (ISO 3166-1 alpha-2),
// lat,lon (the centre, in degrees),aliases (separated by ";"). region names
// the state or province where a name is shared ("Oregon;OR"), its forms
// separated by ";". Public facts, rounded to about a kilometre.
//
//go:embed gazetteer.csv
var GazetteerCSV []byte

// RegionsCSV groups the countries into the regions airlines' markets name:
// region,countries (space-separated ISO codes).
//
//go:embed regions.csv
var RegionsCSV []byte

// PartnersCSV lists partnerships beyond the alliances (joint ventures and
// codeshares whose connections are sold together): name,airlines
// (space-separated IATA codes, each a partner of every other).
//
//go:embed partners.csv
var PartnersCSV []byte

// NoServiceCSV lists the country pairs with no direct flights between them
// (sanctions, closed airspace, no relations): country,with (space-separated
// ISO codes),reason. Connections through a third country remain.
//
//go:embed no_service.csv
var NoServiceCSV []byte

// AffinitiesCSV lists the country pairs whose markets fly to each other
// more, or less, than their regions' affinity says: country,with
// (space-separated ISO codes),affinity (the demand model's multiplier,
// above 0 and at most 6: a country's own market is 6, a region's 3),reason.
//
//go:embed affinities.csv
var AffinitiesCSV []byte

// BilateralsCSV lists the country pairs whose air transport agreement caps
// the flights between them: country,with (space-separated ISO codes),
// per_week (the departures a week, each way, that one country's airlines
// may fly between the two in all; each side the same),source.
//
//go:embed bilaterals.csv
var BilateralsCSV []byte

// AirportLimitsCSV lists what some airports cannot take:
// iata,max_km (the longest leg; 0 for no limit),countries (the only
// countries it has flights to, space-separated; empty for any),exempt
// (airports beyond max_km it may still serve),curfew (HH:MM-HH:MM local,
// no scheduled departure or arrival),note.
//
//go:embed airport_limits.csv
var AirportLimitsCSV []byte
