package answer

import "testing"

// The id matcher as the package doc states it: exact after trimming what
// models wrap ids in; failing that, case-insensitive and as the prompt
// showed the id, but only when exactly one candidate matches so; failing
// that, the one id-like word of a value with more words.
func TestLookup(t *testing.T) {
	ids := []string{"JFK-LHR-261215-K0001", "JFK-LHR-261215-K0002", "jfk-lhr-261215-k0003", "JFK-LHR-261215-K0003",
		"JFK-LHR-261215-EVIL|<x>"}
	p := &parser{ids: ids, idx: newIDIndex(ids)}
	for _, tc := range []struct {
		name, id string
		want     int // the candidate's index, or -1 for no match
	}{
		{"exact", "JFK-LHR-261215-K0002", 1},
		{"spaces", "  JFK-LHR-261215-K0002\t", 1},
		{"quotes", `"JFK-LHR-261215-K0002"`, 1},
		{"typographic quotes", "“JFK-LHR-261215-K0002”", 1},
		{"backticks and asterisks", "**`JFK-LHR-261215-K0002`**", 1},
		{"brackets", "[JFK-LHR-261215-K0002]", 1},
		{"case changed", "jfk-lhr-261215-k0001", 0},
		{"case changed and quoted", "'jfk-LHR-261215-k0001'", 0},
		{"as the prompt showed it", "JFK-LHR-261215-EVILx", 4},
		{"as shown, in another case", "jfk-lhr-261215-evilX", 4},
		{"exact among ids that differ in case", "jfk-lhr-261215-k0003", 2},
		{"the other exact one", "JFK-LHR-261215-K0003", 3},
		{"loose when two match loosely", "Jfk-Lhr-261215-K0003", -1},
		{"unknown", "JFK-LHR-261215-K0009", -1},
		{"a prefix", "JFK-LHR-261215-K000", -1},
		{"only wrapping", `""`, -1},
		{"a full stop after it", "JFK-LHR-261215-K0002.", 1},
		{"a note after it", "JFK-LHR-261215-K0002 (BA 117, nonstop)", 1},
		{"words before it", "flight JFK-LHR-261215-K0002", 1},
		{"a note, in another case", "jfk-lhr-261215-k0001 (BA 117)", 0},
		{"two ids in one value", "JFK-LHR-261215-K0001 or JFK-LHR-261215-K0002", -1},
		{"a made-up id beside a real one", "JFK-LHR-261215-K0001 (JFK-LHR-261215-K0009)", -1},
		{"a note after an unknown id", "JFK-LHR-261215-K0009 (BA 117)", -1},
		{"empty", "", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i, ok := p.lookup(tc.id)
			if !ok {
				i = -1
			}
			if i != tc.want {
				t.Errorf("lookup(%q) = %d, want %d", tc.id, i, tc.want)
			}
		})
	}
}
