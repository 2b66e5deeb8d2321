package app

func Run() {
	query := "SELECT * FROM t WHERE id = " + id
	_ = query
	return
}
