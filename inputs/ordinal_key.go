package inputs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"

	"github.com/agc-sarif/agc-sarif/findings"
)

// MaxOrdinalKeys bounds the key table of one file (about 3 MB).
const MaxOrdinalKeys = 1 << 16

// OrdinalKeys names the events of calls that carry no tool-call id, within one file: the n-th
// call of a session with the same event, tool and arguments (compared as decoded JSON) is
// "runtime/session/event/tool/<hash of the arguments>#n" in every file that records it. Hook-run
// files count the runs of each hook apart (who = the hook), so two hooks on one call give that
// call's number twice; call files count calls (who = ""). Calls with other arguments never share
// a key, so a file that misses a call shifts only the numbers of later calls with the very same
// arguments; those are merged wrongly only when both files report the same rule for them (README,
// "One event through several files without a call id"). It fails safe: a call whose arguments
// are unreadable or over MaxCallInput (so also any cut by a reader's window, since ElideKeep >=
// MaxCallInput: the recorder's log keeps no such input either), of an unknown session, or past
// the table's bound gets no key, and a call without a key is never merged. Such a call is not
// counted, which shifts only later calls with the very same arguments: the limit above.
type OrdinalKeys struct {
	counts  map[[32]byte]int // n per (runtime, session, event, tool, args, who)
	max     int
	byOrder func(runtime string) bool // Options.keysByOrder
}

// OrdinalSlot is a call's place among its session's calls with the same arguments, made into a
// key once the session is known (Copilot's stream names it only at its end).
type OrdinalSlot struct {
	runtime, event, rest string // rest: "tool/<hash>"
	n                    int    // 0: no place
}

// NewOrdinalKeys is an empty key table for one file, keying the runtimes opts says are keyed by order.
func NewOrdinalKeys(opts Options) *OrdinalKeys {
	return &OrdinalKeys{counts: map[[32]byte]int{}, max: MaxOrdinalKeys, byOrder: opts.keysByOrder}
}

// NextSlot counts one more call (or hook run, for who != "") of c's session and returns its
// place, whose key and callKey name it; the zero slot when it has none or c names its call by id.
func (k *OrdinalKeys) NextSlot(c findings.Call, who string) OrdinalSlot {
	if c.ToolUseID != "" || !k.byOrder(c.Runtime) {
		return OrdinalSlot{}
	}
	return k.Place(c, who)
}

// Place counts one more call of c within c.SessionID (which may be "" in a file of one session
// whose id comes later) and scope who, and returns its place; the zero slot when it has none.
func (k *OrdinalKeys) Place(c findings.Call, who string) OrdinalSlot {
	args, ok := canonicalJSON(c.Input)
	if !ok || len(c.Input) > MaxCallInput {
		return OrdinalSlot{}
	}
	h := sha256.Sum256(args)
	rest := c.Tool + "/" + hex.EncodeToString(h[:12])
	id := counterID(c.Runtime, c.SessionID, c.Event+"/"+rest, who)
	n, seen := k.counts[id]
	if !seen && len(k.counts) >= k.max {
		return OrdinalSlot{} // the table is full: an unnumbered call is never merged
	}
	k.counts[id] = n + 1
	return OrdinalSlot{runtime: c.Runtime, event: c.Event, rest: rest, n: n + 1}
}

// Key is the slot's event key in session; "" when it has no place or the session is unknown.
func (s OrdinalSlot) Key(session string) string {
	if s.n == 0 || session == "" {
		return ""
	}
	return s.runtime + "/" + session + "/" + s.event + "/" + s.rest + "#" + strconv.Itoa(s.n)
}

// CallKey names the call itself in session, whichever event of it was counted: the n-th call
// with these arguments is the n-th run of each hook on them, of any event, and the n-th call of a
// file of calls. It keys the call in the tool-call timeline (CallEvent.Key, findings.Call.Key);
// "" like key.
func (s OrdinalSlot) CallKey(session string) string {
	if s.n == 0 || session == "" {
		return ""
	}
	return s.runtime + "/" + session + "/" + s.rest + "#" + strconv.Itoa(s.n)
}

// counterID hashes the parts of a counter's name, each ended by a NUL.
func counterID(parts ...string) [32]byte {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	var id [32]byte
	copy(id[:], h.Sum(nil))
	return id
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
