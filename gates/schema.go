package gates

import (
	"bytes"
	_ "embed" // the AGC 0.1 schema is embedded
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed agc-0.1.schema.json
var schemaJSON []byte

// SchemaID is the $id of the embedded AGC 0.1 JSON Schema.
const SchemaID = "https://raw.githubusercontent.com/agc-sarif/agc-sarif/main/gates/agc-0.1.schema.json"

// Schema returns the AGC 0.1 JSON Schema (draft 2020-12) that Decode checks responses against.
func Schema() []byte { return bytes.Clone(schemaJSON) }

// Validator checks AGC responses against the compiled AGC 0.1 schema. It is immutable and safe
// for concurrent use.
type Validator struct {
	schema *jsonschema.Schema
}

// NewValidator compiles the embedded AGC 0.1 schema.
func NewValidator() (*Validator, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, fmt.Errorf("agc schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(SchemaID, doc); err != nil {
		return nil, fmt.Errorf("agc schema: %w", err)
	}
	s, err := c.Compile(SchemaID)
	if err != nil {
		return nil, fmt.Errorf("agc schema: %w", err)
	}
	return &Validator{schema: s}, nil
}

// defaultValidator returns the validator Decode falls back on, built on first use and never
// changed afterwards: most responses never need it (fastdecode.go), and a process that meets only
// valid ones, or none (`agc-sarif record`), never pays for compiling the schema. It is the
// package's one piece of shared state, kept so that Decode needs no Validator argument; callers
// that want their own use NewValidator and Validator.Decode.
var defaultValidator = sync.OnceValue(mustValidator)

// mustValidator compiles the embedded schema; failing to is a build defect, so it panics.
func mustValidator() *Validator {
	v, err := NewValidator()
	if err != nil {
		panic(err)
	}
	return v
}
