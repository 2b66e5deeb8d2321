package gates

import (
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// This file reads an AGC response straight into a Response in one pass over its bytes, checking
// as it goes everything the AGC 0.1 schema checks. It is the fast path of Decode: it only ever
// says "this is a valid response, here it is" or "not sure". At anything it does not handle (any
// schema breach, any JSON error, a duplicate member, a member name with escapes or that
// encoding/json would match to a field ignoring case, a number other than a plain integer, deep
// nesting) it gives up, and Decode runs the JSON Schema validator, which names the exact breaches.
// FuzzFastDecode checks that it never accepts what the schema rejects, and that what it accepts
// decodes to the same Response.

// fastMaxDepth is how deep unknown values may nest before the fast path gives up.
const fastMaxDepth = 64

// fastReader is the state of one fast read: a validating JSON reader, which gives up for good at
// anything it does not accept, with the response's member tables on top.
type fastReader struct {
	jsonscan.Reader
}

// Member names of the objects of a response, as the schema and encoding/json name them.
var (
	responseNames = []string{"agc", "gate", "verdict", "findings", "subject", "at"}
	gateNames     = []string{"id", "kind", "version", "uri"}
	findingNames  = []string{"rule", "message", "verdict", "target", "severity", "location", "repair", "help_uri"}
	locationNames = []string{"path", "line", "end_line", "column", "end_column"}
	repairNames   = []string{"before", "after"}
	subjectNames  = []string{"runtime", "event", "tool", "tool_use_id", "session_id"}
)

// fastDecode returns the response in data when data is plainly a valid AGC 0.x response, and
// false when it cannot tell.
func fastDecode(data []byte) (*Response, bool) {
	r, end, ok := fastDecodePrefix(data)
	if !ok || jsonscan.SkipSpace(data, end) != len(data) {
		return nil, false
	}
	return r, true
}

// fastDecodePrefix reads the response that data starts with (after blanks) when it is plainly a
// valid AGC 0.x response, and returns the offset just after it; what follows is not read.
func fastDecodePrefix(data []byte) (*Response, int, bool) {
	d := &fastReader{jsonscan.NewReader(data)}
	d.Space()
	start := d.Offset()
	r := &Response{}
	seen := d.object(responseNames, func(k int) { d.responseMember(r, k) })
	// The bytes outside strings were all ASCII JSON, so this covers every byte the value has.
	if !d.OK() || seen&0b1111 != 0b1111 || !utf8.Valid(data[start:d.Offset()]) {
		return nil, 0, false
	}
	if r.Verdict != Pass && len(r.Findings) == 0 { // the schema's if/then
		return nil, 0, false
	}
	return r, d.Offset(), true
}

// responseMember reads the value of the response's member responseNames[k].
func (d *fastReader) responseMember(r *Response, k int) {
	switch k {
	case 0:
		if v := d.Str(); string(v) == "0.1" {
			r.AGC = "0.1" // one copy for every response
		} else {
			r.AGC = string(v)
			d.Check(isAGCVersion(r.AGC))
		}
	case 1:
		seen := d.object(gateNames, func(k int) { d.gateMember(&r.Gate, k) })
		d.Check(seen&0b11 == 0b11)
	case 2:
		r.Verdict = d.verdict()
	case 3:
		r.Findings = d.findings()
	case 4:
		r.Subject = &Subject{}
		d.object(subjectNames, func(k int) { d.subjectMember(r.Subject, k) })
	case 5:
		r.At = d.str()
		d.Check(isRFC3339(r.At))
	}
}

// gateMember reads the value of the gate's member gateNames[k].
func (d *fastReader) gateMember(g *Gate, k int) {
	switch k {
	case 0:
		g.ID = d.str()
		d.Check(isID(g.ID))
	case 1:
		switch string(d.Str()) {
		case string(Runtime):
			g.Kind = Runtime
		case string(Judgment):
			g.Kind = Judgment
		default:
			d.Fail()
		}
	case 2:
		g.Version = d.str()
	case 3:
		g.URI = d.str()
	}
}

// subjectMember reads the value of the subject's member subjectNames[k].
func (d *fastReader) subjectMember(s *Subject, k int) {
	v := d.str()
	switch k {
	case 0:
		s.Runtime = v
	case 1:
		s.Event = v
	case 2:
		s.Tool = v
	case 3:
		s.ToolUseID = v
	case 4:
		s.SessionID = v
	}
}

// findings reads the array of findings.
func (d *fastReader) findings() []Finding {
	if !d.Take('[') {
		return nil
	}
	out := []Finding{}
	d.Space()
	if d.OK() && d.Peek() == ']' {
		d.Take(']')
		return out
	}
	for d.OK() {
		var f Finding
		seen := d.object(findingNames, func(k int) { d.findingMember(&f, k) })
		d.Check(seen&0b11 == 0b11)
		out = append(out, f)
		d.Space()
		if !d.OK() || d.Sep(']') {
			break
		}
	}
	return out
}

// findingMember reads the value of the finding's member findingNames[k].
func (d *fastReader) findingMember(f *Finding, k int) {
	switch k {
	case 0:
		f.Rule = d.str()
		d.Check(isID(f.Rule))
	case 1:
		f.Message = d.str()
		d.Check(f.Message != "")
	case 2:
		f.Verdict = d.verdict()
	case 3:
		f.Target = d.str()
		d.Check(isTarget(f.Target))
	case 4:
		switch string(d.Str()) {
		case "error":
			f.Severity = "error"
		case "warning":
			f.Severity = "warning"
		case "note":
			f.Severity = "note"
		default:
			d.Fail()
		}
	case 5:
		f.Location = &Location{}
		seen := d.object(locationNames, func(k int) { d.locationMember(f.Location, k) })
		d.Check(seen&1 == 1)
	case 6:
		f.Repair = &Repair{}
		seen := d.object(repairNames, func(k int) {
			if k == 0 {
				f.Repair.Before = d.str()
			} else {
				f.Repair.After = d.str()
			}
		})
		d.Check(seen&0b10 == 0b10)
	case 7:
		f.HelpURI = d.str()
	}
}

// locationMember reads the value of the location's member locationNames[k].
func (d *fastReader) locationMember(l *Location, k int) {
	if k == 0 {
		l.Path = d.str()
		d.Check(l.Path != "")
		return
	}
	n := d.line()
	switch k {
	case 1:
		l.Line = n
	case 2:
		l.EndLine = n
	case 3:
		l.Column = n
	case 4:
		l.EndColumn = n
	}
}

// verdict reads a verdict word.
func (d *fastReader) verdict() Verdict {
	switch string(d.Str()) {
	case string(Pass):
		return Pass
	case string(Steer):
		return Steer
	case string(Repaired):
		return Repaired
	case string(Block):
		return Block
	}
	d.Fail()
	return ""
}

// line reads a line or column: a plain integer literal from 1 to 2^31-1. Anything else (1.0,
// 1e0, out of range) is left to the validator.
func (d *fastReader) line() int { return d.Count(1<<31 - 1) }

// object reads an object whose known member names are names: for each known member it calls
// member with the name's index, the reader standing at the value; it skips the values of the
// others. It returns the set of known members seen, one bit each. It gives up on a duplicate
// known member, on a name with escapes or non-ASCII bytes, and on an unknown name that
// encoding/json would take for a known one (it matches names ignoring case).
func (d *fastReader) object(names []string, member func(k int)) (seen uint32) {
	if !d.Take('{') {
		return 0
	}
	d.Space()
	if d.OK() && d.Peek() == '}' {
		d.Take('}')
		return 0
	}
	for d.OK() {
		key := d.PlainString()
		d.Space()
		d.Take(':')
		d.Space()
		if !d.OK() {
			return seen
		}
		switch k := nameIndex(names, key); {
		case k >= 0 && seen&(1<<k) == 0:
			seen |= 1 << k
			member(k)
		case k >= 0 || foldsToName(names, key):
			d.Fail()
		default:
			d.Skip(fastMaxDepth)
		}
		d.Space()
		if !d.OK() || d.Sep('}') {
			break
		}
	}
	return seen
}

// nameIndex is the index of key in names, or -1.
func nameIndex(names []string, key []byte) int {
	for k, n := range names {
		if n == string(key) {
			return k
		}
	}
	return -1
}

// foldsToName reports whether key equals one of names ignoring ASCII case (key is ASCII).
func foldsToName(names []string, key []byte) bool {
	for _, n := range names {
		if len(n) == len(key) && asciiEqualFold(n, key) {
			return true
		}
	}
	return false
}

// asciiEqualFold reports whether n and key, of the same length, differ only in ASCII case.
func asciiEqualFold(n string, key []byte) bool {
	for i := range len(n) {
		a, b := n[i], key[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}

// str reads a string value, decoding its escapes.
func (d *fastReader) str() string { return string(d.Str()) }
