package main

import (
	"fmt"
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
	heap0, rss0 := memory(b, debug, proc.Cmd.Process.Pid)
	b.ResetTimer()
	for range b.N {
		session()
	}
	b.StopTimer()
	heap1, rss1 := memory(b, debug, proc.Cmd.Process.Pid)
	b.ReportMetric(float64(heap1-heap0)/float64(b.N), "heap-B/session")
	b.ReportMetric(float64(rss1-rss0)/float64(b.N), "rss-B/session")
}

// memory is the server's live heap (after a GC) and its resident set.
func memory(b *testing.B, debugAddr string, pid int) (heap, rss int64) {
	b.Helper()
	var v struct{ HeapAlloc int64 }
	debugVars(b, debugAddr, "?gc=1", &v)
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for line := range strings.SplitSeq(string(status), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			rss = kb * 1024
		}
	}
	return v.HeapAlloc, rss
}
