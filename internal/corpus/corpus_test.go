package corpus

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"github.com/agc-sarif/agc-sarif/gates"
	"io"
	"slices"
	"strings"
	"testing"
)

// counter counts bytes and keeps the longest line without storing the data.
type counter struct {
	n, line, longest int64
}

func (c *counter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			c.line += int64(len(p))
			c.n += int64(len(p))
			return n, nil
		}
		c.line += int64(i)
		c.longest = max(c.longest, c.line)
		c.line = 0
		c.n += int64(i + 1)
		p = p[i+1:]
	}
	return n, nil
}

func TestGenerate(t *testing.T) {
	const size = 6 << 20
	for _, k := range Kinds() {
		t.Run(string(k), func(t *testing.T) {
			var buf bytes.Buffer
			st, err := Generate(&buf, k, size, 7)
			if err != nil {
				t.Fatal(err)
			}
			if st.Bytes != int64(buf.Len()) || st.Bytes < size || st.Bytes > size+64<<10 {
				t.Errorf("Bytes = %d, buffer %d, want %d..%d", st.Bytes, buf.Len(), size, size+64<<10)
			}
			if st.Events == 0 || st.HookRecords == 0 || st.Total() == 0 {
				t.Errorf("no hook events in %s", st)
			}
			var lines, invalid, hookish int64
			sc := bufio.NewScanner(bytes.NewReader(buf.Bytes()))
			sc.Buffer(nil, 64<<20)
			for sc.Scan() {
				lines++
				if !json.Valid(sc.Bytes()) {
					invalid++
				}
				if bytes.Contains(sc.Bytes(), []byte(`"hook_`)) || bytes.Contains(sc.Bytes(), []byte(`hook error: `)) {
					hookish++
				}
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
			if lines != st.Lines {
				t.Errorf("Lines = %d, counted %d", st.Lines, lines)
			}
			if want := st.Breaches["agc/invalid-json"]; invalid != want {
				t.Errorf("%d lines are not JSON, want %d", invalid, want)
			}
			if k == Transcript || k == StreamJSON {
				// About one hook record in twenty lines.
				if r := float64(lines) / float64(st.HookRecords); r < 12 || r > 30 {
					t.Errorf("one hook record in %.1f lines, want about 20 (%s)", r, st)
				}
				if hookish < st.HookRecords {
					t.Errorf("%d lines look like hook records, Stats says %d", hookish, st.HookRecords)
				}
				if float64(st.BigBytes) < 0.8*float64(st.Bytes) {
					t.Errorf("only %d of %d bytes in big results", st.BigBytes, st.Bytes)
				}
			}
		})
	}
}

func TestGenerateReproducible(t *testing.T) {
	sum := func(seed int64) [32]byte {
		h := sha256.New()
		if _, err := Generate(h, Transcript, 2<<20, seed); err != nil {
			t.Fatal(err)
		}
		return [32]byte(h.Sum(nil))
	}
	if sum(3) != sum(3) {
		t.Error("the same seed gave different bytes")
	}
	if sum(3) == sum(4) {
		t.Error("different seeds gave the same bytes")
	}
}

// TestHugeLine checks that a corpus of 128 MiB or more holds a line of about 50 MB, written
// without holding it in memory.
func TestHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 160 MiB")
	}
	var c counter
	st, err := Generate(&c, Transcript, 160<<20, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st.LongestLine != c.longest || c.longest < 49_000_000 || c.longest > 50_000_000 {
		t.Errorf("longest line %d (Stats %d), want about 50 MB", c.longest, st.LongestLine)
	}
}

func TestResponses(t *testing.T) {
	var buf bytes.Buffer
	st, err := Responses(&buf, 1000, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st.Total() != 1000 || st.Passes != 0 || st.Lines != 1000 {
		t.Errorf("Responses(1000) = %s", st)
	}
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var r gates.Response
		if err := json.Unmarshal([]byte(l), &r); err != nil || len(r.Findings) != 1 || r.Findings[0].Location == nil {
			t.Fatalf("bad line %q: %v", l, err)
		}
		seen[fmt.Sprint(r.Findings[0].Location.Path, r.Findings[0].Location.Line)] = true
	}
	if len(seen) != 1000 {
		t.Errorf("%d distinct places, want 1000", len(seen))
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1GiB", 1 << 30, true}, {"256MiB", 256 << 20, true}, {"10MB", 10e6, true}, {"4096", 4096, true},
		{"1.5GiB", 3 << 29, true}, {"12 KiB", 12 << 10, true}, {"", 0, false}, {"lots", 0, false}, {"-1MiB", 0, false},
	} {
		got, err := ParseSize(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d, ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

var _ io.Writer = (*counter)(nil)

// TestShapes checks that each short shape makes what its name promises: a median line under
// 2 KB, no line near the window of the readers, and hook records at the rate it claims.
func TestShapes(t *testing.T) {
	rate := map[string][2]float64{"short": {12, 30}, "short-dense": {3, 8}, "short-sparse": {120, 300}} // lines per hook record
	for _, sh := range []Shape{Short, ShortDense, ShortSparse} {
		for _, k := range []Kind{Transcript, StreamJSON, HookLog} {
			var buf bytes.Buffer
			st, err := GenerateShape(&buf, k, sh, 8<<20, 3)
			if err != nil {
				t.Fatal(err)
			}
			if st.Shape != sh || st.Bytes != int64(buf.Len()) {
				t.Errorf("%s %s: stats %+v for %d bytes", sh.Name, k, st.Shape, buf.Len())
			}
			var lens []int
			for _, l := range bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n")) {
				lens = append(lens, len(l))
			}
			slices.Sort(lens)
			if med := lens[len(lens)/2]; med >= 2000 {
				t.Errorf("%s %s: median line %d bytes, want under 2000", sh.Name, k, med)
			}
			// stream-json ends in a result record listing up to 1000 refused calls.
			if longest := lens[len(lens)-2]; longest > 256<<10 {
				t.Errorf("%s %s: a line of %d bytes", sh.Name, k, longest)
			}
			per := float64(st.Lines) / float64(st.HookRecords)
			if want := rate[sh.Name]; k != HookLog && (per < want[0] || per > want[1]) {
				t.Errorf("%s %s: a hook record in %.1f lines, want %v", sh.Name, k, per, want)
			}
			if st.Events == 0 || st.Total() == 0 {
				t.Errorf("%s %s: no events or findings: %s", sh.Name, k, st)
			}
		}
	}
	if _, err := ParseShape("round"); err == nil {
		t.Error("ParseShape accepted an unknown shape")
	}
}
