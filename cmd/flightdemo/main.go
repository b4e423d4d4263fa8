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
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "flightdemo:", err)
		}
		os.Exit(2)
	}
}

func run(ctx context.Context, argv []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("flightdemo", flag.ContinueOnError)
	fs.SetOutput(stderr)
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

// table prints one row per profile: what the server asked for, which tier
// ranked, each tier's outcome, and how each call ended.
func table(w io.Writer, results []runResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PROFILE\tERA\tTRANSPORT\tASKED FOR\tRANKED BY\tATTEMPTS\tOUTCOME\tTIME")
	for _, r := range results {
		ranked, attempts, outcomes := "-", "-", []string{}
		for _, c := range r.Calls {
			if c.Method != "" {
				ranked = c.Method
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.1fs\n", r.Profile, r.Era, r.Transport, r.AskedFor, ranked, attempts,
			strings.Join(outcomes, "; "), float64(r.ElapsedMs)/1000)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	// The reasons, as the server gave them: the table says what happened,
	// these say why.
	fmt.Fprintln(w, "\nWHY (every decision of every call, and each call that ended in an error, in the server's words)")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range results {
		name := r.Profile
		for _, c := range r.Calls {
			for _, a := range c.Attempts {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", name, a.Step, a.Outcome, a.Reason)
				name = ""
			}
			if c.IsError {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", name, c.Tool, "error", c.Summary)
				name = ""
			}
			if c.HostEnded != "" {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", name, c.Tool, "host ended", c.HostEnded)
				name = ""
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\nEach row is one host profile against a fresh server. `--profile NAME --explain` tells one run message by message.")
	return err
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
