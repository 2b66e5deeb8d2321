package anchor

import (
	"context"
	"os"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// readEdits reads the file at path, named name, with the reader of format as collect does with a
// diff, adds the edits the reader hands over (inputs.Options.Edits) to a, and returns how many
// stand in the diff.
func readEdits(ctx context.Context, a *Anchorer, format inputs.Format, name, path string) (int, error) {
	r, err := inputs.ReaderFor(format)
	if err != nil {
		return 0, err
	}
	fh, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer fh.Close()
	n := 0
	opts := inputs.Options{Edits: func(e inputs.EditCall) {
		if a.AddEdit(Edit{Session: e.Session, Tool: e.Tool, Source: e.Source, Time: e.Time, Cwd: e.Cwd, Input: e.Input}) {
			n++
		}
	}}
	err = r.Read(ctx, inputs.Input{Name: name, R: fh, Named: true}, opts, findings.NewSet())
	return n, err
}
