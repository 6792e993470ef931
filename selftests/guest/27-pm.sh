#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Power management (ABI 13). Runtime PM: edu_pm (edu asking for a 200 ms
# autosuspend) suspends when idle and every call resumes it first; two
# streams of factorials with idle gaps cycle it, counted by the driver, by
# bpfdrv's stats and by kprobes on the PCI core's runtime callbacks; a
# driver with a BAR mmap window is refused runtime PM. System sleep is
# 28-sleep.sh's, in a guest of its own. Hostile: a suspend that
# fails, one that is busy, a slow resume, a resume that fails, a delay
# refused at load; teardown while suspended.
. "$(dirname "$0")/lib.sh"

EDU=$B/selftests/test_edu
# the edu on the root bus for runtime PM, the other (behind a root port) plain
if ! edu_pair; then
	echo "# skip: power management tests (want two edu devices: run with -device edu)"
	exit 0
fi
load_module || { nok "insmod bpfdrv.ko for the power management tests"; exit 0; }
P=/sys/bus/pci/devices/$bdf/power
rt() { cat "$P/runtime_status"; }
suspended() { [ "$(rt)" = suspended ]; }

# --- runtime PM ---
$BPFDRV unload edu >/dev/null 2>&1
check "edu_pm: loads on $bdf (pm_autosuspend_ms 200)" \
	$BPFDRV load --pin --device "$bdf" $TOBJ/edu_pm.bpf.o
name=$(instance_of "$bdf")
N=/dev/bpfdrv/$name
check "edu_pm: $name: runtime PM allowed by the driver's declaration (power/control auto)" \
	test "$(cat $P/control)" = auto
check "edu_pm: idle, the function runtime-suspends (runtime_status suspended)" \
	wait_for 10 suspended
t1=$(cat $P/runtime_suspended_time)
sleep 1
t2=$(cat $P/runtime_suspended_time)
check "edu_pm: runtime_suspended_time grows while idle ($t1 -> $t2 ms)" test "$t2" -gt "$t1"
r0=$(stat_of "$name" resume)
check "edu_pm: a call resumes it, and the factorial is right" \
	eval "$EDU fact $N 5 | grep -qx 120"
check "edu_pm: the driver's resume ran for it" test "$(stat_of "$name" resume)" -gt "$r0"
check "edu_pm: idle again, suspended again" wait_for 10 suspended
check "edu_pm: factorials 0..12 right from a suspended device" \
	eval "$EDU facts $N | cmp - <(known_facts)"
check "edu_pm: a DMA round trip from a suspended device" \
	eval "wait_for 10 suspended && $EDU dma $N"

# runtime PM with a BAR window: a fault would have to resume the device
# under the process's mmap lock, which a callback copying user memory
# under the instance's mutex takes too (lockdep saw the cycle): refused
expect_refused "edu_pmmap" $TOBJ/edu_pmmap.bpf.o \
	"runtime PM is not offered to drivers with BAR mmap windows" --device "$other"

# the stream: two processes, bursts of factorials with idle gaps of 0-500 ms,
# counted from suspended to suspended by bpfdrv's stats (read without a call)
kp=
echo 0 >$TFS/tracing_on
echo >$TFS/trace
echo 20000 >$TFS/buffer_size_kb
if echo "p:bpfdrv_pm/rsus pci_pm_runtime_suspend name=+0(+0(%di)):string" >>$TFS/kprobe_events 2>/dev/null &&
	echo "p:bpfdrv_pm/rres pci_pm_runtime_resume name=+0(+0(%di)):string" >>$TFS/kprobe_events 2>/dev/null; then
	for e in rsus rres; do
		echo "name == \"$bdf\"" >$TFS/events/bpfdrv_pm/$e/filter
		echo 1 >$TFS/events/bpfdrv_pm/$e/enable
	done
	kp=1
fi
wait_for 10 suspended
echo 1 >$TFS/tracing_on
s0=$(stat_of "$name" suspend) r0=$(stat_of "$name" resume)
$EDU pmstream $N 20 >"$OUT/s1" 2>&1 &
p1=$!
$EDU pmstream $N 20 >"$OUT/s2" 2>&1 &
p2=$!
wait $p1
rc1=$?
wait $p2
rc2=$?
check "edu_pm: two streams of factorials for 20 s with idle gaps: all right, none lost ($(cat "$OUT/s1"); $(cat "$OUT/s2"))" \
	eval "[ $rc1 = 0 ] && [ $rc2 = 0 ] && grep -q '^right [1-9][0-9]* eio 0 wrong 0 other 0' '$OUT/s1' && grep -q '^right [1-9][0-9]* eio 0 wrong 0 other 0' '$OUT/s2'"
wait_for 10 suspended
s1=$(stat_of "$name" suspend) r1=$(stat_of "$name" resume)
echo 0 >$TFS/tracing_on
ds=$((s1 - s0)) dr=$((r1 - r0))
check "edu_pm: it cycled under the streams ($ds suspends, $dr resumes), as many of each" \
	eval "[ $ds -ge 3 ] && [ $ds = $dr ]"
# the driver's own count, by one call, which resumes it once more (two
# calls may let it suspend between them on a slow kernel)
line=$($EDU pm $N)
expect_eq "edu_pm: the driver counted every suspend and resume bpfdrv made" \
	"$(awk '{ for (i = 1; i < NF; i++) if ($i == "suspends") print $(i + 1) }' <<<"$line") $(awk '{ for (i = 1; i < NF; i++) if ($i == "resumes") print $(i + 1) }' <<<"$line")" \
	"$s1 $((r1 + 1))"
if [ -n "$kp" ]; then
	ks=$(grep -c 'rsus:' $TFS/trace) kr=$(grep -c 'rres:' $TFS/trace)
	expect_eq "edu_pm: kprobes on the PCI core's runtime callbacks count them too" "$ks $kr" "$ds $dr"
	for e in rsus rres; do echo 0 >$TFS/events/bpfdrv_pm/$e/enable; done
	echo '-:bpfdrv_pm/rsus' >>$TFS/kprobe_events
	echo '-:bpfdrv_pm/rres' >>$TFS/kprobe_events
else
	echo "# skip: the kprobe count of the PCI core's runtime callbacks (no kprobe events here)"
fi
expect_eq "edu_pm: no call of the driver came while it was suspended" "$(edu_pm_count $N quiesced_calls)" 0
hist=$(edu_pm_count $N hist)
check "edu_pm: suspends and resumes alternate (the last 16, newest last: $hist)" \
	eval "[[ ! $hist =~ 11|33 ]]"

# --- hostile: what the driver's suspend and resume do wrong ---
klog=$(dmesg | wc -l)
check "edu_pm: its next suspends return -EIO" $EDU pmfail $N -5 0 0
sleep 1.5
check "edu_pm: a failed runtime suspend leaves the function active" test "$(rt)" = active
check "edu_pm: and is reported in the kernel log" \
	eval "dmesg | tail -n +$((klog + 1)) | grep -q 'runtime suspend failed: -5; the device stays active'"
check "edu_pm: calls still work after it" eval "$EDU fact $N 6 | grep -qx 720"
s0=$(edu_pm_count $N suspends)
klog=$(dmesg | wc -l)
check "edu_pm: its next suspends return -EBUSY" $EDU pmfail $N -16 0 0
sleep 1.5
s1=$(edu_pm_count $N suspends)
check "edu_pm: -EBUSY keeps it active ($(rt)) and is tried again after the delay ($((s1 - s0 - 0)) tries in 1.5 s), not reported" \
	eval "[ $(rt) = active ] && [ $((s1 - s0)) -ge 2 ] && ! dmesg | tail -n +$((klog + 1)) | grep -q 'suspend failed: -16'"
check "edu_pm: its next resumes take 700 ms" $EDU pmfail $N 0 0 700
check "edu_pm: suspended" wait_for 10 suspended
start=$(date +%s%N)
$EDU fact $N 7 >"$OUT/f1" 2>&1 &
f1=$!
$EDU fact $N 8 >"$OUT/f2" 2>&1
wait $f1
ms=$((($(date +%s%N) - start) / 1000000))
check "edu_pm: two calls during a slow resume wait for it ($ms ms) and are right" \
	eval "[ $ms -ge 700 ] && grep -qx 5040 '$OUT/f1' && grep -qx 40320 '$OUT/f2'"
# unload in the middle of a slow resume: the call ends, the unload too
check "edu_pm: suspended" wait_for 10 suspended
timeout 30 $EDU fact $N 9 >"$OUT/f3" 2>&1 &
f3=$!
sleep 0.3
timeout 30 $BPFDRV unload edu >/dev/null 2>&1
urc=$?
wait $f3
frc=$?
check "edu_pm: unloaded during a slow resume (exit $urc); the call it resumed for ended (exit $frc: $(head -c 60 "$OUT/f3"))" \
	eval "[ $urc = 0 ] && [ $frc != 124 ] && { grep -qx 362880 '$OUT/f3' || [ $frc != 0 ]; }"
check "edu_pm: the function active after it, runtime PM forbidden" \
	eval "[ $(cat $P/control) = on ] && [ $(rt) = active ]"
check "edu_pm: loads again" $BPFDRV load --pin --device "$bdf" $TOBJ/edu_pm.bpf.o
name=$(instance_of "$bdf")
N=/dev/bpfdrv/$name
check "edu_pm: its next resumes return -EIO" $EDU pmfail $N 0 -5 0
check "edu_pm: suspended" wait_for 10 suspended
expect_err "edu_pm: a call after a failed resume gets EIO" "Input/output error\|EIO" $EDU fact $N 5
check "edu_pm: the driver is ejected for it" wait_for 10 node_gone "$name"
check "edu_pm: the kernel log says why: runtime resume failed: -5" \
	eval "dmesg | grep -q 'ejected (callback resume): runtime resume failed: -5'"
check "edu_pm: the function stays bound to bpfdrv" test "$(driver_of "$bdf")" = bpfdrv
check "edu_pm: runtime PM forbidden again (power/control on), active" \
	eval "[ $(cat $P/control) = on ] && [ $(rt) = active ]"
$BPFDRV unload edu >/dev/null 2>&1

# --- teardown of a suspended instance: resumed before exit ---
check "edu_pm: loads again" $BPFDRV load --pin --device "$bdf" $TOBJ/edu_pm.bpf.o
name=$(instance_of "$bdf")
check "edu_pm: suspended" wait_for 10 suspended
check "edu_pm: unloads while suspended" $BPFDRV unload edu
check "edu_pm: the function is active again with runtime PM forbidden" \
	eval "[ $(cat $P/control) = on ] && [ $(rt) = active ]"
check "edu: the plain driver serves the function after it" \
	$BPFDRV load --pin --device "$bdf" $OBJ/edu.bpf.o
check "edu: factorials right" eval "$EDU facts /dev/bpfdrv/$(instance_of "$bdf") | cmp - <(known_facts)"
$BPFDRV unload edu >/dev/null 2>&1

# --- wrong values, refused at load ---
expect_refused "pm" $TOBJ/edu_pmbig.bpf.o "pm_autosuspend_ms 90000000 is more than a day"
