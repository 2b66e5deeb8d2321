package inputs

import (
	"bytes"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// A hook-log record's `input` (the hook's stdin) is most of the record: a PostToolUse input holds
// the tool's output. jsonscan.Members finds where it ends by following its brackets, and the
// reader then walked its members once more for the call's names (ReadHookInput). walkRecord
// walks the record as jsonscan.Members does, but walks an object `input` member by member once,
// keeping the call's names on the way, and takes its end from that walk — when the walk ends
// exactly where the brackets would (see inputWalk); else as before.

// hookInputKeys are the members of a hook's stdin that name its call, as ReadHookInput reads them.
var hookInputKeys = [...]string{"hook_event_name", "tool_name", "tool_input", "tool_use_id", "session_id", "cwd"}

// inputNames are the values of hookInputKeys in an input walked once (nil: absent).
type inputNames [len(hookInputKeys)][]byte

// walkRecord calls fn for each member of the JSON object b, as jsonscan.Members does, and
// reports what Members reports. names is set to the call's names of the last object member
// `input` when that was walked once, nil when the last `input` was not.
func walkRecord(b []byte, names **inputNames, fn func(key, val []byte) bool) bool {
	i := jsonscan.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	if i = jsonscan.SkipSpace(b, i+1); i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) && b[i] == '"' {
		end := jsonscan.StringEnd(b, i)
		if end < 0 {
			return false
		}
		key := b[i:end]
		if i = jsonscan.SkipSpace(b, end); i >= len(b) || b[i] != ':' {
			return false
		}
		at := jsonscan.SkipSpace(b, i+1)
		var vend int
		if string(key) == `"input"` && at < len(b) && b[at] == '{' {
			vend, *names = inputWalk(b, at)
		} else {
			vend = jsonscan.ValueEnd(b, at)
			if string(key) == `"input"` && vend >= 0 && string(b[at:vend]) != "null" {
				*names = nil
			}
		}
		if vend < 0 || !fn(key[1:len(key)-1], b[at:vend]) {
			return vend >= 0
		}
		var more, ok bool
		if i, more, ok = nextMember(b, vend); !more {
			return ok
		}
	}
	return false
}

// nextMember reads what follows a member that ends at b[i]: a comma and another (more), or the
// object's end (ok), or anything else (neither); it returns the index of the next member.
func nextMember(b []byte, i int) (int, bool, bool) {
	i = jsonscan.SkipSpace(b, i)
	switch {
	case i >= len(b):
		return i, false, false
	case b[i] == ',':
		return jsonscan.SkipSpace(b, i+1), true, false
	case b[i] == '}':
		return i, false, true
	}
	return i, false, false
}

// inputWalk returns the end of the object at b[at] and the call's names in it (the first of
// each, as jsonscan.Lookup keeps them), walking its members once. The end is that of
// jsonscan.ValueEnd when the walk reads the whole object and no bare value holds a quote or a
// bracket (which the brackets ValueEnd follows would count); otherwise it is ValueEnd's, and
// the names are nil (read again later).
func inputWalk(b []byte, at int) (int, *inputNames) {
	var names inputNames
	last, plain := -1, true
	whole := jsonscan.MembersAt(b, at, func(key []byte, vat, vend int) bool {
		if vend < 0 {
			return false
		}
		v := b[vat:vend]
		if c := v[0]; c != '"' && c != '{' && c != '[' && bytes.ContainsAny(v, "\"{}[]") {
			plain = false
			return false
		}
		k := key[1 : len(key)-1]
		for n, want := range hookInputKeys {
			if names[n] == nil && string(k) == want {
				names[n] = v
			}
		}
		last = vend
		return true
	})
	if !whole || !plain {
		return jsonscan.ValueEnd(b, at), nil
	}
	if last < 0 {
		last = at + 1 // {} with white space inside
	}
	return jsonscan.SkipSpace(b, last) + 1, &names
}

// strTable shares the strings that recur from record to record (a hook event's name, the tool,
// the session, the working folder), so that a file of short records does not allocate each of
// them again for every record. It holds at most maxStrTable strings of at most maxStrLen bytes.
type strTable struct{ m map[string]string }

const (
	maxStrTable = 1024
	maxStrLen   = 256
)

func newStrTable() *strTable { return &strTable{m: map[string]string{}} }

// str is RawStr(v), shared with the earlier records when v is a short string without escapes.
func (t *strTable) str(v []byte) string {
	n := len(v)
	if t == nil || n < 2 || n-2 > maxStrLen || v[0] != '"' || v[n-1] != '"' {
		return RawStr(v)
	}
	c := v[1 : n-1]
	if bytes.IndexByte(c, '\\') >= 0 || !jsonscan.Plain(c) {
		return RawStr(v)
	}
	if s, ok := t.m[string(c)]; ok { // no allocation for the lookup
		return s
	}
	s := string(c) // what RawStr returns for a plain string
	if len(t.m) < maxStrTable {
		t.m[s] = s
	}
	return s
}

// intern returns s, or the equal string the table already holds.
func (t *strTable) intern(s string) string {
	if t == nil || len(s) > maxStrLen {
		return s
	}
	if u, ok := t.m[s]; ok {
		return u
	}
	if len(t.m) < maxStrTable {
		t.m[s] = s
	}
	return s
}
