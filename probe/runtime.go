package probe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"time"

	"github.com/agc-sarif/agc-sarif/agent"
)

// Facts are what a runtime gives a hook besides its stdin, read from
// events/<runtime id>/runtime.json: how long it waits for the hook and which project-folder
// variables it sets (the hook's working folder is the project folder in every runtime).
type Facts struct {
	Timeout        time.Duration // when the runtime gives up on the hook
	ProjectDirVars []string      // the variables it sets to the project folder; may be none
	Evidence       string        // where the facts come from, and what is a stated default
}

// factsFile is runtime.json as written.
type factsFile struct {
	Timeout        string   `json:"timeout"`
	ProjectDirVars []string `json:"project_dir_vars"`
	Evidence       string   `json:"evidence"`
}

// RuntimeFacts returns the facts of a runtime from its folder of built-in events. A runtime
// without a runtime.json gets DefaultTimeout and every runtime's project-folder variable.
func RuntimeFacts(runtime string) (Facts, error) {
	name := path.Join("events", runtime, "runtime.json")
	b, err := samples.ReadFile(name)
	if err != nil { // no folder or no file: a runtime (or a recorded name) probe has no facts of
		return Facts{Timeout: DefaultTimeout, ProjectDirVars: agent.ProjectDirVars(),
			Evidence: "no " + name + ": probe's default timeout and every runtime's variable"}, nil
	}
	var f factsFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return Facts{}, fmt.Errorf("probe: %s: %w", name, err)
	}
	d, err := time.ParseDuration(f.Timeout)
	if err != nil || d <= 0 {
		return Facts{}, fmt.Errorf("probe: %s: timeout %q is not a positive duration", name, f.Timeout)
	}
	return Facts{Timeout: d, ProjectDirVars: f.ProjectDirVars, Evidence: f.Evidence}, nil
}
