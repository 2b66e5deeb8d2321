package corpus_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/internal/corpus"
)

// TestCollectMatchesStats runs the whole collect pipeline over a generated corpus of each kind
// and checks it reports exactly the findings the generator's Stats predict: per verdict, and per
// contract check. Phase 2 (faster readers) must keep this true.
func TestCollectMatchesStats(t *testing.T) {
	sizes := map[corpus.Kind]int64{corpus.Transcript: 8 << 20, corpus.StreamJSON: 8 << 20, corpus.HookLog: 8 << 20, corpus.AGC: 512 << 10}
	type run struct {
		k  corpus.Kind
		sh corpus.Shape
	}
	var runs []run
	for _, k := range corpus.Kinds() {
		runs = append(runs, run{k, corpus.Mixed})
		if k != corpus.AGC {
			runs = append(runs, run{k, corpus.ShortDense})
		}
	}
	for _, r := range runs {
		k := r.k
		t.Run(string(k)+"/"+r.sh.Name, func(t *testing.T) {
			dir := t.TempDir()
			f, err := os.Create(filepath.Join(dir, "corpus.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			st, err := corpus.GenerateShape(f, k, r.sh, sizes[k], 5)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			res, err := collect.Run(ctx, collect.Config{Paths: []string{"corpus.jsonl"}, Root: dir, Dir: dir,
				IncludeUnstructured: true, Redact: true})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int64{}
			breaches := map[string]int64{}
			for _, f := range res.Findings {
				n := int64(max(f.Count, 1))
				if f.Kind == findings.Contract {
					breaches[f.RuleID] += n
				} else {
					got[string(f.Verdict)] += n
				}
			}
			for _, m := range []struct {
				what      string
				got, want map[string]int64
			}{{"findings", got, st.Findings}, {"breaches", breaches, st.Breaches}} {
				for key := range merge(m.got, m.want) {
					if m.got[key] != m.want[key] {
						t.Errorf("%s %s: collect found %d, Stats say %d (%s)", m.what, key, m.got[key], m.want[key], st)
					}
				}
			}
			if len(res.Set.Problems) > 0 {
				t.Errorf("problems reading a clean corpus: %v", res.Set.Problems[0])
			}
		})
	}
}

func merge(a, b map[string]int64) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}
