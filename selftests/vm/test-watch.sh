#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The harness's watch on its guests (watch.sh), with guests that are shell
# functions: a silent one is stopped at BPFDRV_BOOT_LIMIT and booted once
# more, then fails; one that goes silent once up, at BPFDRV_QUIET_LIMIT,
# the same; a chatty one's parts are reported as they end and its
# boot time recorded; the recorded times set the next bound; with
# BPFDRV_RUN_END, a guest still running then is stopped, and one that
# failed is not booted again when a boot would end past it; guest.sh,
# given a deadline, skips the parts it could not end by it. Prints
# unnumbered TAP lines; runs on the host in about 25 s.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
BPFDRV_CACHE=$tmp
max_jobs=6 job_labels=() job_logs=() job_pids=() job_kinds=() job_part_limits=()
. "$(dirname "$0")/watch.sh"
ok() { echo "ok - watch: $*"; }
nok() { echo "not ok - watch: $*"; }
check() { local d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }

nap=59.$$	# this run's own, told apart from any other sleep
silent() { echo "SeaBIOS"; sleep "$nap"; echo "# kernel late"; }
frozen() { printf '# kernel 7.3\n# part pci\nok - a\n'; sleep "$nap"; echo "# guest done"; }
# a guest whose init fails before guest.sh runs
downed() { echo "virtme-init: cannot find script I/O ports"; sleep 1; return 255; }
chatty() {
	sleep 1
	printf '# kernel 7.3\r\n# part core\nok - a\nok - b\n'
	sleep 3
	printf '# part core took 3 s\n# part pci: left out on this kernel\n# part mmap\nnot ok - c\n'
	sleep 2
	echo "# guest done"
}
# a guest that would run for ever
endless() { printf '# kernel 7.3\n# part core\nok - a\n'; while sleep 1; do echo "ok - b"; done; }
start=$SECONDS
BPFDRV_RUN_END=$(($(date +%s) + 6)) launch boot "endlessrel" "$tmp/endless.log" endless 2>"$tmp/endless.err"
BPFDRV_RUN_END=$(($(date +%s) + 7)) BPFDRV_BOOT_LIMIT=4 \
	launch boot "lastrel" "$tmp/last.log" silent 2>"$tmp/last.err"
BPFDRV_BOOT_LIMIT=4 launch boot "silentrel" "$tmp/silent.log" silent 2>"$tmp/silent.err"
launch boot "chattyrel x" "$tmp/chatty.log" chatty 2>"$tmp/chatty.err"
BPFDRV_QUIET_LIMIT=5 launch boot "frozenrel" "$tmp/frozen.log" frozen 2>"$tmp/frozen.err"
launch boot "downedrel" "$tmp/downed.log" downed 2>"$tmp/downed.err"
wait
took=$((SECONDS - start))
sed 's/^/# /' "$tmp/silent.err" "$tmp/chatty.err" "$tmp/frozen.err" "$tmp/downed.err" \
	"$tmp/endless.err" "$tmp/last.err"
read -r rc secs <"$tmp/endless.log.status"
check "a guest still running at BPFDRV_RUN_END (6 s) is stopped then, saying why (rc $rc, $secs s)" \
	eval '[ "$rc" = 124 ] && [ "$secs" -ge 5 ] && [ "$secs" -lt 12 ] &&
	      grep -q "endlessrel: the run.s time is spent: stopped in part core" "$tmp/endless.err" &&
	      grep -q "stopped at the run.s end" "$tmp/endless.log.late" && grep -q "ok - b" "$tmp/endless.log"'
read -r rc secs <"$tmp/last.log.status"
check "a guest silent at its boot limit (4 s) is not booted again past BPFDRV_RUN_END (7 s) (rc $rc, $secs s)" \
	eval '[ "$rc" = 124 ] && [ "$secs" -lt 7 ] && ! grep -q "booting it once more" "$tmp/last.err" &&
	      grep -q "lastrel: no time left to boot it again" "$tmp/last.err" &&
	      grep -q "no time was left to boot it again" "$tmp/last.log.late"'
check "a guest without BPFDRV_RUN_END has no such end" eval '[ ! -e "$tmp/silent.log.late" ] && [ ! -e "$tmp/chatty.log.late" ]'
read -r rc secs <"$tmp/silent.log.status"
check "a guest silent for BPFDRV_BOOT_LIMIT=4 s is stopped twice and fails (rc $rc, $secs s)" \
	eval '[ "$rc" = 124 ] && [ "$secs" -ge 8 ] && [ "$secs" -lt 30 ] &&
	      [ "$(grep -c "no line from the guest in 4 s: stopped" "$tmp/silent.err")" = 2 ] &&
	      [ "$(grep -c "booting it once more" "$tmp/silent.err")" = 1 ]'
check "its console's end is shown, and kept in the log" \
	eval 'grep -q "|.*SeaBIOS" "$tmp/silent.err" && grep -q SeaBIOS "$tmp/silent.log"'
running() {	# running CMDLINE: a process runs it
	local f

	for f in /proc/[0-9]*/cmdline; do
		tr '\0' ' ' 2>/dev/null <"$f"
		echo
	done | grep -qx "$1 "
}
read -r rc secs <"$tmp/frozen.log.status"
check "a guest up, then silent for BPFDRV_QUIET_LIMIT=5 s, is stopped twice and fails (rc $rc, $secs s)" \
	eval '[ "$rc" = 124 ] && [ "$secs" -ge 10 ] && [ "$secs" -lt 30 ] &&
	      [ "$(grep -c "frozenrel: no line from the guest in 5 s (in part pci): stopped" "$tmp/frozen.err")" = 2 ] &&
	      grep -q "|.*ok - a" "$tmp/frozen.err" && [ -f "$tmp/frozen.log.frozen" ] &&
	      grep -q "frozenrel: booting it once more (the frozen run.s log: .*frozen.log.frozen)" "$tmp/frozen.err"'
check "no process of the stopped guests is left" eval '! running "sleep $nap"'
read -r rc secs <"$tmp/downed.log.status"
check "a guest that ends before its first line is booted once more, then fails with its own status (rc $rc)" \
	eval '[ "$rc" = 255 ] && [ "$(grep -c "ended before it came up" "$tmp/downed.err")" = 2 ] &&
	      [ "$(grep -c "booting it once more" "$tmp/downed.err")" = 1 ] &&
	      grep -q "|.*cannot find script I/O ports" "$tmp/downed.err" &&
	      grep -q "cannot find script" "$tmp/downed.log"'
read -r rc secs <"$tmp/chatty.log.status"
check "a guest that speaks runs to its end (rc $rc)" test "$rc" = 0
check "each of its parts is reported as it ends, with its counts" \
	eval 'grep -q "chattyrel x: part core: 2 passed, 0 failed in 3 s$" "$tmp/chatty.err" &&
	      grep -q "chattyrel x: part mmap: 0 passed, 1 failed in [0-9]* s" "$tmp/chatty.err" &&
	      [ "$(grep -c "chattyrel x: part" "$tmp/chatty.err")" = 2 ]'
check "its first line's time is recorded ($(cat "$tmp/boot-seconds" 2>/dev/null))" \
	grep -Eq "^chattyrel [1-9][0-9]*$" "$tmp/boot-seconds"
check "the next bound is three times the slowest recorded, 120 s at least ($(boot_limit chattyrel) s)" \
	test "$(boot_limit chattyrel)" = 120
echo "chattyrel 70" >>"$tmp/boot-seconds"
check "... $(boot_limit chattyrel) s after a 70 s boot; 600 s for a kernel never booted" \
	eval '[ "$(boot_limit chattyrel)" = 210 ] && [ "$(boot_limit otherrel)" = 600 ]'
check "the six ran at once ($took s)" test "$took" -lt 25

# The guests' side of the deadline (guest.sh, given BPFDRV_DEADLINE): a
# part starts only while the longest so far would end before it; the
# others say skipped, in the words run.sh counts at the run's end. Run on
# the host with pretend parts, in a mount namespace of its own (guest.sh
# mounts bpffs).
mkdir -p "$tmp/tree/selftests/guest"
cp "$(dirname "$0")/../guest.sh" "$tmp/tree/selftests/"
cp "$(dirname "$0")/../guest/lib.sh" "$tmp/tree/selftests/guest/"
for p in 10-first 20-second 30-third; do
	printf 'sleep 2\necho "ok - %s"\n' "${p#*-}" >"$tmp/tree/selftests/guest/$p.sh"
done
unshare --mount --propagation private bash "$tmp/tree/selftests/guest.sh" >"$tmp/late.out" 2>&1
BPFDRV_DEADLINE=$(($(date +%s) + 3)) unshare --mount --propagation private \
	bash "$tmp/tree/selftests/guest.sh" >"$tmp/late-deadline.out" 2>&1
check "guest.sh runs every part without a deadline" \
	test "$(grep -c "^ok - \(first\|second\|third\)$" "$tmp/late.out")" = 3
check "with one 3 s away, it runs the first (2 s) and skips the two it could not end in time" \
	eval 'grep -q "^ok - first$" "$tmp/late-deadline.out" &&
	      [ "$(grep -c "^# skip: part .* past the run.s deadline" "$tmp/late-deadline.out")" = 2 ] &&
	      ! grep -q "^ok - \(second\|third\)$" "$tmp/late-deadline.out"'
