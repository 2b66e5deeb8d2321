package command

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/internal/version"
)

// TestOneVersion: agc-sarif and agc-record say one version, from the build: `agc-sarif version`
// prints internal/version's, and every release build (GoReleaser, the container) sets that one
// variable with -ldflags -X, for both binaries.
func TestOneVersion(t *testing.T) {
	var out bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}
	if code := Main(context.Background(), []string{"agc-sarif", "version"}, env); code != 0 || out.String() != "agc-sarif "+version.String()+"\n" {
		t.Errorf("agc-sarif version: exit %d, %q, want %q", code, out.String(), "agc-sarif "+version.String()+"\n")
	}
	x := regexp.MustCompile(`-X ([^= ]+)=`)
	for _, f := range []string{"../.goreleaser.yaml", "../Dockerfile"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ms := x.FindAllStringSubmatch(string(data), -1)
		if len(ms) == 0 {
			t.Errorf("%s sets no version with -ldflags -X", f)
		}
		for _, m := range ms {
			if m[1] != "github.com/agc-sarif/agc-sarif/internal/version.Version" {
				t.Errorf("%s sets %s, not internal/version.Version: the binaries would disagree", f, m[1])
			}
		}
	}
}
