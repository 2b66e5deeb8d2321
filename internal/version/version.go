// Package version names the build's version, one for agc-sarif and agc-record: the one set at
// build time (release builds: -ldflags "-X github.com/agc-sarif/agc-sarif/internal/version.Version=v1.2.3",
// see .goreleaser.yaml and the Dockerfile), else the module version `go install …@v1.2.3`
// recorded, with the commit when the build recorded one.
package version

import "runtime/debug"

// Version is set at build time with -ldflags -X; empty in other builds.
var Version string

// String is the version of the running binary (see the package comment).
func String() string { return Of(Version, debug.ReadBuildInfo) }

// Of is the version from set (the -ldflags value) and the build information info gives: set,
// else the module version, else "devel"; then the commit, when the build recorded one.
func Of(set string, info func() (*debug.BuildInfo, bool)) string {
	v := set
	bi, ok := info()
	if v == "" && ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	if v == "" {
		v = "devel"
	}
	if !ok {
		return v
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision" && len(s.Value) >= 12:
			rev = s.Value[:12]
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = ", modified"
		}
	}
	if rev != "" {
		v += " (commit " + rev + dirty + ")"
	}
	return v
}
