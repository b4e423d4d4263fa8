package state

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// keyFormats says what ParseKey accepts; every error repeats it, so an
// operator can fix the configuration from the message alone.
const keyFormats = "want at least 32 bytes, as hex (64 or more hex digits) or base64 " +
	"(standard or URL alphabet, padded or not); e.g. `openssl rand -hex 32`"

// ParseKey reads a configured state key, as an operator would write it in an
// environment variable or a secret file (surrounding space is ignored): hex
// with 64 or more digits, or standard or URL base64 that decodes to at least 32
// bytes. A string of hex digits only is read as hex. Errors say what is
// accepted and never contain the key itself.
func ParseKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, errors.New("state key is empty; " + keyFormats)
	}
	if isHex(s) {
		if len(s) < 64 || len(s)%2 != 0 {
			return nil, fmt.Errorf("state key has %d hex digits; %s", len(s), keyFormats)
		}
		return hex.DecodeString(s)
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		k, err := enc.DecodeString(s)
		if err != nil {
			continue
		}
		if len(k) < 32 {
			return nil, fmt.Errorf("state key decodes to only %d bytes; %s", len(k), keyFormats)
		}
		return k, nil
	}
	return nil, errors.New("state key is neither hex nor base64; " + keyFormats)
}

// RandomKey returns 32 random bytes from crypto/rand. It is for a single
// process with no configured key: states then survive neither a restart nor a
// hop to another replica, so log a warning when you use it.
func RandomKey() ([]byte, error) {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("state: cannot read random key: %w", err)
	}
	return k, nil
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
