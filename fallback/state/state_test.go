package state_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flightserver/flightserver/fallback/state"
)

var (
	testKey  = bytes.Repeat([]byte{0x42}, 32)
	otherKey = bytes.Repeat([]byte{0x24}, 32)
	t0       = time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
)

const (
	testTTL  = 5 * time.Minute
	testMax  = 4096
	testTool = "findBestFlight"
	testStep = "sample"
)

func fixedClock(t time.Time) func() time.Time { return func() time.Time { return t } }

func newSealer(t testing.TB, key []byte, now time.Time) *state.Sealer {
	t.Helper()
	s, err := state.New(key, fixedClock(now), testTTL, testMax)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustDigest(t testing.TB, args any) string {
	t.Helper()
	d, err := state.Digest(args)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustSeal(t testing.TB, s *state.Sealer, p state.Payload) string {
	t.Helper()
	tok, err := s.Seal(p)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// sign builds a token from raw payload bytes the way the documented format
// says, independently of Seal: what a holder of the key (or a bug) could make.
func sign(key []byte, payloadPart string) string {
	signed := "v1." + payloadPart
	h := hmac.New(sha256.New, key)
	h.Write([]byte(signed))
	return signed + "." + base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

func signJSON(key []byte, body string) string {
	return sign(key, base64.RawURLEncoding.EncodeToString([]byte(body)))
}

// flip replaces the character at i with another base64url character.
func flip(tok string, i int) string {
	c := byte('A')
	if tok[i] == 'A' {
		c = 'B'
	}
	return tok[:i] + string(c) + tok[i+1:]
}

func parts(tok string) (payload, mac string) {
	p := strings.Split(tok, ".")
	return p[1], p[2]
}

func TestRoundTrip(t *testing.T) {
	s := newSealer(t, testKey, t0)
	args := mustDigest(t, map[string]any{"origin": "ZRH", "destination": "LIS", "date": "2026-09-01"})
	in := state.Payload{Tool: testTool, ArgsDigest: args, Step: testStep, Expires: 1, Data: json.RawMessage(`{ "ids": ["a", "b"] }`)}
	tok := mustSeal(t, s, in)

	// The documented format, checked from the outside.
	if !strings.HasPrefix(tok, "v1.") || strings.Count(tok, ".") != 2 || strings.ContainsAny(tok, "=+/") {
		t.Fatalf("token %q does not look like v1.<base64url>.<base64url>", tok)
	}
	if got := signJSON(testKey, mustDecode(t, tok)); got != tok {
		t.Fatalf("MAC is not HMAC-SHA256(key, \"v1.\"+payload)")
	}

	got, err := s.Open(tok, testTool, args, testStep)
	if err != nil {
		t.Fatal(err)
	}
	want := in
	want.Expires = t0.Add(testTTL).Unix() // Seal sets it, whatever the caller passed
	want.Data = json.RawMessage(`{"ids":["a","b"]}`)
	if got.Tool != want.Tool || got.ArgsDigest != want.ArgsDigest || got.Step != want.Step ||
		got.Expires != want.Expires || !bytes.Equal(got.Data, want.Data) {
		t.Fatalf("Open = %+v, want %+v", got, want)
	}

	// Another replica with the same key opens it too; no Data is fine.
	replica := newSealer(t, append([]byte(nil), testKey...), t0.Add(time.Minute))
	if _, err := replica.Open(tok, testTool, args, testStep); err != nil {
		t.Fatalf("replica with the same key: %v", err)
	}
	tok = mustSeal(t, s, state.Payload{Tool: testTool, ArgsDigest: args, Step: testStep})
	if p, err := s.Open(tok, testTool, args, testStep); err != nil || p.Data != nil {
		t.Fatalf("no Data: %+v, %v", p, err)
	}
}

func mustDecode(t *testing.T, tok string) string {
	t.Helper()
	payload, _ := parts(tok)
	b, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestOpenRejects(t *testing.T) {
	s := newSealer(t, testKey, t0)
	args := mustDigest(t, map[string]any{"origin": "ZRH"})
	p := state.Payload{Tool: testTool, ArgsDigest: args, Step: testStep, Data: json.RawMessage(`{"n":1}`)}
	good := mustSeal(t, s, p)
	p.Data = json.RawMessage(`{"n":2}`)
	good2 := mustSeal(t, s, p)
	gp, gm := parts(good)
	gp2, _ := parts(good2)
	_, gm2 := parts(good2)
	validJSON := func(exp int64) string {
		return fmt.Sprintf(`{"tool":%q,"args":%q,"step":%q,"exp":%d}`, testTool, args, testStep, exp)
	}

	tests := []struct {
		name    string
		token   string
		clock   time.Time // zero: t0
		tool    string    // empty: testTool
		args    string    // empty: args
		step    string    // empty: testStep
		want    error
		message string // must appear in the error
	}{
		// size, before anything else
		{name: "oversized garbage", token: strings.Repeat("x", testMax+1), want: state.ErrTooLarge, message: "limit is 4096"},
		{name: "oversized v1", token: "v1." + strings.Repeat("A", testMax) + "." + gm, want: state.ErrTooLarge},

		// shape and version
		{name: "empty", token: "", want: state.ErrMalformed, message: "want v1.<payload>.<signature>"},
		{name: "no dots", token: "hello", want: state.ErrMalformed},
		{name: "version only", token: "v1", want: state.ErrMalformed},
		{name: "missing parts", token: "v1.", want: state.ErrMalformed},
		{name: "missing mac", token: "v1." + gp, want: state.ErrMalformed},
		{name: "empty payload", token: "v1.." + gm, want: state.ErrMalformed},
		{name: "empty mac", token: "v1." + gp + ".", want: state.ErrMalformed},
		{name: "four parts", token: good + ".x", want: state.ErrMalformed},
		{name: "v2 prefix", token: "v2." + gp + "." + gm, want: state.ErrMalformed, message: `unsupported version "v2"`},
		{name: "upper-case V1", token: "V1." + gp + "." + gm, want: state.ErrMalformed, message: "version"},
		{name: "long version clipped", token: strings.Repeat("v", 200) + "." + gp + "." + gm, want: state.ErrMalformed, message: "..."},
		{name: "bad base64 in payload", token: "v1." + gp[:5] + "$" + gp[6:] + "." + gm, want: state.ErrMalformed, message: "base64url"},
		{name: "bad base64 in mac", token: "v1." + gp + "." + gm[:5] + "*" + gm[6:], want: state.ErrMalformed},
		{name: "padded mac", token: good + "=", want: state.ErrMalformed},
		{name: "standard base64 alphabet", token: "v1." + gp + "." + strings.Repeat("+", len(gm)), want: state.ErrMalformed},
		{name: "newline in mac", token: "v1." + gp + "." + gm[:10] + "\n" + gm[10:], want: state.ErrMalformed},
		{name: "short mac", token: "v1." + gp + "." + gm[:22], want: state.ErrMalformed, message: "32 bytes"},
		{name: "non-canonical mac bits", token: "v1." + gp + "." + gm[:len(gm)-1] + "B", want: state.ErrMalformed},

		// signature
		{name: "flipped byte in payload", token: "v1." + flip(gp, 10) + "." + gm, want: state.ErrForged, message: "another key"},
		{name: "flipped byte in mac", token: "v1." + gp + "." + flip(gm, 10), want: state.ErrForged},
		{name: "swapped payload", token: "v1." + gp2 + "." + gm, want: state.ErrForged},
		{name: "swapped mac", token: "v1." + gp + "." + gm2, want: state.ErrForged},
		{name: "wrong key", token: mustSeal(t, newSealer(t, otherKey, t0), state.Payload{Tool: testTool, ArgsDigest: args, Step: testStep}), want: state.ErrForged},
		{name: "made-up payload", token: "v1." + base64.RawURLEncoding.EncodeToString([]byte(validJSON(math.MaxInt64))) + "." + gm, want: state.ErrForged},

		// validly signed, yet not ours: only a bug or a leaked key gets here
		{name: "valid mac over non-JSON", token: signJSON(testKey, "not json"), want: state.ErrMalformed, message: "JSON"},
		{name: "valid mac over JSON array", token: signJSON(testKey, `[1,2]`), want: state.ErrMalformed},
		{name: "valid mac over wrong types", token: signJSON(testKey, `{"tool":1}`), want: state.ErrMalformed},
		{name: "valid mac over trailing garbage", token: signJSON(testKey, validJSON(t0.Unix()+60)+"x"), want: state.ErrMalformed},
		{name: "valid mac over bad base64", token: sign(testKey, gp+"A"), want: state.ErrMalformed, message: "base64url"},

		// expiry: good through its Expires second, then gone
		{name: "expired", token: good, clock: t0.Add(testTTL + time.Second), want: state.ErrExpired, message: "state expired 1s ago"},
		{name: "long expired", token: good, clock: t0.Add(testTTL + time.Hour), want: state.ErrExpired, message: "expired 1h0m0s ago"},
		{name: "expires zero", token: signJSON(testKey, validJSON(0)), want: state.ErrExpired},
		{name: "last second", token: good, clock: t0.Add(testTTL + 999*time.Millisecond)},

		// binding
		{name: "other tool", token: good, tool: "bookFlight", want: state.ErrMismatch, message: "sealed for another tool"},
		{name: "other args", token: good, args: mustDigest(t, map[string]any{"origin": "GVA"}), want: state.ErrMismatch, message: "sealed for other arguments"},
		{name: "other step", token: good, step: "elicit", want: state.ErrMismatch, message: "sealed for another step"},
		{name: "expired beats mismatch", token: good, clock: t0.Add(time.Hour), tool: "bookFlight", want: state.ErrExpired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := t0
			if !tt.clock.IsZero() {
				clock = tt.clock
			}
			tool, a, step := or(tt.tool, testTool), or(tt.args, args), or(tt.step, testStep)
			_, err := newSealer(t, testKey, clock).Open(tt.token, tool, a, step)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Open: %v", err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Open = %v, want %v", err, tt.want)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.message) {
				t.Errorf("error %q does not say %q", msg, tt.message)
			}
			checkNoLeak(t, msg, tt.token, testKey)
		})
	}
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// checkNoLeak fails if msg holds the key in any spelling (unless the token
// itself did: an error may quote up to 40 bytes of it), the whole token (when
// longer than those 40 bytes), or is unreasonably long.
func checkNoLeak(t *testing.T, msg, token string, key []byte) {
	t.Helper()
	for _, k := range []string{string(key), hex.EncodeToString(key), base64.StdEncoding.EncodeToString(key), base64.RawURLEncoding.EncodeToString(key)} {
		if strings.Contains(msg, k) && !strings.Contains(token, k) {
			t.Errorf("error contains the key: %q", msg)
		}
	}
	if len(token) > 40 {
		// What the error may show of a token: its first 40 bytes, quoted.
		// The quote's own closing mark can be the token's next byte, so
		// only what is left beside that shows whether it leaks the rest.
		rest := strings.ReplaceAll(msg, strconv.Quote(token[:40])+"...", "")
		if strings.Contains(rest, token) || strings.Contains(rest, strconv.Quote(token)) {
			t.Errorf("error contains the whole token: %q", msg)
		}
	}
	if len(msg) > 300 {
		t.Errorf("error is %d bytes long: %q", len(msg), msg)
	}
}

func TestSealTooLarge(t *testing.T) {
	s, err := state.New(testKey, nil, time.Minute, 200)
	if err != nil {
		t.Fatal(err)
	}
	big := json.RawMessage(`"` + strings.Repeat("x", 200) + `"`)
	if _, err := s.Seal(state.Payload{Tool: testTool, Data: big}); !errors.Is(err, state.ErrTooLarge) {
		t.Fatalf("Seal = %v, want ErrTooLarge", err)
	}
	if _, err := s.Seal(state.Payload{Tool: testTool, Data: json.RawMessage(`{not json`)}); err == nil || errors.Is(err, state.ErrTooLarge) {
		t.Fatalf("Seal of invalid Data = %v, want an encoding error", err)
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name    string
		key     []byte
		ttl     time.Duration
		maxSize int
		ok      bool
	}{
		{"ok", testKey, time.Minute, 1024, true},
		{"short key", testKey[:31], time.Minute, 1024, false},
		{"nil key", nil, time.Minute, 1024, false},
		{"zero ttl", testKey, 0, 1024, false},
		{"negative ttl", testKey, -time.Second, 1024, false},
		{"zero size", testKey, time.Minute, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := state.New(tt.key, nil, tt.ttl, tt.maxSize)
			if (err == nil) != tt.ok {
				t.Fatalf("New: err = %v, want ok = %v", err, tt.ok)
			}
		})
	}

	// The Sealer keeps its own copy of the key.
	key := append([]byte(nil), testKey...)
	s, _ := state.New(key, fixedClock(t0), time.Minute, 1024)
	tok := mustSeal(t, s, state.Payload{Tool: testTool})
	key[0] ^= 1
	if _, err := s.Open(tok, testTool, "", ""); err != nil {
		t.Fatalf("changing the caller's key slice changed the Sealer: %v", err)
	}
}

func TestConcurrent(t *testing.T) {
	s, err := state.New(testKey, nil, time.Minute, testMax)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 100 {
				step := fmt.Sprintf("step-%d-%d", i, j)
				tok, err := s.Seal(state.Payload{Tool: testTool, ArgsDigest: "d", Step: step})
				if err == nil {
					_, err = s.Open(tok, testTool, "d", step)
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestDigest(t *testing.T) {
	type trip struct {
		Origin      string `json:"origin"`
		Destination string `json:"destination"`
	}
	same := []struct {
		name string
		a, b any
	}{
		{"key order", map[string]any{"a": 1, "b": "x"}, json.RawMessage(`{"b":"x","a":1}`)},
		{"nested maps", map[string]any{"x": map[string]any{"b": 1, "a": []any{map[string]any{"d": true, "c": nil}}}},
			json.RawMessage(`{"x":{"a":[{"c":null,"d":true}],"b":1}}`)},
		{"struct and map", trip{"ZRH", "LIS"}, map[string]any{"destination": "LIS", "origin": "ZRH"}},
		{"whitespace", json.RawMessage(`{"a": [1, 2]}`), json.RawMessage(`{"a":[1,2]}`)},
		{"nil and {}", nil, map[string]any{}},
		{"nil map and {}", map[string]any(nil), json.RawMessage(`{}`)},
		{"null and {}", json.RawMessage(`null`), struct{}{}},
		{"float64 from a decoded call", map[string]any{"n": 2.0}, json.RawMessage(`{"n":2}`)},
	}
	for _, tt := range same {
		t.Run("same/"+tt.name, func(t *testing.T) {
			if a, b := mustDigest(t, tt.a), mustDigest(t, tt.b); a != b {
				t.Fatalf("%v and %v digest differently: %s, %s", tt.a, tt.b, a, b)
			}
		})
	}

	different := []struct {
		name string
		a, b any
	}{
		{"value", map[string]any{"a": 1}, map[string]any{"a": 2}},
		{"key", map[string]any{"a": 1}, map[string]any{"b": 1}},
		{"string and number", map[string]any{"a": "1"}, map[string]any{"a": 1}},
		{"nested value", map[string]any{"x": map[string]any{"a": 1}}, map[string]any{"x": map[string]any{"a": 1.5}}},
		{"array order", []any{1, 2}, []any{2, 1}},
		{"{} and []", map[string]any{}, []any{}},
		{"{} and missing field", map[string]any{}, map[string]any{"a": nil}},
		{"big integers", json.RawMessage(`{"n":9007199254740993}`), json.RawMessage(`{"n":9007199254740992}`)},
	}
	for _, tt := range different {
		t.Run("different/"+tt.name, func(t *testing.T) {
			if a, b := mustDigest(t, tt.a), mustDigest(t, tt.b); a == b {
				t.Fatalf("%v and %v digest the same: %s", tt.a, tt.b, a)
			}
		})
	}

	// Stable across versions and replicas: the digest of no arguments is
	// SHA-256("{}"), and a digest is 64 lower-case hex digits.
	if got := mustDigest(t, nil); got != "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a" {
		t.Errorf("Digest(nil) = %s", got)
	}
	for _, bad := range []any{make(chan int), math.NaN(), json.RawMessage(`{`)} {
		if _, err := state.Digest(bad); err == nil {
			t.Errorf("Digest(%T) succeeded, want an error", bad)
		}
	}
}

func TestParseKey(t *testing.T) {
	key := make([]byte, 48)
	for i := range key {
		key[i] = byte(i*37 + 250) // includes bytes that need '+', '/', '-', '_'
	}
	k32 := key[:32]
	accept := []struct {
		name string
		in   string
		want []byte
	}{
		{"hex", hex.EncodeToString(k32), k32},
		{"upper-case hex", strings.ToUpper(hex.EncodeToString(key)), key},
		{"hex with newline", "  " + hex.EncodeToString(k32) + "\n", k32},
		{"base64", base64.StdEncoding.EncodeToString(k32), k32},
		{"base64 unpadded", base64.RawStdEncoding.EncodeToString(k32), k32},
		{"base64url", base64.URLEncoding.EncodeToString(k32), k32},
		{"base64url unpadded", base64.RawURLEncoding.EncodeToString(key), key},
	}
	for _, tt := range accept {
		t.Run("accept/"+tt.name, func(t *testing.T) {
			got, err := state.ParseKey(tt.in)
			if err != nil || !bytes.Equal(got, tt.want) {
				t.Fatalf("ParseKey = %x, %v; want %x", got, err, tt.want)
			}
		})
	}

	reject := []struct{ name, in string }{
		{"empty", ""},
		{"blank", " \t\n"},
		{"short hex", hex.EncodeToString(k32[:31])},
		{"odd hex", hex.EncodeToString(k32) + "a"},
		{"short base64", base64.StdEncoding.EncodeToString(k32[:31])},
		{"passphrase", "correct horse battery staple"},
		{"garbage", "s3cr3t!key#that-is-not-base64??"},
	}
	for _, tt := range reject {
		t.Run("reject/"+tt.name, func(t *testing.T) {
			_, err := state.ParseKey(tt.in)
			if err == nil {
				t.Fatal("ParseKey succeeded, want an error")
			}
			msg := err.Error()
			if !strings.Contains(msg, "hex") || !strings.Contains(msg, "base64") {
				t.Errorf("error %q does not say what is accepted", msg)
			}
			if in := strings.TrimSpace(tt.in); in != "" && strings.Contains(msg, in) {
				t.Errorf("error %q echoes the key", msg)
			}
		})
	}
}

func TestRandomKey(t *testing.T) {
	a, err := state.RandomKey()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := state.RandomKey()
	if len(a) != 32 || bytes.Equal(a, b) {
		t.Fatalf("RandomKey: %d bytes, two calls equal: %v", len(a), bytes.Equal(a, b))
	}
	if _, err := state.New(a, nil, time.Minute, 1024); err != nil {
		t.Fatal(err)
	}
}

// typicalPayload is what findBestFlight carries to its sampling round: a
// digest of the candidate ids and the attempts so far, about 300 bytes of Data.
func typicalPayload(tb testing.TB) state.Payload {
	data := json.RawMessage(`{"candidates":"9f2c4e0b7d1a6c3e5f8a2b4d6e8f0a1c3e5b7d9f1a3c5e7b9d1f3a5c7e9b1d3f",` +
		`"count":47,"attempts":[{"tier":"sampling","outcome":"asked","reason":"client declared sampling","elapsedMs":3},` +
		`{"tier":"elicitation","outcome":"skipped","reason":"trip details complete","elapsedMs":0}],"deadline":1785240000}`)
	return state.Payload{
		Tool:       testTool,
		ArgsDigest: mustDigest(tb, map[string]any{"origin": "ZRH", "destination": "LIS", "date": "2026-09-01"}),
		Step:       testStep,
		Data:       data,
	}
}

func BenchmarkSeal(b *testing.B) {
	s := newSealer(b, testKey, t0)
	p := typicalPayload(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Seal(p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOpen(b *testing.B) {
	s := newSealer(b, testKey, t0)
	p := typicalPayload(b)
	tok := mustSeal(b, s, p)
	b.Logf("Data %d bytes, token %d bytes", len(p.Data), len(tok))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Open(tok, p.Tool, p.ArgsDigest, p.Step); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDigest(b *testing.B) {
	args := map[string]any{"origin": "ZRH", "destination": "LIS", "date": "2026-09-01", "strategy": "auto", "passengers": 2}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := state.Digest(args); err != nil {
			b.Fatal(err)
		}
	}
}

// A call whose next round may be one of several questions opens its state
// against all of them, and only them.
func TestOpenOneOfSeveralSteps(t *testing.T) {
	s := newSealer(t, testKey, t0)
	args := mustDigest(t, map[string]any{"destination": "LIS"})
	tok := mustSeal(t, s, state.Payload{Tool: testTool, ArgsDigest: args, Step: "sample"})
	if p, err := s.Open(tok, testTool, args, "trip", "sample"); err != nil || p.Step != "sample" {
		t.Fatalf("Open among steps: %+v, %v", p, err)
	}
	_, err := s.Open(tok, testTool, args, "trip", "confirm")
	if !errors.Is(err, state.ErrMismatch) || !strings.Contains(err.Error(), `sealed for another step ("sample", not "trip" or "confirm")`) {
		t.Fatalf("a step not among those asked: %v", err)
	}
}

// A key rotation: the new key signs, and a state the old key sealed (a
// call in flight on a replica not yet updated) still opens until it
// expires; a key in neither place, a forgery, or a short previous key does
// not.
func TestRotation(t *testing.T) {
	thirdKey := bytes.Repeat([]byte{0x66}, 32)
	args := mustDigest(t, map[string]any{"destination": "LIS"})
	p := state.Payload{Tool: testTool, ArgsDigest: args, Step: testStep}
	byOld := mustSeal(t, newSealer(t, otherKey, t0), p)
	rotated, err := state.New(testKey, fixedClock(t0), testTTL, testMax, otherKey)
	if err != nil {
		t.Fatal(err)
	}
	byNew := mustSeal(t, rotated, p)
	for _, tc := range []struct {
		name   string
		sealer *state.Sealer
		token  string
		want   error
	}{
		{"sealed by the old key, opened by new+old", rotated, byOld, nil},
		{"sealed by new+old, opened by the new key alone", newSealer(t, testKey, t0), byNew, nil},
		{"sealed by new+old, not opened by the old key alone", newSealer(t, otherKey, t0), byNew, state.ErrForged},
		{"sealed by a key in neither place", rotated, mustSeal(t, newSealer(t, thirdKey, t0), p), state.ErrForged},
		{"altered after the old key sealed it", rotated, flip(byOld, 5), state.ErrForged},
		{"a signature made up", rotated, signJSON(bytes.Repeat([]byte{0}, 32), `{"tool":"findBestFlight"}`), state.ErrForged},
		{"sealed by the old key, expired", mustNewAt(t, t0.Add(testTTL+2*time.Second), otherKey), byOld, state.ErrExpired},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.sealer.Open(tc.token, testTool, args, testStep)
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("Open = %v, want %v", err, tc.want)
			}
		})
	}
	// Only the current key signs: the new state does not open under the old key alone (above),
	// and a previous key is held to the same strength.
	if _, err := state.New(testKey, nil, time.Minute, 1024, otherKey[:31]); err == nil || !strings.Contains(err.Error(), "previous key 1") {
		t.Fatalf("a short previous key: %v", err)
	}
	// The Sealer keeps its own copy of the previous keys too.
	prev := bytes.Clone(otherKey)
	s, _ := state.New(testKey, fixedClock(t0), testTTL, testMax, prev)
	prev[0] ^= 1
	if _, err := s.Open(byOld, testTool, args, testStep); err != nil {
		t.Fatalf("changing the caller's previous key changed the Sealer: %v", err)
	}
}

// mustNewAt is a Sealer signing with testKey at time now that also opens
// states sealed by previous.
func mustNewAt(t *testing.T, now time.Time, previous ...[]byte) *state.Sealer {
	t.Helper()
	s, err := state.New(testKey, fixedClock(now), testTTL, testMax, previous...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func BenchmarkOpenDuringRotation(b *testing.B) {
	old := mustSeal(b, newSealer(b, otherKey, t0), typicalPayload(b))
	s, err := state.New(testKey, fixedClock(t0), testTTL, testMax, otherKey)
	if err != nil {
		b.Fatal(err)
	}
	p := typicalPayload(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Open(old, p.Tool, p.ArgsDigest, p.Step); err != nil {
			b.Fatal(err)
		}
	}
}
