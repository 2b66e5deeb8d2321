package corpus

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// pool is a few thousand lines of source-code-like text, already escaped for the inside of a
// JSON string, from which tool results and file contents are cut. Writing from it is a copy, so
// a 50 MB result costs what the disk costs.
type pool struct {
	lines [][]byte // escaped lines, each ending in the escaped newline `\n`
	raw   []string // the same lines unescaped, without the newline
	buf   []byte   // all escaped lines, one after the other
	off   []int    // off[i] is where line i starts in buf; off[len(lines)] == len(buf)
}

var words = strings.Fields(`func return if else for range err nil ctx context string int byte slice map
	struct type interface package import const var defer go select case switch break continue
	handler request response token session config path file line column value record reader writer
	buffer stream parse decode encode verdict gate finding repair block steer pass hook tool input
	output result error warning note test assert expect want got the a of to in is on with`)

var punct = []string{"(", ")", "{", "}", ", ", ".", " := ", " == ", " != ", `"`, `\`, "\t", "// ", "→", "é", "✓", "[]", ": "}

func newPool(rng *rand.Rand) *pool {
	p := &pool{}
	for i := 0; i < 4096; i++ {
		var b strings.Builder
		indent := rng.IntN(4)
		b.WriteString(strings.Repeat("\t", indent))
		n := 2 + rng.IntN(12)
		for j := 0; j < n; j++ {
			if j > 0 && rng.IntN(3) == 0 {
				b.WriteString(punct[rng.IntN(len(punct))])
			} else if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.IntN(len(words))])
		}
		raw := b.String()
		q, _ := json.Marshal(raw + "\n")
		p.raw = append(p.raw, raw)
		p.lines = append(p.lines, q[1:len(q)-1])
		p.off = append(p.off, len(p.buf))
		p.buf = append(p.buf, q[1:len(q)-1]...)
	}
	p.off = append(p.off, len(p.buf))
	return p
}

// text returns a few lines of plain text (for small results, commands and messages).
func (p *pool) text(rng *rand.Rand, lines int) string {
	var b strings.Builder
	for i := 0; i < lines; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.raw[rng.IntN(len(p.raw))])
	}
	return b.String()
}

// writeContent writes exactly n bytes of the inside of a JSON string, cut from the pool starting
// at line start, and returns n. Whole lines are copied in large runs; the last bytes are padding
// letters so that no escape is cut.
func (g *gen) writeContent(start, n int) int {
	p := g.pool
	left := n
	line := start % len(p.lines)
	for left > 0 {
		pos := p.off[line]
		// The last line boundary at or before pos+left.
		end := sort.SearchInts(p.off, pos+left+1) - 1
		if end <= line {
			g.writeString(strings.Repeat("x", left))
			break
		}
		g.write(p.buf[pos:p.off[end]])
		left -= p.off[end] - pos
		line = end % len(p.lines)
	}
	if n >= 4<<10 {
		g.st.BigBytes += int64(n)
	}
	return n
}

// template is a JSON record with placeholders where content is streamed in: the parts between.
type template [][]byte

// placeholder marks where writeRecord streams content into a marshalled record.
const placeholder = "@@CONTENT@@"

// newTemplate marshals v (which holds placeholder in one or more strings) and splits it there.
func (g *gen) newTemplate(v any) template {
	b, err := json.Marshal(v)
	if err != nil && g.err == nil {
		g.err = fmt.Errorf("corpus: %w", err)
	}
	parts := strings.Split(string(b), placeholder)
	t := make(template, len(parts))
	for i, s := range parts {
		t[i] = []byte(s)
	}
	return t
}

// writeRecord writes the template as one line, with n bytes of the same content (from pool line
// start) at every placeholder.
func (g *gen) writeRecord(t template, start, n int) {
	for i, part := range t {
		if i > 0 {
			g.writeContent(start, n)
		}
		g.write(part)
	}
	g.endLine()
}

// marshal writes v as one JSON line.
func (g *gen) marshal(v any) {
	b, err := json.Marshal(v)
	if err != nil && g.err == nil {
		g.err = fmt.Errorf("corpus: %w", err)
	}
	g.record(b)
}
