package inputs

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/findings"
)

// ordinalStep is one call fed to an OrdinalKeys table, and the key's number it must get (0: none).
type ordinalStep struct {
	call findings.Call
	who  string
	want int
	same int // 1-based step whose key (but for its number) this one's must equal; 0: not checked
}

// TestOrdinalKeys: one key for Gemini and Copilot, with one fail-safe rule for both: the same
// args however spelled share a base, other args, sessions or hooks count apart, and a call whose
// args cannot be compared (unreadable, none, over MaxCallInput, cut by a reader's window) or
// whose session is unknown gets no key, without changing the numbers of calls with other args.
func TestOrdinalKeys(t *testing.T) {
	big := json.RawMessage(`{"command":"` + strings.Repeat("x", ElideKeep) + `"}`) // what a cut string leaves
	for _, rt := range []string{agent.Gemini, agent.Copilot} {
		c := func(session, tool, args string) findings.Call {
			return findings.Call{Runtime: rt, SessionID: session, Event: "ev", Tool: tool, Input: json.RawMessage(args)}
		}
		bigCall := c("s", "sh", "")
		bigCall.Input = big
		withID := c("s", "sh", `{"command":"ls"}`)
		withID.ToolUseID = "t1"
		cases := []struct {
			name  string
			steps []ordinalStep
		}{
			{"same args however spelled", []ordinalStep{{call: c("s", "sh", `{"command":"ls","n":1.50}`), want: 1},
				{call: c("s", "sh", `{ "n": 1.50, "command": "ls" }`), want: 2, same: 1}}},
			{"numbers compare as written", []ordinalStep{{call: c("s", "sh", `{"n":1.50}`), want: 1},
				{call: c("s", "sh", `{"n":1.5}`), want: 1}}},
			{"each hook counts its runs", []ordinalStep{{call: c("s", "sh", `{}`), who: "a", want: 1},
				{call: c("s", "sh", `{}`), who: "b", want: 1, same: 1}, {call: c("s", "sh", `{}`), who: "a", want: 2, same: 1}}},
			{"another session counts apart", []ordinalStep{{call: c("s", "sh", `{}`), want: 1}, {call: c("s2", "sh", `{}`), want: 1}}},
			{"unknown session: no key", []ordinalStep{{call: c("", "sh", `{}`)}}},
			{"unreadable args: no key", []ordinalStep{{call: c("s", "sh", `{"command":"ls"`)},
				{call: c("s", "sh", `{"command":"ls"}`), want: 1}, {call: c("s", "sh", `null`)}}},
			{"no args: no key", []ordinalStep{{call: c("s", "sh", ``)}, {call: c("s", "sh", `{}`), want: 1}}},
			{"args over MaxCallInput or cut: no key, however often", []ordinalStep{{call: bigCall}, {call: bigCall},
				{call: c("s", "sh", `{"command":"ls"}`), want: 1}}},
			{"a call id keys the call itself", []ordinalStep{{call: withID}}},
		}
		for _, tc := range cases {
			t.Run(rt+"/"+tc.name, func(t *testing.T) { checkOrdinalSteps(t, NewOrdinalKeys(Options{Registry: testRegistry}), tc.steps) })
		}
	}
	t.Run("full table", func(t *testing.T) {
		k := NewOrdinalKeys(Options{Registry: testRegistry})
		k.max = 1
		c := findings.Call{Runtime: agent.Gemini, SessionID: "s", Event: "ev", Tool: "sh", Input: json.RawMessage(`{}`)}
		d := c
		d.Input = json.RawMessage(`{"a":1}`)
		checkOrdinalSteps(t, k, []ordinalStep{{call: c, want: 1}, {call: c, want: 2, same: 1}, {call: d}})
	})
	t.Run("other runtimes are not keyed by order", func(t *testing.T) {
		c := findings.Call{Runtime: agent.Codex, SessionID: "s", Event: "ev", Tool: "shell", Input: json.RawMessage(`{}`)}
		checkOrdinalSteps(t, NewOrdinalKeys(Options{Registry: testRegistry}), []ordinalStep{{call: c}})
	})
}

func checkOrdinalSteps(t *testing.T, k *OrdinalKeys, steps []ordinalStep) {
	t.Helper()
	keys := make([]string, len(steps))
	for i, s := range steps {
		keys[i] = k.NextSlot(s.call, s.who).Key(s.call.SessionID)
		base, n, _ := strings.Cut(keys[i], "#")
		switch {
		case s.want == 0 && keys[i] != "":
			t.Errorf("step %d: key %q, want none", i+1, keys[i])
		case s.want != 0 && n != strconv.Itoa(s.want):
			t.Errorf("step %d: key %q, want number %d", i+1, keys[i], s.want)
		case s.same != 0 && base != strings.Split(keys[s.same-1], "#")[0]:
			t.Errorf("step %d: key %q, want the base of step %d's %q", i+1, keys[i], s.same, keys[s.same-1])
		case s.same == 0 && s.want != 0 && i > 0 && base == strings.Split(keys[i-1], "#")[0]:
			t.Errorf("step %d: key %q shares step %d's base", i+1, keys[i], i)
		}
	}
}
