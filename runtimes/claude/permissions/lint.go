package permissions

import (
	"context"
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/internal/lazyre"
	"github.com/agc-sarif/agc-sarif/permit"
)

// The lint's rule ids.
const (
	LintNeverMatches = "permissions/never-matches"
	LintIgnoredHere  = "permissions/ignored-here"
	LintShadowed     = "permissions/shadowed"
	LintMachinePath  = "permissions/machine-path"
	LintBroader      = "permissions/broader-than-written"
)

// Rules are the lint's rules.
func (Runner) Rules() []permit.Rule {
	return []permit.Rule{
		{ID: LintNeverMatches, Title: "A permission rule that Claude Code never matches",
			Help: "Claude Code " + Verified + " drops this rule or never consults it: only Read(path) and Edit(path) are path rules (Edit covers Write), a bare Edit allows Edit only, invalid entries are dropped one by one, and an exact Bash rule is compared with the command's trimmed text. Rewrite the rule as the message says."},
		{ID: LintIgnoredHere, Title: "A permission setting ignored where it stands",
			Help: "Claude Code " + Verified + " ignores bypassPermissions and auto as defaultMode in project and local settings, and the allow entries of .claude/settings.json (and of a committed settings.local.json) in a workspace that is not trusted, which every headless run in a fresh checkout is. Move the setting to user settings or the --settings file of the run."},
		{ID: LintShadowed, Title: "An allow rule that a deny or ask rule overrides",
			Help: "Rules from every settings file merge, and deny, then ask, then allow decides: no file overrides another and a more specific allow does not win. This allow never lets its calls run without asking. Drop it, or narrow the deny or ask rule."},
		{ID: LintMachinePath, Title: "A machine-specific path in a committed permission rule",
			Help: "A committed settings file is read on every clone: an absolute path names one machine's folders and matches nothing elsewhere. Use a path relative to the project (./scripts/x.sh, src/**), or put the rule in user settings."},
		{ID: LintBroader, Title: "A Bash rule that allows more than its text suggests",
			Help: "In a Bash rule, a * right after a word extends it: npm run test* also allows npm run testing and npm run test-and-deploy. Write npm run test:* (the word, then anything after a space) or npm run test * to allow the command and its arguments only."},
	}
}

var machinePath = lazyre.New(`(^|[\s(=:])(//|/)(home|Users|tmp|root|var|opt|private|mnt|srv|workspace|github)/|^[A-Za-z]:\\`)

var wordStar = lazyre.New(`[A-Za-z0-9_.-]\*$`)

// SettingsFile says whether a repository path is the project's settings or local settings.
func (Runner) SettingsFile(p string) bool {
	return p == ".claude/settings.json" || p == ".claude/settings.local.json"
}

// Lint checks the settings files of o.Root (and the user, --settings and managed files named).
func (Runner) Lint(ctx context.Context, o permit.Options) ([]permit.Finding, error) {
	pol, err := LoadPolicy(ctx, o, o.Root)
	if err != nil {
		return nil, err
	}
	var out []permit.Finding
	add := func(id, level string, r Rule, line int, msg string) {
		out = append(out, permit.Finding{Rule: id, Level: level, File: r.File, Line: line, Message: msg})
	}
	for _, f := range pol.Files {
		committed := f.Source == ProjectSettings || (f.Source == LocalSettings && f.Tracked)
		if (f.DefaultMode == "bypassPermissions" || f.DefaultMode == "auto") && (f.Source == ProjectSettings || f.Source == LocalSettings) {
			add(LintIgnoredHere, "warning", Rule{File: f.File}, f.ModeLine,
				fmt.Sprintf("defaultMode %q in %s is ignored: only user, --settings and managed settings may set it.", f.DefaultMode, f.File))
		}
		hasBareWrite := false
		for _, r := range pol.Rules {
			if r.Behavior == Allow && r.Tool == "Write" && !r.Paren && r.Dropped == "" {
				hasBareWrite = true
			}
		}
		for _, r := range pol.Rules {
			if r.File != f.File {
				continue
			}
			switch {
			case strings.HasPrefix(r.Dropped, "an allow entry of"):
				add(LintIgnoredHere, "warning", r, r.Line, fmt.Sprintf("%s is ignored here: %s.", r.Text, r.Dropped))
			case r.Dropped != "":
				add(LintNeverMatches, "error", r, r.Line, fmt.Sprintf("%s is dropped by Claude Code's validator: %s.", r.Text, r.Dropped))
				continue
			}
			counted := r
			counted.Dropped = ""
			if why := counted.NeverMatches(); why != "" {
				add(LintNeverMatches, "error", r, r.Line, fmt.Sprintf("%s never matches: %s.", r.Text, why))
			}
			if r.Behavior == Allow && r.Tool == "Edit" && !r.Paren && !hasBareWrite {
				add(LintNeverMatches, "warning", r, r.Line, "A bare Edit allows the Edit tool only, never Write: add a bare Write, or write Edit(**) to allow both in the working directories.")
			}
			if r.Behavior == Allow && r.Tool == "Edit" && r.Paren && r.Content == "*" {
				add(LintNeverMatches, "warning", r, r.Line, "Edit(*) lets Edit run but not Write: write Edit(**) to cover both.")
			}
			if committed && r.Paren && machinePath.MatchString(r.Content) {
				add(LintMachinePath, "warning", r, r.Line, fmt.Sprintf("%s names a machine's absolute path in a committed file; it matches nothing on another clone.", r.Text))
			}
			if r.Tool == "Bash" && r.Paren && r.Behavior == Allow && wordStar.MatchString(r.Content) && !strings.HasSuffix(r.Content, `\*`) {
				base := strings.TrimSuffix(r.Content, "*")
				add(LintBroader, "warning", r, r.Line, fmt.Sprintf("%s also allows %q and any command that starts with %q; write Bash(%s:*) for the word and its arguments.", r.Text, base+"ing", base, base))
			}
			if r.Behavior == Allow && counted.NeverMatches() == "" {
				if by := shadow(pol, r); by != nil {
					add(LintShadowed, "warning", r, r.Line, fmt.Sprintf("%s never lets a call run without asking: %s rule %s at %s matches every call it allows (deny, then ask, then allow decides across all files).", r.Text, by.Behavior, by.Text, by.Where()))
				}
			}
		}
	}
	return out, nil
}

// shadow is the deny or ask rule that matches every call an allow rule allows, if any: a Bash
// rule's own command text (its prefix, or the text before its wildcard) is matched by it, or a
// path rule of the same tool has the same pattern or "**".
func shadow(pol Policy, a Rule) *Rule {
	for _, b := range []Decision{Deny, Ask} {
		for _, r := range pol.rules(b, a.Tool) {
			if !r.Paren {
				r := r
				return &r
			}
			if !a.Paren {
				continue
			}
			switch a.Tool {
			case "Bash":
				sample := strings.TrimSuffix(strings.TrimSuffix(a.Content, ":*"), " *")
				if hasStar(sample) {
					continue
				}
				open := strings.HasSuffix(a.Content, ":*") || strings.HasSuffix(a.Content, " *")
				if bashMatch(r.Content, sample) && (!open || bashMatch(r.Content, sample+" x")) {
					r := r
					return &r
				}
			default:
				if r.Content == a.Content || r.Content == "**" {
					r := r
					return &r
				}
			}
		}
	}
	return nil
}
