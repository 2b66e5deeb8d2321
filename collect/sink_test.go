package collect

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOneRedactor: the run's sink (sink.go) is the only place outside package redact that makes
// a Redactor, and no reader or check (inputs, gates) imports redact at all: every string that
// leaves the program is redacted at the sink, once. A second redactor anywhere else fails here.
func TestOneRedactor(t *testing.T) {
	const redactPath = "github.com/agc-sarif/agc-sarif/redact"
	var made []string
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || n == "redact" || strings.HasPrefix(n, ".") && path != ".." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		name := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == redactPath {
				name = "redact"
				if imp.Name != nil {
					name = imp.Name.Name
				}
			}
		}
		if name == "" {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, "../"))
		if dir := filepath.ToSlash(filepath.Dir(rel)); dir == "inputs" || dir == "gates" {
			t.Errorf("%s imports redact: readers and checks hand text to the sink (inputs.Sink) and cut only what its Redact returns", rel)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var x ast.Expr
			switch e := n.(type) {
			case *ast.CallExpr:
				x = e.Fun
			case *ast.CompositeLit:
				x = e.Type
			default:
				return true
			}
			if sel, ok := x.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == name && (sel.Sel.Name == "New" || sel.Sel.Name == "Redactor") {
					made = append(made, rel+":"+strconv.Itoa(fset.Position(n.Pos()).Line))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(made) != 1 || !strings.HasPrefix(made[0], "collect/sink.go:") {
		t.Errorf("redactors made at %v, want one, in collect/sink.go (the run's sink)", made)
	}
}
