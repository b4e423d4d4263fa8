package good

func answer() int { return 42 }
