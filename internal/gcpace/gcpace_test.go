package gcpace

import (
	"math"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		name                    string
		percent                 int
		headroom, live, scanned uint64
		want                    int
	}{
		{"nothing scanned yet", 100, 8 * mib, 0, 0, 100},
		{"no headroom asked", 100, 0, 2 * mib, 5 * mib / 2, 100},
		{"a small heap gets the headroom", 100, 8 * mib, 3 * mib, 4 * mib, 200},
		{"rounded up, never short", 100, 8 * mib, 3 * mib, 3 * mib, 267},
		// 640 would put the goal at the minimum heap, 4 MiB × 6.4.
		{"a tiny heap: the minimum heap is what reaches it", 100, 8 * mib, 1 * mib, 5 * mib / 4, 225},
		{"the percent's own room is enough", 100, 8 * mib, 8 * mib, 8 * mib, 100},
		{"a large heap keeps the percent", 100, 8 * mib, 500 * mib, 501 * mib, 100},
		{"a low percent on a large heap stays low", 50, 8 * mib, 64 * mib, 64 * mib, 50},
		{"a low percent on a small heap gets the headroom", 50, 8 * mib, 4 * mib, 4 * mib, 200},
		{"at most what the runtime holds", 100, math.MaxUint64 / 400, 0, 1, math.MaxInt32},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Percent(tc.percent, tc.headroom, tc.live, tc.scanned); got != tc.want {
				t.Errorf("Percent(%d, %d, %d, %d) = %d, want %d", tc.percent, tc.headroom, tc.live, tc.scanned, got, tc.want)
			}
		})
	}
}

// Resume changes the whole process's collector, and its pacer watches for
// good, so each case runs in a process of its own: this test binary again,
// told by GCPACE_CASE which case it is.
func TestResume(t *testing.T) {
	if c := os.Getenv("GCPACE_CASE"); c != "" {
		resumeCase(t, c)
		return
	}
	for _, c := range []string{"headroom", "no headroom", "off"} {
		t.Run(c, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run", "^TestResume$", "-test.v")
			cmd.Env = append(os.Environ(), "GCPACE_CASE="+c, "GOGC=100")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			t.Logf("%s", out)
		})
	}
}

func resumeCase(t *testing.T, c string) {
	const headroom = 64 << 20 // far above what this test keeps live
	debug.SetGCPercent(-1)    // as start-up runs
	var percent int
	switch c {
	case "headroom":
		Resume(100, headroom)
	case "no headroom":
		Resume(100, 0)
	case "off":
		Resume(-1, headroom)
	}
	if got := read("/gc/gogc:percent"); c != "off" && got != 200 {
		t.Fatalf("GOGC %d before the first cycle has ended: want twice 100", got)
	}
	// Keep something live, so that the live heap is not near nothing.
	keep := make([][]byte, 0, 64)
	for range 64 {
		keep = append(keep, make([]byte, 16<<10))
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		runtime.GC()
		// The cycle's end is seen by a cleanup, on a goroutine of its own:
		// a moment after the cycle.
		time.Sleep(10 * time.Millisecond)
		gogc, live, goal := read("/gc/gogc:percent"), read("/gc/heap/live:bytes"), read("/gc/heap/goal:bytes")
		var ok bool
		switch c {
		case "headroom":
			percent = int(gogc)
			// The goal is the headroom above the live heap: not short of
			// it, and not far past it either (GOGC is a percent of the
			// stacks and globals as well as of the heap, and scales the
			// minimum heap).
			ok = percent > 100 && goal >= live+headroom && goal <= live+headroom+headroom/16
		case "no headroom":
			ok = gogc == 100
		case "off":
			ok = int64(gogc) == -1 // off
		}
		if ok {
			t.Logf("GOGC %d, live %d, goal %d", int64(gogc), live, goal)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("case %s: GOGC %d, live heap %d, goal %d after 5 s of cycles", c, int64(gogc), live, goal)
		}
	}
	runtime.KeepAlive(keep)
	if c == "headroom" {
		// The pacer keeps watching: with the live heap grown past what the
		// headroom needs, GOGC comes back down to the percent.
		big := make([][]byte, 0, 1024)
		for range 1024 {
			big = append(big, make([]byte, 128<<10)) // 128 MiB live
		}
		for deadline := time.Now().Add(5 * time.Second); read("/gc/gogc:percent") != 100; time.Sleep(10 * time.Millisecond) {
			runtime.GC()
			if time.Now().After(deadline) {
				t.Fatalf("GOGC %d with 128 MiB live, was %d: want back at 100", read("/gc/gogc:percent"), percent)
			}
		}
		runtime.KeepAlive(big)
	}
}

func read(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
