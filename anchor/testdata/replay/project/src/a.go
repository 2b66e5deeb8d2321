package a

func A() int {
	x := 1 // fixed
	return x
}
