package state

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// Digest returns a stable hex SHA-256 of a call's arguments, to bind a state to
// them (Payload.ArgsDigest). The same arguments must give the same digest on
// every replica and in every round, whatever order their keys arrived in, so
// the arguments are hashed as canonical JSON: encoded, decoded into generic
// values, and encoded again, which sorts object keys at every depth (as
// encoding/json does for maps).
//
// Numbers keep their JSON spelling (json.Number) instead of going through
// float64, so two large integers never collide; the price is that 1 and 1.0
// digest differently, which only ever rejects a state, never accepts a wrong
// one. nil and an empty object digest the same: a call with no arguments.
// Pass raw argument bytes as json.RawMessage, not []byte (which encoding/json
// would encode as a base64 string).
func Digest(args any) (string, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return "", fmt.Errorf("state: cannot digest arguments: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", fmt.Errorf("state: cannot digest arguments: %w", err)
	}
	if v == nil {
		v = map[string]any{}
	}
	canonical, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("state: cannot digest arguments: %w", err)
	}
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:]), nil
}
