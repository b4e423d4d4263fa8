package ranking

import (
	"fmt"
	"math"
	"testing"
)

// appendWhole and appendSigned write a score as %.0f and %+.0f do, after
// whatever b already holds.
func TestWholeAndSignedAsFmt(t *testing.T) {
	for _, v := range []float64{0, math.Copysign(0, -1), 0.4, -0.4, 0.5, 1.5, 2.5, -2.5, 1573.49, -87.6, 1e21, math.Inf(1), math.Inf(-1), math.NaN()} {
		if got, want := string(appendWhole([]byte("score "), v)), fmt.Sprintf("score %.0f", v); got != want {
			t.Errorf("appendWhole(%v) = %q, want %q", v, got, want)
		}
		if got, want := string(appendSigned([]byte("score "), v)), fmt.Sprintf("score %+.0f", v); got != want {
			t.Errorf("appendSigned(%v) = %q, want %q", v, got, want)
		}
	}
}
