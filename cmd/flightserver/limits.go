package main

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/rs/zerolog"
	"golang.org/x/time/rate"
)

// requireToken lets a request through only with Authorization: Bearer
// <token>. The comparison is of SHA-256 digests in constant time, so
// neither the token's length nor how much of a guess was right leaks
// through timing. A refusal says how to authenticate, as RFC 6750 asks,
// and never echoes what was sent.
func requireToken(token string, log zerolog.Logger, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		sum := sha256.Sum256([]byte(strings.TrimSpace(got)))
		if ok && subtle.ConstantTimeCompare(sum[:], want[:]) == 1 {
			next.ServeHTTP(w, r)
			return
		}
		challenge := `Bearer realm="flightserver"`
		message := "this server needs a bearer token: send Authorization: Bearer <token> (the server's --auth-token)"
		if ok {
			challenge += `, error="invalid_token"`
			message = "the bearer token is not this server's --auth-token"
		}
		log.Warn().Str("remote", r.RemoteAddr).Bool("tokenSent", ok).Msg("refused unauthenticated request")
		w.Header().Set("WWW-Authenticate", challenge)
		writeError(w, http.StatusUnauthorized, message)
	})
}

// maxClients bounds how many clients' rate limiters are remembered: the
// least recently seen are forgotten (and start again with a full burst),
// so a flood of addresses cannot grow memory.
const maxClients = 10_000

// rateLimiter gives every client address its own token bucket
// (golang.org/x/time/rate): --rate-limit requests a second, --rate-burst at
// once. Over the limit, 429 with Retry-After in whole seconds.
type rateLimiter struct {
	limit    rate.Limit
	burst    int
	ipHeader string
	clients  *lru.Cache[string, *rate.Limiter]
}

func newRateLimiter(perSecond float64, burst int, ipHeader string) (*rateLimiter, error) {
	clients, err := lru.New[string, *rate.Limiter](maxClients)
	if err != nil {
		return nil, fmt.Errorf("rate limiter cache: %w", err)
	}
	return &rateLimiter{limit: rate.Limit(perSecond), burst: burst, ipHeader: ipHeader, clients: clients}, nil
}

// clientKey is the client's address: the connection's, or, behind a
// trusted proxy, the last address in --client-ip-header (the one the
// proxy itself appended; earlier ones came from the client and prove
// nothing).
func (l *rateLimiter) clientKey(r *http.Request) string {
	if l.ipHeader != "" {
		if v := r.Header.Get(l.ipHeader); v != "" {
			parts := strings.Split(v, ",")
			if ip := strings.TrimSpace(parts[len(parts)-1]); ip != "" && len(ip) <= 64 {
				return ip
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func (l *rateLimiter) wrap(log zerolog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := l.clientKey(r)
		lim, ok := l.clients.Get(key)
		if !ok {
			lim = rate.NewLimiter(l.limit, l.burst)
			l.clients.Add(key, lim)
		}
		res := lim.Reserve()
		if delay := res.Delay(); delay > 0 {
			res.Cancel() // refused: the request uses no token
			retry := max(1, int(math.Ceil(delay.Seconds())))
			log.Warn().Str("client", truncate(key, 64)).Int("retryAfter", retry).Msg("rate limited")
			w.Header().Set("Retry-After", strconv.Itoa(retry))
			writeError(w, http.StatusTooManyRequests, fmt.Sprintf("too many requests from %s: at most %g a second (--rate-limit); retry in %d s", truncate(key, 64), float64(l.limit), retry))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// limitInflight serves at most n JSON-RPC requests at once and answers the
// rest 503 with Retry-After, so a burst queues in clients instead of in
// this process's memory. Only requests count: a client's answer to the
// server's own question (a JSON-RPC response) and notifications complete
// work rather than start it, and refusing them could stall the very call
// holding a slot. GET (the long-lived legacy stream) and DELETE do not
// count either. The body is already bounded by limitBody.
func limitInflight(n int, log zerolog.Logger, next http.Handler) http.Handler {
	slots := make(chan struct{}, n)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			writeError(w, http.StatusRequestEntityTooLarge, "request body could not be read: "+truncate(err.Error(), 120))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if !isRequest(body) {
			next.ServeHTTP(w, r)
			return
		}
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
			next.ServeHTTP(w, r)
		default:
			log.Warn().Int("maxInflight", n).Msg("refused a request: too many in flight")
			w.Header().Set("Retry-After", "1")
			writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("the server is at its limit of %d requests in flight (--max-inflight); retry in a second", n))
		}
	})
}

// isRequest reports whether a JSON-RPC body holds a request (a method and
// an id) rather than only responses or notifications. A body that is not
// JSON counts as a request: the server will refuse it, and that is work.
func isRequest(body []byte) bool {
	type message struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	var one message
	if err := json.Unmarshal(body, &one); err == nil {
		return one.Method != "" && len(one.ID) > 0 && string(one.ID) != "null"
	}
	var batch []message
	if err := json.Unmarshal(body, &batch); err != nil {
		return true
	}
	for _, m := range batch {
		if m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" {
			return true
		}
	}
	return false
}

// servedBy names the replica in every response, so an operator (and the
// load-balancer test) can see which one answered.
func servedBy(name string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Served-By", name)
		next.ServeHTTP(w, r)
	})
}
