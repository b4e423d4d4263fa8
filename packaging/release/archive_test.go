package main

import (
	"bufio"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoURL is where a document's links to files outside the release archive
// point instead (the docs check reads relative links only).
const repoURL = "https://github.com/flightserver/flightserver/"

// A release archive holds the binary and the files .goreleaser.yaml lists,
// at the same paths, and no clone beside them. docs/HOSTS.md, the guide a
// user of the archive reads, links only to files the archive holds or, by
// URL, to files the repository has.
func TestArchivedHostGuideLinks(t *testing.T) {
	shipped := archiveFiles(t)
	const guide = "docs/HOSTS.md"
	if !shipped[guide] {
		t.Fatalf(".goreleaser.yaml's archives do not hold %s", guide)
	}
	for _, l := range markdownLinks(t, filepath.Join(root, guide)) {
		target, _, _ := strings.Cut(l.target, "#")
		switch {
		case target == "":
			// An anchor in the guide itself.
		case strings.HasPrefix(target, repoURL+"blob/main/"), strings.HasPrefix(target, repoURL+"tree/main/"):
			p := target[len(repoURL+"blob/main/"):]
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
				t.Errorf("%s:%d links %s: the repository has no %s", guide, l.line, l.target, p)
			}
		case regexp.MustCompile(`^[a-z][a-z0-9+.-]*:`).MatchString(target):
			// Another site.
		default:
			p := path.Join(path.Dir(guide), target)
			if !shipped[p] {
				t.Errorf("%s:%d links %s, which the release archives do not hold: add %s to .goreleaser.yaml's archive files, or link %sblob/main/%s", guide, l.line, l.target, p, repoURL, p)
			}
		}
	}
}

// archiveFiles is the set of files the release archives hold besides the
// binary: the files: list of .goreleaser.yaml's archive.
func archiveFiles(t *testing.T) map[string]bool {
	t.Helper()
	f, err := os.Open(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	files := map[string]bool{}
	in, section := false, ""
	for s := bufio.NewScanner(f); s.Scan(); {
		line := s.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		if !strings.HasPrefix(line, " ") {
			section = strings.TrimSuffix(line, ":")
			in = false
			continue
		}
		if section != "archives" {
			continue
		}
		switch {
		case strings.TrimSpace(line) == "files:":
			in = true
		case in && strings.HasPrefix(strings.TrimSpace(line), "- "):
			name := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
			if strings.ContainsAny(name, "*?[{:") {
				t.Fatalf(".goreleaser.yaml: archive file %q is a glob or an object; this test reads plain paths only", name)
			}
			files[name] = true
		default:
			in = false
		}
	}
	if len(files) == 0 {
		t.Fatal(".goreleaser.yaml: no archive files found")
	}
	return files
}

type link struct {
	line   int
	target string
}

// markdownLinks is every link (text in brackets, then its target in
// parentheses) of a markdown file outside its code blocks.
func markdownLinks(t *testing.T, file string) []link {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	var links []link
	fenced := false
	for i, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range re.FindAllStringSubmatch(line, -1) {
			links = append(links, link{i + 1, m[1]})
		}
	}
	return links
}
