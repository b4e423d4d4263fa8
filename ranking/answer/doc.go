// Package answer reads a model's answer to a ranking prompt: which of the
// candidates it picked, best first, with its reasons. Parse reads an answer
// written as text, ParseInputs one given as the inputs of the answer tool's
// calls; both check it against the candidates' ids, in the order the prompt
// showed them (one-way flights or round trips alike), and return the picks
// or an *Error whose Reason says in one line why the answer does not count.
// The package knows ids, not flights: what a ranking makes of the picks is
// the caller's.
//
// The prompt asks for one JSON object, {"picks":[{"id":…,"reason":…}]}.
// Models often write something else, and an answer whose meaning is clear
// counts however it is written; one whose meaning is not is refused, never
// guessed at. Every shape below is tested on a corpus of real answers
// (testdata/answers: positive ones must count, negative ones must not,
// each with the result it must give).
//
// # What is read
//
// Before reading, a model's reasoning is cut out and never read:
// <think>…</think>, <thinking>…</thinking>, <reasoning>…</reasoning>, in
// any case, and everything before a closing tag that has no opening one
// (some APIs drop the opening tag, which was in the prompt template). An
// opening tag that never closes runs to the end of the answer: what it
// holds is a draft, not an answer (the model was cut off mid-thought), so
// only the text before it is read; but a tag that never closes and stands
// in mid-line may be one the answer names ("I kept my reasoning out of
// <thinking> tags"), and when the text read with it as a word has an
// answer, that is the answer. A DataOpen…DataClose block, the prompt's
// data repeated, is cut out too, and so is a DataOpen that begins a line
// with the prompt's data lines after it, to the end; a DataOpen named in a
// sentence is a word (blocks.go, echo.go).
//
// JSON is looked for first: in the ``` code fences, or, if they hold none,
// in the whole text (json.go). Each '{' or '[' that could start a value (a
// quote, a letter or, after '[', a '{' follows) is decoded in turn, at most
// 50 in all, nested at most 16 deep, leniently (lenient.go): strings in
// single quotes or in typographic ones (“…”, ‘…’, „…“), unquoted keys,
// trailing commas, comments, Python's True/False/None. A JSON string whose
// content is JSON (the whole answer encoded once more, "{\"picks\":…}", or
// a value such as {"picks":"[…]"}) is read for what it holds, up to three
// encodings deep; each such string counts as a decode. A value decoded is
// not looked into again. In it:
//   - a key that holds the picks: "picks", "ranking", "rankings",
//     "recommendations", "choices", "flights", "results", "top",
//     "selected", "best", "answer" and the like (listKeys; case and any
//     '_', '-' or space ignored), holding a list of entries, one id, or one
//     entry; after it come "alternatives", "others", "runner_up" and the
//     like (altKeys), so {"best":…,"alternatives":[…]} reads in order;
//   - failing that, the object itself, if it is an entry that names a
//     flight ({"id":…,"reason":…});
//   - failing that, each object inside it, as a wrapper
//     ({"answer":{"picks":…}}, {"response":{…}}: a key Parse does not know
//     wraps, as real answers' "response", "data" or "output" do), except
//     under a key that turns down ("avoid", "not_recommended", "rejected",
//     "worst", "exclude", "skip": see rejecting), whose flights are turned
//     down (see below); entries directly under several of its
//     labels count only when every label gives a place ("first",
//     "second", "1", "option_2", "runner_up"; an id alone under such a
//     label is an entry too) and are taken in that order, not the order of
//     the keys, which a decoded object does not keep; under labels such as
//     "cheapest" and "fastest" they are categories, not a ranking, and are
//     set aside (fromLabels);
//   - a bare list of ids or entries, if one of them names a flight.
//
// An entry is an id, or an object with the id (a string, or an object that
// holds one) under "id", "flight_id", "flightId", "flight" or "code", a
// reason under "reason", "why", "explanation", "rationale",
// "justification"..., and perhaps a rank under "rank" or "position": when
// every entry has one, the entries are put in rank order.
//
// Lists in the text are read only when no JSON reading is found (lines.go,
// table.go): numbered lists ("1. <id> — reason", "1)", "#1", "(1)",
// "**1. <id>**", "### 1. <id>", "Rank 1:", and also run together in a
// sentence: "the picks are: 1. <id> 2. <id>"), markdown tables (the id from
// the column headed "id" or "flight", else the first cell that holds one;
// the reason from the column headed "reason", "why"...), and, when neither
// names a flight, loose items together as one list: bullets, labelled
// lines ("Best overall: <id>"), lines that start with an id, and runs of
// ids ("Top picks: <id>, <id> and <id>"). An item's id is the first word in
// it that names a candidate or looks like a flight id (8 or more
// characters, with letters, digits and a '-' or '_'), with at most five
// words before it. The rest of the line after the id, and the lines under
// the item, are its reason. A numbered item with no id takes the first id
// in the lines under it.
//
// A loose item whose words before its id turn it down ("- Avoid: <id>",
// "Not recommended: <id>", "- Don't book <id>"), and a bare JSON entry or
// list that such words lead to in its clause ("Do not choose {…}",
// "Rejected: […]"), are turned down, not read; so is a numbered item led by
// them ("3. Avoid <id>"). The words are sentence.go's rejectWords and
// badWords, or a "n't".
//
// An entry whose own verdict turns its flight down is no pick and is
// dropped from its list: a reason whose whole first clause is a plain
// verdict ("<id>: not recommended", "3. <id> – avoid", "Don't book this
// one" in a table's reason column) or a field beside the id
// ({"recommended":false}, {"verdict":"avoid"}). A reason that only starts
// with a negative ("no layovers", "not the cheapest, but…") is a reason
// (verdict.go). Such a flight counts as turned down below.
//
// Prose with no JSON and no list at all is read last, as a sentence that
// names its picks in order ("I'd go with <id>, then <id>, and keep <id> as
// a backup"), but only when every flight it names is plainly a pick or
// plainly turned down ("<id> over <id>", "<id> is a poor choice"): "<id>
// would be my last choice" may rank it or dismiss it, and is refused
// (sentence.go).
//
// # Which reading wins
//
// An answer may hold several readings: a fenced object and ids in the
// prose around it, a "best" and a "ranking", a list and a closing "Final
// answer: 1. <id>". Placeholders and echoes are set aside first (see
// below), and JSON is read from the code fences when they hold any, else
// from the whole text. Then the strongest row of this table that has a
// reading decides (choose.go; rows 4 and 5 count only when rows 1 to 3 have
// nothing, row 6 only when no row has anything), and every weaker reading
// must agree with it or the answer is refused (see agrees): a ranking (a
// JSON list, a numbered list, a table) must name the same flights in the
// same order as far as the shorter goes, as it does when it restates the
// picks or gives the top ones; loose remarks (bare objects, bullets,
// labelled lines) must name only picks, in the picks' order, as "Why: -
// <id>: nonstop" under a ranking does, and a line whose label gives a
// flight a place must name the ranking's pick at that place: the best of
// all ("Best:", "Top pick:", "My recommendation:", not "Best value:") its
// first, "Runner-up:" or "Second choice:" its second, "Third choice:" its
// third. Among loose items alone, the ones so labelled take those places,
// wherever they stand, and two flights given one place (or one flight two)
// refuse the answer. A weaker reading that agrees gives
// the picks the reasons they lack. A weaker reading that names other picks
// is another answer, and which the model meant is not for the reader to
// guess. A flight turned down refuses the answer when the reading names it,
// or when it was turned down in a reading at least as strong as it (see
// checkTurned): lead words are read without the sentence around them, and
// "Best without a layover:" is a pick, so the reader refuses rather than
// drop a line and re-rank the rest on a guess; a weaker remark beside a
// stronger reading ({"picks":[…]} and then "- Avoid: <id>") does not refuse
// it:
//
//	   reading                                   when there are several
//	1. a keyed JSON list: {"picks":[…]},         they must agree; the longest counts,
//	   {"best":…,"alternatives":[…]}             with the reasons the shorter ones give
//	2. a bare JSON list: ["<id>",…]              they must agree; the longest counts
//	3. bare JSON entries: {"id":…,"reason":…}    taken together, in the answer's order
//	4. numbered lists and markdown tables        they must agree; the longest counts
//	5. loose items: bullets, "Best: <id>",       taken together, in the answer's order
//	   lines that start with an id, runs of ids
//	6. a sentence of picks, when the answer      one reading
//	   has no '{' and nothing was set aside
//
// Inside a value that does not decode, only a keyed list counts: a bare
// entry or list there is a piece of something broken (a cut-off answer, a
// list of flights considered). Ids mentioned in passing count for nothing
// ("I considered X, but the picks are: 1. A 2. B" picks A and B). Readings
// agree when each names the same flights in the same order as the
// longest, as far as it goes: {"best":<id>,"ranking":[<id>,…]} whose best
// is the ranking's first is one reading, the ranking, and its first pick
// keeps the best's reason; two that disagree make the answer ambiguous,
// and it is refused.
//
// # What is refused
//
// The answer does not count when:
//   - it is empty, longer than 64 KB, only reasoning, or reasoning that
//     never ends;
//   - nothing in it reads as picks: prose that names flights in passing
//     (if it has no '{' at all, the error names them), or JSON that does
//     not decode (a cut-off answer is refused, not half read);
//   - the only readings are placeholders from the prompt ("<flight id
//     exactly as given>", "...": set aside, and a real answer next to them
//     counts; placeholder.go), or echoes of the candidates (a list of more
//     than three and more than half of them, in any order, is set aside:
//     listing is not choosing, whether the model copied the prompt's order
//     or sorted the data by a column of its own; of 20 candidates or fewer,
//     where a ranking of four may be half, only a list of three quarters
//     of them, or of more than six and half of them in the prompt's order
//     or its reverse, is; echo.go);
//   - the only readings are entries under labels that name categories
//     ({"cheapest":{…},"fastest":{…}}), not places;
//   - two readings disagree, or the JSON and a list beside it do (above);
//   - it turns down a flight it also picks, or turns one down beside picks
//     of the same or a weaker kind, or turns flights down and picks none
//     ({"avoid":{…}}, "- Avoid: <id>\n- Best: <id>"; above);
//   - the list is empty, one of its first 10 entries has no id, or one of
//     those ids is no candidate's: then the whole answer is refused, not
//     just that pick, since a model that makes up one id may have garbled
//     the others (the error names up to five such ids; ids.go).
//
// Only the first 10 entries are read; later ones are ignored unread. A
// flight named again is dropped, keeping the place of its first mention.
// Callers that want n picks use the first n.
//
// # Ids and reasons
//
// An id matches a candidate's exactly after trimming spaces (and quotes,
// typographic ones too, backticks, asterisks or brackets around it);
// failing that, it matches case-insensitively, and as the prompt showed it
// (cleaned by CleanField), provided exactly one candidate matches that
// way; failing that, a value with more words than the id ("<id>.",
// "<id> (BA 117)") names the candidate that its one id-like word names,
// and a value with two such words names none (ids.go). The pick then
// carries the candidate's real id. Models do
// change case now and then; real ids never differ only in case, and if two
// did, neither would match loosely.
//
// Reasons are cleaned (CleanReason): only runes a person sees are kept
// (untrusted.Line: control and format characters, variation selectors and
// other invisible runes removed), runs of white space (newlines included)
// made one space, trimmed, and cut to MaxReasonRunes runes; markdown
// emphasis and leading dashes or colons are dropped from reasons in lists,
// and a placeholder reason is none (reasons.go). A pick's Reason may be empty; the caller
// then says why in its own words.
//
// # Bounds
//
// The answer is hostile input. Neither reader panics on any input, and
// their work grows linearly with the answer: at most 64 KB is read, at
// most 50 decodes, one pass over the lines (BenchmarkParseAnswer and
// BenchmarkParseAnswerInputs time the worst text; docs/BENCHMARKS.md has
// the figures).
package answer
