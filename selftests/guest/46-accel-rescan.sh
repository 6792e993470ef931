#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Not in any default list (make test-debug PARTS=accel-rescan): edu_accel's
# function cut off under held DMA jobs, by unbind (odd rounds) or
# hot-remove (even), the bus rescanned and the function bound again, for
# BPFDRV_RESCAN_ROUNDS rounds (24). The debug kernel's guest once stopped,
# idle, right after a rescan (docs/testing.md): a watchdog of shell
# builtins (no exec, no file system but /proc) dumps the kernel's task
# stacks (sysrq w, t) to the console if a round takes over 60 s.
. "$(dirname "$0")/lib.sh"

T=$B/selftests
rounds=${BPFDRV_RESCAN_ROUNDS:-24}
bdf=$(lspci -Dn -d 1234:11e8 | awk 'NR == 1 { print $1 }')
if [ -z "$bdf" ]; then
	echo "# skip: accel-rescan (no edu device: run with -device edu)"
	exit 0
fi
if ! accel_deps; then
	echo "# skip: accel-rescan (this kernel has no DRM shmem helpers or scheduler)"
	exit 0
fi
[ -d /sys/module/bpfdrv ] || insmod "$KO"
check "bpfdrv_accel.ko loads" insmod "$B/kbuild/$(uname -r)/kmod/bpfdrv_accel.ko"
check "edu_accel loads" $BPFDRV load --pin "$OBJ/edu_accel.bpf.o"

echo 1 >/proc/sys/kernel/sysrq
mkfifo "$OUT/tick"
exec 8<>"$OUT/tick"
(
	while :; do
		if ! read -t 60 -u 8 _; then
			echo w >/proc/sysrq-trigger
			echo t >/proc/sysrq-trigger
			read -t 600 -u 8 _
		fi
	done
) &
watchdog=$!

inst_of() { ls "/sys/bus/pci/devices/$1/bpfdrv" 2>/dev/null | head -1; }
node_of() {
	local a

	for a in /sys/class/accel/accel*; do
		[ "$(basename "$(readlink -f "$a/device")")" = "$1" ] &&
			echo "/dev/accel/${a##*/}"
	done
}
for i in $(seq 1 "$rounds"); do
	node=$(node_of "$(inst_of "$bdf")")
	rm -f "$OUT/go"
	mkfifo "$OUT/go"
	$T/test_accel eduhold "$node" <"$OUT/go" >"$OUT/hold" 2>&1 &
	client=$!
	exec 9>"$OUT/go"
	wait_for 30 grep -q "^# ready" "$OUT/hold"
	if [ $((i % 2)) = 0 ]; then
		check "round $i: hot-remove $bdf with DMA jobs held" \
			eval "echo 1 >/sys/bus/pci/devices/$bdf/remove"
	else
		check "round $i: unbind $bdf with DMA jobs held" \
			eval "echo $bdf >/sys/bus/pci/devices/$bdf/driver/unbind"
	fi
	(echo go >&9) 2>/dev/null
	exec 9>&-
	wait $client
	check "round $i: the client's checks pass" test $? -eq 0
	echo 1 >/sys/bus/pci/rescan
	check "round $i: $bdf is back" wait_for 10 test -e "/sys/bus/pci/devices/$bdf"
	check "round $i: bpfdrv bind" timeout 120 $BPFDRV bind "$bdf"
	check "round $i: edu_accel serves it" \
		wait_for 10 eval 'test -n "$(inst_of '"$bdf"')"'
	echo tick >&8
done
kill $watchdog
check "unload edu_accel" $BPFDRV unload edu_accel
for b in $(lspci -Dn -d 1234:11e8 | awk '{ print $1 }'); do
	$BPFDRV unbind "$b" >/dev/null 2>&1
done
check "bpfdrv_accel.ko unloads" wait_for 30 rmmod bpfdrv_accel
