package corpus

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize reads a size such as 1GiB, 256MiB, 10MB, 4096 or 1.5GiB (binary units KiB MiB GiB,
// decimal units KB MB GB, B or nothing for bytes).
func ParseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}
	t := strings.TrimSpace(s)
	mult := 1.0
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || v*mult > 1<<50 {
		return 0, fmt.Errorf("bad size %q (want e.g. 256MiB, 1GiB, 10MB or a number of bytes)", s)
	}
	return int64(v * mult), nil
}
