package deploy

import (
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// clusterDNS answers A queries over UDP the way cluster DNS does for the
// names nginx.conf resolves: a Service's name, and each StatefulSet pod's
// name under its headless Service. Unknown names get NXDOMAIN. It remembers
// every name it was asked for, so a test can see what the router looked up.
type clusterDNS struct {
	addr string

	mu      sync.Mutex
	records map[string][]netip.Addr // lower-case FQDN with the final dot
	asked   map[string]int
}

func startDNS(t *testing.T) *clusterDNS {
	t.Helper()
	conn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d := &clusterDNS{addr: conn.LocalAddr().String(), records: map[string][]netip.Addr{}, asked: map[string]int{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 1500)
		for {
			n, from, err := conn.ReadFrom(buf)
			if err != nil {
				return // closed
			}
			if answer, ok := d.answer(buf[:n]); ok {
				_, _ = conn.WriteTo(answer, from)
			}
		}
	}()
	t.Cleanup(func() { conn.Close(); <-done })
	return d
}

// set makes name resolve to addrs (none: NXDOMAIN).
func (d *clusterDNS) set(name string, addrs ...netip.Addr) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.records[strings.ToLower(name)+"."] = addrs
}

// queries is how often name was asked for.
func (d *clusterDNS) queries(name string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.asked[strings.ToLower(name)+"."]
}

// names is every name asked for.
func (d *clusterDNS) names() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for n := range d.asked {
		out = append(out, n)
	}
	return out
}

func (d *clusterDNS) answer(query []byte) ([]byte, bool) {
	var p dnsmessage.Parser
	h, err := p.Start(query)
	if err != nil {
		return nil, false
	}
	q, err := p.Question()
	if err != nil {
		return nil, false
	}
	name := strings.ToLower(q.Name.String())
	d.mu.Lock()
	d.asked[name]++
	addrs, known := d.records[name]
	d.mu.Unlock()

	rh := dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired}
	if !known || len(addrs) == 0 {
		rh.RCode = dnsmessage.RCodeNameError
	}
	b := dnsmessage.NewBuilder(nil, rh)
	b.EnableCompression()
	if b.StartQuestions() != nil || b.Question(q) != nil || b.StartAnswers() != nil {
		return nil, false
	}
	if q.Type == dnsmessage.TypeA {
		for _, a := range addrs {
			if b.AResource(dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 5}, dnsmessage.AResource{A: a.As4()}) != nil {
				return nil, false
			}
		}
	}
	out, err := b.Finish()
	return out, err == nil
}
