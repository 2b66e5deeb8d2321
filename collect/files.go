// Package collect runs the whole pipeline of `agc-sarif collect`: it expands the paths the user
// gave, reads every input with the reader of its format, and turns the findings into SARIF.
package collect

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// file is one input file to read.
type file struct {
	Path  string // path to open (absolute, or relative to the working folder)
	Name  string // path as shown in messages (as the user gave it, or found under a folder they gave)
	Named bool   // named on the command line, or matched by a glob the user gave: always read
	// Explicit says the user named this very file (not a glob or folder that reached it): one
	// that is empty is a notice, one in which nothing is recognised is an error (exit 2).
	Explicit bool
	// Judgment says the user named the file as a reviewing agent's output (--judgment): read
	// fail-closed under the judgment binding, whatever its format.
	Judgment bool
}

// expansion is what a list of paths, folders and globs expands to.
type expansion struct {
	Files []file
	// Missing are arguments that matched nothing or could not be opened: each is a message.
	Missing []string
	// Ignored counts regular files met while walking folders (recognised or not is decided later).
	Walked int
	// Folders are the folders the user named, each with the indices in Files of what it holds.
	Folders []folder
	// NoFiles are the globs and folders that matched no file, each a message; what they mean
	// follows Config.IfNoFilesFound.
	NoFiles []string
}

// folder is a folder the user named and the files found in it (indices into expansion.Files).
type folder struct {
	Name  string
	Files []int
}

// expandInputs expands the paths and the judgments (--judgment) into one list: the paths' files
// first, then the judgments' files not among them. A file reached both ways is a judgment.
func expandInputs(dir string, paths, judgments []string) expansion {
	ex := expand(dir, paths)
	if len(judgments) == 0 {
		return ex
	}
	js := expand(dir, judgments)
	at := map[string]int{}
	for i, f := range ex.Files {
		at[fileKey(f.Path)] = i
	}
	for _, f := range js.Files {
		f.Named, f.Judgment = true, true
		if i, ok := at[fileKey(f.Path)]; ok {
			ex.Files[i].Named, ex.Files[i].Judgment = true, true
			ex.Files[i].Explicit = ex.Files[i].Explicit || f.Explicit
			continue
		}
		ex.Files = append(ex.Files, f)
	}
	ex.Missing = append(ex.Missing, js.Missing...)
	ex.NoFiles = append(ex.NoFiles, js.NoFiles...)
	ex.Folders = append(ex.Folders, shiftFolders(js, ex.Files)...)
	ex.Walked += js.Walked
	return ex
}

// fileKey identifies a file for finding it twice: its absolute path.
func fileKey(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// hasMeta reports whether a path holds glob syntax. Action inputs arrive unexpanded, so the tool
// expands globs itself (with ** for any depth).
func hasMeta(p string) bool { return strings.ContainsAny(p, "*?[{") }

// expand turns the user's arguments into the files to read, in a stable order: arguments in the
// order given, files within a folder or glob sorted by path. A file reached twice is read once.
func expand(dir string, args []string) expansion {
	var ex expansion
	seen := map[string]int{} // file key → index in ex.Files
	add := func(path, name string, named bool) int {
		key := fileKey(path)
		if i, ok := seen[key]; ok {
			return i
		}
		seen[key] = len(ex.Files)
		ex.Files = append(ex.Files, file{Path: path, Name: name, Named: named})
		return len(ex.Files) - 1
	}
	explicit := func(i int) { ex.Files[i].Named, ex.Files[i].Explicit = true, true }
	for _, arg := range args {
		if arg == "" {
			continue
		}
		path := arg
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if hasMeta(arg) {
			if _, err := os.Lstat(path); err != nil { // a real file whose name holds [ or * is not a glob
				matches, err := doublestar.FilepathGlob(path, doublestar.WithFilesOnly(), doublestar.WithNoFollow())
				if err != nil {
					ex.Missing = append(ex.Missing, fmt.Sprintf("%s: bad glob: %v", arg, err))
					continue
				}
				if len(matches) == 0 {
					ex.NoFiles = append(ex.NoFiles, fmt.Sprintf("%s: no file matches", arg))
					continue
				}
				sort.Strings(matches)
				for _, m := range matches {
					add(m, display(dir, m, arg), true)
				}
				continue
			}
		}
		info, err := os.Stat(path)
		if err != nil {
			ex.Missing = append(ex.Missing, fmt.Sprintf("%s: %v", display(dir, path, arg), unwrapPathError(err)))
			continue
		}
		if !info.IsDir() {
			explicit(add(path, display(dir, path, arg), true))
			continue
		}
		ex.Folders = append(ex.Folders, folder{Name: display(dir, path, arg)})
		fo := &ex.Folders[len(ex.Folders)-1]
		err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				ex.Missing = append(ex.Missing, fmt.Sprintf("%s: %v", display(dir, p, arg), unwrapPathError(err)))
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if p != path && (d.Name() == ".git" || d.Name() == "node_modules") {
					return fs.SkipDir
				}
				return nil
			}
			// WalkDir does not follow symbolic links, so a link loop cannot trap it; links to
			// files are not read either, so nothing outside the folder is read by accident.
			if !d.Type().IsRegular() {
				return nil
			}
			ex.Walked++
			fo.Files = append(fo.Files, add(p, display(dir, p, arg), false))
			return nil
		})
		if err != nil {
			ex.Missing = append(ex.Missing, fmt.Sprintf("%s: %v", arg, err))
		}
		if len(fo.Files) == 0 {
			ex.NoFiles = append(ex.NoFiles, fmt.Sprintf("%s: the folder holds no files to read", fo.Name))
		}
	}
	return ex
}

// shiftFolders maps the folders of the judgments' expansion js to indices in files, the merged
// list, in which js's files were appended or found again.
func shiftFolders(js expansion, files []file) []folder {
	at := map[string]int{}
	for i, f := range files {
		at[fileKey(f.Path)] = i
	}
	var out []folder
	for _, fo := range js.Folders {
		g := folder{Name: fo.Name}
		for _, i := range fo.Files {
			g.Files = append(g.Files, at[fileKey(js.Files[i].Path)])
		}
		out = append(out, g)
	}
	return out
}

// display names a file relative to the working folder (in Actions, the workspace) when it lies
// below it, even when the user gave an absolute path, so messages show repository paths rather
// than /home/runner/work/… or /github/workspace/…; a file elsewhere keeps its full path.
func display(dir, p, arg string) string {
	if dir == "" {
		return p
	}
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	if rel == "." && !filepath.IsAbs(arg) {
		return arg
	}
	return filepath.ToSlash(rel)
}

// unwrapPathError drops the path from an *fs.PathError, since messages already name it.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if e, ok := err.(*fs.PathError); ok {
		pe = e
		return pe.Err
	}
	return err
}

// noneOf words that none of a folder's n files is read: "its one file is not", "none of its 3 files is".
func noneOf(n int) string {
	if n == 1 {
		return "its one file is not"
	}
	return fmt.Sprintf("none of its %d files is", n)
}

// folderWarnings names each folder the user gave in which no file was read as an input: an
// empty folder, or one whose files no reader recognised, is almost always a wrong path.
// read[i] tells whether ex.Files[i] was read by a reader.
func folderWarnings(ex expansion, read []bool) []string {
	var out []string
	for _, fo := range ex.Folders {
		used := false
		for _, i := range fo.Files {
			used = used || (i < len(read) && read[i])
		}
		switch {
		case used, len(fo.Files) == 0: // an empty folder is one of ex.NoFiles
		default:
			out = append(out, fmt.Sprintf("%s: %s a recognised input (hook log, transcript, stream-json, AGC JSON, or a judgment named with its path)", fo.Name, noneOf(len(fo.Files))))
		}
	}
	return out
}
