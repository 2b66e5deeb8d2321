package gates

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// The fast path for a Claude Code hook's JSON answer (HookOutput): read in one pass with the
// fast reader of the AGC responses (fastdecode.go), giving up — then encoding/json decodes it, as
// before — on anything encoding/json might read otherwise: a null, a duplicate member, a name with
// escapes, non-ASCII bytes or that matches a known one ignoring case, invalid UTF-8, text after the
// value, a wrong type. FuzzFastHookOutput checks that what it reads equals encoding/json's result.

// Member names of a hook's answer and of its hookSpecificOutput, as encoding/json names them.
var (
	hookOutputNames   = []string{"continue", "stopReason", "decision", "reason", "hookSpecificOutput"}
	hookSpecificNames = []string{"hookEventName", "permissionDecision", "permissionDecisionReason",
		"updatedInput", "additionalContext", "updatedToolOutput", "updatedMCPToolOutput"}
)

// fastHookOutput reads data as a hook's JSON answer when it is plainly one; false when not sure.
func fastHookOutput(data []byte) (*HookOutput, bool) {
	if !utf8.Valid(data) {
		return nil, false
	}
	d := &fastReader{jsonscan.NewReader(data)}
	d.Space()
	o := &HookOutput{}
	d.object(hookOutputNames, func(k int) { d.hookOutputMember(o, k) })
	d.Space()
	if !d.OK() || d.Offset() != len(data) {
		return nil, false
	}
	return o, true
}

// hookOutputMember reads the value of the answer's member hookOutputNames[k].
func (d *fastReader) hookOutputMember(o *HookOutput, k int) {
	switch k {
	case 0:
		b := d.Bool()
		o.Continue = &b
	case 1:
		o.StopReason = d.raw()
	case 2:
		o.Decision = d.raw()
	case 3:
		o.Reason = d.raw()
	case 4:
		if d.Peek() != '{' {
			d.Fail()
			return
		}
		o.HSO = &HookSpecific{}
		d.object(hookSpecificNames, func(k int) { *o.HSO.member(k) = d.raw() })
	}
}

// member is the field of hookSpecificNames[k].
func (h *HookSpecific) member(k int) *json.RawMessage {
	return [...]*json.RawMessage{&h.HookEventName, &h.PermissionDecision, &h.PermissionDecisionReason,
		&h.UpdatedInput, &h.AdditionalContext, &h.UpdatedToolOutput, &h.UpdatedMCPToolOutput}[k]
}

// raw reads any value but null and returns a copy of its bytes, as json.RawMessage keeps them.
func (d *fastReader) raw() json.RawMessage {
	if d.Peek() == 'n' {
		d.Fail() // encoding/json's handling of null is left to it
		return nil
	}
	if v := d.Value(fastMaxDepth); d.OK() {
		return bytes.Clone(v)
	}
	return nil
}
