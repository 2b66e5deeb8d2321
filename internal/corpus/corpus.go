// Package corpus writes reproducible synthetic inputs for benchmarks and scale tests: Claude Code
// transcripts, stream-json, hook logs and AGC JSONL of a given size, from a seed. The mix follows
// the real samples: most bytes in large tool results and file contents, lines from a few bytes to
// 50 MB, about one hook record in twenty lines, AGC responses of every verdict and a few breaches.
// Generation streams: a big tool result is written in chunks and never held in memory. Shapes
// (GenerateShape) make other mixes: short lines only, hook records from one in 5 lines to one in 200.
package corpus

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Kind names what Generate writes.
type Kind string

// The kinds of corpus Generate writes.
const (
	Transcript Kind = "transcript"  // ~/.claude/projects/<project>/<session>.jsonl
	StreamJSON Kind = "stream-json" // claude -p --output-format stream-json --verbose --include-hook-events
	HookLog    Kind = "hook-log"    // JSONL written by agc-sarif record
	AGC        Kind = "agc"         // AGC responses, one per line
)

// Shape is how a corpus' lines are made: how long they are and how often a guard judges a call.
type Shape struct {
	Name string `json:"name"`
	// Short leaves out results over 4 KiB and the 50 MB lines: most lines are under 2 KB, as in
	// a real Claude Code transcript.
	Short bool `json:"short"`
	// Hooked of Of tool calls are judged by a guard (a hook log: 4×Hooked of Of PreToolUse
	// records carry an answer).
	Hooked int `json:"hooked"`
	Of     int `json:"of"`
}

// The shapes GenerateShape accepts. Mixed is the one Generate writes.
var (
	Mixed       = Shape{Name: "mixed", Hooked: 1, Of: 10}                      // 97% of bytes in big results, lines up to 50 MB
	Short       = Shape{Name: "short", Short: true, Hooked: 1, Of: 10}         // short lines, a hook record in ~19 lines
	ShortDense  = Shape{Name: "short-dense", Short: true, Hooked: 1, Of: 2}    // short lines, a hook record in ~5
	ShortSparse = Shape{Name: "short-sparse", Short: true, Hooked: 1, Of: 100} // short lines, a hook record in ~200
)

// Shapes lists the shapes GenerateShape accepts.
func Shapes() []Shape { return []Shape{Mixed, Short, ShortDense, ShortSparse} }

// ParseShape checks a shape name.
func ParseShape(s string) (Shape, error) {
	var names []string
	for _, sh := range Shapes() {
		if sh.Name == s {
			return sh, nil
		}
		names = append(names, sh.Name)
	}
	return Shape{}, fmt.Errorf("unknown corpus shape %q (want one of %v)", s, names)
}

// Kinds lists the kinds Generate accepts.
func Kinds() []Kind { return []Kind{Transcript, StreamJSON, HookLog, AGC} }

// ParseKind checks a kind name.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds() {
		if string(k) == s {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown corpus kind %q (want one of %v)", s, Kinds())
}

// Stats says what a generated corpus holds and what a collector should find in it.
type Stats struct {
	Kind        Kind  `json:"kind"`
	Shape       Shape `json:"shape"`
	Seed        int64 `json:"seed"`
	Bytes       int64 `json:"bytes"`
	Lines       int64 `json:"lines"`
	LongestLine int64 `json:"longest_line"`
	// BigBytes are the bytes of tool results, file contents and tool inputs of 4 KiB or more.
	BigBytes int64 `json:"big_bytes"`
	// HookRecords counts lines that carry a hook's answer (attachments, refusals, hook_response,
	// hook-log lines, AGC response lines).
	HookRecords int64 `json:"hook_records"`
	// Events counts hook invocations that carry an AGC response or failed; each is one event
	// however many records repeat it.
	Events int64 `json:"events"`
	// Findings are the gate findings a collector should report, by verdict (one per event).
	Findings map[string]int64 `json:"findings"`
	// Passes counts events whose verdict was pass (no finding).
	Passes int64 `json:"passes"`
	// Breaches are the contract findings a collector should report, by check id.
	Breaches map[string]int64 `json:"breaches"`
}

// Total is the number of findings expected: gate findings plus contract breaches.
func (s Stats) Total() int64 {
	var n int64
	for _, c := range s.Findings {
		n += c
	}
	for _, c := range s.Breaches {
		n += c
	}
	return n
}

// String is a one-line summary.
func (s Stats) String() string {
	kv := func(m map[string]int64) string {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b []string
		for _, k := range keys {
			b = append(b, k+"="+strconv.FormatInt(m[k], 10))
		}
		return strings.Join(b, " ")
	}
	return fmt.Sprintf("%s seed=%d bytes=%d lines=%d longest=%d big=%.1f%% hook_records=%d events=%d passes=%d findings[%s] breaches[%s]",
		s.Kind, s.Seed, s.Bytes, s.Lines, s.LongestLine, 100*float64(s.BigBytes)/float64(max(s.Bytes, 1)),
		s.HookRecords, s.Events, s.Passes, kv(s.Findings), kv(s.Breaches))
}

// Generate writes a corpus of kind, about size bytes (never less; at most one small record
// more), reproducibly from seed, and says what it holds.
func Generate(w io.Writer, kind Kind, size int64, seed int64) (Stats, error) {
	return GenerateShape(w, kind, Mixed, size, seed)
}

// GenerateShape is Generate with lines of the given shape (the AGC kind has one shape).
func GenerateShape(w io.Writer, kind Kind, shape Shape, size int64, seed int64) (Stats, error) {
	g := newGen(w, kind, size, seed)
	g.shape = shape
	g.st.Shape = shape
	var err error
	switch kind {
	case Transcript:
		err = g.transcript()
	case StreamJSON:
		err = g.streamJSON()
	case HookLog:
		err = g.hookLog()
	case AGC:
		err = g.agcLines()
	default:
		_, err = ParseKind(string(kind))
	}
	if err == nil {
		err = g.flush()
	}
	g.st.Bytes = g.n
	return g.st, err
}

// gen is the state of one generation: the random source, the output and the counts.
type gen struct {
	rng   *rand.Rand
	bw    *bufio.Writer
	size  int64
	n     int64 // bytes written
	line  int64 // bytes of the current line so far
	err   error
	st    Stats
	pool  *pool
	clock time.Time
	seq   int // tool call counter
	shape Shape
}

func newGen(w io.Writer, kind Kind, size, seed int64) *gen {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed_a6c0_5a21f))
	return &gen{
		rng:   rng,
		bw:    bufio.NewWriterSize(w, 1<<20),
		size:  size,
		pool:  newPool(rng),
		clock: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC),
		st: Stats{Kind: kind, Seed: seed,
			Findings: map[string]int64{}, Breaches: map[string]int64{}},
	}
}

// left is how many bytes remain to reach the requested size.
func (g *gen) left() int64 { return g.size - g.n }

// write appends b to the current line.
func (g *gen) write(b []byte) {
	if g.err != nil {
		return
	}
	_, g.err = g.bw.Write(b)
	g.n += int64(len(b))
	g.line += int64(len(b))
}

func (g *gen) writeString(s string) {
	if g.err != nil {
		return
	}
	_, g.err = g.bw.WriteString(s)
	g.n += int64(len(s))
	g.line += int64(len(s))
}

// endLine ends the current line and counts it.
func (g *gen) endLine() {
	g.write([]byte{'\n'})
	g.st.Lines++
	if g.line-1 > g.st.LongestLine {
		g.st.LongestLine = g.line - 1
	}
	g.line = 0
}

// record writes one whole line.
func (g *gen) record(b []byte) {
	g.write(b)
	g.endLine()
}

func (g *gen) flush() error {
	if g.err != nil {
		return g.err
	}
	return g.bw.Flush()
}

// now advances the synthetic clock and returns it in the transcript's format.
func (g *gen) now() string {
	g.clock = g.clock.Add(time.Duration(50+g.rng.IntN(4000)) * time.Millisecond)
	return g.clock.Format("2006-01-02T15:04:05.000Z")
}

// uuid is a random version-4-shaped UUID.
func (g *gen) uuid() string {
	a, b := g.rng.Uint64(), g.rng.Uint64()
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", uint32(a>>32), uint16(a>>16), uint16(a)&0xfff,
		uint16(b>>48)&0x3fff|0x8000, b&0xffffffffffff)
}

// toolUseID is a Claude-style tool_use id.
func (g *gen) toolUseID() string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := []byte("toolu_01")
	for i := 0; i < 22; i++ {
		b = append(b, alphabet[g.rng.IntN(len(alphabet))])
	}
	return string(b)
}

// contentSize picks the size of a tool result: mostly small, a quarter medium, a few large
// (log-uniform), and one huge line (hugeLine bytes) per hugeEvery bytes of corpus.
func (g *gen) contentSize() int {
	if g.shape.Short {
		if g.rng.IntN(8) > 0 {
			return 40 + g.rng.IntN(600)
		}
		return logUniform(g.rng, 640, 4<<10)
	}
	switch r := g.rng.Float64(); {
	case r < 0.70:
		return 40 + g.rng.IntN(1000)
	case r < 0.95:
		return logUniform(g.rng, 1<<10, 64<<10)
	default:
		return logUniform(g.rng, 64<<10, 4<<20)
	}
}

// hugeLine and hugeEvery place lines of 50 MB: one in each 512 MiB of corpus, the first at
// 40% of the way for corpora of at least 128 MiB.
const (
	hugeLine  = 50_000_000
	hugeEvery = 512 << 20
)

// hugeDue reports whether the next big content should be a 50 MB one.
func (g *gen) hugeDue(done *int64) bool {
	if g.shape.Short || g.size < 128<<20 || g.left() < hugeLine+(1<<20) {
		return false
	}
	next := *done*hugeEvery + min(g.size, hugeEvery)*4/10
	if g.n >= next {
		*done++
		return true
	}
	return false
}

func logUniform(rng *rand.Rand, lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return int(float64(lo) * math.Pow(float64(hi)/float64(lo), rng.Float64()))
}
