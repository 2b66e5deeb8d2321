package jsonschema

import (
	"errors"
	"strings"
	"testing"
)

// TestMetaSchemasLazy (agc-sarif patch): nothing is compiled when the package loads; the first
// compile of a schema compiles the meta-schemas, and an invalid schema is still refused by
// its draft's meta-schema, for every draft.
func TestMetaSchemasLazy(t *testing.T) {
	for _, d := range []*Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020} {
		if d.sch != nil || d.vocabSchemas != nil {
			t.Fatalf("%s: meta-schema compiled before first use", d)
		}
	}
	for _, d := range []*Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020} {
		c := NewCompiler()
		c.DefaultDraft(d)
		if err := c.AddResource("bad.json", map[string]any{"type": 12}); err != nil {
			t.Fatal(err)
		}
		_, err := c.Compile("bad.json")
		var sve *SchemaValidationError
		if !errors.As(err, &sve) {
			t.Errorf("%s: compiling {\"type\": 12}: %v, want a SchemaValidationError", d, err)
		}
		if err := c.AddResource("good.json", map[string]any{"type": "string", "minLength": 2}); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile("good.json")
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if err := s.Validate("x"); err == nil || !strings.Contains(err.Error(), "minLength") {
			t.Errorf("%s: validating \"x\": %v, want a minLength error", d, err)
		}
	}
	for _, d := range []*Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020} {
		if d.sch == nil || len(d.vocabSchemas) != len(d.allVocabs) {
			t.Errorf("%s: meta-schemas not all compiled after first use", d)
		}
	}
}
