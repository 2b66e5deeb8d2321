package permissions

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agc-sarif/agc-sarif/internal/textsafe"
	"github.com/agc-sarif/agc-sarif/internal/visible"
	"github.com/agc-sarif/agc-sarif/permit"
)

// Runner is Claude Code's answer to the permissions command (permit.Runner).
type Runner struct{}

// Version names the runtime and the version the matcher was verified with.
func (Runner) Version() string { return "Claude Code " + Verified }

// LoadPolicy reads the settings a run of o.Root would read: user, project, local, --settings
// and managed, with the workspace's trust and mode.
func LoadPolicy(ctx context.Context, o permit.Options, project string) (Policy, error) {
	root := o.Root
	if project == "" {
		project = root
	}
	env := Env{Project: project, Home: o.Home, Trusted: o.Trusted, Mode: o.Mode}
	var files []Settings
	add := func(path, name string, src Source, base string, tracked bool) error {
		if path == "" {
			return nil
		}
		s, err := ReadSettings(path, name, src, base)
		if err != nil {
			return err
		}
		s.Tracked = tracked
		files = append(files, s)
		return nil
	}
	if err := add(o.UserSettings, o.UserSettings, UserSettings, filepath.Dir(o.UserSettings), false); err != nil {
		return Policy{}, err
	}
	proj := filepath.Join(root, ".claude", "settings.json")
	if err := add(proj, ".claude/settings.json", ProjectSettings, project, tracked(ctx, root, ".claude/settings.json")); err != nil {
		return Policy{}, err
	}
	local := filepath.Join(root, ".claude", "settings.local.json")
	if err := add(local, ".claude/settings.local.json", LocalSettings, project, tracked(ctx, root, ".claude/settings.local.json")); err != nil {
		return Policy{}, err
	}
	if err := add(o.Settings, o.Settings, FlagSettings, filepath.Dir(o.Settings), false); err != nil {
		return Policy{}, err
	}
	if err := add(o.ManagedSettings, o.ManagedSettings, PolicySettings, filepath.Dir(o.ManagedSettings), false); err != nil {
		return Policy{}, err
	}
	return NewPolicy(env, files...), nil
}

// tracked says whether git tracks the file in the repository.
func tracked(ctx context.Context, root, rel string) bool {
	cmd := exec.CommandContext(ctx, "git", "-C", root, "ls-files", "--error-unmatch", "--", rel)
	return cmd.Run() == nil
}

// Asker explains why a call asked or was denied, under the settings of o.Root with the call's
// folder as the project (a policy is read once per folder).
func (Runner) Asker(ctx context.Context, o permit.Options) (func(tool string, input []byte, cwd string) string, error) {
	base, err := LoadPolicy(ctx, o, o.Root)
	if err != nil {
		return nil, err
	}
	pols := map[string]Policy{}
	return func(tool string, input []byte, cwd string) string {
		pol, ok := pols[cwd]
		if !ok {
			pol = base
			if cwd != "" && cwd != base.Env.Project {
				env := base.Env
				env.Project = cwd
				pol = NewPolicy(env, base.Files...)
			}
			pols[cwd] = pol
		}
		return Because(pol.Decide(Call{Tool: tool, Input: input, Cwd: cwd}))
	}, nil
}

// Because says in one sentence why a decision was made: the rule and its place, a near miss, or
// no rule (with Claude Code's reason).
func Because(res Result) string {
	switch {
	case res.Decision == Allow:
		return "by these settings it runs (" + res.Reason + "): the settings or the mode the run had differ from these"
	case res.Rule != nil:
		return fmt.Sprintf("%s rule %s at %s", res.Rule.Behavior, res.Rule.Text, res.Rule.Where())
	case len(res.NearMisses) > 0:
		n := res.NearMisses[0]
		return fmt.Sprintf("no rule matched; near miss: %s at %s would allow %s", n.Rule.Text, n.Rule.Where(), n.Respelling)
	}
	return fmt.Sprintf("no rule matched (%s)", res.Reason)
}

// ExplainedCall is one call of the report, as the JSON report writes it.
type ExplainedCall struct {
	Tool       string          `json:"tool_name"`
	Input      json.RawMessage `json:"tool_input"`
	Decision   Decision        `json:"decision"`
	Reason     string          `json:"reason"`
	Why        string          `json:"why"`
	Rule       *string         `json:"rule"`
	Source     *string         `json:"source"`
	NearMisses []JSONNearMiss  `json:"near_misses"`
	Fix        string          `json:"fix,omitempty"`
	// RewrittenFrom is the model's call when a PreToolUse hook rewrote it (the rules saw the
	// rewrite).
	RewrittenFrom json.RawMessage `json:"rewritten_from,omitempty"`
}

// JSONNearMiss is a near miss as the JSON report writes it.
type JSONNearMiss struct {
	Rule       string `json:"rule"`
	Source     string `json:"source"`
	Respelling string `json:"respelling"`
	Note       string `json:"note,omitempty"`
}

// Explain writes the decision on every call of the inputs.
func (Runner) Explain(ctx context.Context, o permit.Options) error {
	calls, err := ReadCalls(o)
	if err != nil {
		return err
	}
	project := o.Root
	for _, c := range calls {
		if c.Cwd != "" {
			project = c.Cwd
			break
		}
	}
	pol, err := LoadPolicy(ctx, o, project)
	if err != nil {
		return err
	}
	// Calls are agent-written: every text of the report that holds one is redacted, as every
	// other output is (the one redaction boundary), after the decision was made on the raw call.
	red := o.Redact
	if red == nil {
		return fmt.Errorf("permissions: no redactor: a report of agent-written calls is never written unredacted")
	}
	out := make([]ExplainedCall, 0, len(calls))
	for _, c := range calls {
		res := pol.Decide(c)
		e := ExplainedCall{Tool: c.Tool, Input: red.JSON(c.Input), Decision: res.Decision, Reason: res.Reason, Why: red.String(res.Why),
			Fix: red.String(res.Fix), NearMisses: []JSONNearMiss{}}
		if c.Asked != nil {
			e.RewrittenFrom = red.JSON(c.Asked)
		}
		if res.Rule != nil {
			t, w := res.Rule.Text, res.Rule.Where()
			e.Rule, e.Source = &t, &w
		}
		for _, n := range res.NearMisses {
			e.NearMisses = append(e.NearMisses, JSONNearMiss{Rule: n.Rule.Text, Source: n.Rule.Where(), Respelling: red.String(n.Respelling), Note: n.Note})
		}
		out = append(out, e)
	}
	switch o.Report {
	case "json":
		enc := json.NewEncoder(o.Stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"claude_code_version": Verified, "mode": pol.Mode, "trusted": pol.Env.Trusted, "calls": out})
	case "md":
		return writeMarkdown(o.Stdout, pol, out)
	}
	return writeText(o.Stdout, pol, out)
}

// callText is a call as one line for people.
func callText(e ExplainedCall) string {
	var in map[string]any
	_ = json.Unmarshal(e.Input, &in)
	for _, k := range []string{"command", "file_path", "notebook_path", "url"} {
		if s, ok := in[k].(string); ok {
			return e.Tool + " " + s
		}
	}
	return e.Tool
}

func writeText(w io.Writer, pol Policy, calls []ExplainedCall) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "Claude Code %s permission decisions (mode %s, workspace %s)\n", Verified, pol.Mode, trustWord(pol.Env.Trusted))
	counts := map[Decision]int{}
	for _, e := range calls {
		counts[e.Decision]++
		fmt.Fprintf(bw, "\n%s: %s\n", e.Decision, visible.String(callText(e)))
		if e.RewrittenFrom != nil {
			fmt.Fprintf(bw, "  rewritten by a PreToolUse hook from: %s\n", visible.String(callText(ExplainedCall{Tool: e.Tool, Input: e.RewrittenFrom})))
		}
		if e.Rule != nil {
			fmt.Fprintf(bw, "  rule: %s at %s\n", *e.Rule, *e.Source)
		} else if e.Decision != Allow {
			fmt.Fprintf(bw, "  rule: none matched (%s)\n", e.Reason)
		}
		if e.Why != "" {
			fmt.Fprintf(bw, "  why: %s\n", visible.String(e.Why))
		}
		for _, n := range e.NearMisses {
			fmt.Fprintf(bw, "  near miss: %s at %s matches %s\n", n.Rule, n.Source, visible.String(n.Respelling))
			if n.Note != "" {
				fmt.Fprintf(bw, "    but: %s\n", visible.String(n.Note))
			}
		}
		if e.Fix != "" {
			fmt.Fprintf(bw, "  fix: %s\n", visible.String(e.Fix))
		}
	}
	fmt.Fprintf(bw, "\n%d calls: %d allowed, %d asked, %d denied\n", len(calls), counts[Allow], counts[Ask], counts[Deny])
	return bw.Flush()
}

func writeMarkdown(w io.Writer, pol Policy, calls []ExplainedCall) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "### Permission decisions (Claude Code %s, mode `%s`, workspace %s)\n\n", Verified, pol.Mode, trustWord(pol.Env.Trusted))
	fmt.Fprintln(bw, "| Call | Decision | Rule | Near misses | Fix |")
	fmt.Fprintln(bw, "|---|---|---|---|---|")
	for _, e := range calls {
		md := textsafe.Markdown
		rule := "none matched (" + md(e.Reason) + ")"
		if e.Rule != nil {
			rule = md(*e.Rule) + " at " + md(*e.Source)
		}
		var near []string
		for _, n := range e.NearMisses {
			near = append(near, md(n.Rule)+" at "+md(n.Source))
		}
		fmt.Fprintf(bw, "| %s | %s | %s | %s | %s |\n", md(callText(e)), e.Decision, rule, strings.Join(near, "<br>"), md(e.Fix))
	}
	return bw.Flush()
}

func trustWord(t bool) string {
	if t {
		return "trusted"
	}
	return "not trusted"
}

// ReadCalls reads the calls of the inputs: JSON lines of hook inputs ({"tool_name",
// "tool_input", "cwd"}) from "-", and from files the hook inputs of a hook log and the tool_use
// blocks of a transcript or stream-json, each call once (by its tool_use_id when it has one).
func ReadCalls(o permit.Options) ([]Call, error) {
	var calls []Call
	seen := map[string]int{}
	for _, in := range o.Inputs {
		var r io.Reader
		name := in
		if in == "-" {
			r, name = o.Stdin, "stdin"
		} else {
			f, err := os.Open(in)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			r = f
		}
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 64<<20)
		line, cwd := 0, ""
		for sc.Scan() {
			line++
			b := bytes.TrimSpace(sc.Bytes())
			if len(b) == 0 {
				continue
			}
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				fmt.Fprintf(o.Stderr, "agc-sarif: permissions: %s:%d: skipped: not JSON: %v\n", name, line, err)
				continue
			}
			if m, ok := v.(map[string]any); ok {
				if s, ok := m["cwd"].(string); ok && s != "" {
					cwd = s
				}
			}
			rewrite, hook := hookAnswer(v)
			walkCalls(v, cwd, func(id string, c Call) {
				if rewrite != nil {
					c.Asked, c.Input = c.Input, rewrite
				}
				c.Hook = hook
				key := id
				if key == "" {
					key = c.Tool + "\x00" + string(c.Input) + "\x00" + c.Cwd
				}
				if i, ok := seen[key]; ok {
					if c.Asked != nil && calls[i].Asked == nil {
						calls[i] = c // the hook's rewrite is what the rules saw
					}
					if c.Hook != "" && calls[i].Hook == "" {
						calls[i].Hook = c.Hook // what the hook decided, from the recorder's log
					}
					return
				}
				seen[key] = len(calls)
				calls = append(calls, c)
			})
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	return calls, nil
}

// hookAnswer reads a recorder's record of a PreToolUse hook (agc-record's {"input": …,
// "exit_code": …, "stdout": …}): the updatedInput the rules then saw (nil when none), and the
// hook's permission decision ("" when it made none; exit 2 is a deny).
func hookAnswer(v any) (json.RawMessage, Decision) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, ""
	}
	in, _ := m["input"].(map[string]any)
	if in == nil || in["hook_event_name"] != "PreToolUse" {
		return nil, ""
	}
	if code, ok := m["exit_code"].(float64); ok && code == 2 {
		return nil, Deny
	}
	out, _ := m["stdout"].(string)
	var ans struct {
		Hook struct {
			Decision string          `json:"permissionDecision"`
			Updated  json.RawMessage `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if out == "" || json.Unmarshal([]byte(strings.TrimSpace(out)), &ans) != nil {
		return nil, ""
	}
	d := Decision(ans.Hook.Decision)
	switch d {
	case Deny:
		return nil, Deny
	case Allow, Ask:
	default:
		d = ""
	}
	if len(ans.Hook.Updated) == 0 {
		return nil, d
	}
	return ans.Hook.Updated, d
}

// walkCalls finds the calls in one record: an object with tool_name and tool_input (a hook
// input; a PostToolUse input repeats its PreToolUse call and is kept once by its id), or a
// tool_use content block.
func walkCalls(v any, cwd string, found func(id string, c Call)) {
	switch t := v.(type) {
	case map[string]any:
		if name, ok := t["tool_name"].(string); ok {
			if in, ok := t["tool_input"]; ok {
				c := Call{Tool: name, Cwd: cwd}
				if s, ok := t["cwd"].(string); ok {
					c.Cwd = s
				}
				c.Input, _ = json.Marshal(in)
				id, _ := t["tool_use_id"].(string)
				found(id, c)
				return
			}
		}
		if t["type"] == "tool_use" {
			if name, ok := t["name"].(string); ok {
				b, _ := json.Marshal(t["input"])
				id, _ := t["id"].(string)
				found(id, Call{Tool: name, Input: b, Cwd: cwd})
				return
			}
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			walkCalls(t[k], cwd, found)
		}
	case []any:
		for _, x := range t {
			walkCalls(x, cwd, found)
		}
	}
}
