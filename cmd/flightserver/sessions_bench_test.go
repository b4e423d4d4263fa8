package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/flightserver/flightserver/internal/serverbin"
)

// BenchmarkIdleSessionMemory is what one idle 2025-11-25 session costs the
// real server: b.N clients initialize (and send notifications/initialized,
// as a host does) and then say nothing; the live heap (after a GC) and
// the process's RSS are read before and after, and the difference is
// reported per session. This is the figure behind --max-sessions'
// default: 10,000 sessions cost about that many times heap-B/session.
func BenchmarkIdleSessionMemory(b *testing.B) {
	debug := serverbin.FreeAddr(b)
	addr, proc, _ := serverbin.StartHTTP(b, binary, nil, "--debug-addr", debug, "--rate-limit", "0",
		"--max-sessions", "0", "--max-sessions-per-client", "0")
	url := "http://" + addr + "/mcp"
	hc := &http.Client{}
	post := func(body string, headers map[string]string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		resp, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = resp.Body.Read(make([]byte, 4096))
		resp.Body.Close()
		return resp
	}
	session := func() {
		resp := post(initialize, nil)
		id := resp.Header.Get("Mcp-Session-Id")
		if resp.StatusCode != 200 || id == "" {
			b.Fatalf("initialize: %d", resp.StatusCode)
		}
		post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, map[string]string{"Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-11-25"})
	}
	session() // what the first session starts once (the idle sweeper) is not per session
	before := memory(b, debug, proc.Cmd.Process.Pid)
	b.ResetTimer()
	for range b.N {
		session()
	}
	b.StopTimer()
	memory(b, debug, proc.Cmd.Process.Pid).reportSince(b, before, "session")
}

// BenchmarkGETStreamMemory is what one open 2025-11-25 GET stream costs the
// real server beyond its session's own memory: b.N sessions are started,
// the heap, RSS and goroutines read, then each session opens its stream
// (on a connection of its own, as a host's stream holds one) and they are
// read again. This is the figure behind --max-streams' default.
func BenchmarkGETStreamMemory(b *testing.B) {
	debug := serverbin.FreeAddr(b)
	addr, proc, _ := serverbin.StartHTTP(b, binary, nil, "--debug-addr", debug, "--rate-limit", "0",
		"--max-sessions", "0", "--max-sessions-per-client", "0", "--max-streams", "0")
	url := "http://" + addr + "/mcp"
	ids := make([]string, b.N)
	for i := range ids {
		resp, err := http.Post(url, "application/json", strings.NewReader(initialize))
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		ids[i] = resp.Header.Get("Mcp-Session-Id")
	}
	before := memory(b, debug, proc.Cmd.Process.Pid)
	var bodies []io.Closer
	b.ResetTimer()
	for _, id := range ids {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", id)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		resp, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("stream: %v %v", err, resp)
		}
		bodies = append(bodies, resp.Body)
	}
	b.StopTimer()
	memory(b, debug, proc.Cmd.Process.Pid).reportSince(b, before, "stream")
	for _, c := range bodies {
		c.Close()
	}
}

// BenchmarkWaitingCallMemory is what one legacy call waiting for its
// client's answer costs while it waits (the case --max-inflight and
// --max-inflight-per-client bound): b.N sessions that declare elicitation
// each call findBestFlight with only an origin, and hold the call open
// once the form has arrived, never answering; the heap, RSS and goroutines
// are read before and after, beyond what the sessions cost.
func BenchmarkWaitingCallMemory(b *testing.B) {
	debug := serverbin.FreeAddr(b)
	addr, proc, _ := serverbin.StartHTTP(b, binary, nil, "--debug-addr", debug, "--rate-limit", "0", "--max-inflight", "0",
		"--max-sessions", "0", "--elicitation-timeout", "5m", "--call-budget", "10m")
	url := "http://" + addr + "/mcp"
	post := func(body string, headers map[string]string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		resp, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
		if err != nil {
			b.Fatal(err)
		}
		return resp
	}
	headers := make([]map[string]string, b.N)
	for i := range headers {
		resp := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}}`, nil)
		resp.Body.Close()
		headers[i] = map[string]string{"Mcp-Session-Id": resp.Header.Get("Mcp-Session-Id"), "MCP-Protocol-Version": "2025-11-25"}
		post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, headers[i]).Body.Close()
	}
	before := memory(b, debug, proc.Cmd.Process.Pid)
	var held []io.Closer
	b.ResetTimer()
	for _, h := range headers {
		resp := post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"findBestFlight","arguments":{"origin":"JFK"}}}`, h)
		buf := make([]byte, 64<<10)
		for n := 0; !strings.Contains(string(buf[:n]), "elicitation/create"); {
			k, err := resp.Body.Read(buf[n:])
			if err != nil {
				b.Fatalf("the form did not arrive: %v %s", err, buf[:n])
			}
			n += k
		}
		held = append(held, resp.Body)
	}
	b.StopTimer()
	memory(b, debug, proc.Cmd.Process.Pid).reportSince(b, before, "call")
	for _, c := range held {
		c.Close()
	}
}

// footprint is what the server holds: its live heap (after a GC), its
// resident set and its goroutines.
type footprint struct {
	heap, rss  int64
	goroutines int
}

// memory is the server's footprint now.
func memory(b *testing.B, debugAddr string, pid int) footprint {
	b.Helper()
	var v struct {
		HeapAlloc  int64
		Goroutines int
	}
	debugVars(b, debugAddr, "?gc=1", &v)
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	f := footprint{heap: v.HeapAlloc, goroutines: v.Goroutines}
	for line := range strings.SplitSeq(string(status), "\n") {
		if fs := strings.Fields(line); len(fs) == 3 && fs[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(fs[1], 10, 64)
			f.rss = kb * 1024
		}
	}
	return f
}

// reportSince reports what f holds beyond before, per one of b.N units.
func (f footprint) reportSince(b *testing.B, before footprint, unit string) {
	n := float64(b.N)
	b.ReportMetric(float64(f.heap-before.heap)/n, "heap-B/"+unit)
	b.ReportMetric(float64(f.rss-before.rss)/n, "rss-B/"+unit)
	b.ReportMetric(float64(f.goroutines-before.goroutines)/n, "goroutines/"+unit)
}
