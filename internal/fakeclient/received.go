package fakeclient

import "sync"

// received records the requests a stand-in was sent, for tests to check
// what the server asked, from any goroutine.
type received[R any] struct {
	mu   sync.Mutex
	reqs []R
}

// add records r and returns how many requests have arrived, r included.
func (rc *received[R]) add(r R) int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.reqs = append(rc.reqs, r)
	return len(rc.reqs)
}

// all returns a copy of the requests received so far.
func (rc *received[R]) all() []R {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]R(nil), rc.reqs...)
}
