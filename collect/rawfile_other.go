//go:build !unix

package collect

import (
	"io/fs"
	"os"
)

// openRaw opens name to read where descriptors are not read directly: os.Stat, so that
// anything but a regular file is refused before an open that could block, then os.Open.
func openRaw(name string) (inputFile, fs.FileInfo, error) {
	return statOpen(name, os.Open)
}
