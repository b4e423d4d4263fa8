package httpguard

import (
	"net"
	"testing"
)

// The address a connection was accepted on is loopback exactly when
// Loopback says so of it written out, whichever way it is read.
func TestLoopbackAddr(t *testing.T) {
	for _, tc := range []struct {
		addr net.Addr
		want bool
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, true},
		{&net.TCPAddr{IP: net.IPv4(127, 1, 2, 3), Port: 8080}, true},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 8080}, true},
		{&net.TCPAddr{IP: net.ParseIP("::ffff:127.0.0.1"), Port: 8080}, true},
		{&net.TCPAddr{IP: net.IPv4(10, 0, 0, 7), Port: 8080}, false},
		{&net.TCPAddr{IP: net.ParseIP("fe80::1"), Port: 8080, Zone: "eth0"}, false},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 8080}, false},
		{&net.UnixAddr{Name: "/tmp/mcp.sock", Net: "unix"}, false},
		{&net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 53}, true},
	} {
		if got := loopbackAddr(tc.addr); got != tc.want || got != Loopback(tc.addr.String()) {
			t.Errorf("loopbackAddr(%s) = %v, want %v (Loopback of the string: %v)", tc.addr, got, tc.want, Loopback(tc.addr.String()))
		}
	}
}
