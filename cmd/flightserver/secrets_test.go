package main

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/flightserver/flightserver/internal/fakemodel"
)

const (
	oldKey = "1f0e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"
	newKey = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
)

// Every secret flag refuses what a template holds, naming the flag or the
// variable it came from, and never the value.
func TestSecretPlaceholdersRefused(t *testing.T) {
	placeholders := []string{
		"REPLACE: openssl rand -hex 32", // a template's placeholder, word for word
		"changeme-changeme-changeme", "CHANGE_ME_PLEASE_0123456789", "<your token here>", "your-secret-token-0123456789",
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "XXXX-XXXX-XXXX-XXXX", "example-token-0123456789abcdef", "placeholder0123456789",
		"TODO: generate a token", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		"0000000000000000000000000000000000000000000000000000000000000000", "${FLIGHTSERVER_TOKEN}", "$(openssl rand -hex 32)",
		// docs/HOSTS.md's Claude Desktop snippet, as people paste it.
		"sk-...", "sk-…", "sk-proj-...", "sk-xxxxxxxxxxxxxxxx", "sk-", "sk-proj-xxxx",
	}
	for _, p := range placeholders {
		for _, tc := range []struct {
			args   []string
			env    map[string]string
			source string
		}{
			{[]string{"--auth-token", p}, nil, "--auth-token"},
			{nil, map[string]string{"FLIGHTSERVER_AUTH_TOKEN": p}, "FLIGHTSERVER_AUTH_TOKEN"},
			{[]string{"--state-key", p}, nil, "--state-key"},
			{nil, map[string]string{"FLIGHTSERVER_STATE_KEY": p}, "FLIGHTSERVER_STATE_KEY"},
			{[]string{"--state-key", newKey, "--state-key-previous", oldKey + "," + p}, nil, "--state-key-previous (key 2 of 2)"},
			{[]string{"--llm-api-key", p}, nil, "--llm-api-key"},
			{nil, map[string]string{"OPENAI_API_KEY": p}, "OPENAI_API_KEY"},
		} {
			_, err := parseConfig(tc.args, env(tc.env), io.Discard)
			if err == nil || !strings.HasPrefix(err.Error(), tc.source+" looks like a placeholder") || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s = %q: err = %v, want one line naming %s", tc.source, p, err, tc.source)
				continue
			}
			if strings.Contains(strings.ToLower(err.Error()), strings.ToLower(strings.TrimSpace(p))) {
				t.Errorf("the error echoes the value: %v", err)
			}
		}
	}
	// Generated secrets, and the ones the repository's tests and demo use,
	// pass.
	for _, real := range []string{
		oldKey, "0123456789abcdef-test-token", "sk-proj-Q2hhbmdlTWVOb3RTZWNyZXQ", "demo-key-not-secret",
		"k7Yq0Todox2Vb9Lm3Rt6Wz1Pq8Ns5Jc4Hf0Gd7Ea2Bu", // "todo" mid-string in random base64
	} {
		if why := placeholderReason(real); why != "" {
			t.Errorf("%q refused: %s", real, why)
		}
	}
}

func TestStateKeyPreviousFlag(t *testing.T) {
	c, err := parseConfig([]string{"--state-key", newKey}, env(map[string]string{"FLIGHTSERVER_STATE_KEY_PREVIOUS": oldKey + ", " + strings.ToUpper(oldKey[:64])}), io.Discard)
	if err != nil || len(c.previousKeys) != 2 || len(c.stateKey) != 32 {
		t.Fatalf("two previous keys from the environment: %v, %d keys", err, len(c.previousKeys))
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--state-key-previous", oldKey}, "--state-key-previous needs --state-key"},
		{[]string{"--state-key", newKey, "--state-key-previous", oldKey + ",not a key!"}, "--state-key-previous (key 2 of 2): state key is neither hex nor base64"},
		{[]string{"--state-key", newKey, "--state-key-previous", oldKey[:40]}, "--state-key-previous (key 1 of 1): state key has 40 hex digits"},
	} {
		_, err := parseConfig(tc.args, env(nil), io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), oldKey[:40]) {
			t.Errorf("the error echoes a key: %v", err)
		}
	}
}

// A rolling update that rotates the key: a call whose first round ran on a
// replica still signing with the old key finishes on an updated replica
// that signs with the new key and still verifies the old; a replica that
// knows only the new key refuses the state, clearly.
func TestStateKeyRotationAcrossReplicas(t *testing.T) {
	old := startHTTP(t, "--state-key", oldKey)
	updated := startHTTP(t, "--state-key", newKey, "--state-key-previous", oldKey)
	newOnly := startHTTP(t, "--state-key", newKey)
	args := map[string]any{"origin": "JFK", "destination": "LHR", "date": travelDate()}
	sampling := map[string]any{"sampling": map[string]any{}}
	first := modernCall(t, old.url+"/mcp", "findBestFlight", args, sampling, "", nil)
	st, _ := first["requestState"].(string)
	question, _ := json.Marshal(first["inputRequests"])
	ids := fakemodel.Choose(flightIDPattern.FindAllString(string(question), -1))
	if st == "" || len(ids) == 0 {
		t.Fatalf("first round: %v", first)
	}
	answer := map[string]any{"rank": map[string]any{"role": "assistant", "model": "m",
		"content": map[string]any{"type": "text", "text": fakemodel.Answer(ids...)}}}

	r := modernCall(t, updated.url+"/mcp", "findBestFlight", args, sampling, st, answer)
	sc, _ := r["structuredContent"].(map[string]any)
	if r["isError"] == true || sc["method"] != "client_sampling" {
		t.Errorf("the updated replica did not finish the call the old one started: %v", r)
	}
	r = modernCall(t, newOnly.url+"/mcp", "findBestFlight", args, sampling, st, answer)
	b, _ := json.Marshal(r)
	if r["isError"] != true || !strings.Contains(string(b), "sealed with another key") {
		t.Errorf("a replica without the old key opened its state: %s", b)
	}
	for _, h := range []*httpServer{old, updated, newOnly} {
		if strings.Contains(h.stderr.String(), oldKey[:16]) || strings.Contains(h.stderr.String(), newKey[:16]) {
			t.Error("a key appeared in the log")
		}
	}
}
