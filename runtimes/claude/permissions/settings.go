package permissions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Source is the settings layer a rule comes from.
type Source string

// The settings layers, as Claude Code names them in ruleSource.
const (
	UserSettings    Source = "userSettings"
	ProjectSettings Source = "projectSettings"
	LocalSettings   Source = "localSettings"
	FlagSettings    Source = "flagSettings"
	PolicySettings  Source = "policySettings"
)

// Rule is one permission rule as a settings file holds it.
type Rule struct {
	Text     string   // the rule as written ("Bash(npm test:*)")
	Behavior Decision // the list it is in: allow, ask or deny
	Source   Source   // the settings layer
	File     string   // the file as the report names it
	Line     int      // 1-based line of the rule in File
	Tool     string   // the tool name before the parentheses
	Content  string   // the text inside the parentheses
	Paren    bool     // the rule has parentheses (a content rule)
	Root     string   // the folder a rule path starting with one "/" is relative to
	Dropped  string   // why Claude Code ignores the rule here; "" when it counts
}

// Where is the rule's place as file:line.
func (r Rule) Where() string { return fmt.Sprintf("%s:%d", r.File, r.Line) }

// Settings are the permission settings of one file.
type Settings struct {
	Source      Source
	File        string // as the report names it
	Rules       []Rule
	DefaultMode string
	ModeLine    int
	AddDirs     []string
	Tracked     bool // the file is tracked by git (a committed file)
}

// ReadSettings reads one settings file's permissions; a missing file is no rules and no error.
// name is how reports name the file, root the folder "/"-rooted rule paths are relative to.
func ReadSettings(path, name string, src Source, root string) (Settings, error) {
	s := Settings{Source: src, File: name}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	if err := parseSettings(b, &s, root); err != nil {
		return s, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

// parseSettings reads permissions.{allow,ask,deny}, permissions.defaultMode and
// permissions.additionalDirectories from a settings file, keeping each rule's line.
func parseSettings(b []byte, s *Settings, root string) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	lineAt := func(off int64) int { return 1 + bytes.Count(b[:off], []byte("\n")) }
	// path holds the keys from the document's object down to the current value.
	var path []string
	type frame struct {
		obj bool
		key string // the key whose value this container is
	}
	var stack []frame
	expectKey := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			if len(stack) > 0 {
				return fmt.Errorf("line %d: the file ends inside an object or array", lineAt(int64(len(b))))
			}
			break
		}
		if err != nil {
			return fmt.Errorf("line %d: %w", lineAt(dec.InputOffset()), err)
		}
		inObj := len(stack) > 0 && stack[len(stack)-1].obj
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				k := ""
				if len(path) > 0 {
					k = path[len(path)-1]
				}
				stack = append(stack, frame{obj: t == '{', key: k})
				expectKey = t == '{'
				continue
			case '}', ']':
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].obj && len(path) > 0 {
					path = path[:len(path)-1]
					expectKey = true
				}
				continue
			}
		case string:
			if inObj && expectKey {
				path = append(path, t)
				expectKey = false
				continue
			}
			keys := strings.Join(path, ".")
			line := lineAt(dec.InputOffset())
			switch keys {
			case "permissions.allow", "permissions.ask", "permissions.deny":
				r := ParseRule(t)
				r.Behavior = Decision(strings.TrimPrefix(keys, "permissions."))
				r.Source, r.File, r.Line, r.Root = s.Source, s.File, line, root
				s.Rules = append(s.Rules, r)
			case "permissions.defaultMode":
				s.DefaultMode, s.ModeLine = t, line
			case "permissions.additionalDirectories":
				s.AddDirs = append(s.AddDirs, t)
			}
		}
		if inObj {
			// a scalar value ends its key
			path = path[:len(path)-1]
			expectKey = true
		}
	}
	return nil
}

// Env is the workspace a call was decided in.
type Env struct {
	Project string   // the project folder (launch directory), absolute
	Home    string   // the home folder, for "~/" rules
	Trusted bool     // the workspace's trust dialog was accepted
	Mode    string   // --permission-mode, overriding every defaultMode; "" when not given
	AddDirs []string // --add-dir folders
}

// Policy is every settings layer of a run, merged as Claude Code merges them.
type Policy struct {
	Env   Env
	Files []Settings
	Rules []Rule // every rule, with Dropped set on those that do not count here
	Mode  string // the mode in force
	Dirs  []string
}

// NewPolicy merges the layers: rules from every file count (deny → ask → allow decides), except
// the ones Claude Code drops (invalid rules; allow from project settings, and from a git-tracked
// local file, in an untrusted workspace); the mode comes from the highest layer that sets it,
// bypassPermissions and auto only from user, flag or policy settings.
func NewPolicy(env Env, files ...Settings) Policy {
	p := Policy{Env: env, Files: files, Dirs: []string{env.Project}}
	p.Dirs = append(p.Dirs, env.AddDirs...)
	rank := map[Source]int{UserSettings: 1, ProjectSettings: 2, LocalSettings: 3, FlagSettings: 4, PolicySettings: 5}
	best := 0
	for _, f := range files {
		untrustedAllow := !env.Trusted && (f.Source == ProjectSettings || (f.Source == LocalSettings && f.Tracked))
		for _, r := range f.Rules {
			if r.Dropped == "" && untrustedAllow && r.Behavior == Allow {
				r.Dropped = fmt.Sprintf("an allow entry of %s is ignored in a workspace that is not trusted (a headless run in a fresh checkout)", f.File)
			}
			p.Rules = append(p.Rules, r)
		}
		if !untrustedAllow {
			for _, d := range f.AddDirs {
				if !filepath.IsAbs(d) {
					d = filepath.Join(env.Project, d)
				}
				p.Dirs = append(p.Dirs, d)
			}
		}
		if f.DefaultMode != "" && rank[f.Source] > best {
			if (f.DefaultMode == "bypassPermissions" || f.DefaultMode == "auto") && (f.Source == ProjectSettings || f.Source == LocalSettings) {
				continue
			}
			best, p.Mode = rank[f.Source], f.DefaultMode
		}
	}
	if env.Mode != "" {
		p.Mode = env.Mode
	}
	if p.Mode == "" {
		p.Mode = "default"
	}
	return p
}
