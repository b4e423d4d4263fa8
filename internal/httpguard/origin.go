package httpguard

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"

	"github.com/rs/zerolog"
)

// Allowed is what CheckHostOrigin lets through beyond the server's own
// names and origin.
type Allowed struct {
	// Origins are browser origins (scheme://host[:port]) allowed besides
	// the server's own (--allowed-origins).
	Origins []string
	// Hosts are names, lower case and without a port, that requests may
	// call the server by besides loopback names and IP addresses
	// (--allowed-hosts).
	Hosts []string
	// Unauthenticated says that nothing checks who a request is from (no
	// --auth-token): the Host rule then holds on every listener, not only
	// on loopback. A page cannot present a token it does not know, so with
	// one a rebound page gets no further than 401.
	Unauthenticated bool
}

// CheckHostOrigin refuses what a browser page on another site could send
// (DNS rebinding, a hostile page posting to a local server), as the MCP
// transport spec requires, on every method, the GET stream included
// (net/http's CrossOriginProtection checks only unsafe methods):
//
//   - Host: a page whose own name was rebound to the server's address
//     sends its own name, so a request must call the server by a loopback
//     name (localhost, 127.0.0.1, [::1]) when it reached a loopback
//     address, and, on any other address when the server is
//     Unauthenticated, by an IP address or a loopback name; a name in
//     Hosts passes everywhere. (mcp-go checks loopback the same way, with
//     a plain-text 403; this answers first, in JSON-RPC.) A container's
//     published port is the case beyond loopback: the connection arrives
//     on the container's own address, whatever the host machine listens on.
//   - Origin: a request without one is not from a browser page and passes;
//     one whose Origin is the server's own host, or listed in Origins,
//     passes; any other gets 403.
func CheckHostOrigin(allowed Allowed, log zerolog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		if onLoopback := local != nil && loopbackAddr(local); !allowed.host(r.Host, onLoopback) {
			log.Warn().Str("host", truncate(r.Host, 100)).Str("remote", r.RemoteAddr).Bool("loopback", onLoopback).Msg("refused a request for a foreign Host")
			if onLoopback {
				writeError(w, r, refusedHost, "forbidden Host: on loopback this server answers only requests for localhost, 127.0.0.1, [::1] or a name in --allowed-hosts (DNS rebinding protection)")
			} else {
				writeError(w, r, refusedHost, "forbidden Host: without --auth-token this server answers only requests that call it by an IP address, localhost or a name in --allowed-hosts (DNS rebinding protection)")
			}
			return
		}
		origin := r.Header.Get("Origin")
		if origin == "" || slices.Contains(allowed.Origins, strings.TrimSuffix(origin, "/")) {
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

// host reports whether a request may name host (a Host header) on a
// loopback listener or another one.
func (a Allowed) host(host string, onLoopback bool) bool {
	if LoopbackHost(host) {
		return true
	}
	name := hostName(host)
	switch {
	case slices.Contains(a.Hosts, name):
		return true
	case onLoopback:
		return false
	case !a.Unauthenticated:
		return true // the token decides
	}
	_, err := netip.ParseAddr(name)
	return err == nil
}

// hostName is a Host header's name or address: lower case, without its
// port, brackets or a final dot.
func hostName(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return strings.ToLower(strings.TrimSuffix(host, "."))
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
