package tools

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
	"golang.org/x/text/unicode/norm"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
	"github.com/flightserver/flightserver/internal/untrusted"
)

// BookFlightName is the tool's name as clients call it.
const BookFlightName = "bookFlight"

// DefaultElicitationTimeout bounds a legacy elicitation: long enough for a
// person to read and type, short enough that the answer still arrives before
// a host's usual 60 s request timeout.
const DefaultElicitationTimeout = 40 * time.Second

// Seat preferences, offered as an enum with titles. Each value's first
// letter stands for it in a booking reference, so those must differ.
var seats = []struct{ value, title string }{
	{"no_preference", "No preference"}, {"window", "Window"}, {"aisle", "Aisle"}, {"middle", "Middle"},
}

// BookArgs are bookFlight's arguments. confirm and passengerName are
// optional in the schema because a tool's listed schema is the same for every
// client: with elicitation the user gives them in a form; without it the call
// must carry them, and the handler checks.
type BookArgs struct {
	FlightID      string `json:"flightId" jsonschema:"a flight or round-trip id from findBestFlight (a round trip holds both flights)"`
	PassengerName string `json:"passengerName,omitempty" jsonschema:"the passenger's name as it appears on their ID (needed when your client cannot show the server's confirmation form)"`
	Seat          string `json:"seat,omitempty" jsonschema:"seat preference"`
	Cabin         string `json:"cabin,omitempty" jsonschema:"the cabin findBestFlight searched (default economy): the fare held is that cabin's"`
	Confirm       bool   `json:"confirm,omitempty" jsonschema:"true only after the user explicitly approved this booking (needed when your client cannot show the server's confirmation form)"`
}

// BookResult is bookFlight's structuredContent.
type BookResult struct {
	Simulated     bool   `json:"simulated" jsonschema:"always true: nothing is booked, charged or sent anywhere"`
	Reference     string `json:"reference" jsonschema:"booking reference, for saveItinerary's bookingRef; it carries the passenger's name, seat and cabin, signed, and nothing secret"`
	FlightID      string `json:"flightId"`
	PassengerName string `json:"passengerName"`
	Seat          string `json:"seat"`
	Cabin         string `json:"cabin" jsonschema:"the cabin the fare is for"`
	PriceUSD      int    `json:"priceUSD" jsonschema:"fare per passenger in that cabin (both flights, for a round trip)"`
	// Attempts say how the user's approval reached the server.
	Attempts []AttemptOut `json:"attempts" jsonschema:"how the booking was confirmed: confirm_form (the user confirmed in the server's form) or confirm_arguments (the call carried confirm: true), and why the other was not used"`
	Summary  string       `json:"summary"`
}

const bookDescription = `SIMULATION: "books" (holds) a flight found by findBestFlight. Nothing is charged, sent or booked anywhere.
One call holds one passenger, at the fare per passenger: for several travellers, call once for each traveller, with that traveller's name (each gets a reference of their own).
If your client can show forms (elicitation), the server asks the user to confirm, pick a seat and give the passenger name.
Otherwise, or when the user closed that form without answering, get the user's explicit approval in the conversation first, then call with confirm: true and passengerName as on their ID. A user who declined the form has declined.
Pass the cabin the search used (findBestFlight's trip.cabin), so that the fare held is that cabin's.
Never ask the user for payment details, passwords or keys for this tool.`

func bookFlightTool() (mcp.Tool, error) {
	seatValues := make([]string, len(seats))
	for i, s := range seats {
		seatValues[i] = s.value
	}
	// A hold that can be cancelled: not read-only, not destructive; a
	// second call is a second booking: not idempotent.
	return fallback.DefineTool[BookArgs, BookResult](fallback.Definition{Name: BookFlightName, Title: "Book a flight (simulation)", Description: bookDescription,
		Refine: map[string]func(*jsonschema.Schema){
			"flightId":      fallback.Pattern(optionIDPattern),
			"passengerName": func(s *jsonschema.Schema) { s.MinLength, s.MaxLength = ptr(2), ptr(maxNameLen) },
			"seat":          fallback.Enum(seatValues...),
			"cabin":         fallback.Enum(flights.Cabins...),
		},
		RefineOutput: withAttempts})
}

// The confirmation ladder's steps: the server's own form when the client
// can show one, otherwise the call's arguments.
const (
	stepConfirmForm = "confirm_form"
	stepConfirmArgs = "confirm_arguments"
	confirmKey      = "confirm"
)

// confirmAnswer is what the user submitted in the confirmation form
// (confirmationSchema's fields): untrusted until checked, like arguments.
type confirmAnswer struct {
	PassengerName string `json:"passengerName"`
	Seat          string `json:"seat"`
	Confirm       bool   `json:"confirm"`
}

// confirmationSchema is the form: flat, primitives only, nothing secret,
// in the order a person fills it in: who travels, where they sit, and last
// the tick that books.
func confirmationSchema(prefill BookArgs) fallback.FormSchema {
	oneOf := make([]map[string]any, len(seats))
	for i, s := range seats {
		oneOf[i] = map[string]any{"const": s.value, "title": s.title}
	}
	seat := map[string]any{"type": "string", "title": "Seat preference", "oneOf": oneOf, "default": "no_preference"}
	if prefill.Seat != "" && validSeat(prefill.Seat) {
		seat["default"] = prefill.Seat
	}
	name := map[string]any{"type": "string", "title": "Passenger name", "description": "As it appears on the passenger's ID",
		"minLength": 2, "maxLength": maxNameLen}
	// The host's model wrote it: pre-filled only when it is a name the
	// form itself would accept.
	if n, err := checkName(prefill.PassengerName); prefill.PassengerName != "" && err == nil {
		name["default"] = n
	}
	return fallback.FormSchema{
		Properties: []fallback.FormField{
			{Name: "passengerName", Schema: name},
			{Name: "seat", Schema: seat},
			{Name: "confirm", Schema: map[string]any{"type": "boolean", "title": "Book this flight", "description": "Hold this flight (a simulation: nothing is charged or sent)", "default": false}},
		},
		Required: []string{"confirm", "passengerName"},
	}
}

// bookFlightSpec declares the tool: it may ask one thing, the confirmation.
func (t *Toolset) bookFlightSpec() fallback.Spec[struct{}] {
	return fallback.Spec[struct{}]{Name: BookFlightName, Steps: []string{stepConfirmForm}, Handle: t.bookFlight}
}

// bookFlight confirms with the user through the server's form when the
// client can show one, and otherwise requires the call to carry the user's
// approval (confirm: true and the passenger's name), which the description
// tells the host's model to get first.
func (t *Toolset) bookFlight(ctx context.Context, c *fallback.Call, _ *struct{}) *mcp.CallToolResult {
	var args BookArgs
	ps := fallback.DecodeArguments(c.Request().Params.Arguments, &args)
	if strings.TrimSpace(args.FlightID) == "" {
		ps = append(ps, flights.Problem{Field: "flightId", Problem: "is missing", Accepted: "a flight id from findBestFlight"})
	}
	if args.Seat != "" && !validSeat(args.Seat) {
		ps = append(ps, flights.Problem{Field: "seat", Problem: fmt.Sprintf("%s is not a seat preference", flights.Quote(args.Seat)), Accepted: "no_preference, window, aisle or middle"})
	}
	cabin, ok := flights.ParseCabin(args.Cabin)
	if !ok {
		ps = append(ps, flights.Problem{Field: "cabin", Problem: fmt.Sprintf("%s is not a cabin", flights.Quote(args.Cabin)), Accepted: flights.OneOf(flights.Cabins)})
	}
	if len(ps) > 0 {
		return invalidArguments(c, ps)
	}
	f, res := t.findChosen(ctx, c, strings.TrimSpace(args.FlightID), cabin)
	if res != nil {
		return res
	}
	if f.depart().Before(t.now()) {
		return c.Fail(ErrorNotBooked, fmt.Sprintf("%s departed on %s: search again with findBestFlight for a current flight.", f.id, f.depart().Format(flights.DateLayout)), nil)
	}
	// The server's own form, when it can be shown. When it cannot (the
	// client shows none, no time or round is left), or when the user
	// dismissed it without choosing anything (a host that shows nobody its
	// forms, such as Claude Code in -p mode, cancels every one), the next
	// rung runs: the call's own arguments may carry the approval the host's
	// model got in the conversation. A user who declined, or did not tick
	// the box, is never overruled by the arguments.
	res, form := t.confirmByForm(ctx, c, f, args)
	if res != nil {
		return res
	}
	c.Record(form.Attempt(stepConfirmForm))
	noForm := fmt.Sprintf("the server could not show its confirmation form (%s)", form.Reason)
	if form.Sent {
		noForm = "the user dismissed the form without answering"
	}

	// The call itself must carry the user's approval.
	name, nameErr := checkName(args.PassengerName)
	switch {
	case args.Confirm && nameErr != nil:
		// Approved, but the name cannot be used: say what is wrong with it,
		// or the host's model would send it again.
		return notBooked(c, fallback.FailedFor(stepConfirmArgs, fallback.UnusableAnswer, "passengerName "+nameErr.Error(), 0),
			fmt.Sprintf("passengerName %s. Ask the user for the passenger's name as it appears on their ID, then call bookFlight again with confirm: true and that name.", nameErr))
	case !args.Confirm:
		missing := "confirm: true"
		if nameErr != nil {
			missing = "confirm: true and passengerName"
		}
		a := fallback.FailedFor(stepConfirmArgs, fallback.NotConfirmed, "the call did not carry "+missing, 0)
		c.Record(a)
		if form.Sent {
			a = form.Attempt(stepConfirmForm) // the error's why: the dismissed form
		}
		return c.Fail(ErrorNotBooked, fmt.Sprintf("Not booked: %s, so the call itself must carry the user's approval. "+
			"Ask the user to approve booking %s in the conversation, then call bookFlight again with confirm: true and passengerName as on their ID.", noForm, f.id),
			&ToolError{Why: string(a.Why), Reason: a.Reason})
	}
	how := "the call carried confirm: true and the passenger's name (the host asked the user)"
	if form.Sent {
		how = "the form was cancelled, and the call carried confirm: true and the passenger's name (confirmed in the conversation)"
	}
	c.Record(fallback.UsedBy(stepConfirmArgs, how, 0))
	return t.book(c, f, name, seatOr(args.Seat))
}

// confirmByForm asks the user in the server's own form and books only on an
// explicit tick and a valid name. A form that could not be sent, or that the
// user dismissed without answering (cancel), returns no result, and the
// question, for the caller to fall back on the arguments; a decline, or any
// other failure, ends the call unbooked.
func (t *Toolset) confirmByForm(ctx context.Context, c *fallback.Call, f chosen, args BookArgs) (*mcp.CallToolResult, fallback.Asked) {
	a := c.Ask(ctx, fallback.Question{Step: stepConfirmForm, Key: confirmKey, Limit: t.elicitationTimeout,
		Waiting: "waiting for the user to confirm the booking", Form: ptr(t.confirmation(f, args))})
	switch {
	case a.Pending != nil:
		return a.Pending, a
	case a.Failed() && (!a.Sent || a.Why == fallback.UserCancelled):
		return nil, a
	case a.Failed():
		return notBooked(c, a.Attempt(stepConfirmForm), formFailureText(a)+" Ask the user, then call bookFlight again."), a
	}
	// A field of the wrong type reads as not given, and the checks below
	// say what that means: no tick is no booking, no usable name is asked
	// for again, no usable seat is the call's (or no preference). So the
	// decoding problems add nothing here, unlike the trip form's, which
	// the next form shows the user.
	var answer confirmAnswer
	_ = fallback.DecodeForm(a.Answer.Content, &answer)
	if !answer.Confirm {
		return notBooked(c, fallback.FailedFor(stepConfirmForm, fallback.NotConfirmed, "the user did not tick the confirmation", a.Elapsed),
			"the user did not tick the confirmation."), a
	}
	name, err := checkName(answer.PassengerName)
	if err != nil {
		return notBooked(c, fallback.FailedFor(stepConfirmForm, fallback.UnusableAnswer, "the passenger name in the form "+err.Error(), a.Elapsed),
			"the passenger name in the form "+err.Error()+". Call bookFlight again to ask once more."), a
	}
	seat := answer.Seat
	if !validSeat(seat) {
		seat = seatOr(args.Seat)
	}
	c.Record(fallback.UsedBy(stepConfirmForm, "the user confirmed in the server's form", a.Elapsed))
	return t.book(c, f, name, seat), a
}

// notBooked records the confirmation's failed attempt and says so.
func notBooked(c *fallback.Call, a fallback.Attempt, text string) *mcp.CallToolResult {
	c.Record(a)
	return c.Fail(ErrorNotBooked, "Not booked: "+text, &ToolError{Why: string(a.Why), Reason: a.Reason})
}

// formFailureText says why a form got no usable answer, for the text.
func formFailureText(a fallback.Asked) string {
	switch a.Why {
	case fallback.UserDeclined:
		return "the user declined."
	default:
		return "the confirmation form got no answer: " + a.Reason + "."
	}
}

// confirmation is the form's request: what is being booked, and that it
// is a simulation.
func (t *Toolset) confirmation(f chosen, prefill BookArgs) mcp.ElicitationParams {
	return mcp.ElicitationParams{
		Mode: mcp.ElicitationModeForm,
		Message: fmt.Sprintf("Book %s, %s, $%d, for one passenger? This is a simulation: nothing is charged or sent anywhere.",
			legsText(f), f.cabin.Words(), f.priceUSD()),
		RequestedSchema: confirmationSchema(prefill),
	}
}

func (t *Toolset) book(c *fallback.Call, f chosen, name, seat string) *mcp.CallToolResult {
	res := BookResult{Simulated: true, Reference: t.bookingRef(f.id, name, seat, f.cabin), FlightID: f.id, PassengerName: name, Seat: seat,
		Cabin: string(f.cabin), PriceUSD: f.priceUSD(), Attempts: fallback.AttemptsOut(c.Attempts())}
	res.Summary = fmt.Sprintf("Simulated booking %s: %s for %s (one passenger), %s, %s, $%d. Nothing was charged or sent.", res.Reference, legsText(f), name, f.cabin.Words(), seatWords(seat), f.priceUSD())
	c.Log().Info().Str("flight", f.id).Msg("booked (simulated)")
	return mcp.NewToolResultStructured(res, res.Summary)
}

// A booking reference, BK-<flight id>-<booking>-<tag>, carries the booking
// itself: <booking> is the seat, the passenger's name and, for any cabin but
// economy, "|" and the cabin, base32-encoded (letters and digits only), which
// saveItinerary writes into the file (the cabin's fare with it), and
// <tag> is an HMAC over the flight id and the booking under the state key.
// So any replica with the same --state-key reads a reference back without
// having kept anything, and refuses one it did not issue, or whose name or
// seat was changed. The same booking always gets the same reference, and a
// booking in another cabin another one. An economy booking's reference has
// no cabin (it is what every reference was before the cabin was carried),
// so a reference without one is economy. A name never holds "|" (checkName),
// so it cannot forge a cabin. It holds nothing secret, but the passenger's
// name can be read from it, as from a boarding pass.
var bookingEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// booking is a booking reference read back: the flight held, who travels,
// the seat asked for and the cabin whose fare was held.
type booking struct {
	flightID, passenger, seat string
	cabin                     flights.Cabin
}

// cabinMark separates the name from the cabin in a reference's booking.
const cabinMark = "|"

func (t *Toolset) bookingRef(flightID, name, seat string, cabin flights.Cabin) string {
	raw := seat[:1] + name
	if cabin != flights.Economy {
		raw += cabinMark + string(cabin)
	}
	payload := bookingEncoding.EncodeToString([]byte(raw))
	return "BK-" + flightID + "-" + payload + "-" + t.bookingTag(flightID, payload)
}

func (t *Toolset) bookingTag(flightID, payload string) string {
	m := hmac.New(sha256.New, t.refKey)
	m.Write([]byte("booking:" + flightID + ":" + payload))
	return bookingEncoding.EncodeToString(m.Sum(nil))[:6]
}

// bookingFromRef verifies a booking reference and reads it back. A
// reference this server (or a replica with the same key) did not issue is
// refused.
func (t *Toolset) bookingFromRef(ref string) (booking, error) {
	ref = strings.TrimSpace(ref)
	notRef := fmt.Errorf("%s is not a booking reference (expected the form bookFlight returns, BK-JFK-LHR-261215-K3M9P-<booking>-<tag>)", flights.Quote(ref))
	rest, ok := strings.CutPrefix(ref, "BK-")
	if !ok {
		return booking{}, notRef
	}
	rest, tag, ok1 := cutLast(rest, "-")
	id, payload, ok2 := cutLast(rest, "-")
	if !ok1 || !ok2 || id == "" {
		return booking{}, notRef
	}
	if !hmac.Equal([]byte(t.bookingTag(id, payload)), []byte(tag)) {
		return booking{}, fmt.Errorf("%s is not a booking reference this server issued", flights.Quote(ref))
	}
	// Signed by this server, so well formed: checked all the same.
	raw, err := bookingEncoding.DecodeString(payload)
	if err != nil || len(raw) < 3 {
		return booking{}, notRef
	}
	b := booking{flightID: id, passenger: string(raw[1:]), cabin: flights.Economy}
	if name, cabin, ok := strings.Cut(b.passenger, cabinMark); ok {
		c, valid := flights.ParseCabin(cabin)
		if !valid || c == flights.Economy {
			return booking{}, notRef
		}
		b.passenger, b.cabin = name, c
	}
	for _, s := range seats {
		if s.value[0] == raw[0] {
			b.seat = s.value
		}
	}
	if _, err := checkName(b.passenger); err != nil || b.seat == "" {
		return booking{}, notRef
	}
	return b, nil
}

// cutLast is strings.Cut at the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

const maxNameLen = 80

// checkName validates a passenger name from a form or an argument: letters
// (any script), spaces, hyphens, apostrophes and dots, 2 to 80 characters,
// and returns it in NFC with its spaces tidied. A letter includes the marks
// that complete it (an accent typed as a combining character, an Indic
// vowel sign or virama), so each mark must follow a letter or another mark.
// Letters and marks are only those a person sees (untrusted.Visible and
// untrusted.Mark): no Hangul filler, variation selector or other invisible
// rune can hide in a name. NFC makes one name typed two ways one name, and
// so one reference.
func checkName(raw string) (string, error) {
	name := norm.NFC.String(strings.Join(strings.Fields(raw), " "))
	n := len([]rune(name))
	if n < 2 || n > maxNameLen {
		return "", fmt.Errorf("must be 2 to %d characters", maxNameLen)
	}
	afterLetter := false
	for _, r := range name {
		// What a person sees, as untrusted.Line reads it: a letter that
		// shows nothing (a Hangul filler) is no letter, and a variation
		// selector or combining grapheme joiner is no mark.
		mark := untrusted.Mark(r)
		letter := unicode.IsLetter(r) && untrusted.Visible(r)
		switch {
		case mark && !afterLetter:
			return "", fmt.Errorf("may not have an accent or mark that follows no letter")
		case !mark && !letter && r != ' ' && r != '-' && r != '\'' && r != '.':
			return "", fmt.Errorf("may hold only letters, spaces, hyphens, apostrophes and dots")
		}
		afterLetter = mark || letter
	}
	return name, nil
}

func validSeat(s string) bool {
	for _, k := range seats {
		if s == k.value {
			return true
		}
	}
	return false
}

// seatWords is a seat preference as a sentence says it: "a window seat",
// "an aisle seat", "no seat preference".
func seatWords(s string) string {
	if s == "no_preference" || !validSeat(s) {
		return "no seat preference"
	}
	if s == "aisle" {
		return "an aisle seat"
	}
	return "a " + s + " seat"
}

func seatOr(s string) string {
	if validSeat(s) {
		return s
	}
	return "no_preference"
}
