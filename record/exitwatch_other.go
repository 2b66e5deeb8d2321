//go:build unix && !linux

package record

import (
	"os"
	"os/signal"
	"syscall"
)

// watchExit returns a channel that receives a value on every SIGCHLD, after which the caller
// checks whether the hook has exited (forwardUntilExit reaps it), and a func that stops it.
// The reader's hang-up of the recorder's stdout is not watched here (Linux only): the hook
// meets the broken pipe on its first write after the recorder's own write to stdout failed.
func watchExit(int, int, func()) (<-chan struct{}, func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGCHLD)
	ch := make(chan struct{}, 1)
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-sig:
				select {
				case ch <- struct{}{}:
				default:
				}
			case <-stop:
				return
			}
		}
	}()
	return ch, func() { signal.Stop(sig); close(stop) }
}
