#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Live update (bpfdrv update): drivers get new code while their files stay
# open. Data in maps and per-device storage carries over; updates that would
# change what a driver is, or whose code fails, are refused and the old code
# goes on serving; a storm of 8 processes on echo and fifo sees 24 updates
# of each with no failed call and no lost byte; edu is updated while
# factorials and DMA run, and while its second function is unbound, bound
# and hot-removed.
. "$(dirname "$0")/lib.sh"

U=$TOBJ/update
UPD=$TOBJ/test_update
load_module || { nok "insmod bpfdrv.ko for the update tests"; exit 0; }

version() { $UPD version "/dev/bpfdrv/$1" 2>&1; }
# update NAME OBJ [ARGS]: bpfdrv update, its output in $OUT/upd
update() { $BPFDRV update "$@" >"$OUT/upd" 2>&1; local rc=$?; sed 's/^/# /' "$OUT/upd"; return $rc; }
# refused DESCRIPTION MESSAGE NAME OBJ [ARGS]: the update fails, saying MESSAGE
refused() {
	local desc=$1 msg=$2

	shift 2
	if update "$@"; then
		nok "$desc: refused (it succeeded)"
	else
		check "$desc: refused, saying '$msg'" grep -q -- "$msg" "$OUT/upd"
	fi
}
struct_ops_maps() { bpftool map show | grep -c struct_ops; }

check "load --pin echo" $BPFDRV load --pin $OBJ/echo.bpf.o
check "load --pin fifo" $BPFDRV load --pin $OBJ/fifo.bpf.o
maps_before=$(struct_ops_maps)

# --- one update, with a file open across it ---
exec 7<>/dev/bpfdrv/echo
printf 'written before' >&7
check "echo runs version 1" test "$(version echo)" = 1
check "update echo to version 2" update echo $U/echo_v2.bpf.o
check "the tool says the state map was kept and how long the swap took" \
	eval 'grep -q "map echo_state kept" $OUT/upd && grep -q "updated to .* in [0-9.]* ms" $OUT/upd'
check "echo runs version 2" test "$(version echo)" = 2
check "the tool names the one callback whose code changed (ioctl: the version)" \
	eval 'grep -qx "echo: callbacks changed: ioctl" $OUT/upd && grep -q "callbacks unchanged: init read write poll takeover" $OUT/upd'
printf ', after' >&7
got=$(timeout 5 dd bs=64 count=1 <&7 2>/dev/null)
check "a file open across the update reads back what it wrote before and after ('$got')" \
	test "$got" = "written before, after"
exec 7>&-
check "/sys/kernel/bpfdrv/drivers counts one update of echo" \
	grep -qx "echo [0-9]* 1 1" /sys/kernel/bpfdrv/drivers
check "/sys/kernel/bpfdrv/last_update says it was done" \
	grep -q "^echo done 1 instance" /sys/kernel/bpfdrv/last_update

# --- refused updates keep the old code serving ---
printf 'still here' >/dev/bpfdrv/echo
refused "an object declaring another driver (fifo)" "the new code changes its name" \
	echo $OBJ/fifo.bpf.o
refused "a takeover that cannot read the state (layout 2)" "takeover failed on echo: -71" \
	echo $U/echo_layout2.bpf.o
refused "a takeover that loops without end (cut at loop_max_ms)" \
	"takeover on echo looped past its budget" echo $U/echo_takeloop.bpf.o
refused "an object the verifier rejects" "the kernel rejected program" \
	echo $TOBJ/bad_oob.bpf.o
refused "a driver that is not attached" "no such driver attached" \
	nosuch $OBJ/echo.bpf.o
refused "a file that is not a BPF object" "not a BPF object file" \
	echo /etc/hostname
refused "a renamed declaration (--name echo2)" "the new code changes its name" \
	echo $U/echo_v2.bpf.o --name echo2
refused "another node mode (0600)" "the new code changes its node mode" \
	echo $U/id_mode.bpf.o
refused "other flags (seekable)" "the new code changes its flags" \
	echo $U/id_flags.bpf.o
check "after the refusals echo still runs version 2" test "$(version echo)" = 2
check "and still holds its data" test "$(cat /dev/bpfdrv/echo)" = "still here"
check "the kernel said why in its log" \
	grep -q "update of driver echo refused: takeover failed" <(dmesg)

# --- a call that does not end makes the update wait 1 s, then give up ---
check "load --pin long_loop" $BPFDRV load --pin $TOBJ/long_loop.bpf.o
python3 -c '
import fcntl, os
fcntl.ioctl(os.open("/dev/bpfdrv/long_loop", os.O_RDONLY), 0x4c01, 12000)' &
looper=$!
# the ioctl is counted when it starts (Python's start took over 10 s on
# the debug kernel of a loaded host)
if wait_for 60 grep -qx "ioctl [1-9][0-9]*" /sys/class/bpfdrv/long_loop/stats; then
	refused "an update while an ioctl runs for 12 s" \
		"long_loop stayed in its ioctl callback for more than 1000 ms" \
		long_loop $TOBJ/long_loop.bpf.o
else
	nok "long_loop's 12 s ioctl started within 60 s"
fi
wait $looper
check "the same update once the call ended" update long_loop $TOBJ/long_loop.bpf.o
check "unload long_loop" $BPFDRV unload long_loop

# --- a driver attached by a running bpfdrv load (no pin) ---
$BPFDRV load --name echofg $OBJ/echo.bpf.o >"$OUT/fg" 2>&1 &
loader=$!
wait_for 10 test -e /dev/bpfdrv/echofg
check "update a driver held by a foreground bpfdrv load" \
	update echofg $U/echo_v2.bpf.o --name echofg
check "it runs version 2" test "$(version echofg)" = 2
kill -INT $loader
wait $loader
check "the loader's exit still detaches it" wait_for 10 node_gone echofg

# --- the storm ---
both() {	# both V: update echo and fifo to version V at once
	local e f

	if [ "$1" = 2 ]; then e=$U/echo_v2.bpf.o f=$U/fifo_v2.bpf.o
	else e=$OBJ/echo.bpf.o f=$OBJ/fifo.bpf.o; fi
	echo "$BPFDRV update echo $e & p=\$!; $BPFDRV update fifo $f; r=\$?; wait \$p && [ \$r = 0 ]"
}
$BPFDRV update echo $OBJ/echo.bpf.o >/dev/null
cat /dev/bpfdrv/echo >/dev/null
# each round takes about 2 s under TCG (5 s on PREEMPT_RT); every process
# must see each switch, which test_update checks
storm=12
$UPD storm /dev/bpfdrv/echo /dev/bpfdrv/fifo $storm "$(both 2)" "$(both 1)"
read -r _ _ _ echo_updates < <(grep "^echo " /sys/kernel/bpfdrv/drivers)
read -r _ _ _ fifo_updates < <(grep "^fifo " /sys/kernel/bpfdrv/drivers)
check "the kernel counted $storm more updates of each ($echo_updates, $fifo_updates)" \
	test "$echo_updates" -ge $((storm + 2)) -a "$fifo_updates" -ge $storm
check "the old struct_ops maps are freed ($maps_before before, as many after)" \
	wait_for 10 eval '[ "$(struct_ops_maps)" = "$maps_before" ]'
check "unload echo" $BPFDRV unload echo
check "unload fifo" $BPFDRV unload fifo

# --- claimed GPIO lines stay claimed and driven; other lines are refused ---
LABEL=bpfdrv-loopback
if insmod "$KMODS/gpio_loopback.ko" 2>/dev/null; then
	CHIP=$(gpiodetect | awk -v l="[$LABEL]" '$2 == l { print $1 }')
	levels() { gpioget -c "$CHIP" --numeric "$@" | tr -d ' '; }
	check "load --pin gpio_leds" $BPFDRV load --pin $OBJ/gpio_leds.bpf.o
	printf 1010 >/dev/bpfdrv/gpio_leds
	refused "gpio_leds: other lines (--gpio-lines 4,5,6,7)" \
		"the new code changes its GPIO lines" gpio_leds $OBJ/gpio_leds.bpf.o --gpio-lines 4,5,6,7
	check "gpio_leds: an update with the same lines" update gpio_leds $OBJ/gpio_leds.bpf.o
	check "gpio_leds: the lines stay driven across it (lines 8-11 read 1010 through gpioget)" \
		test "$(levels 8 9 10 11)" = 1010
	check "gpio_leds: line 0 is still used by bpfdrv:gpio_leds (gpioinfo)" \
		grep -q 'consumer=bpfdrv:gpio_leds$' <(gpioinfo --unquoted -c "$CHIP" 0)
	printf 0101 >/dev/bpfdrv/gpio_leds
	check "gpio_leds: the new code drives them (0101)" test "$(levels 8 9 10 11)" = 0101
	check "gpio_leds: its LED class devices stay, and the new code serves them (led2 on: 0111)" \
		eval 'echo 1 >/sys/class/leds/gpio_leds:led2/brightness &&
		      [ "$(levels 8 9 10 11)" = 0111 ]'
	check "unload gpio_leds" $BPFDRV unload gpio_leds
	rmmod gpio_loopback
else
	echo "# skip: GPIO update (gpio_loopback.ko does not load)"
fi

# --- edu, with factorials and DMA running ---
mapfile -t edus < <(lspci -Dn -d 1234:11e8 | awk '{ print $1 }')
if [ ${#edus[@]} -lt 2 ]; then
	echo "# skip: edu update (want two edu devices, found ${#edus[@]})"
	exit 0
fi
EDU=$TOBJ/test_edu
known_facts >"$OUT/known"
# what is tested here is the update, not irq_hard's time: a vCPU the host
# deschedules stretches calls past 10 ms under TCG (24-irq.sh does the same)
hard_max=/sys/module/bpfdrv/parameters/irq_hard_max_us
hard_was=$(cat $hard_max)
echo 500000 >$hard_max
check "load --pin edu" $BPFDRV load --pin $OBJ/edu.bpf.o
irq_before=$(cat /sys/class/bpfdrv/edu0/irq_count)
rm -f "$OUT/edu_stop"
(	n=0
	while [ ! -e "$OUT/edu_stop" ]; do
		$EDU facts /dev/bpfdrv/edu0 >"$OUT/facts" 2>&1 && cmp -s "$OUT/known" "$OUT/facts" || exit 1
		n=$((n + 1))
	done
	echo $n >"$OUT/facts_runs") &
facts=$!
(	n=0
	while [ ! -e "$OUT/edu_stop" ]; do
		$EDU dma /dev/bpfdrv/edu1 >/dev/null 2>&1 || exit 1
		n=$((n + 1))
	done
	echo $n >"$OUT/dma_runs") &
dma=$!
bad=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	if [ $((i % 2)) = 1 ]; then obj=$U/edu_v2.bpf.o; v=2; else obj=$OBJ/edu.bpf.o; v=1; fi
	$BPFDRV update edu $obj >"$OUT/upd" 2>&1 || { bad=$((bad + 1)); sed 's/^/# /' "$OUT/upd"; }
	[ "$(version edu0)" = $v ] && [ "$(version edu1)" = $v ] || bad=$((bad + 1))
done
touch "$OUT/edu_stop"
if [ $bad != 0 ]; then	# why, for a failure seen only in CI
	tail -n 5 /sys/kernel/bpfdrv/exits 2>/dev/null | sed 's/^/# exits: /'
	dmesg | grep -i bpfdrv | tail -n 10 | sed 's/^/# log: /'
fi
wait $facts
frc=$?
wait $dma
drc=$?
check "10 updates of edu (two instances), each serving the new version at once ($bad failed)" \
	test $bad = 0
check "factorials on edu0 stayed right through them ($(cat "$OUT/facts_runs" 2>/dev/null) runs of 0..12)" \
	test $frc = 0
check "DMA round trips on edu1 stayed right through them ($(cat "$OUT/dma_runs" 2>/dev/null) runs)" \
	test $drc = 0
check "edu0 kept its interrupt: it counted more ($irq_before before)" \
	test "$(cat /sys/class/bpfdrv/edu0/irq_count)" -gt "$irq_before"
refused "edu: another PCI ID list" "the new code changes its PCI IDs" \
	edu $U/id_ids.bpf.o
refused "edu: no interrupt callback (its interrupt was set up for irq_hard)" \
	"the new code changes whether it has an irq_hard callback" edu $U/id_noirq.bpf.o
refused "edu: one function instead of the IDs (--device)" "the new code changes its PCI slot" \
	edu $U/edu_v2.bpf.o --device "${edus[0]}"
check "edu still serves after the refusals" \
	eval '$EDU fact /dev/bpfdrv/edu1 5 | grep -qx 120'

# --- updates racing unbind, bind and hot-remove of the second function ---
# An update of a driver whose instances come and go may be refused ("came or
# went meanwhile": the old code serves), but the driver stays attached.
edu_maps=$(struct_ops_maps)
rm -f "$OUT/churn_stop"
(	n=0
	while [ ! -e "$OUT/churn_stop" ]; do
		n=$((n + 1))
		if [ $((n % 4)) = 0 ]; then
			echo 1 >"/sys/bus/pci/devices/${edus[1]}/remove"
			echo 1 >/sys/bus/pci/rescan
			wait_for 5 test -e "/sys/bus/pci/devices/${edus[1]}"
		else
			$BPFDRV unbind "${edus[1]}" >/dev/null 2>&1
		fi
		$BPFDRV bind "${edus[1]}" >/dev/null 2>&1
	done
	echo $n >"$OUT/churn_runs") &
churn=$!
done_ok=0 busy=0 bad=0
for i in $(seq 1 20); do
	if [ $((i % 2)) = 1 ]; then obj=$U/edu_v2.bpf.o; else obj=$OBJ/edu.bpf.o; fi
	if $BPFDRV update edu $obj >"$OUT/upd" 2>&1; then
		done_ok=$((done_ok + 1))
	elif grep -q "came or went meanwhile" "$OUT/upd"; then
		busy=$((busy + 1))
	else
		bad=$((bad + 1))
		sed 's/^/# /' "$OUT/upd"
	fi
done
touch "$OUT/churn_stop"
wait $churn
[ -e "/sys/bus/pci/devices/${edus[1]}" ] || echo 1 >/sys/bus/pci/rescan
wait_for 5 test -e "/sys/bus/pci/devices/${edus[1]}"
[ "$(driver_of "${edus[1]}")" = bpfdrv ] || $BPFDRV bind "${edus[1]}" >/dev/null 2>&1
check "20 updates of edu racing $(cat "$OUT/churn_runs" 2>/dev/null) unbinds and hot-removes of edu1: $done_ok done, $busy refused as busy, none failed otherwise" \
	test $bad = 0 -a $done_ok -gt 0
if $BPFDRV status edu >"$OUT/status" 2>&1 && ! grep -q "last exit" "$OUT/status" &&
	$BPFDRV list | grep -q "^edu "; then
	ok "edu is still attached after the race, with no exit recorded"
else
	nok "edu is still attached after the race, with no exit recorded"
	sed 's/^/# /' "$OUT/status"
	tail -n 5 /sys/kernel/bpfdrv/exits 2>/dev/null | sed 's/^/# exits: /'
fi
check "edu0 serves after the race" eval '$EDU fact /dev/bpfdrv/edu0 6 | grep -qx 720'
check "edu1, bound again, serves after the race" \
	eval 'wait_for 5 test -c /dev/bpfdrv/edu1 && $EDU fact /dev/bpfdrv/edu1 5 | grep -qx 120'
check "the race left no struct_ops map behind ($edu_maps before, $(struct_ops_maps) after)" \
	test "$(struct_ops_maps)" = "$edu_maps"
check "unload edu" $BPFDRV unload edu
check "unload edu leaves no struct_ops map of it" \
	test "$(struct_ops_maps)" -lt "$edu_maps"

# --- a refused update after the new takeover ran: the old code takes back ---
check "load --pin takeback on both edu functions" \
	$BPFDRV load --pin $TOBJ/takeback.bpf.o
taken() { od -An -tu4 -N4 /dev/bpfdrv/takeback$1 | xargs; }
refused "takeback: a takeover that fails on the second instance" \
	"takeover failed on takeback" takeback $U/takeback_fail.bpf.o
check "the old code took back the one instance the new code had taken ($(taken 0) and $(taken 1) takeovers)" \
	test "$(( $(taken 0) + $(taken 1) ))" = 1
check "unload takeback" $BPFDRV unload takeback
echo "$hard_was" >$hard_max
