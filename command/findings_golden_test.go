package command

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/internal/corpus"
)

// updateFindingsGolden rewrites testdata/findings-golden. Run it only on main before a speed
// change (so the goldens hold what the code gave before), never to make a change pass. A change
// meant to change findings (new testdata, a binding's fix) rewrites only its own cases
// (-run 'TestFindingsGolden/NAME') and says why in its commit, so that the diff shows them.
var updateFindingsGolden = flag.Bool("update-findings-golden", false,
	"rewrite testdata/findings-golden from the current code (only on main before a speed change, never to make a change pass)")

// findingsGoldenDir holds one golden digest per collected case.
const findingsGoldenDir = "testdata/findings-golden"

// testdataSets says how TestFindingsGolden collects each folder under the repository's testdata:
// "whole" (the folder at once), "each" (the folder at once and each entry in it on its own),
// "checkout" (as "each", with the folder as the root: a runtime's records beside its project
// settings, such as .qwen/settings.json, that place the findings), "root:SUB" (the folder's SUB,
// a checkout, collected whole as its own root), or why the folder
// holds no collect inputs. A folder missing here fails the test.
var testdataSets = map[string]string{
	"examples":  "whole",
	"samples":   "whole",
	"claude":    "each",
	"codex":     "each",
	"gemini":    "each",
	"copilot":   "each",
	"qwen":      "checkout",
	"cline":     "checkout",
	"opencode":  "checkout",
	"kilo":      "checkout",
	"droid":     "checkout",
	"crush":     "checkout",
	"friction":  "each",
	"contract":  "each",
	"action":    "root:workspace",
	"review":    "whole",
	"workflows": "not inputs: workflow YAML for the workflow tests",
}

// findingsCase is one collect run: its golden name, the root and the arguments after collect's
// flags; or, for a generated corpus, its kind and file sizes (generated when the case runs).
type findingsCase struct {
	name  string
	root  string
	args  []string
	kind  corpus.Kind
	sizes []int64
}

// findingDigest is one SARIF result, compactly: what the bindings decide (goldenResult), the
// message (cut at 200 characters, with a hash of the whole when cut), hashes of the Markdown
// message and of all properties, and the partial fingerprints.
type findingDigest struct {
	goldenResult
	Message      string            `json:"message"`
	MessageHash  string            `json:"messageSha256,omitempty"`
	MarkdownHash string            `json:"markdownSha256"`
	PropsHash    string            `json:"propsSha256"`
	Fingerprints map[string]string `json:"fingerprints"` // the partial fingerprints but agcFindingKey/v1 (Key)
}

// findingsDigest is what one collect run gave: its findings in output order, its notifications
// (skipped records with their reasons, inputs passed over) and the counts it printed.
type findingsDigest struct {
	Inputs        []string        `json:"inputs"`
	Counts        []string        `json:"counts"`
	Notifications []string        `json:"notifications"`
	Findings      []findingDigest `json:"findings"`
}

// TestFindingsGolden: collect gives the same findings, skips and counts as the code gave when
// the goldens were written (before the speed work recorded in docs/performance.md), over every testdata input folder
// and a generated corpus of each kind, compared as decoded JSON.
func TestFindingsGolden(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	cases := append(testdataCases(t, root), corpusCases()...)
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c.name+".json"] = true
		t.Run(c.name, func(t *testing.T) { checkFindingsGolden(t, c) })
	}
	if *updateFindingsGolden {
		return
	}
	files, err := os.ReadDir(findingsGoldenDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !seen[f.Name()] {
			t.Errorf("%s/%s: no case gives this golden any more (was a testdata folder removed?)", findingsGoldenDir, f.Name())
		}
	}
}

// testdataCases walks the repository's testdata folders as testdataSets says.
func testdataCases(t *testing.T, root string) []findingsCase {
	t.Helper()
	tops, err := os.ReadDir(filepath.Join(root, "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []findingsCase
	for _, top := range tops {
		if !top.IsDir() {
			continue
		}
		how, ok := testdataSets[top.Name()]
		if !ok {
			t.Errorf("testdata/%s is not covered by TestFindingsGolden: add it to testdataSets and write its goldens from main", top.Name())
			continue
		}
		dir := "testdata/" + top.Name()
		switch how {
		case "whole":
			cases = append(cases, findingsCase{name: top.Name(), root: root, args: []string{dir}})
		case "each":
			cases = append(cases, findingsCase{name: top.Name(), root: root, args: []string{dir}})
			cases = append(cases, entryCases(t, root, dir)...)
		case "checkout":
			cases = append(cases, findingsCase{name: top.Name(), root: filepath.Join(root, dir), args: []string{"."}})
			for _, c := range entryCases(t, root, dir) {
				c.root, c.args = filepath.Join(root, dir), []string{strings.TrimPrefix(c.args[0], dir+"/")}
				cases = append(cases, c)
			}
		default:
			if sub, ok := strings.CutPrefix(how, "root:"); ok {
				cases = append(cases, findingsCase{name: top.Name() + "-" + sub, root: filepath.Join(root, dir, sub), args: []string{"."}})
			}
		}
	}
	return cases
}

// entryCases is one case per entry of dir (folder or file), leaving out its README and scripts.
// A contract case's Markdown input is named with --judgment, as a reviewer's output is.
func entryCases(t *testing.T, root, dir string) []findingsCase {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(root, dir))
	if err != nil {
		t.Fatal(err)
	}
	var cases []findingsCase
	for _, e := range entries {
		if e.Name() == "README.md" || strings.HasSuffix(e.Name(), ".sh") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := dir + "/" + e.Name()
		args := []string{p}
		if md := filepath.Join(root, p, "input.md"); strings.HasSuffix(dir, "/contract") && fileExists(md) {
			args = []string{"--judgment", p + "/input.md"}
		}
		name := strings.ReplaceAll(strings.TrimPrefix(p, "testdata/"), "/", "-")
		cases = append(cases, findingsCase{name: name, root: root, args: args})
	}
	return cases
}

// fileExists reports whether p is a regular file.
func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// corpusFiles are the generated corpora, a file size per seed (1, 2, …). A file of 40 MiB is big
// enough that a reader cutting one file into chunks of 16 MiB (inputs.DefaultChunkSize on the
// chunks branch) reads it in parallel; transcripts are several files read at once, as
// scripts/bench.sh reads them; AGC responses are small (their findings do not merge, so the
// golden grows with them). Seeds are fixed, so the bytes are too.
var corpusFiles = []struct {
	kind  corpus.Kind
	sizes []int64
}{
	{corpus.Transcript, []int64{40 << 20, 4 << 20, 4 << 20, 4 << 20}},
	{corpus.StreamJSON, []int64{40 << 20}},
	{corpus.HookLog, []int64{40 << 20}},
	{corpus.AGC, []int64{2 << 20}},
}

// corpusCases are the generated corpora, one case per kind.
func corpusCases() []findingsCase {
	var cases []findingsCase
	for _, cf := range corpusFiles {
		cases = append(cases, findingsCase{name: "corpus-" + string(cf.kind), kind: cf.kind, sizes: cf.sizes})
	}
	return cases
}

// generate writes c's corpus into a temporary folder, the root of the case: a file per size,
// seeds 1, 2, ….
func (c *findingsCase) generate(t *testing.T) {
	t.Helper()
	c.root = t.TempDir()
	for i, size := range c.sizes {
		name := fmt.Sprintf("%s-%d.jsonl", c.kind, i+1)
		writeCorpus(t, filepath.Join(c.root, name), c.kind, size, int64(i+1))
		c.args = append(c.args, name)
	}
}

// writeCorpus writes a generated corpus of kind, size and seed to path.
func writeCorpus(t *testing.T, path string, kind corpus.Kind, size, seed int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = corpus.Generate(f, kind, size, seed)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// checkFindingsGolden collects c and compares its digest with the golden (or writes it).
func checkFindingsGolden(t *testing.T, c findingsCase) {
	if c.sizes != nil {
		c.generate(t)
	}
	got := digestCollect(t, c)
	file := filepath.Join(findingsGoldenDir, c.name+".json")
	if *updateFindingsGolden {
		if err := os.MkdirAll(findingsGoldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, compactDigest(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v: a new testdata folder? Write its golden with go test ./command -run 'TestFindingsGolden/%s$' -update-findings-golden, and review it", err, c.name)
	}
	var want findingsDigest
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: findings changed%s:\n got %s\nwant %s", c.name, orderHint(got, want), compactDigest(got), b)
	}
}

// orderHint says when only the order of the findings changed.
func orderHint(got, want findingsDigest) string {
	key := func(ds []findingDigest) []string {
		var ks []string
		for _, d := range ds {
			b, _ := json.Marshal(d)
			ks = append(ks, string(b))
		}
		sort.Strings(ks)
		return ks
	}
	g, w := got, want
	g.Findings, w.Findings = nil, nil
	if reflect.DeepEqual(g, w) && reflect.DeepEqual(key(got.Findings), key(want.Findings)) {
		return " (the same findings, in another order)"
	}
	return ""
}

// compactDigest writes d as JSON with one finding a line, so that a diff names the finding.
func compactDigest(d findingsDigest) []byte {
	var b bytes.Buffer
	head, _ := json.MarshalIndent(struct {
		Inputs        []string `json:"inputs"`
		Counts        []string `json:"counts"`
		Notifications []string `json:"notifications"`
	}{d.Inputs, d.Counts, d.Notifications}, "", " ")
	b.Write(head[:len(head)-2]) // up to the closing "\n}"
	b.WriteString(",\n \"findings\": [")
	for i, f := range d.Findings {
		if i > 0 {
			b.WriteByte(',')
		}
		line, _ := json.Marshal(f)
		b.WriteString("\n  ")
		b.Write(line)
	}
	b.WriteString("\n ]\n}\n")
	return b.Bytes()
}

// digestCollect runs agc-sarif collect on c and digests its SARIF and the counts it printed.
func digestCollect(t *testing.T, c findingsCase) findingsDigest {
	t.Helper()
	log, stderr := goldenCollectExit(t, c.root, ExitUsage, c.args...)
	d := findingsDigest{Inputs: c.args, Counts: []string{}, Notifications: []string{}, Findings: []findingDigest{}}
	for _, line := range strings.Split(stderr, "\n") {
		for _, p := range []string{"records read:", "files read:", "findings of events", "of the findings those records gave"} {
			if strings.HasPrefix(line, p) {
				d.Counts = append(d.Counts, line)
			}
		}
	}
	run := log.Runs[0]
	for _, inv := range run.Invocations {
		for _, n := range inv.Notes {
			d.Notifications = append(d.Notifications, n.Level+": "+n.Message.Text)
		}
	}
	for _, r := range run.Results {
		d.Findings = append(d.Findings, digestResult(r))
	}
	return d
}

// digestResult is the digest of one SARIF result.
func digestResult(r goldenSARIFResult) findingDigest {
	f := findingDigest{goldenResult: r.golden(), Message: r.Message.Text,
		MarkdownHash: shortHash(r.Message.Markdown), Fingerprints: map[string]string{}}
	if len(f.Message) > 200 {
		f.Message, f.MessageHash = strings.ToValidUTF8(f.Message[:200], "")+"…", shortHash(r.Message.Text)
	}
	props, _ := json.Marshal(r.Props) // map keys sorted: canonical
	f.PropsHash = shortHash(string(props))
	for k, v := range r.FP {
		if k != "agcFindingKey/v1" {
			f.Fingerprints[k] = v
		}
	}
	return f
}

// shortHash is the first 16 hex digits of s's SHA-256: enough to see that a text changed.
func shortHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:8])
}
