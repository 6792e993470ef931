#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The versioned driver ABI: drivers built with the frozen headers of each
# version (selftests/abi/v1/, v2/, v3/, v4/, v6/, v7/, v8/, v10/, v11/, v12/) keep loading and working; a driver built
# for a newer ABI is refused by the loader and by the module, naming both
# versions.
. "$(dirname "$0")/lib.sh"

V1=$TOBJ/abi/v1
# the version the headers declare, and the one future.bpf.c is built for
ABI=$(awk '$2 == "BPFDRV_ABI_VERSION" { print $3 }' include/bpfdrv_abi.h)
NEXT=$((ABI + 1))
load_module || { nok "insmod bpfdrv.ko for the ABI tests"; exit 0; }

expect_eq "abi: the module reports ABI version $ABI" \
	"$(cat /sys/module/bpfdrv/parameters/abi_version)" "$ABI"
check "abi: the module's ABI version is read-only" \
	eval '! echo 7 >/sys/module/bpfdrv/parameters/abi_version 2>/dev/null &&
	      [ "$(cat /sys/module/bpfdrv/parameters/abi_version)" = "$ABI" ]'

# --- version 1: the echo driver as it was ---
check "abi v1: echo built with the version-1 headers loads" \
	$BPFDRV load --pin --name echo_abi1 $V1/echo.bpf.o
check "abi v1: echo round trip through /dev/bpfdrv/echo_abi1" \
	bash -c 'printf abi-one >/dev/bpfdrv/echo_abi1 &&
		 test "$(head -c 7 /dev/bpfdrv/echo_abi1)" = abi-one'
check "abi v1: unload echo_abi1" $BPFDRV unload echo_abi1

# --- version 1: the edu PCI driver as it was (MMIO, interrupts, DMA) ---
if [ "$(lspci -Dn -d 1234:11e8 | wc -l)" -ge 1 ]; then
	check "abi v1: edu built with the version-1 headers binds and loads" \
		$BPFDRV load --pin $V1/edu.bpf.o
	$B/selftests/test_edu facts /dev/bpfdrv/edu0 >"$OUT/facts" 2>&1
	check "abi v1: edu computes the factorials 0..12 by interrupt" \
		diff "$OUT/facts" <(known_facts)
	$B/selftests/test_edu dma /dev/bpfdrv/edu0 >"$OUT/dma" 2>&1
	check "abi v1: edu DMA round trip" test $? -eq 0
	sed 's/^/# /' "$OUT/dma" | head -5
	check "abi v1: unload edu" $BPFDRV unload edu
	for bdf in $(lspci -Dn -d 1234:11e8 | awk '{ print $1 }'); do
		$BPFDRV unbind "$bdf" >/dev/null 2>&1
	done
else
	echo "# skip: abi v1 edu (no edu device: run with -device edu)"
fi

# --- version 2: the class devices as they were ---
V2=$TOBJ/abi/v2
check "abi v2: panel built with the version-2 headers loads" \
	$BPFDRV load --pin $V2/panel.bpf.o
check "abi v2: its LED takes brightness 5 and its sensor then reads 5000" \
	eval 'echo 5 >/sys/class/leds/panel:status/brightness &&
	      hw=$(grep -lx panel /sys/class/hwmon/hwmon*/name) &&
	      [ "$(cat ${hw%/name}/temp1_input)" = 5000 ]'
check "abi v2: its key goes to the input device 'bpfdrv panel'" \
	eval 'grep -q "^N: Name=\"bpfdrv panel\"" /proc/bus/input/devices &&
	      printf 1 >/dev/bpfdrv/panel && printf 0 >/dev/bpfdrv/panel'
check "abi v2: unload panel" $BPFDRV unload panel
check "abi v2: its class devices are gone" \
	eval '[ ! -e /sys/class/leds/panel:status ] &&
	      ! grep -q "bpfdrv panel" /proc/bus/input/devices'

# edu_round VERSION IRQ-CALLBACK CHECKS: edu built with the headers of
# VERSION binds, loads and computes the factorials by interrupt; CHECKS (a
# function) checks the rest; then it goes and frees the edu functions.
edu_round() {
	local v=$1 cb=$2

	if [ "$(lspci -Dn -d 1234:11e8 | wc -l)" -lt 1 ]; then
		echo "# skip: abi v$v edu (no edu device: run with -device edu)"
		return
	fi
	check "abi v$v: edu built with the version-$v headers binds and loads" \
		$BPFDRV load --pin $TOBJ/abi/v$v/edu.bpf.o
	$B/selftests/test_edu facts /dev/bpfdrv/edu0 >"$OUT/facts" 2>&1
	check "abi v$v: edu computes the factorials 0..12 by interrupt ($cb)" \
		diff "$OUT/facts" <(known_facts)
	$3
	check "abi v$v: unload edu" $BPFDRV unload edu
	for bdf in $(lspci -Dn -d 1234:11e8 | awk '{ print $1 }'); do
		$BPFDRV unbind "$bdf" >/dev/null 2>&1
	done
}

# --- version 3: edu with mmap windows, interrupts in the irq callback ---
edu_v3_checks() {
	$B/selftests/test_mmap edu-facts /dev/bpfdrv/edu0 >"$OUT/mfacts" 2>&1
	check "abi v3: edu computes them through its BAR window too" \
		diff "$OUT/mfacts" <(known_facts)
	check "abi v3: edu's interrupts ran in the irq callback, not irq_hard" \
		eval '[ "$(cat /sys/class/bpfdrv/edu0/irq_count)" -ge 13 ] &&
		      grep -q "^irq 1[3-9]\|^irq [2-9][0-9]" /sys/class/bpfdrv/edu0/stats &&
		      grep -qx "irq_hard 0" /sys/class/bpfdrv/edu0/stats'
}
edu_round 3 "irq callback" edu_v3_checks

# --- version 4: edu with its interrupts in irq_hard, I/O through a buffer ---
edu_v4_checks() {
	check "abi v4: edu's DMA round trip, from and into pages not mapped yet" \
		$B/selftests/test_edu dmafresh /dev/bpfdrv/edu0
	# a direct driver would have had to make those calls again
	check "abi v4: edu's interrupts ran in irq_hard, its I/O went through the kernel buffer" \
		eval 'grep -q "^irq_hard 1[3-9]\|^irq_hard [2-9][0-9]" /sys/class/bpfdrv/edu0/stats &&
		      grep -qx "direct_retries 0" /sys/class/bpfdrv/edu0/stats'
}
edu_round 4 irq_hard edu_v4_checks

# --- version 6: edu with direct I/O (version 5), built before version 7 ---
edu_v6_checks() {
	check "abi v6: edu's DMA round trip, from and into pages not mapped yet" \
		$B/selftests/test_edu dmafresh /dev/bpfdrv/edu0
	check "abi v6: edu's interrupts ran in irq_hard" \
		grep -q "^irq_hard 1[3-9]\|^irq_hard [2-9][0-9]" /sys/class/bpfdrv/edu0/stats
}
edu_round 6 irq_hard edu_v6_checks

# --- version 12: edu before version 13 (one vector, no firmware, no reset) ---
edu_v12_checks() {
	check "abi v12: edu's DMA round trip, from and into pages not mapped yet" \
		$B/selftests/test_edu dmafresh /dev/bpfdrv/edu0
	check "abi v12: edu has the one vector of a driver that asks for none" \
		eval '[ "$(cat /sys/class/bpfdrv/edu0/irq_vectors)" = 1 ]'
}
edu_round 12 irq_hard edu_v12_checks

# --- version 7: edu_accel as it was, factorial jobs only (no DMA);
# version 8: with DMA jobs, one job on the device at a time; version 10:
# several jobs on the device, before its parameters (version 11); version
# 11: before its jobs in a VM (version 12) ---
if [ "$(lspci -Dn -d 1234:11e8 | wc -l)" -lt 1 ]; then
	echo "# skip: abi v7, v8, v10 and v11 edu_accel (no edu device: run with -device edu)"
elif ! accel_deps 2>/dev/null; then
	echo "# skip: abi v7, v8, v10 and v11 edu_accel (this kernel has no DRM scheduler)"
else
	for v in 7 8 10 11; do
		# DMA jobs need an IOMMU (or allow_unsafe_dma=1)
		dma=nodma
		[ $v -ge 8 ] && ls /sys/kernel/iommu_groups/ 2>/dev/null | grep -q . && dma=dma
		check "abi v$v: bpfdrv_accel.ko loads" \
			insmod "$B/kbuild/$(uname -r)/kmod/bpfdrv_accel.ko"
		check "abi v$v: edu_accel built with the version-$v headers binds and loads" \
			$BPFDRV load --pin $TOBJ/abi/v$v/edu_accel.bpf.o
		node=$($B/selftests/test_accel find edu_accel)
		$B/selftests/test_accel edu "$node" 5 $dma |
			sed "s/^\(not \)\{0,1\}ok - /&abi v$v: /"
		check "abi v$v: unload edu_accel" $BPFDRV unload edu_accel
		for bdf in $(lspci -Dn -d 1234:11e8 | awk '{ print $1 }'); do
			$BPFDRV unbind "$bdf" >/dev/null 2>&1
		done
		check "abi v$v: bpfdrv_accel.ko unloads" rmmod bpfdrv_accel
	done
fi

# --- a newer ABI than the module's ---
expect_err "abi: bpfdrv load refuses a driver built for ABI $NEXT, naming both versions" \
	"built for bpfdrv ABI $NEXT, but the loaded bpfdrv module has ABI $ABI" \
	$BPFDRV load $TOBJ/abi/future.bpf.o
check "abi: nothing attached for the refused driver" node_gone future
klog=$(dmesg | wc -l)
mkdir -p /sys/fs/bpf/abi_future
if bpftool struct_ops register $TOBJ/abi/future.bpf.o /sys/fs/bpf/abi_future \
	>"$OUT/bpftool" 2>&1; then
	nok "abi: the module refuses a newer-ABI driver registered by bpftool (it attached)"
else
	check "abi: the module refuses a newer-ABI driver registered by bpftool, naming both versions" \
		grep -q "driver future was built for bpfdrv ABI $NEXT; this module has ABI $ABI" \
		<(dmesg | tail -n +$((klog + 1)))
fi
sed 's/^/# /' "$OUT/bpftool" | head -5
rm -rf /sys/fs/bpf/abi_future
check "abi: no node for the driver the module refused" node_gone future
