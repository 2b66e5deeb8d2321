//go:build unix && !linux

package record

import (
	"os"
	"os/signal"
	"syscall"
)

// watchExit returns a channel that receives a value on every SIGCHLD, after which the caller
// checks whether the hook has exited (forwardUntilExit reaps it), and a func that stops it.
func watchExit(int) (<-chan struct{}, func()) {
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
