package gates

import (
	"github.com/agc-sarif/agc-sarif/internal/plural"

	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// MaxDepth is the deepest nesting of arrays and objects Decode accepts; deeper input is reported
// as invalid JSON before anything decodes it.
const MaxDepth = 10000

// maxSchemaBreaches caps the schema breaches reported for one response; the rest are counted.
const maxSchemaBreaches = 50

// Decode reads one AGC response from JSON and checks it against AGC 0.1 with the embedded schema.
// It returns nil and the breaches when the response cannot be read (invalid JSON, schema errors,
// unsupported major version), and the response with warnings otherwise (another 0.x version, a
// verdict lighter than its findings). Breach lines are 1-based lines within data.
//
// A response that is plainly valid is read in one pass without the schema validator; anything
// else goes through the validator, compiled the first time it is needed, for its exact breaches.
func Decode(data []byte) (*Response, []Breach) {
	if r, ok := fastDecode(data); ok {
		return r, warnings(data, r)
	}
	return decodeSlow(data, defaultValidator)
}

// Decode is the package-level Decode with this validator's schema.
func (v *Validator) Decode(data []byte) (*Response, []Breach) {
	if r, ok := fastDecode(data); ok {
		return r, warnings(data, r)
	}
	return v.decodeSlow(data)
}

// decodeSlow is Decode through the schema validator alone: the reference the fast path is
// tested against, and the path that names the breaches of a response that is not valid.
func (v *Validator) decodeSlow(data []byte) (*Response, []Breach) {
	return decodeSlow(data, func() *Validator { return v })
}

// decodeSlow decodes data with the validator that schema returns, asked for only once data is
// known to be JSON whose version this tool reads: invalid JSON needs no schema.
func decodeSlow(data []byte, schema func() *Validator) (*Response, []Breach) {
	doc, b := parseJSON(data)
	if b != nil {
		return nil, []Breach{*b}
	}
	obj, _ := doc.(map[string]any)
	if s, ok := obj["agc"].(string); ok {
		if major := leadingDigits(s); major != "" && strings.TrimLeft(major, "0") != "" {
			return nil, []Breach{{Check: CheckUnsupportedVersion, Pointer: "/agc", Line: lineOf(data, []string{"agc"}),
				Message: fmt.Sprintf("the response is AGC %s; agc-sarif reads AGC 0.x only, so its verdict is not read", quote(s))}}
		}
	}
	tameNumbers(doc)
	if err := schema().schema.Validate(doc); err != nil {
		// Each check stands on its own: a schema error does not hide a verdict lighter than
		// the findings, which is read from whatever of the response can be read.
		return nil, sortBreaches(append(schemaBreaches(data, err), lenientWarnings(data, obj)...))
	}
	r, err := build(data)
	if err != nil { // the schema admits only what build reads; this is a defect, reported as such
		return nil, []Breach{{Check: CheckSchema, Line: 1, Message: fmt.Sprintf("the response passed the schema but could not be read: %v", err)}}
	}
	return r, warnings(data, r)
}

// warnings are the breaches of a response that is read all the same: another 0.x version, a
// verdict lighter than its heaviest finding.
func warnings(data []byte, r *Response) []Breach {
	var out []Breach
	if r.AGC != "0.1" {
		out = append(out, Breach{Check: CheckNewerMinorVersion, Pointer: "/agc", Line: lineOf(data, []string{"agc"}),
			Message: fmt.Sprintf("the response is AGC %s; it was read as AGC 0.1 and fields that %s adds are ignored", quote(r.AGC), r.AGC)})
	}
	if h := r.Heaviest(); h.Heavier(r.Verdict) {
		out = append(out, Breach{Check: CheckVerdictTooLight, Pointer: "/verdict", Line: lineOf(data, []string{"verdict"}),
			Message: fmt.Sprintf("the response's verdict is %s but a finding's verdict is %s; the response must be at least as heavy as its heaviest finding", r.Verdict, h)})
	}
	return out
}

// lenientWarnings are the breaches warnings finds, read from a response that broke the schema:
// the parts of it that hold what a check needs are read when they can be, the rest passed over.
func lenientWarnings(data []byte, obj map[string]any) []Breach {
	r := &Response{}
	if s, ok := obj["agc"].(string); ok && strings.HasPrefix(s, "0.") {
		r.AGC = s
	} else {
		r.AGC = "0.1" // a version the schema refused is one of its breaches already
	}
	v, ok := obj["verdict"].(string)
	if !ok || !Verdict(v).Valid() {
		return nil
	}
	r.Verdict = Verdict(v)
	fs, _ := obj["findings"].([]any)
	for _, f := range fs {
		m, _ := f.(map[string]any)
		s, _ := m["verdict"].(string)
		if fv := Verdict(s); fv.Valid() {
			r.Findings = append(r.Findings, Finding{Verdict: fv})
		}
	}
	return warnings(data, r)
}

// sortBreaches orders breaches by their line in the response, keeping the order of those on one line.
func sortBreaches(bs []Breach) []Breach {
	slices.SortStableFunc(bs, func(a, b Breach) int { return cmp.Compare(a.Line, b.Line) })
	return bs
}

// parseJSON decodes data as one JSON value (numbers kept exact), or returns an invalid-json breach
// naming the line and what is wrong.
func parseJSON(data []byte) (any, *Breach) {
	bad := func(off int, format string, args ...any) *Breach {
		return &Breach{Check: CheckInvalidJSON, Line: lineAt(data, off), Message: fmt.Sprintf(format, args...)}
	}
	start := jsonscan.SkipSpace(data, 0)
	if start == len(data) {
		return nil, bad(0, "the response is empty: no JSON value")
	}
	if off, ok := depthWithin(data, MaxDepth); !ok {
		return nil, bad(off, "the JSON nests arrays and objects deeper than %d levels", MaxDepth)
	}
	if off := jsonscan.InvalidUTF8(data); off < len(data) {
		return nil, bad(off, "the JSON is not valid UTF-8 (byte %d)", off+1)
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var doc any
	if err := d.Decode(&doc); err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			off := int(se.Offset) - 1
			return nil, bad(off, "invalid JSON at column %d: %s", columnAt(data, off), se.Error())
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, bad(len(data), "invalid JSON: the value is cut short (it never closes)")
		default:
			return nil, bad(start, "invalid JSON: %v", err)
		}
	}
	if rest := jsonscan.SkipSpace(data, int(d.InputOffset())); rest < len(data) {
		return nil, bad(rest, "invalid JSON: more text after the JSON value, at column %d", columnAt(data, rest))
	}
	return doc, nil
}

// tameNumbers replaces number literals that would cost the schema validator time (it compares
// numbers as exact rationals: 1e999999 is a million digits) with ones of the same sign and
// magnitude class, which pass or fail the schema's bounds the same way. It walks without recursion.
func tameNumbers(doc any) {
	stack := []any{doc}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if n, ok := e.(json.Number); ok {
					v[k] = tameNumber(n)
				} else {
					stack = append(stack, e)
				}
			}
		case []any:
			for i, e := range v {
				if n, ok := e.(json.Number); ok {
					v[i] = tameNumber(n)
				} else {
					stack = append(stack, e)
				}
			}
		}
	}
}

// tameNumber returns n, or for a literal longer than 32 bytes or with an exponent beyond ±400, a
// short number of the same sign on the same side of the schema's bounds (0, 1, 2^31-1).
func tameNumber(n json.Number) json.Number {
	s := string(n)
	_, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	if len(s) <= 32 && (!hasExp || len(strings.TrimLeft(exp, "+-0")) < 3) {
		return n
	}
	f, _ := strconv.ParseFloat(s, 64) // ±Inf on overflow, 0 on underflow
	switch {
	case f > 1<<40:
		return "1e20"
	case f < -(1 << 40):
		return "-1e20"
	case f == 0 && strings.Trim(s, "-+0.eE") != "":
		if strings.HasPrefix(s, "-") {
			return "-0.5"
		}
		return "0.5"
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
}

// depthWithin reports whether arrays and objects in data nest at most max deep, and if not, the
// offset where they go deeper.
func depthWithin(data []byte, max int) (int, bool) {
	var n jsonscan.Nesting
	for i := 0; i < len(data); {
		k := n.Bracket(data[i:])
		if k < 0 {
			break
		}
		if i += k; n.Depth > max {
			return i - 1, false
		}
	}
	return 0, true
}

// columnAt returns the 1-based column (in bytes) of offset off in data.
func columnAt(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	if off < 0 {
		off = 0
	}
	return off - (bytes.LastIndexByte(data[:off], '\n') + 1) + 1
}

func leadingDigits(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// wireResponse mirrors Response with numbers kept as written, so that a line such as 3.0, which
// the schema accepts as an integer, still decodes.
type wireResponse struct {
	Response
	Findings []wireFinding `json:"findings"`
}

type wireFinding struct {
	Finding
	Location *wireLocation `json:"location,omitempty"`
}

type wireLocation struct {
	Path      string      `json:"path"`
	Line      json.Number `json:"line"`
	EndLine   json.Number `json:"end_line"`
	Column    json.Number `json:"column"`
	EndColumn json.Number `json:"end_column"`
}

// build decodes a response that the schema accepted.
func build(data []byte) (*Response, error) {
	var w wireResponse
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, err
	}
	r := w.Response
	r.Findings = make([]Finding, len(w.Findings))
	for i, wf := range w.Findings {
		f := wf.Finding
		if l := wf.Location; l != nil {
			f.Location = &Location{Path: l.Path, Line: toInt(l.Line), EndLine: toInt(l.EndLine),
				Column: toInt(l.Column), EndColumn: toInt(l.EndColumn)}
		}
		r.Findings[i] = f
	}
	return &r, nil
}

// toInt reads a number the schema bounded to 1..2^31-1; 0 when absent.
func toInt(n json.Number) int {
	if n == "" {
		return 0
	}
	if i, err := strconv.ParseInt(string(n), 10, 32); err == nil {
		return int(i)
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || f < 0 || f > 1<<31-1 {
		return 0
	}
	return int(f)
}

// printer words the schema errors that have no message of ours; made on first use.
var printer = sync.OnceValue(func() *message.Printer { return message.NewPrinter(language.English) })

// schemaBreaches turns a schema validation error into one breach per problem, with its pointer
// and line. The validator checks an object's members in Go map order, so the order of its causes
// is random: breaches are ordered by where their value stands in data, then by a key that owes
// nothing to that order (see compareCauses), and only then deduplicated and cut, so that the same
// response always gives the same list.
func schemaBreaches(data []byte, err error) []Breach {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Breach{{Check: CheckSchema, Line: 1, Message: err.Error()}}
	}
	cs := leafCauses(ve)
	at := make([][]string, len(cs))
	for i := range cs {
		at[i] = cs[i].e.InstanceLocation
	}
	offs := valueOffsets(data, at)
	for i := range cs {
		cs[i].off = offs[i]
		cs[i].text = causeText(&cs[i], data)
	}
	slices.SortFunc(cs, compareCauses)
	return listBreaches(data, cs)
}

// cause is one problem the validator found, with what orders it.
type cause struct {
	e       *validationError
	missing string // the member a required error misses, else ""
	rank    int    // the member's place in the schema's required array
	keyword string // schema location of the failing keyword
	off     int    // byte offset in the response of the value e is about
	ptr     string // pointer of the breach
	text    string // message of the breach
}

// leafCauses returns the innermost errors of ve (as deep as 64 levels), a required error as one
// cause per missing member, in the validator's (random) order.
func leafCauses(ve *validationError) []cause {
	var out []cause
	var walk func(e *validationError, depth int)
	walk = func(e *validationError, depth int) {
		if len(e.Causes) > 0 && depth < 64 {
			for _, c := range e.Causes {
				walk(c, depth+1)
			}
			return
		}
		kw := e.SchemaURL + "/" + strings.Join(e.ErrorKind.KeywordPath(), "/")
		if k, ok := e.ErrorKind.(*kind.Required); ok {
			for i, m := range k.Missing {
				out = append(out, cause{e: e, missing: m, rank: i, keyword: kw})
			}
			return
		}
		out = append(out, cause{e: e, keyword: kw})
	}
	walk(ve, 0)
	return out
}

// causeText sets the breach pointer of c and returns its message.
func causeText(c *cause, data []byte) string {
	loc := c.e.InstanceLocation
	if _, ok := c.e.ErrorKind.(*kind.Required); ok {
		c.ptr = pointerString(append(append([]string(nil), loc...), c.missing))
		return fmt.Sprintf("required field %q is missing", c.missing)
	}
	c.ptr = pointerString(loc)
	return describe(c.e, data, c.off)
}

// compareCauses orders causes by the offset of their value, then by the value's pointer (two
// pointers meet at one offset only when one names no value), the keyword's schema location, the
// place of a missing member in the schema's required array (a finding missing rule and message
// lists rule first), and last the message.
func compareCauses(a, b cause) int {
	return cmp.Or(
		cmp.Compare(a.off, b.off),
		slices.Compare(a.e.InstanceLocation, b.e.InstanceLocation),
		cmp.Compare(a.keyword, b.keyword),
		cmp.Compare(a.rank, b.rank),
		cmp.Compare(a.ptr, b.ptr),
		cmp.Compare(a.text, b.text),
	)
}

// listBreaches turns sorted causes into breaches: one per pointer and message, at most
// maxSchemaBreaches, then one that counts the rest.
func listBreaches(data []byte, cs []cause) []Breach {
	var out []Breach
	var offs []int
	seen := map[string]bool{}
	more := 0
	for _, c := range cs {
		if seen[c.ptr+"\x00"+c.text] {
			continue
		}
		seen[c.ptr+"\x00"+c.text] = true
		if len(out) >= maxSchemaBreaches {
			more++
			if more == 1 {
				offs = append(offs, c.off)
			}
			continue
		}
		text := c.ptr + ": " + c.text
		if c.ptr == "" {
			text = "the response " + c.text
		}
		out = append(out, Breach{Check: CheckSchema, Pointer: c.ptr, Message: text})
		offs = append(offs, c.off)
	}
	if more > 0 {
		out = append(out, Breach{Check: CheckSchema,
			Message: fmt.Sprintf("%s in this response %s not listed", plural.N(more, "more schema error", "more schema errors"), isAre(more))})
	}
	for i, l := range linesAt(data, offs) {
		out[i].Line = l
	}
	return out
}

// isAre is the verb after a count of n.
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// validationError is the schema library's error type.
type validationError = jsonschema.ValidationError

// describe says in words what is wrong with the value at e's location.
// off is the offset of that value in data.
func describe(e *validationError, data []byte, off int) string {
	loc := e.InstanceLocation
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		return fmt.Sprintf("is %s, want %s", article(k.Got), joinOr(k.Want, article))
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = fmt.Sprint(w)
		}
		return fmt.Sprintf("%s is not one of %s", quoteAny(k.Got), strings.Join(want, ", "))
	case *kind.Pattern:
		hint := ""
		if k.Want == "^[a-z0-9][a-z0-9._-]*$" {
			hint = " (lower-case letters, digits, '.', '_' and '-', starting with a letter or digit)"
		} else if strings.HasPrefix(k.Want, "^0") {
			hint = " (an AGC version such as \"0.1\")"
		} else if strings.Contains(k.Want, "[^\\s./]") {
			hint = " (Tool.field, e.g. Bash.command)"
		} else if strings.Contains(k.Want, "[0-9]{4}") {
			hint = " (an RFC 3339 time such as 2026-11-30T09:40:00Z)"
		}
		return fmt.Sprintf("%s does not match %s%s", quote(k.Got), k.Want, hint)
	case *kind.MinItems:
		if len(loc) == 1 && loc[0] == "findings" {
			return "is empty, but a verdict other than pass needs at least one finding"
		}
		return fmt.Sprintf("has %d items, want at least %d", k.Got, k.Want)
	case *kind.MinLength:
		return "is empty"
	case *kind.Minimum:
		return fmt.Sprintf("is %s, want at least %s", numberAt(data, off), k.Want.RatString())
	case *kind.Maximum:
		return fmt.Sprintf("is %s, want at most %s", numberAt(data, off), k.Want.RatString())
	}
	return e.ErrorKind.LocalizedString(printer())
}

// numberAt returns the literal of the number at offset off in data, shortened for a message.
func numberAt(data []byte, off int) string {
	end := jsonscan.ValueEnd(data, off)
	if end <= off {
		return "out of range"
	}
	return whole(string(data[off:end]), 24, "number")
}

func article(t string) string {
	switch t {
	case "object", "array", "integer":
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}

func joinOr(ws []string, f func(string) string) string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = f(w)
	}
	return strings.Join(out, " or ")
}

// quote renders an agent-written string for a message: quoted and escaped when short, else
// named by its length. It never cuts the value: a cut would keep part of a secret that the
// redaction of the message, which comes later, could no longer recognise.
func quote(s string) string {
	if utf8.RuneCountInString(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	return whole(s, maxQuoted, "value")
}

// maxQuoted is the longest agent-written value a message quotes.
const maxQuoted = 60

func quoteAny(v any) string {
	if s, ok := v.(string); ok {
		return quote(s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "a value"
	}
	return whole(string(b), maxQuoted, "value")
}

// whole returns s when it has at most n runes, else "a <length>-character <noun>": all of the
// value or none of it.
func whole(s string, n int, noun string) string {
	if c := utf8.RuneCountInString(s); c > n {
		return fmt.Sprintf("a %d-character %s", c, noun)
	}
	return s
}
