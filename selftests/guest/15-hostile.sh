#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Hostile drivers: forged contexts, NULL and stale pointers, out-of-bounds
# windows, stores into contexts, sleeping kfuncs from atomic programs, raw
# memory helpers. The verifier must refuse every one at load time.
. "$(dirname "$0")/lib.sh"

load_module || { nok "insmod bpfdrv.ko for the hostile corpus"; exit 0; }
hostile_corpus hostile

# --- the allow-list, exhaustively: every helper and kfunc the kernel has ---
$B/selftests/test_allow
check "no driver attached by the allow-list test" \
	eval '! ls /sys/class/bpfdrv 2>/dev/null | grep -q allow_test'

# --- the formatting helpers format scalars only: %s and %p are refused ---
check "load --pin fmt_scalars" $BPFDRV load --pin $TOBJ/fmt_scalars.bpf.o
python3 -S - <<'PY'
import os, struct
fd = os.open("/dev/bpfdrv/fmt_scalars", os.O_RDWR)
addr = 0
with open("/proc/kallsyms") as f:
    for line in f:
        if line.split()[2] in ("_text", "_stext"):
            addr = int(line.split()[0], 16)
            break
addr = addr or 0xffffffff81000000
def run(mode):
    os.write(fd, struct.pack("<QQ", mode, addr))
    try:
        return os.read(fd, 64).rstrip(b"\0").decode()
    except OSError as e:
        return -e.errno
for mode, what, want in [
        (0, "bpf_snprintf %s of a kernel address", -22),
        (1, "bpf_snprintf %llu of the same value", str(addr)),
        (2, "bpf_snprintf %px", -22),
        (3, "bpf_printk (trace_printk) %s of a kernel address", -22),
        (4, "bpf_printk (trace_printk) %llu", ""),
        (5, "bpf_printk with four arguments (trace_vprintk) %s", -22)]:
    got = run(mode)
    verdict = "refused with EINVAL" if want == -22 else "formats"
    print("%sok - fmt_scalars: %s %s" % ("" if got == want else "not ", what, verdict))
    if got != want:
        print("# got %r, want %r" % (got, want))
PY
check "unload fmt_scalars" $BPFDRV unload fmt_scalars

# --- a format user space rewrites under the check: the copy is checked ---
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
tap_run $B/selftests/test_fmt_race $TOBJ/fmt_race.bpf.o "${BPFDRV_FMT_RACE_S:-60}"

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

# --- programs beside and in place of a driver's, loaded as root would ---
tap_run $B/selftests/test_beside $TOBJ/beside_target.bpf.o $TOBJ/beside.bpf.o \
	$TOBJ/hostile/kfunc_from_syscall.bpf.o

# --- a driver's message cannot forge lines or drive terminals ---
check "load --pin eject_ctrl" $BPFDRV load --pin $TOBJ/eject_ctrl.bpf.o
head -c 1 /dev/bpfdrv/eject_ctrl >/dev/null 2>&1
check "eject_ctrl is ejected by its message" wait_gone eject_ctrl
line=$(grep '^eject_ctrl ' /sys/kernel/bpfdrv/exits)
echo "# exits: $line"
check "its message is one line of printable ASCII: escape, CR and Latin-1 as '?', the line break as a space" \
	test "${line#* * * * }" = "?[2Jcleared forged line?? 1"
$BPFDRV unload eject_ctrl >/dev/null 2>&1

# --- contained at run time: kfuncs at and past every bound ---
check "load --pin bounds (test driver, no hardware)" $BPFDRV load --pin $TOBJ/bounds.bpf.o
tap_run $B/selftests/test_bounds /dev/bpfdrv/bounds nohw
check "unload bounds" $BPFDRV unload bounds
mapfile -t edus < <(lspci -Dn -d 1234:11e8 | awk '{ print $1 }')
if [ ${#edus[@]} -ge 1 ]; then
	check "load --pin bounds on an edu function" \
		$BPFDRV load --pin --device "${edus[0]}" $TOBJ/bounds.bpf.o
	tap_run $B/selftests/test_bounds /dev/bpfdrv/bounds0 pci
	check "unload bounds on edu" $BPFDRV unload bounds
	$BPFDRV unbind "${edus[0]}" >/dev/null
else
	echo "# skip: PCI and DMA bounds (no edu device in this VM)"
fi

# --- who may attach ---
tap_run $B/selftests/test_caps $OBJ/echo.bpf.o $OBJ/gpio_leds.bpf.o
expect_err "bpfdrv load without CAP_SYS_ADMIN says what it needs" \
	"needs CAP_SYS_ADMIN in the initial user namespace" \
	setpriv --bounding-set=-sys_admin $BPFDRV load $OBJ/echo.bpf.o
if [ -e /proc/self/ns/user ]; then
	expect_err "bpfdrv load from a user namespace says what it needs" \
		"needs CAP_SYS_ADMIN in the initial user namespace" \
		unshare --user --map-root-user $BPFDRV load $OBJ/echo.bpf.o
else
	echo "# skip: bpfdrv load from a user namespace (this kernel has no user namespaces)"
fi
check "no driver attached by the refused loads" eval '[ -z "$(ls /dev/bpfdrv 2>/dev/null)" ]'
