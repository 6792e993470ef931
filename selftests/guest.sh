#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the test VM, from the source tree: runs the test parts in
# selftests/guest/ (all of them, or those named: "guest.sh core pci";
# "-x PART" leaves one out), then checks the kernel log. Prints unnumbered
# TAP lines; the host numbers them. "-e NAME=VALUE" exports a setting
# (BPFDRV_TRACE_SHORT=1: the tracing part leaves out its repetitions;
# BPFDRV_PART_TIMEOUT=s: a part's limit, default 600; BPFDRV_DEADLINE=t:
# a part starts only if the longest so far would end before t, seconds
# since the epoch, and says skipped otherwise).
set -u
cd "$(dirname "$0")/.."
. selftests/guest/lib.sh

echo "# kernel $(uname -r)"
mount -t bpf bpf /sys/fs/bpf 2>/dev/null
# booted with memory debugging (vm/run.sh): say so, and that it is on
if grep -q slub_debug /proc/cmdline; then
	check "SLUB debugging (poison, red zones, checks) is on: $(grep -o 'slub_debug=[^ ]*' /proc/cmdline)" \
		grep -q 1 /sys/kernel/slab/kmalloc-4k/poison
	grep -q "kfence.sample_interval=[1-9]" /proc/cmdline &&
		check "KFENCE samples allocations (every $(cat /sys/module/kfence/parameters/sample_interval) ms)" \
			eval '[ "$(cat /sys/module/kfence/parameters/sample_interval)" -gt 0 ]'
fi

# A part that hangs fails, shows where the kernel is stuck, and leaves the
# guest's time to the parts after it (the host's limit is for the whole
# boot): the stacks of the tasks in bpfdrv's code, and the log's end.
# Those in D state too: bpfdrv's own waits are TASK_IDLE ("I", no hung
# task), a wait elsewhere may be for them.
stuck_tasks() {
	local t state

	for t in /proc/[0-9]*/task/[0-9]*; do
		state=$(awk '{ print $3 }' "$t/stat" 2>/dev/null)
		[ "$state" = D ] || grep -q bpfdrv "$t/stack" 2>/dev/null || continue
		echo "# $(cat "$t/comm" 2>/dev/null) (task ${t##*/}, state $state):"
		sed 's/^/#   /' "$t/stack"
	done
	dmesg | tail -n 40 | sed 's/^/# log: /'
}

skip=" "
while [ "${1:-}" = -x ] || [ "${1:-}" = -e ]; do
	if [ "$1" = -e ]; then
		export "${2?}"	# -e NAME=VALUE: a setting for the parts
	else
		skip+="$2 "
	fi
	shift 2
done
# read after the settings: -e BPFDRV_PART_TIMEOUT=s sets it
part_limit=${BPFDRV_PART_TIMEOUT:-600}
echo "# each part's limit: $part_limit s"
longest=0
for part in selftests/guest/[0-9]*-*.sh; do
	name=${part##*/[0-9][0-9]-}
	name=${name%.sh}
	if { [ $# -gt 0 ] && ! [[ " $* " == *" $name "* ]]; } || [[ $skip == *" $name "* ]]; then
		[[ $skip == *" $name "* ]] && echo "# part $name: left out on this kernel"
		continue
	fi
	if [ -n "${BPFDRV_DEADLINE:-}" ] && [ $(($(date +%s) + longest)) -gt "$BPFDRV_DEADLINE" ]; then
		echo "# skip: part $name: it would end past the run's deadline (the longest part so far took $longest s)"
		continue
	fi
	echo "# part $name"
	start=$SECONDS
	timeout -k 10 "$part_limit" bash "$part" &
	pid=$!
	# A part its limit's KILL does not end is stuck in the kernel, where
	# no signal reaches it (and timeout waits for it): say where, and end
	# the guest rather than leave the host's limit to end it in silence.
	(
		sleep $((part_limit + 30))
		kill -0 $pid 2>/dev/null || exit 0
		nok "part $name ended within $part_limit s (a task of it cannot be killed)"
		stuck_tasks
		echo "# guest stopped: part $name is stuck"
		echo o >/proc/sysrq-trigger
	) &
	guard=$!
	wait $pid
	rc=$?
	kill $guard 2>/dev/null
	if [ $rc = 124 ] || [ $rc = 137 ]; then
		nok "part $name ended within $part_limit s"
		stuck_tasks
	elif [ $rc = 139 ] || [ $rc = 134 ]; then	# its shell crashed
		nok "part $name ran to its end (its shell died of signal $((rc - 128)))"
	fi
	echo "# part $name took $((SECONDS - start)) s"
	[ $((SECONDS - start)) -gt "$longest" ] && longest=$((SECONDS - start))
done

if [ -d /sys/module/bpfdrv ]; then
	check "rmmod bpfdrv after every part" wait_for 30 rmmod bpfdrv
	if [ -d /sys/module/bpfdrv ]; then	# what still holds it
		echo "# bpfdrv refcnt $(cat /sys/module/bpfdrv/refcnt); drivers: $(cat /sys/kernel/bpfdrv/drivers)"
		bpftool map show | grep -A2 struct_ops | sed 's/^/# /'
		bpftool link show | grep -A2 struct_ops | sed 's/^/# /'
	fi
fi

# --- the kernel log must be clean ---
bad="WARNING:|BUG:|Oops|Call Trace|general protection"
bad="$bad|rcu: INFO: .* detected stalls|rcu_.* self-detected stall|blocked for more than"
bad="$bad|soft lockup|hard LOCKUP|possible circular locking|possible recursive locking"
# lockdep's reports (not its banner, "RCU lockdep checking is enabled")
bad="$bad|inconsistent lock state|suspicious RCU usage|bad unlock balance"
bad="$bad|DEBUG_LOCKS_WARN_ON|trying to register non-static key"
bad="$bad|turning off the locking correctness validator"
# SLUB debug (slub_debug=FZP) reports as "BUG kmalloc-64 (...): Poison overwritten"
bad="$bad|Poison overwritten|Redzone overwritten|Object padding overwritten"
bad="$bad|Freepointer corrupt|KASAN|KFENCE|ODEBUG"
if dmesg | grep -E "$bad" >"$OUT/dmesg"; then
	nok "kernel log has no WARNING, BUG, Oops, stall, hung task, lockup or lockdep report"
	sed 's/^/# /' "$OUT/dmesg" | head -40
else
	ok "kernel log has no WARNING, BUG, Oops, stall, hung task, lockup or lockdep report"
fi
echo "# guest done"
