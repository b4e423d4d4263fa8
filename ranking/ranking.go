// Package ranking is everything about choosing among flights: the filters a
// trip imposes, the deterministic ranker every call can fall back on, and the
// prompt and the answer contract that both LLM rungs share (client sampling
// and the server's own LLM). The answer reader is its own package,
// ranking/answer, which knows ids and not flights; ranking turns the picks
// it reads into a Ranking (FromReply, FromAnswer).
//
// It knows nothing of MCP or of HTTP: the tools package decides which rungs
// a request may use and asks the models; this package only ranks.
package ranking

import (
	"github.com/flightserver/flightserver/flights"
)

// Tier is one way of ranking. The tiers form a ladder: the tools package tries
// them in order and records an Attempt for each.
type Tier string

// Tiers known to the server.
const (
	// ClientSampling asks the client's LLM to rank, through MCP sampling.
	ClientSampling Tier = "client_sampling"
	// ServerLLMTier asks the server's own LLM (any OpenAI-compatible
	// endpoint the operator configured) with the same prompt and the same
	// answer checks as client sampling. The operator pays for it and the
	// endpoint sees the candidates, so it comes after the client's own LLM.
	ServerLLMTier Tier = "server_llm"
	// Deterministic scores price, stops and duration: always available.
	Deterministic Tier = "deterministic"
	// Candidates does not rank: it hands the host's model the top options
	// to choose from with the user.
	Candidates Tier = "candidates"
)

// Pick is a chosen option and a one-line reason for people.
type Pick struct {
	Option
	Reason string
}

// Ranking is the outcome of ranking one trip's candidates.
type Ranking struct {
	// Method is the tier that produced Picks.
	Method Tier
	// Model is the model that ranked, as reported by the client or
	// endpoint; empty for deterministic tiers.
	Model string
	// Ranked is false when Picks are candidates in a neutral order for the
	// host's model to choose from, not a recommendation.
	Ranked bool
	Picks  []Pick
	// Considered is how many flights passed the trip's filters.
	Considered int
}

// Filter keeps the flights the trip admits (flights.Trip.Admits: stops,
// departure and arrival windows, price per passenger, airlines). Filters run
// before any ranking, so no tier can pick a flight the traveller ruled out.
func Filter(trip flights.Trip, fs []flights.Flight) []flights.Flight {
	out := make([]flights.Flight, 0, len(fs))
	for _, f := range fs {
		if trip.Admits(f) {
			out = append(out, f)
		}
	}
	return out
}
