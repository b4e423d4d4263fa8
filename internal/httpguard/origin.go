package httpguard

import (
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/rs/zerolog"
)

// CheckHostOrigin refuses what a browser page on another site could send
// (DNS rebinding, a hostile page posting to a local server), as the MCP
// transport spec requires, on every method, the GET stream included
// (net/http's CrossOriginProtection checks only unsafe methods):
//
//   - Host: a request that reached a loopback address must name a loopback
//     host (localhost, 127.0.0.1, [::1]); a page whose own name was rebound
//     to 127.0.0.1 sends its own name. (mcp-go checks the same, with a
//     plain-text 403; this answers first, in JSON-RPC.)
//   - Origin: a request without one is not from a browser page and passes;
//     one whose Origin is the server's own host, or listed in allowed
//     (--allowed-origins), passes; any other gets 403.
func CheckHostOrigin(allowed []string, log zerolog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && loopbackAddr(local) && !LoopbackHost(r.Host) {
			log.Warn().Str("host", truncate(r.Host, 100)).Str("remote", r.RemoteAddr).Msg("refused a request for a foreign Host on loopback")
			writeError(w, r, refusedHost, "forbidden Host: on loopback this server answers only requests for localhost, 127.0.0.1 or [::1] (DNS rebinding protection)")
			return
		}
		origin := r.Header.Get("Origin")
		if origin == "" || slices.Contains(allowed, strings.TrimSuffix(origin, "/")) {
			next.ServeHTTP(w, r)
			return
		}
		if u, err := url.Parse(origin); err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, r.Host) {
			next.ServeHTTP(w, r)
			return
		}
		log.Warn().Str("origin", truncate(origin, 100)).Str("remote", r.RemoteAddr).Msg("refused cross-origin request")
		writeError(w, r, refusedOrigin, "forbidden origin: this server accepts browser requests only from its own origin or from --allowed-origins")
	})
}

// Loopback reports whether addr (host:port) listens on the loopback
// interface only. A wildcard or an empty host listens everywhere; a name
// other than localhost could resolve anywhere, so it counts as reachable.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	return err == nil && LoopbackHost(host)
}

// loopbackAddr is Loopback for the address a connection was accepted on;
// a TCP one is read as it is, without formatting and parsing it again on
// every request.
func loopbackAddr(a net.Addr) bool {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.IP.IsLoopback()
	}
	return Loopback(a.String())
}

// LoopbackHost reports whether host (a Host header: a name or an address,
// with or without a port and brackets) names the loopback interface.
func LoopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// truncate is s cut to n bytes (and an ellipsis), still valid UTF-8: what
// a log line or a refusal quotes of what a client sent.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
