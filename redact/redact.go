// Package redact hides secrets in the text of findings before it reaches SARIF, annotations,
// the job summary or logs: tokens of the major platforms (gitleaks' default rules, embedded as
// data), private keys, JWTs, passwords in URLs, Authorization headers, and the values of
// variables, flags and keys whose names say they hold a secret. Secrets are also recognised as
// classes, by where they sit: contexts.toml, a table kept as data beside the gitleaks rules,
// lists the flags and positions of common tools, HTTP headers and cookies, the grammars of
// credential files and the assignment forms of common languages, each with the value that
// follows it. Line continuations, split string literals, JSON escapes at any depth and wrapped
// base64 are undone before matching, and a stable high-entropy fallback takes random values
// that nothing else names. A secret becomes "[REDACTED:<rule>]".
package redact

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"sync"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// Options configure a Redactor.
type Options struct {
	Disabled bool // leave every text as it is (--redact=false)
}

// Redactor replaces secrets in text. It is safe for concurrent use.
type Redactor struct {
	disabled bool
	// noFallback leaves out the high-entropy fallback (tests: every class is found without it).
	noFallback bool
	rules      *ruleSet
	mu         sync.Mutex
	memo       map[string]string // recent results: repeated events repeat their texts
}

// memoSize bounds the memo; it is emptied when full.
const memoSize = 4096

// New returns a Redactor with the default rules.
func New(opts Options) *Redactor {
	rs, err := defaultRules()
	if err != nil {
		// The embedded rules are tested; should they ever fail, our own rules still apply.
		own, _ := ownRules()
		rs = (&ruleSet{rules: own}).index()
	}
	return &Redactor{disabled: opts.Disabled, rules: rs, memo: map[string]string{}}
}

// span is a part of the text to replace.
type span struct {
	start, end int
	rule       string
	generic    bool
}

// String returns s with every secret replaced by "[REDACTED:<rule>]". Rules run only when one of
// their keywords is in the text; rules that cannot span lines run line by line, on the lines
// that hold one of their keywords.
func (r *Redactor) String(s string) string {
	if r == nil || r.disabled || len(s) < 8 {
		return s
	}
	r.mu.Lock()
	out, ok := r.memo[s]
	r.mu.Unlock()
	if ok {
		return out
	}
	out = r.redact(s)
	if len(s) <= 64<<10 {
		r.mu.Lock()
		if len(r.memo) >= memoSize {
			clear(r.memo)
		}
		r.memo[s] = out
		r.mu.Unlock()
	}
	return out
}

// redact does the work of String: the secrets found in s as it stands, in s with its
// obfuscations undone (normalise), and in the base64 it holds are replaced.
func (r *Redactor) redact(s string) string {
	spans := r.hidden(s, 0)
	if len(spans) == 0 {
		return s
	}
	return replace(s, spans)
}

// maxDepth bounds how deep hidden looks into base64 inside base64.
const maxDepth = 2

// hidden returns the secrets in s: as it stands, after normalising, and inside base64 runs
// (depth counts the base64 layers already opened).
func (r *Redactor) hidden(s string, depth int) []span {
	spans := r.spans(s)
	if needsNormalising(s) {
		n := normalise(s)
		if n.text != s {
			for _, sp := range r.spans(n.text) {
				sp.start, sp.end = n.span(sp.start, sp.end)
				spans = append(spans, sp)
			}
		}
	}
	if depth < maxDepth {
		spans = append(spans, r.base64Spans(s, depth)...)
	}
	return outsideMarkers(s, spans)
}

// marker begins the text that replaces a secret.
const marker = "[REDACTED:"

// outsideMarkers cuts out of the spans every "[REDACTED:…]" already in s, so that redacting
// redacted text changes nothing (a rule must not take a marker for a secret) while a secret
// written around a planted marker is still hidden.
func outsideMarkers(s string, spans []span) []span {
	if len(spans) == 0 || !strings.Contains(s, marker) {
		return spans
	}
	var marks [][2]int
	for from := 0; ; {
		i := strings.Index(s[from:], marker)
		if i < 0 {
			break
		}
		i += from
		end := len(s)
		if j := strings.IndexByte(s[i:], ']'); j >= 0 {
			end = i + j + 1
		}
		marks = append(marks, [2]int{i, end})
		from = end
	}
	var out []span
	for _, sp := range spans {
		for _, m := range marks {
			if m[1] <= sp.start || m[0] >= sp.end {
				continue
			}
			if m[0] > sp.start {
				out = append(out, span{sp.start, m[0], sp.rule, sp.generic})
			}
			sp.start = m[1]
			if sp.start >= sp.end {
				break
			}
		}
		if sp.start < sp.end {
			out = append(out, sp)
		}
	}
	return out
}

// spans finds the secrets the rules match in s, and the random values the high-entropy fallback
// takes (it runs on every text, outside the rules, so that a text without any rule's keyword is
// still passed over by the rules at the cost of one keyword scan).
func (r *Redactor) spans(s string) []span {
	spans := r.ruleSpans(s)
	if !r.noFallback {
		for _, v := range scanHighEntropy(s, "") {
			spans = append(spans, span{v[0], v[1], "high-entropy", true})
		}
	}
	return spans
}

// ruleSpans finds the secrets the rules match in s. Rules run only when one of their keywords is
// in the text; rules that cannot span lines run line by line, on the lines that hold one of their
// keywords.
func (r *Redactor) ruleSpans(s string) []span {
	rs := r.rules
	lower := asciiLower(s)
	// On the stack for the default rules (286 keywords): made per call, it was a fifth of what
	// redacting allocates.
	var onStack [512]bool
	hits := onStack[:0]
	if n := len(rs.kw.words); n <= len(onStack) {
		hits = onStack[:n]
	} else {
		hits = make([]bool, n)
	}
	if !rs.kw.scan(lower, hits) && !rs.always {
		return nil
	}
	var spans []span
	single := false
	for _, ru := range rs.rules {
		if !ruleHit(ru, hits) {
			continue
		}
		if ru.multiLine {
			spans = r.find(ru, s, lower, 0, spans)
		} else {
			single = true
		}
	}
	if !single {
		return spans
	}
	for start := 0; start < len(s); {
		end := strings.IndexByte(s[start:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		if end-start >= 8 && (rs.kw.scan(lower[start:end], hits) || rs.always) {
			for _, ru := range rs.rules {
				if !ru.multiLine && ruleHit(ru, hits) {
					spans = r.find(ru, s[start:end], lower[start:end], start, spans)
				}
			}
		}
		start = end + 1
	}
	return spans
}

// ruleHit reports whether one of a rule's keywords was found (always, for a rule without any).
func ruleHit(ru *rule, hits []bool) bool {
	if len(ru.kw) == 0 {
		return true
	}
	for _, i := range ru.kw {
		if hits[i] {
			return true
		}
	}
	return false
}

// find appends the secrets rule ru finds in text (which starts at offset off of the whole;
// lower is text lower-cased in ASCII).
func (r *Redactor) find(ru *rule, text, lower string, off int, spans []span) []span {
	if ru.scan != nil {
		for _, v := range ru.scan(text, lower) {
			if r.keep(ru, text, text[v[0]:v[1]], []int{v[0], v[1]}) {
				spans = append(spans, span{off + v[0], off + v[1], ru.id, ru.generic})
			}
		}
		return spans
	}
	if !ru.window {
		return r.match(ru, text, off, spans)
	}
	// Run the rule on the stretches around its keywords, merged where they overlap.
	var wins [][2]int
	for _, k := range ru.keywords {
		for from := 0; ; {
			i := strings.Index(lower[from:], k)
			if i < 0 {
				break
			}
			i += from
			from = i + 1
			if ru.gate && !operatorFollows(text, i+len(k)) || ru.follows != nil && !ru.follows(text, i+len(k)) {
				continue
			}
			wins = append(wins, [2]int{max(0, i-windowBefore), min(len(text), i+len(k)+windowAfter)})
		}
	}
	sort.Slice(wins, func(i, j int) bool { return wins[i][0] < wins[j][0] })
	for i := 0; i < len(wins); {
		w := wins[i]
		j := i + 1
		for ; j < len(wins) && wins[j][0] <= w[1]; j++ {
			w[1] = max(w[1], wins[j][1])
		}
		spans = r.match(ru, text[w[0]:w[1]], off+w[0], spans)
		i = j
	}
	return spans
}

// operatorFollows reports whether gitleaks' gateMark can match at j: up to 20 name characters,
// up to 3 quotes or white space, then one of = > : | ? ,.
func operatorFollows(s string, j int) bool {
	for k := 0; k <= 20 && j+k <= len(s); k++ {
		for q := 0; q <= 3 && j+k+q < len(s); q++ {
			c := s[j+k+q]
			if strings.IndexByte("=>:|?,", c) >= 0 {
				return true
			}
			if !isSpaceQuote(c) {
				break
			}
		}
		if j+k >= len(s) || !isNameChar(s[j+k]) {
			return false
		}
	}
	return false
}

// isSpaceQuote reports whether c is white space or a quote, as [\s'"] says.
func isSpaceQuote(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '\'' || c == '"'
}

// isNameChar reports whether c is in [ \t\w.-].
func isNameChar(c byte) bool {
	return c == ' ' || c == '\t' || c == '_' || c == '.' || c == '-' ||
		c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// match appends the secrets the rule's regular expression finds in text (at offset off).
func (r *Redactor) match(ru *rule, text string, off int, spans []span) []span {
	for _, m := range ru.re().FindAllStringSubmatchIndex(text, -1) {
		start, end := secretSpan(ru, m)
		if start < 0 || start == end {
			continue
		}
		if !r.keep(ru, text, text[start:end], m) {
			continue
		}
		spans = append(spans, span{off + start, off + end, ru.id, ru.generic})
	}
	return spans
}

// secretSpan is the part of a match that is the secret: the rule's secret group, else the first
// non-empty group, else the whole match.
func secretSpan(ru *rule, m []int) (int, int) {
	if ru.whole {
		return m[0], m[1]
	}
	if ru.secretGroup > 0 {
		if 2*ru.secretGroup+1 < len(m) {
			return m[2*ru.secretGroup], m[2*ru.secretGroup+1]
		}
		return -1, -1
	}
	for g := 1; 2*g+1 < len(m); g++ {
		if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
			return m[2*g], m[2*g+1]
		}
	}
	return m[0], m[1]
}

// keep applies a rule's entropy threshold, allowlists and checks to a found secret.
func (r *Redactor) keep(ru *rule, s, secret string, m []int) bool {
	if strings.HasPrefix(secret, "[REDACTED:") {
		return false
	}
	if ru.check != nil && !ru.check(secret) {
		return false
	}
	if ru.entropy > 0 && entropy(secret) <= ru.entropy {
		return false
	}
	if len(ru.allow) == 0 && ru.check != nil {
		return true // our own rules do not use gitleaks' allowlists
	}
	match := s[m[0]:m[1]]
	line := lineAround(s, m[0], m[1])
	if ru.check == nil && r.rules.global.allows(secret, match, line) {
		return false
	}
	for i := range ru.allow {
		if ru.allow[i].allows(secret, match, line) {
			return false
		}
	}
	return true
}

// lineAround is the line (or lines) of s holding s[start:end].
func lineAround(s string, start, end int) string {
	if i := strings.LastIndexByte(s[:start], '\n'); i >= 0 {
		start = i + 1
	} else {
		start = 0
	}
	if i := strings.IndexByte(s[end:], '\n'); i >= 0 {
		end += i
	} else {
		end = len(s)
	}
	return s[start:end]
}

// replace writes s with the spans (merged where they overlap) replaced.
func replace(s string, spans []span) string {
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var b strings.Builder
	b.Grow(len(s))
	pos := 0
	for i := 0; i < len(spans); {
		cur := spans[i]
		j := i + 1
		for ; j < len(spans) && spans[j].start < cur.end; j++ {
			if spans[j].end > cur.end {
				cur.end = spans[j].end
			}
			if cur.generic && !spans[j].generic {
				cur.rule, cur.generic = spans[j].rule, false
			}
		}
		if cur.start < pos {
			cur.start = pos
		}
		b.WriteString(s[pos:cur.start])
		b.WriteString("[REDACTED:")
		b.WriteString(cur.rule)
		b.WriteString("]")
		pos = cur.end
		i = j
	}
	b.WriteString(s[pos:])
	return b.String()
}

// Finding returns f with every text field redacted — rule id, gate, rule, target, message,
// help URI, times, the anchoring note, the paths of the location and the related locations, the
// source's file name, the repair, every field of the call (its tool input as JSON) and the
// examples — so that no field reaches an output unredacted. A test fills every string field by reflection and checks that none
// keeps a secret, so a field added later cannot be forgotten here.
func (r *Redactor) Finding(f findings.Finding) findings.Finding {
	if r == nil || r.disabled {
		return f
	}
	s := r.String
	f.RuleID, f.Gate, f.Rule, f.Target = s(f.RuleID), s(f.Gate), s(f.Rule), s(f.Target)
	f.Kind, f.Verdict, f.Level = findings.Kind(s(string(f.Kind))), gates.Verdict(s(string(f.Verdict))), findings.Level(s(string(f.Level)))
	f.Severity = findings.Level(s(string(f.Severity)))
	f.Placed = findings.Placement(s(string(f.Placed)))
	f.Message, f.HelpURI, f.Anchored, f.EventKey = s(f.Message), s(f.HelpURI), s(f.Anchored), s(f.EventKey)
	f.Time, f.FirstTime, f.LastTime = s(f.Time), s(f.FirstTime), s(f.LastTime)
	f.Source.File = s(f.Source.File)
	if f.Location != nil {
		loc := *f.Location
		loc.Path = s(loc.Path)
		f.Location = &loc
	}
	if len(f.Related) > 0 {
		rel := make([]findings.Location, len(f.Related))
		for i, l := range f.Related {
			l.Path = s(l.Path)
			rel[i] = l
		}
		f.Related = rel
	}
	if f.Repair != nil {
		rp := *f.Repair
		rp.Before, rp.After = s(rp.Before), s(rp.After)
		f.Repair = &rp
	}
	if f.Call != nil {
		f.Call = r.Call(*f.Call)
	}
	if len(f.Examples) > 0 {
		ex := make([]findings.Example, len(f.Examples))
		for i, e := range f.Examples {
			e.Source.File, e.Time, e.Message = s(e.Source.File), s(e.Time), s(e.Message)
			ex[i] = e
		}
		f.Examples = ex
	}
	f.Sources = r.Strings(f.Sources) // the input files that reported the event
	f.Aliases = r.Strings(f.Aliases) // other rule ids the event's records gave
	return f
}

// Call returns a copy of c with every field redacted.
func (r *Redactor) Call(c findings.Call) *findings.Call {
	if r == nil || r.disabled {
		return &c
	}
	s := r.String
	c.Runtime, c.Event, c.Tool, c.ToolUseID, c.SessionID = s(c.Runtime), s(c.Event), s(c.Tool), s(c.ToolUseID), s(c.SessionID)
	c.Hook, c.Command, c.FilePath, c.Cwd, c.Key = s(c.Hook), s(c.Command), s(c.FilePath), s(c.Cwd), s(c.Key)
	c.Answer, c.Effect = gates.Answer(s(string(c.Answer))), gates.Effect(s(string(c.Effect)))
	c.Input = r.JSON(c.Input)
	return &c
}

// Problems returns the problems with their messages and file names redacted.
func (r *Redactor) Problems(ps []findings.Problem) []findings.Problem {
	if r == nil || r.disabled || len(ps) == 0 {
		return ps
	}
	out := make([]findings.Problem, len(ps))
	for i, p := range ps {
		p.Source.File, p.Message = r.String(p.Source.File), r.String(p.Message)
		out[i] = p
	}
	return out
}

// Strings returns the texts redacted (names of inputs that are missing or unreadable).
func (r *Redactor) Strings(ss []string) []string {
	if r == nil || r.disabled || len(ss) == 0 {
		return ss
	}
	out := make([]string, len(ss))
	for i, t := range ss {
		out[i] = r.String(t)
	}
	return out
}

// Counts returns counts by reason with the reasons redacted (reasons that came to hold the
// same text are summed).
func (r *Redactor) Counts(m map[string]int) map[string]int {
	if r == nil || r.disabled || len(m) == 0 {
		return m
	}
	out := make(map[string]int, len(m))
	for k, n := range m {
		out[r.String(k)] += n
	}
	return out
}

// Set redacts in place what a findings set holds besides its findings (which are redacted one by
// one with Finding after anchoring): its problems and its skip reasons.
func (r *Redactor) Set(s *findings.Set) {
	if r == nil || r.disabled || s == nil {
		return
	}
	s.Problems = r.Problems(s.Problems)
	s.Skips = r.Counts(s.Skips)
}

// JSON redacts a JSON document value by value (every string and key), so that it stays valid
// JSON; text that is not JSON is redacted as a string.
func (r *Redactor) JSON(b []byte) []byte {
	if r == nil || r.disabled || len(b) == 0 {
		return b
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil || dec.More() {
		return []byte(r.String(string(b)))
	}
	// Values whose name says they are secret are hidden as a whole, as a bare "name: value"
	// would be in text.
	v = r.value(v, "")
	out, err := json.Marshal(v)
	if err != nil {
		return []byte(r.String(string(b)))
	}
	return out
}

// value redacts one decoded JSON value; key is the name it is stored under.
func (r *Redactor) value(v any, key string) any {
	switch t := v.(type) {
	case string:
		if key != "" && t != "" && !strings.ContainsAny(t, "\"\n") {
			// Seen as "key": "value" in text, the name may say the value is secret.
			probe := key + `="` + t + `"`
			if red := r.String(probe); red != probe && strings.HasPrefix(red, key+`="`) && strings.HasSuffix(red, `"`) {
				return red[len(key)+2 : len(red)-1]
			}
		}
		return r.String(t)
	case []any:
		for i := range t {
			t[i] = r.value(t[i], "")
		}
		return t
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[r.String(k)] = r.value(e, k)
		}
		return out
	}
	return v
}
