package command

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/runtimes"
)

var update = flag.Bool("update", false, "rewrite golden files and generated README sections")

// checksTable renders the contract checks as the README's Markdown table.
func checksTable() string {
	var b strings.Builder
	b.WriteString("| rule | binding | level | what broke | how to fix |\n|---|---|---|---|---|\n")
	for _, c := range runtimes.Checks() {
		fix := strings.ReplaceAll(c.Fix, "|", `\|`)
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", c.ID, c.Binding, c.Level, strings.ReplaceAll(c.Short, "|", `\|`), fix)
	}
	return b.String()
}

// TestReadmeChecks keeps the table of contract checks in docs/contract.md equal to runtimes.Checks().
func TestReadmeChecks(t *testing.T) {
	const start, end = "<!-- checks:start -->\n", "<!-- checks:end -->"
	const page = "../docs/contract.md"
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i, j := strings.Index(s, start), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the %q … %q markers", page, start, end)
	}
	want := checksTable()
	got := s[i+len(start) : j]
	if got == want {
		return
	}
	if *update {
		s = s[:i+len(start)] + want + s[j:]
		if err := os.WriteFile(page, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/contract.md's table of contract checks is out of date with the check rows (gates/checks.go, runtimes/*/checks.go); run: go test ./command -run TestReadmeChecks -update")
}

// TestReadmeFormats keeps the --format list of "The command line" in docs/inputs.md equal to
// the formats collect accepts (runtimes.Inputs().Names(), in detection order).
func TestReadmeFormats(t *testing.T) {
	data, err := os.ReadFile("../docs/inputs.md")
	if err != nil {
		t.Fatal(err)
	}
	const flag = "    --format "
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, flag); ok && strings.HasPrefix(rest, "auto|") {
			if got, want := strings.TrimSpace(rest), formatList(); got != want {
				t.Errorf("docs/inputs.md's collect --format list is %s; runtimes.Inputs().Names() is %s", got, want)
			}
			return
		}
	}
	t.Errorf("docs/inputs.md has no line %q listing the formats", flag+"auto|…")
}

// TestActionFormats keeps the format input's description in action.yml naming every format.
func TestActionFormats(t *testing.T) {
	data, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	if want := "one of " + formatList() + "."; !strings.Contains(string(data), want) {
		t.Errorf("action.yml's format description does not list the formats collect accepts: want %q in it", want)
	}
}

// readmeSection returns the text between the start and end markers of README.md, and the file.
func readmeSection(t *testing.T, start, end string) (string, string, int, int) {
	t.Helper()
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i, j := strings.Index(s, start), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the %q … %q markers", start, end)
	}
	return s, s[i+len(start) : j], i + len(start), j
}

// reviewerSees is the README's "What a reviewer sees": the first annotation of the preview of
// testdata/examples as the runner reads it, then the top of its job summary (title, why the step
// failed, and the first rows of the first table of findings) quoted, so that GitHub renders it.
func reviewerSees(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var stderr bytes.Buffer
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	env := Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr, Dir: root,
		Getenv: func(string) string { return "" }}
	code := Main(context.Background(), []string{"agc-sarif", "collect", "-o", filepath.Join(dir, "x.sarif"),
		"--preview", filepath.Join(dir, "p"), "testdata/examples"}, env)
	if code != ExitFail {
		t.Fatalf("collect --preview testdata/examples exited %d, want 1:\n%s", code, stderr.String())
	}
	ann, err := os.ReadFile(filepath.Join(dir, "p", "annotations.txt"))
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "p", "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(ann), "\n")
	var b strings.Builder
	b.WriteString("\n```text\n" + first + "\n```\n\n")
	// the same annotation decoded: its title, then the alert text it shares with code scanning
	props, msg, ok := strings.Cut(strings.TrimPrefix(first, "::error "), "::")
	_, title, _ := strings.Cut(props, "title=")
	if !ok || title == "" {
		t.Fatalf("the first annotation is not an error with a title: %s", first)
	}
	decode := strings.NewReplacer("%0A", "\n", "%0D", "", "%3A", ":", "%2C", ",", "%25", "%")
	b.WriteString("Decoded, as the diff shows it (the alert's message is the same text):\n\n```text\n" +
		decode.Replace(title) + "\n\n" + decode.Replace(msg) + "\n```\n\nThe job summary:\n\n")
	lines := strings.Split(string(md), "\n")
	var keep []string
	for _, l := range lines {
		if strings.HasPrefix(l, "SARIF: ") {
			break
		}
		keep = append(keep, l)
	}
	rows := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "| Verdict | Rule |") {
			keep = append(keep, lines[i-2], "", l, lines[i+1])
			for _, r := range lines[i+2:] {
				if !strings.HasPrefix(r, "|") || rows == 3 {
					break
				}
				keep = append(keep, r)
				rows++
			}
			break
		}
	}
	if rows == 0 {
		t.Fatalf("no table of findings in the summary:\n%s", md)
	}
	for _, l := range keep {
		if l == "" {
			b.WriteString(">\n")
			continue
		}
		b.WriteString("> " + l + "\n")
	}
	return b.String()
}

// TestReadmeReviewerSees keeps the README's example of what a reviewer sees equal to what the
// preview makes of testdata/examples today.
func TestReadmeReviewerSees(t *testing.T) {
	keepReadmeSection(t, "reviewer-sees", "\"What a reviewer sees\"", "TestReadmeReviewerSees", reviewerSees(t))
}

// keepReadmeSection fails unless the README's section between <!-- NAME:start --> and
// <!-- NAME:end --> is want; with -update it writes want there.
func keepReadmeSection(t *testing.T, name, what, test, want string) {
	t.Helper()
	s, got, i, j := readmeSection(t, "<!-- "+name+":start -->", "<!-- "+name+":end -->")
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile("../README.md", []byte(s[:i]+want+s[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's %s is out of date; run: go test ./command -run %s -update\nwant:\n%s", what, test, want)
}

// actionYMLInputs reads action.yml's inputs, in order, with their defaults (unquoted): the keys
// indented two spaces under "inputs:", and each one's "default:" line.
func actionYMLInputs(t *testing.T) ([]string, map[string]string) {
	t.Helper()
	data, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	defaults := map[string]string{}
	in := false
	for line := range strings.Lines(string(data)) {
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "inputs:":
			in = true
		case in && line != "" && !strings.HasPrefix(line, " "):
			in = false
		case in && strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") && strings.HasSuffix(line, ":"):
			names = append(names, strings.TrimSuffix(strings.TrimSpace(line), ":"))
		case in && len(names) > 0 && strings.HasPrefix(line, "    default:"):
			d := strings.TrimSpace(strings.TrimPrefix(line, "    default:"))
			if len(d) >= 2 && (d[0] == '\'' || d[0] == '"') {
				d = d[1 : len(d)-1]
			}
			defaults[names[len(names)-1]] = d
		}
	}
	if len(names) == 0 {
		t.Fatal("action.yml has no inputs")
	}
	return names, defaults
}

// TestReadmeInputsTable keeps the README's table of inputs equal to action.yml: every input
// named once, none that action.yml lacks, each with its default when action.yml gives a literal.
func TestReadmeInputsTable(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, "| input | default | meaning |")
	if i < 0 {
		t.Fatal("README.md has no table of inputs (| input | default | meaning |)")
	}
	rows := map[string]string{} // input → default cell
	for _, line := range strings.Split(s[i:], "\n")[2:] {
		if !strings.HasPrefix(line, "| ") {
			break
		}
		cells := strings.Split(line, " | ")
		for _, n := range strings.Split(cells[0][2:], ", ") {
			n = strings.Trim(n, "`")
			if _, dup := rows[n]; dup {
				t.Errorf("input %s is listed twice", n)
			}
			rows[n] = cells[1]
		}
	}
	names, defaults := actionYMLInputs(t)
	for _, n := range names {
		cell, ok := rows[n]
		if !ok {
			t.Errorf("README.md's table of inputs lacks %s", n)
			continue
		}
		if d := defaults[n]; d != "" && !strings.Contains(d, "${{") && cell != "`"+d+"`" {
			t.Errorf("README.md gives %s the default %s; action.yml says %q", n, cell, d)
		}
		delete(rows, n)
	}
	for n := range rows {
		t.Errorf("README.md's table of inputs lists %s, which action.yml does not have", n)
	}
}

// frictionArgs is the README's friction example: the real Claude Code habit replay, read from the
// repository's root.
var frictionArgs = []string{"friction", "--report", "text", "--root", "testdata/friction/habit/files",
	"testdata/friction/habit/session.jsonl", "testdata/friction/habit/stream.jsonl", "testdata/friction/habit/hook-log.jsonl"}

// frictionExample is the README's "Friction" example: the command, then what it prints.
func frictionExample(t *testing.T) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := Env{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Dir: ".."}
	if code := Main(context.Background(), append([]string{"agc-sarif"}, frictionArgs...), env); code != 0 || stderr.Len() > 0 {
		t.Fatalf("agc-sarif %s: exit %d\n%s", strings.Join(frictionArgs, " "), code, stderr.String())
	}
	return "\n```sh\ngo run ./cmd/agc-sarif " + strings.Join(frictionArgs, " ") + "\n```\n\n```text\n" + strings.TrimRight(stdout.String(), "\n") + "\n```\n"
}

// TestReadmeFriction keeps the README's friction report equal to what the command prints today.
func TestReadmeFriction(t *testing.T) {
	keepReadmeSection(t, "friction-report", "friction report", "TestReadmeFriction", frictionExample(t))
}
