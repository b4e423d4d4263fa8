// Package serverproc starts the flightserver binary over HTTP as a real
// process and tells when it listens: the one way the tests, the demo
// (cmd/flightdemo) and the load driver (cmd/flightload) run it, so they all
// run the same thing the same way.
//
// By default the server listens on 127.0.0.1:0 (the kernel picks a free
// port, so runs in parallel never collide) and says where in its "listening"
// log line, which is how Start learns the address. A caller that runs the
// server at a log level without that line (--log-level warn, to keep a load
// run quiet) gives the address itself, and Start waits for /healthz.
package serverproc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"sync"
	"syscall"
	"time"
)

// Options say how to start the server.
type Options struct {
	// Bin is the flightserver binary.
	Bin string
	// Args come after --transport http --addr <Addr>.
	Args []string
	// Addr is where the server listens; "" means a port the kernel picks,
	// learnt from the server's "listening" log line (at info).
	Addr string
	// Env is added to this process's environment.
	Env []string
	// Log receives every line the server writes to stderr, as it writes it;
	// nil discards them (Start still keeps the last few for its errors).
	Log io.Writer
	// Wait bounds how long the server may take to listen; 0 means 15 s.
	Wait time.Duration
	// Keep is how many of the last stderr lines Tail keeps; 0 means 40.
	Keep int
}

// Process is a running server.
type Process struct {
	Cmd *exec.Cmd
	// Addr is where it listens (host:port); URL is http://Addr.
	Addr, URL string

	exited  chan struct{}
	exitErr error
	tail    *tail
	stopped sync.Once
}

// Start runs the server and returns once it logs that it listens, or an
// error that includes what it said before it failed.
func Start(ctx context.Context, o Options) (*Process, error) {
	listen := o.Addr
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	args := append([]string{"--transport", "http", "--addr", listen}, o.Args...)
	cmd := exec.Command(o.Bin, args...)
	cmd.Env = append(os.Environ(), o.Env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, fmt.Errorf("serverproc: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("serverproc: start %s: %w", o.Bin, err)
	}
	keep := o.Keep
	if keep <= 0 {
		keep = 40
	}
	p := &Process{Cmd: cmd, exited: make(chan struct{}), tail: &tail{max: keep}}
	addr := make(chan string, 1)
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Bytes()
			p.tail.add(string(line))
			if o.Log != nil {
				_, _ = o.Log.Write(append(line, '\n'))
			}
			var l struct{ Message, Addr string }
			if json.Unmarshal(line, &l) == nil && l.Message == "listening" && l.Addr != "" {
				select {
				case addr <- l.Addr:
				default:
				}
			}
		}
		// A line over the scanner's limit stops it: read on, or the
		// server blocks writing stderr and never exits.
		_, _ = io.Copy(io.Discard, stderr)
	}()
	go func() {
		<-read // Wait closes the pipe: read it all first
		p.exitErr = cmd.Wait()
		close(p.exited)
	}()
	wait := o.Wait
	if wait <= 0 {
		wait = 15 * time.Second
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	if o.Addr != "" {
		go pollHealth(ctx, o.Addr, addr, p.exited)
	}
	select {
	case a := <-addr:
		p.Addr, p.URL = a, "http://"+a
		return p, nil
	case <-p.exited:
		return nil, fmt.Errorf("serverproc: %s exited before listening (%v); it said:\n%s", o.Bin, p.exitErr, p.tail)
	case <-timer.C:
		p.Stop(time.Second)
		return nil, fmt.Errorf("serverproc: %s did not listen within %v; it said:\n%s", o.Bin, wait, p.tail)
	case <-ctx.Done():
		p.Stop(time.Second)
		return nil, fmt.Errorf("serverproc: waiting for %s to listen: %w", o.Bin, ctx.Err())
	}
}

// pollHealth sends addr on found once http://addr/healthz answers 200.
func pollHealth(ctx context.Context, addr string, found chan<- string, exited <-chan struct{}) {
	client := &http.Client{Timeout: time.Second}
	for {
		if resp, err := client.Get("http://" + addr + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				select {
				case found <- addr:
				default:
				}
				return
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-exited:
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Exited is closed when the process has exited.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// ExitErr is what the process's Wait returned; read it after Exited.
func (p *Process) ExitErr() error { return p.exitErr }

// Output is the last lines the server wrote to stderr.
func (p *Process) Output() string { return p.tail.String() }

// Tail is the last lines the server wrote to stderr (Options.Keep of them)
// and how many it wrote in all.
func (p *Process) Tail() ([]string, int) {
	p.tail.mu.Lock()
	defer p.tail.mu.Unlock()
	return slices.Clone(p.tail.lines), p.tail.total
}

// ErrKilled says the server did not exit within the grace Stop gave it.
var ErrKilled = errors.New("serverproc: the server did not exit in time and was killed")

// Stop asks the server to shut down (SIGTERM, as an orchestrator would),
// waits up to grace for it to exit, and kills it after that. It returns the
// process's exit error, or ErrKilled. Calling it again returns at once.
func (p *Process) Stop(grace time.Duration) error {
	var err error
	p.stopped.Do(func() {
		select {
		case <-p.exited:
			err = p.exitErr
			return
		default:
		}
		_ = p.Cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.exited:
			err = p.exitErr
		case <-time.After(grace):
			_ = p.Cmd.Process.Kill()
			<-p.exited
			err = ErrKilled
		}
	})
	return err
}

// tail keeps the last lines of a log.
type tail struct {
	mu    sync.Mutex
	max   int
	lines []string
	total int
}

func (t *tail) add(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total++
	t.lines = append(t.lines, line)
	if len(t.lines) > t.max {
		t.lines = t.lines[len(t.lines)-t.max:]
	}
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var s string
	for _, l := range t.lines {
		s += l + "\n"
	}
	return s
}
