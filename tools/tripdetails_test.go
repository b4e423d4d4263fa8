package tools

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/internal/fakeclient"
	"github.com/flightserver/flightserver/internal/fakemodel"
	"github.com/flightserver/flightserver/internal/golden"
)

// The call leaves out origin and date; the user fills them in.
var (
	partialTrip  = map[string]any{"destination": "LHR", "passengers": 2}
	goodTrip     = map[string]any{"origin": "jfk", "date": "2026-12-15"}
	badTrip      = map[string]any{"origin": "XXQ", "date": "2020-01-01"}
	mistypedTrip = map[string]any{"origin": 42, "date": "2026-12-15", "passengers": "two", "notes": "ignored, not ours"}
	urlOnly      = client.WithClientCapabilities(mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{URL: &struct{}{}}})
)

func TestFindBestFlightAsksForMissingDetails(t *testing.T) {
	for _, tc := range []struct {
		name    string
		form    *fakeclient.Form // nil: the client declares no form elicitation
		opts    []client.ClientOption
		forms   int      // forms the user sees
		why     string   // DetailsNeeded.Why; "" when the search runs
		says    string   // in the error text
		callErr string   // modern silent: the client gives up
		again   []string // the second form requires these (default origin and date)
	}{
		{name: "accepts valid", form: &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: goodTrip}, forms: 1},
		{name: "invalid then valid", form: &fakeclient.Form{Behaviour: fakeclient.Accepts, Contents: []map[string]any{badTrip, goodTrip}}, forms: 2},
		{name: "wrong types then valid", form: &fakeclient.Form{Behaviour: fakeclient.Accepts, Contents: []map[string]any{mistypedTrip, goodTrip}}, forms: 2, again: []string{"origin", "passengers"}},
		{name: "invalid twice", form: &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: badTrip}, forms: 2, why: string(fallback.StillInvalid), says: `"XXQ" is not a known airport or metro code`},
		{name: "declines", form: &fakeclient.Form{Behaviour: fakeclient.Declines}, forms: 1, why: string(fallback.UserDeclined), says: "the user declined"},
		{name: "cancels", form: &fakeclient.Form{Behaviour: fakeclient.Cancels}, forms: 1, why: string(fallback.UserCancelled), says: "dismissed the form"},
		{name: "never answers", form: &fakeclient.Form{Behaviour: fakeclient.Silent}, forms: 1, why: string(fallback.NoAnswer), says: "no answer within", callErr: "context deadline exceeded"},
		{name: "not declared", forms: 0, why: string(fallback.ClientCannotAsk), says: "did not declare elicitation"},
		{name: "url mode only", opts: []client.ClientOption{urlOnly}, forms: 0, why: string(fallback.URLModeOnly), says: "only URL-mode"},
	} {
		for _, via := range transports {
			for _, era := range eras {
				t.Run(tc.name+"/"+via+"/"+era.Name, func(t *testing.T) {
					res, form := callWithForm(t, via, era.Version, tc.form, tc.callErr, FindBestFlightName, partialTrip, tc.opts...)
					if res == nil {
						return
					}
					var shown []mcp.ElicitationRequest
					if form != nil {
						shown = form.Requests()
					}
					if len(shown) != tc.forms {
						t.Fatalf("%d forms shown, want %d", len(shown), tc.forms)
					}
					for i, f := range shown {
						checkFormSchema(t, f.Params)
						required := []string{"origin", "date"}
						if i > 0 && tc.again != nil {
							required = tc.again
						}
						checkTripForm(t, f.Params, i, required)
					}
					if tc.why == "" {
						var r FindResult
						decode(t, res, &r)
						if r.Trip.Origin != "JFK" || r.Trip.Destination != "LHR" || r.Trip.Date != "2026-12-15" || r.Trip.Passengers != 2 || len(r.Flights) != 3 {
							t.Errorf("trip %+v, %d flights", r.Trip, len(r.Flights))
						}
						if a := r.Attempts[0]; a.Step != stepTrip || a.Outcome != "used" {
							t.Errorf("first attempt %+v, want trip_details used", a)
						}
						return
					}
					checkDetailsNeeded(t, res, tc.why, tc.forms > 0, tc.says)
				})
			}
		}
	}
}

// checkTripForm checks what the n-th trip form (from 0) asks: origin and
// date required, the call's details pre-filled, and the second form saying
// what was wrong with the first answer; it must require exactly want.
func checkTripForm(t *testing.T, p mcp.ElicitationParams, n int, want []string) {
	t.Helper()
	schema, order := wireForm(t, p)
	if order != nil && !slices.Equal(order, formFields) {
		t.Errorf("form %d shows %v, want %v (the order a person fills them in)", n, order, formFields)
	}
	props := schema["properties"].(map[string]any)
	if d := props["destination"].(map[string]any)["default"]; d != "LHR" {
		t.Errorf("destination not pre-filled from the call: %v", d)
	}
	if d := props["passengers"].(map[string]any)["default"]; d != float64(2) {
		t.Errorf("passengers not pre-filled from the call: %v", d)
	}
	if f := props["date"].(map[string]any)["format"]; f != "date" {
		t.Errorf("date format %v", f)
	}
	var required []string
	raw, _ := schema["required"].([]any)
	for _, r := range raw {
		required = append(required, r.(string))
	}
	if !slices.Equal(required, want) {
		t.Errorf("form %d requires %v, want %v", n, required, want)
	}
	switch n {
	case 0:
		if !strings.Contains(p.Message, "origin airport and departure date") {
			t.Errorf("first message does not say what is needed: %q", p.Message)
		}
	default:
		if !strings.Contains(p.Message, "did not work") {
			t.Errorf("second message does not say what was wrong: %q", p.Message)
		}
	}
}

// checkDetailsNeeded checks the isError that ends a call without a trip, in
// words and in structuredContent.
func checkDetailsNeeded(t *testing.T, res *mcp.CallToolResult, why string, asked bool, says string) {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want isError, got %s", text(res))
	}
	checkErrorShape(t, res)
	d := errorDetails(t, res)
	if d.Error != "trip_details_needed" || d.Why != why || d.AskedUser == nil || *d.AskedUser != asked {
		t.Errorf("details %+v, want why %s askedUser %v", d, why, asked)
	}
	// The same decision, in the vocabulary of every result.
	wantOutcome := "failed"
	if !asked {
		wantOutcome = "skipped"
	}
	if a, ok := attemptAt(d.Attempts, stepTrip); !ok || a.Outcome != wantOutcome || a.Why == "" {
		t.Errorf("attempts %+v, want trip_details %s", d.Attempts, wantOutcome)
	}
	var fields []string
	for _, f := range d.Fields {
		fields = append(fields, f.Field)
		if f.Accepted == "" {
			t.Errorf("field %s does not say what is accepted", f.Field)
		}
	}
	if !slices.Contains(fields, "origin") || !slices.Contains(fields, "date") || slices.Contains(fields, "destination") {
		t.Errorf("fields %v, want origin and date", fields)
	}
	txt := text(res)
	for _, want := range []string{says, "- origin:", "- date:", "call findBestFlight again"} {
		if !strings.Contains(txt, want) {
			t.Errorf("text lacks %q:\n%s", want, txt)
		}
	}
	if asked != strings.Contains(txt, "asked the user in a form") || !asked != strings.Contains(txt, "could not ask the user") {
		t.Errorf("text does not say whether the user was asked:\n%s", txt)
	}
}

// The user's answers travel into the sampling round: in the modern era the
// client retries with the original arguments, so they must come back from
// the sealed state.
func TestTripDetailsCarryIntoSampling(t *testing.T) {
	for _, via := range transports {
		for _, era := range eras {
			t.Run(via+"/"+era.Name, func(t *testing.T) {
				form := &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: goodTrip}
				sampler := &fakeclient.Sampler{Behaviour: fakemodel.Answers}
				c := connect(t, newServer(t), via, era.Version, client.WithElicitationHandler(form), client.WithSamplingHandler(sampler))
				var r FindResult
				decode(t, callTool(t, c, FindBestFlightName, partialTrip), &r)
				if r.Method != "client_sampling" || r.Trip.Origin != "JFK" || r.Trip.Date != "2026-12-15" || r.Trip.Passengers != 2 {
					t.Errorf("method %s, trip %+v, attempts %+v", r.Method, r.Trip, r.Attempts)
				}
				if len(form.Requests()) != 1 || len(sampler.Requests()) != 1 {
					t.Errorf("%d forms, %d sampling requests; want 1 and 1", len(form.Requests()), len(sampler.Requests()))
				}
			})
		}
	}
}

// Problems in the host's own arguments are the host's to fix: no form.
func TestTripFormNotShownForBadArguments(t *testing.T) {
	for _, era := range eras {
		form := &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: goodTrip}
		c := connect(t, newServer(t), "inprocess", era.Version, client.WithElicitationHandler(form))
		for _, args := range []map[string]any{
			{"destination": "LHR", "maxStops": 7},
			{"origin": "XXQ", "destination": "LHR"},
			{"origin": 42, "destination": "LHR"},
		} {
			res := callTool(t, c, FindBestFlightName, args)
			if !res.IsError || !strings.Contains(text(res), "problem(s) with the arguments") || !strings.Contains(text(res), "date: is missing") {
				t.Errorf("%s %v: %s", era.Name, args, text(res))
			}
		}
		if n := len(form.Requests()); n != 0 {
			t.Errorf("%s: %d forms shown for bad arguments", era.Name, n)
		}
	}
}

// A slow user keeps a legacy call alive with progress notifications.
func TestTripFormReportsProgressWhileWaiting(t *testing.T) {
	form := &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: goodTrip, Delay: 600 * time.Millisecond}
	s := newServer(t, func(c *Config) { c.ProgressInterval = 30 * time.Millisecond })
	c := connect(t, s, "inprocess", mcp.ProtocolVersion20251125, client.WithElicitationHandler(form))
	var got atomic.Int32
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationProgress) && n.Params.AdditionalFields["progressToken"] == "trip-1" {
			got.Add(1)
		}
	})
	res, err := c.CallTool(context.Background(), mcp.CallToolRequest{Params: mcp.CallToolParams{
		Name: FindBestFlightName, Arguments: partialTrip, Meta: &mcp.Meta{ProgressToken: "trip-1"}}})
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, text(res))
	}
	if got.Load() == 0 {
		t.Error("no progress notification while the user took 600 ms")
	}
}

// The modern rounds by hand: the trip form, then sampling, with the user's
// answer carried in the sealed state; and what a hostile client can do.
func TestTripRoundsByHand(t *testing.T) {
	s := newServer(t)
	caps := map[string]any{"sampling": map[string]any{}, "elicitation": map[string]any{}}
	first := rawCall(t, s, caps, partialTrip, "", nil)
	if first.ResultType != "input_required" || len(first.InputRequests) != 1 || first.InputRequests[tripKey] == nil {
		t.Fatalf("first round: %+v", first)
	}
	accept := func(content map[string]any) map[string]any {
		return map[string]any{tripKey: map[string]any{"action": "accept", "content": content}}
	}
	second := rawCall(t, s, caps, partialTrip, first.RequestState, accept(goodTrip))
	if second.ResultType != "input_required" || second.InputRequests[samplingKey] == nil {
		t.Fatalf("second round: %+v %s", second, second.text())
	}
	// The sampling retry carries no trip details: they come from the state.
	var req struct {
		Params struct {
			Messages []struct{ Content struct{ Text string } }
		}
	}
	if err := json.Unmarshal(second.InputRequests[samplingKey], &req); err != nil {
		t.Fatal(err)
	}
	ids := fakemodel.Choose(flightIDs(req.Params.Messages[0].Content.Text))
	third := rawCall(t, s, caps, partialTrip, second.RequestState, answerTo(ids...))
	if r := third.StructuredContent; r == nil || r.Method != "client_sampling" || r.Trip.Origin != "JFK" || r.Trip.Date != "2026-12-15" {
		t.Fatalf("third round: %+v %s", r, third.text())
	}
	// Every round's decisions reach the final result: the trip form's
	// (decided in the second round, carried in the state) and sampling's.
	if a := third.StructuredContent.Attempts; len(a) != 3 || a[2].Step != stepView || a[0].Step != stepTrip || a[0].Outcome != "used" || a[1].Step != "client_sampling" || a[1].Outcome != "used" {
		t.Errorf("attempts across rounds: %+v", a)
	}

	// A retry without the form's answer is asked once more; a second one
	// ends the call, naming what is missing.
	for name, responses := range map[string]map[string]any{
		"no answer":         nil,
		"answer for others": {"other": map[string]any{"action": "accept"}},
	} {
		again := rawCall(t, s, caps, partialTrip, first.RequestState, responses)
		if again.ResultType != "input_required" || again.InputRequests[tripKey] == nil {
			t.Fatalf("%s: not asked again: %+v %s", name, again, again.text())
		}
		end := rawCall(t, s, caps, partialTrip, again.RequestState, responses)
		if !end.IsError || !strings.Contains(end.text(), "no answer to the question") || !strings.Contains(end.text(), "- origin:") {
			t.Errorf("%s, twice: %s", name, end.text())
		}
	}

	for name, tc := range map[string]struct {
		args      map[string]any
		state     string
		responses map[string]any
		says      string
	}{
		"other arguments":  {map[string]any{"destination": "CDG"}, first.RequestState, accept(goodTrip), "sealed for other arguments"},
		"forged":           {partialTrip, first.RequestState[:len(first.RequestState)-4] + "AAAA", accept(goodTrip), "requestState cannot be used"},
		"content not JSON": {partialTrip, first.RequestState, map[string]any{tripKey: map[string]any{"action": "accept", "content": "JFK"}}, "problem"},
	} {
		r := rawCall(t, s, caps, tc.args, tc.state, tc.responses)
		if name == "content not JSON" {
			// Not an object: the user is asked again, with the problem.
			if r.ResultType != "input_required" {
				t.Errorf("%s: %+v %s", name, r, r.text())
			}
			continue
		}
		if !r.IsError || !strings.Contains(r.text(), tc.says) {
			t.Errorf("%s: %s", name, r.text())
		}
	}
}

// A wrong answer to the trip form gets one more form saying what was wrong
// (maxTripForms), however the first form was answered: a modern retry that
// came without the answer asks that first form again, in its own words, and
// the re-ask is not the second form. (The legacy era asks again only for a
// wrong answer: TestFindBestFlightAsksForMissingDetails, "invalid twice".)
func TestTripFormReAskIsNotTheSecondForm(t *testing.T) {
	caps := map[string]any{"elicitation": map[string]any{}}
	accept := func(content map[string]any) map[string]any {
		return map[string]any{tripKey: map[string]any{"action": "accept", "content": content}}
	}
	message := func(t *testing.T, r rawResult) string {
		t.Helper()
		var req struct{ Params struct{ Message string } }
		if err := json.Unmarshal(r.InputRequests[tripKey], &req); r.ResultType != "input_required" || err != nil {
			t.Fatalf("want a trip form, got %+v %s (%v)", r, r.text(), err)
		}
		return req.Params.Message
	}
	const firstWords, correctiveWords = "To search for flights I need", "Some trip details did not work"
	for _, tc := range []struct {
		name    string
		reAsked int // retries without the answer before the user answers
	}{
		{"answered at once", 0},
		{"answered after a retry without it", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t)
			r := rawCall(t, s, caps, partialTrip, "", nil)
			for range tc.reAsked {
				r = rawCall(t, s, caps, partialTrip, r.RequestState, nil)
				if m := message(t, r); !strings.HasPrefix(m, firstWords) {
					t.Errorf("the form asked again says %q, want the first form's words", m)
				}
			}
			r = rawCall(t, s, caps, partialTrip, r.RequestState, accept(badTrip))
			if m := message(t, r); !strings.HasPrefix(m, correctiveWords) || !strings.Contains(m, "XXQ") {
				t.Fatalf("after one wrong answer the form says %q, want what was wrong", m)
			}
			r = rawCall(t, s, caps, partialTrip, r.RequestState, accept(badTrip))
			if !r.IsError || !strings.Contains(r.text(), "still not valid after a second form") {
				t.Errorf("after two wrong answers: %+v %s, want still_invalid", r, r.text())
			}
		})
	}
}

func TestParseTripAnswer(t *testing.T) {
	for _, tc := range []struct {
		name     string
		content  any
		want     tripAnswer
		problems []string
	}{
		{"all", map[string]any{"origin": "JFK", "destination": "LHR", "date": "2026-12-15", "passengers": float64(3), "cabin": "business"},
			tripAnswer{Origin: "JFK", Destination: "LHR", Date: "2026-12-15", Passengers: ptr(3), Cabin: "business"}, nil},
		{"unknown keys ignored", map[string]any{"origin": "JFK", "password": "x", "extra": map[string]any{}}, tripAnswer{Origin: "JFK"}, nil},
		{"wrong types", map[string]any{"origin": 1, "passengers": "2", "cabin": true}, tripAnswer{}, []string{"cabin", "origin", "passengers"}},
		{"not whole", map[string]any{"passengers": 2.5}, tripAnswer{}, []string{"passengers"}},
		{"too long", map[string]any{"origin": strings.Repeat("J", 1000)}, tripAnswer{}, []string{"origin"}},
		{"null", map[string]any{"origin": nil}, tripAnswer{}, nil},
		{"not an object", "JFK", tripAnswer{}, []string{"form"}},
		{"absent", nil, tripAnswer{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ps := parseTripAnswer(tc.content)
			var fields []string
			for _, p := range ps {
				fields = append(fields, p.Field)
			}
			gotJSON, _ := json.Marshal(got)
			wantJSON, _ := json.Marshal(tc.want)
			if string(gotJSON) != string(wantJSON) || !slices.Equal(fields, tc.problems) {
				t.Errorf("got %s %v, want %s %v", gotJSON, fields, wantJSON, tc.problems)
			}
		})
	}
}

// The trip form as the server sends it, pinned.
func TestTripFormGolden(t *testing.T) {
	prefill := FindArgs{Destination: "lhr", Passengers: ptr(2), Cabin: "Business", Origin: "NEW YORK"}
	need := flights.Problems{
		{Field: "origin", Problem: `"NEW YORK" is not a known airport code`, Accepted: "a 3-letter IATA code of a known airport"},
		{Field: "date", Problem: "is missing", Accepted: "a date in YYYY-MM-DD form, from today up to one year ahead"},
	}
	b, err := json.MarshalIndent(map[string]any{
		"first":  tripForm(prefill, need, false),
		"second": tripForm(prefill, need, true),
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "tripform.golden.json", b)
}

// The call budget bounds every wait inside a call: a legacy host that never
// answers gets the budget's worth, less the reserve the last rung needs,
// not the (longer) timeout of the question.
func TestCallBudgetBoundsEveryWait(t *testing.T) {
	cfg := func(c *Config) {
		c.CallBudget = 1500 * time.Millisecond
		c.SamplingTimeout = time.Minute
		c.ElicitationTimeout = time.Minute
	}
	sampler := &fakeclient.Sampler{Behaviour: fakeclient.Silent}
	c := connect(t, newServer(t, cfg), "inprocess", mcp.ProtocolVersion20251125, client.WithSamplingHandler(sampler))
	var r FindResult
	decode(t, callTool(t, c, FindBestFlightName, jfkLHR), &r)
	if r.Method != "deterministic" || len(r.Attempts) == 0 || r.Attempts[0].Outcome != "failed" || !strings.Contains(r.Attempts[0].Reason, "no answer within 1s") {
		t.Errorf("sampling under a 1.5 s budget: method %s, attempts %+v", r.Method, r.Attempts)
	}

	form := &fakeclient.Form{Behaviour: fakeclient.Silent}
	c = connect(t, newServer(t, cfg), "inprocess", mcp.ProtocolVersion20251125, client.WithElicitationHandler(form))
	checkDetailsNeeded(t, callTool(t, c, FindBestFlightName, partialTrip), string(fallback.NoAnswer), true, "no answer within 1s")
}

// heldForms is a legacy user who leaves every form open until released.
type heldForms struct {
	shown   atomic.Int32
	release chan struct{}
}

func (h *heldForms) Elicit(ctx context.Context, _ mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	h.shown.Add(1)
	select {
	case <-h.release:
	case <-ctx.Done():
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionCancel}}, nil
}

// A legacy session with as many forms waiting as one session may gets no
// other: the trip-details error says too_many_waiting, as the attempt does,
// so the host's model knows to have the forms already shown answered or
// dismissed, not that a form failed.
func TestTripFormNotSentWhileTooManyWait(t *testing.T) {
	held := &heldForms{release: make(chan struct{})}
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125, client.WithElicitationHandler(held))
	var waiting sync.WaitGroup
	defer waiting.Wait()
	defer close(held.release)
	const most = 4 // fallback's maxWaitingPerSession
	for range most {
		waiting.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, _ = c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: FindBestFlightName, Arguments: partialTrip}})
		})
	}
	for deadline := time.Now().Add(5 * time.Second); held.shown.Load() < most; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d forms shown, want %d waiting", held.shown.Load(), most)
		}
	}
	checkDetailsNeeded(t, callTool(t, c, FindBestFlightName, partialTrip), string(fallback.TooManyWaiting), false, "answer or dismiss them first")
	if n := held.shown.Load(); n != most {
		t.Errorf("%d forms shown, want %d: the last call's form was sent", n, most)
	}
}

// A legacy host that answers the form with an error ends the call with
// form_failed, naming the fields. (A modern host that fails never retries:
// the server does not hear of it, as with silence.)
func TestTripFormThatFails(t *testing.T) {
	for _, via := range transports {
		c := connect(t, newServer(t), via, mcp.ProtocolVersion20251125, client.WithElicitationHandler(&fakeclient.Form{Behaviour: fakeclient.Fails}))
		checkDetailsNeeded(t, callTool(t, c, FindBestFlightName, partialTrip), WhyFormFailed, true, "the client answered with an error")
	}
}

// On 2025-11-25 streamable HTTP mcp-go sends sampling and roots requests
// only on the GET stream, but elicitation on the call's own response: a
// client without a GET stream still gets the trip form (the no_stream rule
// is for the other two, and must not spread to forms).
func TestLegacyHTTPFormsNeedNoGETStream(t *testing.T) {
	form := &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: goodTrip}
	c := connectWith(t, newServer(t), "http", mcp.ProtocolVersion20251125, false, client.WithElicitationHandler(form))
	var r FindResult
	decode(t, callTool(t, c, FindBestFlightName, partialTrip), &r)
	if a, _ := attemptAt(r.Attempts, stepTrip); len(form.Requests()) != 1 || a.Outcome != "used" || len(r.Flights) == 0 {
		t.Errorf("%d forms, trip attempt %+v", len(form.Requests()), a)
	}
}
