// Package ghenv writes GitHub Actions file commands safely and reads the parts of the GitHub
// context that agc-sarif needs (pull request, ref, commit, links).
package ghenv

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agc-sarif/agc-sarif/internal/lazyre"
)

// Output is one step output: a name and its value.
type Output struct {
	Name  string
	Value string
}

var outputName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// FormatOutputs renders outputs in the GITHUB_OUTPUT multi-line syntax, each value between
// `name<<ghadelimiter_<random>` and its own random delimiter, as actions/toolkit does. It refuses
// a bad name, a value that holds its delimiter and a value with a carriage return. random supplies the delimiters (crypto/rand
// when nil).
func FormatOutputs(outs []Output, random io.Reader) (string, error) {
	if random == nil {
		random = rand.Reader
	}
	var b strings.Builder
	for _, o := range outs {
		if !outputName.MatchString(o.Name) {
			return "", fmt.Errorf("output name %q: want letters, digits, - and _", o.Name)
		}
		var buf [16]byte
		if _, err := io.ReadFull(random, buf[:]); err != nil {
			return "", fmt.Errorf("output %s: making a delimiter: %w", o.Name, err)
		}
		delim := "ghadelimiter_" + hex.EncodeToString(buf[:])
		if strings.Contains(o.Value, delim) {
			return "", fmt.Errorf("output %s: value holds the delimiter %s", o.Name, delim)
		}
		if strings.Contains(o.Value, "\r") {
			return "", fmt.Errorf("output %s: value holds a carriage return, which the runner reads as a line end", o.Name)
		}
		fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", o.Name, delim, o.Value, delim)
	}
	return b.String(), nil
}

// WriteOutputs appends outputs to the GITHUB_OUTPUT file at path (see FormatOutputs).
func WriteOutputs(path string, outs []Output, random io.Reader) error {
	text, err := FormatOutputs(outs, random)
	if err != nil {
		return err
	}
	return AppendFile(path, text)
}

// AppendFile appends text to a file command's file (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY), creating
// it when missing.
func AppendFile(path, text string) error {
	if path == "" {
		return fmt.Errorf("no file to append to")
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("could not open %q: %w", path, err)
	}
	if _, err := io.WriteString(f, text); err != nil {
		f.Close()
		return fmt.Errorf("could not write %q: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("could not write %q: %w", path, err)
	}
	return nil
}
