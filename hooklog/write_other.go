//go:build !unix

package hooklog

import (
	"context"
	"errors"
)

// Append needs flock and O_NOFOLLOW, which this system lacks.
func Append(context.Context, string, Record) error {
	return errors.New("writing the hook log needs a unix system")
}

// AppendLine needs flock and O_NOFOLLOW, which this system lacks.
func AppendLine(context.Context, string, []byte) error {
	return errors.New("writing the hook log needs a unix system")
}
