package web

import (
	"bytes"
	"regexp"
	"testing"
)

// The embedded page must be the self-contained build: one document with
// its script and styles inline, and nothing that makes the browser fetch.
// The browser test (web/test) proves it renders; this catches an empty,
// unbuilt or hand-edited file before the server ever serves it.
func TestResultsHTMLIsSelfContained(t *testing.T) {
	page := ResultsHTML
	if !bytes.HasPrefix(page, []byte("<!doctype html>\n")) {
		t.Fatalf("dist/results.html does not start with <!doctype html>: %.60q (run npm run build in web/)", page)
	}
	if !bytes.HasSuffix(page, []byte("</html>\n")) {
		t.Fatalf("dist/results.html does not end with </html>: ...%q", page[max(0, len(page)-60):])
	}
	counts := []struct {
		re   string
		want int
	}{
		{`<script>`, 1},               // the bundle, inline
		{`<style>`, 1},                // the styles, inline
		{`(?i)<script[^>]*\ssrc=`, 0}, // no script from elsewhere
		{`(?i)<link\b`, 0},            // no stylesheet, icon or preload
		{`(?i)<(img|iframe|object|embed)\b`, 0},
	}
	for _, c := range counts {
		if got := len(regexp.MustCompile(c.re).FindAllIndex(page, -1)); got != c.want {
			t.Errorf("%s occurs %d times, want %d", c.re, got, c.want)
		}
	}
	style := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindSubmatch(page)
	if style == nil {
		t.Fatal("no <style> element")
	}
	for _, fetch := range []string{"@import", "url("} {
		if bytes.Contains(style[1], []byte(fetch)) {
			t.Errorf("the styles use %s: the view must fetch nothing", fetch)
		}
	}
	if len(page) > 1<<20 {
		t.Errorf("the page is %d bytes; more than 1 MiB for one view is a sign the bundle took in too much", len(page))
	}
}
