package command

import "path/filepath"

func isAbs(p string) bool       { return filepath.IsAbs(p) }
func join(dir, p string) string { return filepath.Join(dir, p) }
