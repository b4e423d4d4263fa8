package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/ranking"
	"github.com/flightserver/flightserver/tools"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestConfigDefaultsFlagsAndEnvironment(t *testing.T) {
	c, err := parseConfig(nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.transport != "stdio" || c.addr != "127.0.0.1:8080" || c.logLevel != zerolog.InfoLevel || c.logFormat != "json" || c.maxBodyBytes != 1<<20 || c.weights != ranking.DefaultWeights {
		t.Errorf("defaults = %+v", c)
	}

	c, err = parseConfig([]string{"--addr", "127.0.0.1:9000"}, env(map[string]string{
		"FLIGHTSERVER_TRANSPORT":       "http",
		"FLIGHTSERVER_ADDR":            "0.0.0.0:1", // the flag wins
		"FLIGHTSERVER_LOG_LEVEL":       "DEBUG",
		"FLIGHTSERVER_ALLOWED_ORIGINS": "http://localhost:6274/, https://app.example",
		"FLIGHTSERVER_HOUR_COST_USD":   "35.5",
	}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	// A deployment's FLIGHTSERVER_VERSION names its image, and must not turn
	// the server into a version printer; test-only switches are not read
	// from the environment either.
	if c, err := parseConfig(nil, env(map[string]string{"FLIGHTSERVER_VERSION": "0.1.0", "FLIGHTSERVER_LOAD_TEST_TOOLS": "true"}), io.Discard); err != nil || c.showVersion || c.loadTestTools {
		t.Errorf("FLIGHTSERVER_VERSION / FLIGHTSERVER_LOAD_TEST_TOOLS from the environment: %+v, %v", c, err)
	}
	// Over stdio the HTTP-only flags given are named, for run to warn about.
	if c, err := parseConfig([]string{"--debug-addr", "127.0.0.1:6061", "--log-level", "warn"}, env(map[string]string{"FLIGHTSERVER_MAX_SESSIONS": "5"}), io.Discard); err != nil ||
		strings.Join(c.httpOnlyIgnored, " ") != "--debug-addr --max-sessions" {
		t.Errorf("HTTP-only flags over stdio: %v, %v", c.httpOnlyIgnored, err)
	}
	if c.transport != "http" || c.addr != "127.0.0.1:9000" || c.logLevel != zerolog.DebugLevel || len(c.httpOnlyIgnored) != 0 ||
		strings.Join(c.allowedOrigins, " ") != "http://localhost:6274 https://app.example" || c.weights.HourCostUSD != 35.5 {
		t.Errorf("config = %+v", c)
	}
}

func TestConfigRejectsWithOneLineReason(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--transport", "sse"}, nil, `--transport "sse": use stdio or http`},
		{[]string{"--addr", "8080"}, nil, `--addr "8080": want host:port`},
		{[]string{"--log-level", "loud"}, nil, `--log-level "loud"`},
		{[]string{"--log-format", "xml"}, nil, `--log-format "xml": use auto, json or console`},
		{[]string{"--max-body-bytes", "10"}, nil, "at least 1024"},
		{[]string{"--allowed-origins", "localhost:6274"}, nil, "scheme://host[:port]"},
		{[]string{"--allowed-hosts", "flights.internal:8080"}, nil, `--allowed-hosts "flights.internal:8080": each host is a name such as flights.internal, without a scheme or a port`},
		{nil, map[string]string{"FLIGHTSERVER_ALLOWED_HOSTS": "ok.example, http://flights.internal"}, `FLIGHTSERVER_ALLOWED_HOSTS="http://flights.internal"`},
		{[]string{"--allowed-hosts", "-bad.example"}, nil, "each host is a name"},
		{[]string{"--shutdown-grace", "-1s"}, nil, `--shutdown-grace "-1s": must be a positive duration, e.g. 25s`},
		{[]string{"--stop-penalty-usd", "-5"}, nil, "not negative"},
		{[]string{"--hour-cost-usd", "NaN"}, nil, "--hour-cost-usd NaN: must be a finite amount"},
		{[]string{"--fallback", "random"}, nil, `--fallback "random": use deterministic or candidates`},
		{[]string{"--candidates", "0"}, nil, "between 1 and 47"},
		{[]string{"--llm-base-url", "localhost:11434"}, nil, "want an http(s) URL"},
		{[]string{"--sampling", "maybe"}, nil, `--sampling "maybe": use on or off`},
		{[]string{"--state-key", "too-short"}, nil, "--state-key"},
		{[]string{"serve"}, nil, `unexpected argument "serve"`},
		{[]string{"--no-such-flag"}, nil, "unknown flag --no-such-flag: flightserver --help lists the flags"},
		{[]string{"-no-such-flag"}, nil, "unknown flag --no-such-flag"},
		{[]string{"--addr"}, nil, "--addr needs a value"},
		// Durations say how to write one, on the command line and in
		// the environment alike.
		{[]string{"--sampling-timeout", "20"}, nil, `--sampling-timeout "20": not a duration: write it like 20s, 1m30s or 500ms`},
		{nil, map[string]string{"FLIGHTSERVER_CALL_BUDGET": "soon"}, `FLIGHTSERVER_CALL_BUDGET="soon": not a duration: write it like 20s`},
		{[]string{"--candidates", "ten"}, nil, `--candidates "ten": not a whole number, e.g. 10`},
		{[]string{"--shared-filesystem=maybe"}, nil, `--shared-filesystem "maybe": use true or false`},
		// A value read from the environment is named by its variable.
		{nil, map[string]string{"FLIGHTSERVER_TRANSPORT": "sse"}, `FLIGHTSERVER_TRANSPORT="sse": use stdio or http`},
		{nil, map[string]string{"FLIGHTSERVER_CANDIDATES": "99"}, `FLIGHTSERVER_CANDIDATES=99: must be between 1 and 47`},
		{nil, map[string]string{"FLIGHTSERVER_ROOTS_TIMEOUT": "-5s"}, `FLIGHTSERVER_ROOTS_TIMEOUT="-5s": must be a positive duration, e.g. 5s`},
		{nil, map[string]string{"FLIGHTSERVER_LLM_BASE_URL": "localhost:11434"}, "FLIGHTSERVER_LLM_BASE_URL: want an http(s) URL"},
		{[]string{"--transport", "http"}, map[string]string{"FLIGHTSERVER_ADDR": "0.0.0.0:8080"}, "FLIGHTSERVER_ADDR=\"0.0.0.0:8080\" is reachable from other machines"},
		{nil, map[string]string{"FLIGHTSERVER_MAX_BODY_BYTES": "lots"}, `FLIGHTSERVER_MAX_BODY_BYTES="lots"`},
	} {
		t.Run(strings.Join(tc.args, " ")+tc.want, func(t *testing.T) {
			_, err := parseConfig(tc.args, env(tc.env), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want one line containing %q", err, tc.want)
			}
		})
	}
}

func TestRunVersionAndBadFlags(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"--version"}, env(nil), nil, &out, io.Discard); err != nil || !strings.HasPrefix(out.String(), "flightserver ") {
		t.Errorf("--version: %v %q", err, out.String())
	}
	if err := run(context.Background(), []string{"--transport", "carrier-pigeon"}, env(nil), nil, io.Discard, io.Discard); err == nil {
		t.Error("bad transport: no error")
	}
	var help bytes.Buffer
	if err := run(context.Background(), []string{"--help"}, env(nil), nil, io.Discard, &help); !errors.Is(err, errHelp) || !strings.Contains(help.String(), "-stop-penalty-usd") {
		t.Errorf("--help: %v\n%s", err, help.String())
	}
	var bad bytes.Buffer
	if err := run(context.Background(), []string{"--bogus"}, env(nil), nil, io.Discard, &bad); err == nil || bad.Len() != 0 {
		t.Errorf("--bogus: err %v, and it printed %q (the one-line reason is main's to print)", err, bad.String())
	}
}

// A choice among words is read whatever its case and the space around it,
// as a host's settings form may write it; a word that is none of them is
// still refused.
func TestConfigReadsWordsLeniently(t *testing.T) {
	c, err := parseConfig([]string{"--fallback", " Candidates ", "--sampling", "OFF", "--log-format", "JSON", "--log-level", "Warn ", "--transport", "HTTP",
		"--llm-base-url", " http://localhost:11434/v1 ", "--llm-model", "llama3.2 "},
		env(map[string]string{"FLIGHTSERVER_SERVER_LLM_FIRST": "Modern"}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.fallback != ranking.Candidates || c.sampling || c.logFormat != "json" || c.logLevel != zerolog.WarnLevel || c.transport != "http" ||
		c.serverLLMFirst != tools.ServerLLMFirstModern || c.llm.BaseURL != "http://localhost:11434/v1" || c.llm.Model != "llama3.2" {
		t.Errorf("read as %q %v %q %v %q %q %q %q", c.fallback, c.sampling, c.logFormat, c.logLevel, c.transport, c.serverLLMFirst, c.llm.BaseURL, c.llm.Model)
	}
	if _, err := parseConfig([]string{"--fallback", "random"}, env(nil), io.Discard); err == nil {
		t.Error("--fallback random was accepted")
	}
}

func TestConfigLLMKeyFromEnvironment(t *testing.T) {
	c, err := parseConfig(nil, env(map[string]string{"OPENAI_API_KEY": "sk-from-openai-var"}), io.Discard)
	if err != nil || c.llm.APIKey != "sk-from-openai-var" || !c.llm.Configured() {
		t.Errorf("OPENAI_API_KEY: %v %v", err, c.llm.Configured())
	}
	c, err = parseConfig([]string{"--llm-api-key", "sk-flag"}, env(map[string]string{"OPENAI_API_KEY": "sk-env", "FLIGHTSERVER_LLM_API_KEY": "sk-ours"}), io.Discard)
	if err != nil || c.llm.APIKey != "sk-flag" {
		t.Errorf("the flag must win: %v", err)
	}
	// OPENAI_API_KEY is OpenAI's: it goes to OpenAI's API, never to a local
	// model or a gateway another base URL names.
	for _, tc := range []struct {
		base string
		sent bool
	}{
		{"", true},
		{"https://api.openai.com/v1", true},
		{"https://API.OpenAI.com:443/v1/", true},
		{"http://localhost:11434/v1", false},
		{"https://gateway.example/openai/v1", false},
		{"http://api.openai.com/v1", false}, // not over TLS
		{"https://api.openai.com.evil.example/v1", false},
	} {
		var args []string
		if tc.base != "" {
			args = []string{"--llm-base-url", tc.base}
		}
		c, err := parseConfig(args, env(map[string]string{"OPENAI_API_KEY": "sk-from-openai-var"}), io.Discard)
		if err != nil || (c.llm.APIKey == "sk-from-openai-var") != tc.sent || c.openAIKeyWithheld == tc.sent {
			t.Errorf("base URL %q: key %q, withheld %v, %v; want it used: %v", tc.base, c.llm.APIKey, c.openAIKeyWithheld, err, tc.sent)
		}
	}
	c, err = parseConfig([]string{"--llm-base-url", "http://localhost:11434/v1"}, env(map[string]string{"OPENAI_API_KEY": "sk-env", "FLIGHTSERVER_LLM_API_KEY": "ollama"}), io.Discard)
	if err != nil || c.llm.APIKey != "ollama" || c.openAIKeyWithheld {
		t.Errorf("the endpoint's own key: %q, withheld %v, %v", c.llm.APIKey, c.openAIKeyWithheld, err)
	}
	// A bad state key is refused without being echoed.
	_, err = parseConfig(nil, env(map[string]string{"FLIGHTSERVER_STATE_KEY": "SECRET-but-short"}), io.Discard)
	if err == nil || strings.Contains(err.Error(), "SECRET") {
		t.Errorf("bad state key: %v", err)
	}
}
