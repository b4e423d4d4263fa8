// Command release keeps the files that name flightserver's version in step,
// and writes what a release publishes besides goreleaser's own artifacts.
//
//	go run ./packaging/release version 0.2.0       # VERSION, manifest.json, server.json
//	go run ./packaging/release check-tag v0.2.0 false
//	go run ./packaging/release server-json dist     # dist/server.json, with the bundles' checksums
//
// The version lives in VERSION; manifest.json (the MCP Bundle) and server.json
// (the MCP Registry, whose OCI package names the image by its tag) repeat it,
// because their readers know nothing of VERSION. TestReleaseFilesAgree fails
// when they do not agree, or when CHANGELOG.md has no section for it.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// The files, relative to the repository's root.
const (
	versionFile  = "VERSION"
	manifestFile = "manifest.json"
	serverFile   = "server.json"
)

// image is the container image server.json's OCI package names, without its
// tag; the Dockerfile labels it with the server's name.
const image = "ghcr.io/flightserver/flightserver"

// releaseURL is where a release's files are downloaded from.
const releaseURL = "https://github.com/flightserver/flightserver/releases/download/"

var semver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$`)

func main() {
	if err := run(os.Args[1:], "."); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(args []string, root string) error {
	if len(args) == 0 {
		return errors.New("usage: release version X.Y.Z | check-tag TAG IS_SNAPSHOT | server-json DIST")
	}
	switch cmd, rest := args[0], args[1:]; {
	case cmd == "version" && len(rest) == 1:
		if err := setVersion(root, rest[0]); err != nil {
			return err
		}
		fmt.Printf("version %s set in %s, %s and %s; add its section to CHANGELOG.md\n", rest[0], versionFile, manifestFile, serverFile)
		return nil
	case cmd == "check-tag" && len(rest) == 2:
		return checkTag(root, rest[0], rest[1] == "true")
	case cmd == "server-json" && len(rest) == 1:
		out, err := releaseServerJSON(root, rest[0])
		if err != nil {
			return err
		}
		path := filepath.Join(rest[0], serverFile)
		if err := os.WriteFile(path, out, 0o644); err != nil {
			return err
		}
		fmt.Println("wrote", path)
		return nil
	}
	return fmt.Errorf("unknown command %q: use version X.Y.Z, check-tag TAG IS_SNAPSHOT or server-json DIST", strings.Join(args, " "))
}

// The lines that hold the version: each file is formatted so that a line
// says it alone, and setVersion rewrites those lines and nothing else.
var (
	topVersion = regexp.MustCompile(`(?m)^  "version": "[^"]*",$`)
	ociTag     = regexp.MustCompile(`"identifier": "` + regexp.QuoteMeta(image) + `:[^"]*"`)
)

// setVersion writes v into every file that names the version.
func setVersion(root, v string) error {
	if !semver.MatchString(v) {
		return fmt.Errorf("%q is not a semantic version such as 0.2.0 or 0.2.0-rc.1 (no leading v)", v)
	}
	edits := []struct {
		file string
		re   *regexp.Regexp
		line string
	}{
		{manifestFile, topVersion, `  "version": "` + v + `",`},
		{serverFile, topVersion, `  "version": "` + v + `",`},
		{serverFile, ociTag, `"identifier": "` + image + `:` + v + `"`},
	}
	for _, e := range edits {
		path := filepath.Join(root, e.file)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := len(e.re.FindAllIndex(b, -1)); n != 1 {
			return fmt.Errorf("%s: found the version %d times where it should be once (%s)", e.file, n, e.re)
		}
		if err := os.WriteFile(path, e.re.ReplaceAll(b, []byte(e.line)), 0o644); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(root, versionFile), []byte(v+"\n"), 0o644); err != nil {
		return err
	}
	f, err := readFiles(root)
	if err != nil {
		return err
	}
	return f.agree(false)
}

// checkTag refuses to release from a tag that is not "v" and VERSION.
func checkTag(root, tag string, snapshot bool) error {
	if snapshot {
		return nil
	}
	f, err := readFiles(root)
	if err != nil {
		return err
	}
	if tag != "v"+f.version {
		return fmt.Errorf("the tag %s does not match %s (%s): tag v%s, or run 'go run ./packaging/release version %s' and commit first",
			tag, versionFile, f.version, f.version, strings.TrimPrefix(tag, "v"))
	}
	return f.agree(true)
}

// files are what the release files say.
type files struct {
	version  string
	manifest struct {
		Version string `json:"version"`
		Tools   []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	server struct {
		Name     string `json:"name"`
		Version  string `json:"version"`
		Packages []struct {
			RegistryType string `json:"registryType"`
			Identifier   string `json:"identifier"`
		} `json:"packages"`
	}
	changelog  []string // the versions of CHANGELOG.md's sections, newest first
	dockerName string   // the Dockerfile's io.modelcontextprotocol.server.name
}

func readFiles(root string) (files, error) {
	var f files
	b, err := os.ReadFile(filepath.Join(root, versionFile))
	if err != nil {
		return f, err
	}
	f.version = strings.TrimSpace(string(b))
	for name, v := range map[string]any{manifestFile: &f.manifest, serverFile: &f.server} {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			return f, err
		}
		if err := json.Unmarshal(b, v); err != nil {
			return f, fmt.Errorf("%s: %w", name, err)
		}
	}
	if f.changelog, err = changelogVersions(filepath.Join(root, "CHANGELOG.md")); err != nil {
		return f, err
	}
	b, err = os.ReadFile(filepath.Join(root, "Dockerfile"))
	if err != nil {
		return f, err
	}
	if m := regexp.MustCompile(`io\.modelcontextprotocol\.server\.name="([^"]*)"`).FindSubmatch(b); m != nil {
		f.dockerName = string(m[1])
	}
	return f, nil
}

// changelogVersions lists the versions of CHANGELOG.md's "## [x.y.z]"
// sections, newest first, leaving out Unreleased.
func changelogVersions(path string) ([]string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var out []string
	heading := regexp.MustCompile(`^## \[([^\]]+)\]`)
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if m := heading.FindStringSubmatch(sc.Text()); m != nil && m[1] != "Unreleased" {
			out = append(out, m[1])
		}
	}
	return out, sc.Err()
}

// agree says the first way in which the files disagree about the version or
// the server's name. A release (forRelease) must also have its changelog
// section; between releases the newest section may lag VERSION only when
// VERSION is the next version being prepared.
func (f files) agree(forRelease bool) error {
	var problems []string
	if !semver.MatchString(f.version) {
		problems = append(problems, fmt.Sprintf("%s holds %q, not a semantic version", versionFile, f.version))
	}
	if f.manifest.Version != f.version {
		problems = append(problems, fmt.Sprintf("%s says version %q", manifestFile, f.manifest.Version))
	}
	if f.server.Version != f.version {
		problems = append(problems, fmt.Sprintf("%s says version %q", serverFile, f.server.Version))
	}
	oci := 0
	for _, p := range f.server.Packages {
		if p.RegistryType == "oci" {
			oci++
			if p.Identifier != image+":"+f.version {
				problems = append(problems, fmt.Sprintf("%s's OCI package is %q, want %s:%s", serverFile, p.Identifier, image, f.version))
			}
		}
	}
	if oci != 1 {
		problems = append(problems, fmt.Sprintf("%s has %d OCI packages, want 1", serverFile, oci))
	}
	if f.dockerName != f.server.Name {
		problems = append(problems, fmt.Sprintf("the Dockerfile labels io.modelcontextprotocol.server.name=%q, but %s names %q", f.dockerName, serverFile, f.server.Name))
	}
	if forRelease && (len(f.changelog) == 0 || f.changelog[0] != f.version) {
		problems = append(problems, fmt.Sprintf("CHANGELOG.md has no section ## [%s] at the top", f.version))
	}
	if len(problems) > 0 {
		return fmt.Errorf("the release files disagree with %s %s: %s", versionFile, f.version, strings.Join(problems, "; "))
	}
	return nil
}

// releaseServerJSON is server.json as a release publishes it: the
// repository's, with an MCP Bundle package for each .mcpb in dist, named by
// its download URL and carrying the SHA-256 that goreleaser wrote to
// "checksums.txt" (the registry requires it). The schema has no field for a
// package's platform, so each bundle's file name says it
// (flightserver_VERSION_OS_ARCH.mcpb).
func releaseServerJSON(root, dist string) ([]byte, error) {
	f, err := readFiles(root)
	if err != nil {
		return nil, err
	}
	if err := f.agree(false); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(root, serverFile))
	if err != nil {
		return nil, err
	}
	var server map[string]any
	if err := json.Unmarshal(b, &server); err != nil {
		return nil, err
	}
	sums, err := checksums(filepath.Join(dist, "checksums.txt"))
	if err != nil {
		return nil, err
	}
	var bundles []string
	for name := range sums {
		if strings.HasSuffix(name, ".mcpb") {
			bundles = append(bundles, name)
		}
	}
	if len(bundles) == 0 {
		return nil, fmt.Errorf("%s/checksums.txt lists no .mcpb bundle: run goreleaser first", dist)
	}
	sort.Strings(bundles)
	packages, _ := server["packages"].([]any)
	for _, name := range bundles {
		if !strings.HasPrefix(name, "flightserver_"+f.version+"_") {
			return nil, fmt.Errorf("%s is not a bundle of version %s", name, f.version)
		}
		packages = append(packages, map[string]any{
			"registryType": "mcpb",
			"identifier":   releaseURL + "v" + f.version + "/" + name,
			"version":      f.version,
			"fileSha256":   sums[name],
			"transport":    map[string]any{"type": "stdio"},
		})
	}
	server["packages"] = packages
	out, err := json.MarshalIndent(server, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// checksums reads goreleaser's "checksums.txt": "<sha256>  <file>" a line.
func checksums(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sha := regexp.MustCompile(`^[a-f0-9]{64}$`)
	sums := map[string]string{}
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		fields := strings.Fields(line)
		if len(fields) != 2 || !sha.MatchString(fields[0]) {
			return nil, fmt.Errorf("%s:%d: want \"<sha256>  <file>\", got %q", path, i+1, line)
		}
		sums[filepath.Base(fields[1])] = fields[0]
	}
	return sums, nil
}
