// Package state seals and opens the continuation state of a multi-round tool
// call (the requestState of MCP 2026-07-28).
//
// # Why
//
// In protocol 2026-07-28 a tool call may answer input_required together with an
// opaque requestState string; the client fulfils the input requests and calls
// the tool again, echoing requestState byte for byte. Nothing is kept on the
// server between the two rounds, so any replica behind a load balancer can
// serve the retry. That makes requestState attacker-controlled input which
// steers business logic, so it must be:
//
//   - integrity-protected: an HMAC-SHA256 under a key every replica shares, so a
//     client cannot forge or alter a state (a replica with another key sees
//     ErrForged). During a key rotation a Sealer also opens states signed by
//     previous keys, so a rolling update does not break calls in flight;
//   - bound to the call: the tool name, a Digest of the arguments and the step
//     the next round must perform, so a state cannot be replayed against another
//     tool, other arguments or another step (ErrMismatch);
//   - short-lived: an expiry a few minutes out (ErrExpired);
//   - bounded: a size limit checked before any decoding (ErrTooLarge).
//
// The state is signed, not encrypted: the client can read it. Put nothing
// secret in Payload.Data.
//
// # Format
//
//	v1.<payload>.<mac>
//
//	payload = base64url(JSON of Payload), no padding
//	mac     = base64url(HMAC-SHA256(key, "v1." + payload)), no padding
//
// The MAC covers the version prefix and the payload exactly as transmitted, so
// the signature is checked before the payload is decoded at all, and a state
// cannot be re-labelled as another version.
package state

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Sentinel errors, one per reason Open rejects a state. Open wraps them with a
// message meant for a person (and for the host's model), so callers can both
// branch with errors.Is and show err.Error() as it is.
var (
	// ErrTooLarge: the state exceeds the configured size limit. Checked first,
	// so an attacker cannot make the server decode megabytes.
	ErrTooLarge = errors.New("state too large")
	// ErrMalformed: not a state this server could have written (shape,
	// version, encoding or JSON).
	ErrMalformed = errors.New("malformed state")
	// ErrForged: the signature does not match. The state was altered, made up,
	// or sealed under another key (e.g. by a replica configured differently).
	ErrForged = errors.New("state signature does not match")
	// ErrExpired: the state is authentic but too old.
	ErrExpired = errors.New("state expired")
	// ErrMismatch: the state is authentic but was sealed for another tool,
	// other arguments or another step.
	ErrMismatch = errors.New("state does not match this call")
)

// version is the only format this package writes and reads. A new format gets
// a new prefix, so old and new replicas can tell each other's states apart.
const version = "v1"

// macLen is the size of an HMAC-SHA256 tag in bytes.
const macLen = sha256.Size

// b64 is unpadded base64url; Strict rejects non-zero trailing bits, so one MAC
// has exactly one encoding.
var b64 = base64.RawURLEncoding.Strict()

// Payload is what a state carries from one round of a tool call to the next.
// Tool, ArgsDigest and Step bind the state to a call; Data is free for the
// caller.
type Payload struct {
	Tool       string          `json:"tool"`           // the tool that sealed it
	ArgsDigest string          `json:"args"`           // Digest of the call's arguments
	Step       string          `json:"step"`           // what the next round must do, e.g. "sample"
	Expires    int64           `json:"exp"`            // unix seconds; set by Seal
	Data       json.RawMessage `json:"data,omitempty"` // what the next round needs (the caller's own JSON)
}

// Sealer seals states under one key and opens them under that key or a
// previous one. It holds no mutable state and is safe for concurrent use.
type Sealer struct {
	keys    [][]byte // keys[0] signs; every key verifies
	now     func() time.Time
	ttl     time.Duration
	maxSize int
}

// New returns a Sealer with key (at least 32 bytes: 256 bits, the strength of
// HMAC-SHA256), clock now (nil means time.Now; tests inject a fixed clock), ttl
// the lifetime of a sealed state (> 0) and maxSize the largest sealed string
// in bytes (> 0) that Seal will produce and Open will look at.
//
// Every replica that must open another's states needs the same key. To
// rotate it without breaking calls in flight, give the new key as key and
// the old one in previous: Seal signs with key only, and Open also accepts a
// state signed by any previous key until it expires (one ttl after the last
// replica stopped signing with it, the old key can go).
func New(key []byte, now func() time.Time, ttl time.Duration, maxSize int, previous ...[]byte) (*Sealer, error) {
	if len(key) < 32 {
		return nil, fmt.Errorf("state: key has %d bytes; at least 32 are needed", len(key))
	}
	for i, k := range previous {
		if len(k) < 32 {
			return nil, fmt.Errorf("state: previous key %d has %d bytes; at least 32 are needed", i+1, len(k))
		}
	}
	if ttl <= 0 {
		return nil, fmt.Errorf("state: lifetime must be positive, got %v", ttl)
	}
	if maxSize <= 0 {
		return nil, fmt.Errorf("state: size limit must be positive, got %d", maxSize)
	}
	if now == nil {
		now = time.Now
	}
	// Copy the keys so the caller cannot change them under our feet.
	keys := [][]byte{bytes.Clone(key)}
	for _, k := range previous {
		keys = append(keys, bytes.Clone(k))
	}
	return &Sealer{keys: keys, now: now, ttl: ttl, maxSize: maxSize}, nil
}

// Seal signs p and returns the state string to send as requestState. It sets
// p.Expires to now+ttl (unix seconds), whatever the caller put there. Data is
// re-encoded compactly by encoding/json, so Open returns equivalent, not
// byte-identical, Data. Seal fails with ErrTooLarge rather than produce a
// state that Open would refuse.
func (s *Sealer) Seal(p Payload) (string, error) {
	p.Expires = s.now().Add(s.ttl).Unix()
	body, err := json.Marshal(p)
	if err != nil {
		return "", fmt.Errorf("state: cannot encode payload: %w", err)
	}
	size := len(version) + 1 + b64.EncodedLen(len(body)) + 1 + b64.EncodedLen(macLen)
	if size > s.maxSize {
		return "", fmt.Errorf("%w: sealing would give %d bytes, the limit is %d; put less in Data", ErrTooLarge, size, s.maxSize)
	}
	signed := version + "." + b64.EncodeToString(body)
	return signed + "." + b64.EncodeToString(mac(s.keys[0], signed)), nil
}

// Open verifies token and returns its payload, provided it was sealed for tool,
// argsDigest and one of steps (a call whose next round may be one of several
// questions) and has not expired. The checks run from cheapest and
// least trusting to most specific: size, shape and version, signature
// (constant time), JSON, expiry, binding. Nothing is decoded before the
// signature is verified, and all work is linear in len(token) <= maxSize.
//
// Errors wrap one of the sentinels; their text never contains the key, and
// quotes at most 40 bytes of the token.
func (s *Sealer) Open(token, tool, argsDigest string, steps ...string) (Payload, error) {
	if len(token) > s.maxSize {
		return Payload{}, fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, len(token), s.maxSize)
	}

	// Shape: v1.<payload>.<mac>, both parts unpadded base64url.
	ver, rest, ok := strings.Cut(token, ".")
	if !ok {
		return Payload{}, fmt.Errorf("%w: want %s.<payload>.<signature>, got %s", ErrMalformed, version, clip(token))
	}
	if ver != version {
		return Payload{}, fmt.Errorf("%w: unsupported version %s (this server reads %s)", ErrMalformed, clip(ver), version)
	}
	payloadPart, macPart, ok := strings.Cut(rest, ".")
	if !ok || payloadPart == "" || strings.Contains(macPart, ".") {
		return Payload{}, fmt.Errorf("%w: want %s.<payload>.<signature>", ErrMalformed, version)
	}
	// Check the alphabet ourselves: the base64 decoder skips \r and \n, which
	// would let one state have many spellings.
	if !isBase64URL(payloadPart) || !isBase64URL(macPart) {
		return Payload{}, fmt.Errorf("%w: payload and signature must be unpadded base64url", ErrMalformed)
	}
	got, err := b64.DecodeString(macPart)
	if err != nil || len(got) != macLen {
		return Payload{}, fmt.Errorf("%w: signature is not %d bytes of base64url", ErrMalformed, macLen)
	}

	// Signature, over the text as received, compared in constant time so the
	// comparison leaks nothing about how much of a guess was right. Every key
	// is tried, whichever matches, so the time taken does not tell which key
	// (or whether a previous one) signed it.
	signed := token[:len(version)+1+len(payloadPart)]
	matched := 0
	for _, k := range s.keys {
		matched |= subtle.ConstantTimeCompare(got, mac(k, signed))
	}
	if matched != 1 {
		return Payload{}, fmt.Errorf("%w: the state was altered, or sealed with another key; retry the call without it", ErrForged)
	}

	// From here on the bytes are ours; failures mean a bug or a leaked key.
	body, err := b64.DecodeString(payloadPart)
	if err != nil {
		return Payload{}, fmt.Errorf("%w: payload is not base64url", ErrMalformed)
	}
	var p Payload
	if err := json.Unmarshal(body, &p); err != nil {
		return Payload{}, fmt.Errorf("%w: payload is not the expected JSON", ErrMalformed)
	}

	// Expiry, to the second: a state is good through its Expires second.
	if now := s.now(); now.Unix() > p.Expires {
		ago := now.Sub(time.Unix(p.Expires, 0)).Truncate(time.Second)
		return Payload{}, fmt.Errorf("%w %v ago; retry the call without it", ErrExpired, ago)
	}

	// Binding. Tool and step names come from our own sealed payload, so they
	// are safe to show (clipped anyway); argument digests are not shown.
	switch {
	case p.Tool != tool:
		return Payload{}, fmt.Errorf("%w: sealed for another tool (%s, not %s)", ErrMismatch, clip(p.Tool), clip(tool))
	case p.ArgsDigest != argsDigest:
		return Payload{}, fmt.Errorf("%w: sealed for other arguments; retry the call without it", ErrMismatch)
	case !slices.Contains(steps, p.Step):
		want := make([]string, len(steps))
		for i, st := range steps {
			want[i] = clip(st)
		}
		return Payload{}, fmt.Errorf("%w: sealed for another step (%s, not %s)", ErrMismatch, clip(p.Step), strings.Join(want, " or "))
	}
	return p, nil
}

// mac returns HMAC-SHA256(key, msg). A fresh hash per call keeps Sealer free
// of shared mutable state.
func mac(key []byte, msg string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(msg))
	return h.Sum(nil)
}

// isBase64URL reports whether s uses only the unpadded base64url alphabet.
func isBase64URL(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// clip quotes at most 40 bytes of untrusted input for an error message, so an
// error never carries a whole token (or a megabyte of garbage).
func clip(s string) string {
	const max = 40
	if len(s) <= max {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:max]) + "..."
}
