#!/bin/sh
# A guard for probe's tests: on a cut JSON input it starts a child that sleeps for ever, writes
# the child's process id to hang.pid in its working folder, and waits for it.
in=$(cat)
case "$in" in
"{"*"}" | "") exit 0 ;;
"{"*)
	sleep 1000 &
	echo $! >hang.pid
	wait
	;;
esac
exit 0
