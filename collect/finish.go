package collect

import (
	"context"
	"time"
)

// finish turns the findings read into the final findings and the SARIF log.
// TEMPORARY: anchoring, redaction, merging and SARIF land with their packages.
func finish(ctx context.Context, cfg Config, res *Result, start time.Time) error {
	res.Findings = res.Set.Findings
	return nil
}
