#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The versioned driver ABI: drivers built with the frozen version-1 headers
# (selftests/abi/v1/) keep loading and working; a driver built for a newer
# ABI is refused by the loader and by the module, naming both versions.
. "$(dirname "$0")/lib.sh"

V1=$TOBJ/abi/v1
load_module || { nok "insmod bpfdrv.ko for the ABI tests"; exit 0; }

expect_eq() {	# expect_eq DESCRIPTION GOT WANT
	if [ "$2" = "$3" ]; then ok "$1"; else nok "$1 (got '$2', want '$3')"; fi
}

expect_eq "abi: the module reports ABI version 1" \
	"$(cat /sys/module/bpfdrv/parameters/abi_version)" 1
check "abi: the module's ABI version is read-only" \
	eval '! echo 7 >/sys/module/bpfdrv/parameters/abi_version 2>/dev/null &&
	      [ "$(cat /sys/module/bpfdrv/parameters/abi_version)" = 1 ]'

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

# --- a newer ABI than the module's ---
expect_err "abi: bpfdrv load refuses a driver built for ABI 2, naming both versions" \
	"built for bpfdrv ABI 2, but the loaded bpfdrv module has ABI 1" \
	$BPFDRV load $TOBJ/abi/future.bpf.o
check "abi: nothing attached for the refused driver" node_gone future
klog=$(dmesg | wc -l)
mkdir -p /sys/fs/bpf/abi_future
if bpftool struct_ops register $TOBJ/abi/future.bpf.o /sys/fs/bpf/abi_future \
	>"$OUT/bpftool" 2>&1; then
	nok "abi: the module refuses a newer-ABI driver registered by bpftool (it attached)"
else
	check "abi: the module refuses a newer-ABI driver registered by bpftool, naming both versions" \
		grep -q "driver future was built for bpfdrv ABI 2; this module has ABI 1" \
		<(dmesg | tail -n +$((klog + 1)))
fi
sed 's/^/# /' "$OUT/bpftool" | head -5
rm -rf /sys/fs/bpf/abi_future
check "abi: no node for the driver the module refused" node_gone future
