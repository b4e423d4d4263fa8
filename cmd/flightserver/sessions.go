package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"
)

// A 2025-11-25 session lives in the process that initialized it: its
// capabilities, its GET stream, the server's questions in flight. mcp-go's
// default session ids are not checked at all, so a request that a load
// balancer sends to another replica is served with silently empty
// capabilities. sessions knows which ids this process issued, and a request
// carrying any other id is refused with a message that says why and what
// to do (sticky sessions, or the stateless 2026-07-28 era).

// maxSessions bounds the ids remembered. mcp-go's idle sweeper
// (--session-idle-ttl) ends quiet sessions and tells us through Terminate;
// this cap only guards against a flood of initializes.
const maxSessions = 100_000

// sessionPrefix marks ids this server issues.
const sessionPrefix = "fs-"

type sessions struct {
	live       *lru.Cache[string, struct{}]
	terminated *lru.Cache[string, struct{}]
}

func newSessions() (*sessions, error) {
	live, err := lru.New[string, struct{}](maxSessions)
	if err != nil {
		return nil, err
	}
	terminated, err := lru.New[string, struct{}](maxSessions / 10)
	if err != nil {
		return nil, err
	}
	return &sessions{live: live, terminated: terminated}, nil
}

// Generate implements server.SessionIdManager: 128 random bits.
func (s *sessions) Generate() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand documents it)
	id := sessionPrefix + hex.EncodeToString(b)
	s.live.Add(id, struct{}{})
	return id
}

var errUnknownSession = errors.New("session not known to this server process")

// Validate implements server.SessionIdManager.
func (s *sessions) Validate(id string) (isTerminated bool, err error) {
	if s.live.Contains(id) {
		return false, nil
	}
	if s.terminated.Contains(id) {
		return true, nil
	}
	return false, errUnknownSession
}

// Terminate implements server.SessionIdManager (DELETE, and the sweeper).
func (s *sessions) Terminate(id string) (isNotAllowed bool, err error) {
	if s.live.Remove(id) {
		s.terminated.Add(id, struct{}{})
	}
	return false, nil
}

var _ server.SessionIdManager = (*sessions)(nil)

// requireKnownSession refuses a legacy request whose Mcp-Session-Id this
// process did not issue (or has ended) with 404, which tells a 2025-11-25
// client to initialize again, and a message for the person reading the
// client's log. 2026-07-28 requests carry no session and pass.
func (s *sessions) requireKnownSession(log zerolog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(server.HeaderKeySessionID)
		if id == "" || mcp.IsModernProtocol(r.Header.Get("MCP-Protocol-Version")) {
			next.ServeHTTP(w, r)
			return
		}
		switch terminated, err := s.Validate(id); {
		case err != nil:
			log.Warn().Str("session", truncate(id, 48)).Str("remote", r.RemoteAddr).Msg("refused a legacy request for a session this process never issued")
			writeError(w, http.StatusNotFound, "session "+truncate(strings.TrimSpace(id), 48)+" is not known to this server process. "+
				"A 2025-11-25 session lives in the one replica that initialized it: behind several replicas, route by the Mcp-Session-Id header "+
				"(sticky sessions), or use protocol 2026-07-28, which any replica can serve. Initialize again to start a new session.")
		case terminated:
			writeError(w, http.StatusNotFound, "session "+truncate(id, 48)+" has ended (deleted, or idle longer than --session-idle-ttl): initialize again")
		default:
			next.ServeHTTP(w, r)
		}
	})
}
