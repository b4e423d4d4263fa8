// Command flightdemo is a scripted MCP host: it plays named host profiles
// (what a host declares, which protocol era it speaks, how its user and
// model behave) against flightserver and shows which path the server took
// for each, and why. It needs no network and no key: the host's model is a
// deterministic stand-in that reads the flights in the prompt, and the
// server-side LLM, where a profile wants one, is a stand-in endpoint the
// demo starts itself.
//
//	go run ./cmd/flightdemo                          # every profile, as a table
//	go run ./cmd/flightdemo --profile modern-everything --explain
//	go run ./cmd/flightdemo --transport http --json
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	default:
		fmt.Fprintln(os.Stderr, "flightdemo:", err)
		os.Exit(2)
	}
}

// usage is --help: what the demo is, then its flags in --flag form.
func usage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage: flightdemo [flags]

flightdemo is a scripted MCP host. It starts flightserver and plays host
profiles against it (what a host declares, its protocol era, how its user and
model behave), then shows which path the server took for each and why: what it
asked the host for, which way of ranking was used, and what became of every
other. It needs no network and no key: the host's model is a deterministic
stand-in, and so is the server-side LLM where a profile wants one.

  flightdemo                                        every profile, as a table
  flightdemo --profile modern-everything --explain  one run, message by message
  flightdemo --list                                 the profiles

Flags:
`)
	fs.VisitAll(func(f *flag.Flag) {
		kind, text := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if kind != "" {
			line += " " + kind
		}
		if f.DefValue != "" && f.DefValue != "false" {
			text += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "%s\n        %s\n", line, text)
	})
}

func run(ctx context.Context, argv []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("flightdemo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { usage(stderr, fs) }
	var o options
	var names string
	var asJSON, list bool
	fs.StringVar(&o.server, "server", "", "the flightserver binary (default: built from this module with go build, else flightserver on PATH)")
	fs.StringVar(&o.transport, "transport", "stdio", "how to reach the server the demo starts: stdio or http")
	fs.StringVar(&o.url, "url", "", "use an already running server at this streamable HTTP URL (e.g. http://127.0.0.1:8080/mcp); its own flags then decide, not the profiles'")
	fs.StringVar(&names, "profile", "", "comma-separated profiles to play (default: all; see --list)")
	fs.BoolVar(&o.explain, "explain", false, "print each run as a step-by-step story of the messages exchanged")
	fs.BoolVar(&asJSON, "json", false, "print machine-readable JSON")
	fs.BoolVar(&list, "list", false, "list the profiles and exit")
	if err := fs.Parse(argv); err != nil {
		return err
	}
	// mcp-go's client transports log to slog's default logger; the
	// transcript already holds everything worth reading.
	slog.SetDefault(slog.New(slog.DiscardHandler))
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags only; see --help)", fs.Arg(0))
	}
	if o.transport != "stdio" && o.transport != "http" {
		return fmt.Errorf("--transport %q: want stdio or http", o.transport)
	}
	if list {
		w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		for _, p := range profiles {
			fmt.Fprintf(w, "%s\t%s\t%s\n", p.Name, p.Era, p.Shows)
		}
		return w.Flush()
	}

	chosen := profiles
	if names != "" {
		chosen = nil
		for _, n := range strings.Split(names, ",") {
			p, ok := findProfile(strings.TrimSpace(n))
			if !ok {
				return fmt.Errorf("no profile %q (see --list)", n)
			}
			chosen = append(chosen, p)
		}
	}
	if o.url == "" {
		bin, cleanup, err := serverBinary(ctx, o.server, stderr)
		if err != nil {
			return err
		}
		defer cleanup()
		o.server = bin
	}

	var results []runResult
	for _, p := range chosen {
		results = append(results, play(ctx, p, o))
		if ctx.Err() != nil {
			break
		}
	}
	switch {
	case asJSON:
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			return err
		}
	case o.explain:
		for _, r := range results {
			explain(stdout, r)
		}
	default:
		if err := table(stdout, results); err != nil {
			return err
		}
	}
	for _, r := range results {
		if r.Error != "" {
			return fmt.Errorf("profile %s did not complete: %s", r.Profile, r.Error)
		}
	}
	return nil
}

// serverBinary finds the server to run: the flag, else a build of this
// module's cmd/flightserver (the code the reader is looking at, not an
// older flightserver on PATH), else, when that cannot be built, the one on
// PATH, said so.
func serverBinary(ctx context.Context, flagValue string, stderr io.Writer) (string, func(), error) {
	if flagValue != "" {
		return flagValue, func() {}, nil
	}
	bin, cleanup, err := buildServer(ctx, stderr)
	if err == nil {
		return bin, cleanup, nil
	}
	if p, lookErr := exec.LookPath("flightserver"); lookErr == nil {
		fmt.Fprintf(stderr, "flightdemo: %v; running %s from PATH instead\n", err, p)
		return p, func() {}, nil
	}
	return "", nil, err
}

// buildServer builds this module's cmd/flightserver into a temporary
// directory.
func buildServer(ctx context.Context, stderr io.Writer) (string, func(), error) {
	dir, err := os.MkdirTemp("", "flightdemo-bin-")
	if err != nil {
		return "", nil, err
	}
	bin := filepath.Join(dir, "flightserver")
	fmt.Fprintln(stderr, "flightdemo: building ./cmd/flightserver (pass --server to skip)")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/flightserver/flightserver/cmd/flightserver")
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("build flightserver (run from the repository, or pass --server): %w", err)
	}
	return bin, func() { os.RemoveAll(dir) }, nil
}

// tableWidth is the widest line the table prints: a terminal of 120
// columns shows it unwrapped.
const tableWidth = 120

// table prints one row per profile (what the server asked for, which tier
// ranked, how long it took), each followed by its decisions and how each
// call ended, then the server's reasons; every line fits tableWidth.
func table(w io.Writer, results []runResult) error {
	var rows bytes.Buffer
	tw := tabwriter.NewWriter(&rows, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PROFILE\tERA\tTRANSPORT\tASKED FOR\tRANKED BY\tTIME")
	var details []string // under each row: its attempts and outcomes
	for _, r := range results {
		// The search's decisions (those of the first call when no search
		// ranked: a trip form that failed says why it ended).
		ranked, attempts, outcomes := "-", "-", []string{}
		for i, c := range r.Calls {
			if c.Method != "" || (i == 0 && len(c.Attempts) > 0) {
				if c.Method != "" {
					ranked = c.Method
				}
				var as []string
				for _, a := range c.Attempts {
					as = append(as, a.Step+":"+a.Outcome)
				}
				attempts = strings.Join(as, " → ")
			}
			outcomes = append(outcomes, outcome(c))
		}
		if r.Error != "" {
			outcomes = append(outcomes, "DEMO ERROR: "+r.Error)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.1fs\n", r.Profile, r.Era, r.Transport, r.AskedFor, ranked, float64(r.ElapsedMs)/1000)
		details = append(details, wrap("    attempts  ", attempts, tableWidth)+wrap("    outcome   ", strings.Join(outcomes, "; "), tableWidth))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	lines := strings.SplitAfter(rows.String(), "\n")
	var b strings.Builder
	b.WriteString(lines[0])
	for i, d := range details {
		b.WriteString(lines[i+1])
		b.WriteString(d)
	}

	// The reasons, as the server gave them: the table says what happened,
	// these say why.
	b.WriteString("\nWHY (every decision of every call, and each call that ended in an error, in the server's words)\n")
	nameWidth, stepWidth := 0, 0
	for _, r := range results {
		nameWidth = max(nameWidth, len(r.Profile))
		for _, c := range r.Calls {
			stepWidth = max(stepWidth, len(c.Tool))
			for _, a := range c.Attempts {
				stepWidth = max(stepWidth, len(a.Step))
			}
		}
	}
	const outcomeWidth = len("host ended")
	for _, r := range results {
		name := r.Profile
		reason := func(step, outcome, text string) {
			prefix := fmt.Sprintf("%-*s  %-*s  %-*s  ", nameWidth, name, stepWidth, step, outcomeWidth, outcome)
			b.WriteString(wrap(prefix, text, tableWidth))
			name = ""
		}
		for _, c := range r.Calls {
			for _, a := range c.Attempts {
				reason(a.Step, a.Outcome, a.Reason)
			}
			if c.IsError {
				reason(c.Tool, "error", c.Summary)
			}
			if c.HostEnded != "" {
				reason(c.Tool, "host ended", c.HostEnded)
			}
		}
	}
	b.WriteString("\nEach row is one host profile against a fresh server. `--profile NAME --explain` tells one run message by message.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// wrap writes prefix and text on as many lines as it takes to keep each
// within width, breaking at spaces, the lines after the first indented
// under the text's start; a word longer than the room left is cut.
func wrap(prefix, text string, width int) string {
	indent := strings.Repeat(" ", len([]rune(prefix)))
	room := max(width-len([]rune(prefix)), 20)
	var b strings.Builder
	line := prefix
	n := 0 // runes of text on this line
	for _, word := range strings.Fields(text) {
		for len([]rune(word)) > room { // a word that fits no line
			if n > 0 {
				b.WriteString(strings.TrimRight(line, " ") + "\n")
				line, n = indent, 0
			}
			r := []rune(word)
			b.WriteString(line + string(r[:room]) + "\n")
			line, word = indent, string(r[room:])
		}
		w := len([]rune(word))
		if n > 0 && n+1+w > room {
			b.WriteString(line + "\n")
			line, n = indent, 0
		}
		if n > 0 {
			line += " "
			n++
		}
		line += word
		n += w
	}
	b.WriteString(strings.TrimRight(line, " ") + "\n")
	return b.String()
}

// outcome is a call's ending in a few words.
func outcome(c callDone) string {
	switch {
	case c.HostEnded != "":
		return c.Tool + ": the host ended the call"
	case c.Why != "":
		return c.Tool + ": error " + c.Why
	case c.IsError:
		return c.Tool + ": error"
	case c.Tool == "saveItinerary":
		return c.Tool + ": saved (" + c.Used + ")"
	case c.Tool == "bookFlight":
		return c.Tool + ": booked (" + c.Used + ")"
	}
	return c.Tool + ": ok"
}

// explain prints one run as a story.
func explain(w io.Writer, r runResult) {
	fmt.Fprintf(w, "── %s ── %s, %s\n", r.Profile, r.Era, r.Transport)
	fmt.Fprintf(w, "   like:  %s\n   shows: %s\n\n", r.Like, r.Shows)
	for i, e := range r.Transcript {
		fmt.Fprintf(w, "%3d %6dms  %-14s %s\n", i+1, e.AtMs, e.Who, e.Text)
	}
	fmt.Fprintln(w)
	for _, c := range r.Calls {
		summary := c.Summary
		if c.HostEnded != "" {
			summary = "the host ended the call: " + c.HostEnded
		}
		fmt.Fprintf(w, "   %s → %s\n", c.Tool, summary)
		for _, a := range c.Attempts {
			fmt.Fprintf(w, "      %-18s %-8s %s\n", a.Step, a.Outcome, a.Reason)
		}
	}
	if r.Error != "" {
		fmt.Fprintf(w, "   DEMO ERROR: %s\n", r.Error)
	}
	fmt.Fprintln(w)
}
