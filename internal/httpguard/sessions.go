package httpguard

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/telemetry"
)

// A 2025-11-25 session lives in the process that initialized it: its
// capabilities, its GET stream, the server's questions in flight. mcp-go's
// default session ids are not checked at all, so a request that a load
// balancer sends to another replica is served with silently empty
// capabilities. Sessions knows which ids this process issued, and a request
// carrying any other id is refused with a message that says why and what
// to do (sticky sessions, or the stateless 2026-07-28 era).
//
// A session also costs memory until it is deleted or idles out
// (--session-idle-ttl; docs/BENCHMARKS.md measures how much), so a client
// that initializes in a loop could hold gigabytes. Sessions bounds how many
// are live at once, in all (--max-sessions) and per client address
// (--max-sessions-per-client). mcp-go's SessionIdManager.Generate cannot
// refuse, so the bound is enforced here, at the HTTP layer, on the
// initialize request, and each issued id (the Mcp-Session-Id response
// header) is attributed to its client until Terminate (DELETE, or mcp-go's
// idle sweeper) releases it.
//
// A session's GET stream is its own, too: at most one (a reconnect
// replaces it), at most --max-streams in all, and closed when the session
// ends (the tracker NewSessions is given, fallback.GETStreams in the server).
// mcp-go leaves it open after DELETE and after the sweep, still sending
// heartbeats for a session nobody can use. So a client's streams are
// bounded by its sessions. (A session whose stream is open is in use:
// mcp-go counts each heartbeat as activity, so it does not idle out until
// the stream closes; the bounds above cap how many.)

// endedSessions bounds how many ended ids are remembered, to tell "ended"
// from "never issued here".
const endedSessions = 10_000

// SessionLimits bound the 2025-11-25 sessions a Sessions table admits.
type SessionLimits struct {
	// Max is the most sessions live at once (--max-sessions; 0: no limit).
	Max int
	// MaxPerClient is the most one limited client may hold
	// (--max-sessions-per-client; 0: no limit).
	MaxPerClient int
	// MaxStreams is the GET stream tracker's limit (--max-streams), named
	// in the refusal of a stream beyond it.
	MaxStreams int
	// ServedBy is the replica's name (--served-by): when it is a DNS
	// label, every id issued carries it, so that a router can send each
	// session's requests to the pod that holds it (deploy/README.md).
	ServedBy string
	// Who says which client a request is from.
	Who Clients
}

// Streams is the tracker of the sessions' GET streams (fallback.GETStreams in
// the server): a session's stream is closed when the session ends.
type Streams interface {
	CloseSession(id string)
}

// StreamBounds is what the GET stream tracker needs of the session table.
type StreamBounds struct {
	// Live reports whether a session is live: a stream that opens while
	// its session ends must be closed at once.
	Live func(id string) bool
	// Full refuses a stream beyond SessionLimits.MaxStreams: 503 with
	// Retry-After and what to do instead.
	Full http.HandlerFunc
}

// Sessions is the table of the 2025-11-25 sessions this process issued:
// mcp-go's SessionIdManager, and (Handler) the layer that enforces it.
type Sessions struct {
	max, maxPerClient int // 0: no limit
	who               Clients
	// ids issues the ids, with the replica's name in them (see
	// SessionLimits.ServedBy).
	ids telemetry.SessionIDs

	// streams are the sessions' GET streams.
	streams Streams

	mu        sync.Mutex
	live      map[string]string // id -> the client it was issued to ("" until attributed)
	perClient map[string]int    // sessions live or being initialized, per limited client
	pending   int               // initializes admitted whose id is not yet attributed
	ended     *lru.Cache[string, struct{}]
}

// NewSessions is the session table for limits. newStreams builds the
// tracker of the sessions' GET streams from the table's bounds on them
// (in the server: fallback.NewGETStreams); log gets the refusals of streams,
// sampled as RefusalLog samples.
func NewSessions(limits SessionLimits, log zerolog.Logger, newStreams func(StreamBounds) Streams) (*Sessions, error) {
	ended, err := lru.New[string, struct{}](endedSessions)
	if err != nil {
		return nil, err
	}
	s := &Sessions{max: limits.Max, maxPerClient: limits.MaxPerClient, who: limits.Who, ids: telemetry.NewSessionIDs(limits.ServedBy),
		live: map[string]string{}, perClient: map[string]int{}, ended: ended}
	log = RefusalLog(log)
	s.streams = newStreams(StreamBounds{
		Live: s.isLive,
		Full: func(w http.ResponseWriter, r *http.Request) {
			log.Warn().Int("maxStreams", limits.MaxStreams).Msg("refused a GET stream: streams full")
			w.Header().Set("Retry-After", "60")
			writeError(w, r, refusedStreams, fmt.Sprintf(
				"the server holds its limit of %d GET streams (--max-streams): this session is served without one, so the server cannot ask "+
					"for sampling or roots over it; retry the stream in a minute, or use protocol 2026-07-28, which needs none", limits.MaxStreams))
		},
	})
	return s, nil
}

// isLive reports whether id is a live session.
func (s *Sessions) isLive(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.live[id]
	return ok
}

// Generate implements server.SessionIdManager: an id of the shape
// telemetry.SessionIDs describes, 128 random bits.
func (s *Sessions) Generate() string {
	id := s.ids.New()
	s.mu.Lock()
	s.live[id] = ""
	// The initialize that asked for it no longer waits: it is live now, and
	// counting it as pending too would refuse a place that is free.
	if s.pending > 0 {
		s.pending--
	}
	s.mu.Unlock()
	return id
}

var errUnknownSession = errors.New("session not known to this server process")

// Validate implements server.SessionIdManager.
func (s *Sessions) Validate(id string) (isTerminated bool, err error) {
	s.mu.Lock()
	_, ok := s.live[id]
	s.mu.Unlock()
	if ok {
		return false, nil
	}
	if s.ended.Contains(id) {
		return true, nil
	}
	return false, errUnknownSession
}

// Terminate implements server.SessionIdManager (DELETE, the sweeper and
// shutdown): the session's place is free again, and its GET stream, if it
// has one, is closed. (The stream is closed after the session leaves
// s.live, so that one opening meanwhile is closed by one or the other.)
func (s *Sessions) Terminate(id string) (isNotAllowed bool, err error) {
	s.mu.Lock()
	client, ok := s.live[id]
	if ok {
		delete(s.live, id)
		s.release(client)
	}
	s.mu.Unlock()
	if ok {
		s.ended.Add(id, struct{}{})
	}
	s.streams.CloseSession(id)
	return false, nil
}

// release gives back one of client's places; s.mu is held.
func (s *Sessions) release(client string) {
	if client == "" {
		return
	}
	if s.perClient[client]--; s.perClient[client] <= 0 {
		delete(s.perClient, client)
	}
}

// Live is the number of live sessions.
func (s *Sessions) Live() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.live)
}

var _ server.SessionIdManager = (*Sessions)(nil)

// Handler refuses what would start a session beyond the bounds, attributes
// each issued session to its client, and refuses a legacy request whose
// Mcp-Session-Id this process did not issue (or has ended) with 404, which
// tells a 2025-11-25 client to initialize again, and a message for the
// person reading the client's log. 2026-07-28 requests carry no session
// and pass.
func (s *Sessions) Handler(log zerolog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(server.HeaderKeySessionID)
		modern := mcp.IsModernProtocol(r.Header.Get("MCP-Protocol-Version"))
		switch {
		case modern:
			next.ServeHTTP(w, r)
		case r.Method == http.MethodPost && messageOf(r).initialize:
			// Every initialize starts a session, whatever Mcp-Session-Id it
			// carries (mcp-go mints a new one either way): each is counted.
			s.initialize(log, w, r, next)
		case id == "" && r.Method == http.MethodGet:
			// mcp-go would mint a session for a stream that names none: one
			// no initialize admitted, attributed to nobody, never swept.
			writeError(w, r, refusedNoSession, "open the GET stream with the Mcp-Session-Id header that initialize returned")
		case id == "" && r.Method == http.MethodPost:
			// mcp-go would answer 404 in plain text; the transport asks for
			// 400, and the client's developer for what to do.
			writeError(w, r, refusedNoSession, "a 2025-11-25 request other than initialize needs the Mcp-Session-Id header that initialize returned: "+
				"initialize first, or use protocol 2026-07-28, which needs no session")
		case id == "":
			next.ServeHTTP(w, r)
		default:
			s.requireKnown(log, id, w, r, next)
		}
	})
}

// initialize admits a legacy initialize if there is room, and attributes
// the session it starts to the client.
func (s *Sessions) initialize(log zerolog.Logger, w http.ResponseWriter, r *http.Request, next http.Handler) {
	client, limited := s.who.client(r)
	counted := s.maxPerClient > 0 && limited
	s.mu.Lock()
	switch {
	case s.max > 0 && len(s.live)+s.pending >= s.max:
		s.mu.Unlock()
		log.Warn().Int("maxSessions", s.max).Msg("refused an initialize: sessions full")
		w.Header().Set("Retry-After", "60")
		writeError(w, r, refusedSessions, fmt.Sprintf(
			"the server holds its limit of %d sessions (--max-sessions): retry in a minute, end sessions you no longer use with DELETE, "+
				"or use protocol 2026-07-28, which needs no session", s.max))
		return
	case counted && s.perClient[client] >= s.maxPerClient:
		s.mu.Unlock()
		log.Warn().Str("client", truncate(client, 64)).Int("maxSessionsPerClient", s.maxPerClient).Msg("refused an initialize: the client's sessions are full")
		w.Header().Set("Retry-After", "60")
		writeError(w, r, refusedClientSessions, fmt.Sprintf(
			"%s already holds %d sessions, the limit per client (--max-sessions-per-client): end the ones you no longer use with DELETE "+
				"(or they end after --session-idle-ttl of quiet), reuse one, or use protocol 2026-07-28, which needs no session", truncate(client, 64), s.maxPerClient))
		return
	}
	s.pending++
	if counted {
		s.perClient[client]++
	}
	s.mu.Unlock()

	next.ServeHTTP(w, r)

	issued := w.Header().Get(server.HeaderKeySessionID)
	s.mu.Lock()
	defer s.mu.Unlock()
	if issued == "" {
		s.pending-- // no session came of it (Generate gave back the place otherwise)
	}
	if owner, ok := s.live[issued]; ok && owner == "" && counted {
		s.live[issued] = client
		return
	}
	if counted {
		s.release(client) // no session came of it (or it has already ended)
	}
}

func (s *Sessions) requireKnown(log zerolog.Logger, id string, w http.ResponseWriter, r *http.Request, next http.Handler) {
	switch terminated, err := s.Validate(id); {
	case err != nil:
		// The id may be a live session of another replica (behind a
		// balancer that does not route by the header), and an id is its
		// session's handle: the line names it by its digest, as the spans
		// do, and by the replica that issued it, which is no secret.
		ev := log.Warn().Str("session", telemetry.SessionRef(id))
		if i := strings.LastIndexByte(id, '-'); i > 0 {
			ev = ev.Str("issuer", truncate(id[:i], 48))
		}
		ev.Str("remote", r.RemoteAddr).Msg("refused a legacy request for a session this process never issued")
		writeError(w, r, refusedUnknownSession, "session "+truncate(strings.TrimSpace(id), 48)+" is not known to this server process. "+
			"A 2025-11-25 session lives in the one replica that initialized it: behind several replicas, route by the Mcp-Session-Id header "+
			"(sticky sessions), or use protocol 2026-07-28, which any replica can serve. Initialize again to start a new session.")
	case terminated:
		writeError(w, r, refusedUnknownSession, "session "+truncate(id, 48)+" has ended (deleted, or idle longer than --session-idle-ttl): initialize again")
	default:
		next.ServeHTTP(w, r)
	}
}
