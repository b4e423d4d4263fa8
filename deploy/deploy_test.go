// Package deploy holds no code: its tests prove the deployment files work.
// kubernetes/nginx.conf itself runs, with real nginx, in front of three real
// replicas that it finds through DNS as it would in the cluster; the
// Prometheus rules and the Grafana dashboard are checked with promtool. The
// Kubernetes objects are checked in deploy/kubernetes, a module of its own,
// so that this module does not depend on k8s.io.
package deploy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/flightserver/flightserver/internal/serverbin"
	"github.com/flightserver/flightserver/internal/serverproc"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/internal/fakemodel"
)

var serverBin string

func TestMain(m *testing.M) { serverbin.Main(m, &serverBin) }

// The names nginx.conf resolves, as cluster DNS publishes them for the
// manifests in kubernetes/ (namespace flightserver).
const (
	serviceName = "flightserver.flightserver.svc.cluster.local" // any ready pod
	podDomain   = "flightserver-pods.flightserver.svc.cluster.local"
)

// sessionID is the form of session id the router can route: it names the
// replica that issued it.
var sessionID = regexp.MustCompile(`^fs-(flightserver-[0-9]+)-[0-9a-f]{32}$`)

// cluster is three replicas on their own loopback addresses (one port, as
// pods have), DNS that names them as the cluster would, and the router.
type cluster struct {
	dns      *clusterDNS
	url      string                         // the router
	replicas map[string]*serverproc.Process // by pod name
	addrs    map[string]netip.Addr          // by pod name
	port     int
}

// startCluster starts the replicas with args added to each one's flags.
func startCluster(t *testing.T, key string, args ...string) *cluster {
	t.Helper()
	c := &cluster{dns: startDNS(t), replicas: map[string]*serverproc.Process{}, addrs: map[string]netip.Addr{}}
	var ips []netip.Addr
	for i := range 3 {
		ips = append(ips, netip.AddrFrom4([4]byte{127, 0, 0, byte(10 + i)}))
	}
	c.port = freePort(t, ips)
	for i, ip := range ips {
		name := fmt.Sprintf("flightserver-%d", i)
		_, cmd, _ := serverbin.StartHTTP(t, serverBin, []string{"FLIGHTSERVER_STATE_KEY=" + key},
			append([]string{"--addr", netip.AddrPortFrom(ip, uint16(c.port)).String(), "--served-by", name, "--rate-limit", "0"}, args...)...)
		c.replicas[name], c.addrs[name] = cmd, ip
		c.dns.set(name+"."+podDomain, ip)
	}
	// The Service's name stands for its ClusterIP: nginx spreads requests
	// over the addresses it resolves to, as kube-proxy spreads connections.
	c.dns.set(serviceName, ips...)
	c.url = startRouter(t, c.dns.addr, c.port)
	return c
}

// freePort is a port free on every one of ips.
func freePort(t *testing.T, ips []netip.Addr) int {
	t.Helper()
	for range 50 {
		first, err := net.Listen("tcp", netip.AddrPortFrom(ips[0], 0).String())
		if err != nil {
			t.Fatal(err)
		}
		port := first.Addr().(*net.TCPAddr).Port
		lns := []net.Listener{first}
		ok := true
		for _, ip := range ips[1:] {
			ln, err := net.Listen("tcp", netip.AddrPortFrom(ip, uint16(port)).String())
			if err != nil {
				ok = false
				break
			}
			lns = append(lns, ln)
		}
		for _, ln := range lns {
			ln.Close()
		}
		if ok {
			return port
		}
	}
	t.Fatal("no port free on every replica address")
	return 0
}

// rewrite replaces old, found at least atLeast times in nginx.conf, by new.
type rewrite struct {
	old, new string
	atLeast  int
}

// startRouter runs kubernetes/nginx.conf itself, with only the resolver's
// address, the listen port, the pods' port and the /tmp paths rewritten
// (and what tune rewrites: a test's shorter timeouts), and returns the
// router's base URL.
func startRouter(t *testing.T, dnsAddr string, podPort int, tune ...rewrite) string {
	t.Helper()
	bin := installed(t, "nginx", "nginx-light")
	conf, err := os.ReadFile(filepath.Join("kubernetes", "nginx.conf"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	listen := serverbin.FreeAddr(t)
	text := string(conf)
	for _, r := range append([]rewrite{
		{"resolver kube-dns.kube-system.svc.cluster.local ", "resolver " + dnsAddr + " ", 1},
		{"listen 8080;", "listen " + listen + ";", 1},
		{".svc.cluster.local:8080", fmt.Sprintf(".svc.cluster.local:%d", podPort), 3},
		{"/tmp/", dir + "/", 6},
	}, tune...) {
		if n := strings.Count(text, r.old); n < r.atLeast {
			t.Fatalf("nginx.conf has %q %d times, want at least %d: the test's rewrite no longer fits the file", r.old, n, r.atLeast)
		}
		text = strings.ReplaceAll(text, r.old, r.new)
	}
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "-p", dir, "-c", path, "-g", "daemon off; user root;")
	// nginx's workers share its stderr: stop the master gracefully (it
	// stops them), and never wait on the pipe for long.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 5 * time.Second
	logs := &serverbin.Log{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("nginx.conf as run:\n%s\nnginx log:\n%s", text, logs.String())
		}
	})
	url := "http://" + listen
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(url + "/router/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return url
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("nginx did not come up:\n%s", logs.String())
		}
	}
}

// installed is the path of a program the test needs, which .ci/run
// installs from Debian's package pkg: in CI its absence fails the test,
// elsewhere it skips it.
func installed(t *testing.T, program, pkg string) string {
	t.Helper()
	bin, err := exec.LookPath(program)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed; .ci/run installs it from Debian's packages (apt-get install %s)", program, pkg)
		}
		t.Skipf("%s is not installed (apt-get install %s); CI runs this test", program, pkg)
	}
	return bin
}

// exchange is one HTTP request through the router and who answered it.
type exchange struct {
	method, mcpMethod, session, servedBy string
	issued                               string // the Mcp-Session-Id the answer carried
	status                               int
}

// recorder notes every exchange of one client.
type recorder struct {
	mu   sync.Mutex
	seen []exchange
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		r.mu.Lock()
		r.seen = append(r.seen, exchange{req.Method, req.Header.Get("Mcp-Method"), req.Header.Get("Mcp-Session-Id"),
			resp.Header.Get("X-Served-By"), resp.Header.Get("Mcp-Session-Id"), resp.StatusCode})
		r.mu.Unlock()
	}
	return resp, err
}

func (r *recorder) since(n int) []exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]exchange(nil), r.seen[n:]...)
}

func (r *recorder) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.seen)
}

// connect starts a client of the given protocol version that answers
// sampling requests, through the router at url, recording every exchange.
// A 2025-11-25 client also opens the GET stream, as those hosts do. The
// client is closed when the test ends.
func connect(t *testing.T, url, version string) (*client.Client, *recorder) {
	t.Helper()
	rec := &recorder{}
	opts := []transport.StreamableHTTPCOption{transport.WithHTTPBasicClient(&http.Client{Transport: rec})}
	if version == mcp.ProtocolVersion20251125 {
		opts = append(opts, transport.WithContinuousListening()) //lint:ignore SA1019 the legacy GET stream is what 2025-11-25 hosts open.
	}
	tr, err := transport.NewStreamableHTTP(url+"/mcp", opts...)
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(version), client.WithSamplingHandler(&fakeclient.Sampler{Behaviour: fakemodel.Answers}))
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, rec
}

func findBestFlight() mcp.CallToolRequest {
	return mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "findBestFlight",
		Arguments: map[string]any{"origin": "JFK", "destination": "LHR", "date": time.Now().AddDate(0, 1, 0).Format("2006-01-02")}}}
}

func method(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	var r struct{ Method string }
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("structuredContent %s: %v", b, err)
	}
	return r.Method
}

func TestRouterInFrontOfThreeReplicas(t *testing.T) {
	key := strings.Repeat("5a", 32)
	c := startCluster(t, key)

	t.Run("2026-07-28 rounds of one call may land on different replicas", func(t *testing.T) {
		mc, rec := connect(t, c.url, mcp.ProtocolVersion20260728)
		if _, err := mc.Initialize(context.Background(), mcp.InitializeRequest{}); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		split := false
		for i := 0; i < 30 && !split; i++ {
			before := rec.len()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			res, err := mc.CallTool(ctx, findBestFlight())
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			var rounds []string
			for _, e := range rec.since(before) {
				if e.method == http.MethodPost && e.mcpMethod == "tools/call" {
					rounds = append(rounds, e.servedBy)
					seen[e.servedBy] = true
				}
			}
			if res.IsError || method(t, res) != "client_sampling" || len(rounds) != 2 {
				t.Fatalf("call %d: method %q, rounds served by %v, isError %v", i, method(t, res), rounds, res.IsError)
			}
			split = rounds[0] != rounds[1] && rounds[0] != "" && rounds[1] != ""
		}
		if !split {
			t.Fatalf("no call had its rounds served by different replicas: %v", rec.since(0))
		}
		if len(seen) < 2 {
			t.Errorf("replicas seen: %v", seen)
		}
	})

	t.Run("2025-11-25 sessions stay on the replica that issued them", func(t *testing.T) {
		hosts := map[string]int{} // replica -> sessions it holds
		for i := range 6 {
			lc, rec := connect(t, c.url, mcp.ProtocolVersion20251125)
			_, initErr := lc.Initialize(context.Background(), mcp.InitializeRequest{})
			// The id first: without a replica's name in it, the
			// initialized notification that follows already goes astray.
			var id string
			for _, e := range rec.since(0) {
				if e.issued != "" {
					id = e.issued
					break
				}
			}
			m := sessionID.FindStringSubmatch(id)
			if id == "" {
				t.Fatalf("session %d: the initialize through the router issued no session id: %v\nexchanges: %+v", i, initErr, rec.since(0))
			}
			if m == nil {
				t.Fatalf("session id %q names no replica. The router finds a session's pod by the name in its id: "+
					"the server must issue fs-<its --served-by name>-<32 hex digits> (internal/httpguard/sessions.go; see deploy/README.md, "+
					"\"Routing 2025-11-25 sessions\"). Until it does, every request after initialize goes to any replica.", id)
			}
			if initErr != nil {
				t.Fatalf("session %d: initialize through the router: %v\nexchanges: %+v", i, initErr, rec.since(0))
			}
			home := m[1]
			hosts[home]++
			time.Sleep(300 * time.Millisecond) // the GET stream opens in the background
			for call := range 2 {
				res, err := lc.CallTool(context.Background(), findBestFlight())
				if err != nil || res.IsError {
					t.Fatalf("session %d call %d: %v %+v", i, call, err, res)
				}
				// Sampling reached the client through the session's GET
				// stream, and its answer came back: both on the home replica.
				if got := method(t, res); got != "client_sampling" {
					t.Errorf("session %d call %d ranked by %s, want client_sampling", i, call, got)
				}
			}
			for _, e := range rec.since(0) {
				if e.session == id && e.servedBy != home {
					t.Errorf("session %s: %s %s (%d) served by %q", id, e.method, e.mcpMethod, e.status, e.servedBy)
				}
			}
			if got := c.dns.queries(home + "." + podDomain); got == 0 {
				t.Errorf("the router never resolved %s.%s, yet its session was served: the route did not come from DNS", home, podDomain)
			}
		}
		// The initializes were spread: sessions live on several replicas,
		// and each found its own again.
		if len(hosts) < 2 {
			t.Errorf("sessions by replica %v: every initialize reached one replica", hosts)
		}
	})

	t.Run("a replica with another key refuses a round started elsewhere, clearly", func(t *testing.T) {
		stranger := "http://" + replica(t, "stranger", strings.Repeat("77", 32)) + "/mcp"
		first := rawCall(t, c.url+"/mcp", "")
		if first["resultType"] != "input_required" {
			t.Fatalf("first round: %v", first)
		}
		stateToken, _ := first["requestState"].(string)
		refused := rawCall(t, stranger, stateToken)
		if refused["isError"] != true || !strings.Contains(fmt.Sprint(refused["content"]), "requestState cannot be used") ||
			!strings.Contains(fmt.Sprint(refused["content"]), "sealed with another key") {
			t.Errorf("a replica with another key: %v", refused)
		}
	})

	t.Run("a session whose replica is gone or never was gets 404, which tells the client to initialize again", func(t *testing.T) {
		hex := strings.Repeat("ab", 16)
		// flightserver-2 stops: its sessions went with it.
		gone := c.replicas["flightserver-2"]
		_ = gone.Cmd.Process.Kill()
		<-gone.Exited()
		for _, tc := range []struct {
			name, id, says string
		}{
			{"the replica stopped", "fs-flightserver-2-" + hex, "flightserver-2, which issued it, is gone"},
			{"no such replica", "fs-flightserver-7-" + hex, "flightserver-7, which issued it, is gone"},
			// Ids the router does not route by name go to any replica,
			// which knows it never issued them.
			{"a name outside the StatefulSet", "fs-evil.example.com-" + hex, "not known to this server process"},
			{"a name with a domain after it", "fs-flightserver-1.evil.example.com-" + hex, "not known to this server process"},
			{"an id in the old form", "fs-" + hex, "not known to this server process"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				status, body := legacyPost(t, c.url+"/mcp", tc.id)
				// The router answers with the server's own code (-32001, the
				// SDKs' "session not found"), so a client reads both alike.
				if status != http.StatusNotFound || !strings.Contains(body, tc.says) || !strings.Contains(strings.ToLower(body), "initialize again") ||
					!strings.Contains(body, `"code":-32001`) {
					t.Errorf("session %s: %d %s; want 404 saying %q and to initialize again", tc.id, status, body, tc.says)
				}
			})
		}
		for _, name := range c.dns.names() {
			if strings.Contains(name, "evil") {
				t.Errorf("the router asked DNS for %s: a client's header chose a name to resolve", name)
			}
		}
	})
}

// replica runs the server binary over HTTP with the given state key,
// naming itself in X-Served-By.
func replica(t *testing.T, name, key string) string {
	t.Helper()
	addr, _, _ := serverbin.StartHTTP(t, serverBin, []string{"FLIGHTSERVER_STATE_KEY=" + key}, "--served-by", name, "--rate-limit", "0")
	return addr
}

// legacyPost sends one 2025-11-25 tools/list in the session id.
func legacyPost(t *testing.T, url, id string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	req.Header.Set("Mcp-Session-Id", id)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// rawCall sends one modern findBestFlight call declaring sampling, with
// requestState when given (and no answer, which is enough for the state
// to be checked first).
func rawCall(t *testing.T, url, requestState string) map[string]any {
	t.Helper()
	return modernCall(t, url, requestState, map[string]any{"sampling": map[string]any{}})
}

// modernCall sends one 2026-07-28 findBestFlight call declaring caps.
func modernCall(t *testing.T, url, requestState string, caps map[string]any) map[string]any {
	t.Helper()
	params := map[string]any{
		"name":      "findBestFlight",
		"arguments": map[string]any{"origin": "JFK", "destination": "LHR", "date": time.Now().AddDate(0, 1, 0).Format("2006-01-02")},
		"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
			"io.modelcontextprotocol/clientCapabilities": caps},
	}
	if requestState != "" {
		params["requestState"] = requestState
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "findBestFlight")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	// The answer may be JSON or one server-sent event.
	if i := bytes.Index(b, []byte("data: ")); i >= 0 && resp.Header.Get("Content-Type") == "text/event-stream" {
		b = bytes.TrimSpace(bytes.SplitN(b[i+6:], []byte("\n"), 2)[0])
	}
	var out struct{ Result map[string]any }
	if err := json.Unmarshal(b, &out); err != nil || out.Result == nil {
		t.Fatalf("%s answered %d %s", url, resp.StatusCode, b)
	}
	return out.Result
}

// TestProbePathsAnswer asks the real server for every path the StatefulSet
// probes: a probe on a path the server does not serve would keep every pod
// unready (or restart it forever).
func TestProbePathsAnswer(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("kubernetes", "statefulset.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	probes := regexp.MustCompile(`(?m)^\s+(\w+Probe):\s*\n\s+httpGet:\s*\n\s+path: (\S+)$`).FindAllStringSubmatch(string(b), -1)
	if len(probes) != 2 {
		t.Fatalf("statefulset.yaml has %d httpGet probes, want readiness and liveness", len(probes))
	}
	addr := replica(t, "probed", strings.Repeat("5a", 32))
	for _, p := range probes {
		resp, err := http.Get("http://" + addr + p[2])
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s GET %s: %d %s; the server must answer 200 there while it serves (/readyz: 503 once draining, issue 16)", p[1], p[2], resp.StatusCode, body)
		}
	}
}
