package review

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/difffilter"
	"github.com/agc-sarif/agc-sarif/internal/secrettest"
	"github.com/agc-sarif/agc-sarif/redact"
)

// Secrets planted in a repair's after text, in the file's lines a suggestion keeps, and in a
// finding's message never reach a request body: every shape of the corpus, in each place.
func TestPlantedSecretsNeverSent(t *testing.T) {
	shapes := secrettest.Planted()
	var file strings.Builder
	var items []Item
	line := 0
	for i, s := range shapes {
		if !s.OneLine() {
			continue
		}
		// The repair rewrites "old" on a line that also holds the secret: the suggestion would
		// carry the rest of the line.
		line++
		fmt.Fprintf(&file, "x = old # %s\n", s.Text)
		items = append(items, Item{Key: key(2 * i), Title: "g: kept", Message: "m", Weight: 2, Path: "f.txt",
			StartLine: line, Edit: &Edit{Before: "old", After: "new"}})
		// The repair's after text holds the secret; so does the message (the redactor runs on it
		// again, whatever its caller did).
		line++
		fmt.Fprintf(&file, "y = old%d\n", i)
		items = append(items, Item{Key: key(2*i + 1), Title: "g: after", Message: "see " + s.Text, Weight: 3, Fails: true, Path: "f.txt",
			StartLine: line, Edit: &Edit{Before: fmt.Sprintf("old%d", i), After: s.Text}})
	}
	line++
	file.WriteString("x = old # clean\n")
	items = append(items, Item{Key: key(9999), Title: "g: clean", Message: "m", Weight: 1, Path: "f.txt",
		StartLine: line, Edit: &Edit{Before: "old", After: "new"}})
	text := addedDiff("f.txt", line)
	d, _ := difffilter.Parse(strings.NewReader(text))
	s, c := fake(t, text)
	opts := Options{Mode: Comments, Diff: d, Max: len(items), Redactor: redact.New(redact.Options{}),
		ReadFile: func(string) ([]byte, error) { return []byte(file.String()), nil }}
	if _, err := Run(context.Background(), c, target, items, opts); err != nil {
		t.Fatal(err)
	}
	noViolations(t, s)
	rv := s.Reviews()
	if len(rv) != 1 || len(rv[0].Comments) != len(items) {
		t.Fatalf("%d reviews; want 1 with %d comments (every planting posted)", len(rv), len(items))
	}
	sent := rv[0].Raw
	for _, sh := range shapes {
		if !sh.OneLine() {
			continue
		}
		if strings.Contains(sent, sh.Secret) || strings.Contains(sent, jsonQuoted(sh.Secret)) {
			t.Errorf("%s secret %q reached the review request", sh.Category, sh.Secret)
		}
	}
	if !strings.Contains(sent, "```suggestion\\nx = new # clean") {
		t.Error("no suggestion survived: the test plants nothing that a clean line would post")
	}
}

// jsonQuoted is s as it stands inside a JSON string.
func jsonQuoted(s string) string {
	q := fmt.Sprintf("%q", s)
	return q[1 : len(q)-1]
}
