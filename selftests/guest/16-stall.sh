#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# No driver can stall a CPU: the deepest bpfdrv_for() nests the verifier
# admits, in a callback that cannot sleep and in a sleepable one, with the
# soft-lockup and RCU-stall detectors set far below their defaults. (The
# loops no budget bounds are refused at load: the hostile corpus.)
. "$(dirname "$0")/lib.sh"

load_module || { nok "insmod bpfdrv.ko for the stall tests"; exit 0; }

# soft lockups after 2 s instead of 20, RCU stalls after 3 s instead of 21
wd=/proc/sys/kernel/watchdog_thresh
rcu=/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
wd_was=$(cat $wd 2>/dev/null)
rcu_was=$(cat $rcu 2>/dev/null)
[ -n "$wd_was" ] && echo 1 >$wd
[ -n "$rcu_was" ] && echo 3 >$rcu
klog=$(dmesg | wc -l)
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# Eight nested loops (2^240 rounds), or fewer if this kernel's verifier
# refuses them: every round checks the budget, so the depth only changes
# the verifier's work.
depth=
t0=$(now_ms)
for d in $(seq "${BPFDRV_STALL_DEPTH:-8}" -1 2); do
	obj=$TOBJ/loop_depth_$d.bpf.o
	[ $d = 8 ] && obj=$TOBJ/loop_budget.bpf.o
	if $BPFDRV load --pin "$obj" >"$OUT/load" 2>&1; then
		depth=$d
		break
	fi
	echo "# $d nested loops: $(grep -m1 -o 'reason: .*\|too complex.*\|refused it: .*' "$OUT/load")"
done
echo "# loading them took $(($(now_ms) - t0)) ms"
check "the verifier admits $depth nested bpfdrv_for() loops (${BPFDRV_STALL_DEPTH:-8} wanted)" \
	test "$depth" = "${BPFDRV_STALL_DEPTH:-8}"
$BPFDRV unload loop_budget >/dev/null 2>&1

# the read cannot sleep: its loops end at loop_max_ms, and it is ejected
budget=$(cat /sys/module/bpfdrv/parameters/loop_max_ms)
check "load --pin loop_budget ($depth nested loops)" $BPFDRV load --pin "$obj"
read -r rounds call_ms took < <(python3 -S -c '
import os, struct, time
fd = os.open("/dev/bpfdrv/loop_budget", os.O_RDONLY)
t = time.monotonic()
rounds, ns = struct.unpack("<QQ", os.read(fd, 16))
print(rounds, ns // 1000000, int((time.monotonic() - t) * 1000))')
echo "# worst case: a read with $depth nested loops of 2^30 rounds ran $call_ms ms in the program, $took ms for its caller ($rounds rounds; budget $budget ms)"
check "the read's loops ended at the budget: $call_ms ms for a budget of $budget ms" \
	test -n "$call_ms" -a "${call_ms:-0}" -ge "$budget" -a "${call_ms:-0}" -lt $((budget + 1000))
check "loop_budget is ejected for it" wait_gone loop_budget
status_says loop_budget "bpfdrv status says why: read looped for more than $budget ms" \
	"last exit: protocol in read at .*: read looped for more than $budget ms"
$BPFDRV unload loop_budget >/dev/null 2>&1

# the sleepable ioctl yields each round: 6 s on one CPU, then killed
ioctl_loop='import fcntl, os
fcntl.ioctl(os.open("/dev/bpfdrv/loop_budget", os.O_RDONLY), 0x4c01)'
check "load --pin loop_budget again" $BPFDRV load --pin "$obj"
t0=$(now_ms)
# --foreground: timeout kills the command, not its own group (no "Killed"
# line); it exits 124 or, as some versions do after KILL, 137
timeout --foreground -s KILL 6 taskset -c 0 python3 -S -c "$ioctl_loop"
rc=$?
took=$(($(now_ms) - t0))
check "a sleepable ioctl with the same loops runs until its caller is killed ($took ms, exit $rc)" \
	test "$took" -lt 9000 -a \( $rc = 124 -o $rc = 137 \)
check "the driver is still attached after it" test -e /dev/bpfdrv/loop_budget

# and until its driver is detached
python3 -S -c "$ioctl_loop" &
looper=$!
sleep 2
t0=$(now_ms)
check "unload loop_budget while the ioctl loops" $BPFDRV unload loop_budget
took=$(($(now_ms) - t0))
wait $looper
echo "# unloading during the loops took $took ms"
check "... the loops ended with the detach: the ioctl returned" \
	eval '! kill -0 $looper 2>/dev/null'

# and with an LED: the teardown removes it first, and the LED core then
# calls led_set, which waits for the lock the looping ioctl holds; the
# loops end when the teardown begins, not when the instance is dead
check "load --pin loop_led (an LED beside the same loops)" $BPFDRV load --pin $TOBJ/loop_led.bpf.o
python3 -S -c "${ioctl_loop/loop_budget/loop_led}" &
looper=$!
sleep 2
t0=$(now_ms)
timeout 60 $BPFDRV unload loop_led >"$OUT/unload" 2>&1
rc=$?
took=$(($(now_ms) - t0))
check "unload loop_led while its ioctl loops: done in $took ms (exit $rc)" \
	test $rc = 0 -a $took -lt 10000
kill $looper 2>/dev/null	# (if the loops went on, the teardown can end)
wait $looper 2>/dev/null
check "... and loop_led is gone" wait_for 10 node_gone loop_led

# helpers that copy, in a loop the verifier bounds: one path copies at most
# 256 MiB (kmod/allow.c; hostile/amplify_map_copy is refused)
check "load --pin copy_amplify (300 copies of a 128 KiB value a read or timer callback)" \
	$BPFDRV load --pin $TOBJ/copy_amplify.bpf.o
read -r worst_ns timer_ns < <(python3 -S -c '
import os, struct, time
fd = os.open("/dev/bpfdrv/copy_amplify", os.O_RDWR)
worst = timer = 0
for _ in range(20):
    os.write(fd, b"x")			# the timer copies too, 1 ms later
    time.sleep(0.05)
    now, timer = struct.unpack("<QQ", os.read(fd, 16))
    worst = max(worst, now)
print(worst, timer)')
echo "# the longest of 20 reads copied for $((${worst_ns:-0} / 1000)) us; the last timer callback for $((${timer_ns:-0} / 1000)) us"
check "a read copying within the bound stays far below the stall detectors (${worst_ns:-?} ns)" \
	test -n "$worst_ns" -a "${worst_ns:-0}" -lt 500000000
check "... and so does a timer callback (${timer_ns:-?} ns)" \
	test "${timer_ns:-0}" -gt 0 -a "${timer_ns:-0}" -lt 500000000
$BPFDRV unload copy_amplify >/dev/null 2>&1

[ -n "$wd_was" ] && echo "$wd_was" >$wd
[ -n "$rcu_was" ] && echo "$rcu_was" >$rcu
check "no soft lockup or RCU stall while the loops ran" \
	eval '! dmesg | tail -n +$((klog + 1)) | grep -Eq "soft lockup|rcu.*stall|hung_task|blocked for more than"'
