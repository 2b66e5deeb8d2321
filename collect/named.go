package collect

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// What a glob or folder that matches no file means (Config.IfNoFilesFound), as the
// if-no-files-found input of actions/upload-artifact says it.
const (
	NoFilesWarn   = "warn"   // a warning; the run goes on (the default)
	NoFilesError  = "error"  // exit status 2, as for a file that could not be read
	NoFilesIgnore = "ignore" // nothing said
)

// ParseIfNoFilesFound checks an --if-no-files-found value; "" is the default, warn.
func ParseIfNoFilesFound(s string) (string, error) {
	switch v := strings.TrimSpace(s); v {
	case "":
		return NoFilesWarn, nil
	case NoFilesWarn, NoFilesError, NoFilesIgnore:
		return v, nil
	}
	return "", fmt.Errorf("if-no-files-found: %q is not warn, error or ignore", s)
}

// StdinName is how messages name the standard input, read for the argument "-".
const StdinName = "<stdin>"

// expandFor expands cfg's paths and judgments. An argument "-" is the standard input, which
// spoolStdin copied to the file stdin ("" when no argument is "-").
func expandFor(cfg Config, stdin string) expansion {
	swap := func(args []string) []string {
		out := make([]string, len(args))
		for i, a := range args {
			out[i] = a
			if a == "-" && stdin != "" {
				out[i] = stdin
			}
		}
		return out
	}
	ex := expandInputs(cfg.Dir, swap(cfg.Paths), swap(cfg.Judgments))
	for i := range ex.Files {
		if stdin != "" && ex.Files[i].Path == stdin {
			ex.Files[i].Name = StdinName
		}
	}
	return ex
}

// spoolStdin copies cfg.Stdin to a temporary file when an argument is "-", so that it is read
// like any named file (detection peeks at it, big ones are read in parts). It returns the file's
// path ("" when no argument is "-") and what removes it.
func spoolStdin(cfg Config) (string, func(), error) {
	none := func() {}
	wanted := false
	for _, a := range append(append([]string(nil), cfg.Paths...), cfg.Judgments...) {
		wanted = wanted || a == "-"
	}
	if !wanted {
		return "", none, nil
	}
	if cfg.Stdin == nil {
		return "", none, fmt.Errorf("-: no standard input to read")
	}
	f, err := os.CreateTemp("", "agc-sarif-stdin-*")
	if err != nil {
		return "", none, fmt.Errorf("could not keep the standard input: %w", err)
	}
	remove := func() { os.Remove(f.Name()) }
	_, err = io.Copy(f, cfg.Stdin)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		remove()
		return "", none, fmt.Errorf("could not read the standard input: %w", err)
	}
	return f.Name(), remove, nil
}

// noFiles applies policy (Config.IfNoFilesFound) to the globs and folders that matched no file:
// errors (exit status 2) or warnings, or nothing.
func noFiles(policy string, ex expansion) (errs, warns []string) {
	switch policy {
	case NoFilesIgnore:
		return nil, nil
	case NoFilesError:
		return ex.NoFiles, nil
	}
	var out []string
	for _, m := range ex.NoFiles {
		out = append(out, m+" (if-no-files-found: warn)")
	}
	return nil, out
}

// dropEmpty takes out of ex the files the user named that are empty (or blank): nothing was
// recorded in them, which is said as a notice, not read as a problem. A judgment is kept: a
// reviewer that wrote nothing gave no verdict, and fails closed.
func dropEmpty(ex *expansion) (notices []string) {
	keep := make([]int, len(ex.Files)) // old index → new index, or -1
	var files []file
	for i, f := range ex.Files {
		keep[i] = len(files)
		if f.Explicit && !f.Judgment && blank(f.Path) {
			keep[i] = -1
			notices = append(notices, f.Name+": empty: nothing recorded")
			continue
		}
		files = append(files, f)
	}
	if len(notices) == 0 {
		return nil
	}
	ex.Files = files
	for k := range ex.Folders {
		var idx []int
		for _, i := range ex.Folders[k].Files {
			if keep[i] >= 0 {
				idx = append(idx, keep[i])
			}
		}
		ex.Folders[k].Files = idx
	}
	return notices
}

// maxBlank is the largest file blank looks into; a bigger one is not blank.
const maxBlank = 64 << 10

// blank reports whether the regular file at path holds nothing but white space.
func blank(path string) bool {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxBlank {
		return false
	}
	if info.Size() == 0 {
		return true
	}
	data, err := os.ReadFile(path)
	return err == nil && len(bytes.TrimSpace(data)) == 0
}

// notRecognisedReason is the skip reason of a named file in which no reader recognised anything.
const notRecognisedReason = "not a recognised input"

// unrecognisedNamed turns each file the user named explicitly in which nothing was recognised
// from a problem (a skipped record) into an error (exit status 2): a mistyped path or a wrong
// file in CI must not pass green. read[i] tells whether ex.Files[i] was read by a reader.
func unrecognisedNamed(ex expansion, read []bool, set *findings.Set) []string {
	var out []string
	for i, f := range ex.Files {
		if !f.Explicit || f.Judgment || (i < len(read) && read[i]) {
			continue
		}
		at := -1
		for k, p := range set.Problems {
			if p.Source.File == f.Name && p.Source.Line == 1 {
				at = k
				break
			}
		}
		if at < 0 {
			continue // not read for another reason (unreadable, cancelled): said elsewhere
		}
		p := set.Problems[at]
		p.Message = strings.ReplaceAll(p.Message, "; name the format with --format", "")
		set.Problems = append(set.Problems[:at], set.Problems[at+1:]...)
		if set.Skips[notRecognisedReason] > 0 {
			set.Records--
			if set.Skips[notRecognisedReason]--; set.Skips[notRecognisedReason] == 0 {
				delete(set.Skips, notRecognisedReason)
			}
		}
		out = append(out, fmt.Sprintf("%s; a file named to be read must be an input: if it is one, name its format with --format (one of %s)",
			p, formatNames()))
	}
	return out
}

// formatNames lists the formats --format accepts, but auto.
func formatNames() string {
	var s []string
	for _, f := range runtimes.Inputs().Names()[1:] {
		s = append(s, string(f))
	}
	return strings.Join(s, ", ")
}
