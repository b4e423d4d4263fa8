package llm

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/flightserver/flightserver/internal/untrusted"
)

// The key guard: one check, used wherever a string could carry the API key
// out. The endpoint has the key (it arrives in every request's
// Authorization header), and a hostile or broken one can write it back in
// disguise: escaped (\u0073k-...), spaced out (s k - p r o j), split by
// zero-width characters, in another case or in full-width letters, or
// divided between the fields of a result (a part in each of three
// reasons). So the guard reads the strings as a person, or the host's
// model, would read them together:
//
//   - escapes are decoded (\uXXXX, \xHH, %HH, &#N; and &#xH;), once more
//     than the answer reader does, in case the text shown still holds them;
//   - the text is folded to NFKC (full-width and other compatibility forms
//     become plain letters) and lower case, Cyrillic and Greek letters that
//     look like Latin ones become those (lookalikes), and everything but
//     letters and digits is dropped: spaces, punctuation, dashes,
//     zero-width and other invisible characters;
//   - text written in runes that show nothing is read out: variation
//     selectors as the bytes they stand for, tag characters as ASCII
//     (reveal); the cleaners drop such runes from what a result shows
//     (untrusted.Line), and an answer that hides the key in them is refused
//     all the same;
//   - the fields are joined, in order, with nothing between them, and the
//     key is normalised the same way.
//
// Then the text leaks the key when it holds any pieces of it, each at least
// minKeyChunk characters long, that together cover at least minKeyFragment
// of its characters: a run of 8 anywhere, or pieces of 5 or more in
// different reasons, each hidden among other words. A key that normalises
// to minKeyFragment characters or fewer counts only whole.
//
// What it does not catch: a key re-encoded (base64, reversed, spelled out
// in words, every other letter), or pieces shorter than minKeyChunk. No
// filter can: the endpoint holds the key and may encode it any way it
// likes. The guard stops an endpoint that echoes the key, whole or in
// pieces, by accident or by a simple disguise; configure only endpoints you
// would trust with the key anyway.

// minKeyFragment is how many characters of the API key count as a leak.
// Eight characters of a random key are about 48 bits of it: enough to help
// someone guessing the rest, and far too many to turn up by chance in an
// answer, a model name or an error code. (A key's fixed prefix, such as
// "sk-proj-", counts too: an endpoint has no business saying it.)
const minKeyFragment = 8

// minKeyChunk is the shortest piece of the key that counts towards
// minKeyFragment when pieces lie apart. Shorter ones turn up by chance:
// against a 164-character project key, three reasons of 150 characters of
// varied words hold enough 4-character pieces of it in a few answers in
// a thousand, and enough 5-character ones about once in 100,000
// (TestKeyGuardSparesOrdinaryAnswers); such an answer falls through to
// the next rung for nothing.
const minKeyChunk = 5

// keyGuard holds the API key, normalised, and its minKeyChunk-character
// pieces. A nil *keyGuard guards nothing.
type keyGuard struct {
	key []rune
	// pieces maps the hash of each minKeyChunk-rune piece of key to where
	// the pieces with that hash start.
	pieces map[uint64][]int
}

// newKeyGuard is the guard for key: nil for an empty key and for a
// placeholder (placeholderKeys).
func newKeyGuard(key string) *keyGuard {
	key = strings.TrimSpace(key)
	if key == "" || slices.Contains(placeholderKeys, strings.ToLower(key)) {
		return nil
	}
	g := &keyGuard{key: normalise(key)}
	if len(g.key) == 0 {
		return nil
	}
	if len(g.key) > minKeyFragment {
		g.pieces = map[uint64][]int{}
		for i := 0; i+minKeyChunk <= len(g.key); i++ {
			h := hashRunes(g.key[i : i+minKeyChunk])
			g.pieces[h] = append(g.pieces[h], i)
		}
	}
	return g
}

// leaks reports whether fields, read together as described above, give
// away a piece of the key.
func (g *keyGuard) leaks(fields ...string) bool {
	if g == nil {
		return false
	}
	joined := strings.Join(fields, "")
	if joined == "" {
		return false
	}
	if g.leaksIn(normalise(joined)) {
		return true
	}
	decoded := unescape(joined)
	if decoded != joined && g.leaksIn(normalise(decoded)) {
		return true
	}
	revealed := reveal(decoded)
	return revealed != decoded && g.leaksIn(normalise(revealed))
}

// reveal is s with the text that invisible runes encode written out: each
// variation selector as the byte it stands for (U+FE00–U+FE0F 0–15,
// U+E0100–U+E01EF 16–255) and each tag character as its ASCII character
// (U+E0020–U+E007E); bytes that make no UTF-8 are dropped. Such runes show
// nothing, and a program (or the host's model) reads them back easily.
func reveal(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r >= 0xFE00 && r <= 0xFE0F || r >= 0xE0000 }) {
		return s
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		switch {
		case r >= 0xFE00 && r <= 0xFE0F:
			b = append(b, byte(r-0xFE00))
		case r >= 0xE0100 && r <= 0xE01EF:
			b = append(b, byte(r-0xE0100+16))
		case r >= 0xE0020 && r <= 0xE007E:
			b = append(b, byte(r-0xE0000))
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return strings.ToValidUTF8(string(b), "")
}

// leaksIn reports whether the normalised text t holds the key (a short
// key) or pieces of it covering minKeyFragment of its characters.
func (g *keyGuard) leaksIn(t []rune) bool {
	if g.pieces == nil {
		return containsRunes(t, g.key)
	}
	covered := make([]bool, len(g.key))
	n := 0
	for j := 0; j+minKeyChunk <= len(t); j++ {
		piece := t[j : j+minKeyChunk]
		for _, i := range g.pieces[hashRunes(piece)] {
			if !slices.Equal(g.key[i:i+minKeyChunk], piece) {
				continue
			}
			for k := i; k < i+minKeyChunk; k++ {
				if !covered[k] {
					covered[k] = true
					n++
				}
			}
			if n >= minKeyFragment {
				return true
			}
		}
	}
	return false
}

// normalise folds s to what the guard compares: NFKC, lower case, the
// lookalikes as the Latin letters they look like, letters and digits only.
func normalise(s string) []rune {
	s = norm.NFKC.String(s)
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			r = unicode.ToLower(r)
			if l, ok := lookalikes[r]; ok {
				r = l
			}
			out = append(out, r)
		}
	}
	return out
}

// lookalikes are the Cyrillic and Greek letters that read as a Latin one,
// in lower case or as the capital they were folded from (Cyrillic н from
// Н reads as H), each with that letter: a key written with them reads as
// the key to a person. NFKC leaves them as they are; a full confusables
// skeleton (Unicode TR39) would cover more scripts, which a key written
// for people to miss is unlikely to need.
var lookalikes = map[rune]rune{
	'а': 'a', 'в': 'b', 'с': 'c', 'ԁ': 'd', 'е': 'e', 'һ': 'h', 'н': 'h', 'і': 'i', 'ј': 'j', 'к': 'k',
	'ӏ': 'l', 'м': 'm', 'о': 'o', 'р': 'p', 'ԛ': 'q', 'ѕ': 's', 'т': 't', 'ԝ': 'w', 'х': 'x', 'у': 'y',
	'α': 'a', 'β': 'b', 'ε': 'e', 'η': 'h', 'ι': 'i', 'κ': 'k', 'μ': 'm', 'ν': 'n', 'ο': 'o', 'ρ': 'p',
	'τ': 't', 'υ': 'y', 'χ': 'x', 'ζ': 'z',
}

// hashRunes is FNV-1a over the runes.
func hashRunes(rs []rune) uint64 {
	h := uint64(14695981039346656037)
	for _, r := range rs {
		h ^= uint64(r)
		h *= 1099511628211
	}
	return h
}

func containsRunes(t, k []rune) bool {
	for j := 0; j+len(k) <= len(t); j++ {
		if slices.Equal(t[j:j+len(k)], k) {
			return true
		}
	}
	return false
}

// unescape decodes the escapes a text may still hold after a JSON decoder
// has read it: \uXXXX (surrogate pairs too), \xHH, %HH, &#N; and &#xH;.
// Anything that is not a complete escape is kept as it is.
func unescape(s string) string {
	if !strings.ContainsAny(s, `\%&`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := unescapeAt(s[i:])
		if n == 0 {
			b.WriteByte(s[i])
			i++
			continue
		}
		b.WriteRune(r)
		i += n
	}
	return b.String()
}

// unescapeAt decodes one escape at the start of s, and says how many bytes
// it took (0: none there).
func unescapeAt(s string) (rune, int) {
	hex := func(t string) (rune, bool) {
		v, err := strconv.ParseUint(t, 16, 32)
		return rune(v), err == nil && utf8.ValidRune(rune(v))
	}
	switch {
	case strings.HasPrefix(s, `\u`) && len(s) >= 6:
		// A surrogate is no valid rune on its own, so hex refuses one:
		// read the pair whole first, as JSON writes a rune above U+FFFF.
		u16 := func(t string) rune {
			v, err := strconv.ParseUint(t, 16, 16)
			if err != nil {
				return -1
			}
			return rune(v)
		}
		if hi := u16(s[2:6]); hi >= 0xd800 && hi < 0xdc00 && len(s) >= 12 && strings.HasPrefix(s[6:], `\u`) {
			if lo := u16(s[8:12]); lo >= 0xdc00 && lo < 0xe000 {
				return 0x10000 + (hi-0xd800)<<10 + (lo - 0xdc00), 12
			}
		}
		r, ok := hex(s[2:6])
		if !ok {
			return 0, 0
		}
		return r, 6
	case (strings.HasPrefix(s, `\x`) || strings.HasPrefix(s, `\X`)) && len(s) >= 4:
		if r, ok := hex(s[2:4]); ok {
			return r, 4
		}
	case s[0] == '%' && len(s) >= 3:
		if r, ok := hex(s[1:3]); ok {
			return r, 3
		}
	case strings.HasPrefix(s, "&#"):
		end := strings.IndexByte(s, ';')
		if end < 3 || end > 10 {
			return 0, 0
		}
		num := s[2:end]
		base := 10
		if num[0] == 'x' || num[0] == 'X' {
			num, base = num[1:], 16
		}
		v, err := strconv.ParseUint(num, base, 32)
		if err != nil || !utf8.ValidRune(rune(v)) {
			return 0, 0
		}
		return rune(v), end + 1
	}
	return 0, 0
}

// placeholderKeys are what people give a local server that checks no key
// when some client of theirs insists on one (this server does not: a base
// URL alone configures it). They are not secrets, and they are words an
// answer may well contain: guarding "none" would refuse every answer that
// says "none of these", and fall back for nothing. Any other key, however
// short, is guarded.
var placeholderKeys = []string{"none", "empty", "ollama", "lm-studio", "nokey", "no-key", "local"}

// cleanModel is the model name the endpoint reports, cleaned to one short
// word a person can read: only the runes untrusted.Line keeps (no control,
// format or other invisible characters), no spaces, at most maxModelRunes
// runes; "" if nothing is left.
func cleanModel(m string) string {
	var b strings.Builder
	k := 0
	for _, r := range untrusted.Line(m) {
		if k == maxModelRunes {
			break
		}
		if r != ' ' {
			b.WriteRune(r)
			k++
		}
	}
	return b.String()
}
