//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package inputs

import "errors"

// mapper is unused where files are not mapped: windows are read instead.
type mapper struct{}

func newMapper(Mappable) *mapper { return nil }

func (*mapper) window(int64, int) ([]byte, int64, error) {
	return nil, 0, errors.New("not mapped on this system")
}

func (*mapper) unmap([]byte) {}
