package ranking

import (
	"fmt"
	"math"
	"testing"
)

// whole and signed write a score as %.0f and %+.0f do.
func TestWholeAndSignedAsFmt(t *testing.T) {
	for _, v := range []float64{0, math.Copysign(0, -1), 0.4, -0.4, 0.5, 1.5, 2.5, -2.5, 1573.49, -87.6, 1e21, math.Inf(1), math.Inf(-1), math.NaN()} {
		if got, want := whole(v), fmt.Sprintf("%.0f", v); got != want {
			t.Errorf("whole(%v) = %q, want %q", v, got, want)
		}
		if got, want := signed(v), fmt.Sprintf("%+.0f", v); got != want {
			t.Errorf("signed(%v) = %q, want %q", v, got, want)
		}
	}
}
