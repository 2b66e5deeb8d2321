package runtimes

import (
	"fmt"
	"slices"

	"github.com/agc-sarif/agc-sarif/gates"
)

// CheckHookAnswer checks one hook's raw answer as runtime would read it after event: its stdout,
// stderr and exit status, exactly as the hook gave them (what `agc-sarif check --event` reads).
// runtime "" is the default runtime's. It returns the binding's result, or an error naming the events the
// binding knows when event is not one of them.
func CheckHookAnswer(runtime, event string, stdout, stderr []byte, exit int) (gates.HookResult, error) {
	b := For(runtime)
	if _, ok := b.(unbound); ok {
		var ids []string
		for _, k := range bindings {
			ids = append(ids, k.Runtime())
		}
		return gates.HookResult{}, fmt.Errorf("unknown runtime %q (want one of %v)", runtime, ids)
	}
	if !slices.Contains(b.Events(), event) {
		return gates.HookResult{}, fmt.Errorf("%s has no hook event %q (want one of %v)", b.Runtime(), event, b.Events())
	}
	a := gates.HookAnswer{Event: event, HasExit: true, ExitCode: exit,
		HasStdout: true, Stdout: string(stdout), HasStderr: true, Stderr: string(stderr)}
	return b.CheckHook(a), nil
}
