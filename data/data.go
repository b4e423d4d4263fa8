// Package data holds the reference data the server ships with: real airports
// and airlines, embedded in the binary so that every replica and every test
// sees the same facts without touching the network or the disk.
//
// The files are plain CSV so that a reader can check a fact with a glance and
// a reviewer can see a change in a diff. Parsing and validation live in the
// flights package; this package only embeds.
package data

import _ "embed"

// AirportsCSV lists airports: iata,name,city,country,lat,lon,tz (IANA zone).
//
//go:embed airports.csv
var AirportsCSV []byte

// AirlinesCSV lists airlines: iata,name,alliance,hubs (space-separated IATA codes).
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
