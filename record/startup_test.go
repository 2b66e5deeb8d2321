//go:build unix

package record_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// initLine is one line of GODEBUG=inittrace=1: "init PKG @T ms, C ms clock, B bytes, A allocs".
var initLine = regexp.MustCompile(`^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)

// Start-up bounds, in bytes allocated by package initialisation (counted by the runtime, so
// the same on a busy machine). Before the start-up work, agc-sarif's packages allocated 2.9 MB
// at init (the JSON Schema meta-schemas and AGC schema alone 2.2 MB); now about 140 KB, plus
// 210 KB for urfave/cli's documentation packages when built without urfave_cli_no_docs.
// The JSON Schema library (github.com/santhosh-tekuri/jsonschema/v6) compiles the meta-schemas of
// all its drafts in init(): 1.7 MB in 21,000 allocations, which nothing outside it can defer. It
// is linked by agc-sarif only (agc-record, the recorder for hooks, links no validator), so its
// init is counted on its own, against its own bound, and not in agc-sarif's total.
const (
	ownPackageInitMax = 16 << 10  // any package of this module
	agcSarifInitMax   = 512 << 10 // all packages of agc-sarif together but the schema library
	agcRecordInitMax  = 32 << 10  // all packages of agc-record together
	schemaLibInitMax  = 2 << 20   // the schema library's meta-schemas, in agc-sarif
)

// schemaLib is the import path of the JSON Schema library, whose init is bounded on its own.
const schemaLib = "github.com/santhosh-tekuri/jsonschema/v6"

// TestBinaryStartupInit fails when a package-level initialisation creeps back into the
// recorder's start: a pattern compiled, a table built or a schema compiled in a var or init()
// of our packages, or much more allocated at init in all. It also fails when a recorded call
// of `true` starts a garbage collection. Memory, not timing: inittrace counts the bytes.
func TestBinaryStartupInit(t *testing.T) {
	for _, tc := range []struct {
		bin   string
		args  []string
		total int
	}{
		{"agc-sarif", []string{"record", "--", "true"}, agcSarifInitMax},
		{"agc-record", []string{"--", "true"}, agcRecordInitMax},
	} {
		t.Run(tc.bin, func(t *testing.T) {
			cmd := exec.Command(binary(t, tc.bin), tc.args...)
			cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1,gctrace=1",
				"AGC_HOOK_LOG="+filepath.Join(t.TempDir(), "log.jsonl"))
			cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Bash"}`)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			total, seen := 0, 0
			for _, line := range strings.Split(string(out), "\n") {
				if strings.HasPrefix(line, "gc ") {
					t.Errorf("a garbage collection ran while recording `true`: %s", line)
				}
				m := initLine.FindStringSubmatch(line)
				if m == nil {
					continue
				}
				seen++
				bytes, _ := strconv.Atoi(m[2])
				if m[1] == schemaLib {
					if tc.bin == "agc-record" || bytes > schemaLibInitMax {
						t.Errorf("%s: %s allocates %d bytes at init (agc-record must not link it; agc-sarif at most %d)", tc.bin, m[1], bytes, schemaLibInitMax)
					}
					continue
				}
				total += bytes
				if strings.HasPrefix(m[1], "github.com/agc-sarif/agc-sarif") && bytes > ownPackageInitMax {
					t.Errorf("package %s allocates %d bytes at init (at most %d): make its package-level values lazy", m[1], bytes, ownPackageInitMax)
				}
			}
			if seen == 0 {
				t.Fatalf("no inittrace lines in the output:\n%s", out)
			}
			if total > tc.total {
				t.Errorf("%s's packages allocate %d bytes at init, at most %d allowed", tc.bin, total, tc.total)
			}
		})
	}
}
