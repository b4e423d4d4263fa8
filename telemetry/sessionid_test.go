package telemetry

import (
	"regexp"
	"strings"
	"testing"
)

// rfc1123Label is the label's rule as the regexp that states it; dnsLabel
// must agree with it on every name.
var rfc1123Label = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

func TestDNSLabel(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"pod-a", true},
		{"flightserver-7d9f8c6b5-x2k4q", true},
		{"a", true},
		{"0", true},
		{strings.Repeat("a", 63), true},
		{"", false},
		{strings.Repeat("a", 64), false},
		{"-pod", false},
		{"pod-", false},
		{"-", false},
		{"Pod-A", false},
		{"pod_a", false},
		{"pod.a", false},
		{"pöd", false},
		{"pod a", false},
		{"pod\n", false},
	}
	for _, tt := range tests {
		if got := dnsLabel(tt.name); got != tt.want {
			t.Errorf("dnsLabel(%q) = %v, want %v", tt.name, got, tt.want)
		}
		if rule := rfc1123Label.MatchString(tt.name); rule != tt.want {
			t.Errorf("the table is wrong about %q: the rule says %v", tt.name, rule)
		}
	}
}

func FuzzDNSLabel(f *testing.F) {
	for _, s := range []string{"pod-a", "-a", "a-", "", strings.Repeat("b", 64)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if got, want := dnsLabel(name), rfc1123Label.MatchString(name); got != want {
			t.Errorf("dnsLabel(%q) = %v, the rule says %v", name, got, want)
		}
	})
}

// Every id SessionIDs issues, for any replica name, is found and replaced
// by RedactSessionIDs, alone or in a sentence, and nothing else is.
func TestRedactSessionIDsFindsEveryIDIssued(t *testing.T) {
	for _, replica := range []string{"", "pod-a", "flightserver-7d9f8c6b5-x2k4q", strings.Repeat("a", 63), "0", "Not A Label", "-pod", strings.Repeat("a", 64)} {
		id := NewSessionIDs(replica).New()
		wantPrefix := "fs-"
		if dnsLabel(replica) {
			wantPrefix += replica + "-"
		}
		if !strings.HasPrefix(id, wantPrefix) || len(id) != len(wantPrefix)+32 {
			t.Errorf("replica %q: id %q, want %q and 32 hex digits", replica, id, wantPrefix)
		}
		for _, text := range []string{id, "no pending request found for session " + id + ", dropped", `{"session":"` + id + `"}`} {
			got := RedactSessionIDs(text)
			if strings.Contains(got, id[len(id)-32:]) {
				t.Errorf("replica %q: %q still holds the id", replica, got)
			}
			if want := strings.ReplaceAll(text, id, SessionRef(id)); got != want {
				t.Errorf("replica %q: RedactSessionIDs(%q) = %q, want %q", replica, text, got, want)
			}
		}
	}
	for _, text := range []string{"", "fs-", "fs-0123", "fs-" + strings.Repeat("g", 32), "offs-set", "a session with no id"} {
		if got := RedactSessionIDs(text); got != text {
			t.Errorf("RedactSessionIDs(%q) = %q, changed a text with no id", text, got)
		}
	}
}
