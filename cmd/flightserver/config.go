package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/url"
	"runtime/debug"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/llm"
	"github.com/flightserver/flightserver/ranking"
	"github.com/flightserver/flightserver/tools"
	"github.com/flightserver/flightserver/tools/state"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3";
// otherwise the module version from the build info is used.
var version = ""

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

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

	transport      string
	addr           string
	allowedOrigins []string
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

// parseConfig reads flags, then fills every flag not given from its
// environment variable, then checks the combination. Any problem is one line
// that names the flag (or variable) and what it accepts.
func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	var (
		c        config
		origins  string
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
	fs.StringVar(&level, "log-level", "info", "debug, info, warn or error")
	fs.StringVar(&c.logFormat, "log-format", "json", "json (one object a line) or console (for people)")
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
			fmt.Fprintf(stderr, "Usage: flightserver [flags]\n\nAn MCP server that finds flights. Every flag but --version and --load-test-tools also reads %s<FLAG> (e.g. %sLOG_LEVEL).\n\n", envPrefix, envPrefix)
			fs.SetOutput(stderr)
			fs.PrintDefaults()
		}
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q: flightserver takes only flags (see --help)", fs.Arg(0))
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		name := envPrefix + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v := getenv(name); v != "" && !given[f.Name] && !commandLineOnly[f.Name] && envErr == nil {
			if err := fs.Set(f.Name, v); err != nil {
				envErr = fmt.Errorf("%s=%q: %v", name, v, err)
				if secretFlags[f.Name] {
					envErr = fmt.Errorf("%s: not a valid value", name)
				}
			}
		}
	})
	if envErr != nil {
		return c, envErr
	}
	// The OpenAI SDKs' own variable, for people who already have it set.
	if c.llm.APIKey == "" {
		c.llm.APIKey = getenv("OPENAI_API_KEY")
	}

	switch c.transport {
	case "stdio", "http":
	default:
		return c, fmt.Errorf("--transport %q: use stdio or http", c.transport)
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
		return c, fmt.Errorf("--addr %q: want host:port, e.g. 127.0.0.1:8080 (%v)", c.addr, err)
	}
	lvl, err := zerolog.ParseLevel(strings.ToLower(level))
	if err != nil || level == "" || lvl == zerolog.NoLevel {
		return c, fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
	}
	c.logLevel = lvl
	switch c.logFormat {
	case "json", "console":
	default:
		return c, fmt.Errorf("--log-format %q: use json or console", c.logFormat)
	}
	if c.maxBodyBytes < 1024 {
		return c, fmt.Errorf("--max-body-bytes %d: must be at least 1024", c.maxBodyBytes)
	}
	for _, w := range []float64{c.weights.StopPenaltyUSD, c.weights.HourCostUSD} {
		if !(w >= 0) || math.IsInf(w, 0) { // also catches NaN
			return c, errors.New("--stop-penalty-usd and --hour-cost-usd must be finite amounts, not negative")
		}
	}
	switch sampling {
	case "on", "off":
		c.sampling = sampling == "on"
	default:
		return c, fmt.Errorf("--sampling %q: use on or off", sampling)
	}
	if c.samplingTimeout <= 0 || c.callBudget <= 0 {
		return c, errors.New("--sampling-timeout and --call-budget must be positive durations, e.g. 20s")
	}
	for _, p := range []float64{c.samplingPrefs.CostPriority, c.samplingPrefs.SpeedPriority, c.samplingPrefs.IntelligencePriority} {
		if !(p >= 0 && p <= 1) {
			return c, errors.New("--sampling-cost-priority, --sampling-speed-priority and --sampling-intelligence-priority must be between 0 and 1")
		}
	}
	if c.samplingPrefs.MaxTokens < 64 || c.samplingPrefs.MaxTokens > 16384 {
		return c, fmt.Errorf("--sampling-max-tokens %d: must be between 64 and 16384", c.samplingPrefs.MaxTokens)
	}
	for h := range strings.SplitSeq(hints, ",") {
		if h = strings.TrimSpace(h); h != "" {
			c.samplingPrefs.ModelHints = append(c.samplingPrefs.ModelHints, h)
		}
	}
	switch ranking.Tier(fallback) {
	case ranking.Deterministic, ranking.Candidates:
		c.fallback = ranking.Tier(fallback)
	default:
		return c, fmt.Errorf("--fallback %q: use deterministic or candidates", fallback)
	}
	switch c.serverLLMFirst {
	case tools.ServerLLMFirstNever, tools.ServerLLMFirstModern, tools.ServerLLMFirstAlways:
	default:
		return c, fmt.Errorf("--server-llm-first %q: use never, modern or always", c.serverLLMFirst)
	}
	if c.shortlist < 1 || c.shortlist > 47 {
		return c, fmt.Errorf("--candidates %d: must be between 1 and 47", c.shortlist)
	}
	if c.rootsTimeout <= 0 || c.elicitationTimeout <= 0 {
		return c, errors.New("--roots-timeout and --elicitation-timeout must be positive durations, e.g. 5s")
	}
	if c.llm.Timeout <= 0 {
		return c, errors.New("--llm-timeout must be a positive duration, e.g. 15s")
	}
	if c.llm.BaseURL != "" {
		if u, err := url.Parse(c.llm.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return c, errors.New("--llm-base-url: want an http(s) URL such as http://localhost:11434/v1")
		}
	}
	source := func(flagName string) string {
		if given[flagName] {
			return "--" + flagName
		}
		return envPrefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
	}
	llmSource := source("llm-api-key")
	if !given["llm-api-key"] && getenv(envPrefix+"LLM_API_KEY") == "" {
		llmSource = "OPENAI_API_KEY"
	}
	// A token read from a file ends in a newline, which no client sends:
	// kept, it made every request 401.
	for _, sec := range []struct {
		source string
		value  *string
	}{{source("auth-token"), &c.authToken}, {llmSource, &c.llm.APIKey}} {
		trimmed := strings.TrimSpace(*sec.value)
		if trimmed == *sec.value {
			continue
		}
		if trimmed == "" {
			return c, fmt.Errorf("%s is only white space: set the secret itself, or leave it unset", sec.source)
		}
		*sec.value = trimmed
		c.trimmedSecrets = append(c.trimmedSecrets, sec.source)
	}
	for _, sec := range []struct{ source, value string }{
		{source("auth-token"), c.authToken}, {source("state-key"), stateKey}, {llmSource, c.llm.APIKey},
	} {
		if err := checkSecret(sec.source, sec.value); err != nil {
			return c, err
		}
	}
	if stateKey != "" {
		key, err := state.ParseKey(stateKey)
		if err != nil {
			return c, fmt.Errorf("%s: %v", source("state-key"), err)
		}
		c.stateKey = key
	}
	if previous != "" {
		if c.stateKey == nil {
			return c, fmt.Errorf("%s needs --state-key: the previous keys only verify, the current one signs", source("state-key-previous"))
		}
		parts := strings.Split(previous, ",")
		for i, p := range parts {
			where := fmt.Sprintf("%s (key %d of %d)", source("state-key-previous"), i+1, len(parts))
			if err := checkSecret(where, p); err != nil {
				return c, err
			}
			key, err := state.ParseKey(p)
			if err != nil {
				return c, fmt.Errorf("%s: %v", where, err)
			}
			c.previousKeys = append(c.previousKeys, key)
		}
	}
	if c.transport == "http" && c.authToken == "" && !c.allowUnauthenticated && !loopback(c.addr) {
		return c, fmt.Errorf("--addr %s is reachable from other machines and no --auth-token is set: set a token (FLIGHTSERVER_AUTH_TOKEN), "+
			"listen on 127.0.0.1, or pass --allow-unauthenticated if a proxy in front authenticates", c.addr)
	}
	if c.authToken != "" && len(c.authToken) < 16 {
		return c, errors.New("--auth-token: use at least 16 characters (e.g. openssl rand -hex 32)")
	}
	if c.maxInflight < 0 || c.rateBurst < 1 || !(c.rateLimit >= 0) || math.IsInf(c.rateLimit, 0) {
		return c, errors.New("--max-inflight and --rate-limit must be 0 (off) or positive, and --rate-burst at least 1")
	}
	if c.maxSessions < 0 || c.maxSessionsPerClient < 0 {
		return c, errors.New("--max-sessions and --max-sessions-per-client must be 0 (off) or positive")
	}
	if c.maxStreams < 0 || c.maxInflightPerClient < 0 {
		return c, errors.New("--max-streams and --max-inflight-per-client must be 0 (off) or positive")
	}
	if c.readBody <= 0 || c.drainDelay < 0 {
		return c, errors.New("--read-body-timeout must be a positive duration, e.g. 10s, and --drain-delay 0 or positive")
	}
	if c.metricsAddr != "" {
		host, port, err := net.SplitHostPort(c.metricsAddr)
		if err != nil {
			return c, fmt.Errorf("--metrics-addr %s: want host:port, or :port for loopback", c.metricsAddr)
		}
		if host == "" {
			c.metricsAddr = net.JoinHostPort("127.0.0.1", port)
		}
		if c.transport == "http" && c.metricsAddr == c.addr {
			return c, fmt.Errorf("--metrics-addr %s: must differ from --addr, so metrics never share the MCP listener", c.metricsAddr)
		}
	}
	if c.debugAddr != "" && !loopback(c.debugAddr) {
		return c, fmt.Errorf("--debug-addr %s: must be a loopback address such as 127.0.0.1:6060", c.debugAddr)
	}
	if c.sessionIdleTTL <= 0 {
		return c, errors.New("--session-idle-ttl must be a positive duration, e.g. 30m")
	}
	if c.readHeader <= 0 || c.shutdownGrace <= 0 {
		return c, errors.New("--read-header-timeout and --shutdown-grace must be positive durations, e.g. 10s")
	}
	for o := range strings.SplitSeq(origins, ",") {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return c, fmt.Errorf("--allowed-origins %q: each origin is scheme://host[:port], e.g. http://localhost:6274", o)
		}
		c.allowedOrigins = append(c.allowedOrigins, u.Scheme+"://"+u.Host)
	}
	return c, nil
}

// loopback reports whether addr (host:port) listens on the loopback
// interface only. A wildcard or an empty host listens everywhere; a name
// other than localhost could resolve anywhere, so it counts as reachable.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	return err == nil && loopbackHost(host)
}

// loopbackHost reports whether host (a Host header: a name or an address,
// with or without a port and brackets) names the loopback interface.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
