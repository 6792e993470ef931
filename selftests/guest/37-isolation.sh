#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Isolation: while one device's callback sleeps (8 s in the sleeper test
# driver, through the test-only bpfdrv_test_msleep() kfunc), another driver
# attaches, serves I/O and detaches without waiting for it, and a process
# queued behind the sleeping callback can be killed. The checks compare the
# order of events: each must happen at least 1 s before the sleeping callback
# returns (had it waited for the callback, it would come after); the
# durations are printed. The hung-task detector is set to 3 s meanwhile:
# no wait for a sleeping callback may be reported as a hung task (the
# guest log check fails on one).
. "$(dirname "$0")/lib.sh"

hung=/proc/sys/kernel/hung_task_timeout_secs
hung_was=$(cat $hung 2>/dev/null)
if [ -n "$hung_was" ]; then
	echo 3 >$hung
else
	echo "# no hung-task detector in this kernel: waits are not checked"
fi

load_module || { nok "insmod bpfdrv.ko for the isolation tests"; exit 0; }
if ! insmod "$KMODS/bpfdrv_testkf.ko" 2>"$OUT/insmod"; then
	nok "insmod bpfdrv_testkf.ko"
	sed 's/^/# /' "$OUT/insmod"
	exit 0
fi
# its kfunc is no kfunc bpfdrv grants, until the administrator says so
expect_err "sleeper (a test module's kfunc) is refused, naming it" \
	"kfunc bpfdrv_test_msleep.*bpfdrv_testkf.* is not one bpfdrv grants" \
	$BPFDRV load --pin $TOBJ/sleeper.bpf.o
echo bpfdrv_testkf >/sys/module/bpfdrv/parameters/grant_kfuncs_of
check "load --pin sleeper (grant_kfuncs_of=bpfdrv_testkf)" $BPFDRV load --pin $TOBJ/sleeper.bpf.o

now() { date +%s%N; }
# sleepy_read OUT: a read on the sleeper; writes when it returned (ns).
# exec: the background job's pid is the reader's, so kill reaches it.
sleepy_read() {
	exec python3 -S -c '
import os, sys, time
fd = os.open("/dev/bpfdrv/sleeper", os.O_RDONLY)
os.read(fd, 1)
print(time.time_ns())' >"$1" 2>&1
}

# echo_round NAME: attach echo as NAME, pass "hi" through it, detach;
# sets rc and got
echo_round() {
	got=
	$BPFDRV load --pin --name "$1" $OBJ/echo.bpf.o >/dev/null &&
		printf hi >"/dev/bpfdrv/$1" && got=$(cat "/dev/bpfdrv/$1") &&
		$BPFDRV unload "$1"
	rc=$?
}

sleepy_read "$OUT/end1" &
reader=$!
sleep 0.5
t0=$(now)
echo_round iso_echo
t1=$(now)
# a second reader queues on the sleeping device's mutex; kill it
sleepy_read "$OUT/end2" &
queued=$!
sleep 0.3
kill -9 $queued
wait $queued 2>/dev/null
t2=$(now)
check "the queued reader was killed, not left to read" test ! -s "$OUT/end2"
wait $reader
end1=$(cat "$OUT/end1")
echo "# another driver's attach, I/O and detach: $(((t1 - t0) / 1000000)) ms;" \
	"the sleeping read returned $(((end1 - t0) / 1000000)) ms after they began"
check "another driver attached, carried data and detached (rc $rc, got '$got')" \
	test "$rc" -eq 0 -a "$got" = hi
check "... well before the sleeping callback of the other device returned" \
	test $((end1 - t1)) -gt 1000000000
check "a process queued behind the sleeping callback is killed at once" \
	test $((end1 - t2)) -gt 1000000000

# detaching the sleeping device itself waits for its callback, and only
# that: meanwhile another driver attaches, serves and detaches (the wait
# holds none of the BPF core's struct_ops locks)
sleepy_read "$OUT/end3" &
reader=$!
sleep 0.5
t3=$(now)
$BPFDRV unload sleeper >"$OUT/unload" 2>&1 &
unloader=$!
sleep 0.5
t5=$(now)
echo_round iso_echo2
t6=$(now)
wait $unloader
urc=$?
t4=$(now)
wait $reader
end3=$(cat "$OUT/end3")
echo "# the sleeper's own detach took $(((t4 - t3) / 1000000)) ms (its callback had ~7.5 s left);" \
	"meanwhile another driver's attach, I/O and detach took $(((t6 - t5) / 1000000)) ms"
check "unload sleeper while its callback sleeps (it drains the callback; rc $urc)" \
	test "$urc" -eq 0
check "the sleeping read ended" test -s "$OUT/end3"
check "another driver attached, carried data and detached during it (rc $rc, got '$got')" \
	test "$rc" -eq 0 -a "$got" = hi
check "... well before the unloaded driver's sleeping callback returned" \
	test $((end3 - t6)) -gt 1000000000

# a process killed while queued behind a sleeping callback still reaches
# the driver's release, once the callback is done, and meanwhile is no
# hung task
check "load --pin sleeper_release" $BPFDRV load --pin $TOBJ/sleeper_release.bpf.o
exec python3 -S -c '
import os
fd = os.open("/dev/bpfdrv/sleeper_rel", os.O_RDONLY)
os.read(fd, 1)' >/dev/null 2>&1 &
reader=$!
wait_for 5 opens sleeper_rel 1
sleep 0.3
python3 -S -c '
import os
fd = os.open("/dev/bpfdrv/sleeper_rel", os.O_RDONLY)
os.read(fd, 1)' >/dev/null 2>&1 &
queued=$!
wait_for 5 opens sleeper_rel 2
sleep 0.3
kill -9 $queued
wait $reader $queued 2>/dev/null
releases=$(python3 -S -c '
import fcntl, os
print(fcntl.ioctl(os.open("/dev/bpfdrv/sleeper_rel", os.O_RDONLY), 0))')
check "both closes reached release, the killed process's too (count $releases)" \
	test "$releases" = 2
check "unload sleeper_release" $BPFDRV unload sleeper_rel

# a device being unbound drains its sleeping callback without bpfdrv_lock:
# meanwhile another PCI function is bound, served and unbound
mapfile -t edus < <(lspci -Dn -d 1234:11e8 | awk '{ print $1 }')
if [ ${#edus[@]} -ge 2 ]; then
	check "load --pin sleeper on ${edus[0]} as slow" \
		$BPFDRV load --pin --name slow --device "${edus[0]}" $TOBJ/sleeper.bpf.o
	python3 -S -c '
import os, sys, time
fd = os.open("/dev/bpfdrv/slow0", os.O_RDONLY)
try:
    os.read(fd, 1)
except OSError:
    pass
print(time.time_ns())' >"$OUT/end4" 2>&1 &
	reader=$!
	sleep 1
	$BPFDRV unbind "${edus[0]}" >"$OUT/unbind" 2>&1 &
	unbinder=$!
	sleep 0.5
	t0=$(now)
	$BPFDRV load --pin --device "${edus[1]}" $OBJ/edu.bpf.o >/dev/null &&
		fact=$($B/selftests/test_edu fact /dev/bpfdrv/edu0 5) &&
		$BPFDRV unload edu && $BPFDRV unbind "${edus[1]}" >/dev/null
	rc=$?
	t1=$(now)
	wait $reader $unbinder
	end4=$(cat "$OUT/end4")
	echo "# bind, attach, I/O, detach and unbind of ${edus[1]}: $(((t1 - t0) / 1000000)) ms;" \
		"the sleeping callback on ${edus[0]} returned $(((end4 - t0) / 1000000)) ms after they began"
	check "another function was bound, served (5! = $fact) and unbound (rc $rc)" \
		test "$rc" -eq 0 -a "$fact" = 120
	check "... well before the unbound device's sleeping callback returned" \
		test $((end4 - t1)) -gt 1000000000
	check "the unbind completed" eval "! ls /sys/class/bpfdrv | grep -q slow0"
	$BPFDRV unload slow >/dev/null 2>&1

	# a slow init holds up no other device: while it runs on one
	# function, another driver's function is unbound, bound and served
	$BPFDRV bind "${edus[0]}" >/dev/null 2>&1
	$BPFDRV bind "${edus[1]}" >/dev/null 2>&1
	check "load --pin edu on ${edus[1]}" \
		$BPFDRV load --pin --device "${edus[1]}" $OBJ/edu.bpf.o
	t0=$(now)
	$BPFDRV load --pin --device "${edus[0]}" $TOBJ/slow_init.bpf.o \
		>"$OUT/slowinit" 2>&1 &
	loader=$!
	sleep 1
	t1=$(now)
	$BPFDRV unbind "${edus[1]}" >/dev/null && $BPFDRV bind "${edus[1]}" >/dev/null &&
		fact=$($B/selftests/test_edu fact /dev/bpfdrv/edu0 5)
	frc=$?
	t2=$(now)
	# attach runs under the BPF core's struct_ops mutex: the slow init
	# goes on after it, and another driver attaches meanwhile
	echo_round iso_echo3
	t4=$(now)
	wait $loader
	lrc=$?
	t3=$(now)
	echo "# during a 5 s init on ${edus[0]}: unbind, bind and a factorial on ${edus[1]}" \
		"took $(((t2 - t1) / 1000000)) ms; another driver's attach, I/O and detach" \
		"$(((t4 - t2) / 1000000)) ms; the slow attach $(((t3 - t0) / 1000000)) ms"
	check "the slow init's driver attached (rc $lrc)" test "$lrc" -eq 0
	check "... and its loader said it waited" \
		grep -q "slowinit: init is taking long" "$OUT/slowinit"
	check "another function was unbound, bound and served (5! = $fact, rc $frc)" \
		test "$frc" -eq 0 -a "$fact" = 120
	check "another driver attached, carried data and detached (rc $rc, got '$got')" \
		test "$rc" -eq 0 -a "$got" = hi
	check "... both well before the slow init returned" test $((t3 - t4)) -gt 1000000000
	$BPFDRV unload slowinit >/dev/null 2>&1
	# a slow init that fails: its loader waits, then says why and fails
	$BPFDRV load --pin --name slowfail --device "${edus[0]}" \
		$TOBJ/slow_init.bpf.o >"$OUT/slowfail" 2>&1
	lrc=$?
	check "a slow init that fails fails its load (rc $lrc) with the reason" \
		eval "test $lrc -eq 1 && grep -q \"'slowfail' was detached by the kernel: error in init .*slowfail0 could not start: error -5\" $OUT/slowfail"
	sed 's/^/# /' "$OUT/slowfail"
	check "... and leaves nothing attached" eval "! ls /sys/class/bpfdrv | grep -q slowfail"
	$BPFDRV unload edu >/dev/null 2>&1
	$BPFDRV unbind "${edus[0]}" >/dev/null 2>&1
	$BPFDRV unbind "${edus[1]}" >/dev/null 2>&1
else
	echo "# skip: unbind isolation (needs two edu functions)"
fi
# a long loop in a sleepable callback that calls bpfdrv_dev_yield() is no
# soft lockup (the watchdog is set to report one after 2 s meanwhile; the
# guest log check fails on it), and ends with ENODEV as soon as its device
# is unloaded
wd=/proc/sys/kernel/watchdog_thresh
wd_was=$(cat $wd 2>/dev/null)
[ -n "$wd_was" ] && echo 1 >$wd
long_loop() {	# long_loop MS: the yielding ioctl; prints its seconds and result
	python3 -S -c '
import fcntl, os, struct, sys, time
fd = os.open("/dev/bpfdrv/long_loop", os.O_RDONLY)
t = time.time()
try:
    r = fcntl.ioctl(fd, 0x4c01, int(sys.argv[1]))
    print(round(time.time() - t, 2), "ok")
except OSError as e:
    print(round(time.time() - t, 2), os.strerror(e.errno))' "$1"
}
check "load --pin long_loop" $BPFDRV load --pin $TOBJ/long_loop.bpf.o
read -r secs res < <(long_loop 3000)
check "a 3 s loop that yields runs to its end ($res after $secs s; 3000 passed as an integer ioctl argument)" \
	test "$res" = ok -a "${secs%.*}" -ge 2
long_loop 8000 >"$OUT/loop" &
looper=$!
sleep 1
t0=$(now)
check "unload long_loop while its loop runs" $BPFDRV unload long_loop
t1=$(now)
wait $looper
read -r secs res <"$OUT/loop"
echo "# unloading during the loop took $(((t1 - t0) / 1000000)) ms; the loop ended after $secs s: $res"
check "the loop saw its device go and ended with ENODEV" \
	test "$res" = "No such device"
check "... well before its 8 s" test "${secs%.*}" -lt 5
[ -n "$wd_was" ] && echo "$wd_was" >$wd

# the unloaded programs hold the module until their RCU grace periods end,
# which takes seconds on a loaded TCG host
echo >/sys/module/bpfdrv/parameters/grant_kfuncs_of
check "rmmod bpfdrv_testkf" wait_for 30 rmmod bpfdrv_testkf
if [ -d /sys/module/bpfdrv_testkf ]; then	# what still holds it
	echo "# bpfdrv_testkf refcnt $(cat /sys/module/bpfdrv_testkf/refcnt)"
	bpftool prog show | grep -c struct_ops | sed 's/^/# struct_ops programs left: /'
fi
[ -n "$hung_was" ] && echo "$hung_was" >$hung
