//go:build !unix

package safewrite

import "io/fs"

// links is fi's hard-link count, which this system does not say: 1.
func links(fs.FileInfo) uint64 { return 1 }

// Owned reports whether the file fi describes belongs to us: this system does not say, so a
// replaced file gets Mode.
func Owned(fs.FileInfo) bool { return false }

// Owner is the user id owning the file fi describes: -1, this system does not say.
func Owner(fs.FileInfo) int { return -1 }
