package good

func answer() int { return 42 }

// answer is named in README.md#good and on code.go:3, in [the readme](README.md).
