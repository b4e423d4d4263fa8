package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/flightserver/flightserver/flights"
)

// A findBestFlight call may leave out the origin, the destination or the
// date: the host's model often calls before the user said everything. When
// the client can show a form, the server asks the user for what is missing
// (once, and once more if the answer does not validate); when it cannot, the
// call ends with an isError that names each missing field, so the host's
// model asks the user instead. Nothing is ever guessed.

// The elicitation key and step of a modern trip-details round.
const (
	tripKey  = "trip"
	tripStep = "trip"
	// maxTripForms bounds the forms one call shows: the first, and one more
	// with the problems stated. A user who gets it wrong twice is better
	// served by the conversation than by a third form.
	maxTripForms = 2
	// maxFormText bounds each string the user types into the trip form.
	maxFormText = 64
)

// askedFields are the required trip details a call may leave out.
var askedFields = []string{"origin", "destination", "date"}

// formAsWhole names a problem with a form answer as a whole.
const formAsWhole = "form"

// formFields are the fields the trip form shows. A problem in any of them,
// once the user has answered, is the user's to fix in the next form.
var formFields = []string{"origin", "destination", "date", "passengers", "cabin"}

// cabinTitles label the cabin enum in the form.
var cabinTitles = map[flights.Cabin]string{
	flights.Economy: "Economy", flights.PremiumEconomy: "Premium economy", flights.Business: "Business", flights.First: "First",
}

// findState is what a modern retry of findBestFlight needs from the rounds
// before it, sealed in requestState. The client retries with the original
// arguments, so the user's answers to the trip form must travel here, into
// every later round (the sampling round included).
type findState struct {
	// Trip is the user's answer to the trip form; nil when none was shown.
	Trip *tripAnswer `json:"trip,omitempty"`
	// Forms is how many trip forms this call has shown.
	Forms int `json:"forms,omitempty"`
	// AskedAtMs and Candidates describe a sampling question: when it was
	// asked (for the attempt's elapsed time) and which candidates it
	// showed, so an answer about other flights is not applied to these.
	AskedAtMs  int64  `json:"asked,omitempty"`
	Candidates string `json:"cands,omitempty"`
}

// tripAnswer is what the user submitted in the trip form. It is untrusted
// until validated, exactly like arguments.
type tripAnswer struct {
	Origin      string `json:"origin,omitempty"`
	Destination string `json:"destination,omitempty"`
	Date        string `json:"date,omitempty"`
	Passengers  *int   `json:"passengers,omitempty"`
	Cabin       string `json:"cabin,omitempty"`
}

func (a *tripAnswer) fields() map[string]argField {
	return map[string]argField{
		"origin": stringArg(&a.Origin), "destination": stringArg(&a.Destination), "date": stringArg(&a.Date),
		"passengers": intArg(&a.Passengers), "cabin": stringArg(&a.Cabin),
	}
}

// parseTripAnswer reads accepted form content: types checked, lengths
// bounded, unknown keys ignored.
func parseTripAnswer(content any) (tripAnswer, flights.Problems) {
	var a tripAnswer
	ps := decodeForm(content, a.fields())
	for i, p := range ps {
		if p.Field == "arguments" { // the content as a whole
			ps[i] = flights.Problem{Field: formAsWhole, Problem: "the answer was not a set of fields", Accepted: "the form's fields"}
		}
	}
	for name, s := range map[string]*string{"origin": &a.Origin, "destination": &a.Destination, "date": &a.Date, "cabin": &a.Cabin} {
		if len(*s) > maxFormText {
			ps = append(ps, flights.Problem{Field: name, Problem: fmt.Sprintf("is %d characters long", len(*s)), Accepted: fmt.Sprintf("at most %d characters", maxFormText)})
			*s = ""
		}
	}
	slices.SortFunc(ps, func(x, y flights.Problem) int { return strings.Compare(x.Field, y.Field) })
	return a, ps
}

// apply overlays the user's answer on the call's arguments. The form showed
// the arguments as defaults, so what came back is the user's final word.
func (a *tripAnswer) apply(args FindArgs) FindArgs {
	set := func(dst *string, v string) {
		if strings.TrimSpace(v) != "" {
			*dst = v
		}
	}
	set(&args.Origin, a.Origin)
	set(&args.Destination, a.Destination)
	set(&args.Date, a.Date)
	set(&args.Cabin, a.Cabin)
	if a.Passengers != nil {
		args.Passengers = a.Passengers
	}
	return args
}

// overlay returns a with b's fields where b has them: a second answer that
// leaves a field out keeps the first answer's.
func (a tripAnswer) overlay(b tripAnswer) tripAnswer {
	for _, f := range []struct {
		dst *string
		v   string
	}{{&a.Origin, b.Origin}, {&a.Destination, b.Destination}, {&a.Date, b.Date}, {&a.Cabin, b.Cabin}} {
		if strings.TrimSpace(f.v) != "" {
			*f.dst = f.v
		}
	}
	if b.Passengers != nil {
		a.Passengers = b.Passengers
	}
	return a
}

// tripForm is the form: flat, primitives only, pre-filled with what the call
// (and any earlier answer) gave, and requiring only the fields that need
// the user. A default that could not pass the form's own constraints is left
// out rather than sent, so a client that checks defaults does not choke.
func tripForm(prefill FindArgs, need flights.Problems, again bool) mcp.ElicitationParams {
	airport := func(title, example, given string) map[string]any {
		p := map[string]any{"type": "string", "title": title, "description": "3-letter IATA airport code, e.g. " + example, "minLength": 3, "maxLength": 3}
		if code := strings.TrimSpace(given); len(code) == 3 {
			p["default"] = strings.ToUpper(code)
		}
		return p
	}
	date := map[string]any{"type": "string", "format": "date", "title": "Departure date", "description": "YYYY-MM-DD, in the origin's local calendar, today up to one year ahead"}
	if d := strings.TrimSpace(prefill.Date); d != "" {
		if _, err := time.Parse(flights.DateLayout, d); err == nil {
			date["default"] = d
		}
	}
	passengers := map[string]any{"type": "integer", "title": "Passengers", "minimum": flights.MinPassengers, "maximum": flights.MaxPassengers, "default": 1}
	if n := prefill.Passengers; n != nil && *n >= flights.MinPassengers && *n <= flights.MaxPassengers {
		passengers["default"] = *n
	}
	oneOf := make([]map[string]any, len(flights.Cabins))
	for i, c := range flights.Cabins {
		oneOf[i] = map[string]any{"const": string(c), "title": cabinTitles[c]}
	}
	cabin := map[string]any{"type": "string", "title": "Cabin", "oneOf": oneOf, "default": string(flights.Economy)}
	if c := flights.Cabin(strings.ToLower(strings.TrimSpace(prefill.Cabin))); slices.Contains(flights.Cabins, c) {
		cabin["default"] = string(c)
	}

	var required []string
	for _, f := range formFields {
		if slices.ContainsFunc(need, func(p flights.Problem) bool { return p.Field == f }) {
			required = append(required, f)
		}
	}
	return mcp.ElicitationParams{
		Mode:    mcp.ElicitationModeForm,
		Message: tripMessage(need, again),
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"origin":      airport("From", "JFK", prefill.Origin),
				"destination": airport("To", "LHR", prefill.Destination),
				"date":        date, "passengers": passengers, "cabin": cabin,
			},
			"required": required,
		},
	}
}

// tripMessage says why the server asks: which details it needs, or, the
// second time, what was wrong with the first answer.
func tripMessage(need flights.Problems, again bool) string {
	if !again {
		return fmt.Sprintf("To search for flights I need the %s. Fill in what is missing and check the rest.", fieldWords(need))
	}
	var b strings.Builder
	b.WriteString("Some trip details did not work:\n")
	for i, p := range need {
		if i == 5 {
			fmt.Fprintf(&b, "- … and %d more\n", len(need)-i)
			break
		}
		fmt.Fprintf(&b, "- %s\n", p)
	}
	b.WriteString("Please correct them to search.")
	return b.String()
}

// fieldWords names fields for people: "origin, destination and date".
func fieldWords(ps flights.Problems) string {
	words := map[string]string{"origin": "origin airport", "destination": "destination airport", "date": "departure date"}
	var names []string
	for _, p := range ps {
		w, ok := words[p.Field]
		if !ok {
			w = p.Field
		}
		if !slices.Contains(names, w) {
			names = append(names, w)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// Why a call ended without the trip details it needs, as structuredContent
// names it.
const (
	WhyDeclined      = "user_declined"
	WhyCancelled     = "user_cancelled"
	WhyNoAnswer      = "no_answer"
	WhyFormFailed    = "form_failed"
	WhyStillInvalid  = "still_invalid"
	WhyCannotAsk     = "client_cannot_ask"
	WhyURLModeOnly   = "url_mode_only"
	WhyUnknownClient = "unknown_client"
)

// DetailsNeeded is findBestFlight's structuredContent when it did not search
// for want of trip details. It rides on an isError result, which clients do
// not check against the output schema (mcp-go and the TypeScript SDK both
// skip errors), so its shape is documented here, in the tool description and
// in docs/FALLBACKS.md rather than in the schema.
type DetailsNeeded struct {
	// Error is always "trip_details_needed", so a client can tell this
	// error's shape from others.
	Error string `json:"error"`
	// AskedUser says whether the server showed the user a form: true means
	// the user saw it and did not give the details; false means this client
	// cannot ask.
	AskedUser bool `json:"askedUser"`
	// Why is one of the Why* constants.
	Why    string `json:"why"`
	Reason string `json:"reason"`
	// Fields are the details still needed: each field, what is wrong and
	// what is accepted.
	Fields flights.Problems `json:"fields"`
}

// detailsNeeded is the isError result that ends a call without a trip.
func detailsNeeded(why, reason string, need flights.Problems) *mcp.CallToolResult {
	asked := why != WhyCannotAsk && why != WhyURLModeOnly && why != WhyUnknownClient
	var b strings.Builder
	fmt.Fprintf(&b, "findBestFlight did not search: it needs the %s. ", fieldWords(need))
	if asked {
		fmt.Fprintf(&b, "The server asked the user in a form, and %s.\n", reason)
	} else {
		fmt.Fprintf(&b, "The server could not ask the user: %s.\n", reason)
	}
	for _, p := range need {
		fmt.Fprintf(&b, "- %s\n", p)
	}
	if why == WhyDeclined || why == WhyCancelled {
		b.WriteString("Do not guess them. If the user still wants a search, ask them in the conversation and call findBestFlight again with the details.")
	} else {
		b.WriteString("Ask the user for these in the conversation, then call findBestFlight again with them.")
	}
	res := mcp.NewToolResultStructured(DetailsNeeded{Error: "trip_details_needed", AskedUser: asked, Why: why, Reason: reason, Fields: need}, b.String())
	res.IsError = true
	return res
}

// settleTrip turns the call's arguments, and the user's answers, into a valid
// trip, asking the user through a form when details are missing and the
// client can show one. When there is no trip yet it returns the result to
// send instead: an input_required question (modern era) or an isError.
// argPs are the problems found decoding the arguments; c.state carries the
// rounds before this one and is updated for the rounds after it.
func (t *Toolset) settleTrip(ctx context.Context, c invocation, log zerolog.Logger, args FindArgs, argPs flights.Problems) (flights.Trip, *mcp.CallToolResult, error) {
	st := c.state
	var answerPs flights.Problems
	if c.resumed != nil && c.resumed.Step == tripStep {
		var res *mcp.CallToolResult
		if answerPs, res = readTripAnswer(server.ElicitationResponse(c.req.Params.InputResponses, tripKey), st, func() flights.Problems { return t.missing(args, st) }); res != nil {
			return flights.Trip{}, res, nil
		}
	}
	for {
		merged := args
		if st.Trip != nil {
			merged = st.Trip.apply(args)
		}
		trip, err := t.validator.Validate(merged.request())
		var domain flights.Problems
		if err != nil && !errors.As(err, &domain) {
			return flights.Trip{}, nil, fmt.Errorf("validate trip: %w", err)
		}
		if len(argPs) > 0 {
			// The arguments themselves are wrong: the host's model fixes
			// those, and no form is shown for them.
			return flights.Trip{}, invalidArguments(FindBestFlightName, mergeProblems(argPs, domain)), nil
		}
		ps := mergeProblems(answerPs, domain)
		if len(ps) == 0 {
			return trip, nil, nil
		}
		need, wrong := t.partition(ps, args, st.Trip != nil)
		if len(wrong) > 0 {
			return flights.Trip{}, invalidArguments(FindBestFlightName, ps), nil
		}
		if st.Forms >= maxTripForms {
			log.Info().Int("problems", len(need)).Msg("trip details still invalid after the second form")
			return flights.Trip{}, detailsNeeded(WhyStillInvalid, "the details given were still not valid after a second form", need), nil
		}
		if why, reason := cannotAsk(c.client); why != "" {
			return flights.Trip{}, detailsNeeded(why, reason, need), nil
		}
		st.Forms++
		form := tripForm(merged, need, st.Forms > 1)
		log.Info().Int("form", st.Forms).Str("need", fieldWords(need)).Msg("asking the user for trip details")
		if c.client.Era == Modern {
			data, err := json.Marshal(st)
			if err != nil {
				return flights.Trip{}, nil, fmt.Errorf("record trip form: %w", err)
			}
			token, err := t.seal(c.req, tripStep, data)
			if err != nil {
				return flights.Trip{}, nil, err
			}
			return flights.Trip{}, server.NewInputRequestBuilder(token).Elicit(tripKey, form).ToolResult(), nil
		}
		answer, res := t.elicitTrip(ctx, c.req, form, need)
		if res != nil {
			return flights.Trip{}, res, nil
		}
		if answerPs, res = readTripAnswer(answer, st, func() flights.Problems { return need }); res != nil {
			return flights.Trip{}, res, nil
		}
	}
}

// missing are the required details the call left out (for naming them when
// a modern retry's form came back empty-handed).
func (t *Toolset) missing(args FindArgs, st *findState) flights.Problems {
	merged := args
	if st.Trip != nil {
		merged = st.Trip.apply(args)
	}
	_, err := t.validator.Validate(merged.request())
	var ps flights.Problems
	errors.As(err, &ps)
	need, _ := t.partition(ps, args, st.Trip != nil)
	return need
}

// partition splits problems into those the user can fix in the form (need)
// and those in the host's arguments (wrong). Before the user has answered,
// only missing required details are the user's; after, every problem in a
// form field is, since the user saw and submitted the whole form.
func (t *Toolset) partition(ps flights.Problems, args FindArgs, answered bool) (need, wrong flights.Problems) {
	given := map[string]string{"origin": args.Origin, "destination": args.Destination, "date": args.Date}
	for _, p := range ps {
		switch {
		case answered && (slices.Contains(formFields, p.Field) || p.Field == formAsWhole):
			need = append(need, p)
		case slices.Contains(askedFields, p.Field) && strings.TrimSpace(given[p.Field]) == "":
			need = append(need, p)
		default:
			wrong = append(wrong, p)
		}
	}
	return need, wrong
}

// readTripAnswer applies the user's answer to st and returns the problems
// found reading it, or the isError that ends the call when the user did not
// answer with details. need names what is still missing; it is asked only
// then, since an accepted answer is validated with everything else anyway.
func readTripAnswer(answer *mcp.ElicitationResult, st *findState, need func() flights.Problems) (flights.Problems, *mcp.CallToolResult) {
	switch {
	case answer == nil:
		return nil, detailsNeeded(WhyFormFailed, "the retry carried no answer to the form", need())
	case answer.Action == mcp.ElicitationResponseActionDecline:
		return nil, detailsNeeded(WhyDeclined, "the user declined to give them", need())
	case answer.Action != mcp.ElicitationResponseActionAccept:
		return nil, detailsNeeded(WhyCancelled, "the user dismissed the form without answering", need())
	}
	a, ps := parseTripAnswer(answer.Content)
	if st.Trip != nil {
		a = st.Trip.overlay(a)
	}
	st.Trip = &a
	return ps, nil
}

// cannotAsk says why this request's client cannot be shown the trip form,
// or "" when it can. A client is never asked in a mode it did not declare.
func cannotAsk(c Client) (why, reason string) {
	switch {
	case !c.Known:
		return WhyUnknownClient, "a legacy request without an initialized session, so nothing says the client can show a form"
	case c.Capabilities.Elicitation == nil:
		return WhyCannotAsk, "this client did not declare elicitation"
	case !c.CanElicitForm():
		return WhyURLModeOnly, "this client declared only URL-mode elicitation, and trip details need a form"
	}
	return "", ""
}

// elicitTrip shows the form to a legacy client: a direct request under
// --elicitation-timeout (never past the call budget), with progress
// notifications while the user types. It returns the answer, or the isError
// that ends the call.
func (t *Toolset) elicitTrip(ctx context.Context, req mcp.CallToolRequest, form mcp.ElicitationParams, need flights.Problems) (*mcp.ElicitationResult, *mcp.CallToolResult) {
	timeout := min(t.elicitationTimeout, remaining(ctx)-deterministicReserve)
	if timeout <= 0 {
		return nil, detailsNeeded(WhyNoAnswer, "no time was left in the call budget to wait for an answer", need)
	}
	ectx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stop := t.progressWhileWaiting(ectx, req, "waiting for the user to give the trip details")
	answer, err := server.ServerFromContext(ctx).RequestElicitation(ectx, mcp.ElicitationRequest{Params: form})
	stop()
	switch {
	case err == nil:
		return answer, nil
	case ectx.Err() != nil && ctx.Err() == nil:
		return nil, detailsNeeded(WhyNoAnswer, fmt.Sprintf("nobody answered within %s", timeout.Round(100*time.Millisecond)), need)
	default:
		return nil, detailsNeeded(WhyFormFailed, "the form failed: "+clean(err.Error(), 120), need)
	}
}
