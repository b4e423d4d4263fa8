package state_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/flightserver/flightserver/fallback/state"
)

// FuzzOpen feeds Open arbitrary tokens and bindings. Open must never panic,
// must reject with one of the sentinels, and whatever it accepts must survive
// a re-seal unchanged.
//
// A fuzzer cannot guess an HMAC, so most inputs stop at the signature. To reach
// the code behind it (base64 and JSON decoding of the payload) each input is
// also opened re-signed with the key: an attacker cannot do that, but a leaked
// key or a bug in Seal could, and Open must still hold.
func FuzzOpen(f *testing.F) {
	s := newSealer(f, testKey, t0)
	args := mustDigest(f, map[string]any{"origin": "ZRH"})
	good := mustSeal(f, s, state.Payload{Tool: testTool, ArgsDigest: args, Step: testStep, Data: json.RawMessage(`{"ids":["a","b"]}`)})
	f.Add(good, testTool, args, testStep)
	f.Add(mustSeal(f, s, state.Payload{Tool: "t", Step: "s"}), "t", "", "s")
	f.Add(good, "other", args, testStep)
	f.Add(strings.Replace(good, "v1.", "v2.", 1), testTool, args, testStep)
	f.Add(good[:len(good)/2], testTool, args, testStep)
	f.Add("", "", "", "")
	f.Add("v1..", "", "", "")
	// Committed corpus: testdata/fuzz/FuzzOpen.

	f.Fuzz(func(t *testing.T, token, tool, argsDigest, step string) {
		check(t, s, token, tool, argsDigest, step)
		if i := strings.LastIndexByte(token, '.'); strings.HasPrefix(token, "v1.") && i >= 3 {
			check(t, s, sign(testKey, token[3:i]), tool, argsDigest, step)
		}
	})
}

func check(t *testing.T, s *state.Sealer, token, tool, argsDigest, step string) {
	p, err := s.Open(token, tool, argsDigest, step)
	if err != nil {
		known := false
		for _, e := range []error{state.ErrTooLarge, state.ErrMalformed, state.ErrForged, state.ErrExpired, state.ErrMismatch} {
			known = known || errors.Is(err, e)
		}
		if !known {
			t.Fatalf("Open: error wraps no sentinel: %v", err)
		}
		checkNoLeak(t, err.Error(), token, testKey)
		return
	}
	if p.Tool != tool || p.ArgsDigest != argsDigest || p.Step != step {
		t.Fatalf("Open accepted %+v for tool %q, args %q, step %q", p, tool, argsDigest, step)
	}

	// Re-seal the accepted fields; opening that gives the same payload, with
	// Data in the compact form Seal writes and a fresh expiry.
	tok2, err := s.Seal(p)
	if err != nil {
		if errors.Is(err, state.ErrTooLarge) {
			return // re-encoding may grow (HTML escapes, a longer expiry)
		}
		t.Fatalf("re-seal of an accepted payload: %v", err)
	}
	p2, err := s.Open(tok2, p.Tool, p.ArgsDigest, p.Step)
	if err != nil {
		t.Fatalf("re-sealed state does not open: %v", err)
	}
	wantData := []byte(nil)
	if len(p.Data) > 0 {
		wantData, _ = json.Marshal(p.Data)
	}
	if p2.Tool != p.Tool || p2.ArgsDigest != p.ArgsDigest || p2.Step != p.Step ||
		p2.Expires != t0.Add(testTTL).Unix() || !bytes.Equal(p2.Data, wantData) {
		t.Fatalf("round trip changed the payload:\n got %+v\nwant %+v (data %s)", p2, p, wantData)
	}
}
