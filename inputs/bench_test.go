package inputs_test

// Benchmarks of the readers over generated corpora (internal/corpus), and of the whole collect
// pipeline and of SARIF writing over 25,000 findings. Compare runs with benchstat:
//
//	go test ./inputs -run '^$' -bench . -count 6 | tee new.txt
//	benchstat old.txt new.txt

import (
	"bytes"
	"context"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/internal/corpus"
	"github.com/agc-sarif/agc-sarif/runtimes"
	"github.com/agc-sarif/agc-sarif/runtimes/claude"
	"github.com/agc-sarif/agc-sarif/sarif"
)

// benchSize is the size of the corpus each reader benchmark reads.
const benchSize = 32 << 20

// benchReader reads a generated corpus of kind with the reader of format, b.N times.
func benchReader(b *testing.B, kind corpus.Kind, format inputs.Format) {
	benchShape(b, kind, corpus.Mixed, format)
}

// benchShape is benchReader over a corpus of the given shape.
func benchShape(b *testing.B, kind corpus.Kind, shape corpus.Shape, format inputs.Format) {
	var buf bytes.Buffer
	buf.Grow(benchSize + 1<<20)
	st, err := corpus.GenerateShape(&buf, kind, shape, benchSize, 1)
	if err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	rd, err := runtimes.Inputs().ReaderFor(format)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	var set *findings.Set
	for i := 0; i < b.N; i++ {
		set = findings.NewSet()
		in := inputs.Input{Name: string(kind) + ".jsonl", R: bytes.NewReader(data), Named: true}
		if err := rd.Read(ctx, in, inputs.Options{Registry: runtimes.Inputs(), IncludeUnstructured: true}, set); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(len(set.Findings)), "findings")
	b.ReportMetric(float64(st.Total()), "want-findings")
	b.ReportMetric(float64(st.Lines)/b.Elapsed().Seconds()*float64(b.N), "lines/s")
}

func BenchmarkTranscript(b *testing.B) { benchReader(b, corpus.Transcript, claude.Transcript) }
func BenchmarkStreamJSON(b *testing.B) { benchReader(b, corpus.StreamJSON, claude.StreamJSON) }
func BenchmarkHookLog(b *testing.B)    { benchReader(b, corpus.HookLog, inputs.HookLog) }
func BenchmarkAGC(b *testing.B)        { benchReader(b, corpus.AGC, inputs.AGC) }

// The short-line shapes, where a reader's cost per line counts more than its cost per byte.
func BenchmarkTranscriptShort(b *testing.B) {
	benchShape(b, corpus.Transcript, corpus.ShortSparse, claude.Transcript)
}
func BenchmarkStreamJSONShort(b *testing.B) {
	benchShape(b, corpus.StreamJSON, corpus.ShortSparse, claude.StreamJSON)
}
func BenchmarkHookLogShort(b *testing.B) {
	benchShape(b, corpus.HookLog, corpus.ShortSparse, inputs.HookLog)
}

// BenchmarkSARIF25k builds and writes the SARIF of 25,000 findings, each at a place of its own
// (read once, outside the timer, from generated AGC responses). Target: under 1 s per op.
func BenchmarkSARIF25k(b *testing.B) {
	var buf bytes.Buffer
	if _, err := corpus.Responses(&buf, 25000, 1); err != nil {
		b.Fatal(err)
	}
	rd, err := runtimes.Inputs().ReaderFor(inputs.AGC)
	if err != nil {
		b.Fatal(err)
	}
	set := findings.NewSet()
	if err := rd.Read(context.Background(), inputs.Input{Name: "responses.jsonl", R: &buf, Named: true}, inputs.Options{Registry: runtimes.Inputs()}, set); err != nil {
		b.Fatal(err)
	}
	opts := sarif.Options{ToolName: "agc-sarif", ToolVersion: "bench", MaxResults: sarif.HardMaxResults,
		Fallback: findings.Location{Path: "README.md", StartLine: 1}, ExecutionSuccessful: true}
	b.ReportAllocs()
	b.ResetTimer()
	var n, results int
	for i := 0; i < b.N; i++ {
		log, err := sarif.Build(set.Findings, opts)
		if err != nil {
			b.Fatal(err)
		}
		var out bytes.Buffer
		if err := log.Write(&out); err != nil {
			b.Fatal(err)
		}
		n, results = out.Len(), log.Results()
	}
	b.StopTimer()
	b.ReportMetric(float64(len(set.Findings)), "findings")
	b.ReportMetric(float64(results), "results")
	b.ReportMetric(float64(n), "sarif-bytes")
}
