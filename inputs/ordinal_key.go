package inputs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// orderKeyed is implemented by bindings whose hook input names no tool call (Gemini CLI): their
// events are matched across files by session, event, tool, arguments and the order of the calls
// with those arguments (ordinalKeys).
type orderKeyed interface{ KeysCallsByOrder() bool }

// keysByOrder reports whether runtime's events are keyed by order.
func keysByOrder(runtime string) bool {
	k, ok := gates.BindingFor(runtime).(orderKeyed)
	return ok && k.KeysCallsByOrder()
}

// maxOrdinalKeys bounds the key table of one file (about 3 MB).
const maxOrdinalKeys = 1 << 16

// ordinalKeys names the events of calls that carry no tool-call id, within one file: the n-th
// call of a session with the same event, tool and arguments (compared as decoded JSON) is
// "runtime/session/event/tool/<hash of the arguments>#n" in every file that records it. Hook-run
// files count the runs of each hook apart (who = the hook), so two hooks on one call give that
// call's number twice; call files count calls (who = ""). Calls with other arguments never share
// a key, so a file that misses a call shifts only the numbers of later calls with the very same
// arguments; those are merged wrongly only when both files report the same rule for them (README,
// "Runtime bindings"). Arguments that cannot be read or are over maxCallInput, and calls past the
// table's bound, get no key: they are never merged.
type ordinalKeys struct {
	counts map[[32]byte]int
	max    int
}

func newOrdinalKeys() *ordinalKeys {
	return &ordinalKeys{counts: map[[32]byte]int{}, max: maxOrdinalKeys}
}

// next counts one more call (or hook run, for who != "") and returns its key, or "".
func (k *ordinalKeys) next(c findings.Call, who string) string {
	if c.ToolUseID != "" || len(c.Input) > maxCallInput || !keysByOrder(c.Runtime) {
		return "" // an input too big to keep is not kept by the recorder's log either
	}
	args, ok := canonicalJSON(c.Input)
	if !ok {
		return ""
	}
	h := sha256.Sum256(args)
	base := c.Runtime + "/" + c.SessionID + "/" + c.Event + "/" + c.Tool + "/" + hex.EncodeToString(h[:12])
	id := sha256.Sum256([]byte(base + "\x00" + who))
	n, seen := k.counts[id]
	if !seen && len(k.counts) >= k.max {
		return "" // the table is full: an unnumbered call is never merged
	}
	k.counts[id] = n + 1
	return base + "#" + strconv.Itoa(n+1)
}

// canonicalJSON re-encodes a JSON value with sorted keys and numbers as written, so that the
// arguments of one call compare equal however each file spaced and ordered them.
func canonicalJSON(raw json.RawMessage) ([]byte, bool) {
	if len(raw) == 0 {
		return nil, false
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil || v == nil {
		return nil, false
	}
	b, err := json.Marshal(v)
	return b, err == nil
}
