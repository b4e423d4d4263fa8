// Package httpguard holds the layers the streamable HTTP endpoint is served
// through, in front of mcp-go: each refuses what it guards against as
// cheaply as it can, before the next does more work, and every refusal
// answers the same way.
//
// The contract:
//
//   - A refusal is a JSON-RPC error body with one HTTP status and one code
//     per kind (the Code constants, in the range protocol 2026-07-28 leaves
//     to servers), a message that says what was wrong and what to do, and
//     Retry-After where waiting helps. It is counted in
//     flightserver_http_refusals_total when CountRefusals is the outermost
//     layer, and logged through a sampled logger (RefusalLog), so a client
//     sending bad requests cannot decide how much the server logs. A
//     refusal of a POST whose body was not read closes the connection.
//   - ReadBody reads a POST's body once, bounded in size and time; the
//     layers behind it (Inflight, Sessions, AcknowledgedFirst) read what it
//     found (is it a request, an initialize, a listen) rather than decoding
//     the body again. Behind no ReadBody, a body counts as a request.
//   - Clients is the one idea of who a client is (an address, an IPv6 one
//     as its /64; loopback exempt unless asked): give the same value to
//     every per-client limit (RateLimiter, Inflight, Sessions).
//   - Nothing here knows about flights or tools: what the engine needs from
//     the transport (the GET stream tracker, the listen acknowledgement
//     signal) is passed in, as Streams and AckContext.
//
// The server composes the layers in cmd/flightserver (newHandler), from the
// outside in: CountRefusals, CheckHostOrigin, RateLimiter, RequireToken,
// ReadBody, Inflight, Sessions, the GET stream tracker, AcknowledgedFirst,
// mcp-go.
package httpguard

import (
	"time"

	"github.com/rs/zerolog"
)

// RefusalLogBurst is how many refusal lines a second reach the log.
const RefusalLogBurst = 20

// RefusalLog is log sampled for the layers' refusals: at most
// RefusalLogBurst lines a second.
func RefusalLog(log zerolog.Logger) zerolog.Logger {
	return log.Sample(&zerolog.BurstSampler{Burst: RefusalLogBurst, Period: time.Second})
}
