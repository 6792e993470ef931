#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The development loop as a user drives it from the host: make vm-start
# with a directory of their own drivers, make vm-run to load and exercise
# one (twice, as after an edit), a failing command's status, make vm-stop.
# Prints unnumbered TAP lines for run.sh; REL is the kernel to boot.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

rel=$1
ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; }
session=$BPFDRV_TOP/selftests/vm/session.sh
dir=$BPFDRV_BUILD/vm/session
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$BPFDRV_BUILD/bpf/echo.bpf.o" "$work/mine.bpf.o"

start=$SECONDS
BPFDRV_DRIVERS=$work BPFDRV_KERNELS=$rel "$BPFDRV_TOP/selftests/vm/run.sh" vm-start \
	>"$work/start.log" 2>&1 &
runner=$!
for _ in $(seq 600); do
	[ -e "$dir/ready" ] && break
	kill -0 $runner 2>/dev/null || break
	sleep 0.5
done
if [ ! -e "$dir/ready" ]; then
	nok "make vm-start: the session comes up"
	sed 's/^/# /' "$work/start.log" "$BPFDRV_BUILD/vm/session.log" 2>/dev/null | tail -30
	kill $runner 2>/dev/null
	exit 0
fi
ok "make vm-start: the session comes up on $(cat "$dir/ready") in $((SECONDS - start)) s"

# load, use and unload a driver from /drivers, as after each edit
try='bpfdrv load --pin --name mine /drivers/mine.bpf.o >/dev/null &&
	echo hi-from-mine >/dev/bpfdrv/mine && cat /dev/bpfdrv/mine &&
	bpfdrv unload mine'
for round in 1 2; do
	t0=$(date +%s%N)
	got=$("$session" run "$try" 2>&1)
	rc=$?
	t1=$(date +%s%N)
	echo "# round $round: load, I/O and unload of /drivers/mine.bpf.o in $(((t1 - t0) / 1000000)) ms"
	if [ $rc -eq 0 ] && [ "$got" = hi-from-mine ]; then
		ok "make vm-run, round $round: a driver of /drivers loads, carries data, unloads"
	else
		nok "make vm-run, round $round (rc $rc)"
		printf '%s\n' "$got" | sed 's/^/# /'
	fi
done
"$session" run 'echo to-stderr >&2; exit 3' >"$work/out" 2>&1
rc=$?
if [ $rc -eq 3 ] && grep -q to-stderr "$work/out"; then
	ok "make vm-run passes the command's exit status and output through"
else
	nok "make vm-run passes the command's exit status and output through (rc $rc)"
fi
"$session" run 'dmesg' >"$work/dmesg" 2>&1
if grep -Eq "WARNING:|BUG:|Oops|blocked for more than" "$work/dmesg"; then
	nok "the session's kernel log is clean"
	grep -E -A5 "WARNING:|BUG:|Oops|blocked for more than" "$work/dmesg" | head -20 | sed 's/^/# /'
else
	ok "the session's kernel log is clean"
fi
if "$session" stop && wait $runner; then
	ok "make vm-stop ends the session"
else
	nok "make vm-stop ends the session"
	kill $runner 2>/dev/null
fi
"$session" run true >/dev/null 2>&1
if [ $? -ne 0 ]; then
	ok "make vm-run without a session says so and fails"
else
	nok "make vm-run without a session says so and fails"
fi
