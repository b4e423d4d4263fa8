package tools

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/flightserver/flightserver/fallback"
	"github.com/flightserver/flightserver/flights"
)

// A findBestFlight call may leave out the origin, the destination or the
// date: the host's model often calls before the user said everything. When
// the client can show a form, the server asks the user for what is missing
// (once, and once more if the answer does not validate); when it cannot, the
// call ends with an isError that names each missing field, so the host's
// model asks the user instead. Nothing is ever guessed.

// The trip-details decision: its step (in attempts and sealed states) and
// the form's key in a modern input_required result.
const (
	stepTrip = "trip_details"
	tripKey  = "trip"
	// maxTripForms bounds the forms one call shows: the first, and one more
	// with the problems stated. A user who gets it wrong twice is better
	// served by the conversation than by a third form.
	maxTripForms = 2
	// maxFormText bounds each string the user types into the trip form.
	maxFormText = 64
)

// tripFields are the required trip details a call may leave out, for the
// user to give in a form; a client that cannot show forms sees them
// required in its listing (listing.go).
var tripFields = []string{"origin", "destination", "date"}

// formAsWhole names a problem with a form answer as a whole.
const formAsWhole = "form"

// formFields are the fields the trip form shows, in the order it shows
// them. A problem in any of them, once the user has answered, is the user's
// to fix in the next form.
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

// parseTripAnswer reads accepted form content: types checked, lengths
// bounded, unknown keys ignored.
func parseTripAnswer(content any) (tripAnswer, flights.Problems) {
	var a tripAnswer
	ps := fallback.DecodeForm(content, &a)
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
	a.setOn(&args.Origin, &args.Destination, &args.Date, &args.Cabin, &args.Passengers)
	return args
}

// overlay returns a with b's fields where b has them: a second answer that
// leaves a field out keeps the first answer's.
func (a tripAnswer) overlay(b tripAnswer) tripAnswer {
	b.setOn(&a.Origin, &a.Destination, &a.Date, &a.Cabin, &a.Passengers)
	return a
}

// setOn writes each field the answer gives (a blank text gives nothing)
// to its destination.
func (a *tripAnswer) setOn(origin, destination, date, cabin *string, passengers **int) {
	for _, f := range []struct {
		dst *string
		v   string
	}{{origin, a.Origin}, {destination, a.Destination}, {date, a.Date}, {cabin, a.Cabin}} {
		if strings.TrimSpace(f.v) != "" {
			*f.dst = f.v
		}
	}
	if a.Passengers != nil {
		*passengers = a.Passengers
	}
}

// tripForm is the form: flat, primitives only, pre-filled with what the call
// (and any earlier answer) gave, and requiring only the fields that need
// the user. A default that could not pass the form's own constraints is left
// out rather than sent, so a client that checks defaults does not choke.
func tripForm(prefill FindArgs, need flights.Problems, again bool) mcp.ElicitationParams {
	airport := func(title, example, given string) map[string]any {
		p := map[string]any{"type": "string", "title": title, "description": "a city, or an airport or metro code, e.g. " + example,
			"minLength": 2, "maxLength": maxPlaceLen}
		if place := strings.TrimSpace(given); len(place) >= 2 && len(place) <= maxPlaceLen {
			if len(place) == 3 {
				place = strings.ToUpper(place) // a code, as codes are written
			}
			p["default"] = place
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

	// In formFields' order: where from, where to, when, then the optional
	// ones, as a person fills a search form in.
	schemas := map[string]map[string]any{
		"origin":      airport("From", "New York or JFK", prefill.Origin),
		"destination": airport("To", "London or LHR", prefill.Destination),
		"date":        date, "passengers": passengers, "cabin": cabin,
	}
	var form fallback.FormSchema
	for _, f := range formFields {
		form.Properties = append(form.Properties, fallback.FormField{Name: f, Schema: schemas[f]})
		if slices.ContainsFunc(need, func(p flights.Problem) bool { return p.Field == f }) {
			form.Required = append(form.Required, f)
		}
	}
	return mcp.ElicitationParams{
		Mode:            mcp.ElicitationModeForm,
		Message:         tripMessage(need, again),
		RequestedSchema: form,
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

// WhyFormFailed is the trip-details error's why (ToolError.Why) for a form
// that failed for any reason other than the user's; every other why there
// is the fallback vocabulary's own word.
const WhyFormFailed = "form_failed"

// detailsWhy says a failed trip form in the words of the trip-details error.
func detailsWhy(w fallback.Why) string {
	switch w {
	case fallback.UserDeclined, fallback.UserCancelled, fallback.NoAnswer, fallback.StillInvalid,
		fallback.ClientCannotAsk, fallback.URLModeOnly, fallback.UnknownClient, fallback.TooManyWaiting:
		return string(w)
	case fallback.NoTime:
		return string(fallback.NoAnswer)
	default:
		return WhyFormFailed
	}
}

// detailsNeeded ends a call without a trip: an isError that names each
// missing field, what is accepted, and whether the user was asked (whether
// the form reached the client, not what the failure is called: a form
// never sent for want of time was not seen by anyone).
func detailsNeeded(c *fallback.Call, a fallback.Asked, need flights.Problems) *mcp.CallToolResult {
	why, reason, asked := a.Why, a.Reason, a.Sent
	c.Record(a.Attempt(stepTrip))
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
	if why == fallback.UserDeclined || why == fallback.UserCancelled {
		b.WriteString("Do not guess them. If the user still wants a search, ask them in the conversation and call findBestFlight again with the details.")
	} else {
		b.WriteString("Ask the user for these in the conversation, then call findBestFlight again with them.")
	}
	return c.Fail(ErrorTripDetailsNeeded, b.String(), &ToolError{Why: detailsWhy(why), Reason: reason, AskedUser: &asked, Fields: need})
}

// settleTrip turns the call's arguments, and the user's answers, into a valid
// trip. When details are missing it asks the user in a form, if the client
// can show one; a wrong answer gets one more form that says what was wrong.
// When there is no trip yet it returns the result to send instead: the
// pending form (modern era) or an isError. argPs are the problems found
// decoding the arguments; st carries the user's answers across rounds.
func (t *Toolset) settleTrip(ctx context.Context, c *fallback.Call, st *findState, args FindArgs, argPs flights.Problems) (flights.Trip, *mcp.CallToolResult) {
	var answerPs flights.Problems
	var answered time.Duration // how long the user took
	gotAnswer := false         // a form was answered in this round
	for {
		merged := args
		if st.Trip != nil {
			merged = st.Trip.apply(args)
		}
		trip, err := t.validator.Validate(merged.request())
		var domain flights.Problems
		if err != nil && !errors.As(err, &domain) {
			c.Log().Error().Err(err).Msg("validate trip")
			return flights.Trip{}, c.Fail(fallback.ErrorInvalidArguments, "findBestFlight could not check the trip: "+fallback.Clean(err.Error(), 120), nil)
		}
		if len(argPs) > 0 {
			// The arguments themselves are wrong: the host's model fixes
			// those, and no form is shown for them.
			return flights.Trip{}, invalidArguments(c, mergeProblems(argPs, domain))
		}
		ps := mergeProblems(answerPs, domain)
		if len(ps) == 0 {
			if gotAnswer {
				c.Record(fallback.UsedBy(stepTrip, "the user gave the missing details in a form", answered))
			}
			return trip, nil
		}
		need, wrong := t.partition(ps, args, st.Trip != nil)
		if len(wrong) > 0 {
			return flights.Trip{}, invalidArguments(c, ps)
		}
		// The forms the user has answered: every form shown, but for the one
		// a modern retry is about to answer (a form asked again for want of
		// an answer is the same form, and TimesAsked counts it once).
		forms := c.TimesAsked(stepTrip)
		if c.Resuming(stepTrip) {
			forms--
		} else if forms >= maxTripForms {
			return flights.Trip{}, detailsNeeded(c, fallback.Asked{Why: fallback.StillInvalid, Reason: "the details given were still not valid after a second form",
				Elapsed: answered, Sent: true}, need)
		}
		a := c.Ask(ctx, fallback.Question{Step: stepTrip, Key: tripKey, Limit: t.elicitationTimeout,
			Waiting: "waiting for the user to give the trip details",
			Form:    ptr(tripForm(merged, need, forms > 0))})
		switch {
		case a.Pending != nil:
			return flights.Trip{}, a.Pending
		case a.Failed():
			return flights.Trip{}, detailsNeeded(c, a, need)
		}
		answered, gotAnswer = a.Elapsed, true
		answerPs = readTripAnswer(a.Answer.Content, st)
	}
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
		case slices.Contains(tripFields, p.Field) && strings.TrimSpace(given[p.Field]) == "":
			need = append(need, p)
		default:
			wrong = append(wrong, p)
		}
	}
	return need, wrong
}

// readTripAnswer applies an accepted form's content to st and returns the
// problems found reading it.
func readTripAnswer(content any, st *findState) flights.Problems {
	a, ps := parseTripAnswer(content)
	if st.Trip != nil {
		a = st.Trip.overlay(a)
	}
	st.Trip = &a
	return ps
}

// mergeProblems appends domain problems to decoding problems, dropping a
// domain complaint about a field that already failed to decode (a mistyped
// origin would otherwise also be reported "missing").
func mergeProblems(decoding, domain flights.Problems) flights.Problems {
	out := slices.Clone(decoding)
	for _, p := range domain {
		if !slices.ContainsFunc(decoding, func(d flights.Problem) bool { return d.Field == p.Field }) {
			out = append(out, p)
		}
	}
	return out
}
