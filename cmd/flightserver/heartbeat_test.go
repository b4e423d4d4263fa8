package main

import (
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// A quiet legacy GET stream must say something before the shipped proxies
// give up on it: the heartbeat is well inside every proxy read timeout in
// deploy/kubernetes.
func TestHeartbeatBeatsTheProxies(t *testing.T) {
	timeouts := map[string]*regexp.Regexp{
		"../../deploy/kubernetes/nginx.conf":   regexp.MustCompile(`proxy_read_timeout\s+(\d+)s;`),
		"../../deploy/kubernetes/ingress.yaml": regexp.MustCompile(`proxy-read-timeout:\s*"(\d+)"`),
	}
	for file, re := range timeouts {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		found := re.FindAllSubmatch(b, -1)
		if len(found) == 0 {
			t.Errorf("%s: no read timeout found; the test no longer reads it", file)
		}
		for _, m := range found {
			secs, _ := strconv.Atoi(string(m[1]))
			if limit := time.Duration(secs) * time.Second; getStreamHeartbeat*2 > limit {
				t.Errorf("%s closes a quiet stream after %v; the heartbeat (%v) must come at least twice within it", file, limit, getStreamHeartbeat)
			}
		}
	}
}
