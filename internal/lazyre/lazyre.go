// Package lazyre is a regular expression compiled on first use, for package-level patterns:
// regexp.MustCompile in a var runs at program start, and `agc-sarif record`, which matches no
// pattern at all, paid for every one of them on each hook call.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a pattern compiled the first time it is used; safe for concurrent use.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// New returns a pattern for expr, compiled on first use; an invalid expr panics then, as
// regexp.MustCompile would at start (every pattern is a constant, so tests reach the panic).
func New(expr string) *Regexp { return &Regexp{expr: expr} }

// Regexp is the compiled pattern.
func (r *Regexp) Regexp() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.Regexp().MatchString(s) }

// Match is regexp.Regexp.Match.
func (r *Regexp) Match(b []byte) bool { return r.Regexp().Match(b) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.Regexp().FindStringSubmatch(s) }

// FindAllStringSubmatchIndex is regexp.Regexp.FindAllStringSubmatchIndex.
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringSubmatchIndex(s, n)
}

// String is the pattern's source text.
func (r *Regexp) String() string { return r.expr }
