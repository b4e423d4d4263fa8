package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// root is the repository, from this package's directory.
const root = "../.."

// The version is one, wherever it is written: VERSION, the bundle's manifest,
// the registry's server.json and its image tag, the newest CHANGELOG section;
// and the image's label names the server server.json names, which the MCP
// Registry checks before it accepts the image.
func TestReleaseFilesAgree(t *testing.T) {
	f, err := readFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.agree(true); err != nil {
		t.Fatalf("%v\nset the version with: go run ./packaging/release version X.Y.Z", err)
	}
}

// The bundle's manifest lists the tools a model can call, as the server
// itself lists them (tools/list over stdio, the way a host asks), no more
// and no fewer: a view-only tool (MCP Apps visibility ["app"], listed only
// to a client that declares MCP Apps) is not one. Both a plain client and an
// MCP Apps one are asked, so that the view-only tool is in the listing and
// must be told apart by its visibility.
func TestManifestListsTheServersTools(t *testing.T) {
	f, err := readFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, tool := range f.manifest.Tools {
		listed = append(listed, tool.Name)
	}
	slices.Sort(listed)
	bin := serverBinary(t)
	for _, client := range []struct {
		name         string
		capabilities map[string]any
	}{
		{"a plain client", map[string]any{}},
		{"an MCP Apps client", map[string]any{"extensions": map[string]any{
			"io.modelcontextprotocol/ui": map[string]any{"mimeTypes": []string{"text/html;profile=mcp-app"}},
		}}},
	} {
		all, forModel := listTools(t, bin, client.capabilities)
		if len(forModel) == 0 {
			t.Fatalf("%s: the server lists no tool for a model: %v", client.name, all)
		}
		slices.Sort(forModel)
		if !slices.Equal(listed, forModel) {
			t.Errorf("manifest.json lists %v; to %s the server lists %v for a model (of %v)", listed, client.name, forModel, all)
		}
	}
}

// server.json, as committed and as a release writes it with the bundles,
// is valid against the registry's published schema (2025-12-11, vendored in
// testdata: CI has no network).
func TestServerJSONMatchesTheRegistrySchema(t *testing.T) {
	schema := compileSchema(t)
	b, err := os.ReadFile(filepath.Join(root, serverFile))
	if err != nil {
		t.Fatal(err)
	}
	validate(t, schema, "server.json", b)
	var s struct {
		Schema string `json:"$schema"`
	}
	if err := json.Unmarshal(b, &s); err != nil || s.Schema != "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json" {
		t.Errorf("$schema %q: %v", s.Schema, err)
	}

	dist := fakeDist(t, "0.1.0", "darwin_all", "linux_amd64", "windows_arm64")
	out, err := releaseServerJSON(root, dist)
	if err != nil {
		t.Fatal(err)
	}
	validate(t, schema, "the release's server.json", out)
	var rel struct {
		Packages []struct {
			RegistryType string `json:"registryType"`
			Identifier   string `json:"identifier"`
			FileSha256   string `json:"fileSha256"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(out, &rel); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range rel.Packages {
		got = append(got, p.RegistryType+" "+p.Identifier+" "+p.FileSha256)
	}
	want := []string{
		"oci ghcr.io/flightserver/flightserver:0.1.0 ",
		"mcpb https://github.com/flightserver/flightserver/releases/download/v0.1.0/flightserver_0.1.0_darwin_all.mcpb " + strings.Repeat("a", 64),
		"mcpb https://github.com/flightserver/flightserver/releases/download/v0.1.0/flightserver_0.1.0_linux_amd64.mcpb " + strings.Repeat("b", 64),
		"mcpb https://github.com/flightserver/flightserver/releases/download/v0.1.0/flightserver_0.1.0_windows_arm64.mcpb " + strings.Repeat("c", 64),
	}
	if !slices.Equal(got, want) {
		t.Errorf("packages:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// A dist from another version, or none, is refused.
	if _, err := releaseServerJSON(root, fakeDist(t, "9.9.9", "linux_amd64")); err == nil || !strings.Contains(err.Error(), "not a bundle of version") {
		t.Errorf("a bundle of another version: %v", err)
	}
	if _, err := releaseServerJSON(root, t.TempDir()); err == nil {
		t.Error("no checksums.txt: no error")
	}
}

// fakeDist is a goreleaser dist holding "checksums.txt" for bundles of the
// given platforms (and an archive, which is not a bundle).
func fakeDist(t *testing.T, version string, platforms ...string) string {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(strings.Repeat("f", 64) + "  flightserver_" + version + "_linux_amd64.tar.gz\n")
	for i, p := range platforms {
		b.WriteString(strings.Repeat(string(rune('a'+i)), 64) + "  flightserver_" + version + "_" + p + ".mcpb\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "checksums.txt"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The one script sets the version everywhere, touching nothing else, and
// refuses what is not a version.
func TestSetVersion(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{versionFile, manifestFile, serverFile, "CHANGELOG.md", "Dockerfile"} {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := os.ReadFile(filepath.Join(dir, manifestFile))
	if err := run([]string{"version", "0.2.0-rc.1"}, dir); err != nil {
		t.Fatal(err)
	}
	f, err := readFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if f.version != "0.2.0-rc.1" || f.agree(false) != nil {
		t.Errorf("after setting: %+v, %v", f, f.agree(false))
	}
	// The changelog has no section for it yet: a release would be refused.
	if err := f.agree(true); err == nil || !strings.Contains(err.Error(), "CHANGELOG.md has no section ## [0.2.0-rc.1]") {
		t.Errorf("release without a changelog section: %v", err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, manifestFile))
	if diff := lineDiff(before, after); diff != 1 {
		t.Errorf("%d lines of manifest.json changed, want the version's only", diff)
	}
	for _, bad := range []string{"v0.2.0", "0.2", "latest", "0.2.0; rm -rf /"} {
		if err := run([]string{"version", bad}, dir); err == nil {
			t.Errorf("version %q accepted", bad)
		}
	}
	if err := checkTag(dir, "v0.2.0-rc.1", false); err == nil {
		t.Error("a release without its changelog section passed check-tag")
	}
	if err := checkTag(dir, "v0.1.0", false); err == nil || !strings.Contains(err.Error(), "does not match VERSION") {
		t.Errorf("a tag that is not VERSION: %v", err)
	}
	if err := checkTag(dir, "", true); err != nil {
		t.Errorf("a snapshot needs no tag: %v", err)
	}
}

func lineDiff(a, b []byte) int {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	if len(la) != len(lb) {
		return -1
	}
	n := 0
	for i := range la {
		if !bytes.Equal(la[i], lb[i]) {
			n++
		}
	}
	return n
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	f, err := os.Open("testdata/server.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	const url = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, what string, b []byte) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := s.Validate(doc); err != nil {
		t.Errorf("%s does not match the registry's schema: %v", what, err)
	}
}
