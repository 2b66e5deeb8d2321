package codex

import (
	"context"
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// Events is the format of `codex exec --json` events.
const Events inputs.Format = "codex-events"

// EventsFormat is the events' format as the registry lists it: name, sniff, reader.
func EventsFormat() inputs.FormatSpec {
	return inputs.FormatSpec{Name: Events, Sniff: sniffCodexEvents, Reader: codexEventsReader{}}
}

// codexEventsReader reads the JSON events `codex exec --json` prints (thread.started,
// turn.*, item.started/item.completed). They keep no hook answer (runtimes/codex): a call a
// hook blocked leaves no item, a context is not shown, and a command that ran names neither its
// call id nor the hook, so nothing in them can be matched exactly to the rollout or the
// recorder's log. The reader recognises the format, so that such a file is not misread as
// another, and counts every line as a skip with that reason.
type codexEventsReader struct{}

// Skip reasons of codex --json events.
const (
	skipCodexEvents = "codex --json events keep no hook answers"
	skipCodexOther  = "not a codex --json event"
)

// sniffCodexEvents recognises the stream by its first event: thread.started with a thread_id.
func sniffCodexEvents(h *inputs.Head) bool {
	return inputs.RawIs(h.Get("type"), "thread.started") && inputs.RawStr(h.Get("thread_id")) != ""
}

// codexEventTypes are the type prefixes of codex --json events.
var codexEventTypes = []string{"thread.", "turn.", "item.", "error"}

func (codexEventsReader) Read(ctx context.Context, in inputs.Input, opts inputs.Options, set *findings.Set) error {
	err := inputs.ScanWindowed(ctx, in.R, opts.MaxRecord, inputs.WithEdits(opts, in.Name, func(rec inputs.Record) error {
		var ev struct {
			Type string `json:"type"`
		}
		src, ok := inputs.DecodeLine(set, in.Name, rec, "a codex --json event", &ev)
		if !ok {
			return nil
		}
		for _, p := range codexEventTypes {
			if strings.HasPrefix(ev.Type, p) {
				set.Skip(skipCodexEvents)
				return nil
			}
		}
		set.Problemf(src, skipCodexOther, "event type %q is not one of codex exec --json's", ev.Type)
		return nil
	}))
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	return nil
}
