package gemini

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// Session is the format of a Gemini CLI session file (chats/session-*.jsonl).
const Session inputs.Format = "gemini-session"

// SessionFormat is the session file's format as the registry lists it: name, sniff, reader.
func SessionFormat() inputs.FormatSpec {
	return inputs.FormatSpec{Name: Session, Sniff: sniffGeminiSession, Reader: geminiSessionReader{}}
}

// geminiSessionReader reads a Gemini CLI session JSONL, the hooks' transcript_path: a metadata
// line (sessionId, projectHash, startTime, kind), then message records (type user or gemini) and
// {"$set": …} patches. A gemini message is written again once its calls are done, with
// toolCalls[] (id, name, args, result, status). The session keeps no hook event: a BeforeTool
// block is a call with status "error" whose functionResponse error is "Tool execution blocked:
// <reason>". Its args are the arguments the call ran with (a hook's rewrite, not the model's), so
// a rewritten call is numbered apart from the other files' (OrdinalKeys): only blocks are read,
// and a blocked call was not rewritten. The tool-call timeline gets every call, by its id and
// that number: a rewritten call is joined to the stream's by the id, but with only hook runs (the
// telemetry, the recorder's log) besides this file it is counted twice.
type geminiSessionReader struct{}

// Skip reasons of session records.
const (
	skipGeminiMeta  = "session metadata"
	skipGeminiPatch = "session update"
	skipGeminiCalls = "tool calls no hook blocked"
	skipGeminiAgain = "message written again (its calls were read)"
)

// sniffGeminiSession recognises a session file by its metadata line.
func sniffGeminiSession(h *inputs.Head) bool {
	return inputs.RawStr(h.Get("sessionId")) != "" && inputs.RawStr(h.Get("projectHash")) != "" && inputs.RawStr(h.Get("type")) == ""
}

// geminiSessionRecord is the part of a session line the reader uses.
type geminiSessionRecord struct {
	SessionID   string `json:"sessionId"`
	ProjectHash string `json:"projectHash"`
	Set         *struct {
		Messages []geminiMessage `json:"messages"`
	} `json:"$set"`
	geminiMessage
}

// geminiMessage is a message record, or one message of a $set patch.
type geminiMessage struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	ToolCalls []struct {
		ID     string          `json:"id"`
		Name   string          `json:"name"`
		Args   json.RawMessage `json:"args"`
		Status string          `json:"status"`
		Result []struct {
			FunctionResponse struct {
				Response struct {
					Error json.RawMessage `json:"error"`
				} `json:"response"`
			} `json:"functionResponse"`
		} `json:"result"`
		Timestamp string `json:"timestamp"`
	} `json:"toolCalls"`
}

// geminiSession is the state of one session file being read.
type geminiSession struct {
	*geminiCalls
	seen map[string]bool // tool call ids read, so a message written again is not read twice
}

func (geminiSessionReader) Read(ctx context.Context, in inputs.Input, opts inputs.Options, set *findings.Set) error {
	s := &geminiSession{geminiCalls: newGeminiCalls(in.Name, opts, set), seen: map[string]bool{}}
	return ReadRecords(ctx, in, opts, s.record)
}

// record reads one session line: every line is used or counted as a skip with its reason.
func (s *geminiSession) record(rec inputs.Record) {
	var r geminiSessionRecord
	src, ok := inputs.DecodeLine(s.set, s.name, rec, "a Gemini session record", &r)
	if !ok {
		return
	}
	switch {
	case r.SessionID != "" && r.Type == "":
		if s.session == "" {
			s.session = r.SessionID
		}
		s.set.Skip(skipGeminiMeta)
	case r.Set != nil && len(r.Set.Messages) > 0:
		used, why := false, skipGeminiPatch
		for i := range r.Set.Messages {
			ok, w := s.message(&r.Set.Messages[i], src)
			used, why = used || ok, w
		}
		s.count(used, why)
	case r.Set != nil:
		s.set.Skip(skipGeminiPatch)
	case r.Type == "gemini":
		s.count(s.message(&r.geminiMessage, src))
	case r.Type == "user":
		s.set.Skip(skipGeminiText)
	default:
		s.set.Skip(inputs.SkipNotHook)
	}
}

// message reads the tool calls of one message not read before, reporting whether one of them
// added a finding, or else why none did.
func (s *geminiSession) message(m *geminiMessage, src findings.Source) (bool, string) {
	if len(m.ToolCalls) == 0 {
		return false, skipGeminiText
	}
	used, why := false, skipGeminiAgain
	for _, tc := range m.ToolCalls {
		if s.seen[tc.ID] || !s.call(tc.ID, tc.Name, tc.Args, tc.Timestamp, src) {
			continue
		}
		if len(s.seen) < inputs.MaxOrdinalKeys {
			s.seen[tc.ID] = true
		}
		text := ""
		if len(tc.Result) > 0 {
			text = inputs.JSONString(tc.Result[0].FunctionResponse.Response.Error)
		}
		blocked := tc.Status == "error" && strings.HasPrefix(text, geminiBlockPrefix)
		s.result(tc.ID, tc.Status == "error", text, blocked, tc.Timestamp, src)
		if !blocked {
			delete(s.calls, tc.ID)
			if !used {
				why = skipGeminiCalls
			}
			continue
		}
		ok, w := s.block(tc.ID, strings.TrimPrefix(text, geminiBlockPrefix), src)
		if ok {
			used = true
		} else if !used {
			why = w
		}
	}
	return used, why
}
