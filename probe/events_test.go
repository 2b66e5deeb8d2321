package probe

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/runtimes"
)

// TestSamplesEveryRuntime: every registered runtime has built-in events, each a JSON object
// whose event is one of the runtime's and whose runtime EventOf reads back.
func TestSamplesEveryRuntime(t *testing.T) {
	for _, b := range runtimes.Bindings() {
		s, err := Samples(b.Runtime())
		if err != nil {
			t.Fatal(err)
		}
		if len(s) == 0 {
			t.Errorf("%s: no built-in events (add probe/events/%s/)", b.Runtime(), b.Runtime())
		}
		for _, c := range s {
			if !json.Valid(c.Stdin) || !bytes.HasPrefix(c.Stdin, []byte("{")) {
				t.Errorf("%s %s: not a JSON object", c.Runtime, c.Name)
			}
			if got := EventOf(c.Runtime, c.Stdin); got != c.Event {
				t.Errorf("%s %s: the input names event %q, the file name %q", c.Runtime, c.Name, got, c.Event)
			}
		}
	}
}

// TestHostile: the hostile inputs made from a sample are each what they say.
func TestHostile(t *testing.T) {
	s, err := Samples(runtimes.Default().Runtime())
	if err != nil || len(s) == 0 {
		t.Fatal("no sample", err)
	}
	base := s[0]
	got := map[string]Case{}
	for _, c := range Hostile(base) {
		if !c.Hostile || c.Runtime != base.Runtime || c.Event != base.Event {
			t.Errorf("%s: not a hostile case of the base: %+v", c.Name, c)
		}
		got[c.Name] = c
	}
	var m map[string]any
	check := func(name string, ok func(c Case) bool) {
		t.Helper()
		c, found := got[name]
		if !found {
			t.Errorf("no %q input", name)
			return
		}
		if !ok(c) {
			t.Errorf("%q input is not what it says: %s", name, Short(c.Stdin))
		}
	}
	check("empty stdin", func(c Case) bool { return len(c.Stdin) == 0 && !c.Closed })
	check("stdin closed at once", func(c Case) bool { return c.Closed })
	check("not JSON", func(c Case) bool { return !json.Valid(c.Stdin) })
	check("cut JSON", func(c Case) bool { return !json.Valid(c.Stdin) && bytes.HasPrefix(base.Stdin, c.Stdin) })
	check("10 MB input", func(c Case) bool { return len(c.Stdin) > bigInput && json.Valid(c.Stdin) })
	check("unknown tool", func(c Case) bool { return strings.Contains(string(c.Stdin), "ProbeUnknownTool") })
	check("unknown event", func(c Case) bool { return strings.Contains(string(c.Stdin), "ProbeUnknownEvent") })
	check("missing tool input", func(c Case) bool {
		return json.Unmarshal(c.Stdin, &m) == nil && m["tool_input"] == nil && m["toolArgs"] == nil
	})
	check("mistyped fields", func(c Case) bool { return strings.Contains(string(c.Stdin), `"not an object"`) })
	check("non-UTF-8 bytes", func(c Case) bool { return !utf8.Valid(c.Stdin) })
}

// FuzzReadLog: any bytes read as a hook log give calls and skipped lines, never a panic, and
// at most one of either per line.
func FuzzReadLog(f *testing.F) {
	f.Add([]byte(`{"runtime":"x","input":{"hook_event_name":"PreToolUse"},"exit_code":0,"stdout":"","stderr":""}` + "\n"))
	f.Add([]byte(`{"input":"aGk=","input_encoding":"base64"}` + "\nnot json\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		calls, skipped, err := ReadLog("log", bytes.NewReader(data))
		if err != nil {
			return
		}
		if n := bytes.Count(data, []byte("\n")) + 1; len(calls)+len(skipped) > n {
			t.Errorf("%d calls and %d skipped from %d lines", len(calls), len(skipped), n)
		}
	})
}

// FuzzReadEvents: any bytes read as an event file give cases or an error, never a panic.
func FuzzReadEvents(f *testing.F) {
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`))
	f.Add([]byte("{\"toolName\":\"bash\"}\n{\"turn_id\":\"t\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, err := ReadEvents("events", data, "")
		if err == nil && len(cs) == 0 {
			t.Error("no case and no error")
		}
	})
}
