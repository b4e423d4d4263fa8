package llm

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Defaults for Config's zero values.
const (
	// DefaultModel is small, cheap and good enough for the short, bounded
	// questions the server asks. Local endpoints need their own model name.
	DefaultModel = "gpt-4o-mini"
	// DefaultTimeout is per Complete call, retry included. A small model
	// answers a short prompt in a second or two; 15 s leaves room for a slow
	// moment without using up a 60 s host budget.
	DefaultTimeout = 15 * time.Second
)

// Config says which endpoint a Client calls. Its zero value is "not
// configured".
type Config struct {
	// BaseURL is the API root, e.g. http://localhost:11434/v1 for Ollama;
	// "" means OpenAI's (https://api.openai.com/v1).
	BaseURL string
	// APIKey is sent as "Authorization: Bearer <key>". It may be empty for a
	// local endpoint, and then no Authorization header is sent. It never
	// appears in reasons, errors or String; json:"-" keeps it out of JSON
	// logs of the config.
	APIKey string `json:"-"`
	// Model is the model to ask for; "" means DefaultModel.
	Model string
	// Timeout bounds each Complete call, its one retry included; 0 means
	// DefaultTimeout. The caller's context deadline bounds it too.
	Timeout time.Duration
	// HTTPClient, if set, makes the requests (tests, proxies); nil means
	// http.DefaultClient.
	HTTPClient *http.Client `json:"-"`
}

// Configured reports whether there is anything to call: a key (for OpenAI)
// or a base URL (any other endpoint, with or without a key). Without either
// Complete fails with NotConfigured and asks nobody.
func (c Config) Configured() bool {
	return strings.TrimSpace(c.APIKey) != "" || strings.TrimSpace(c.BaseURL) != ""
}

// String describes the configuration for logs without the key (only
// whether one is set, and not even where the base URL holds it) and without
// a password in the base URL.
func (c Config) String() string {
	base := c.BaseURL
	if u, err := url.Parse(base); err != nil {
		base = "(not a URL)"
	} else {
		base = u.Redacted()
	}
	key := "none"
	if k := strings.TrimSpace(c.APIKey); k != "" {
		key = "set"
		base = strings.ReplaceAll(base, k, "[redacted]")
	}
	return fmt.Sprintf("llm.Config{BaseURL: %q, APIKey: %s, Model: %q, Timeout: %s}", base, key, c.Model, c.Timeout)
}

// GoString is String, so that %#v cannot print the key either.
func (c Config) GoString() string { return c.String() }
