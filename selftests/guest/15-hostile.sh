#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Hostile drivers: forged contexts, NULL and stale pointers, out-of-bounds
# windows, stores into contexts, sleeping kfuncs from atomic programs, raw
# memory helpers. The verifier must refuse every one at load time.
. "$(dirname "$0")/lib.sh"

load_module || { nok "insmod bpfdrv.ko for the hostile corpus"; exit 0; }
hostile_corpus hostile

# the module refuses unknown flags itself, for loaders that do not check
klog=$(dmesg | wc -l)
if bpftool struct_ops register $TOBJ/hostile/flags_unknown.bpf.o \
	/sys/fs/bpf/hostile_flags >"$OUT/bpftool" 2>&1; then
	nok "the module refuses unknown flags registered by bpftool (it attached)"
else
	check "the module refuses unknown flags registered by bpftool, naming them" \
		grep -q "invalid flags 0x80000004" <(dmesg | tail -n +$((klog + 1)))
fi
rm -rf /sys/fs/bpf/hostile_flags
check "no node for the flags the module refused" node_gone hostile_flags_unknown

# --- contained at run time: kfuncs at and past every bound ---
check "load --pin bounds (test driver, no hardware)" $BPFDRV load --pin $TOBJ/bounds.bpf.o
$B/selftests/test_bounds /dev/bpfdrv/bounds nohw
check "unload bounds" $BPFDRV unload bounds
mapfile -t edus < <(lspci -Dn -d 1234:11e8 | awk '{ print $1 }')
if [ ${#edus[@]} -ge 1 ]; then
	check "load --pin bounds on an edu function" \
		$BPFDRV load --pin --device "${edus[0]}" $TOBJ/bounds.bpf.o
	$B/selftests/test_bounds /dev/bpfdrv/bounds0 pci
	check "unload bounds on edu" $BPFDRV unload bounds
	$BPFDRV unbind "${edus[0]}" >/dev/null
else
	echo "# skip: PCI and DMA bounds (no edu device in this VM)"
fi

# --- who may attach ---
$B/selftests/test_caps $OBJ/echo.bpf.o $OBJ/gpio_leds.bpf.o
expect_err "bpfdrv load without CAP_SYS_ADMIN says what it needs" \
	"needs CAP_SYS_ADMIN in the initial user namespace" \
	setpriv --bounding-set=-sys_admin $BPFDRV load $OBJ/echo.bpf.o
expect_err "bpfdrv load from a user namespace says what it needs" \
	"needs CAP_SYS_ADMIN in the initial user namespace" \
	unshare --user --map-root-user $BPFDRV load $OBJ/echo.bpf.o
check "no driver attached by the refused loads" eval '[ -z "$(ls /dev/bpfdrv 2>/dev/null)" ]'
