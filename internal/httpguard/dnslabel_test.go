package httpguard

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
