package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

type oneRoot string

func (r oneRoot) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: (&url.URL{Scheme: "file", Path: string(r)}).String(), Name: "work"}}}, nil
}

// saveItinerary through the real binary over stdio in both eras: with the
// client's root, and with only the operator's --export-dir.
func TestStdioSaveItinerary(t *testing.T) {
	for _, era := range eras {
		for _, withRoots := range []bool{true, false} {
			name := era.name + "/export-dir"
			if withRoots {
				name = era.name + "/roots"
			}
			t.Run(name, func(t *testing.T) {
				root, exportDir := t.TempDir(), t.TempDir()
				opts := []client.ClientOption{client.WithProtocolVersion(era.version)}
				if withRoots {
					opts = append(opts, client.WithRootsHandler(oneRoot(root)))
				}
				c := startStdio(t, nil, []string{"--export-dir", exportDir, "--log-level", "warn"}, nil, opts...)
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "saveItinerary",
					Arguments: map[string]any{"flightId": firstFlightID(t, ctx, c, "SFO", "NRT")}}})
				if err != nil || res.IsError {
					t.Fatalf("save: %v %+v", err, res)
				}
				var r struct {
					Path     string
					Attempts []struct{ Step, Outcome string }
				}
				structured(t, res, &r)
				want, rule := root, "client_roots"
				if !withRoots {
					want, rule = exportDir, "export_dir"
				}
				if filepath.Dir(r.Path) != want || usedStep(r.Attempts) != rule {
					t.Errorf("saved %s by %s, want in %s by %s", r.Path, usedStep(r.Attempts), want, rule)
				}
				if data, err := os.ReadFile(r.Path); err != nil || !strings.Contains(string(data), "BEGIN:VEVENT") {
					t.Errorf("file: %v", err)
				}
			})
		}
	}
}

// Over HTTP (the server's own transport flag, not a test setting) a
// modern client that answers the roots request with a directory of its
// choosing cannot make the server write there: roots only narrow
// --export-dir, unless --shared-filesystem says both sides share one disk.
func TestHTTPSaveRootsDoNotWidenTheExportDir(t *testing.T) {
	for _, shared := range []bool{false, true} {
		t.Run(fmt.Sprintf("shared-filesystem=%v", shared), func(t *testing.T) {
			exportDir, clientDir := t.TempDir(), t.TempDir()
			args := []string{"--export-dir", exportDir}
			if shared {
				args = append(args, "--shared-filesystem")
			}
			h := startHTTP(t, args...)
			c := startHTTPClient(t, h.url+"/mcp", mcp.ProtocolVersion20260728, client.WithRootsHandler(oneRoot(clientDir)))
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "saveItinerary",
				Arguments: map[string]any{"flightId": firstFlightID(t, ctx, c, "SFO", "NRT")}}})
			if err != nil || res.IsError {
				t.Fatalf("save: %v %+v", err, res)
			}
			var r struct {
				Path     string
				Attempts []struct{ Step, Outcome string }
			}
			structured(t, res, &r)
			want, by := exportDir, "export_dir"
			if shared {
				want, by = clientDir, "client_roots"
			}
			if filepath.Dir(r.Path) != want || usedStep(r.Attempts) != by {
				t.Errorf("saved %s by %s, want in %s by %s", r.Path, usedStep(r.Attempts), want, by)
			}
		})
	}
}
