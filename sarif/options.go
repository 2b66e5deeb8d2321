package sarif

import (
	"time"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// GitHub's limits for one SARIF upload (docs/sarif.md).
const (
	// DefaultMaxResults is how many results a run keeps by default: GitHub keeps only 5,000.
	DefaultMaxResults = 5000
	// HardMaxResults is the most results GitHub accepts in one run.
	HardMaxResults = 25000
	// MaxRules is the most rules GitHub accepts in one run.
	MaxRules = 25000
	// MaxGzipBytes is the largest gzip-compressed SARIF file GitHub accepts.
	MaxGzipBytes = 10_000_000
	// MaxNotifications is how many of the caller's notifications are written (plus a summary line).
	MaxNotifications = 1000
	// DefaultCategory is the runAutomationDetails.id used when Options.Category is empty.
	DefaultCategory = "agc/"
)

// Options says how Build writes the run.
type Options struct {
	ToolName, ToolVersion, InformationURI string // "agc-sarif", version, project URL
	// Category is runAutomationDetails.id; "" → "agc/". An id without "/" gets "/" appended.
	Category string
	// Root is the repository root on disk: files are read from here for fingerprints and fix
	// regions ("" reads no files). No file outside it is ever read, symbolic links included.
	Root string
	// Fallback is used for any finding whose Location is nil, absolute, or escapes Root; with an
	// empty Path such findings are left out (and named in LeftOut).
	Fallback findings.Location
	// Notifications are skipped or unreadable records and other problems: one
	// toolExecutionNotification each (at most MaxNotifications, then a summary line).
	Notifications       []Notification
	ExecutionSuccessful bool
	Start, End          time.Time
	// MaxResults is how many results to keep, the heaviest first (0 → DefaultMaxResults; at most
	// HardMaxResults).
	MaxResults int
	// Checks are the rows of the contract checks, the shared ones and every binding's own
	// (runtimes.Checks()): an agc/* rule's metadata comes from its row. nil: the shared rows only
	// (gates.Checks()), and a binding's own check is described as a rule of gate agc.
	Checks gates.Rows
}

// Notification is a problem of the run worth showing beside the results.
type Notification struct {
	Level   string // "error", "warning" or "note" (anything else is written as "warning")
	Message string
	File    string // input file, when the problem is about one
	Line    int    // 1-based line in File, when known
}
