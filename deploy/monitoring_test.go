package deploy

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/flightserver/flightserver/internal/serverbin"
	flighttools "github.com/flightserver/flightserver/tools"
)

// family is one metric the server exposes, as the rules and the dashboard
// read it: its type, and each label with the values it takes (nil: any).
type family struct {
	kind   string
	labels map[string][]string
}

var (
	tools    = flighttools.Names
	rungs    = flighttools.Steps
	outcomes = []string{"used", "skipped", "failed"}
)

// metrics is the contract between the server's /metrics and
// prometheus/rules.yml and grafana/flightserver.json. Labels are
// bounded: never a client-supplied string.
var metrics = map[string]family{
	"flightserver_rung_attempts_total": {"counter", map[string][]string{"tool": tools, "rung": rungs, "outcome": outcomes}},
	"flightserver_call_duration_seconds": {"histogram", map[string][]string{"tool": tools, "era": {"legacy", "modern"},
		"transport": {"stdio", "http"}, "outcome": {"ok", "error", "input_required"}}},
	"flightserver_call_server_seconds": {"histogram", map[string][]string{"tool": tools, "era": {"legacy", "modern"},
		"transport": {"stdio", "http"}, "outcome": {"ok", "error", "input_required"}}},
	"flightserver_llm_request_duration_seconds": {"histogram", map[string][]string{"outcome": nil}},
	"flightserver_llm_tokens_total":             {"counter", map[string][]string{"kind": {"prompt", "completion"}}},
	"flightserver_inflight_calls":               {"gauge", map[string][]string{}},
	"flightserver_http_refusals_total":          {"counter", map[string][]string{"reason": {"auth", "origin", "rate", "inflight", "body_size", "sessions", "streams", "unknown_session", "draining"}}},
	"flightserver_legacy_sessions":              {"gauge", map[string][]string{}},
	"flightserver_get_streams":                  {"gauge", map[string][]string{}},
}

// Labels every scraped series has, or that histograms add.
var scrapeLabels = []string{"instance", "job", "le"}

var (
	selectorRE = regexp.MustCompile(`\b(flightserver_[a-z_]+)(\{[^}]*\})?`)
	matcherRE  = regexp.MustCompile(`(\w+)\s*(=~|!~|!=|=)\s*"([^"]*)"`)
	groupingRE = regexp.MustCompile(`\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)`)
	recordedRE = regexp.MustCompile(`\bflightserver:[a-z0-9_:]+`)
	literalsRE = regexp.MustCompile(`^[\w|]+$`)
)

// checkExpr reports every use in expr of a metric, label or label value
// the server does not expose, and of a recording rule that prometheus/rules.yml does
// not define.
func checkExpr(expr string, recorded []string) []string {
	var problems []string
	labels := slices.Clone(scrapeLabels)
	for _, m := range selectorRE.FindAllStringSubmatch(expr, -1) {
		name := m[1]
		f, ok := metrics[name]
		if !ok {
			for _, suffix := range []string{"_bucket", "_count", "_sum"} {
				if h, isH := metrics[strings.TrimSuffix(name, suffix)]; isH && h.kind == "histogram" && strings.HasSuffix(name, suffix) {
					f, ok = h, true
				}
			}
		}
		if !ok {
			problems = append(problems, fmt.Sprintf("metric %s is not one the server exposes", name))
			continue
		}
		for l := range f.labels {
			labels = append(labels, l)
		}
		for _, mm := range matcherRE.FindAllStringSubmatch(m[2], -1) {
			label, op, value := mm[1], mm[2], mm[3]
			allowed, known := f.labels[label]
			switch {
			case !known && !slices.Contains(scrapeLabels, label):
				problems = append(problems, fmt.Sprintf("%s has no label %s", name, label))
			case allowed != nil && (op == "=" || op == "!=" || literalsRE.MatchString(value)):
				for _, v := range strings.Split(value, "|") {
					if !slices.Contains(allowed, v) {
						problems = append(problems, fmt.Sprintf("%s{%s} never takes the value %q (it takes %v)", name, label, v, allowed))
					}
				}
			}
		}
	}
	for _, g := range groupingRE.FindAllStringSubmatch(expr, -1) {
		for _, l := range strings.Split(g[1], ",") {
			if l = strings.TrimSpace(l); l != "" && !slices.Contains(labels, l) {
				problems = append(problems, fmt.Sprintf("grouping by %s, which no metric in the expression has", l))
			}
		}
	}
	for _, r := range recordedRE.FindAllString(expr, -1) {
		if !slices.Contains(recorded, r) {
			problems = append(problems, fmt.Sprintf("recording rule %s is not defined in rules.yml", r))
		}
	}
	return problems
}

// ruleExprs reads the expr and record fields of a Prometheus rule file:
// enough YAML for the forms prometheus/rules.yml uses (a plain scalar, or a block after
// "|" or ">").
func ruleExprs(t *testing.T, path string) (exprs, recorded []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	key := regexp.MustCompile(`^(\s*)(?:- )?(expr|record):\s*(.*)$`)
	for i := 0; i < len(lines); i++ {
		m := key.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		indent, field, value := len(m[1]), m[2], strings.TrimSpace(m[3])
		if value == "|" || value == ">" || value == "|-" || value == ">-" {
			var block []string
			for i+1 < len(lines) && (strings.TrimSpace(lines[i+1]) == "" || len(lines[i+1])-len(strings.TrimLeft(lines[i+1], " ")) > indent) {
				i++
				block = append(block, lines[i])
			}
			value = strings.TrimSpace(strings.Join(block, "\n"))
		}
		value = strings.Trim(value, `"'`)
		if field == "record" {
			recorded = append(recorded, value)
		} else {
			exprs = append(exprs, value)
		}
	}
	return exprs, recorded
}

func runPromtool(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, err := exec.Command(installed(t, "promtool", "prometheus"), args...).CombinedOutput()
	return string(out), err
}

func TestPrometheusConfigRulesAndAlerts(t *testing.T) {
	// check config also checks the rule files it names.
	if out, err := runPromtool(t, "check", "config", filepath.Join("prometheus", "prometheus.yml")); err != nil {
		t.Errorf("promtool check config: %v\n%s", err, out)
	}
	// The alerts' unit tests: each fires where it should and stays quiet
	// where it should not.
	if out, err := runPromtool(t, "test", "rules", filepath.Join("prometheus", "rules_test.yml")); err != nil || !strings.Contains(out, "SUCCESS") {
		t.Errorf("promtool test rules: %v\n%s", err, out)
	}
}

func TestRulesReadTheServersMetrics(t *testing.T) {
	exprs, recorded := ruleExprs(t, filepath.Join("prometheus", "rules.yml"))
	if len(exprs) < 10 || len(recorded) < 4 {
		t.Fatalf("rules.yml: %d exprs, %d recording rules: the reader missed some", len(exprs), len(recorded))
	}
	for _, e := range exprs {
		for _, p := range checkExpr(e, recorded) {
			t.Errorf("rules.yml: %s\n  in %s", p, e)
		}
	}
}

// TestExprCheckCatchesMistakes proves checkExpr is not a check that cannot
// fail.
func TestExprCheckCatchesMistakes(t *testing.T) {
	for _, tc := range []struct{ expr, problem string }{
		{`rate(flightserver_rung_attempt_total[5m])`, "metric flightserver_rung_attempt_total"},
		{`rate(flightserver_rung_attempts_total{outcome="fail"}[5m])`, `never takes the value "fail"`},
		{`rate(flightserver_rung_attempts_total{rung=~"server_llm|sampling"}[5m])`, `never takes the value "sampling"`},
		{`rate(flightserver_rung_attempts_total{method="x"}[5m])`, "has no label method"},
		{`sum by (reason) (rate(flightserver_rung_attempts_total[5m]))`, "grouping by reason"},
		{`flightserver:no_such_rule > 1`, "recording rule flightserver:no_such_rule"},
		{`histogram_quantile(0.9, sum by (le) (rate(flightserver_inflight_calls_bucket[5m])))`, "metric flightserver_inflight_calls_bucket"},
	} {
		problems := checkExpr(tc.expr, []string{"flightserver:ranked_calls:rate10m"})
		if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, tc.problem) }) {
			t.Errorf("%s: problems %v, want one about %q", tc.expr, problems, tc.problem)
		}
	}
	if p := checkExpr(`sum by (tool) (rate(flightserver_call_duration_seconds_count{era="legacy",outcome!="input_required"}[5m]))`, nil); len(p) != 0 {
		t.Errorf("a good expression: %v", p)
	}
}

// dashboard is the part of Grafana's dashboard JSON model these checks read.
type dashboard struct {
	UID, Title    string
	SchemaVersion int
	Templating    struct {
		List []struct{ Name, Type, Query string }
	}
	Panels []struct {
		ID         int
		Type       string
		Title      string
		Datasource struct{ Type, UID string }
		GridPos    struct{ X, Y, W, H int }
		Targets    []struct {
			RefID      string
			Expr       string
			Datasource struct{ Type, UID string }
		}
	}
}

func TestGrafanaDashboard(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("grafana", "flightserver.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("grafana/flightserver.json is not JSON: %v", err)
	}
	if d.UID == "" || d.Title == "" || d.SchemaVersion == 0 || len(d.Panels) < 8 {
		t.Fatalf("dashboard uid %q title %q schemaVersion %d, %d panels", d.UID, d.Title, d.SchemaVersion, len(d.Panels))
	}
	if len(d.Templating.List) != 1 || d.Templating.List[0].Type != "datasource" || d.Templating.List[0].Query != "prometheus" {
		t.Errorf("templating %+v: want one Prometheus datasource variable", d.Templating.List)
	}
	_, recorded := ruleExprs(t, filepath.Join("prometheus", "rules.yml"))
	ids := map[int]bool{}
	var rules strings.Builder
	rules.WriteString("groups:\n  - name: dashboard\n    rules:\n")
	titles := ""
	for _, p := range d.Panels {
		titles += p.Title + "\n"
		if ids[p.ID] {
			t.Errorf("panel id %d twice", p.ID)
		}
		ids[p.ID] = true
		if p.Datasource.UID != "${datasource}" || p.GridPos.W <= 0 || p.GridPos.X+p.GridPos.W > 24 || p.GridPos.H <= 0 || len(p.Targets) == 0 {
			t.Errorf("panel %d %q: datasource %+v, gridPos %+v, %d targets", p.ID, p.Title, p.Datasource, p.GridPos, len(p.Targets))
		}
		refs := map[string]bool{}
		for _, q := range p.Targets {
			if refs[q.RefID] || q.RefID == "" || q.Datasource.UID != "${datasource}" {
				t.Errorf("panel %d: target %q (datasource %+v)", p.ID, q.RefID, q.Datasource)
			}
			refs[q.RefID] = true
			// Grafana's own variables become what Grafana would put there.
			expr := strings.NewReplacer("$__rate_interval", "5m", "$__interval", "1m", "$__range", "1h").Replace(q.Expr)
			if strings.Contains(expr, "$") {
				t.Errorf("panel %d %s: a variable the dashboard does not define: %s", p.ID, q.RefID, q.Expr)
			}
			for _, problem := range checkExpr(expr, recorded) {
				t.Errorf("panel %d %q %s: %s", p.ID, p.Title, q.RefID, problem)
			}
			fmt.Fprintf(&rules, "      - record: dashboard:panel_%d_%s\n        expr: %s\n", p.ID, q.RefID, strconvQuote(expr))
		}
	}
	for _, want := range []string{"ranked by", "fallback rate", "outcome", "p50 / p99", "refusals", "sessions"} {
		if !strings.Contains(strings.ToLower(titles), want) {
			t.Errorf("no panel about %q in:\n%s", want, titles)
		}
	}
	// PromQL is parsed by Prometheus itself: every query, as a recording rule.
	file := filepath.Join(t.TempDir(), "dashboard-rules.yml")
	if err := os.WriteFile(file, []byte(rules.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := runPromtool(t, "check", "rules", file); err != nil {
		t.Errorf("the dashboard's queries do not parse: %v\n%s\n%s", err, out, rules.String())
	}
	// And a query that does not parse is caught the same way.
	bad := filepath.Join(t.TempDir(), "bad.yml")
	if err := os.WriteFile(bad, []byte("groups:\n  - name: bad\n    rules:\n      - record: bad:x\n        expr: 'sum(rate(flightserver_inflight_calls[5m])'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := runPromtool(t, "check", "rules", bad); err == nil {
		t.Errorf("promtool accepted an unbalanced query: %s", out)
	}
}

// strconvQuote is a YAML double-quoted scalar (JSON's quoting is one).
func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestMetricsEndpoint runs the real server with --metrics-addr, makes one
// call the deterministic rung ranks, and reads /metrics as Prometheus would:
// the families the rules read exist with the right types and labels.
func TestMetricsEndpoint(t *testing.T) {
	help, _ := exec.Command(serverBin, "--help").CombinedOutput()
	if !strings.Contains(string(help), "-metrics-addr") {
		t.Fatal("flightserver has no --metrics-addr flag yet (issue 16). The StatefulSet passes --metrics-addr=0.0.0.0:9090, and " +
			"prometheus/rules.yml and grafana/flightserver.json read the metrics listed in monitoring_test.go.")
	}
	metricsAddr := serverbin.FreeAddr(t)
	addr, _, _ := serverbin.StartHTTP(t, serverBin, []string{"FLIGHTSERVER_STATE_KEY=" + strings.Repeat("5a", 32)}, "--metrics-addr", metricsAddr, "--rate-limit", "0")
	if res := modernCall(t, "http://"+addr+"/mcp", "", map[string]any{}); res["isError"] == true {
		t.Fatalf("a plain call: %v", res)
	}
	// Not on the MCP listener.
	if resp, err := http.Get("http://" + addr + "/metrics"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Error("/metrics is served on the MCP listener too")
		}
	}
	resp, err := http.Get("http://" + metricsAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("/metrics: %d %s", resp.StatusCode, b)
	}
	types := map[string]string{}
	var samples []string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if f := strings.Fields(line); len(f) == 4 && f[0] == "#" && f[1] == "TYPE" {
			types[f[2]] = f[3]
		} else if strings.HasPrefix(line, "flightserver_") {
			samples = append(samples, line)
		}
	}
	for name, f := range metrics {
		got, ok := types[name]
		switch {
		case ok && got != f.kind:
			t.Errorf("%s is a %s, want a %s", name, got, f.kind)
		case !ok && name != "flightserver_llm_request_duration_seconds" && name != "flightserver_llm_tokens_total" && name != "flightserver_http_refusals_total":
			// The LLM and refusal families have no series until an LLM
			// call or a refusal happens; the others must be there now.
			t.Errorf("/metrics has no %s after a call", name)
		}
	}
	for _, s := range samples {
		name := s[:strings.IndexAny(s, "{ ")]
		base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, "_bucket"), "_count"), "_sum")
		f, ok := metrics[name]
		if !ok {
			f, ok = metrics[base]
		}
		if !ok {
			continue // a family the rules do not read
		}
		for _, m := range regexp.MustCompile(`(\w+)="([^"]*)"`).FindAllStringSubmatch(s, -1) {
			allowed, known := f.labels[m[1]]
			if (!known && m[1] != "le") || (allowed != nil && !slices.Contains(allowed, m[2])) {
				t.Errorf("%s: label %s=%q is not in the contract", s, m[1], m[2])
			}
		}
	}
	want := regexp.MustCompile(`^flightserver_rung_attempts_total\{[^}]*\} [1-9]`)
	found := slices.ContainsFunc(samples, func(s string) bool {
		return want.MatchString(s) && strings.Contains(s, `tool="findBestFlight"`) && strings.Contains(s, `rung="deterministic"`) && strings.Contains(s, `outcome="used"`)
	})
	if !found {
		t.Errorf("no flightserver_rung_attempts_total{tool=findBestFlight,rung=deterministic,outcome=used} after a call the deterministic rung ranked:\n%s", strings.Join(samples, "\n"))
	}
}
