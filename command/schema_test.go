package command

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
)

func TestSchemaCommand(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantJSON bool
	}{
		{"prints the schema", []string{"agc-sarif", "schema"}, ExitOK, true},
		{"rejects arguments", []string{"agc-sarif", "schema", "extra"}, ExitUsage, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Dir: t.TempDir()}
			if code := Main(context.Background(), tt.args, env); code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.wantCode, errb.String())
			}
			if !tt.wantJSON {
				return
			}
			var doc struct {
				ID     string `json:"$id"`
				Schema string `json:"$schema"`
			}
			if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatalf("output is not JSON: %v", err)
			}
			if doc.ID != gates.SchemaID || !strings.Contains(doc.Schema, "2020-12") {
				t.Errorf("$id %q, $schema %q; want %q and draft 2020-12", doc.ID, doc.Schema, gates.SchemaID)
			}
		})
	}
}
