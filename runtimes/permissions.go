package runtimes

import (
	"github.com/agc-sarif/agc-sarif/permit"
	"github.com/agc-sarif/agc-sarif/runtimes/claude/permissions"
)

// Permissions is the runtime whose permission rules the permissions command replays: Claude
// Code's matcher, pinned to the version it was verified with.
func Permissions() permit.Runner { return permissions.Runner{} }
