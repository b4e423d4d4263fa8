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
	"github.com/mark3labs/mcp-go/server"

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
	FlightID      string `json:"flightId" jsonschema:"a flight id from findBestFlight"`
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
	// ConfirmedBy says how the user's approval reached the server.
	ConfirmedBy string `json:"confirmedBy" jsonschema:"form (the user confirmed in the server's elicitation form) or arguments (the host's model passed confirm: true)"`
	Summary     string `json:"summary"`
}

const bookDescription = `SIMULATION: "books" (holds) a flight found by findBestFlight. Nothing is charged, sent or booked anywhere.
If your client can show forms (elicitation), the server asks the user to confirm, pick a seat and give the passenger name.
Otherwise get the user's explicit approval first, then call with confirm: true and passengerName as on their ID.
Never ask the user for payment details, passwords or keys for this tool.`

func (t *Toolset) bookFlightTool() (mcp.Tool, error) {
	seatValues := make([]string, len(seats))
	for i, s := range seats {
		seatValues[i] = s.value
	}
	// A hold that can be cancelled: not read-only, not destructive; a
	// second call is a second booking: not idempotent.
	return defineTool[BookArgs, BookResult](BookFlightName, "Book a flight (simulation)", bookDescription, map[string]func(*jsonschema.Schema){
		"flightId":      pattern(flightIDPattern),
		"passengerName": func(s *jsonschema.Schema) { s.MinLength, s.MaxLength = ptr(2), ptr(maxNameLen) },
		"seat":          enum(seatValues...),
	}, hints{})
}

// The elicitation key and step of a modern confirmation round.
const (
	confirmKey  = "confirm"
	confirmStep = "confirm"
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
	if prefill.PassengerName != "" {
		name["default"] = prefill.PassengerName
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

// bookFlight confirms with the user through a form when the client can show
// one, and otherwise requires the host's model to have asked (confirm: true).
func (t *Toolset) bookFlight(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	ctx, cancel := context.WithTimeout(ctx, t.callBudget)
	defer cancel()
	client := ClientFrom(ctx)
	log := t.log.With().Str("tool", BookFlightName).Str("era", string(client.Era)).Str("client", clean(client.Name, 60)).Logger()

	var args BookArgs
	ps := decodeArgs(req.Params.Arguments, args.fields())
	if strings.TrimSpace(args.FlightID) == "" {
		ps = append(ps, flights.Problem{Field: "flightId", Problem: "is missing", Accepted: "a flight id from findBestFlight"})
	}
	if args.Seat != "" && !validSeat(args.Seat) {
		ps = append(ps, flights.Problem{Field: "seat", Problem: fmt.Sprintf("%s is not a seat preference", flights.Quote(args.Seat)), Accepted: "no_preference, window, aisle or middle"})
	}
	if len(ps) > 0 {
		return invalidArguments(BookFlightName, ps), nil
	}
	f, err := t.lookupFlight(ctx, strings.TrimSpace(args.FlightID))
	if err != nil {
		return invalidArguments(BookFlightName, flights.Problems{{Field: "flightId", Problem: err.Error(), Accepted: "an id findBestFlight returned"}}), nil
	}
	if f.Depart().Before(t.now()) {
		return mcp.NewToolResultError(fmt.Sprintf("%s departed on %s: search again with findBestFlight for a current flight.", f.ID, f.Depart().Format(flights.DateLayout))), nil
	}

	var answer *mcp.ElicitationResult
	switch {
	case !client.Known || !client.CanElicitForm():
		// No form: the host's model must have asked the user.
		name, nameErr := checkName(args.PassengerName)
		if !args.Confirm || nameErr != nil {
			why := "this client cannot show the server's confirmation form"
			if client.Known && client.Capabilities.Elicitation != nil {
				why = "this client declared only URL-mode elicitation, and a booking confirmation is a form"
			}
			return mcp.NewToolResultError(fmt.Sprintf("Not booked: %s, so the call itself must carry the user's approval. "+
				"Ask the user to approve booking %s, then call bookFlight again with confirm: true and passengerName as on their ID.", why, f.ID)), nil
		}
		return t.book(f, name, seatOr(args.Seat), "arguments"), nil
	case client.Era == Modern:
		if req.Params.RequestState == "" {
			token, err := t.seal(req, confirmStep, nil)
			if err != nil {
				return nil, err
			}
			log.Info().Msg("asked the user to confirm")
			return server.NewInputRequestBuilder(token).Elicit(confirmKey, t.confirmation(f, args)).ToolResult(), nil
		}
		if _, refused, err := t.reopen(req, confirmStep); refused != nil || err != nil {
			return refused, err
		}
		if answer = server.ElicitationResponse(req.Params.InputResponses, confirmKey); answer == nil {
			return mcp.NewToolResultError("Not booked: the retry carried no answer to the confirmation form. Call bookFlight again to ask the user."), nil
		}
	default:
		timeout := min(t.elicitationTimeout, remaining(ctx)-deterministicReserve)
		ectx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		stop := t.progressWhileWaiting(ectx, req, "waiting for the user to confirm the booking")
		answer, err = server.ServerFromContext(ctx).RequestElicitation(ectx, mcp.ElicitationRequest{Params: t.confirmation(f, args)})
		stop()
		if err != nil {
			if ectx.Err() != nil && ctx.Err() == nil {
				return mcp.NewToolResultError(fmt.Sprintf("Not booked: nobody answered the confirmation form within %s. "+
					"Ask the user, then call bookFlight again.", timeout.Round(100*time.Millisecond))), nil
			}
			return mcp.NewToolResultError("Not booked: the confirmation form failed: " + clean(err.Error(), 120) + "."), nil
		}
	}

	switch answer.Action {
	case mcp.ElicitationResponseActionAccept:
	case mcp.ElicitationResponseActionDecline:
		return mcp.NewToolResultError("Not booked: the user declined the booking."), nil
	default:
		return mcp.NewToolResultError("Not booked: the user dismissed the confirmation form without answering."), nil
	}
	content, _ := answer.Content.(map[string]any)
	if confirmed, _ := content["confirm"].(bool); !confirmed {
		return mcp.NewToolResultError("Not booked: the user did not tick the confirmation."), nil
	}
	raw, _ := content["passengerName"].(string)
	name, err := checkName(raw)
	if err != nil {
		return mcp.NewToolResultError("Not booked: the passenger name in the form " + err.Error() + ". Call bookFlight again to ask once more."), nil
	}
	seat, _ := content["seat"].(string)
	if !validSeat(seat) {
		seat = seatOr(args.Seat)
	}
	log.Info().Str("flight", f.ID).Msg("booked (simulated)")
	return t.book(f, name, seat, "form"), nil
}

// confirmation is the form's request: what is being booked, and that it
// is a simulation.
func (t *Toolset) confirmation(f flights.Flight, prefill BookArgs) mcp.ElicitationParams {
	return mcp.ElicitationParams{
		Mode: mcp.ElicitationModeForm,
		Message: fmt.Sprintf("Book %s, %s %s → %s, departing %s, $%d per passenger? This is a simulation: nothing is charged or sent anywhere.",
			strings.Join(f.FlightNumbers(), "+"), f.Depart().Format("Mon 2 Jan"), f.Segments[0].From, f.Segments[len(f.Segments)-1].To,
			f.Depart().Format("15:04 MST"), f.PriceUSD),
		RequestedSchema: confirmationSchema(prefill),
	}
}

func (t *Toolset) book(f flights.Flight, name, seat, by string) *mcp.CallToolResult {
	res := BookResult{Simulated: true, Reference: t.bookingRef(f.ID), FlightID: f.ID, PassengerName: name, Seat: seat, PriceUSD: f.PriceUSD, ConfirmedBy: by}
	res.Summary = fmt.Sprintf("Simulated booking %s: %s for %s, seat %s, $%d. Nothing was charged or sent.", res.Reference, f.ID, name, seat, f.PriceUSD)
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

// progressWhileWaiting sends a progress notification every few seconds
// while the server waits for the user, when the request carried a progress
// token: hosts that reset their timeout on progress then wait for a slow
// typist. It returns the function that stops it.
func (t *Toolset) progressWhileWaiting(ctx context.Context, req mcp.CallToolRequest, message string) func() {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return func() {}
	}
	token := req.Params.Meta.ProgressToken
	srv := server.ServerFromContext(ctx)
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(t.progressEvery)
		defer tick.Stop()
		for n := 1; ; n++ {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				// Best effort: a dropped notification costs nothing.
				_ = srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress),
					map[string]any{"progressToken": token, "progress": n, "message": message})
			}
		}
	}()
	return func() { close(done); <-stopped }
}
