// Package logsink batches a server's log lines into few writes: under load
// a write system call a line (and, on a pipe, a wake-up of whoever reads
// it) costs more than building the line. It is the writer between zerolog
// and stderr.
package logsink

import (
	"io"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// Sink holds log lines for at most its interval, or until it holds
// maxBuffered bytes, and then writes them to its writer in one call, in
// the order they came. A line at warn or above is written at once, with
// everything before it: what an operator must see is never held back, and
// neither is anything logged before a crash at that level. What the sink
// holds is lost if the process dies without Close (a SIGKILL, a fatal
// runtime error, a second interrupt): at most one interval of lines below
// warn.
//
// Write and WriteLevel keep each line whole and may be called from many
// goroutines. A write to the writer happens with the sink locked, so a
// writer that blocks (a full pipe nobody reads) blocks the loggers as it
// would without the sink. The writer's errors are dropped: a log that
// cannot be written has nowhere to say so.
type Sink struct {
	w        io.Writer
	interval time.Duration

	mu     sync.Mutex
	buf    []byte
	timer  *time.Timer
	armed  bool
	closed bool
}

// maxBuffered is how much the sink holds before it writes: the lines of a
// few milliseconds of a loaded server, in one write of a pipe's size.
const maxBuffered = 32 << 10

// New returns a sink writing to w at most interval after a line arrives.
func New(w io.Writer, interval time.Duration) *Sink {
	s := &Sink{w: w, interval: interval, buf: make([]byte, 0, maxBuffered)}
	s.timer = time.AfterFunc(time.Hour, s.tick)
	s.timer.Stop()
	return s
}

// Write holds p, a whole line, for the next write.
func (s *Sink) Write(p []byte) (int, error) {
	return s.WriteLevel(zerolog.NoLevel, p)
}

// WriteLevel is Write for zerolog.LevelWriter: a line at warn or above is
// written at once, after the lines held before it.
func (s *Sink) WriteLevel(level zerolog.Level, p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		_, _ = s.w.Write(p)
		return len(p), nil
	}
	s.buf = append(s.buf, p...)
	switch {
	case level >= zerolog.WarnLevel && level < zerolog.NoLevel, len(s.buf) >= maxBuffered:
		s.flushLocked()
	case !s.armed:
		s.armed = true
		s.timer.Reset(s.interval)
	}
	return len(p), nil
}

// Flush writes what the sink holds now.
func (s *Sink) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked()
}

// Close writes what the sink holds; lines after it are written at once.
func (s *Sink) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked()
	s.timer.Stop()
	s.closed = true
	return nil
}

func (s *Sink) tick() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.armed = false
	s.flushLocked()
}

func (s *Sink) flushLocked() {
	if len(s.buf) == 0 {
		return
	}
	_, _ = s.w.Write(s.buf)
	s.buf = s.buf[:0]
	if cap(s.buf) > 2*maxBuffered {
		// One huge line made it grow: do not hold its size for good.
		s.buf = make([]byte, 0, maxBuffered)
	}
}
