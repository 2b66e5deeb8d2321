package redact

import (
	_ "embed"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// gitleaksTOML is the default rule set of gitleaks v8.30.1 (config/gitleaks.toml, MIT licence:
// see LICENSE.gitleaks beside it), used as data by our own matcher.
//
//go:embed gitleaks.toml
var gitleaksTOML string

// ownTOML is our own rules in gitleaks' format, for shapes gitleaks' set misses.
//
//go:embed rules.toml
var ownTOML string

// contextsTOML is the table of secret-bearing contexts: flags and positions of common tools,
// HTTP headers, credential-file grammars and assignment forms, each with the value it redacts.
//
//go:embed contexts.toml
var contextsTOML string

// valuePattern is what {value} stands for in a context's regex: the value that follows the
// context, single-, double- or escaped-double-quoted, or bare up to a delimiter; each form is a
// group of its own. A bare value must end at a delimiter: one followed by "(", "{" or "[" is a
// call or an expression, not a value.
const valuePattern = `(?:'([^'\n]{1,200})'|"([^"\n]{1,200})"|\\"([^"\\\n]{1,200})\\"|([^\s'"\x60;|&<>(){}\[\],\\]{1,200})(?:[\s"'\x60,;|&<>)}\]\\]|$))`

// rule is one detection rule: a regexp whose secret group is replaced.
type rule struct {
	id          string
	src         string                // the regular expression ("" for a rule with scan)
	re          func() *regexp.Regexp // src compiled on first use
	keywords    []string              // lower case; the rule runs only when one is in the text (none: always)
	secretGroup int                   // 0: the first non-empty group, or the whole match when there is none
	whole       bool                  // replace the whole match, whatever its groups
	entropy     float64               // the secret must have more Shannon entropy than this (0: no check)
	allow       []allowlist
	check       func(secret string) bool // our own rules: a last test of the secret
	generic     bool                     // found by a name or shape, not by a platform's format
	multiLine   bool                     // can match across lines: run on the whole text
	kw          []int                    // indices of keywords in the rule set's keyword index
	// window says the regexp starts with gitleaks' name prefix [\w.-]{0,50}? before a keyword:
	// it is run only on the stretches of text around its keywords, which is much faster.
	window bool
	// gate says the keyword must be followed by gitleaks' operator pattern (gateMark) for a
	// window to be worth searching.
	gate bool
	// follows, when set, must hold at the end of a keyword for a window to be worth searching
	// (as gate does with gitleaks' operator pattern).
	follows func(s string, j int) bool
	// scan, when set, replaces re: it returns the secrets' spans in a text and its lower case.
	scan func(s, lower string) [][2]int
	// windowSet says window was set by the rule's data (contexts.toml), not guessed from its
	// regex: the rule then runs line by line on the windows, whatever line breaks its regex names.
	windowSet bool
}

// namePrefix is how gitleaks' rules for names of secrets begin (after an optional "(?i)").
const namePrefix = `[\w.-]{0,50}?`

// Windows around a keyword: bytes of text before it and after it that a windowed rule's match
// can reach (a 50-byte name before, a value of up to 300 bytes and its delimiters after).
const (
	windowBefore = 120
	windowAfter  = 420
)

// gateMark is the part of gitleaks' name rules between the keyword and the value: up to 20
// name characters, up to 3 quotes or spaces, and an assignment operator.
const gateMark = `(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`

// multiLineMarks are pieces of a regular expression that let it match across lines.
var multiLineMarks = []string{`[\s\S`, `(?s`, `\n`, `\r`}

// allowlist is a gitleaks allowlist, as far as it can be applied to text without a file path.
type allowlist struct {
	and       bool
	target    string // "secret" (default), "match" or "line"
	regexes   []*regexp.Regexp
	stopwords []string
	unusable  bool // an AND list that needs a path or commit: never applies
}

// tomlConfig is the part of a gitleaks configuration that the matcher uses.
type tomlConfig struct {
	Allowlist tomlAllow `toml:"allowlist"`
	Rules     []struct {
		ID          string      `toml:"id"`
		Regex       string      `toml:"regex"`
		Path        string      `toml:"path"`
		SecretGroup int         `toml:"secretGroup"`
		Entropy     float64     `toml:"entropy"`
		Keywords    []string    `toml:"keywords"`
		Allowlists  []tomlAllow `toml:"allowlists"`
		Multiline   bool        `toml:"multiline"` // ours: run on the whole text, not line by line
		Whole       bool        `toml:"whole"`     // ours: replace the whole match
		Window      bool        `toml:"window"`    // ours: run only around the keywords
		Check       string      `toml:"check"`     // ours: a named last test of the value (checks)
	} `toml:"rules"`
}

type tomlAllow struct {
	Condition   string   `toml:"condition"`
	RegexTarget string   `toml:"regexTarget"`
	Regexes     []string `toml:"regexes"`
	StopWords   []string `toml:"stopwords"`
	Paths       []string `toml:"paths"`
	Commits     []string `toml:"commits"`
}

// ruleSet is the compiled rules: gitleaks' first (they are specific), then our own.
type ruleSet struct {
	rules  []*rule
	global allowlist
	kw     *keywordIndex
	always bool // a rule without keywords exists: no text can be skipped
}

// index builds the keyword index of the rules and marks the rules that span lines.
func (rs *ruleSet) index() *ruleSet {
	pos := map[string]int{}
	var words []string
	for _, r := range rs.rules {
		if r.src != "" && !r.windowSet {
			src := r.src
			for _, m := range multiLineMarks {
				r.multiLine = r.multiLine || strings.Contains(src, m)
			}
			r.window = r.window || strings.HasPrefix(strings.TrimPrefix(src, "(?i)"), namePrefix)
			r.window = r.window && len(r.keywords) > 0 && !r.multiLine
			r.gate = r.window && strings.Contains(src, gateMark)
		}
		if len(r.keywords) == 0 {
			rs.always = true
		}
		for _, k := range r.keywords {
			i, ok := pos[k]
			if !ok {
				i = len(words)
				pos[k] = i
				words = append(words, k)
			}
			r.kw = append(r.kw, i)
		}
	}
	rs.kw = newKeywordIndex(words)
	return rs
}

// defaultRules compiles the rule set once; it is never changed afterwards.
var defaultRules = sync.OnceValues(func() (*ruleSet, error) { return compile(gitleaksTOML) })

// compile reads a gitleaks configuration and appends our own rules: those in rules.toml, then
// those written in Go.
func compile(text string) (*ruleSet, error) {
	rs := &ruleSet{}
	global, rules, err := readTOML(text, "gitleaks")
	if err != nil {
		return nil, err
	}
	rs.global = global
	_, data, err := readTOML(ownTOML, "rules.toml")
	if err != nil {
		return nil, err
	}
	_, contexts, err := readTOML(contextsTOML, "contexts.toml")
	if err != nil {
		return nil, err
	}
	own, err := ownRules()
	if err != nil {
		return nil, err
	}
	rs.rules = append(append(append(rules, data...), contexts...), own...)
	return rs.index(), nil
}

// readTOML reads the rules of a configuration in gitleaks' format, and its global allowlist.
func readTOML(text, name string) (allowlist, []*rule, error) {
	var cfg tomlConfig
	if _, err := toml.Decode(text, &cfg); err != nil {
		return allowlist{}, nil, fmt.Errorf("%s rules: %w", name, err)
	}
	g, err := compileAllow(cfg.Allowlist)
	if err != nil {
		return allowlist{}, nil, fmt.Errorf("%s global allowlist: %w", name, err)
	}
	var out []*rule
	for _, r := range cfg.Rules {
		if r.Regex == "" {
			continue // a rule on file paths only
		}
		src := strings.ReplaceAll(r.Regex, "{value}", valuePattern)
		// Most rules never run (their keywords are not in the text): compile each on first use.
		cr := &rule{id: r.ID, src: src, re: lazyRegexp(src), secretGroup: r.SecretGroup, entropy: r.Entropy,
			generic:   strings.HasPrefix(r.ID, "generic") || strings.HasPrefix(r.ID, "curl-") || name == "contexts.toml",
			multiLine: r.Multiline, whole: r.Whole, window: r.Window, windowSet: r.Window}
		if r.Check != "" {
			c, ok := checks[r.Check]
			if !ok {
				return g, nil, fmt.Errorf("%s rule %s: no check %q", name, r.ID, r.Check)
			}
			cr.check = c
		}
		for _, k := range r.Keywords {
			cr.keywords = append(cr.keywords, strings.ToLower(k))
		}
		for _, a := range r.Allowlists {
			ca, err := compileAllow(a)
			if err != nil {
				return g, nil, fmt.Errorf("%s rule %s allowlist: %w", name, r.ID, err)
			}
			cr.allow = append(cr.allow, ca)
		}
		out = append(out, cr)
	}
	return g, out, nil
}

// neverMatches is what a rule whose regular expression does not compile uses instead (the
// embedded rules are tested to compile).
const neverMatches = `[^\x00-\x{10FFFF}]`

// lazyRegexp compiles src on the first call, once, safely for concurrent callers.
func lazyRegexp(src string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp {
		re, err := regexp.Compile(src)
		if err != nil {
			return regexp.MustCompile(neverMatches)
		}
		return re
	})
}

func compileAllow(a tomlAllow) (allowlist, error) {
	out := allowlist{and: strings.EqualFold(a.Condition, "AND"), target: a.RegexTarget}
	for _, s := range a.Regexes {
		re, err := regexp.Compile(s)
		if err != nil {
			return out, err
		}
		out.regexes = append(out.regexes, re)
	}
	for _, w := range a.StopWords {
		out.stopwords = append(out.stopwords, strings.ToLower(w))
	}
	out.unusable = out.and && (len(a.Paths) > 0 || len(a.Commits) > 0)
	return out, nil
}

// allows reports whether the allowlist lets a found secret stand.
func (a *allowlist) allows(secret, match, line string) bool {
	if a.unusable || len(a.regexes) == 0 && len(a.stopwords) == 0 {
		return false
	}
	target := secret
	switch a.target {
	case "match":
		target = match
	case "line":
		target = line
	}
	reOK := false
	for _, re := range a.regexes {
		if re.MatchString(target) {
			reOK = true
			break
		}
	}
	stopOK := false
	if len(a.stopwords) > 0 {
		ls := strings.ToLower(secret)
		for _, w := range a.stopwords {
			if strings.Contains(ls, w) {
				stopOK = true
				break
			}
		}
	}
	if a.and {
		return (len(a.regexes) == 0 || reOK) && (len(a.stopwords) == 0 || stopOK)
	}
	return reOK || stopOK
}

// entropy is the Shannon entropy of s in bits per character, as gitleaks computes it.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	for _, c := range s {
		counts[c]++
	}
	e, inv := 0.0, 1/float64(len(s))
	for _, n := range counts {
		f := float64(n) * inv
		e -= f * math.Log2(f)
	}
	return e
}

// entropyCounts is the Shannon entropy of a text of n bytes whose byte counts are given.
func entropyCounts(counts *[256]int, n int) float64 {
	e, inv := 0.0, 1/float64(n)
	for _, c := range counts {
		if c > 0 {
			f := float64(c) * inv
			e -= f * math.Log2(f)
		}
	}
	return e
}
