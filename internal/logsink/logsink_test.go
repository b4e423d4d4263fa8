package logsink

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// recorder keeps each write it gets, as one string.
type recorder struct {
	mu     sync.Mutex
	writes []string
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.writes = append(r.writes, string(p))
	return len(p), nil
}

func (r *recorder) got() (string, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.writes, ""), len(r.writes)
}

func TestSinkHoldsLinesBelowWarnAndWritesTheRestAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		log    func(zerolog.Logger)
		writes int    // writes before any flush
		want   string // their messages, in order
	}{
		{"debug and info are held", func(l zerolog.Logger) { l.Debug().Msg("a"); l.Info().Msg("b") }, 0, ""},
		{"a line without a level is held", func(l zerolog.Logger) { l.Log().Msg("a") }, 0, ""},
		{"warn comes out at once, after what was held", func(l zerolog.Logger) { l.Info().Msg("a"); l.Warn().Msg("b") }, 1, "a b"},
		{"error too", func(l zerolog.Logger) { l.Error().Msg("a") }, 1, "a"},
		{"what follows a warning is held again", func(l zerolog.Logger) { l.Warn().Msg("a"); l.Info().Msg("b") }, 1, "a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r recorder
			s := New(&r, time.Hour)
			tc.log(zerolog.New(s).Level(zerolog.DebugLevel))
			out, n := r.got()
			if n != tc.writes || messages(t, out) != tc.want {
				t.Errorf("%d writes of %q, want %d of %q", n, messages(t, out), tc.writes, tc.want)
			}
		})
	}
}

func TestSinkWritesWithinItsInterval(t *testing.T) {
	var r recorder
	s := New(&r, 10*time.Millisecond)
	defer s.Close()
	log := zerolog.New(s)
	for i := range 100 {
		log.Info().Int("i", i).Msg("call")
	}
	deadline := time.Now().Add(10 * time.Second) // a bound on a slow machine, not a measurement
	for {
		out, n := r.got()
		if strings.Count(out, "\n") == 100 {
			if n > 10 {
				t.Errorf("100 lines took %d writes", n)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s only %d of 100 lines were written", strings.Count(out, "\n"))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestSinkWritesWhenFullAndOnClose(t *testing.T) {
	var r recorder
	s := New(&r, time.Hour)
	line := strings.Repeat("x", 1023) + "\n"
	for range maxBuffered / len(line) {
		_, _ = s.Write([]byte(line))
	}
	if _, n := r.got(); n != 1 {
		t.Fatalf("%d writes once the sink held %d bytes, want 1", n, maxBuffered)
	}
	_, _ = s.Write([]byte("last\n"))
	if _, n := r.got(); n != 1 {
		t.Fatalf("a line after the write was not held")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	out, n := r.got()
	if n != 2 || !strings.HasSuffix(out, "last\n") || len(out) != maxBuffered+len("last\n") {
		t.Fatalf("Close: %d writes, %d bytes", n, len(out))
	}
	// After Close nothing is held: a line logged during exit still comes out.
	_, _ = s.Write([]byte("after\n"))
	if out, n := r.got(); n != 3 || !strings.HasSuffix(out, "after\n") {
		t.Errorf("after Close: %d writes, ends %q", n, out[len(out)-10:])
	}
}

// Lines from many goroutines come out whole, every one of them, and a
// goroutine's own lines in its order.
func TestSinkKeepsConcurrentLinesWhole(t *testing.T) {
	var r recorder
	s := New(&r, time.Millisecond)
	log := zerolog.New(s)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				log.Info().Int("g", g).Int("i", i).Str("pad", strings.Repeat("p", i%200)).Msg("call")
			}
		})
	}
	wg.Wait()
	s.Close()
	out, _ := r.got()
	next := map[int]int{}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var g, i int
		if _, err := fmt.Sscanf(l, `{"level":"info","g":%d,"i":%d,`, &g, &i); err != nil || !strings.HasSuffix(l, `"message":"call"}`) {
			t.Fatalf("a broken line: %q (%v)", l, err)
		}
		if i != next[g] {
			t.Fatalf("goroutine %d: line %d after %d", g, i, next[g]-1)
		}
		next[g]++
	}
	for g := range 8 {
		if next[g] != 500 {
			t.Errorf("goroutine %d: %d of 500 lines", g, next[g])
		}
	}
}

// messages is the "message" of each JSON line in out, joined by spaces.
func messages(t *testing.T, out string) string {
	t.Helper()
	var ms []string
	for _, l := range bytes.Split(bytes.TrimSpace([]byte(out)), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		_, m, ok := strings.Cut(string(l), `"message":"`)
		if !ok {
			t.Fatalf("no message in %q", l)
		}
		ms = append(ms, strings.TrimSuffix(m, `"}`))
	}
	return strings.Join(ms, " ")
}
