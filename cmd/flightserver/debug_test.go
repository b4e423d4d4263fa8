package main

import (
	"bytes"
	"io"
	"math"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/flightserver/flightserver/internal/serverbin"
)

// --debug-addr serves the Go profiles an operator needs to see where a
// running server spends its time and memory, and none of the pprof pages
// that publish the command line (which may hold --auth-token).
func TestDebugProfiles(t *testing.T) {
	const token = "debug-test-token-0123456789abcdef"
	debug := serverbin.FreeAddr(t)
	serverbin.StartHTTP(t, binary, nil, "--debug-addr", debug, "--auth-token", token)
	get := func(path string) (int, []byte) {
		t.Helper()
		resp, err := http.Get("http://" + debug + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	// The runtime samples allocations for the heap profile only when it is
	// served (main turns sampling off otherwise).
	var vars struct{ MemProfileRate int }
	debugVars(t, debug, "", &vars)
	if vars.MemProfileRate != runtime.MemProfileRate || vars.MemProfileRate == 0 {
		t.Errorf("memProfileRate %d with --debug-addr, want the runtime's default %d", vars.MemProfileRate, runtime.MemProfileRate)
	}
	for _, name := range []string{"heap", "allocs", "goroutine", "threadcreate"} {
		// A profile is gzipped protobuf: what go tool pprof reads.
		if code, b := get("/debug/pprof/" + name); code != 200 || !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
			t.Errorf("/debug/pprof/%s: %d, %d bytes, want a gzipped profile", name, code, len(b))
		}
	}
	if code, b := get("/debug/pprof/profile?seconds=1"); code != 200 || !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		t.Errorf("CPU profile: %d, %d bytes", code, len(b))
	}
	for _, path := range []string{"/debug/pprof/", "/debug/pprof/cmdline", "/debug/pprof/symbol"} {
		code, b := get(path)
		if code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, code)
		}
		if bytes.Contains(b, []byte(token)) {
			t.Errorf("%s shows the auth token", path)
		}
	}
}

// Start-up runs without garbage collection (main); once the server serves,
// its first cycle runs at twice the GOGC the environment set (or the
// default), so that the start-up's garbage does not start one beside the
// first answer, and once that cycle has ended collection is back at that
// GOGC, or with GOGC unset, at the GOGC that leaves the heap gcHeadroom to
// grow (gcpace): the server's live heap is a few megabytes, so that is
// above 100, and the goal within a sixteenth over the headroom. A server
// that left it off, or doubled, or ignored a GOGC that was set, would hold
// more than it says.
func TestGarbageCollectionResumesAfterStart(t *testing.T) {
	for _, tc := range []struct {
		env         string
		first, want int64 // want 0: the headroom's
	}{
		{"GOGC unset", 200, 0},
		{"GOGC=50", 100, 50},
		{"GOGC=off", -1, -1},
		// Twice it does not fit the runtime's int32: the most that does.
		{"GOGC=2000000000", math.MaxInt32, 2000000000},
	} {
		t.Run(tc.env, func(t *testing.T) {
			debug := serverbin.FreeAddr(t)
			vars := []string{"GOGC="} // the default, whatever this process has
			if strings.HasPrefix(tc.env, "GOGC=") {
				vars = []string{tc.env}
			}
			serverbin.StartHTTP(t, binary, vars, "--debug-addr", debug)
			var v struct {
				GOGC, NumGC        int64
				HeapLive, HeapGoal uint64
			}
			debugVars(t, debug, "", &v)
			if v.NumGC == 0 && v.GOGC != tc.first {
				t.Errorf("GOGC %d once serving, before the first cycle: want %d", v.GOGC, tc.first)
			}
			// The first cycle's end is seen by a cleanup, on a goroutine of
			// its own: a moment after the cycle, not during it.
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				debugVars(t, debug, "?gc=1", &v)
				if tc.want != 0 && v.GOGC == tc.want ||
					tc.want == 0 && v.GOGC > 100 && v.HeapGoal >= v.HeapLive+gcHeadroom && v.HeapGoal <= v.HeapLive+gcHeadroom+gcHeadroom/16 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("GOGC %d after %d cycles (live heap %d, goal %d), want %d (0: the goal %d above the live heap)", v.GOGC, v.NumGC, v.HeapLive, v.HeapGoal, tc.want, gcHeadroom)
				}
			}
		})
	}
}

// The runtime's allocation sampling is asked off unless --debug-addr
// serves the heap profile, and asked once; main does what it is asked
// (runtime.MemProfileRate = 0), which tests, sharing one process, do not.
func TestAllocationSamplingOnlyWithTheHeapProfile(t *testing.T) {
	prev := profileMemory
	t.Cleanup(func() { profileMemory = prev })
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"--version"}, false},
		{[]string{"--version", "--debug-addr", "127.0.0.1:0"}, true},
	} {
		var asked []bool
		profileMemory = func(on bool) { asked = append(asked, on) }
		if err := run(t.Context(), tc.args, func(string) string { return "" }, strings.NewReader(""), io.Discard, io.Discard); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if len(asked) != 1 || asked[0] != tc.want {
			t.Errorf("%v: allocation sampling asked %v, want once, %v", tc.args, asked, tc.want)
		}
	}
}
