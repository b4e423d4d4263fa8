package bad

// Each reference below is broken, and named by the check:
// nowhere.md, ../good/README.md (outside this tree),
// README.md#nowhere,
// code.go:99, and NOTES §4.
// Not references: "quoted.txt", github.com/example/module/file.go,
// code.go#L1 (which resolves), and:
//
//	indented.go, in a doc comment's code block
var s = "// not a comment: missing.go"
