package ranking

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/internal/fakemodel"
	"github.com/flightserver/flightserver/ranking/answer"
)

// answerCandidates are twelve flights with real-looking ids, id(0)..id(11),
// in no particular order of merit.
func answerCandidates() []flights.Flight {
	var fs []flights.Flight
	for i := range 12 {
		fs = append(fs, flight(id(i), fmt.Sprintf("%02d:15", 6+i), 7+float64(i%4), i%3, 350+25*((i*7)%12)))
	}
	return fs
}

func id(i int) string { return fmt.Sprintf("JFK-LHR-261215-K%04d", i) }

func idsOf(fs []flights.Flight) []string {
	ids := make([]string, len(fs))
	for i, f := range fs {
		ids[i] = f.ID
	}
	return ids
}

func TestFromAnswer(t *testing.T) {
	a, b, c, d := flight("A", "08:00", 7, 0, 600), flight("B", "09:00", 11, 1, 470), flight("C", "10:00", 16, 2, 380), flight("D", "11:00", 7.5, 0, 650)
	cs := []flights.Flight{a, b, c, d} // deterministic order: A B D C (scores 740 765 800 850)
	for _, tc := range []struct {
		name  string
		picks []answer.Pick
		n     int
		want  []string // "id: reason"
	}{
		{"model picks all", []answer.Pick{{ID: "C", Reason: "cheapest"}, {ID: "B", Reason: "one stop"}, {ID: "A", Reason: "fast"}}, 3,
			[]string{"C: cheapest", "B: one stop", "A: fast"}},
		{"model picks more than n", []answer.Pick{{ID: "C", Reason: "1"}, {ID: "B", Reason: "2"}, {ID: "A", Reason: "3"}, {ID: "D", Reason: "4"}}, 2,
			[]string{"C: 1", "B: 2"}},
		{"completed in the deterministic order", []answer.Pick{{ID: "A", Reason: "nonstop"}}, 3, []string{
			"A: nonstop",
			"B: added from the deterministic order (the model picked only 1): $470, 1 stop (HBA), 11h00m",
			"D: added from the deterministic order (the model picked only 1): $650, nonstop, 7h30m"}},
		{"completion skips picked ones", []answer.Pick{{ID: "D", Reason: "x"}, {ID: "B", Reason: "y"}}, 4, []string{
			"D: x", "B: y",
			"A: added from the deterministic order (the model picked only 2): $600, nonstop, 7h00m",
			"C: added from the deterministic order (the model picked only 2): $380, 2 stops (HBA, HBB), 16h00m"}},
		{"no picks", nil, 2, []string{
			"A: added from the deterministic order (the model picked none): $600, nonstop, 7h00m",
			"B: added from the deterministic order (the model picked none): $470, 1 stop (HBA), 11h00m"}},
		{"n beyond the candidates", []answer.Pick{{ID: "C", Reason: "z"}}, 10, []string{"C: z",
			"A: added from the deterministic order (the model picked only 1): $600, nonstop, 7h00m",
			"B: added from the deterministic order (the model picked only 1): $470, 1 stop (HBA), 11h00m",
			"D: added from the deterministic order (the model picked only 1): $650, nonstop, 7h30m"}},
		{"n zero", []answer.Pick{{ID: "C", Reason: "z"}}, 0, nil},
		{"empty reason is the facts", []answer.Pick{{ID: "B", Reason: " \n "}}, 1, []string{"B: $470, 1 stop (HBA), 11h00m"}},
		{"reasons cleaned", []answer.Pick{{ID: "B", Reason: "one\nstop\x07,\tcheap"}}, 1, []string{"B: one stop, cheap"}},
		{"unknown and repeated picks skipped", []answer.Pick{{ID: "Q", Reason: "?"}, {ID: "B", Reason: "b"}, {ID: "B", Reason: "again"}, {ID: "b", Reason: "case"}}, 2, []string{"B: b",
			"A: added from the deterministic order (the model picked only 1): $600, nonstop, 7h00m"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := slices.Clone(cs)
			r := DefaultWeights.FromAnswer(ClientSampling, OneWay(cs), tc.picks, tc.n)
			var got []string
			for _, p := range r.Picks {
				got = append(got, p.Flight.ID+": "+p.Reason)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("picks\n got %q\nwant %q", got, tc.want)
			}
			if r.Method != ClientSampling || !r.Ranked || r.Considered != 4 || r.Model != "" {
				t.Errorf("method %s ranked %v considered %d model %q", r.Method, r.Ranked, r.Considered, r.Model)
			}
			if !slices.EqualFunc(cs, before, func(x, y flights.Flight) bool { return x.ID == y.ID }) {
				t.Error("FromAnswer reordered the candidates")
			}
		})
	}
}

func TestFromAnswerTruncatesReasons(t *testing.T) {
	cs := answerCandidates()
	r := DefaultWeights.FromAnswer(ClientSampling, OneWay(cs), []answer.Pick{{ID: id(2), Reason: strings.Repeat("ab ", 200)}}, 1)
	if got := r.Picks[0].Reason; utf8.RuneCountInString(got) > answer.MaxReasonRunes || !strings.HasSuffix(got, "b…") {
		t.Errorf("reason %q", got)
	}
}

// answer.Parse and FromAnswer together on a real search: what the model
// names comes first, and the rest is the deterministic ranker's.
func TestAnswerOnARealSearch(t *testing.T) {
	_, fs := jfkLHRPrompt(t)
	last := fs[len(fs)-1]
	picks, err := answer.Parse(fakemodel.Answer(last.ID), idsOf(fs))
	if err != nil {
		t.Fatal(err)
	}
	r := DefaultWeights.FromAnswer(ClientSampling, OneWay(fs), picks, 3)
	if len(r.Picks) != 3 || r.Picks[0].Flight.ID != last.ID || r.Picks[1].Flight.ID != fs[0].ID || r.Picks[2].Flight.ID != fs[1].ID {
		t.Errorf("got %s, want %s %s %s", ids(r.Picks), last.ID, fs[0].ID, fs[1].ID)
	}
	if r.Considered != len(fs) {
		t.Errorf("considered %d, want %d", r.Considered, len(fs))
	}
}

// Every answer of the reader's corpus that counts, completed: FromAnswer
// gives the three picks asked for, led by the model's first, on the real
// search the corpus answers. (The reader's own fuzz targets check the
// reading; this checks what ranking makes of it.)
func TestFromAnswerCompletesTheCorpus(t *testing.T) {
	p, fs := jfkLHRPrompt(t)
	files, err := filepath.Glob(filepath.Join("answer", "testdata", "answers", "positive", "*.txt"))
	if err != nil || len(files) < 20 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text, err := fakemodel.Fill(string(data), p.User)
			if err != nil {
				t.Fatal(err)
			}
			picks, err := answer.Parse(text, idsOf(fs))
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			r := DefaultWeights.FromAnswer(ClientSampling, OneWay(fs), picks, 3)
			if len(r.Picks) != 3 || r.Picks[0].Flight.ID != picks[0].ID {
				t.Fatalf("FromAnswer gave %s for picks %+v", ids(r.Picks), picks)
			}
		})
	}
}
