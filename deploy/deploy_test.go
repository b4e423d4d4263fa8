// Package deploy holds no code: its tests prove the deployment files work.
// nginx.conf itself runs, with real nginx, in front of three real replicas.
// The Kubernetes manifests are checked in deploy/kubernetes, a module of its
// own, so that this module does not depend on k8s.io.
package deploy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
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

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/tools/scripted"
)

// ---- three replicas behind real nginx ----

var serverBin string

func TestMain(m *testing.M) { serverbin.Main(m, &serverBin) }

// replica runs the server binary over HTTP with the shared state key,
// naming itself in X-Served-By.
func replica(t *testing.T, name, key string) string {
	t.Helper()
	addr, _, _ := serverbin.StartHTTP(t, serverBin, []string{"FLIGHTSERVER_STATE_KEY=" + key}, "--served-by", name, "--rate-limit", "0")
	return addr
}

// startNginx runs deploy/nginx.conf itself, with its replica lines and its
// listen port rewritten, and returns the balancer's base URL.
func startNginx(t *testing.T, replicas []string) string {
	t.Helper()
	bin, err := exec.LookPath("nginx")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("nginx is not installed; .ci/run installs it from Debian's packages (apt-get install nginx-light)")
		}
		t.Skip("nginx is not installed (apt-get install nginx-light); CI runs this test")
	}
	conf, err := os.ReadFile("nginx.conf")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, r := range replicas {
		lines = append(lines, "        server "+r+";")
	}
	// Each upstream's run of "server ...; # replica" lines becomes ours.
	runs := regexp.MustCompile(`(?m)(?:^[ \t]*server \S+; # replica\n)+`)
	text := string(conf)
	if n := len(runs.FindAllString(text, -1)); n != 2 {
		t.Fatalf("nginx.conf has %d upstream blocks of replica lines, want 2", n)
	}
	text = runs.ReplaceAllLiteralString(text, strings.Join(lines, "\n")+"\n")
	listen := serverbin.FreeAddr(t)
	text = strings.Replace(text, "listen 8080;", "listen "+listen+";", 1)
	dir := t.TempDir()
	// Debian's nginx keeps temporary files under /var/lib/nginx: use ours.
	for _, d := range []string{"client_body", "proxy", "fastcgi", "uwsgi", "scgi"} {
		text = strings.Replace(text, "http {", fmt.Sprintf("http {\n    %s_temp_path %s;", d, filepath.Join(dir, d)), 1)
	}
	text = strings.Replace(text, "http {", "http {\n    access_log "+filepath.Join(dir, "access.log")+";", 1)
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "-p", dir, "-c", path, "-g", "daemon off; pid "+filepath.Join(dir, "nginx.pid")+"; error_log stderr warn; user root;")
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
		if resp, err := http.Get(url + "/healthz"); err == nil {
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

// recorder notes which replica served each tools/call POST.
type recorder struct {
	mu     sync.Mutex
	served []string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil && req.Method == http.MethodPost && req.Header.Get("Mcp-Method") == "tools/call" {
		r.mu.Lock()
		r.served = append(r.served, resp.Header.Get("X-Served-By"))
		r.mu.Unlock()
	}
	return resp, err
}

func (r *recorder) since(n int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.served[n:]...)
}

func TestRoundRobinThroughNginx(t *testing.T) {
	key := strings.Repeat("5a", 32)
	var replicas []string
	for i := range 3 {
		replicas = append(replicas, replica(t, fmt.Sprintf("replica-%d", i+1), key))
	}
	lb := startNginx(t, replicas)

	// Modern calls with a sampling round, one after another, until the two
	// rounds of one call were served by different replicas.
	rec := &recorder{}
	tr, err := transport.NewStreamableHTTP(lb+"/mcp", transport.WithHTTPBasicClient(&http.Client{Transport: rec}))
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(mcp.ProtocolVersion20260728), client.WithSamplingHandler(&scripted.Sampler{Behaviour: scripted.Answers}))
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Initialize(context.Background(), mcp.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	date := time.Now().AddDate(0, 1, 0).Format("2006-01-02")
	seen := map[string]bool{}
	split := false
	for i := 0; i < 30 && !split; i++ {
		before := len(rec.since(0))
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "findBestFlight",
			Arguments: map[string]any{"origin": "JFK", "destination": "LHR", "date": date}}})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		var r struct{ Method string }
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &r)
		rounds := rec.since(before)
		if res.IsError || r.Method != "client_sampling" || len(rounds) != 2 {
			t.Fatalf("call %d: method %q, rounds %v, isError %v", i, r.Method, rounds, res.IsError)
		}
		for _, s := range rounds {
			seen[s] = true
		}
		split = rounds[0] != rounds[1] && rounds[0] != "" && rounds[1] != ""
	}
	if !split {
		t.Fatalf("no call had its rounds served by different replicas: %v", rec.since(0))
	}
	if len(seen) < 2 {
		t.Errorf("replicas seen: %v", seen)
	}

	// A legacy client keeps its session: the sticky upstream sends all its
	// requests, and its GET stream, to one replica, so sampling works.
	legacy, err := transport.NewStreamableHTTP(lb+"/mcp", transport.WithContinuousListening()) //lint:ignore SA1019 the legacy GET stream is what 2025-11-25 hosts open.
	if err != nil {
		t.Fatal(err)
	}
	lc := client.NewClient(legacy, client.WithProtocolVersion(mcp.ProtocolVersion20251125), client.WithSamplingHandler(&scripted.Sampler{Behaviour: scripted.Answers}))
	if err := lc.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer lc.Close()
	if _, err := lc.Initialize(context.Background(), mcp.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the GET stream opens in the background
	for i := range 3 {
		res, err := lc.CallTool(context.Background(), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "findBestFlight",
			Arguments: map[string]any{"origin": "JFK", "destination": "LHR", "date": date}}})
		if err != nil || res.IsError {
			t.Fatalf("legacy call %d through the balancer: %v %+v", i, err, res)
		}
		var r struct{ Method string }
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &r)
		if r.Method != "client_sampling" {
			t.Errorf("legacy call %d ranked by %s, want client_sampling: %s", i, r.Method, b)
		}
	}

	// A replica with another key refuses a round started elsewhere, clearly.
	stranger := "http://" + replica(t, "stranger", strings.Repeat("77", 32)) + "/mcp"
	first := rawCall(t, lb+"/mcp", "")
	if first["resultType"] != "input_required" {
		t.Fatalf("first round: %v", first)
	}
	stateToken, _ := first["requestState"].(string)
	refused := rawCall(t, stranger, stateToken)
	if refused["isError"] != true || !strings.Contains(fmt.Sprint(refused["content"]), "requestState cannot be used") ||
		!strings.Contains(fmt.Sprint(refused["content"]), "sealed with another key") {
		t.Errorf("a replica with another key: %v", refused)
	}
}

// rawCall sends one modern findBestFlight call declaring sampling, with
// requestState when given (and no answer, which is enough for the state
// to be checked first).
func rawCall(t *testing.T, url, requestState string) map[string]any {
	t.Helper()
	params := map[string]any{
		"name":      "findBestFlight",
		"arguments": map[string]any{"origin": "JFK", "destination": "LHR", "date": time.Now().AddDate(0, 1, 0).Format("2006-01-02")},
		"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
			"io.modelcontextprotocol/clientCapabilities": map[string]any{"sampling": map[string]any{}}},
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
