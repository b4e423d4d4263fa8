package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/url"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/fallback/state"
	"github.com/flightserver/flightserver/internal/httpguard"
	"github.com/flightserver/flightserver/llm"
	"github.com/flightserver/flightserver/ranking"
	"github.com/flightserver/flightserver/tools"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3";
// otherwise the module version from the build info is used.
var version = ""

// buildVersion is the version --version prints, serverInfo reports and
// spans carry: version, else the module's, else "dev". The build info is
// parsed once, however many ask.
var buildVersion = sync.OnceValue(func() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
})

// envPrefix names the environment fallback of every flag: --log-level is
// FLIGHTSERVER_LOG_LEVEL. A flag on the command line wins over the variable.
const envPrefix = "FLIGHTSERVER_"

type config struct {
	// httpOnlyIgnored are the HTTP-only flags given (on the command line
	// or in the environment) to a stdio server, which run warns about.
	httpOnlyIgnored []string
	// trimmedSecrets name the secrets given with white space around them
	// (a newline pasted from a file), which were trimmed; run warns.
	trimmedSecrets []string
	// openAIKeyWithheld: OPENAI_API_KEY is set but not used, because
	// --llm-base-url names another endpoint than OpenAI's; run says so.
	openAIKeyWithheld bool

	transport      string
	addr           string
	allowedOrigins []string
	allowedHosts   []string
	logLevel       zerolog.Level
	logFormat      string
	maxBodyBytes   int64
	readHeader     time.Duration
	shutdownGrace  time.Duration
	weights        ranking.Weights
	showVersion    bool

	sampling        bool
	samplingTimeout time.Duration
	samplingPrefs   tools.SamplingPreferences
	callBudget      time.Duration
	stateKey        []byte   // nil: a random key for this process
	previousKeys    [][]byte // still open states they sealed (a key rotation)

	llm            llm.Config
	fallback       ranking.Tier
	shortlist      int
	serverLLMFirst string

	exportDir          string
	exportMaxBytes     int64
	sharedFilesystem   bool
	rootsTimeout       time.Duration
	elicitationTimeout time.Duration

	// HTTP protections.
	authToken            string
	allowUnauthenticated bool
	maxInflight          int
	rateLimit            float64 // requests per second per client; 0: off
	rateBurst            int
	limitLoopback        bool // per-client limits apply to loopback clients too
	clientIPHeader       string
	sessionIdleTTL       time.Duration
	maxSessions          int // live 2025-11-25 sessions, in all; 0: no limit
	maxSessionsPerClient int // and per client address; 0: no limit
	maxStreams           int // open 2025-11-25 GET streams, in all; 0: no limit
	maxInflightPerClient int // a client's share of maxInflight; 0: no limit
	readBody             time.Duration
	drainDelay           time.Duration
	servedBy             string

	loadTestTools bool
	debugAddr     string
	metricsAddr   string
}

// secretFlags never have their values echoed in an error or a log.
var secretFlags = map[string]bool{"state-key": true, "state-key-previous": true, "llm-api-key": true, "auth-token": true}

// commandLineOnly are flags that ask for something other than a server (print
// the version) or that only tests should turn on: FLIGHTSERVER_VERSION is a
// name a deployment may well set to the image's version, and must not make
// the container print a line and exit.
var commandLineOnly = map[string]bool{"version": true, "load-test-tools": true}

var errHelp = flag.ErrHelp

// helpGroups sorts the flags for --help, in the order a newcomer looks for
// them. A flag missing here is listed under "Other" (and fails
// TestHelpListsEveryFlagInAGroup).
var helpGroups = []struct {
	title string
	flags []string
}{
	{"Transport (how hosts reach the server)", []string{"transport", "addr", "max-body-bytes", "call-budget", "state-key", "state-key-previous", "shutdown-grace", "version"}},
	{"Ranking (the client's LLM through sampling, then the server's LLM, then the fallback)", []string{
		"sampling", "sampling-timeout", "sampling-model-hints", "sampling-cost-priority", "sampling-speed-priority", "sampling-intelligence-priority", "sampling-max-tokens",
		"llm-base-url", "llm-api-key", "llm-model", "llm-timeout", "server-llm-first", "fallback", "candidates", "stop-penalty-usd", "hour-cost-usd"}},
	{"Elicitation (asking the user in a form)", []string{"elicitation-timeout"}},
	{"Saving itineraries (where saveItinerary may write)", []string{"export-dir", "export-max-bytes", "shared-filesystem", "roots-timeout"}},
	{"HTTP hardening (--transport http)", []string{
		"allowed-origins", "allowed-hosts", "auth-token", "allow-unauthenticated", "read-header-timeout", "read-body-timeout", "max-inflight", "max-inflight-per-client", "rate-limit", "rate-burst",
		"limit-loopback", "client-ip-header", "max-sessions", "max-sessions-per-client", "max-streams", "session-idle-ttl", "drain-delay", "served-by"}},
	{"Telemetry and logs (traces: the standard OTEL_* variables)", []string{"log-level", "log-format", "metrics-addr", "debug-addr"}},
	{"Testing", []string{"load-test-tools"}},
}

// printHelp writes the usage: flags in --flag form, grouped, each with its
// environment variable and default.
func printHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, `Usage: flightserver [flags]

An MCP server that finds flights in synthetic sample data (no network, no key
needed). A host starts it over stdio; --transport http serves streamable HTTP
at /mcp. Every flag but --version and --load-test-tools can also be set with
its environment variable, shown beside it; a flag given on the command line
wins. Durations are written like 500ms, 20s, 1m30s or 2h.

`)
	listed := map[string]bool{}
	group := func(title string, names []string) {
		fmt.Fprintf(w, "%s:\n", title)
		for _, name := range names {
			f := fs.Lookup(name)
			if f == nil {
				continue
			}
			listed[name] = true
			kind, usage := flag.UnquoteUsage(f)
			line := "  --" + f.Name
			if kind != "" {
				line += " " + kind
			}
			if !commandLineOnly[f.Name] {
				line += "   (" + envName(f.Name) + ")"
			}
			fmt.Fprintln(w, line)
			if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "0s" && !secretFlags[f.Name] {
				usage += fmt.Sprintf(" (default %s)", f.DefValue)
			}
			fmt.Fprintf(w, "        %s\n", usage)
		}
		fmt.Fprintln(w)
	}
	for _, g := range helpGroups {
		group(g.title, g.flags)
	}
	var other []string
	fs.VisitAll(func(f *flag.Flag) {
		if !listed[f.Name] {
			other = append(other, f.Name)
		}
	})
	if len(other) > 0 {
		group("Other", other)
	}
	fmt.Fprintln(w, "Docs: README.md (install and first run), docs/HOSTS.md (connecting each host), docs/FALLBACKS.md (why it is shaped this way).")
}

// The flag package's errors, read back to say them in --flag form.
var (
	undefinedFlag = regexp.MustCompile(`^flag provided but not defined: -+(.+)$`)
	invalidValue  = regexp.MustCompile(`^invalid (?:boolean )?value (".*") for (?:flag )?-+([^:]+): `)
	missingValue  = regexp.MustCompile(`^flag needs an argument: -+(.+)$`)
)

// flagError turns an error of fs.Parse into one line that names the flag
// as --flag and says what it accepts.
func flagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	if m := undefinedFlag.FindStringSubmatch(msg); m != nil {
		return fmt.Errorf("unknown flag --%s: flightserver --help lists the flags", m[1])
	}
	if m := missingValue.FindStringSubmatch(msg); m != nil {
		return fmt.Errorf("--%s needs a value (flightserver --help says which)", m[1])
	}
	if m := invalidValue.FindStringSubmatch(msg); m != nil {
		if f := fs.Lookup(m[2]); f != nil {
			if secretFlags[f.Name] {
				return fmt.Errorf("--%s: not a valid value", f.Name)
			}
			return fmt.Errorf("--%s %s: %s", f.Name, m[1], valueProblem(f))
		}
	}
	return fmt.Errorf("%v (flightserver --help lists the flags)", err)
}

// valueProblem says what a flag of f's type accepts, for a value it could
// not read.
func valueProblem(f *flag.Flag) string {
	g, _ := f.Value.(flag.Getter)
	if g == nil {
		return "not a valid value"
	}
	switch g.Get().(type) {
	case time.Duration:
		return "not a duration: write it like 20s, 1m30s or 500ms"
	case int, int64, uint, uint64:
		return "not a whole number, e.g. " + f.DefValue
	case float64:
		return "not a number, e.g. " + f.DefValue
	case bool:
		return "use true or false"
	}
	return "not a valid value"
}

// parseConfig reads flags, then fills every flag not given from its
// environment variable, then checks the combination. Any problem is one line
// that names the flag (or variable) and what it accepts.
func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	var (
		c        config
		origins  string
		hosts    string
		level    string
		sampling string
		hints    string
		stateKey string
		previous string
		fallback string
	)
	fs := flag.NewFlagSet("flightserver", flag.ContinueOnError)
	// The flag package would print the whole usage after every error; a bad
	// flag gets one line (from main), and the usage only when asked for.
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.transport, "transport", "stdio", "stdio (for desktop hosts) or http (streamable HTTP at /mcp)")
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "HTTP listen address; keep it on loopback unless a proxy in front authenticates")
	fs.StringVar(&origins, "allowed-origins", "", "comma-separated browser origins allowed besides the server's own, e.g. http://localhost:6274 for the MCP Inspector")
	fs.StringVar(&hosts, "allowed-hosts", "", "comma-separated names requests may call the server by besides localhost and IP addresses (DNS rebinding protection), e.g. flights.internal; needed beyond loopback without --auth-token")
	fs.StringVar(&level, "log-level", "info", "debug, info, warn or error")
	fs.StringVar(&c.logFormat, "log-format", "auto", "auto (console when stderr is a terminal, json otherwise), json (one object a line) or console (for people)")
	fs.Int64Var(&c.maxBodyBytes, "max-body-bytes", 1<<20, "largest HTTP request body, or stdio message (one line), accepted")
	fs.DurationVar(&c.readHeader, "read-header-timeout", 10*time.Second, "time allowed to read an HTTP request's headers")
	fs.DurationVar(&c.readBody, "read-body-timeout", 10*time.Second, "time allowed to read an HTTP request's body, once its headers are in")
	fs.Float64Var(&c.weights.StopPenaltyUSD, "stop-penalty-usd", ranking.DefaultWeights.StopPenaltyUSD, "deterministic ranking: dollars added to a flight's score per connection")
	fs.Float64Var(&c.weights.HourCostUSD, "hour-cost-usd", ranking.DefaultWeights.HourCostUSD, "deterministic ranking: dollars added to a flight's score per hour of travel")
	fs.StringVar(&sampling, "sampling", "on", "on: rank through the client's LLM when the client declares sampling; off: never ask")
	fs.DurationVar(&c.samplingTimeout, "sampling-timeout", tools.DefaultSamplingTimeout, "how long a legacy client may take to answer a sampling request (never more than the call budget left)")
	fs.DurationVar(&c.callBudget, "call-budget", tools.DefaultCallBudget, "the most one tool call may take, every ranking tier included")
	fs.StringVar(&stateKey, "state-key", "", "key signing the requestState of 2026-07-28 rounds: hex or base64, 32+ bytes, the same on every replica (default: random per process)")
	fs.StringVar(&previous, "state-key-previous", "", "comma-separated keys that signed states before --state-key: they still open them (never sign), so a key rotation does not break calls in flight")
	d := tools.DefaultSamplingPreferences
	fs.StringVar(&hints, "sampling-model-hints", strings.Join(d.ModelHints, ","), "comma-separated model name hints sent with sampling requests, in order of preference")
	fs.Float64Var(&c.samplingPrefs.CostPriority, "sampling-cost-priority", d.CostPriority, "sampling modelPreferences.costPriority, 0..1")
	fs.Float64Var(&c.samplingPrefs.SpeedPriority, "sampling-speed-priority", d.SpeedPriority, "sampling modelPreferences.speedPriority, 0..1")
	fs.Float64Var(&c.samplingPrefs.IntelligencePriority, "sampling-intelligence-priority", d.IntelligencePriority, "sampling modelPreferences.intelligencePriority, 0..1")
	fs.IntVar(&c.samplingPrefs.MaxTokens, "sampling-max-tokens", d.MaxTokens, "sampling maxTokens: room for three ids and three short reasons")
	fs.StringVar(&c.llm.BaseURL, "llm-base-url", "", "OpenAI-compatible endpoint for the server-side LLM (OpenAI, Azure OpenAI, Ollama, vLLM, LM Studio); empty means OpenAI's when a key is set")
	fs.StringVar(&c.llm.APIKey, "llm-api-key", "", "API key for the server-side LLM (also read from OPENAI_API_KEY); never logged")
	fs.StringVar(&c.llm.Model, "llm-model", llm.DefaultModel, "model for the server-side LLM")
	fs.DurationVar(&c.llm.Timeout, "llm-timeout", llm.DefaultTimeout, "how long the server-side LLM may take (never more than the call budget left)")
	fs.StringVar(&fallback, "fallback", "deterministic", "last tier under strategy auto: deterministic (rank by price, stops, time) or candidates (a shortlist for the host's model)")
	fs.IntVar(&c.shortlist, "candidates", tools.DefaultShortlist, "how many flights the candidates shortlist holds")
	fs.StringVar(&c.exportDir, "export-dir", "", "directory saveItinerary writes to when the client shares no roots (empty: saving needs roots, on stdio); over HTTP the only place it writes")
	fs.Int64Var(&c.exportMaxBytes, "export-max-bytes", 64<<20, "HTTP: most bytes the files under --export-dir may hold in all; a client's save that would pass it is refused (0: no limit; over stdio nothing is counted)")
	fs.BoolVar(&c.sharedFilesystem, "shared-filesystem", false, "HTTP: clients and this server see the same files, so a client's roots may be written to (off: roots only narrow --export-dir)")
	fs.StringVar(&c.serverLLMFirst, "server-llm-first", tools.ServerLLMFirstNever, "try the server's LLM before the client's sampling: never, modern (for 2026-07-28 clients, where sampling is deprecated) or always")
	fs.DurationVar(&c.rootsTimeout, "roots-timeout", tools.DefaultRootsTimeout, "how long a 2025-11-25 client may take to answer roots/list")
	fs.DurationVar(&c.elicitationTimeout, "elicitation-timeout", tools.DefaultElicitationTimeout, "how long a 2025-11-25 client's user may take to answer a form (never more than the call budget left)")
	fs.DurationVar(&c.shutdownGrace, "shutdown-grace", 25*time.Second, "on SIGINT/SIGTERM, how long in-flight HTTP calls may take to finish (inside Kubernetes' default 30 s termination grace)")
	fs.StringVar(&c.authToken, "auth-token", "", "HTTP: require Authorization: Bearer <token> on /mcp (/healthz stays open); never logged")
	fs.BoolVar(&c.allowUnauthenticated, "allow-unauthenticated", false, "HTTP: listen on a non-loopback address without --auth-token (only behind a proxy that authenticates, or on a trusted network)")
	fs.IntVar(&c.maxInflight, "max-inflight", 256, "HTTP: most JSON-RPC requests served at once; more get 503 with Retry-After (0: no limit)")
	fs.IntVar(&c.maxInflightPerClient, "max-inflight-per-client", 32, "HTTP: most of those one client address beyond loopback may have in flight, waits for its own forms and sampling answers included; more get 429 (0: no limit)")
	fs.Float64Var(&c.rateLimit, "rate-limit", 50, "HTTP: requests per second allowed to each client address beyond loopback; more get 429 with Retry-After (0: no limit)")
	fs.IntVar(&c.rateBurst, "rate-burst", 100, "HTTP: requests a client may send at once before --rate-limit applies")
	fs.BoolVar(&c.limitLoopback, "limit-loopback", false, "HTTP: apply the per-client limits (--rate-limit, --max-sessions-per-client, --max-inflight-per-client) to loopback clients too (default: a client on this machine is exempt)")
	fs.IntVar(&c.maxSessions, "max-sessions", 10_000, "HTTP: most live 2025-11-25 sessions; an initialize beyond gets 503 with Retry-After (0: no limit)")
	fs.IntVar(&c.maxSessionsPerClient, "max-sessions-per-client", 100, "HTTP: most live 2025-11-25 sessions per client address beyond loopback; an initialize beyond gets 429 (0: no limit)")
	fs.IntVar(&c.maxStreams, "max-streams", 1000, "HTTP: most open 2025-11-25 GET streams (one per session, a reconnect replaces it); a stream beyond gets 503 (0: no limit)")
	fs.DurationVar(&c.drainDelay, "drain-delay", 0, "HTTP: on SIGTERM, keep serving this long with /readyz at 503 before closing the listener, so load balancers stop sending first (0: close at once; in Kubernetes a preStop sleep does the same)")
	fs.StringVar(&c.clientIPHeader, "client-ip-header", "", "HTTP: header carrying the client's address, set by a trusted proxy in front (e.g. X-Real-IP); empty: the connection's address")
	fs.DurationVar(&c.sessionIdleTTL, "session-idle-ttl", 30*time.Minute, "HTTP: forget a 2025-11-25 session idle this long (a client that never sends DELETE must not hold memory forever)")
	fs.StringVar(&c.servedBy, "served-by", "", "HTTP: name this replica in an X-Served-By response header (empty: no header)")
	fs.StringVar(&c.metricsAddr, "metrics-addr", "", "serve Prometheus metrics at /metrics on this address, never the MCP one; a bare port (:9090) means loopback (empty: off)")
	fs.StringVar(&c.debugAddr, "debug-addr", "", "HTTP: serve goroutine and heap numbers at /debug/vars and Go profiles at /debug/pprof/<name> on this loopback address, e.g. 127.0.0.1:6060 (empty: off)")
	fs.BoolVar(&c.loadTestTools, "load-test-tools", false, "also register a no-op tool (noop), the baseline cmd/flightload measures against; not for production")
	fs.BoolVar(&c.showVersion, "version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printHelp(stderr, fs)
			return c, err
		}
		return c, usageError{flagError(fs, err)}
	}
	if fs.NArg() > 0 {
		return c, usageError{fmt.Errorf("unexpected argument %q: flightserver takes only flags (flightserver --help lists them)", fs.Arg(0))}
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		name := envName(f.Name)
		if v := getenv(name); v != "" && !given[f.Name] && !commandLineOnly[f.Name] && envErr == nil {
			if err := fs.Set(f.Name, v); err != nil {
				envErr = fmt.Errorf("%s=%q: %s", name, v, valueProblem(f))
				if secretFlags[f.Name] {
					envErr = fmt.Errorf("%s: not a valid value", name)
				}
			}
		}
	})
	if envErr != nil {
		return c, usageError{envErr}
	}
	// The OpenAI SDKs' own variable, for people who already have it set:
	// a key for OpenAI, so it goes to OpenAI's endpoint only, never to a
	// local model or a gateway --llm-base-url names.
	if key := getenv("OPENAI_API_KEY"); c.llm.APIKey == "" && key != "" {
		if openAIEndpoint(c.llm.BaseURL) {
			c.llm.APIKey = key
		} else {
			c.openAIKeyWithheld = true
		}
	}
	if err := c.check(fs, given, getenv, stderr, checkedValues{origins, hosts, level, sampling, hints, stateKey, previous, fallback}); err != nil {
		return c, usageError{err}
	}
	return c, nil
}

// checkedValues are the flags parseConfig reads as text and check reads
// into the config.
type checkedValues struct{ origins, hosts, level, sampling, hints, stateKey, previous, fallback string }

// check validates the combination and fills in what is derived from the
// text values. Every problem names where the value came from: the flag, or
// the environment variable it was read from.
func (c *config) check(fs *flag.FlagSet, given map[string]bool, getenv func(string) string, stderr io.Writer, v checkedValues) error {
	// src names where a flag's value came from; at adds the value (never a
	// secret's: those are checked by name only).
	src := func(name string) string {
		if given[name] || getenv(envName(name)) == "" {
			return "--" + name
		}
		return envName(name)
	}
	at := func(name string, value any) string {
		if src(name) != "--"+name {
			if s, ok := value.(string); ok {
				return fmt.Sprintf("%s=%q", src(name), s)
			}
			return fmt.Sprintf("%s=%v", src(name), value)
		}
		if s, ok := value.(string); ok {
			return fmt.Sprintf("--%s %q", name, s)
		}
		return fmt.Sprintf("--%s %v", name, value)
	}
	positive := func(name string, d time.Duration, example string) error {
		if d <= 0 {
			return fmt.Errorf("%s: must be a positive duration, e.g. %s", at(name, d.String()), example)
		}
		return nil
	}

	// A choice among words is read as the word, whatever its case and the
	// space around it: a host's settings form ("Candidates", a trailing
	// space) should not stop the server from starting.
	word := func(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
	c.transport, c.logFormat, c.serverLLMFirst = word(c.transport), word(c.logFormat), word(c.serverLLMFirst)
	v.level, v.sampling, v.fallback = word(v.level), word(v.sampling), word(v.fallback)
	c.llm.BaseURL, c.llm.Model = strings.TrimSpace(c.llm.BaseURL), strings.TrimSpace(c.llm.Model)
	switch c.transport {
	case "stdio", "http":
	default:
		return fmt.Errorf("%s: use stdio or http", at("transport", c.transport))
	}
	if c.transport == "stdio" {
		// The flags whose help starts "HTTP:" shape only the HTTP server.
		fs.Visit(func(f *flag.Flag) {
			if strings.HasPrefix(f.Usage, "HTTP") {
				c.httpOnlyIgnored = append(c.httpOnlyIgnored, "--"+f.Name)
			}
		})
	}
	if _, _, err := net.SplitHostPort(c.addr); err != nil {
		return fmt.Errorf("%s: want host:port, e.g. 127.0.0.1:8080 (%v)", at("addr", c.addr), err)
	}
	lvl, err := zerolog.ParseLevel(strings.ToLower(v.level))
	if err != nil || v.level == "" || lvl == zerolog.NoLevel {
		return fmt.Errorf("%s: use debug, info, warn or error", at("log-level", v.level))
	}
	c.logLevel = lvl
	switch c.logFormat {
	case "auto":
		// A person reads a terminal; anything else (a host's log file, a
		// collector) reads one JSON object a line.
		c.logFormat = "json"
		if isTerminal(stderr) {
			c.logFormat = "console"
		}
	case "json", "console":
	default:
		return fmt.Errorf("%s: use auto, json or console", at("log-format", c.logFormat))
	}
	if c.exportMaxBytes < 0 {
		return fmt.Errorf("%s: must be 0 (no limit) or a number of bytes, e.g. 67108864 for 64 MiB", at("export-max-bytes", c.exportMaxBytes))
	}
	if c.maxBodyBytes < 1024 {
		return fmt.Errorf("%s: must be at least 1024", at("max-body-bytes", c.maxBodyBytes))
	}
	for _, w := range []struct {
		name  string
		value float64
	}{{"stop-penalty-usd", c.weights.StopPenaltyUSD}, {"hour-cost-usd", c.weights.HourCostUSD}} {
		if !(w.value >= 0) || math.IsInf(w.value, 0) { // also catches NaN
			return fmt.Errorf("%s: must be a finite amount of dollars, not negative, e.g. 75", at(w.name, w.value))
		}
	}
	switch v.sampling {
	case "on", "off":
		c.sampling = v.sampling == "on"
	default:
		return fmt.Errorf("%s: use on or off", at("sampling", v.sampling))
	}
	if err := positive("sampling-timeout", c.samplingTimeout, "20s"); err != nil {
		return err
	}
	if err := positive("call-budget", c.callBudget, "45s"); err != nil {
		return err
	}
	for _, p := range []struct {
		name  string
		value float64
	}{
		{"sampling-cost-priority", c.samplingPrefs.CostPriority}, {"sampling-speed-priority", c.samplingPrefs.SpeedPriority},
		{"sampling-intelligence-priority", c.samplingPrefs.IntelligencePriority},
	} {
		if !(p.value >= 0 && p.value <= 1) {
			return fmt.Errorf("%s: must be between 0 and 1, e.g. 0.5", at(p.name, p.value))
		}
	}
	if c.samplingPrefs.MaxTokens < 64 || c.samplingPrefs.MaxTokens > 16384 {
		return fmt.Errorf("%s: must be between 64 and 16384", at("sampling-max-tokens", c.samplingPrefs.MaxTokens))
	}
	for h := range strings.SplitSeq(v.hints, ",") {
		if h = strings.TrimSpace(h); h != "" {
			c.samplingPrefs.ModelHints = append(c.samplingPrefs.ModelHints, h)
		}
	}
	switch ranking.Tier(v.fallback) {
	case ranking.Deterministic, ranking.Candidates:
		c.fallback = ranking.Tier(v.fallback)
	default:
		return fmt.Errorf("%s: use deterministic or candidates", at("fallback", v.fallback))
	}
	switch c.serverLLMFirst {
	case tools.ServerLLMFirstNever, tools.ServerLLMFirstModern, tools.ServerLLMFirstAlways:
	default:
		return fmt.Errorf("%s: use never, modern or always", at("server-llm-first", c.serverLLMFirst))
	}
	if c.shortlist < 1 || c.shortlist > 47 {
		return fmt.Errorf("%s: must be between 1 and 47", at("candidates", c.shortlist))
	}
	if err := positive("roots-timeout", c.rootsTimeout, "5s"); err != nil {
		return err
	}
	if err := positive("elicitation-timeout", c.elicitationTimeout, "40s"); err != nil {
		return err
	}
	if err := positive("llm-timeout", c.llm.Timeout, "15s"); err != nil {
		return err
	}
	if c.llm.BaseURL != "" {
		if u, err := url.Parse(c.llm.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%s: want an http(s) URL such as http://localhost:11434/v1", src("llm-base-url"))
		}
	}
	if c.exportDir != "" {
		// Hosts start servers without a shell, so nothing expands "~" in
		// a host's settings: do it here. A folder that does not exist is
		// no error: saveItinerary says what to create (run logs it).
		c.exportDir = expandHome(c.exportDir, getenv)
	}
	llmSource := src("llm-api-key")
	if !given["llm-api-key"] && getenv(envPrefix+"LLM_API_KEY") == "" {
		llmSource = "OPENAI_API_KEY"
	}
	// A token read from a file ends in a newline, which no client sends:
	// kept, it made every request 401.
	for _, sec := range []struct {
		source string
		value  *string
	}{{src("auth-token"), &c.authToken}, {llmSource, &c.llm.APIKey}} {
		trimmed := strings.TrimSpace(*sec.value)
		if trimmed == *sec.value {
			continue
		}
		if trimmed == "" {
			return fmt.Errorf("%s is only white space: set the secret itself, or leave it unset", sec.source)
		}
		*sec.value = trimmed
		c.trimmedSecrets = append(c.trimmedSecrets, sec.source)
	}
	for _, sec := range []struct{ source, value string }{
		{src("auth-token"), c.authToken}, {src("state-key"), v.stateKey}, {llmSource, c.llm.APIKey},
	} {
		if err := checkSecret(sec.source, sec.value); err != nil {
			return err
		}
	}
	if v.stateKey != "" {
		key, err := state.ParseKey(v.stateKey)
		if err != nil {
			return fmt.Errorf("%s: %v", src("state-key"), err)
		}
		c.stateKey = key
	}
	if v.previous != "" {
		if c.stateKey == nil {
			return fmt.Errorf("%s needs --state-key: the previous keys only verify, the current one signs", src("state-key-previous"))
		}
		parts := strings.Split(v.previous, ",")
		for i, p := range parts {
			where := fmt.Sprintf("%s (key %d of %d)", src("state-key-previous"), i+1, len(parts))
			if err := checkSecret(where, p); err != nil {
				return err
			}
			key, err := state.ParseKey(p)
			if err != nil {
				return fmt.Errorf("%s: %v", where, err)
			}
			c.previousKeys = append(c.previousKeys, key)
		}
	}
	if c.transport == "http" && c.authToken == "" && !c.allowUnauthenticated && !httpguard.Loopback(c.addr) {
		return fmt.Errorf("%s is reachable from other machines and no --auth-token is set: set a token (FLIGHTSERVER_AUTH_TOKEN), "+
			"listen on 127.0.0.1, or pass --allow-unauthenticated if a proxy in front authenticates", at("addr", c.addr))
	}
	if c.authToken != "" && len(c.authToken) < 16 {
		return fmt.Errorf("%s: use at least 16 characters (e.g. openssl rand -hex 32)", src("auth-token"))
	}
	if c.maxInflight < 0 {
		return fmt.Errorf("%s: must be 0 (no limit) or positive", at("max-inflight", c.maxInflight))
	}
	if !(c.rateLimit >= 0) || math.IsInf(c.rateLimit, 0) {
		return fmt.Errorf("%s: must be 0 (off) or a positive number of requests per second, e.g. 50", at("rate-limit", c.rateLimit))
	}
	if c.rateBurst < 1 {
		return fmt.Errorf("%s: must be at least 1", at("rate-burst", c.rateBurst))
	}
	if c.maxSessions < 0 {
		return fmt.Errorf("%s: must be 0 (no limit) or positive", at("max-sessions", c.maxSessions))
	}
	if c.maxSessionsPerClient < 0 {
		return fmt.Errorf("%s: must be 0 (no limit) or positive", at("max-sessions-per-client", c.maxSessionsPerClient))
	}
	if err := positive("read-body-timeout", c.readBody, "10s"); err != nil {
		return err
	}
	if c.drainDelay < 0 {
		return fmt.Errorf("%s: must be 0 or a positive duration, e.g. 5s", at("drain-delay", c.drainDelay.String()))
	}
	if c.maxStreams < 0 {
		return fmt.Errorf("%s: must be 0 (no limit) or positive", at("max-streams", c.maxStreams))
	}
	if c.maxInflightPerClient < 0 {
		return fmt.Errorf("%s: must be 0 (no limit) or positive", at("max-inflight-per-client", c.maxInflightPerClient))
	}
	if c.metricsAddr != "" {
		host, port, err := net.SplitHostPort(c.metricsAddr)
		if err != nil {
			return fmt.Errorf("%s: want host:port, or :port for loopback", at("metrics-addr", c.metricsAddr))
		}
		if host == "" {
			c.metricsAddr = net.JoinHostPort("127.0.0.1", port)
		}
		if c.transport == "http" && c.metricsAddr == c.addr {
			return fmt.Errorf("%s: must differ from --addr, so metrics never share the MCP listener", at("metrics-addr", c.metricsAddr))
		}
	}
	if c.debugAddr != "" && !httpguard.Loopback(c.debugAddr) {
		return fmt.Errorf("%s: must be a loopback address such as 127.0.0.1:6060", at("debug-addr", c.debugAddr))
	}
	if err := positive("session-idle-ttl", c.sessionIdleTTL, "30m"); err != nil {
		return err
	}
	if err := positive("read-header-timeout", c.readHeader, "10s"); err != nil {
		return err
	}
	if err := positive("shutdown-grace", c.shutdownGrace, "25s"); err != nil {
		return err
	}
	for o := range strings.SplitSeq(v.origins, ",") {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return fmt.Errorf("%s: each origin is scheme://host[:port], e.g. http://localhost:6274", at("allowed-origins", o))
		}
		c.allowedOrigins = append(c.allowedOrigins, u.Scheme+"://"+u.Host)
	}
	for h := range strings.SplitSeq(v.hosts, ",") {
		h = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(h), "."))
		if h == "" {
			continue
		}
		if !validHostName(h) {
			return fmt.Errorf("%s: each host is a name such as flights.internal, without a scheme or a port", at("allowed-hosts", h))
		}
		c.allowedHosts = append(c.allowedHosts, h)
	}
	return nil
}

// envName is the environment variable of a flag: --log-level is
// FLIGHTSERVER_LOG_LEVEL.
func envName(flagName string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// expandHome replaces a leading "~" with the user's home directory.
func expandHome(dir string, getenv func(string) string) string {
	if dir != "~" && !strings.HasPrefix(dir, "~/") && !strings.HasPrefix(dir, `~\`) {
		return dir
	}
	home := getenv("HOME")
	if home == "" {
		home = getenv("USERPROFILE") // Windows
	}
	if home == "" {
		return dir
	}
	return filepath.Join(home, dir[1:])
}

// usageError is a problem with the command line or the environment: the
// process exits 2, as for any command given what it cannot use, and the
// message says what to change.
type usageError struct{ error }

func (u usageError) Unwrap() error { return u.error }

// validHostName reports whether h, lower case, is a host name: dot-separated
// labels of 1 to 63 letters, digits, hyphens and underscores (a container's
// service name may have them), no hyphen at either end of one.
func validHostName(h string) bool {
	if len(h) > 253 {
		return false
	}
	for label := range strings.SplitSeq(h, ".") {
		if len(label) == 0 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range []byte(label) {
			if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' && c != '_' {
				return false
			}
		}
	}
	return true
}

// openAIEndpoint reports whether baseURL (--llm-base-url) is OpenAI's own
// API, the one OPENAI_API_KEY is for: empty (the client's default) or on
// api.openai.com.
func openAIEndpoint(baseURL string) bool {
	if baseURL = strings.TrimSpace(baseURL); baseURL == "" {
		return true
	}
	u, err := url.Parse(baseURL)
	return err == nil && u.Scheme == "https" && strings.EqualFold(u.Hostname(), "api.openai.com")
}
