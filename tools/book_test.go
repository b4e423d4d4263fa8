package tools

import (
	"cmp"
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/internal/fakeclient"
)

var goodForm = map[string]any{"confirm": true, "passengerName": "Ada Lovelace", "seat": "window"}

func TestBookFlightWithForm(t *testing.T) {
	id := aFlight(t)
	for _, tc := range []struct {
		name    string
		form    *fakeclient.Form
		booked  bool
		seat    string // booked: the seat held (default window)
		says    string // in the error text when not booked
		callErr string // modern silent: the client gives up
		// dismissed: the user closed the form without choosing, so the
		// approval the call carries (the host's model asked in the
		// conversation) books; without it the text says how to give it.
		dismissed bool
	}{
		{name: "accepts", form: &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: goodForm}, booked: true},
		{name: "declines", form: &fakeclient.Form{Behaviour: fakeclient.Declines}, says: "the user declined"},
		{name: "cancels", form: &fakeclient.Form{Behaviour: fakeclient.Cancels}, says: "dismissed the form", dismissed: true},
		{name: "confirm false", form: &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: map[string]any{"confirm": false, "passengerName": "Ada Lovelace"}}, says: "did not tick"},
		{name: "bad name", form: &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: map[string]any{"confirm": true, "passengerName": "x<script>"}}, says: "passenger name"},
		{name: "wrong types", form: &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: map[string]any{"confirm": "yes", "passengerName": 42}}, says: "did not tick"},
		{name: "name not a string", form: &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: map[string]any{"confirm": true, "passengerName": 42}}, says: "passenger name"},
		// A seat that is not one (or not a string) is no preference.
		{name: "seat not a string", form: &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: map[string]any{"confirm": true, "passengerName": "Ada Lovelace", "seat": 1}}, booked: true, seat: "no_preference"},
		// A client's own keys are not the server's: ignored.
		{name: "extra keys", form: &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: map[string]any{"confirm": true, "passengerName": "Ada Lovelace", "seat": "window", "x-client": map[string]any{"a": 1}}}, booked: true},
		{name: "silent", form: &fakeclient.Form{Behaviour: fakeclient.Silent}, says: "got no answer: no answer within 300ms", callErr: "context deadline exceeded"},
		// A 2026-07-28 host that fails never retries: like silence, the
		// server does not hear of it, and the call ends at the client.
		{name: "fails", form: &fakeclient.Form{Behaviour: fakeclient.Fails}, says: fakeclient.FormFailMessage, callErr: fakeclient.FormFailMessage},
	} {
		// The host's model may send confirm: true and a name as well: with
		// a form shown, only the user's answer counts, so a declined form
		// books nothing even then. Only a form dismissed without an answer
		// leaves the decision to the call's arguments.
		for args, withApproval := range map[string]map[string]any{
			"":                 {"flightId": id},
			"+confirm in args": {"flightId": id, "confirm": true, "passengerName": "Ada Lovelace"},
		} {
			for _, via := range transports {
				for _, era := range eras {
					t.Run(tc.name+args+"/"+via+"/"+era.Name, func(t *testing.T) {
						res, form := callWithForm(t, via, era.Version, tc.form, tc.callErr, BookFlightName, withApproval)
						if res == nil {
							return
						}
						if len(form.Requests()) != 1 {
							t.Fatalf("%d forms shown, want 1", len(form.Requests()))
						}
						checkFormSchema(t, form.Requests()[0].Params)
						if msg := form.Requests()[0].Params.Message; !strings.Contains(msg, "simulation") {
							t.Errorf("message does not say it is a simulation: %q", msg)
						}
						checkErrorShape(t, res)
						if tc.dismissed {
							checkDismissedForm(t, res, withApproval["confirm"] == true, tc.says)
							return
						}
						if !tc.booked {
							if !res.IsError || !strings.Contains(text(res), "Not booked") || !strings.Contains(text(res), tc.says) {
								t.Errorf("want not booked saying %q, got %s", tc.says, text(res))
							}
							d := errorDetails(t, res)
							if a, ok := attemptAt(d.Attempts, stepConfirmForm); d.Error != ErrorNotBooked || !ok || a.Outcome != "failed" || a.Why == "" || d.Why != a.Why {
								t.Errorf("details %+v", d)
							}
							if _, fellThrough := attemptAt(d.Attempts, stepConfirmArgs); fellThrough {
								t.Errorf("a form the user saw fell through to the call's own confirmation: %+v", d.Attempts)
							}
							return
						}
						var r BookResult
						decodeWith(t, bookOutputSchema, res, &r)
						seat := cmp.Or(tc.seat, "window")
						if !r.Simulated || r.PassengerName != "Ada Lovelace" || r.Seat != seat || usedStep(r.Attempts) != stepConfirmForm || r.FlightID != id ||
							!regexp.MustCompile(`^BK-`+regexp.QuoteMeta(id)+`-[A-Z2-7]+-[A-Z2-7]{6}$`).MatchString(r.Reference) {
							t.Errorf("booking %+v", r)
						}
					})
				}
			}
		}
	}
}

// checkDismissedForm checks a call whose confirmation form the user closed
// without answering: the form's attempt failed user_cancelled, and the
// call's own arguments decided: booked by confirm_arguments when they
// carried the approval, else not booked, saying how to give it.
func checkDismissedForm(t *testing.T, res *mcp.CallToolResult, approved bool, says string) {
	t.Helper()
	if !approved {
		if !res.IsError || !strings.Contains(text(res), "Not booked") || !strings.Contains(text(res), says) || !strings.Contains(text(res), "confirm: true and passengerName") {
			t.Errorf("want not booked saying %q and how to confirm, got %s", says, text(res))
		}
		d := errorDetails(t, res)
		form, _ := attemptAt(d.Attempts, stepConfirmForm)
		args, _ := attemptAt(d.Attempts, stepConfirmArgs)
		if d.Error != ErrorNotBooked || form.Outcome != "failed" || form.Why != "user_cancelled" || args.Outcome != "failed" || args.Why != "not_confirmed" || d.Why != "user_cancelled" {
			t.Errorf("details %+v", d)
		}
		return
	}
	var r BookResult
	decodeWith(t, bookOutputSchema, res, &r)
	form, _ := attemptAt(r.Attempts, stepConfirmForm)
	args, _ := attemptAt(r.Attempts, stepConfirmArgs)
	if res.IsError || !r.Simulated || r.PassengerName != "Ada Lovelace" || form.Outcome != "failed" || form.Why != "user_cancelled" ||
		args.Outcome != "used" || !strings.Contains(args.Reason, "form was cancelled") || !strings.Contains(args.Reason, "confirm: true") {
		t.Errorf("a dismissed form and the call's approval: %s %+v", text(res), r)
	}
}

// Every form the server can send must be a flat object of the primitive
// properties the spec allows, and must never ask for a secret.
func checkFormSchema(t *testing.T, p mcp.ElicitationParams) {
	t.Helper()
	if p.Mode != "" && p.Mode != mcp.ElicitationModeForm {
		t.Errorf("mode %q", p.Mode)
	}
	schema, _ := wireForm(t, p)
	if schema["type"] != "object" {
		t.Fatalf("schema %#v", p.RequestedSchema)
	}
	secret := regexp.MustCompile(`(?i)password|secret|token|api.?key|card|cvv|cvc|iban|pin\b|security code`)
	props, _ := schema["properties"].(map[string]any)
	for name, raw := range props {
		prop, _ := raw.(map[string]any)
		switch prop["type"] {
		case "string", "number", "integer", "boolean":
		default:
			t.Errorf("property %s has type %v: not a primitive", name, prop["type"])
		}
		if _, nested := prop["properties"]; nested {
			t.Errorf("property %s is nested", name)
		}
		for _, words := range []any{name, prop["title"], prop["description"]} {
			if s, _ := words.(string); secret.MatchString(s) {
				t.Errorf("property %s asks for a secret: %q", name, s)
			}
		}
		// A default the form's own bounds refuse would make the user's
		// host reject the form, or the user fix the server's pre-fill.
		if d, ok := prop["default"].(string); ok {
			n := len([]rune(d))
			if lo, ok := prop["minLength"].(float64); ok && float64(n) < lo {
				t.Errorf("property %s: default %q is shorter than its minLength %v", name, d, lo)
			}
			if hi, ok := prop["maxLength"].(float64); ok && float64(n) > hi {
				t.Errorf("property %s: default of %d characters is longer than its maxLength %v", name, n, hi)
			}
		}
	}
}

// The confirmation form is pre-filled with the passenger name the call
// carried only when it is a name the form would accept (the host's model
// wrote it), cleaned of extra spaces.
func TestConfirmationPrefill(t *testing.T) {
	for _, tc := range []struct{ given, want string }{
		{"  Ada   Lovelace ", "Ada Lovelace"},
		{strings.Repeat("A", 10_000), ""},
		{"R2-D2", ""},
		{"", ""},
	} {
		schema := confirmationSchema(BookArgs{PassengerName: tc.given})
		if got, _ := schema.Field("passengerName")["default"].(string); got != tc.want {
			t.Errorf("passengerName %.20q: default %q, want %q", tc.given, got, tc.want)
		}
		checkFormSchema(t, mcp.ElicitationParams{RequestedSchema: schema})
	}
}

func TestBookFlightWithoutForm(t *testing.T) {
	id := aFlight(t)
	urlOnly := client.WithClientCapabilities(mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{URL: &struct{}{}}})
	for _, era := range eras {
		for name, opts := range map[string][]client.ClientOption{"not declared": nil, "url only": {urlOnly}} {
			t.Run(era.Name+"/"+name, func(t *testing.T) {
				c := connect(t, newServer(t), "inprocess", era.Version, opts...)
				res := callTool(t, c, BookFlightName, map[string]any{"flightId": id})
				if !res.IsError || !strings.Contains(text(res), "confirm: true") {
					t.Errorf("without approval: %s", text(res))
				}
				d := errorDetails(t, res)
				form, _ := attemptAt(d.Attempts, stepConfirmForm)
				args, _ := attemptAt(d.Attempts, stepConfirmArgs)
				if form.Outcome != "skipped" || args.Outcome != "failed" || args.Why != "not_confirmed" {
					t.Errorf("attempts %+v", d.Attempts)
				}
				if name == "url only" && !strings.Contains(text(res), "URL-mode") {
					t.Errorf("url only: %s", text(res))
				}
				res = callTool(t, c, BookFlightName, map[string]any{"flightId": id, "confirm": true, "passengerName": "Grace Hopper", "seat": "aisle"})
				var r BookResult
				decodeWith(t, bookOutputSchema, res, &r)
				if usedStep(r.Attempts) != stepConfirmArgs || r.PassengerName != "Grace Hopper" || r.Seat != "aisle" {
					t.Errorf("with approval: %+v", r)
				}
				// The same booking gives the same, verifiable reference;
				// another passenger's, another.
				again := callTool(t, c, BookFlightName, map[string]any{"flightId": id, "confirm": true, "passengerName": "Grace  Hopper", "seat": "aisle"})
				var r2 BookResult
				decodeWith(t, bookOutputSchema, again, &r2)
				if r2.Reference != r.Reference {
					t.Errorf("references %s and %s for one booking", r.Reference, r2.Reference)
				}
				other := callTool(t, c, BookFlightName, map[string]any{"flightId": id, "confirm": true, "passengerName": "Alan Turing", "seat": "aisle"})
				var r3 BookResult
				decodeWith(t, bookOutputSchema, other, &r3)
				if r3.Reference == r.Reference {
					t.Errorf("one reference %s for two passengers", r.Reference)
				}
			})
		}
	}
}

// Under a call budget too short to wait for anyone, bookFlight does not show
// a form it could not wait for (it once asked with a negative timeout and
// reported "nobody answered within -100ms"): the form is skipped, no_time,
// and the next rung runs, the approval carried by the call itself: without
// it nothing is booked and the text says there was no time; with it the
// booking is made.
func TestBookFlightWithNoTimeToAsk(t *testing.T) {
	id := aFlight(t)
	for _, via := range transports {
		t.Run(via, func(t *testing.T) {
			form := &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: goodForm}
			s := newServer(t, func(c *Config) { c.CallBudget = 400 * time.Millisecond })
			c := connect(t, s, via, mcp.ProtocolVersion20251125, client.WithElicitationHandler(form))
			res := callTool(t, c, BookFlightName, map[string]any{"flightId": id})
			d := errorDetails(t, res)
			skipped, _ := attemptAt(d.Attempts, stepConfirmForm)
			if !res.IsError || d.Why != "not_confirmed" || skipped.Outcome != "skipped" || skipped.Why != "no_time" ||
				!strings.Contains(text(res), "no time was left in the call budget") {
				t.Errorf("%s %+v", text(res), d)
			}
			res = callTool(t, c, BookFlightName, map[string]any{"flightId": id, "confirm": true, "passengerName": "Ada Lovelace"})
			var b BookResult
			decodeWith(t, bookOutputSchema, res, &b)
			if used, _ := attemptAt(b.Attempts, stepConfirmArgs); res.IsError || used.Outcome != "used" {
				t.Errorf("no time for the form, approval in the arguments: %s %+v", text(res), b.Attempts)
			}
			if n := len(form.Requests()); n != 0 {
				t.Errorf("%d forms shown with no time to wait for them", n)
			}
		})
	}
}

func TestBookFlightBadIDs(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125)
	for _, args := range []map[string]any{
		{},
		{"flightId": "JFK-LHR-261215-ZZZZZ", "confirm": true, "passengerName": "Ada Lovelace"},
		{"flightId": "nonsense", "confirm": true, "passengerName": "Ada Lovelace"},
		{"flightId": aFlight(t), "seat": "cockpit"},
	} {
		if res := callTool(t, c, BookFlightName, args); !res.IsError {
			t.Errorf("%v: %s", args, text(res))
		}
	}
	// A flight that has departed is stale.
	later := newServer(t, func(c *Config) { c.Now = func() time.Time { return today().AddDate(0, 1, 0) } })
	c = connect(t, later, "inprocess", mcp.ProtocolVersion20251125)
	if res := callTool(t, c, BookFlightName, map[string]any{"flightId": aFlight(t), "confirm": true, "passengerName": "Ada Lovelace"}); !res.IsError || !strings.Contains(text(res), "departed") {
		t.Errorf("stale id: %s", text(res))
	}
}

// While a legacy call waits for a slow user, a request that carried a
// progress token gets progress notifications, so hosts that reset their
// timeout on progress keep waiting.
func TestBookFlightReportsProgressWhileWaiting(t *testing.T) {
	id := aFlight(t)
	for _, via := range transports {
		t.Run(via, func(t *testing.T) {
			form := &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: goodForm, Delay: 400 * time.Millisecond}
			s := newServer(t, func(c *Config) { c.ProgressInterval = 50 * time.Millisecond })
			c := connect(t, s, via, mcp.ProtocolVersion20251125, client.WithElicitationHandler(form))
			var mu sync.Mutex
			var progress []mcp.JSONRPCNotification
			c.OnNotification(func(n mcp.JSONRPCNotification) {
				if n.Method == string(mcp.MethodNotificationProgress) {
					mu.Lock()
					progress = append(progress, n)
					mu.Unlock()
				}
			})
			req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: BookFlightName, Arguments: map[string]any{"flightId": id},
				Meta: &mcp.Meta{ProgressToken: "book-1"}}}
			res, err := c.CallTool(context.Background(), req)
			if err != nil || res.IsError {
				t.Fatalf("%v %s", err, text(res))
			}
			mu.Lock()
			defer mu.Unlock()
			// Best effort on HTTP (a notification may be dropped), so: some.
			if len(progress) == 0 {
				t.Fatal("no progress notification while the user took 400 ms")
			}
			if tok := progress[0].Params.AdditionalFields["progressToken"]; tok != "book-1" {
				t.Errorf("progress token %v", tok)
			}
		})
	}
	// Without a token, none is sent.
	form := &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: goodForm, Delay: 200 * time.Millisecond}
	c := connect(t, newServer(t, func(c *Config) { c.ProgressInterval = 20 * time.Millisecond }), "inprocess", mcp.ProtocolVersion20251125, client.WithElicitationHandler(form))
	var got int32
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationProgress) {
			atomic.AddInt32(&got, 1)
		}
	})
	callTool(t, c, BookFlightName, map[string]any{"flightId": id})
	if atomic.LoadInt32(&got) != 0 {
		t.Errorf("%d progress notifications without a token", got)
	}
}

// A trip form the budget left no time to wait for is not sent, and the
// error says so: the user was not asked (askedUser false, skipped no_time),
// so the host's model must ask, rather than being told the user saw a form.
func TestTripDetailsWithNoTimeToAsk(t *testing.T) {
	for _, via := range transports {
		t.Run(via, func(t *testing.T) {
			form := &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: goodForm}
			s := newServer(t, func(c *Config) { c.CallBudget = 400 * time.Millisecond })
			c := connect(t, s, via, mcp.ProtocolVersion20251125, client.WithElicitationHandler(form))
			res := callTool(t, c, FindBestFlightName, map[string]any{"origin": "JFK", "destination": "LHR"})
			d := errorDetails(t, res)
			a, _ := attemptAt(d.Attempts, stepTrip)
			if !res.IsError || d.Error != ErrorTripDetailsNeeded || d.AskedUser == nil || *d.AskedUser || a.Outcome != "skipped" || a.Why != "no_time" ||
				!strings.Contains(text(res), "could not ask the user") {
				t.Errorf("%s %+v", text(res), d)
			}
			if n := len(form.Requests()); n != 0 {
				t.Errorf("%d forms shown with no time to wait for them", n)
			}
		})
	}
}

// A flight is held in the cabin the search used, at the fare that search
// showed (per passenger, both flights for a round trip); economy when no
// cabin is given. A cabin that is no cabin is refused by name, and a flight
// whose airline does not sell the cabin is refused as not sold in it, not
// as an unknown flight.
func TestBookFlightInTheCabinSearched(t *testing.T) {
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125)
	book := func(id, cabin string) (BookResult, *mcp.CallToolResult) {
		args := map[string]any{"flightId": id, "confirm": true, "passengerName": "Ada Lovelace"}
		if cabin != "" {
			args["cabin"] = cabin
		}
		res := callTool(t, c, BookFlightName, args)
		var r BookResult
		if !res.IsError {
			decodeWith(t, bookOutputSchema, res, &r)
		}
		return r, res
	}
	for _, tc := range []struct {
		name  string
		trip  map[string]any
		cabin string
	}{
		{"one way, economy by default", jfkLHR, ""},
		{"one way in business", with(with(jfkLHR, "cabin", "business"), "passengers", 3), "business"},
		{"round trip in premium economy", with(roundTrip, "cabin", "premium_economy"), "premium_economy"},
		{"written as a person would", with(jfkLHR, "cabin", "business"), " Business "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var found FindResult
			decode(t, callTool(t, c, FindBestFlightName, tc.trip), &found)
			for _, pick := range found.Flights {
				b, res := book(pick.ID, tc.cabin)
				if res.IsError {
					t.Fatalf("%s: %s", pick.ID, text(res))
				}
				if b.Cabin != found.Trip.Cabin || b.PriceUSD != pick.PriceUSD || !strings.Contains(b.Summary, flights.Cabin(found.Trip.Cabin).Words()) {
					t.Errorf("%s held in %s at $%d (%s); the search showed %s at $%d", pick.ID, b.Cabin, b.PriceUSD, b.Summary, found.Trip.Cabin, pick.PriceUSD)
				}
			}
		})
	}
	economy := aFlight(t)
	if _, res := book(economy, "sleeper"); !res.IsError || !strings.Contains(text(res), `cabin: "sleeper" is not a cabin`) {
		t.Errorf("a cabin that is none: %s", text(res))
	}
	// A flight of an airline that sells no first class, booked in first.
	cat, err := flights.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var found FindResult
	decode(t, callTool(t, c, FindBestFlightName, with(jfkLHR, "strategy", "candidates")), &found)
	var noFirst string
	for _, f := range found.Flights {
		if !slices.ContainsFunc(f.Airlines, func(code string) bool { return cat.Airline(code).Sells(flights.First) }) {
			noFirst = f.ID
			break
		}
	}
	if noFirst == "" {
		t.Fatalf("no flight of an airline without first among %d", len(found.Flights))
	}
	if _, res := book(noFirst, "first"); !res.IsError || !strings.Contains(text(res), "is not sold in first") {
		t.Errorf("%s in first: %s", noFirst, text(res))
	}
}

// A passenger's name is letters of any script, and letters include the
// marks that complete them: an accent typed as a combining character (as
// macOS and some keyboards send "José"), and the vowel signs and viramas
// of Indic scripts, which have no precomposed form. The name is kept in
// NFC, so one name typed two ways is one booking and one reference. Marks
// must follow a letter: a name cannot start with one, nor hang one on a
// space or a hyphen.
func TestCheckName(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"Ada Lovelace", "Ada Lovelace"},
		{"  Zoë   O'Brien-Smith Jr. ", "Zoë O'Brien-Smith Jr."},
		{"Jose\u0301 Garci\u0301a", "José García"}, // decomposed: composed
		{"José García", "José García"},
		{"प्रिया शर्मा", "प्रिया शर्मा"}, // Devanagari: vowel signs and a virama
		{"Nguyễn Văn An", "Nguyễn Văn An"},
		{"Nguye\u0302\u0303n Va\u0306n An", "Nguyễn Văn An"},
		{"李小龍", "李小龍"},
		{"\u0301Ada", ""},        // a mark on nothing
		{"Ada -\u0301Byron", ""}, // a mark on a hyphen
		{"Ada \u0301Byron", ""},  // a mark on a space
		{"Ada<script>", ""},
		{"Ada|first", ""},
		{"Ada\u3164Byron", ""},            // a Hangul filler: a letter that shows nothing
		{"Ada\ufe0f\U000e0100 Byron", ""}, // variation selectors on a letter
		{"Ada\u034f Byron", ""},           // the combining grapheme joiner
		{"Ada\u2800Byron", ""},            // braille blank
		{"Ada\u200b Byron", ""},           // zero-width space
		{"A", ""},
		{strings.Repeat("a", maxNameLen+1), ""},
	} {
		got, err := checkName(tc.raw)
		if tc.want == "" {
			if err == nil {
				t.Errorf("checkName(%q) = %q, want an error", tc.raw, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("checkName(%q) = %q, %v; want %q", tc.raw, got, err, tc.want)
		}
	}
}

// One booking holds one passenger, whatever the search's passengers were:
// the description tells the host's model to book each traveller, the form
// says whom it holds, and the result says it held one passenger, so that
// nobody searching for a family reads one hold as the family's.
func TestBookFlightSaysItHoldsOnePassenger(t *testing.T) {
	id := aFlight(t)
	c := connect(t, newServer(t), "inprocess", mcp.ProtocolVersion20251125)
	list, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if tool.Name == BookFlightName && (!strings.Contains(tool.Description, "one passenger") || !strings.Contains(tool.Description, "once for each traveller")) {
			t.Errorf("the description does not say a booking holds one passenger:\n%s", tool.Description)
		}
	}
	res, form := callWithForm(t, "inprocess", mcp.ProtocolVersion20251125, &fakeclient.Form{Behaviour: fakeclient.Accepts, Content: goodForm}, "", BookFlightName, map[string]any{"flightId": id})
	if msg := form.Requests()[0].Params.Message; !strings.Contains(msg, "for one passenger") {
		t.Errorf("the form does not say it holds one passenger: %q", msg)
	}
	var b BookResult
	decodeWith(t, bookOutputSchema, res, &b)
	if !strings.Contains(b.Summary, "Ada Lovelace (one passenger)") || !strings.Contains(b.Summary, "a window seat") {
		t.Errorf("the summary does not say it held one passenger: %q", b.Summary)
	}
}

// A booking's summary is read by people: a seat preference is said in
// words, never as its enum value.
func TestSeatWords(t *testing.T) {
	for seat, want := range map[string]string{"no_preference": "no seat preference", "window": "a window seat", "aisle": "an aisle seat", "middle": "a middle seat", "": "no seat preference", "bunk": "no seat preference"} {
		if got := seatWords(seat); got != want {
			t.Errorf("seatWords(%q) = %q, want %q", seat, got, want)
		}
	}
}
