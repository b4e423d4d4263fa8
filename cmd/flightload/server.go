package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/flightserver/flightserver/internal/serverproc"
)

const (
	stopWait = 10 * time.Second // how long it may take to exit on SIGTERM before it is killed
	logTail  = 50               // stderr lines kept to show when it dies
)

// managedServer is a flightserver process flightload started.
type managedServer struct {
	proc     *serverproc.Process
	url      string // the MCP endpoint
	debugURL string // its /debug/vars

	stopping chan struct{} // closed when flightload asks it to stop
	stopNote string        // what happened at the stop, if anything unusual
	dead     bool          // it had exited by itself when stop was called
}

// startServer runs bin over HTTP (through serverproc, as the tests and the
// demo do) with its debug numbers on a free loopback port, and returns once
// it listens.
func startServer(ctx context.Context, bin string) (*managedServer, error) {
	// At --log-level warn (quiet under load) the server does not log where
	// it listens, so the ports are chosen here.
	ports, err := freePorts(2)
	if err != nil {
		return nil, fmt.Errorf("pick free ports: %w", err)
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("state key: %w", err)
	}
	debugAddr := net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[1]))
	s := &managedServer{stopping: make(chan struct{}), debugURL: "http://" + debugAddr + "/debug/vars"}
	s.proc, err = serverproc.Start(ctx, serverproc.Options{
		Bin:  bin,
		Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[0])),
		Args: []string{"--load-test-tools", "--rate-limit", "0", "--max-inflight", "0", "--debug-addr", debugAddr, "--log-level", "warn"},
		Env:  []string{"FLIGHTSERVER_STATE_KEY=" + hex.EncodeToString(key)},
		Keep: logTail,
	})
	if err != nil {
		return nil, err
	}
	s.url = s.proc.URL + "/mcp"
	return s, nil
}

func (s *managedServer) pid() int { return s.proc.Cmd.Process.Pid }

// exitErr is how the process ended; meaningful once it has.
func (s *managedServer) exitErr() error { return s.proc.ExitErr() }

// died reports whether the process exited without being asked to.
func (s *managedServer) died() bool {
	if s.dead {
		return true
	}
	select {
	case <-s.stopping:
		return false
	default:
	}
	select {
	case <-s.proc.Exited():
		return true
	default:
		return false
	}
}

// stop sends SIGTERM and waits for the process, killing it after stopWait.
// It notes a slow or unclean exit in stopNote.
func (s *managedServer) stop() {
	select {
	case <-s.stopping:
		return
	default:
	}
	select {
	case <-s.proc.Exited():
		s.dead = true
		close(s.stopping)
		return
	default:
	}
	close(s.stopping)
	switch err := s.proc.Stop(stopWait); {
	case errors.Is(err, serverproc.ErrKilled):
		s.stopNote = fmt.Sprintf("the server had not exited %v after SIGTERM and was killed", stopWait)
	case err != nil:
		s.stopNote = fmt.Sprintf("after SIGTERM the server exited with %v", err)
	}
}

// freePorts returns n distinct free loopback ports. They are held open
// together so that they differ, then released for the server to take.
func freePorts(n int) ([]int, error) {
	var (
		ports []int
		lns   []net.Listener
	)
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// memSample is one reading of the server's memory and goroutines. Fields
// whose source was unavailable are zero, with HasHeap or HasRSS false, and
// the probe says why in its notes.
type memSample struct {
	Goroutines  int64  `json:"goroutines"`
	HeapAlloc   uint64 `json:"heapAllocBytes"`
	HeapInuse   uint64 `json:"heapInuseBytes"`
	HeapObjects uint64 `json:"heapObjects"`
	Sys         uint64 `json:"sysBytes"`
	NumGC       uint64 `json:"numGC"`
	RSS         uint64 `json:"rssBytes"`
	PeakRSS     uint64 `json:"peakRSSBytes"` // VmHWM: the process lifetime's peak so far
	HasHeap     bool   `json:"hasHeap"`      // the heap numbers and goroutines were read
	HasRSS      bool   `json:"hasRSS"`       // RSS and peak RSS were read
}

// probe reads a server's numbers from its /debug/vars and, for a process
// flightload started, from /proc/<pid>/status.
type probe struct {
	debugURL string // empty: no heap or goroutines
	pid      int    // 0: no RSS
	client   *http.Client

	mu    sync.Mutex
	notes []string // why a number is missing, each once
}

func newProbe(debugURL string, pid int) *probe {
	return &probe{debugURL: debugURL, pid: pid, client: &http.Client{Timeout: 5 * time.Second}}
}

func (p *probe) note(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, n := range p.notes {
		if n == msg {
			return
		}
	}
	p.notes = append(p.notes, msg)
}

func (p *probe) allNotes() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.notes...)
}

// sample reads what it can now; nil if nothing could be read.
func (p *probe) sample(ctx context.Context) *memSample {
	var (
		m  memSample
		ok bool
	)
	if p.debugURL != "" {
		if err := p.readDebugVars(ctx, &m); err != nil {
			p.note(fmt.Sprintf("heap and goroutines unavailable: %v", err))
		} else {
			ok = true
		}
	}
	if p.pid != 0 {
		if err := readProcStatus(p.pid, &m); err != nil {
			p.note(fmt.Sprintf("RSS unavailable (reported as 0): %v", err))
		} else {
			ok = true
		}
	}
	if !ok {
		return nil
	}
	return &m
}

func (p *probe) readDebugVars(ctx context.Context, m *memSample) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.debugURL, nil)
	if err != nil {
		return fmt.Errorf("GET %s: %w", p.debugURL, err)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %w", p.debugURL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", p.debugURL, resp.Status)
	}
	var v struct {
		Goroutines  *int64 `json:"goroutines"`
		HeapAlloc   uint64 `json:"heapAlloc"`
		HeapInuse   uint64 `json:"heapInuse"`
		HeapObjects uint64 `json:"heapObjects"`
		Sys         uint64 `json:"sys"`
		NumGC       uint64 `json:"numGC"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		return fmt.Errorf("GET %s: decode: %w", p.debugURL, err)
	}
	if v.Goroutines == nil {
		return fmt.Errorf("GET %s: no goroutines in the answer", p.debugURL)
	}
	m.Goroutines, m.HeapAlloc, m.HeapInuse, m.HeapObjects, m.Sys, m.NumGC = *v.Goroutines, v.HeapAlloc, v.HeapInuse, v.HeapObjects, v.Sys, v.NumGC
	m.HasHeap = true
	return nil
}

// readProcStatus reads VmRSS and VmHWM (Linux only).
func readProcStatus(pid int, m *memSample) error {
	path := fmt.Sprintf("/proc/%d/status", pid)
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var rss, hwm uint64
	var haveRSS, haveHWM bool
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if !ok || (name != "VmRSS" && name != "VmHWM") {
			continue
		}
		fields := strings.Fields(value) // "12345 kB"
		if len(fields) != 2 || fields[1] != "kB" {
			return fmt.Errorf("%s: unexpected %s line %q", path, name, sc.Text())
		}
		kb, err := strconv.ParseUint(fields[0], 10, 64)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", path, name, err)
		}
		if name == "VmRSS" {
			rss, haveRSS = kb*1024, true
		} else {
			hwm, haveHWM = kb*1024, true
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if !haveRSS || !haveHWM {
		return errors.New(path + ": no VmRSS or VmHWM line")
	}
	m.RSS, m.PeakRSS, m.HasRSS = rss, hwm, true
	return nil
}
