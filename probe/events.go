package probe

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// Case is one input probe gives the guard.
type Case struct {
	Runtime string // the runtime id whose hook the guard is run as
	Event   string // the hook event, as the runtime spells it
	Name    string // what the input is: the tool of a sample, or the hostile kind
	Stdin   []byte
	Closed  bool // stdin is closed at once
	Hostile bool // the guard must exit 0 with no decision
	// Replayed says the input is a recorded call's, given to the guard byte for byte.
	Replayed bool
	// Origin is where a user's event or a replayed call came from ("file:line"); "" for built-ins.
	Origin string
}

// samples are real hook inputs, one per file: events/<runtime id>/<Event>.<tool>.json, copied
// from the recordings in testdata/<runtime>/ (probe/events/README.md).
//
//go:embed events
var samples embed.FS

// Samples returns the built-in events of a runtime, sorted by file name: none when probe has no
// recording of that runtime yet. A runtime offers its samples by adding a folder.
func Samples(runtime string) ([]Case, error) {
	dir := path.Join("events", runtime)
	ents, err := fs.ReadDir(samples, dir)
	if err != nil {
		return nil, nil //nolint:nilerr // no folder: no samples for this runtime
	}
	var out []Case
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		event, tool, ok := strings.Cut(strings.TrimSuffix(name, ".json"), ".")
		if !ok {
			continue
		}
		b, err := samples.ReadFile(path.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("probe: sample %s: %w", name, err)
		}
		out = append(out, Case{Runtime: runtime, Event: event, Name: tool, Stdin: bytes.TrimSpace(b)})
	}
	return out, nil
}

// toolKeys and eventKeys are the input members that name the tool and the event, in the
// spellings the runtimes use.
var (
	toolKeys  = []string{"tool_name", "toolName"}
	inputKeys = []string{"tool_input", "toolArgs"}
	eventKeys = []string{"hook_event_name", "hookEventName", "event"}
)

// bigInput is the size of the big hostile input.
const bigInput = 10 << 20

// Hostile returns the hostile inputs made from one sample of the runtime: every one must leave
// the guard exiting 0 with no decision.
func Hostile(base Case) []Case {
	var obj map[string]json.RawMessage
	_ = json.Unmarshal(base.Stdin, &obj)
	mk := func(name string, stdin []byte) Case {
		return Case{Runtime: base.Runtime, Event: base.Event, Name: name, Stdin: stdin, Hostile: true}
	}
	out := []Case{
		mk("empty stdin", nil),
		{Runtime: base.Runtime, Event: base.Event, Name: "stdin closed at once", Closed: true, Hostile: true},
		mk("not JSON", []byte("this is not JSON\n")),
		mk("cut JSON", base.Stdin[:len(base.Stdin)/2]),
	}
	with := func(name string, edit func(m map[string]json.RawMessage) bool) {
		if obj == nil {
			return
		}
		m := maps(obj)
		if edit(m) {
			out = append(out, mk(name, encode(m)))
		}
	}
	with("10 MB input", func(m map[string]json.RawMessage) bool {
		pad, _ := json.Marshal(strings.Repeat("x", bigInput))
		m["probe_padding"] = pad
		set(m, toolKeys, json.RawMessage(`"ProbeUnknownTool"`)) // a call no guard judges: no decision is right
		return true
	})
	with("unknown tool", func(m map[string]json.RawMessage) bool {
		return set(m, toolKeys, json.RawMessage(`"ProbeUnknownTool"`))
	})
	with("unknown event", func(m map[string]json.RawMessage) bool {
		return set(m, eventKeys, json.RawMessage(`"ProbeUnknownEvent"`))
	})
	with("missing tool input", func(m map[string]json.RawMessage) bool {
		for _, k := range inputKeys {
			if _, ok := m[k]; ok {
				delete(m, k)
				return true
			}
		}
		return false
	})
	with("mistyped fields", func(m map[string]json.RawMessage) bool {
		a := set(m, toolKeys, json.RawMessage(`42`))
		b := set(m, inputKeys, json.RawMessage(`"not an object"`))
		return a || b
	})
	out = append(out, mk("non-UTF-8 bytes", nonUTF8(base.Stdin)))
	return out
}

// set replaces the first of keys that m has with v.
func set(m map[string]json.RawMessage, keys []string, v json.RawMessage) bool {
	for _, k := range keys {
		if _, ok := m[k]; ok {
			m[k] = v
			return true
		}
	}
	return false
}

func maps(m map[string]json.RawMessage) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}

func encode(m map[string]json.RawMessage) []byte {
	b, _ := json.Marshal(m)
	return b
}

// nonUTF8 puts bytes that are not UTF-8 inside the first string of the input (after its first
// quote), so the rest of the input still looks like JSON.
func nonUTF8(stdin []byte) []byte {
	i := bytes.IndexByte(stdin, '"')
	if i < 0 {
		return append([]byte{0xff, 0xfe}, stdin...)
	}
	out := append([]byte(nil), stdin[:i+1]...)
	out = append(out, 0xff, 0xfe, 0xc3)
	return append(out, stdin[i+1:]...)
}
