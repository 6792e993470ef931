#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make vm-run / make vm-stop: talk to the development session that make vm
# or make vm-start runs, through files in build/vm/session/ that the guest
# polls (guest-session.sh).
#
#   session.sh run CMD...   run CMD in the guest (cwd /src), print its
#                           output as it comes, exit with its status
#   session.sh stop         end the session; the guest powers off
set -uo pipefail
. "$(dirname "$0")/lib.sh"

dir=$BPFDRV_BUILD/vm/session
# the session runs while its VM runner does (it may have died with the VM)
alive() { [ -e "$dir/ready" ] && kill -0 "$(cat "$dir/pid" 2>/dev/null)" 2>/dev/null; }
alive || die "no development session is running: start one with make vm-start (or make vm)"

case ${1:-} in
run)
	shift
	[ $# -gt 0 ] || die "usage: make vm-run CMD='...'"
	id=$dir/$(date +%s%N)
	printf '%s\n' "$*" >"$id.tmp"
	: >"$id.out"
	mv "$id.tmp" "$id.cmd"
	tail -n +1 -f "$id.out" &
	tailer=$!
	while [ ! -e "$id.rc" ]; do
		alive || { kill $tailer; die "the session ended"; }
		sleep 0.1
	done
	sleep 0.2	# let tail print the end
	kill $tailer
	wait $tailer 2>/dev/null
	rc=$(cat "$id.rc")
	rm -f "$id.rc" "$id.out"
	exit "$rc"
	;;
stop)
	touch "$dir/stop"
	for _ in $(seq 300); do
		alive || exit 0
		sleep 0.1
	done
	die "the session did not end"
	;;
*)
	die "usage: session.sh run CMD... | stop"
	;;
esac
