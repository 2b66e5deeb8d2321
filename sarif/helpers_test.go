package sarif

import (
	"bytes"
	"encoding/json"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

// sarifSchema is the OASIS SARIF 2.1.0 JSON Schema (testdata/sarif-schema-2.1.0.json, the copy
// shipped with the SARIF Multitool 5.7.0).
func sarifSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	schemaOnce.Do(func() {
		f, err := os.Open("testdata/sarif-schema-2.1.0.json")
		if err != nil {
			schemaErr = err
			return
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			schemaErr = err
			return
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
			schemaErr = err
			return
		}
		schema, schemaErr = c.Compile("sarif-schema-2.1.0.json")
	})
	if schemaErr != nil {
		t.Fatalf("SARIF schema: %v", schemaErr)
	}
	return schema
}

// checkSchema fails the test when data is not SARIF 2.1.0 by the JSON Schema.
func checkSchema(t testing.TB, data []byte) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	if err := sarifSchema(t).Validate(doc); err != nil {
		t.Fatalf("SARIF breaks the 2.1.0 schema: %v", err)
	}
}

// written builds fs with opts, writes the log, checks it against the schema and returns the bytes
// and the decoded document.
func written(t testing.TB, fs []findings.Finding, opts Options) (*Log, []byte, map[string]any) {
	t.Helper()
	l, err := Build(fs, opts)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	var buf bytes.Buffer
	if err := l.Write(&buf); err != nil {
		t.Fatal(err)
	}
	checkSchema(t, buf.Bytes())
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return l, buf.Bytes(), doc
}

// testOptions are the options of the golden tests, rooted at dir.
func testOptions(dir string) Options {
	return Options{
		ToolName: "agc-sarif", ToolVersion: "0.1.0", InformationURI: "https://github.com/agc-sarif/agc-sarif",
		Root:                dir,
		Fallback:            findings.Location{Path: ".claude/settings.json", StartLine: 3},
		ExecutionSuccessful: true,
		Start:               time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC),
		End:                 time.Date(2026, 11, 30, 9, 0, 2, 0, time.UTC),
	}
}

// jsonObject is a decoded JSON object.
type jsonObject map[string]any

// run0 returns the first run of a decoded log.
func run0(t testing.TB, doc map[string]any) jsonObject {
	t.Helper()
	runs, _ := doc["runs"].([]any)
	if len(runs) != 1 {
		t.Fatalf("want exactly one run, got %d", len(runs))
	}
	return runs[0].(map[string]any)
}

// list returns doc[key] as a slice, failing when it is not an array.
func list(t testing.TB, m map[string]any, key string) []any {
	t.Helper()
	v, ok := m[key].([]any)
	if !ok {
		t.Fatalf("%s is %T (%v), want an array", key, m[key], m[key])
	}
	return v
}

func verdictOf(s string) gates.Verdict { return gates.Verdict(s) }
