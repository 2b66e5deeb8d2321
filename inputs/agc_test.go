package inputs

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
)

const (
	agcBlock  = `{"agc":"0.1","gate":{"id":"secrets","kind":"runtime"},"verdict":"block","findings":[{"rule":"dotenv-read","message":"Reading .env exposes credentials.","target":"Read.file_path","location":{"path":"config/.env","line":1}}]}`
	agcPass   = `{"agc":"0.1","gate":{"id":"secrets","kind":"runtime"},"verdict":"pass","findings":[]}`
	agcSteer  = `{"agc":"0.1","gate":{"id":"style","kind":"runtime"},"verdict":"steer","findings":[{"rule":"prefer-rg","message":"Use rg."}],"subject":{"runtime":"claude-code","event":"PreToolUse","tool":"Bash","tool_use_id":"toolu_1","session_id":"s1"}}`
	agcText   = "AGC repaired: workstream-isolation/main-checkout-access/Bash.command — the command now runs in the workstream."
	agcPretty = "{\n  \"agc\": \"0.1\",\n  \"gate\": {\"id\": \"style\", \"kind\": \"runtime\"},\n  \"verdict\": \"steer\",\n  \"findings\": [{\"rule\": \"prefer-rg\", \"message\": \"Use rg.\"}]\n}"
)

func TestSniffAGC(t *testing.T) {
	tests := []struct {
		name string
		head string
		want bool
	}{
		{"object", agcBlock, true},
		{"pretty, leading space and BOM", "\xef\xbb\xbf \n" + agcPretty, true},
		{"array", "[" + agcBlock + "]", true},
		{"text form", agcText + "\n", true},
		{"agc only as a value", `{"name":"agc","version":"1.0"}`, false},
		{"SARIF log", `{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"properties":{"agc":"0.1"}}]}`, false},
		{"markdown", "# Review\n\n" + agcText, false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		if got := sniffAGC(NewHead([]byte(tt.head))); got != tt.want {
			t.Errorf("%s: sniffAGC = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// readAGC runs the AGC reader over content and checks that every record is accounted for.
func readAGC(t *testing.T, content io.Reader, opts Options) *findings.Set {
	opts = withTestRegistry(opts)
	t.Helper()
	set := findings.NewSet()
	if err := (agcReader{}).Read(context.Background(), Input{Name: "guard.jsonl", R: content}, opts, set); err != nil {
		t.Fatalf("Read: %v", err)
	}
	if set.Records != set.Used+set.Skipped() {
		t.Fatalf("%d records read but %d used + %d skipped", set.Records, set.Used, set.Skipped())
	}
	return set
}

func TestAGCReader(t *testing.T) {
	type want struct {
		records, used int
		rules         []string // rule ids of the findings, in order
		lines         []int    // source lines of the findings
		skips         map[string]int
		problems      []string // substrings of the problems, in order, each "line: text"
	}
	tests := []struct {
		name string
		in   string
		want want
	}{
		{"JSONL", agcBlock + "\n" + agcPass + "\n\n" + agcSteer + "\n",
			want{records: 3, used: 2, rules: []string{"secrets/dotenv-read", "style/prefer-rg"}, lines: []int{1, 4}, skips: map[string]int{"pass verdict": 1}}},
		{"one document", agcPretty, want{records: 1, used: 1, rules: []string{"style/prefer-rg"}, lines: []int{1}}},
		{"pretty values one after another", agcPretty + "\n" + agcPretty + "\n",
			want{records: 2, used: 2, rules: []string{"style/prefer-rg", "style/prefer-rg"}, lines: []int{1, 7}}},
		{"array of responses, each at its line", "[\n" + agcBlock + ",\n" + agcPass + ",\n  " + agcSteer + "\n]",
			want{records: 3, used: 2, rules: []string{"secrets/dotenv-read", "style/prefer-rg"}, lines: []int{2, 4}, skips: map[string]int{"pass verdict": 1}}},
		{"indented array after blank lines", "\n\n[\n  " + agcBlock + ",\n  " + agcSteer + "\n]",
			want{records: 2, used: 2, rules: []string{"secrets/dotenv-read", "style/prefer-rg"}, lines: []int{4, 5}}},
		{"blank lines before JSONL", "\n\n" + agcBlock + "\n" + agcSteer,
			want{records: 2, used: 2, rules: []string{"secrets/dotenv-read", "style/prefer-rg"}, lines: []int{3, 4}}},
		{"JSON lines of arrays", "[" + agcBlock + "]\n[" + agcSteer + "]\n",
			want{records: 2, used: 2, rules: []string{"secrets/dotenv-read", "style/prefer-rg"}, lines: []int{1, 2}}},
		{"response as a JSON string", strconvQuote(agcBlock) + "\n" + strconvQuote(agcText) + "\n" + `"just words"`,
			want{records: 3, used: 2, rules: []string{"secrets/dotenv-read", "workstream-isolation/main-checkout-access"}, lines: []int{1, 2}, skips: map[string]int{"not an AGC response": 1}, problems: []string{"guard.jsonl:3: neither JSON nor"}}},
		{"empty array", "[]", want{records: 1, skips: map[string]int{"empty array": 1}}},
		{"text-form line", agcBlock + "\n" + agcText + "\n",
			want{records: 2, used: 2, rules: []string{"secrets/dotenv-read", "workstream-isolation/main-checkout-access"}, lines: []int{1, 2}}},
		{"malformed JSON is a contract finding", agcBlock + "\n" + `{"agc":"0.1","gate":{"id":"x"},oops}` + "\n" + agcSteer,
			want{records: 3, used: 3, rules: []string{"secrets/dotenv-read", "agc/invalid-json", "style/prefer-rg"}, lines: []int{1, 2, 3}}},
		{"cut-off last line", agcBlock + "\n" + agcSteer[:40],
			want{records: 2, used: 1, rules: []string{"secrets/dotenv-read"}, lines: []int{1}, skips: map[string]int{"cut short": 1}, problems: []string{"guard.jsonl:2: the JSON value starting here is cut short"}}},
		{"invalid UTF-8", agcBlock + "\n" + strings.Replace(agcSteer, "Use rg.", "Use rg.\xff", 1) + "\n" + agcSteer,
			want{records: 3, used: 2, rules: []string{"secrets/dotenv-read", "style/prefer-rg"}, lines: []int{1, 3}, skips: map[string]int{"invalid UTF-8": 1}, problems: []string{"guard.jsonl:2: not valid UTF-8"}}},
		{"binary", "\x00\x01\x02ELF\n" + agcBlock,
			want{records: 2, used: 1, rules: []string{"secrets/dotenv-read"}, lines: []int{2}, skips: map[string]int{"binary data": 1}, problems: []string{"guard.jsonl:1: binary data"}}},
		{"empty file", "", want{problems: []string{"guard.jsonl: empty file"}}},
		{"blank lines only", "\n \n\n", want{problems: []string{"guard.jsonl: empty file"}}},
		{"other JSON", `{"name":"x"}` + "\n" + agcBlock,
			want{records: 2, used: 1, rules: []string{"secrets/dotenv-read"}, lines: []int{2}, skips: map[string]int{"not an AGC response": 1}, problems: []string{"guard.jsonl:1: a JSON object with none of the AGC fields"}}},
		{"prose line", "hello there\n" + agcBlock,
			want{records: 2, used: 1, rules: []string{"secrets/dotenv-read"}, lines: []int{2}, skips: map[string]int{"not an AGC response": 1}, problems: []string{`guard.jsonl:1: neither JSON nor an AGC text line: "hello there"`}}},
		{"schema breach at its line in a pretty value", "{\n\"agc\": \"0.1\",\n\"gate\": {\"id\": \"g\", \"kind\": \"runtime\"},\n\"verdict\": \"block\",\n\"findings\": [{\"rule\": \"R\", \"message\": \"m\"}]\n}",
			want{records: 1, used: 1, rules: []string{"agc/schema"}, lines: []int{5}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := readAGC(t, strings.NewReader(tt.in), Options{Registry: testRegistry})
			checkSet(t, set, tt.want.records, tt.want.used, tt.want.rules, tt.want.lines, tt.want.skips, tt.want.problems)
		})
	}
}

// checkSet compares a set with what a test wants.
func checkSet(t *testing.T, set *findings.Set, records, used int, rules []string, lines []int, skips map[string]int, problems []string) {
	t.Helper()
	if set.Records != records || set.Used != used {
		t.Errorf("records %d used %d, want %d and %d", set.Records, set.Used, records, used)
	}
	var gotRules []string
	var gotLines []int
	for _, f := range set.Findings {
		gotRules = append(gotRules, f.RuleID)
		gotLines = append(gotLines, f.Source.Line)
		if f.Source.File == "" {
			t.Errorf("finding %s without a file", f.RuleID)
		}
	}
	if strings.Join(gotRules, ",") != strings.Join(rules, ",") {
		t.Errorf("rules %v, want %v", gotRules, rules)
	}
	if len(lines) > 0 && !equalInts(gotLines, lines) {
		t.Errorf("lines %v, want %v", gotLines, lines)
	}
	for r, n := range skips {
		if set.Skips[r] != n {
			t.Errorf("skips %v, want %v", set.Skips, skips)
			break
		}
	}
	if len(set.Problems) != len(problems) {
		t.Fatalf("problems %v, want %d like %v", set.Problems, len(problems), problems)
	}
	for i, p := range problems {
		if !strings.Contains(set.Problems[i].String(), p) {
			t.Errorf("problem %q does not contain %q", set.Problems[i].String(), p)
		}
	}
}

func strconvQuote(s string) string { return strconv.Quote(s) }

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestAGCReaderHugeLine(t *testing.T) {
	huge := `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"steer","findings":[{"rule":"r","message":"` +
		strings.Repeat("x", 50<<20) + `"}]}`
	in := io.MultiReader(strings.NewReader(agcBlock+"\n"), strings.NewReader(huge), strings.NewReader("\n"+agcSteer+"\n"))
	set := readAGC(t, in, Options{Registry: testRegistry})
	checkSet(t, set, 3, 2, []string{"secrets/dotenv-read", "style/prefer-rg"}, []int{1, 3},
		map[string]int{"too long": 1}, []string{"guard.jsonl:2: line longer than the record limit"})
}

func TestAGCReaderCapsRepeatedProblems(t *testing.T) {
	in := strings.Repeat("not json\n", 25) + agcBlock
	set := readAGC(t, strings.NewReader(in), Options{Registry: testRegistry})
	if set.Records != 26 || set.Used != 1 || set.Skips["not an AGC response"] != 25 {
		t.Errorf("records %d used %d skips %v", set.Records, set.Used, set.Skips)
	}
	if len(set.Problems) != maxProblemsPerReason+1 || !strings.Contains(set.Problems[maxProblemsPerReason].Message, "15 more records") {
		t.Errorf("%d problems, last %v", len(set.Problems), set.Problems[len(set.Problems)-1])
	}
}

func TestAGCReaderEventKey(t *testing.T) {
	set := readAGC(t, strings.NewReader(agcSteer+"\n"+agcSteer+"\n"), Options{Registry: testRegistry})
	if len(set.Findings) != 1 || set.Duplicates != 1 {
		t.Errorf("the same event twice: %d findings, %d duplicates; want 1 and 1", len(set.Findings), set.Duplicates)
	}
	if c := set.Findings[0].Call; c == nil || c.ToolUseID != "toolu_1" || c.Tool != "Bash" {
		t.Errorf("call %+v", c)
	}
}

func TestAGCReaderCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	set := findings.NewSet()
	err := (agcReader{}).Read(ctx, Input{Name: "x.jsonl", R: strings.NewReader(agcBlock)}, Options{Registry: testRegistry}, set)
	if err == nil {
		t.Error("want an error from a cancelled context")
	}
}

func FuzzAGCReader(f *testing.F) {
	f.Add([]byte(agcBlock + "\n" + agcPass + "\n" + agcText))
	f.Add([]byte("[" + agcBlock + "," + agcSteer + "]"))
	f.Add([]byte(agcPretty + "\n" + agcPretty[:30]))
	f.Fuzz(func(t *testing.T, data []byte) {
		set := findings.NewSet()
		if err := (agcReader{}).Read(context.Background(), Input{Name: "f.jsonl", R: bytes.NewReader(data)}, Options{Registry: testRegistry, MaxRecord: 1 << 16}, set); err != nil {
			t.Fatalf("Read: %v", err)
		}
		if set.Records != set.Used+set.Skipped() {
			t.Fatalf("%d records but %d used + %d skipped", set.Records, set.Used, set.Skipped())
		}
		for _, p := range set.Problems {
			if p.Source.File != "f.jsonl" {
				t.Fatalf("problem without the file: %+v", p)
			}
		}
		for _, fd := range set.Findings {
			if fd.Source.Line < 1 {
				t.Fatalf("finding without a line: %+v", fd)
			}
		}
	})
}

// A response longer than the window but within the record limit is read from its skeleton: the
// finding keeps the head of its long message, and the rest of the line is never held.
func TestAGCReaderLongResponseWindowed(t *testing.T) {
	msg := "head of the message " + strings.Repeat("x", 5<<20)
	long := `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"steer","findings":[{"rule":"r","message":"` +
		msg + `","location":{"path":"a.go","line":7}}]}`
	in := io.MultiReader(strings.NewReader(long), strings.NewReader("\n"+agcSteer+"\n"))
	set := readAGC(t, in, Options{Registry: testRegistry, MaxRecord: 64 << 20})
	checkSet(t, set, 2, 2, []string{"g/r", "style/prefer-rg"}, []int{1, 2}, nil, nil)
	got := set.Findings[0]
	if !strings.HasPrefix(got.Message, "head of the message xxx") || len(got.Message) > ElideKeep {
		t.Errorf("message: %d bytes starting %.30q; want the head, at most %d bytes", len(got.Message), got.Message, ElideKeep)
	}
	if got.Location.Path != "a.go" || got.Location.StartLine != 7 {
		t.Errorf("location %+v; want a.go:7 (the fields after the long string survive)", got.Location)
	}
}
