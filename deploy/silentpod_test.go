//go:build linux

package deploy

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"testing"
	"time"
)

// silentPod is an address on port that takes no connection: a listener
// with a backlog of 0, filled, so that the kernel drops every further SYN,
// as the address of a pod that has just gone drops them (no refusal, only
// silence until the connect times out).
func silentPod(t *testing.T, ip netip.Addr, port int) {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Port: port, Addr: ip.As4()}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		t.Fatal(err)
	}
	addr := netip.AddrPortFrom(ip, uint16(port)).String()
	for range 10 {
		c, err := net.DialTimeout("tcp", addr, 300*time.Millisecond)
		if err != nil {
			return // full: this connect was not taken
		}
		t.Cleanup(func() { c.Close() })
	}
	t.Fatalf("%s took 10 connections with a backlog of 0: it cannot stand for a silent pod here", addr)
}

// mutePod is an address on port that takes every connection and reads
// what comes, and never answers: a pod stuck on a call.
func mutePod(t *testing.T, ip netip.Addr, port int) {
	t.Helper()
	ln, err := net.Listen("tcp", netip.AddrPortFrom(ip, uint16(port)).String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(io.Discard, c) }()
			t.Cleanup(func() { c.Close() })
		}
	}()
}

// A pod that takes no connection, or takes the request and never answers,
// gets the router's own JSON-RPC answer, as a refused or unresolvable one
// does, not nginx's HTML page: a session whose pod is silent is gone (404,
// initialize again), a request for any pod that finds none is told to try
// again (502), and a request that was taken and not answered says so
// (504), since the call may still be running.
func TestRouterAnswersForASilentPod(t *testing.T) {
	dns := startDNS(t)
	silent, mute := netip.MustParseAddr("127.0.0.30"), netip.MustParseAddr("127.0.0.31")
	port := freePort(t, []netip.Addr{silent, mute})
	silentPod(t, silent, port)
	mutePod(t, mute, port)
	dns.set("flightserver-7."+podDomain, silent)
	dns.set("flightserver-8."+podDomain, mute)
	// Two addresses, the silent one first: nginx moves on from it to the
	// mute one, and its variables list both attempts.
	dns.set("flightserver-9."+podDomain, silent, mute)
	dns.set(serviceName, silent)
	url := startRouter(t, dns.addr, port,
		rewrite{"proxy_connect_timeout 5s;", "proxy_connect_timeout 1s;", 1},
		rewrite{"proxy_read_timeout 120s;", "proxy_read_timeout 2s;", 1})
	hex := strings.Repeat("0123456789abcdef", 2)
	tests := []struct {
		name    string
		session string
		status  int
		code    int
		says    string
	}{
		{"a session's pod takes no connection", "fs-flightserver-7-" + hex, 404, -32001, "flightserver-7, which issued it, is gone"},
		{"a session's pod takes the request and never answers", "fs-flightserver-8-" + hex, 504, -32603, "took the request but did not answer within 120 s"},
		{"no session, and the Service's pod takes no connection", "", 502, -32603, "no flightserver replica is reachable"},
		{"a session's name has two addresses: the first takes no connection, the second the request and never answers", "fs-flightserver-9-" + hex, 504, -32603, "took the request but did not answer within 120 s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, url+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tt.session != "" {
				req.Header.Set("MCP-Protocol-Version", "2025-11-25")
				req.Header.Set("Mcp-Session-Id", tt.session)
			}
			client := &http.Client{Timeout: 20 * time.Second}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			var answer struct {
				JSONRPC string `json:"jsonrpc"`
				Error   struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(body, &answer); err != nil || answer.JSONRPC != "2.0" {
				t.Fatalf("%d %s: not a JSON-RPC answer (%v)", resp.StatusCode, body, err)
			}
			if resp.StatusCode != tt.status || answer.Error.Code != tt.code || !strings.Contains(answer.Error.Message, tt.says) {
				t.Errorf("answered %d, code %d, %q; want %d, code %d, saying %q", resp.StatusCode, answer.Error.Code, answer.Error.Message, tt.status, tt.code, tt.says)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
		})
	}
}
