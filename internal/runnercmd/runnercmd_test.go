package runnercmd

import (
	"testing"
)

// Vectors from actions/runner's ActionCommandL0 and ActionCommandManagerL0, with the test
// command renamed to a registered one, plus the white space and ignorable-character cases.
func TestParse(t *testing.T) {
	tests := []struct {
		line  string
		form  string // "" = no command
		name  string
		props map[string]string
		data  string
	}{
		{"##[error k1=v1;]msg", "legacy", "error", map[string]string{"k1": "v1"}, "msg"},
		{"##[error]", "legacy", "error", nil, ""},
		{"##[error k1=%3B=%0D=%0A=%5D;]%3B-%0D-%0A-%5D", "legacy", "error", map[string]string{"k1": ";=\r=\n=]"}, ";-\r-\n-]"},
		{"##[error k1=;k2=;]", "legacy", "error", nil, ""},
		{">>>   ##[error k1=v1;]msg", "legacy", "error", map[string]string{"k1": "v1"}, "msg"},
		{"::error k1=v1,::msg", "v2", "error", map[string]string{"k1": "v1"}, "msg"},
		{"::error::", "v2", "error", nil, ""},
		{"::error k1=;=%2C=%0D=%0A=]=%3A,::;-%0D-%0A-]-:-,", "v2", "error", map[string]string{"k1": ";=,=\r=\n=]=:"}, ";-\r-\n-]-:-,"},
		{"::error k1=,k2=,::", "v2", "error", nil, ""},
		{"   ::warning::indented", "v2", "warning", nil, "indented"},
		{"\u2003::error::em space", "v2", "error", nil, "em space"},
		{"\u3000\u00a0\u2028::error::ideographic", "v2", "error", nil, "ideographic"},
		{"\u200b::error::zero width", "v2", "error", nil, "zero width"},
		{"x ::error::not at start", "", "", nil, ""},
		{"x ##[stop-commands]T", "legacy", "stop-commands", nil, "T"},
		{"#\u00ad#[add-mask]soft hyphen", "legacy", "add-mask", nil, "soft hyphen"},
		{`##\[error]escaped`, "", "", nil, ""},
		{"::unknown::x", "", "", nil, ""},
		{"::ERROR::upper", "v2", "ERROR", nil, "upper"},
		{"[inert] ::error::x", "", "", nil, ""},
	}
	for _, tt := range tests {
		r := New()
		r.Feed("out", tt.line)
		if tt.form == "" {
			if len(r.Commands) != 0 {
				t.Errorf("%q: found %+v, want none", tt.line, r.Commands)
			}
			continue
		}
		if len(r.Commands) != 1 {
			t.Errorf("%q: found %d commands, want 1", tt.line, len(r.Commands))
			continue
		}
		c := r.Commands[0]
		if c.Form != tt.form || c.Name != tt.name || c.Data != tt.data || len(c.Props) != len(tt.props) {
			t.Errorf("%q: got %s %q props %v data %q", tt.line, c.Form, c.Name, c.Props, c.Data)
		}
		for k, v := range tt.props {
			if c.Props[k] != v {
				t.Errorf("%q: prop %s = %q, want %q", tt.line, k, c.Props[k], v)
			}
		}
	}
}

// The stop-commands sequence of ActionCommandManagerL0: stopped, a command is not processed,
// the token resumes, and then commands are processed again.
func TestStopCommands(t *testing.T) {
	r := New()
	r.Feed("out", "##[stop-commands]stopToken\n##[set-env name=foo]bar\n::error::while stopped\n##[stopToken]\n##[set-env name=foo]bar\n")
	var got []bool
	for _, c := range r.Commands {
		got = append(got, c.Processed)
	}
	want := []bool{true, false, false, true, true}
	if len(got) != len(want) {
		t.Fatalf("commands %+v", r.Commands)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("command %d (%s) processed %v, want %v", i, r.Commands[i].Text, got[i], want[i])
		}
	}
	if r.Stopped() {
		t.Error("still stopped")
	}
}

func TestSplitLines(t *testing.T) {
	got := SplitLines("a\r\nb\rc\nd")
	if len(got) != 4 || got[0] != "a" || got[1] != "b" || got[2] != "c" || got[3] != "d" {
		t.Errorf("%q", got)
	}
}
