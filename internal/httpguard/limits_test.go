package httpguard

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A client is an address; an IPv6 one counts as its /64, so that changing
// the address's last half does not make a new client. Loopback stays
// loopback, and so exempt unless --limit-loopback. Behind a proxy the
// client is the last address the proxy reported, over every line of its
// header.
func TestClientKey(t *testing.T) {
	for _, tc := range []struct {
		remote, header, want string
		limited              bool
	}{
		{"198.51.100.7:5000", "", "198.51.100.7", true},
		{"[2001:db8:1:2:aaaa:bbbb:cccc:dddd]:5000", "", "2001:db8:1:2::/64", true},
		{"[2001:db8:1:2::1]:5000", "", "2001:db8:1:2::/64", true},
		{"[2001:db8:1:3::1]:5000", "", "2001:db8:1:3::/64", true},
		{"[::ffff:198.51.100.7]:5000", "", "198.51.100.7", true},
		{"[fe80::1%eth0]:5000", "", "fe80::/64", true},
		{"127.0.0.1:5000", "", "127.0.0.1", false},
		{"[::1]:5000", "", "::1", false},
		{"[::ffff:127.0.0.1]:5000", "", "127.0.0.1", false},
		{"[::1%lo]:5000", "", "::1", false},
		{"127.9.9.9:5000", "", "127.9.9.9", false},
		{"not-an-address", "", "not-an-address", true},
		{"127.0.0.1:5000", "2001:db8::9", "2001:db8::/64", true},
		{"127.0.0.1:5000", "203.0.113.1, 2001:db8:5::9", "2001:db8:5::/64", true},
		{"127.0.0.1:5000", "not-an-address", "not-an-address", true},
		// The proxy's value is the last one, also when it appended a line
		// of its own after the client's: a loopback address the client
		// wrote first exempts nobody.
		{"127.0.0.1:5000", "127.0.0.1\n203.0.113.7", "203.0.113.7", true},
		{"127.0.0.1:5000", "10.0.0.1, 127.0.0.1\n2001:db8:5::9, 203.0.113.7", "203.0.113.7", true},
	} {
		r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		r.RemoteAddr = tc.remote
		if tc.header != "" {
			for _, line := range strings.Split(tc.header, "\n") {
				r.Header.Add("X-Real-IP", line)
			}
		}
		who := Clients{IPHeader: "X-Real-IP"}
		if got := who.addr(r); got != tc.want || who.limited(got) != tc.limited {
			t.Errorf("%s (X-Real-IP %q): client %q limited %v, want %q %v", tc.remote, tc.header, got, who.limited(got), tc.want, tc.limited)
		}
		// client, the one question the layers ask, answers as addr and
		// limited do, with and without the header and --limit-loopback.
		for _, who := range []Clients{{IPHeader: "X-Real-IP"}, {}, {LimitLoopback: true}} {
			key, limited := who.client(r)
			if want := who.limited(who.addr(r)); limited != want || (limited && key != who.addr(r)) {
				t.Errorf("%+v: client(%s, X-Real-IP %q) = %q, %v; want %q, %v", who, tc.remote, tc.header, key, limited, who.addr(r), want)
			}
		}
	}
}
