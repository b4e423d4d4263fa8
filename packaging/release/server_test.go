package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// serverBinary is the server to run: FLIGHTSERVER_BIN when set (as for the
// bundle test), else one built here from cmd/flightserver the way a release
// builds it, so the test sees what a release serves.
func serverBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("FLIGHTSERVER_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(t.TempDir(), "flightserver")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/flightserver")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/flightserver: %v\n%s", err, out)
	}
	return bin
}

// listTools starts the server as a stdio host does, with nothing
// configured, initializes with the given client capabilities, and pages
// through tools/list. It returns every tool's name, and the names of the
// tools a model may call: those whose _meta.ui.visibility is absent (MCP
// Apps' default, ["model", "app"]) or includes "model".
func listTools(t *testing.T, bin string, capabilities map[string]any) (all, forModel []string) {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()

	type response struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	replies := make(chan response)
	go func() {
		defer close(replies)
		lines := bufio.NewScanner(stdout)
		lines.Buffer(make([]byte, 0, 1<<20), 16<<20)
		for lines.Scan() {
			var r response
			if json.Unmarshal(lines.Bytes(), &r) == nil && r.ID != 0 {
				replies <- r
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	id := 0
	send := func(method string, params any) {
		msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
		if !strings.HasPrefix(method, "notifications/") {
			id++
			msg["id"] = id
		}
		b, _ := json.Marshal(msg)
		if _, err := stdin.Write(append(b, '\n')); err != nil {
			t.Fatalf("%s: %v\nstderr:\n%s", method, err, stderr.String())
		}
	}
	call := func(method string, params any, result any) {
		t.Helper()
		send(method, params)
		select {
		case r, ok := <-replies:
			if !ok {
				t.Fatalf("the server exited before answering %s; stderr:\n%s", method, stderr.String())
			}
			if r.ID != id || r.Error != nil {
				t.Fatalf("%s: answer %d, error %+v", method, r.ID, r.Error)
			}
			if err := json.Unmarshal(r.Result, result); err != nil {
				t.Fatalf("%s: %v", method, err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("no answer to %s; stderr:\n%s", method, stderr.String())
		}
	}

	var init json.RawMessage
	call("initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    capabilities,
		"clientInfo":      map[string]any{"name": "release-test", "version": "1"},
	}, &init)
	send("notifications/initialized", map[string]any{})
	cursor := ""
	for page := 0; ; page++ {
		if page == 100 {
			t.Fatal("tools/list: more than 100 pages")
		}
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var list struct {
			Tools []struct {
				Name string `json:"name"`
				Meta struct {
					UI struct {
						Visibility []string `json:"visibility"`
					} `json:"ui"`
				} `json:"_meta"`
			} `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		call("tools/list", params, &list)
		for _, tool := range list.Tools {
			all = append(all, tool.Name)
			if v := tool.Meta.UI.Visibility; v == nil || slices.Contains(v, "model") {
				forModel = append(forModel, tool.Name)
			}
		}
		if list.NextCursor == "" {
			break
		}
		cursor = list.NextCursor
	}
	return all, forModel
}
