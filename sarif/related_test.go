package sarif

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// A finding anchored beside an edit carries its hook's line as a related location: SARIF writes
// it as relatedLocations, links it from message.text (GitHub shows related locations only when
// linked), and takes the finding key from it, so the key is the one the finding has at the
// hook's line.
func TestRelatedLocations(t *testing.T) {
	hook := findings.Location{Path: ".claude/settings.json", StartLine: 9}
	call := &findings.Call{Tool: "Bash", Command: "git push --force"}
	atHook := findings.Finding{RuleID: "git-safety/force-push", Gate: "git-safety", Rule: "force-push", Target: "Bash.command",
		Kind: findings.RuntimeGate, Verdict: gates.Block, Level: findings.Error, Message: "No force-push.", Call: call,
		Location: &hook, Anchored: "Anchored to the hook's line in .claude/settings.json: the call touched no file."}
	beside := atHook
	beside.Location = &findings.Location{Path: "src/app.py", StartLine: 4}
	beside.Anchored = "Anchored beside the agent's edit of src/app.py made just before this call; the call itself touched no file; its hook is configured at .claude/settings.json:9."
	beside.Related = []findings.Location{hook}
	unnamed := beside
	unnamed.Anchored = "Anchored beside an edit."
	unnamed.Related = []findings.Location{hook, {Path: "/etc/passwd", StartLine: 1}, {Path: "docs/a]b.md", StartLine: 2}}

	type result struct {
		Message struct {
			Text string `json:"text"`
		} `json:"message"`
		Related []struct {
			ID       int `json:"id"`
			Physical struct {
				Artifact struct {
					URI string `json:"uri"`
				} `json:"artifactLocation"`
				Region struct {
					StartLine int `json:"startLine"`
				} `json:"region"`
			} `json:"physicalLocation"`
			Message struct {
				Text string `json:"text"`
			} `json:"message"`
		} `json:"relatedLocations"`
		Fingerprints map[string]string `json:"partialFingerprints"`
	}
	var got []result
	for _, f := range []findings.Finding{atHook, beside, unnamed} {
		log, err := Build([]findings.Finding{f}, Options{ToolName: "agc-sarif", ToolVersion: "1"})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := log.Write(&buf); err != nil {
			t.Fatal(err)
		}
		checkSchema(t, buf.Bytes())
		var doc struct {
			Runs []struct {
				Results []result `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		got = append(got, doc.Runs[0].Results[0])
	}
	if len(got[0].Related) != 0 {
		t.Errorf("a finding without Related has relatedLocations: %+v", got[0].Related)
	}
	r := got[1]
	if len(r.Related) != 1 || r.Related[0].ID != 1 || r.Related[0].Physical.Artifact.URI != ".claude/settings.json" ||
		r.Related[0].Physical.Region.StartLine != 9 || r.Related[0].Message.Text != ".claude/settings.json:9" {
		t.Errorf("relatedLocations = %+v", r.Related)
	}
	if want := "its hook is configured at [.claude/settings.json:9](1)."; !bytes.Contains([]byte(r.Message.Text), []byte(want)) {
		t.Errorf("message %q does not link the related location as %q", r.Message.Text, want)
	}
	key := func(r result) string { return r.Fingerprints[fingerprintKey] }
	if key(got[0]) == "" || key(got[0]) != key(got[1]) || key(got[1]) != key(got[2]) {
		t.Errorf("keys differ: at the hook %s, beside the edit %s, %s", key(got[0]), key(got[1]), key(got[2]))
	}
	u := got[2]
	if len(u.Related) != 2 || u.Related[1].ID != 2 || u.Related[1].Physical.Artifact.URI != "docs/a%5Db.md" {
		t.Errorf("an absolute related path must be left out, others kept: %+v", u.Related)
	}
	if want := `Related: [.claude/settings.json:9](1), [docs/a\]b.md:2](2).`; !bytes.HasSuffix([]byte(u.Message.Text), []byte(want)) {
		t.Errorf("message %q does not end with %q", u.Message.Text, want)
	}
}
