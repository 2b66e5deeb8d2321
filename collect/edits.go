package collect

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

	"github.com/agc-sarif/agc-sarif/anchor"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// The readers hand over the edit calls of the sessions as they read (inputs.Options.Edits), files
// and parts of one file at once. Each edit is placed in the change at once and only its place is
// kept; when the reading is done the places are handed to the anchorer in the order of the
// inputs, then of the lines within one (keep), as one read of the files in order would give them.

// editGather gathers the places of the edits the readers find.
type editGather struct {
	anc     *anchor.Anchorer
	index   map[string]int // input file name → its place among the inputs
	mu      sync.Mutex
	places  []placedEdit
	trimmed int // places past anchor.MaxEdits let go while reading
}

// placedEdit is an edit's place with the order it was read in.
type placedEdit struct {
	file, line, index int
	place             anchor.EditPlace
}

// newEditGather gathers the edits of files for anc.
func newEditGather(anc *anchor.Anchorer, files []file) *editGather {
	g := &editGather{anc: anc, index: make(map[string]int, len(files))}
	for i, f := range files {
		if _, ok := g.index[f.Name]; !ok {
			g.index[f.Name] = i
		}
	}
	return g
}

// receive places one edit call a reader found (inputs.Options.Edits); safe for concurrent use.
func (g *editGather) receive(e inputs.EditCall) {
	p, ok := g.anc.PlaceEdit(anchor.Edit{Session: e.Session, Tool: e.Tool, Source: e.Source, Time: e.Time, Cwd: e.Cwd, Input: e.Input})
	if !ok {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.places = append(g.places, placedEdit{file: g.index[e.Source.File], line: e.Source.Line, index: e.Index, place: p})
	if len(g.places) > 2*anchor.MaxEdits {
		g.trimmed += g.order(anchor.MaxEdits)
	}
}

// order sorts the places as the inputs are ordered, drops those read twice (a part of a hook log
// read again whole) and keeps the first max; it returns how many it let go past max.
func (g *editGather) order(max int) int {
	slices.SortStableFunc(g.places, func(a, b placedEdit) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line), cmp.Compare(a.index, b.index))
	})
	g.places = slices.CompactFunc(g.places, func(a, b placedEdit) bool {
		return a.file == b.file && a.line == b.line && a.index == b.index
	})
	if len(g.places) <= max {
		return 0
	}
	n := len(g.places) - max
	g.places = slices.Clip(g.places[:max])
	return n
}

// keep hands the places to the anchorer in order, once the reading is done, and says on stderr
// how many were not used.
func (g *editGather) keep(cfg Config) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.trimmed += g.order(anchor.MaxEdits)
	for _, p := range g.places {
		g.anc.KeepEdit(p.place)
	}
	g.places = nil
	g.anc.DropEdits(g.trimmed)
	if n := g.anc.EditsDropped(); n > 0 {
		fmt.Fprintf(cfg.Stderr, "agc-sarif: %d edits past the first %d were not used for anchoring\n", n, anchor.MaxEdits)
	}
}
