package httpguard

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/rs/zerolog"
	"golang.org/x/time/rate"
)

// bearer is the token of an Authorization: Bearer header; the scheme's
// name is case-insensitive (RFC 9110 section 11.1), so "bearer" counts.
func bearer(header string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(token), true
}

// RequireToken lets a request through only with Authorization: Bearer
// <token>. The comparison is of SHA-256 digests in constant time, so
// neither the token's length nor how much of a guess was right leaks
// through timing. A refusal says how to authenticate, as RFC 6750 asks,
// and never echoes what was sent.
func RequireToken(token string, log zerolog.Logger, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := bearer(r.Header.Get("Authorization"))
		sum := sha256.Sum256([]byte(got))
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
		// Before the body is read: an unauthenticated client gets nothing
		// of the server's time, not even the wait for its body.
		writeError(w, r, refusedAuth, message)
	})
}

// maxClients bounds how many clients' rate limiters are remembered: the
// least recently seen are forgotten (and start again with a full burst),
// so a flood of addresses cannot grow memory.
const maxClients = 10_000

// Clients says who a request is from, for the limits that apply per
// client (--rate-limit, --max-sessions-per-client,
// --max-inflight-per-client), and whether those limits apply to it. Give
// every layer the same Clients: there is one idea of who a client is.
//
// A client is an address, on both eras and every method: the connection's,
// or behind a trusted proxy the one the proxy reports (--client-ip-header;
// the shipped router sets X-Real-IP to the address the ingress appended to
// X-Forwarded-For, deploy/README.md). An IPv6 address counts as its /64,
// the smallest block a provider gives one subscriber, so that a client
// cannot become 2^64 clients by changing the address's last half. Not a
// client: the bearer token (one shared --auth-token authenticates every
// client alike, and tells none apart), nor a 2025-11-25 session (a client
// may start many; each session has bounds of its own: one GET stream, and
// a few questions waiting for the client at once, fallback/ask.go). On stdio
// there is one client, the process at the other end of the pipe, and only
// the per-session bounds apply.
type Clients struct {
	// IPHeader is the header a trusted proxy reports the client's address
	// in (--client-ip-header); "": the connection's address.
	IPHeader string
	// LimitLoopback applies the per-client limits to clients on this
	// machine too (--limit-loopback).
	LimitLoopback bool
}

// addr is the client's address (an IPv6 one as its /64): the
// connection's, or, behind a trusted proxy, the last address in
// --client-ip-header, over all its lines (the one the proxy itself
// appended, as a value of its own or as a line of its own; earlier ones
// came from the client and prove nothing).
func (c Clients) addr(r *http.Request) string {
	if c.IPHeader != "" {
		if lines := r.Header.Values(c.IPHeader); len(lines) > 0 {
			last := lines[len(lines)-1]
			if ip := strings.TrimSpace(last[strings.LastIndexByte(last, ',')+1:]); ip != "" && len(ip) <= 64 {
				return clientKey(ip)
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return clientKey(r.RemoteAddr)
	}
	return clientKey(host)
}

// clientKey is the address a per-client limit counts by: an IPv4 address
// (an IPv4-mapped IPv6 one too) as it is, an IPv6 address beyond loopback
// as its /64, anything that is not an address as given.
func clientKey(s string) string {
	ip, err := netip.ParseAddr(s)
	if err != nil {
		return s
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is6() && !ip.IsLoopback() {
		if p, err := ip.Prefix(64); err == nil {
			return p.String()
		}
	}
	return ip.String()
}

// client is the client r is from, and whether the per-client limits apply
// to it: addr and limited, except that a loopback connection that neither
// --limit-loopback nor --client-ip-header can make limited is told apart
// without formatting its address (every request asks).
func (c Clients) client(r *http.Request) (key string, limited bool) {
	if !c.LimitLoopback && c.IPHeader == "" {
		if ap, err := netip.ParseAddrPort(r.RemoteAddr); err == nil && ap.Addr().Unmap().IsLoopback() {
			return "", false
		}
	}
	key = c.addr(r)
	return key, c.limited(key)
}

// limited reports whether the per-client limits apply to a client at addr.
// A client on this machine is exempt unless --limit-loopback says
// otherwise: it is the developer, a test suite, the MCP Inspector or a
// local host, and sends a burst of quick requests as a matter of course;
// anyone who can run code there can do worse than flood a port. A public
// listener is still protected, because a client beyond loopback (or,
// behind a proxy, whose --client-ip-header address is beyond loopback)
// is limited. Behind a proxy on the same machine without
// --client-ip-header every client looks like the proxy, so none would be
// limited: set the header.
func (c Clients) limited(addr string) bool {
	if c.LimitLoopback {
		return true
	}
	ip := net.ParseIP(addr)
	return ip == nil || !ip.IsLoopback()
}

// RateLimiter gives every client address its own token bucket
// (golang.org/x/time/rate): --rate-limit requests a second, --rate-burst at
// once. Over the limit, 429 with Retry-After in whole seconds.
type RateLimiter struct {
	limit   rate.Limit
	burst   int
	who     Clients
	buckets *lru.Cache[string, *rate.Limiter]
}

// NewRateLimiter allows each client perSecond requests a second, burst at
// once.
func NewRateLimiter(perSecond float64, burst int, who Clients) (*RateLimiter, error) {
	buckets, err := lru.New[string, *rate.Limiter](maxClients)
	if err != nil {
		return nil, fmt.Errorf("rate limiter cache: %w", err)
	}
	return &RateLimiter{limit: rate.Limit(perSecond), burst: burst, who: who, buckets: buckets}, nil
}

// Wrap refuses a limited client's request over its rate with 429, logging
// the refusal to log, and passes the rest to next.
func (l *RateLimiter) Wrap(log zerolog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, limited := l.who.client(r)
		if !limited {
			next.ServeHTTP(w, r)
			return
		}
		lim, ok := l.buckets.Get(key)
		if !ok {
			lim = rate.NewLimiter(l.limit, l.burst)
			l.buckets.Add(key, lim)
		}
		res := lim.Reserve()
		if delay := res.Delay(); delay > 0 {
			res.Cancel() // refused: the request uses no token
			retry := max(1, int(math.Ceil(delay.Seconds())))
			log.Warn().Str("client", truncate(key, 64)).Int("retryAfter", retry).Msg("rate limited")
			w.Header().Set("Retry-After", strconv.Itoa(retry))
			writeError(w, r, refusedRate, fmt.Sprintf("too many requests from %s: at most %g a second (--rate-limit); slow down and retry in %d s", truncate(key, 64), float64(l.limit), retry))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Inflight counts the JSON-RPC requests being served, for two reasons: to
// serve at most max at once (--max-inflight; 0: no limit) and answer the
// rest 503 with Retry-After, so a burst queues in clients instead of in
// this process's memory; and to drain on shutdown, refusing new requests
// while those in flight finish. Only requests count: a client's answer to
// the server's own question (a JSON-RPC response) and notifications
// complete work rather than start it, and refusing them could stall the
// very call holding a slot, or the one a shutdown waits for. GET (the
// long-lived legacy stream) and DELETE do not count either.
//
// The slots are shared fairly: a client (see Clients) beyond loopback may
// hold at most perClient of them (--max-inflight-per-client), and its next
// request gets 429, so one client cannot take every slot and leave the
// others 503. A legacy call waiting for the client's own answer (a form,
// a sampling request) holds its slot in that client's share until the
// answer comes or the question times out: a client that never answers
// uses up its own share, nobody else's, and fallback/ask.go bounds how many
// questions one session may have waiting at once.
type Inflight struct {
	max, perClient int
	who            Clients

	mu       sync.Mutex
	n        int
	clients  map[string]int // requests in flight per limited client
	isDrain  bool           // /readyz says 503
	stopping bool           // new requests are refused
	idle     chan struct{}  // closed when stopping and n is 0
}

// NewInflight serves at most max requests at once (--max-inflight; 0: no
// limit) and at most perClient of them for one limited client
// (--max-inflight-per-client; 0: no limit).
func NewInflight(max, perClient int, who Clients) *Inflight {
	return &Inflight{max: max, perClient: perClient, who: who,
		clients: map[string]int{}, idle: make(chan struct{})}
}

// Drain makes Draining true (/readyz answers 503); requests are still
// served.
func (f *Inflight) Drain() {
	f.mu.Lock()
	f.isDrain = true
	f.mu.Unlock()
}

// Draining reports whether Drain or Stop has been called.
func (f *Inflight) Draining() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.isDrain
}

// Count is the number of requests in flight.
func (f *Inflight) Count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

// Stop refuses new requests and waits until those in flight have finished
// or ctx ends, and returns how many are left.
func (f *Inflight) Stop(ctx context.Context) int {
	f.mu.Lock()
	f.isDrain = true
	if !f.stopping {
		f.stopping = true
		if f.n == 0 {
			close(f.idle)
		}
	}
	f.mu.Unlock()
	select {
	case <-f.idle:
	case <-ctx.Done():
	}
	return f.Count()
}

// Wrap counts the requests next serves, and refuses those beyond the
// bounds (429 or 503, with Retry-After), or all once Stop is called.
func (f *Inflight) Wrap(log zerolog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		starts := r.Method == http.MethodPost && messageOf(r).request
		if !starts && r.Method != http.MethodGet {
			next.ServeHTTP(w, r)
			return
		}
		client := ""
		if starts && f.perClient > 0 {
			if key, limited := f.who.client(r); limited {
				client = key
			}
		}
		f.mu.Lock()
		switch {
		case f.stopping:
			f.mu.Unlock()
			// A new GET stream would hold the shutdown open too.
			w.Header().Set("Retry-After", "1")
			w.Header().Set("Connection", "close")
			writeError(w, r, refusedDraining, "this server is shutting down: retry, and another replica (or this one, restarted) will answer")
			return
		case !starts:
			f.mu.Unlock()
			next.ServeHTTP(w, r)
			return
		case client != "" && f.clients[client] >= f.perClient:
			f.mu.Unlock()
			log.Warn().Str("client", truncate(client, 64)).Int("maxInflightPerClient", f.perClient).Msg("refused a request: the client's share of the slots is in flight")
			w.Header().Set("Retry-After", "1")
			writeError(w, r, refusedClientInflight, fmt.Sprintf(
				"%s already has %d requests in flight, its share of this server (--max-inflight-per-client): wait for their answers and retry "+
					"(a call waiting for your own answer to a form or a sampling request counts until you answer it)", truncate(client, 64), f.perClient))
			return
		case f.max > 0 && f.n >= f.max:
			f.mu.Unlock()
			log.Warn().Int("maxInflight", f.max).Msg("refused a request: too many in flight")
			w.Header().Set("Retry-After", "1")
			writeError(w, r, refusedInflight, fmt.Sprintf("the server is at its limit of %d requests in flight (--max-inflight); retry in a second", f.max))
			return
		}
		f.n++
		if client != "" {
			f.clients[client]++
		}
		f.mu.Unlock()
		defer func() {
			f.mu.Lock()
			if client != "" {
				if f.clients[client]--; f.clients[client] <= 0 {
					delete(f.clients, client)
				}
			}
			if f.n--; f.n == 0 && f.stopping {
				close(f.idle)
			}
			f.mu.Unlock()
		}()
		next.ServeHTTP(w, r)
	})
}

// ServedBy names the replica in every response, so an operator (and the
// load-balancer test) can see which one answered.
func ServedBy(name string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Served-By", name)
		next.ServeHTTP(w, r)
	})
}
