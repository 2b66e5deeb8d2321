//go:build unix && !linux

package record

// waitExitable reports false: waiting without reaping is not used here.
func waitExitable(int) bool { return false }
