package ghenv

import (
	"fmt"
	"strings"
)

// ParseOutputs reads a GITHUB_OUTPUT file the way the runner does (`name=value` lines and
// `name<<DELIM` … `DELIM` blocks); later values win. Tests and the container smoke test use it.
func ParseOutputs(text string) (map[string]string, error) {
	out := map[string]string{}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line == "" {
			continue
		}
		eq := strings.Index(line, "=")
		heredoc := strings.Index(line, "<<")
		if heredoc >= 0 && (eq < 0 || heredoc < eq) {
			name, delim := line[:heredoc], line[heredoc+2:]
			if name == "" || delim == "" {
				return nil, fmt.Errorf("line %d: bad heredoc %q", i+1, line)
			}
			var val []string
			j := i + 1
			for ; j < len(lines) && lines[j] != delim; j++ {
				val = append(val, lines[j])
			}
			if j == len(lines) {
				return nil, fmt.Errorf("line %d: delimiter %q never closes", i+1, delim)
			}
			out[name] = strings.Join(val, "\n")
			i = j
			continue
		}
		if eq <= 0 {
			return nil, fmt.Errorf("line %d: neither name=value nor name<<delimiter: %q", i+1, line)
		}
		out[line[:eq]] = line[eq+1:]
	}
	return out, nil
}
