// Package plural words a count with its noun: "1 record", "2 records".
package plural

import "strconv"

// N is n followed by one when n is 1, else by many.
func N(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
