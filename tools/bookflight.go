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

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
)

// BookFlightName is the tool's name as clients call it.
const BookFlightName = "bookFlight"

// DefaultElicitationTimeout bounds a legacy elicitation: long enough for a
// person to read and type, short enough that the answer still arrives before
// a host's usual 60 s request timeout.
const DefaultElicitationTimeout = 40 * time.Second

// Seat preferences, offered as an enum with titles.
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
	Confirm       bool   `json:"confirm,omitempty" jsonschema:"true only after the user explicitly approved this booking (needed when your client cannot show the server's confirmation form)"`
}

func (a *BookArgs) fields() map[string]argField {
	return map[string]argField{
		"flightId": stringArg(&a.FlightID), "passengerName": stringArg(&a.PassengerName),
		"seat": stringArg(&a.Seat), "confirm": boolArg(&a.Confirm),
	}
}

// BookResult is bookFlight's structuredContent.
type BookResult struct {
	Simulated     bool   `json:"simulated" jsonschema:"always true: nothing is booked, charged or sent anywhere"`
	Reference     string `json:"reference" jsonschema:"booking reference; the server can verify it; it holds nothing secret"`
	FlightID      string `json:"flightId"`
	PassengerName string `json:"passengerName"`
	Seat          string `json:"seat"`
	PriceUSD      int    `json:"priceUSD"`
	// Attempts say how the user's approval reached the server.
	Attempts []AttemptOut `json:"attempts" jsonschema:"how the booking was confirmed: confirm_form (the user confirmed in the server's form) or confirm_arguments (the call carried confirm: true), and why the other was not used"`
	Summary  string       `json:"summary"`
}

const bookDescription = `SIMULATION: "books" (holds) a flight found by findBestFlight. Nothing is charged, sent or booked anywhere.
If your client can show forms (elicitation), the server asks the user to confirm, pick a seat and give the passenger name.
Otherwise get the user's explicit approval first, then call with confirm: true and passengerName as on their ID.
Never ask the user for payment details, passwords or keys for this tool.`

func bookFlightTool() (mcp.Tool, error) {
	seatValues := make([]string, len(seats))
	for i, s := range seats {
		seatValues[i] = s.value
	}
	// A hold that can be cancelled: not read-only, not destructive; a
	// second call is a second booking: not idempotent.
	return defineTool[BookArgs, BookResult](BookFlightName, "Book a flight (simulation)", bookDescription, map[string]func(*jsonschema.Schema){
		"flightId":      pattern(optionIDPattern),
		"passengerName": func(s *jsonschema.Schema) { s.MinLength, s.MaxLength = ptr(2), ptr(maxNameLen) },
		"seat":          enum(seatValues...),
	}, nil, hints{})
}

// The confirmation ladder's steps: the server's own form when the client
// can show one, otherwise the call's arguments.
const (
	stepConfirmForm = "confirm_form"
	stepConfirmArgs = "confirm_arguments"
	confirmKey      = "confirm"
)

// confirmationSchema is the form: flat, primitives only, nothing secret.
func confirmationSchema(prefill BookArgs) map[string]any {
	oneOf := make([]map[string]any, len(seats))
	for i, s := range seats {
		oneOf[i] = map[string]any{"const": s.value, "title": s.title}
	}
	seat := map[string]any{"type": "string", "title": "Seat preference", "oneOf": oneOf, "default": "no_preference"}
	if prefill.Seat != "" {
		seat["default"] = prefill.Seat
	}
	name := map[string]any{"type": "string", "title": "Passenger name", "description": "As it appears on the passenger's ID",
		"minLength": 2, "maxLength": maxNameLen}
	// The host's model wrote it: pre-filled only when it is a name the
	// form itself would accept.
	if n, err := checkName(prefill.PassengerName); prefill.PassengerName != "" && err == nil {
		name["default"] = n
	}
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"confirm": map[string]any{"type": "boolean", "title": "Book this flight", "description": "Hold this flight (a simulation: nothing is charged or sent)", "default": false},
			"seat":    seat, "passengerName": name,
		},
		"required": []string{"confirm", "passengerName"},
	}
}

// bookFlightSpec declares the tool: it may ask one thing, the confirmation.
func (t *Toolset) bookFlightSpec() toolSpec[struct{}] {
	return toolSpec[struct{}]{name: BookFlightName, steps: []string{stepConfirmForm}, handle: t.bookFlight}
}

// bookFlight confirms with the user through the server's form when the
// client can show one, and otherwise requires the call to carry the user's
// approval (confirm: true and the passenger's name), which the description
// tells the host's model to get first.
func (t *Toolset) bookFlight(ctx context.Context, c *call, _ *struct{}) *mcp.CallToolResult {
	var args BookArgs
	ps := decodeArgs(c.req.Params.Arguments, args.fields())
	if strings.TrimSpace(args.FlightID) == "" {
		ps = append(ps, flights.Problem{Field: "flightId", Problem: "is missing", Accepted: "a flight id from findBestFlight"})
	}
	if args.Seat != "" && !validSeat(args.Seat) {
		ps = append(ps, flights.Problem{Field: "seat", Problem: fmt.Sprintf("%s is not a seat preference", flights.Quote(args.Seat)), Accepted: "no_preference, window, aisle or middle"})
	}
	if len(ps) > 0 {
		return c.invalidArguments(ps)
	}
	f, res := t.findChosen(ctx, c, strings.TrimSpace(args.FlightID))
	if res != nil {
		return res
	}
	if f.depart().Before(t.now()) {
		return c.fail(ErrorNotBooked, fmt.Sprintf("%s departed on %s: search again with findBestFlight for a current flight.", f.id, f.depart().Format(flights.DateLayout)), nil)
	}
	// The server's own form, when it can be shown; when it cannot (the
	// client shows none, no time or round is left), the next rung runs.
	res, notSent := t.confirmByForm(ctx, c, f, args)
	if res != nil {
		return res
	}
	c.record(notSent.attempt(stepConfirmForm))

	// No form: the call itself must carry the user's approval.
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
		return notBooked(c, fallback.FailedFor(stepConfirmArgs, fallback.NotConfirmed, "the call did not carry "+missing, 0),
			fmt.Sprintf("the server could not show its confirmation form (%s), so the call itself must carry the user's approval. "+
				"Ask the user to approve booking %s, then call bookFlight again with confirm: true and passengerName as on their ID.", notSent.reason, f.id))
	}
	c.record(fallback.UsedBy(stepConfirmArgs, "the call carried confirm: true and the passenger's name (the host asked the user)", 0))
	return t.book(c, f, name, seatOr(args.Seat))
}

// confirmByForm asks the user in the server's own form and books only on an
// explicit tick and a valid name. A form that could not be sent returns no
// result, and the question, for the caller to fall back on the arguments.
func (t *Toolset) confirmByForm(ctx context.Context, c *call, f chosen, args BookArgs) (*mcp.CallToolResult, asked) {
	a := c.ask(ctx, question{step: stepConfirmForm, key: confirmKey, limit: t.elicitationTimeout,
		waiting: "waiting for the user to confirm the booking", form: ptr(t.confirmation(f, args))})
	switch {
	case a.pending != nil:
		return a.pending, a
	case a.failed() && !a.sent:
		return nil, a
	case a.failed():
		return notBooked(c, a.attempt(stepConfirmForm), formFailureText(a)+" Ask the user, then call bookFlight again."), a
	}
	content, _ := a.answer.content.(map[string]any)
	if confirmed, _ := content["confirm"].(bool); !confirmed {
		return notBooked(c, fallback.FailedFor(stepConfirmForm, fallback.NotConfirmed, "the user did not tick the confirmation", a.elapsed),
			"the user did not tick the confirmation."), a
	}
	raw, _ := content["passengerName"].(string)
	name, err := checkName(raw)
	if err != nil {
		return notBooked(c, fallback.FailedFor(stepConfirmForm, fallback.UnusableAnswer, "the passenger name in the form "+err.Error(), a.elapsed),
			"the passenger name in the form "+err.Error()+". Call bookFlight again to ask once more."), a
	}
	seat, _ := content["seat"].(string)
	if !validSeat(seat) {
		seat = seatOr(args.Seat)
	}
	c.record(fallback.UsedBy(stepConfirmForm, "the user confirmed in the server's form", a.elapsed))
	return t.book(c, f, name, seat), a
}

// notBooked records the confirmation's failed attempt and says so.
func notBooked(c *call, a fallback.Attempt, text string) *mcp.CallToolResult {
	c.record(a)
	return c.fail(ErrorNotBooked, "Not booked: "+text, &ToolError{Why: string(a.Why), Reason: a.Reason})
}

// formFailureText says why a form got no usable answer, for the text.
func formFailureText(a asked) string {
	switch a.why {
	case fallback.UserDeclined:
		return "the user declined."
	case fallback.UserCancelled:
		return "the user dismissed the form without answering."
	default:
		return "the confirmation form got no answer: " + a.reason + "."
	}
}

// confirmation is the form's request: what is being booked, and that it
// is a simulation.
func (t *Toolset) confirmation(f chosen, prefill BookArgs) mcp.ElicitationParams {
	return mcp.ElicitationParams{
		Mode: mcp.ElicitationModeForm,
		Message: fmt.Sprintf("Book %s, $%d per passenger? This is a simulation: nothing is charged or sent anywhere.",
			legsText(f), f.priceUSD()),
		RequestedSchema: confirmationSchema(prefill),
	}
}

func (t *Toolset) book(c *call, f chosen, name, seat string) *mcp.CallToolResult {
	res := BookResult{Simulated: true, Reference: t.bookingRef(f.id), FlightID: f.id, PassengerName: name, Seat: seat, PriceUSD: f.priceUSD(),
		Attempts: attemptsOut(c.attempts)}
	res.Summary = fmt.Sprintf("Simulated booking %s: %s for %s, seat %s, $%d. Nothing was charged or sent.", res.Reference, legsText(f), name, seat, f.priceUSD())
	c.log.Info().Str("flight", f.id).Msg("booked (simulated)")
	return mcp.NewToolResultStructured(res, res.Summary)
}

// bookingRef is deterministic and verifiable by any replica with the state
// key: the flight id and an HMAC tag over it. It holds nothing secret (no
// name, no key material beyond a truncated MAC).
func (t *Toolset) bookingRef(flightID string) string {
	m := hmac.New(sha256.New, t.refKey)
	m.Write([]byte("booking:" + flightID))
	tag := base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(m.Sum(nil))[:6]
	return "BK-" + flightID + "-" + tag
}

// flightFromRef verifies a booking reference and returns its flight id. A
// reference this server (or a replica with the same key) did not issue is
// refused.
func (t *Toolset) flightFromRef(ref string) (string, error) {
	id, ok := strings.CutPrefix(strings.TrimSpace(ref), "BK-")
	if !ok || len(id) < 8 {
		return "", fmt.Errorf("%s is not a booking reference (expected the form BK-JFK-LHR-261215-K3M9P-ABCDEF)", flights.Quote(ref))
	}
	id = id[:len(id)-7] // drop "-TAG"
	if !hmac.Equal([]byte(t.bookingRef(id)), []byte(strings.TrimSpace(ref))) {
		return "", fmt.Errorf("%s is not a booking reference this server issued", flights.Quote(ref))
	}
	return id, nil
}

const maxNameLen = 80

// checkName validates a passenger name from a form or an argument: letters
// (any script), spaces, hyphens, apostrophes and dots, 2 to 80 characters.
func checkName(raw string) (string, error) {
	name := strings.Join(strings.Fields(raw), " ")
	n := len([]rune(name))
	if n < 2 || n > maxNameLen {
		return "", fmt.Errorf("must be 2 to %d characters", maxNameLen)
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && r != ' ' && r != '-' && r != '\'' && r != '.' {
			return "", fmt.Errorf("may hold only letters, spaces, hyphens, apostrophes and dots")
		}
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

func seatOr(s string) string {
	if validSeat(s) {
		return s
	}
	return "no_preference"
}
