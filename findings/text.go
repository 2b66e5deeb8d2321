package findings

// AlertText is the plain text that stands for a finding wherever people read it: SARIF
// message.text, annotations and the job summary all show this same text.
//
// Interim: the finding's message alone. The reviewer's-view work (issue 9) replaces it with the
// first sentence followed by short fact lines (verdict and gate, what the agent did, a repair's
// before → after, where it was recorded, count and first/last time).
func AlertText(f *Finding) string { return f.Message }
