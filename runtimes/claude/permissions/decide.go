package permissions

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// Call is one tool call as the model asked for it (or as a hook rewrote it).
type Call struct {
	Tool  string          `json:"tool_name"`
	Input json.RawMessage `json:"tool_input"`
	Cwd   string          `json:"cwd,omitempty"`
	// Asked is what the model asked for when a PreToolUse hook rewrote the call (Input is the
	// rewrite, which is what the rules see); nil when no hook did.
	Asked json.RawMessage `json:"-"`
	// Hook is a PreToolUse hook's permission decision on the call (allow, ask, deny), as the
	// recorder's log holds it; "" when none is known.
	Hook Decision `json:"-"`
}

// NearMiss is an allow rule that matches a respelling of the call.
type NearMiss struct {
	Rule       Rule
	Respelling string // the call as the rule would have allowed it
	Note       string // why the rule would not count even then ("" when it would)
}

// Result is the decision on one call and why.
type Result struct {
	Decision   Decision
	Rule       *Rule    // the rule that decided; nil when no rule did
	Reason     string   // Claude Code's reason: rule, mode:<mode>, readOnlyCommand, workingDir, bashMiss:…, safetyCheck, hook
	Why        string   // one sentence for people
	Parts      []string // the parts of a shell line that need approval
	NearMisses []NearMiss
	Fix        string // the smallest change that lets the call run, or "" when it runs
	Dropped    []Rule // rules that would have decided but do not count here
}

// Decide replays Claude Code's permission decision on a call.
func (p Policy) Decide(c Call) Result {
	if c.Cwd == "" {
		c.Cwd = p.Env.Project
	}
	var in map[string]any
	_ = json.Unmarshal(c.Input, &in)
	str := func(k string) string { s, _ := in[k].(string); return s }
	var res Result
	switch {
	case c.Tool == "Bash":
		res = p.bash(str("command"), c.Cwd)
	case c.Tool == "Read" || writeTools.has(c.Tool):
		f := str("file_path")
		if f == "" {
			f = str("notebook_path")
		}
		res = p.file(c.Tool, f, c.Cwd)
	case c.Tool == "WebFetch":
		res = p.webFetch(str("url"))
	default:
		res = p.other(c.Tool)
	}
	switch c.Hook {
	case Deny:
		// a hook's deny ends the call before any rule (bin@344334145 Hri)
		return Result{Decision: Deny, Reason: "hook:PreToolUse", Why: "A PreToolUse hook denied the call."}
	case Ask:
		if res.Decision != Deny {
			res = Result{Decision: Ask, Reason: "hook:PreToolUse", Why: "A PreToolUse hook asked; no PermissionRequest hook fires for it."}
		}
	case Allow:
		// a hook's allow skips the prompt, not a deny or ask rule
		if res.Decision == Ask && (res.Rule == nil || res.Rule.Behavior != Ask) && res.Reason != "safetyCheck" {
			res = Result{Decision: Allow, Reason: "hook:PreToolUse", Why: "A PreToolUse hook allowed the call, and no deny or ask rule matches it."}
		}
	}
	if res.Decision == Ask && p.Mode == "dontAsk" {
		res.Decision, res.Reason = Deny, "mode:dontAsk"
		res.Why += " In dontAsk mode every ask is a deny."
	}
	return res
}

// rules are the counting rules of one behaviour for a tool, in file order.
func (p Policy) rules(b Decision, tool string) []Rule {
	var out []Rule
	for _, r := range p.Rules {
		if r.Behavior == b && r.Tool == tool && r.Dropped == "" {
			out = append(out, r)
		}
	}
	return out
}

// dropped are the rules of a tool and behaviour that do not count here.
func (p Policy) dropped(b Decision, tool string) []Rule {
	var out []Rule
	for _, r := range p.Rules {
		if r.Behavior == b && r.Tool == tool && r.Dropped != "" {
			out = append(out, r)
		}
	}
	return out
}

func (p Policy) whole(b Decision, tool string) *Rule {
	for _, r := range p.rules(b, tool) {
		if !r.Paren {
			r := r
			return &r
		}
	}
	return nil
}

func decided(d Decision, r Rule, why string) Result {
	return Result{Decision: d, Rule: &r, Reason: "rule:" + string(r.Source), Why: why}
}

// bash decides a shell command.
func (p Policy) bash(cmd, cwd string) Result {
	if r := p.whole(Deny, "Bash"); r != nil {
		return decided(Deny, *r, "Bash is denied as a whole tool.")
	}
	if r := p.whole(Ask, "Bash"); r != nil {
		return decided(Ask, *r, "Bash asks as a whole tool.")
	}
	sh := splitShell(cmd)
	// deny, then ask, over every part
	for _, b := range []Decision{Deny, Ask} {
		for _, pt := range sh.Parts {
			for _, r := range p.rules(b, "Bash") {
				if r.Paren && (bashMatch(r.Content, pt.Deny) || bashMatch(r.Content, pt.Source)) {
					return decided(b, r, fmt.Sprintf("%s rule %s matches %q.", b, r.Text, pt.Deny))
				}
			}
			if res, ok := p.bashPaths(b, pt, cwd); ok {
				return res
			}
		}
	}
	if p.Mode == "bypassPermissions" {
		return Result{Decision: Allow, Reason: "mode:bypassPermissions", Why: "Bypass mode runs what no deny or ask rule stops."}
	}
	if r := p.whole(Allow, "Bash"); r != nil {
		return decided(Allow, *r, "Bash is allowed as a whole tool.")
	}
	for _, r := range p.rules(Allow, "Bash") {
		if r.Paren && !hasStar(r.Content) && !strings.HasSuffix(r.Content, ":*") && r.Content == sh.Whole {
			return decided(Allow, r, "An exact rule matches the whole line.")
		}
	}
	if sh.Complex != "" {
		res := Result{Decision: Ask, Reason: "bashMiss:" + sh.Complex, Parts: []string{sh.Whole}}
		switch sh.Complex {
		case "backgroundOperator":
			res.Reason = "safetyCheck"
			res.Why = "A command run in the background (&) raises a safety check that no allow rule answers."
		case "shell-operators":
			res.Why = "A subshell or group ( … ) is never approved part by part."
		default:
			res.Why = "A command substitution or a compound command is never approved by a rule."
		}
		res.Fix = "No allow rule can approve this line: run its commands as separate calls."
		return res
	}
	var firstRule *Rule
	var need []string
	var why []string
	cds := 0
	for _, pt := range sh.Parts {
		if pt.Assigned {
			need = append(need, pt.Source)
			why = append(why, "assigned-variable")
			continue
		}
		ok, r, reason := p.bashPart(pt, cwd)
		if len(pt.Words) > 0 && pt.Words[0] == "cd" {
			cds++
		}
		if ok {
			if firstRule == nil && r != nil {
				firstRule = r
			}
			continue
		}
		need = append(need, pt.Source)
		why = append(why, reason)
	}
	if cds > 1 {
		return Result{Decision: Ask, Reason: "bashMiss:multi-cd", Parts: []string{sh.Whole}, Why: "More than one cd in a line always asks."}
	}
	if len(need) == 0 {
		res := Result{Decision: Allow, Reason: "readOnlyCommand", Why: "Every part is a read-only command inside the working directories."}
		if firstRule != nil {
			res.Rule, res.Reason = firstRule, "rule:"+string(firstRule.Source)
			res.Why = fmt.Sprintf("Allowed by %s.", firstRule.Text)
		}
		return res
	}
	res := Result{Decision: Ask, Reason: "bashMiss:" + why[0], Parts: need}
	if len(need) == 1 {
		res.Why = fmt.Sprintf("No allow rule matches %q (%s).", need[0], why[0])
	} else {
		res.Why = fmt.Sprintf("Every part of the line needs a rule; these match none: %s.", quoteAll(need))
	}
	res.NearMisses = p.bashNearMisses(sh, need, cwd)
	res.Dropped = p.droppedMatches(sh)
	res.Fix = p.bashFix(need, res.NearMisses, cwd)
	return res
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

// bashPaths applies Read and Edit deny (or ask) rules to the files a shell part reads or writes.
func (p Policy) bashPaths(b Decision, pt part, cwd string) (Result, bool) {
	for _, f := range readPaths(pt) {
		abs := resolve(f, cwd)
		for _, r := range p.rules(b, "Read") {
			if r.Paren && pathMatch(r, abs, p.Env) {
				return decided(b, r, fmt.Sprintf("%s rule %s covers %s, which %q reads.", b, r.Text, f, pt.Deny)), true
			}
		}
	}
	for _, f := range pt.Writes {
		abs := resolve(f, cwd)
		for _, r := range p.rules(b, "Edit") {
			if r.Paren && pathMatch(r, abs, p.Env) {
				return decided(b, r, fmt.Sprintf("%s rule %s covers %s, which the command writes.", b, r.Text, f)), true
			}
		}
	}
	return Result{}, false
}

// readPaths are the path arguments of a known file-reading command.
func readPaths(pt part) []string {
	if len(pt.Words) == 0 || !readers.has(pt.Words[0]) {
		return nil
	}
	var out []string
	skipPattern := pt.Words[0] == "grep" || pt.Words[0] == "rg"
	for _, w := range pt.Words[1:] {
		if strings.HasPrefix(w, "-") {
			continue
		}
		if skipPattern {
			skipPattern = false
			continue
		}
		out = append(out, strings.Trim(w, `"'`))
	}
	return out
}

// bashPart says whether one simple command is allowed, by which rule, or why not.
func (p Policy) bashPart(pt part, cwd string) (bool, *Rule, string) {
	if pt.Expansion {
		return false, nil, "shell-expansion"
	}
	for _, f := range readPaths(pt) {
		if !inside(resolve(f, cwd), p.Dirs) {
			return false, nil, "workingDir"
		}
	}
	if len(pt.Writes) > 0 {
		for _, f := range pt.Writes {
			if p.Mode != "acceptEdits" || !inside(resolve(f, cwd), p.Dirs) {
				return false, nil, "the command writes " + f
			}
		}
	}
	for _, r := range p.rules(Allow, "Bash") {
		if r.Paren && (bashMatch(r.Content, pt.Allow) || (!hasStar(r.Content) && r.Content == pt.Source)) {
			r := r
			return true, &r, ""
		}
	}
	w := pt.Words
	switch {
	case w[0] == "cd":
		if len(w) == 1 || inside(resolve(w[1], cwd), p.Dirs) {
			return true, nil, ""
		}
		return false, nil, "workingDir"
	case readOnly.has(w[0]) && pt.Allow == pt.Deny:
		return true, nil, ""
	case w[0] == "git" && len(w) > 1 && readOnlyGit.has(w[1]):
		return true, nil, ""
	case p.Mode == "acceptEdits" && fileWriters.has(w[0]):
		for _, a := range w[1:] {
			if !strings.HasPrefix(a, "-") && !inside(resolve(a, cwd), p.Dirs) {
				return false, nil, "workingDir"
			}
		}
		return true, nil, ""
	}
	return false, nil, "no-rule-match"
}

// respellings are other spellings of one command that run the same program: absolute ↔
// relative to the folder, with and without "./", "bash X" ↔ "X", without env and wrappers.
func respellings(src string, cwd string) []string {
	sh := splitShell(src)
	if len(sh.Parts) != 1 || len(sh.Parts[0].Words) == 0 {
		return nil
	}
	pt := sh.Parts[0]
	w := append([]string(nil), pt.Words...)
	var out []string
	add := func(words []string) {
		s := strings.Join(words, " ")
		if s == "" || s == pt.Allow {
			return
		}
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	if pt.Deny != pt.Allow {
		add(w)
	}
	progs := [][]string{w}
	if (w[0] == "bash" || w[0] == "sh") && len(w) > 1 && !strings.HasPrefix(w[1], "-") {
		progs = append(progs, w[1:])
		add(w[1:])
	}
	// an argument named by its absolute path inside the folder, spelled relative
	for i := 1; i < len(w); i++ {
		if !filepath.IsAbs(w[i]) {
			continue
		}
		if rel, err := filepath.Rel(cwd, w[i]); err == nil && !strings.HasPrefix(rel, "..") {
			for _, f := range []string{rel, "./" + rel} {
				alt := append([]string(nil), w...)
				alt[i] = f
				add(alt)
			}
		}
	}
	for _, ws := range progs {
		prog := ws[0]
		rest := ws[1:]
		var forms []string
		switch {
		case filepath.IsAbs(prog):
			if rel, err := filepath.Rel(cwd, prog); err == nil && !strings.HasPrefix(rel, "..") {
				forms = append(forms, rel, "./"+rel)
			}
		case strings.HasPrefix(prog, "./"):
			forms = append(forms, strings.TrimPrefix(prog, "./"), filepath.Join(cwd, prog))
		case strings.Contains(prog, "/"):
			forms = append(forms, "./"+prog, filepath.Join(cwd, prog))
		}
		for _, f := range forms {
			add(append([]string{f}, rest...))
			add(append([]string{"bash", f}, rest...))
		}
	}
	return out
}

// bashNearMisses are allow rules that match a respelling of a part that needs approval.
func (p Policy) bashNearMisses(sh shape, need []string, cwd string) []NearMiss {
	var out []NearMiss
	seen := map[string]bool{}
	allow := append(p.rules(Allow, "Bash"), p.dropped(Allow, "Bash")...)
	try := func(text string) {
		for _, r := range allow {
			if r.Paren && bashMatch(r.Content, text) && !seen[r.Text+"\x00"+text] {
				seen[r.Text+"\x00"+text] = true
				out = append(out, NearMiss{Rule: r, Respelling: text, Note: r.Dropped})
			}
		}
	}
	for _, n := range need {
		for _, s := range respellings(n, cwd) {
			try(s)
		}
	}
	return out
}

// droppedMatches are allow rules that would match a part but do not count here.
func (p Policy) droppedMatches(sh shape) []Rule {
	var out []Rule
	for _, r := range p.dropped(Allow, "Bash") {
		for _, pt := range sh.Parts {
			if r.Paren && bashMatch(r.Content, pt.Allow) {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// multiWord are programs whose rules name a subcommand ("npm run test:*" rather than "npm:*").
var multiWord = lazyWords("npm pnpm yarn git go cargo docker kubectl make pip pip3 python -m uv poetry gh bun deno dotnet mvn gradle")

// bashFix is the smallest change that lets the parts run: the rewrite to a spelling a rule
// allows, or an allow entry that never names a machine path, and where it counts.
func (p Policy) bashFix(need []string, near []NearMiss, cwd string) string {
	for _, n := range near {
		if n.Note == "" {
			return fmt.Sprintf("Rewrite the call to %q, which %s at %s allows (a guard can answer with updatedInput).", n.Respelling, n.Rule.Text, n.Rule.Where())
		}
	}
	if len(near) > 0 {
		n := near[0]
		return fmt.Sprintf("Rewrite the call to %q, which %s at %s would allow, and put that rule in %s.", n.Respelling, n.Rule.Text, n.Rule.Where(), p.allowFile())
	}
	var entries []string
	for _, n := range need {
		sh := splitShell(n)
		if len(sh.Parts) == 0 || len(sh.Parts[0].Words) == 0 {
			continue
		}
		w := sh.Parts[0].Words
		prog := w[0]
		var rule string
		switch {
		case filepath.IsAbs(prog):
			rel, err := filepath.Rel(p.Env.Project, prog)
			if err != nil || strings.HasPrefix(rel, "..") {
				return fmt.Sprintf("%s is outside the project: an allow entry would name this machine's path; allow it in user settings, not a committed file.", prog)
			}
			return fmt.Sprintf("Run it as ./%s and allow Bash(./%s:*) (a guard can rewrite the absolute spelling with updatedInput; an entry with this machine's path would be void elsewhere).", rel, rel)
		case strings.Contains(prog, "/"):
			rule = "Bash(" + prog + ":*)"
		case multiWord.has(prog) && len(w) > 1 && !strings.HasPrefix(w[1], "-"):
			sub := w[1]
			if (prog == "npm" || prog == "pnpm" || prog == "yarn" || prog == "bun") && sub == "run" && len(w) > 2 {
				sub = "run " + w[2]
			}
			rule = "Bash(" + prog + " " + sub + ":*)"
		default:
			rule = "Bash(" + prog + ":*)"
		}
		entries = append(entries, rule)
	}
	if len(entries) == 0 {
		return ""
	}
	return fmt.Sprintf("Add %s to permissions.allow in %s.", strings.Join(entries, " and "), p.allowFile())
}

// allowFile is where an allow entry counts in this workspace.
func (p Policy) allowFile() string {
	if p.Env.Trusted {
		return ".claude/settings.json"
	}
	return "user settings or the run's --settings file (this workspace is not trusted, so .claude/settings.json's allow entries do not count)"
}

// file decides a Read, Edit, Write, NotebookEdit or MultiEdit call.
func (p Policy) file(tool, path, cwd string) Result {
	abs := resolve(path, cwd)
	ruleTool := "Read"
	if writeTools.has(tool) {
		ruleTool = "Edit"
	}
	for _, b := range []Decision{Deny, Ask} {
		if r := p.whole(b, tool); r != nil {
			return decided(b, *r, fmt.Sprintf("%s is %sed as a whole tool.", tool, strings.TrimSuffix(string(b), "e")))
		}
		for _, r := range p.rules(b, ruleTool) {
			if r.Paren && pathMatch(r, abs, p.Env) {
				return decided(b, r, fmt.Sprintf("%s rule %s covers %s.", b, r.Text, p.show(abs)))
			}
		}
	}
	if writeTools.has(tool) && p.Mode == "plan" {
		return Result{Decision: Ask, Reason: "mode:plan", Why: "Plan mode refuses every file write."}
	}
	if p.Mode == "bypassPermissions" {
		return Result{Decision: Allow, Reason: "mode:bypassPermissions", Why: "Bypass mode runs what no deny or ask rule stops."}
	}
	if r := p.whole(Allow, tool); r != nil {
		return decided(Allow, *r, fmt.Sprintf("%s is allowed as a whole tool.", tool))
	}
	for _, r := range p.rules(Allow, ruleTool) {
		if !r.Paren {
			continue
		}
		if r.Content == "*" && tool != "Edit" && ruleTool == "Edit" {
			continue // Edit(*) lets Edit run, not Write (run:edit-star-paren-inside)
		}
		if pathMatch(r, abs, p.Env) {
			return decided(Allow, r, fmt.Sprintf("Allowed by %s.", r.Text))
		}
	}
	in := inside(abs, p.Dirs)
	switch {
	case tool == "Read" && in:
		return Result{Decision: Allow, Reason: "mode:" + p.Mode, Why: "A read inside the working directories runs."}
	case writeTools.has(tool) && in && p.Mode == "acceptEdits":
		return Result{Decision: Allow, Reason: "mode:acceptEdits", Why: "acceptEdits lets writes inside the working directories run."}
	}
	res := Result{Decision: Ask, Reason: "workingDir", Why: fmt.Sprintf("%s is outside the working directories and no rule allows it.", p.show(abs))}
	if in {
		res.Reason, res.Why = "no-rule-match", fmt.Sprintf("No allow rule covers %s, and a %s asks in %s mode.", p.show(abs), tool, p.Mode)
	}
	res.NearMisses = p.fileNearMisses(tool, abs)
	if in {
		rel, _ := filepath.Rel(p.Env.Project, abs)
		dir := filepath.Dir(filepath.ToSlash(rel))
		pat := rel
		if dir != "." {
			pat = dir + "/**"
		}
		res.Fix = fmt.Sprintf("Add %s(%s) to permissions.allow in %s.", ruleTool, pat, p.allowFile())
	} else {
		res.Fix = fmt.Sprintf("Add %s(/%s/**) to permissions.allow in user settings (an outside path is this machine's).", ruleTool, filepath.Dir(abs))
	}
	return res
}

// fileNearMisses are rules that would have matched a file call under another reading: a
// Write(path) rule (never consulted), a bare Edit for a Write, a single-slash path meant as
// absolute, an allow that does not count here.
func (p Policy) fileNearMisses(tool, abs string) []NearMiss {
	var out []NearMiss
	for _, r := range p.Rules {
		if r.Behavior != Allow {
			continue
		}
		switch {
		case r.Dropped != "" && r.Paren && (r.Tool == "Read" || r.Tool == "Edit") && pathMatch(r, abs, p.Env):
			out = append(out, NearMiss{Rule: r, Respelling: "the rule matches, but " + r.Dropped})
		case r.Paren && r.Tool == tool && r.NeverMatches() != "":
			alt := r
			alt.Tool = "Edit"
			if pathMatch(alt, abs, p.Env) {
				out = append(out, NearMiss{Rule: r, Respelling: "as Edit(" + r.Content + ")"})
			}
		case !r.Paren && r.Tool == "Edit" && tool == "Write" && r.Dropped == "":
			out = append(out, NearMiss{Rule: r, Respelling: "a bare Edit allows Edit only; a bare Write or Edit(**) allows Write"})
		case r.Paren && r.Tool == "Edit" && r.Content == "*" && tool != "Edit" && writeTools.has(tool):
			out = append(out, NearMiss{Rule: r, Respelling: "Edit(*) lets Edit run, not " + tool + "; Edit(**) covers both"})
		case r.Paren && (r.Tool == "Read" || r.Tool == "Edit") && strings.HasPrefix(r.Content, "/") && !strings.HasPrefix(r.Content, "//"):
			alt := r
			alt.Content = "/" + r.Content
			if pathMatch(alt, abs, p.Env) {
				out = append(out, NearMiss{Rule: r, Respelling: "as " + r.Tool + "(/" + r.Content + "): one leading / is relative to the settings file's folder, // is absolute"})
			}
		}
	}
	return out
}

// show names a path for people: relative to the project, or <outside>/name.
func (p Policy) show(abs string) string {
	rel, err := filepath.Rel(p.Env.Project, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "<outside>/" + filepath.Base(abs)
	}
	return filepath.ToSlash(rel)
}

// webFetch decides a WebFetch by its host: "domain:host" rules, "domain:*.host" for subdomains.
func (p Policy) webFetch(raw string) Result {
	u, _ := url.Parse(raw)
	host := ""
	if u != nil {
		host = u.Hostname()
	}
	for _, b := range []Decision{Deny, Ask, Allow} {
		if r := p.whole(b, "WebFetch"); r != nil {
			return decided(b, *r, "WebFetch as a whole tool.")
		}
		for _, r := range p.rules(b, "WebFetch") {
			d := strings.TrimPrefix(r.Content, "domain:")
			if d == host || strings.HasPrefix(d, "*.") && strings.HasSuffix(host, d[1:]) {
				return decided(b, r, fmt.Sprintf("%s rule %s matches %s.", b, r.Text, host))
			}
		}
	}
	if p.Mode == "bypassPermissions" {
		return Result{Decision: Allow, Reason: "mode:bypassPermissions"}
	}
	return Result{Decision: Ask, Reason: "bashMiss:no-rule-match", Why: "No rule allows fetching " + host + ".",
		Fix: fmt.Sprintf("Add WebFetch(domain:%s) to permissions.allow in %s.", host, p.allowFile())}
}

// asking are the tools that ask without a rule; the others run unchecked.
var asking = lazyWords("WebSearch")

// other decides a tool with no content rules: whole-tool rules, else its default.
func (p Policy) other(tool string) Result {
	for _, b := range []Decision{Deny, Ask, Allow} {
		if r := p.whole(b, tool); r != nil {
			return decided(b, *r, tool+" as a whole tool.")
		}
	}
	if asking.has(tool) && p.Mode != "bypassPermissions" {
		return Result{Decision: Ask, Reason: "bashMiss:no-rule-match", Why: "No rule allows " + tool + ".", Fix: fmt.Sprintf("Add %s to permissions.allow in %s.", tool, p.allowFile())}
	}
	return Result{Decision: Allow, Reason: "other", Why: tool + " needs no permission."}
}
