// Package gcpace paces the garbage collector of a server whose live heap is
// small: it turns collection back on after start-up, and keeps each cycle's
// heap goal at least a fixed headroom above the live heap.
//
// The runtime's goal for the next cycle is the live heap plus GOGC percent
// of it and of the stacks and globals the cycle scanned, but never under
// its minimum heap, 4 MiB at GOGC=100 and scaled with GOGC.
// A server that keeps a few megabytes live and allocates tens of kilobytes a
// call then collects every few hundred calls, and marks its whole live heap
// each time. Pace raises GOGC, cycle by cycle, just enough that the heap may
// grow by at least the headroom before the next cycle, and never lowers it
// below the percent it was given: once the live heap is over headroom ÷
// (percent/100) it is that percent, as the runtime would have it. What the
// headroom costs is bounded by itself: the heap's peak is at most headroom
// above what the runtime alone would let it reach. A GOMEMLIMIT still holds
// over both.
package gcpace

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// Resume turns collection back on at percent (GOGC) once start-up, which
// ran with it off, is done. Start-up leaves most of the runtime's first
// heap goal filled with its garbage, so turned straight back on, collection
// would start a cycle at once, beside the first answer. Instead the first
// cycle runs at twice percent, and from its end on each cycle's end sets
// GOGC to Percent(percent, headroom, what the cycle found live, what it
// scanned). A headroom of 0 leaves
// GOGC at percent; a percent of 0 or below (GOGC=0, GOGC=off) is set as it
// is, and nothing more is done.
func Resume(percent int, headroom uint64) {
	if percent <= 0 {
		debug.SetGCPercent(percent)
		return
	}
	// The runtime holds GOGC in an int32: doubled past it, a huge GOGC
	// would wrap to a negative one, collection off, and no cycle would
	// ever end to turn it back on.
	debug.SetGCPercent(int(min(2*int64(percent), math.MaxInt32)))
	p := &pacer{percent: percent, headroom: headroom, set: -1, scanned: []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"}}}
	p.watch()
}

// Percent is the GOGC that puts the next cycle's goal headroom bytes above
// a live heap of live bytes, never less than percent, when scanned is what
// the runtime takes GOGC percent of (the live heap, and the stacks and
// globals the last cycle scanned). The goal is the larger of live +
// scanned×GOGC/100 and the minimum heap, minHeap×GOGC/100, so the GOGC is
// the smaller of the two that reach live + headroom, rounded up; it is at
// most math.MaxInt32. With nothing scanned yet (0) it is percent.
func Percent(percent int, headroom, live, scanned uint64) int {
	if scanned == 0 || headroom == 0 {
		return percent
	}
	need := min(ceilDiv(headroom*100, scanned), ceilDiv((live+headroom)*100, minHeap))
	if need <= uint64(percent) {
		return percent
	}
	return int(min(need, math.MaxInt32))
}

// minHeap is the runtime's minimum heap goal at GOGC=100 (its
// defaultHeapMinimum); at another GOGC it is scaled by GOGC/100.
const minHeap = 4 << 20

func ceilDiv(a, b uint64) uint64 { return (a + b - 1) / b }

// pacer sets GOGC at the end of each cycle. Its cleanups run one at a
// time, on the runtime's cleanup goroutine, so it needs no lock.
type pacer struct {
	percent  int
	headroom uint64
	set      int              // the GOGC last set, -1 before the first
	scanned  []metrics.Sample // the live heap, the stacks and the globals the last cycle found
}

// watch arms a cleanup for the end of the next cycle: a new object, found
// unreachable by that cycle. The object holds a pointer, so the runtime's
// tiny allocator (whose objects' cleanups may never run) does not take it.
func (p *pacer) watch() {
	runtime.AddCleanup(&cycleMark{}, func(p *pacer) { p.cycleEnded() }, p)
}

// cycleEnded sets GOGC for what the cycle just found, when that differs
// from the GOGC in effect (the doubled first cycle's, or the last it set),
// and watches for the next: a heap lock and a sum, a few times a second
// under load.
func (p *pacer) cycleEnded() {
	metrics.Read(p.scanned)
	var scanned uint64
	for _, s := range p.scanned {
		if s.Value.Kind() == metrics.KindUint64 { // KindBad: a runtime without it
			scanned += s.Value.Uint64()
		}
	}
	live := uint64(0)
	if v := p.scanned[0].Value; v.Kind() == metrics.KindUint64 {
		live = v.Uint64()
	}
	want := Percent(p.percent, p.headroom, live, scanned)
	if want != p.set {
		debug.SetGCPercent(want)
		p.set = want
	}
	if p.headroom > 0 {
		p.watch()
	}
}

// cycleMark is the object whose collection marks the end of a cycle.
type cycleMark struct{ _ *byte }
