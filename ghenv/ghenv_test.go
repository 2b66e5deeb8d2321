package ghenv

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFormatOutputsInert(t *testing.T) {
	hostile := []Output{
		{"findings", "3"},
		{"msg", "line1\n_GitHubActionsFileCommandDelimeter_\ninjected=yes\nEOF\nother<<EOF\nx"},
		{"sarif-file", "agc-results.sarif"},
		{"empty", ""},
	}
	text, err := FormatOutputs(hostile, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseOutputs(text)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, text)
	}
	if len(got) != len(hostile) {
		t.Fatalf("got %d outputs %v, want %d", len(got), got, len(hostile))
	}
	for _, o := range hostile {
		if got[o.Name] != o.Value {
			t.Errorf("%s = %q, want %q", o.Name, got[o.Name], o.Value)
		}
	}
	if _, ok := got["injected"]; ok {
		t.Error("injected output appeared")
	}
}

func TestFormatOutputsRefuses(t *testing.T) {
	zero := bytes.Repeat([]byte{0}, 64)
	delim := "ghadelimiter_" + strings.Repeat("00", 16)
	tests := []struct {
		name string
		out  Output
	}{
		{"value holds delimiter", Output{"x", "a\n" + delim + "\nb=c"}},
		{"name with newline", Output{"x\ny", "1"}},
		{"name with heredoc", Output{"x<<EOF", "1"}},
		{"name with equals", Output{"x=y", "1"}},
		{"empty name", Output{"", "1"}},
		{"carriage return", Output{"x", "a\rb=c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := FormatOutputs([]Output{tt.out}, bytes.NewReader(zero)); err == nil {
				t.Error("accepted")
			}
		})
	}
}

func TestDelimitersDiffer(t *testing.T) {
	text, err := FormatOutputs([]Output{{"a", "1"}, {"b", "2"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(text, "\n")
	if lines[0][len("a<<"):] == lines[3][len("b<<"):] {
		t.Errorf("same delimiter twice:\n%s", text)
	}
}

func TestWriteOutputsAppends(t *testing.T) {
	p := filepath.Join(t.TempDir(), "out")
	if err := os.WriteFile(p, []byte("before=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutputs(p, []Output{{"after", "2"}}, nil); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	got, err := ParseOutputs(string(b))
	if err != nil || got["before"] != "1" || got["after"] != "2" {
		t.Errorf("got %v, %v", got, err)
	}
	if err := WriteOutputs("", []Output{{"a", "1"}}, nil); err == nil {
		t.Error("empty path accepted")
	}
}

func TestPullRequestOf(t *testing.T) {
	repo := func(name string, fork bool) map[string]any {
		return map[string]any{"full_name": name, "fork": fork}
	}
	pr := func(head, base map[string]any) map[string]any {
		return map[string]any{"number": 7.0, "pull_request": map[string]any{"number": 7.0,
			"head": map[string]any{"sha": "abc", "repo": head}, "base": map[string]any{"repo": base}}}
	}
	tests := []struct {
		name     string
		event    map[string]any
		ok, fork bool
	}{
		{"push", map[string]any{"ref": "refs/heads/main"}, false, false},
		{"same repo", pr(repo("o/r", false), repo("o/r", false)), true, false},
		{"fork", pr(repo("x/r", true), repo("o/r", false)), true, true},
		{"fork of a fork, same repo", pr(repo("o/r", true), repo("o/r", true)), true, false},
		{"deleted head repo", pr(nil, repo("o/r", false)), true, true},
		{"no names, fork flag", pr(map[string]any{"fork": true}, map[string]any{}), true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "deleted head repo" {
				tt.event["pull_request"].(map[string]any)["head"].(map[string]any)["repo"] = nil
			}
			got, ok := PullRequestOf(tt.event)
			if ok != tt.ok || got.Fork != tt.fork {
				t.Errorf("got %+v ok=%v, want ok=%v fork=%v", got, ok, tt.ok, tt.fork)
			}
			if ok && got.Number != 7 {
				t.Errorf("number %d", got.Number)
			}
		})
	}
}

const (
	shaA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	shaB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

func TestUploadTarget(t *testing.T) {
	tests := []struct {
		name, ref, sha, head string
		pr                   *PullRequest
		want                 Target
	}{
		{"push", "refs/heads/main", shaA, shaA, nil, Target{Ref: "refs/heads/main", SHA: shaA}},
		{"push, head unknown", "refs/heads/main", shaA, "", nil, Target{Ref: "refs/heads/main", SHA: shaA}},
		{"pr merge checked out", "refs/pull/5/merge", shaA, shaA, nil, Target{Ref: "refs/pull/5/merge", SHA: shaA}},
		{"pr head checked out", "refs/pull/5/merge", shaA, shaB, nil, Target{Ref: "refs/pull/5/head", SHA: shaB}},
		{"pr, head unknown", "refs/pull/5/merge", shaA, "", nil, Target{Ref: "refs/pull/5/merge", SHA: shaA}},
		{"pull_request_target, head checked out", "refs/heads/main", shaA, shaB, &PullRequest{Number: 9, HeadSHA: shaB}, Target{Ref: "refs/pull/9/head", SHA: shaB}},
		{"push, other HEAD, not the PR head", "refs/heads/main", shaA, shaB, &PullRequest{Number: 9, HeadSHA: shaA}, Target{Ref: "refs/heads/main", SHA: shaA}},
		{"pr, head not a sha", "refs/pull/5/merge", shaA, "main", nil, Target{Ref: "refs/pull/5/merge", SHA: shaA}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := UploadTarget(tt.ref, tt.sha, tt.head, tt.pr)
			if got.Ref != tt.want.Ref || got.SHA != tt.want.SHA {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			if (got.Ref != tt.ref) != (got.Why != "") {
				t.Errorf("Why %q does not match the rewrite", got.Why)
			}
		})
	}
}

func TestCheckRef(t *testing.T) {
	for ref, ok := range map[string]bool{
		"refs/heads/main": true, "refs/tags/v1": true, "refs/pull/1/merge": true, "refs/pull/1/head": true,
		"main": false, "refs/heads/": false, "refs/pull/x/merge": false, "refs/remotes/origin/main": false,
	} {
		if err := CheckRef(ref); (err == nil) != ok {
			t.Errorf("CheckRef(%q) = %v, want ok=%v", ref, err, ok)
		}
	}
}

func TestReadHEAD(t *testing.T) {
	write := func(t *testing.T, root string, files map[string]string) {
		for name, text := range files {
			p := filepath.Join(root, ".git", filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"detached", map[string]string{"HEAD": shaA + "\n"}, shaA},
		{"loose ref", map[string]string{"HEAD": "ref: refs/heads/main\n", "refs/heads/main": shaB + "\n"}, shaB},
		{"packed ref", map[string]string{"HEAD": "ref: refs/heads/main\n", "packed-refs": "# pack-refs\n" + shaA + " refs/heads/other\n" + shaB + " refs/heads/main\n"}, shaB},
		{"escaping ref", map[string]string{"HEAD": "ref: refs/../../../etc/passwd\n"}, ""},
		{"garbage", map[string]string{"HEAD": "hello"}, ""},
		{"missing ref", map[string]string{"HEAD": "ref: refs/heads/gone\n"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, tt.files)
			got, err := ReadHEAD(root)
			if got != tt.want || (err != nil) != (tt.want == "") {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if _, err := ReadHEAD(t.TempDir()); err == nil {
		t.Error("no .git accepted")
	}
}

func TestBlobURL(t *testing.T) {
	tests := []struct {
		server, repo, sha, path string
		line                    int
		want                    string
	}{
		{"https://github.com", "o/r", shaA, "src/a b.go", 4, "https://github.com/o/r/blob/" + shaA + "/src/a%20b.go#L4"},
		{"https://ghe.example/", "o/r", shaA, "x.go", 0, "https://ghe.example/o/r/blob/" + shaA + "/x.go"},
		{"https://github.com", "o/r", shaA, "../etc/passwd", 1, ""},
		{"https://github.com", "o/r", shaA, "/etc/passwd", 1, ""},
		{"https://github.com", "o/r", "main", "x.go", 1, ""},
		{"javascript:alert(1)", "o/r", shaA, "x.go", 1, ""},
		{"https://github.com", "o", shaA, "x.go", 1, ""},
		{"https://github.com", "o/r", shaA, "a/#b?.go", 2, "https://github.com/o/r/blob/" + shaA + "/a/%23b%3F.go#L2"},
	}
	for _, tt := range tests {
		if got := BlobURL(tt.server, tt.repo, tt.sha, tt.path, tt.line); got != tt.want {
			t.Errorf("BlobURL(%q,%q,%q,%q,%d) = %q, want %q", tt.server, tt.repo, tt.sha, tt.path, tt.line, got, tt.want)
		}
	}
}

func TestCheckoutURI(t *testing.T) {
	if got := CheckoutURI("/github/workspace"); got != "file:///github/workspace" {
		t.Errorf("got %q", got)
	}
}

func FuzzFormatOutputs(f *testing.F) {
	f.Add("name", "value")
	f.Add("msg", "a\nEOF\nx=y\n_GitHubActionsFileCommandDelimeter_")
	f.Add("x", "\r\n\r\n")
	f.Fuzz(func(t *testing.T, name, value string) {
		text, err := FormatOutputs([]Output{{name, value}, {"after", "1"}}, nil)
		if err != nil {
			return
		}
		got, err := ParseOutputs(text)
		if err != nil {
			t.Fatalf("parse: %v", err)
		}
		if got[name] != value || got["after"] != "1" || len(got) != 2 {
			t.Fatalf("got %q", got)
		}
	})
}
