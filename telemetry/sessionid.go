package telemetry

import (
	"crypto/rand"
	"encoding/hex"
	"regexp"
	"strings"
	"sync"
)

// A 2025-11-25 session's id is its handle: whoever reads one can send
// requests in the session and answer the server's questions to it. This
// file is the one description of the ids' shape, which the HTTP layer
// issues (SessionIDs) and the logs find and replace (RedactSessionIDs):
// "fs-", then the replica's name and a hyphen when it has one that is a DNS
// label, then 32 hex digits (128 random bits).

// sessionIDPrefix starts every session id the server issues.
const sessionIDPrefix = "fs-"

// sessionIDPattern matches any id SessionIDs issues, with or without a
// replica's name.
const sessionIDPattern = sessionIDPrefix + `(?:[a-z0-9][a-z0-9-]{0,62}-)?[0-9a-f]{32}`

// sessionIDRE is compiled on the first line that may hold an id, not at
// every start-up (stdio's included) when none does.
var sessionIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(sessionIDPattern) })

// SessionIDs issues session ids for one replica.
type SessionIDs struct {
	prefix string // "fs-", or "fs-<replica>-"
}

// NewSessionIDs issues ids that carry replica when it is a DNS label (an
// RFC 1123 label, as a Kubernetes pod's name is), so that a router can send
// each session's requests to the pod that holds it; any other name,
// the empty one included, is left out.
func NewSessionIDs(replica string) SessionIDs {
	prefix := sessionIDPrefix
	if dnsLabel(replica) {
		prefix += replica + "-"
	}
	return SessionIDs{prefix: prefix}
}

// New is a fresh id: 128 random bits after the prefix.
func (g SessionIDs) New() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand documents it)
	return g.prefix + hex.EncodeToString(b[:])
}

// RedactSessionIDs is s with every session id in it replaced by its
// SessionRef.
func RedactSessionIDs(s string) string {
	if !strings.Contains(s, sessionIDPrefix) {
		return s
	}
	return sessionIDRE().ReplaceAllStringFunc(s, SessionRef)
}

// MayHoldSessionID reports whether s could hold a session id: false means
// RedactSessionIDs(s) is s, without looking further.
func MayHoldSessionID(s string) bool { return strings.Contains(s, sessionIDPrefix) }

// dnsLabel reports whether name is an RFC 1123 label: 1 to 63 of a-z, 0-9
// and '-', starting and ending with a letter or digit. Checked by hand
// rather than by a regexp, which every start-up would compile.
func dnsLabel(name string) bool {
	if name == "" || len(name) > 63 || name[0] == '-' || name[len(name)-1] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	return true
}
