package gates

// ParseText reads the one-line text form `AGC <verdict>: <gate>/<rule>[/<target>] — <message>`.
// STUB: replaced by the real parser.
func ParseText(line string) (*Response, bool) { return nil, false }

// FindText finds the first text-form line inside s.
// STUB: replaced by the real parser.
func FindText(s string) (*Response, bool) { return nil, false }
