// Package opens counts the files a test's code under test opens, by base name, for tests that
// check an input is read once.
package opens

import (
	"os"
	"path/filepath"
	"sync"
)

// Counter opens files with os.Open and counts the opens per base name; safe for concurrent use.
type Counter struct {
	mu sync.Mutex
	n  map[string]int
}

// Open opens name and counts it.
func (c *Counter) Open(name string) (*os.File, error) {
	c.mu.Lock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[filepath.Base(name)]++
	c.mu.Unlock()
	return os.Open(name)
}

// Of is how many times a file of this base name was opened.
func (c *Counter) Of(base string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[base]
}
