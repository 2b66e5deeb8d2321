package command

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agc-sarif/agc-sarif/internal/safewrite"
	"github.com/agc-sarif/agc-sarif/internal/textsafe"
	"github.com/agc-sarif/agc-sarif/internal/version"
	"github.com/agc-sarif/agc-sarif/permit"
	"github.com/agc-sarif/agc-sarif/runtimes"
	"github.com/agc-sarif/agc-sarif/sarif"
)

// The values of the action's permissions-lint input.
const (
	permsChanged = "changed" // lint when the change's diff touches a permission settings file
	permsAlways  = "always"
	permsNever   = "never"
)

// permsSARIF is where the action writes the lint's SARIF, relative to the workspace.
const permsSARIF = "agc-permissions.sarif"

// parsePermsLint checks the permissions-lint input.
func parsePermsLint(v string) (string, error) {
	switch v = strings.ToLower(strings.TrimSpace(v)); v {
	case "", permsChanged:
		return permsChanged, nil
	case permsAlways, permsNever:
		return v, nil
	}
	return "", fmt.Errorf("input permissions-lint: %q: want changed, always or never", v)
}

// stepPermissions lints the project's permission settings (input permissions-lint): by default
// only when the change touches one of them. Each result is an annotation on the rule's line and
// a line of the job summary; the SARIF goes to agc-permissions.sarif for an upload step of its
// own category. The lint never fails the step: a rule that misleads is for the reviewer.
func stepPermissions(ctx context.Context, s *actionState) error {
	run := runtimes.Permissions()
	switch s.in.PermissionsLint {
	case permsNever:
		return nil
	case permsChanged:
		if s.diff.d == nil {
			return nil
		}
		touched := false
		for _, f := range s.diff.d.Files() {
			touched = touched || run.SettingsFile(f)
		}
		if !touched {
			return nil
		}
	}
	root := s.workspace
	if s.res != nil && s.res.Root != "" {
		root = s.res.Root
	}
	res, err := run.Lint(ctx, permit.Options{Root: root, Home: s.env.Getenv("HOME"), Stderr: s.env.Stderr})
	if err != nil {
		s.gha.Warningf("%s", "permissions-lint: "+err.Error())
		return nil
	}
	log := sarif.SimpleLog{Tool: "agc-sarif permissions", Version: version.String(), Category: "agc-permissions", Root: root}
	for _, r := range run.Rules() {
		log.Rules = append(log.Rules, sarif.SimpleRule{ID: r.ID, Title: r.Title, Help: r.Help})
	}
	for _, f := range res {
		log.Results = append(log.Results, sarif.SimpleResult{Rule: f.Rule, Level: f.Level, File: f.File, Line: f.Line, Message: f.Message})
		a := s.gha.WithFieldsMap(map[string]string{"file": f.File, "line": strconv.Itoa(max(f.Line, 1)), "title": "agc-sarif: " + f.Rule})
		if f.Level == "error" {
			a.Errorf("%s", f.Message)
		} else {
			a.Warningf("%s", f.Message)
		}
	}
	b, err := sarif.Simple(log)
	if err == nil {
		err = safewrite.WriteFile(s.workspace, filepath.Join(s.workspace, permsSARIF), b)
	}
	if err != nil {
		s.gha.Warningf("%s", "permissions-lint: "+err.Error())
	}
	s.perms = permsSection(run.Version(), res)
	return nil
}

// permsSection is the job summary's section on the lint's results.
func permsSection(ver string, res []permit.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### Permission settings (%s)\n\n", textsafe.Markdown(ver))
	if len(res) == 0 {
		b.WriteString("No rule that misleads.\n")
		return b.String()
	}
	fmt.Fprintf(&b, "%d results, also in `%s`:\n\n", len(res), permsSARIF)
	for i, f := range res {
		if i == 20 {
			fmt.Fprintf(&b, "- and %d more in `%s`\n", len(res)-20, permsSARIF)
			break
		}
		fmt.Fprintf(&b, "- %s:%d %s %s: %s\n", textsafe.Markdown(f.File), f.Line, f.Level, textsafe.Markdown(f.Rule), textsafe.Markdown(f.Message))
	}
	return b.String()
}
