package sarif

import (
	"github.com/agc-sarif/agc-sarif/findings"

	"strings"
	"testing"
)

func TestRepoPath(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"src/a.go", "src/a.go", ""},
		{"./src//b/../a.go", "src/a.go", ""},
		{`src\win\a.go`, "src/win/a.go", ""},
		{"", "", "no path"},
		{"/etc/passwd", "", "is absolute"},
		{"C:/x.go", "", "is absolute"},
		{"../x", "", "escapes the repository"},
		{"a/../../x", "", "escapes the repository"},
		{"file:///x", "", "is a URI"},
		{"git://h/x", "", "is a URI"},
		{"./", "", "names the repository root"},
		{"a\x00b", "", "control characters"},
		{"a\xffb", "", "invalid UTF-8"},
	}
	for _, tc := range tests {
		got, err := repoPath(tc.in)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("repoPath(%q) = %q, %v; want %q, error containing %q", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestURIOf(t *testing.T) {
	tests := []struct{ in, want string }{
		{"src/a.go", "src/a.go"},
		{"a b/c#d?e", "a%20b/c%23d%3Fe"},
		{"x:y/%", "x%3Ay/%25"},
		{"ü.md", "%C3%BC.md"},
	}
	for _, tc := range tests {
		if got := uriOf(tc.in); got != tc.want {
			t.Errorf("uriOf(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMarkdownHelpers(t *testing.T) {
	tests := []struct{ name, got, want string }{
		{"code plain", mdCode("Bash.command"), "`Bash.command`"},
		{"code with backticks", mdCode("a `b` c"), "``a `b` c``"},
		{"code starting with backtick", mdCode("`x"), "`` `x ``"},
		{"code empty", mdCode(""), "`  `"},
		{"code newline", mdCode("a\nb"), "`a b`"},
		{"block plain", mdBlock("ls\n"), "```\nls\n```"},
		{"block with fence", mdBlock("```\nx\n````"), "`````\n```\nx\n````\n`````"},
		{"escape", mdEscape("<a href=x>*b*</a> _c_ [d](e) `f` | & \\"), "\\<a href=x\\>\\*b\\*\\</a\\> \\_c\\_ \\[d\\](e) \\`f\\` \\| \\& \\\\"},
		{"escape list start", mdEscape("- item\nnext"), "\\- item next"},
		{"cut short", findings.Cut("héllo", 10), "héllo"},
		{"cut exact", findings.Cut("héllo", 5), "héllo"},
		{"cut long", findings.Cut("héllo wörld", 5), "héll…"},
		{"pascal", pascalCase("workstream-isolation/main-checkout-access"), "WorkstreamIsolationMainCheckoutAccess"},
		{"pascal hook", pascalCase("hook/guard.sh"), "HookGuardSh"},
		{"pascal empty", pascalCase("/-/"), "Rule"},
		{"pascal long", pascalCase(strings.Repeat("a-", 300))[:4], "AAAA"},
		{"category default", normalCategory(""), "agc/"},
		{"category slash added", normalCategory("agent-guard"), "agent-guard/"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
	if n := len([]rune(pascalCase(strings.Repeat("ab-", 200)))); n > maxRuleName {
		t.Errorf("pascalCase gives %d runes, over %d", n, maxRuleName)
	}
}

// A root that cannot be opened is not fatal: results get no line hash and a notification says why.
func TestMissingRoot(t *testing.T) {
	opts := testOptions("/nonexistent/agc-sarif-root")
	_, _, doc := written(t, []findings.Finding{finding("g/r", findings.Error, "a.go", 1)}, opts)
	run := run0(t, doc)
	res := list(t, run, "results")[0].(map[string]any)
	if _, has := res["partialFingerprints"].(map[string]any)["primaryLocationLineHash"]; has {
		t.Error("line hash without a readable root")
	}
	if !containsSubstring(notificationTexts(t, run), "repository root /nonexistent/agc-sarif-root") {
		t.Errorf("notifications %q do not name the root", notificationTexts(t, run))
	}
}

// refMdEscape is mdEscape as it was written first, rune by rune with strings.ContainsRune: the
// table-driven one is checked against it.
func refMdEscape(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case strings.ContainsRune("\\`*_[]<>#|~&", r), i == 0 && strings.ContainsRune("-+=", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestMdEscapeEveryByte puts every byte value first, inside and last in a text, and checks
// mdEscape against refMdEscape (and needsEscape against whether it changed anything).
func TestMdEscapeEveryByte(t *testing.T) {
	for c := range 256 {
		for _, s := range []string{string(rune(c)), string([]byte{byte(c)}), "ab" + string([]byte{byte(c)}) + "cd", "x é " + string([]byte{byte(c)})} {
			want := refMdEscape(s)
			if got := mdEscape(s); got != want {
				t.Errorf("mdEscape(%q) = %q, want %q", s, got, want)
			}
			if needsEscape(s) != (want != s) {
				t.Errorf("needsEscape(%q) = %v, but the escaped text is %q", s, needsEscape(s), want)
			}
		}
	}
}
