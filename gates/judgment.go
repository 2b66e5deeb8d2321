package gates

// ParseJudgment reads a judging agent's final message under the judgment binding.
// STUB: replaced by the real binding.
func ParseJudgment(msg string) (*Response, []Breach) {
	return nil, []Breach{{Check: CheckJudgmentNoBlock, Message: "not built yet"}}
}
