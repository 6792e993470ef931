#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# PCI: the edu BPF driver on QEMU's edu devices (the VM has two), checked
# against known factorials and against the reference C driver; interrupts,
# DMA, MMIO bounds, a wrong device, unbind and hot-remove with open files.
. "$(dirname "$0")/lib.sh"

EDU=$B/selftests/test_edu
mapfile -t edus < <(lspci -Dn -d 1234:11e8 | awk '{ print $1 }')
testdev=$(lspci -Dn -d 1b36:0005 | awk '{ print $1; exit }')
if [ ${#edus[@]} -lt 2 ]; then
	echo "# skip: PCI tests (want two edu devices, found ${#edus[@]}: run with -device edu -device edu)"
	exit 0
fi
load_module || { nok "insmod bpfdrv.ko for the PCI tests"; exit 0; }

irqs() { cat "/sys/class/bpfdrv/$1/irq_count"; }
# the kernel's own count for the instance's interrupt line
proc_irqs() { awk -v n="$1" 'NR == 1 { cpus = NF } $NF == n { for (i = 2; i <= cpus + 1; i++) s += $i; print s }' /proc/interrupts; }

# --- attach: one instance per edu function ---
check "edu: load binds both edu functions and attaches" $BPFDRV load --pin $OBJ/edu.bpf.o
sed 's/^/# /' "$OUT/check"
check "edu: bound to bpfdrv through driver_override" \
	eval '[ "$(driver_of ${edus[0]})" = bpfdrv ] && [ "$(driver_of ${edus[1]})" = bpfdrv ]'
check "edu: one node per device (edu0, edu1)" test -c /dev/bpfdrv/edu0 -a -c /dev/bpfdrv/edu1
check "edu: the instance's sysfs device is its PCI function" \
	test "$(basename "$(readlink /sys/class/bpfdrv/edu0/device)")" = "${edus[0]}"
check "edu: init read the identification register (0x010000ed)" \
	eval "$EDU info /dev/bpfdrv/edu0 | grep -q 'id 0x010000ed index 0'"

# --- factorials, completed by interrupt ---
before=$(irqs edu0) pbefore=$(proc_irqs edu0)
known_facts >"$OUT/known"
$EDU facts /dev/bpfdrv/edu0 >"$OUT/facts0" 2>&1
check "edu0: factorials 0..12 equal the known values" cmp "$OUT/known" "$OUT/facts0"
check "edu0: each factorial was completed by an interrupt (13 handled)" \
	test $(($(irqs edu0) - before)) -eq 13
check "edu0: the kernel counted them in /proc/interrupts" \
	test "$(( $(proc_irqs edu0) - pbefore ))" -ge 13
$EDU facts /dev/bpfdrv/edu1 >"$OUT/facts1" 2>&1
check "edu1: the second instance computes the same factorials" cmp "$OUT/known" "$OUT/facts1"
check "edu0: O_NONBLOCK write gets EAGAIN while another file owns the unit; poll follows" \
	eval "$EDU nonblock /dev/bpfdrv/edu0 | grep -qx 'EAGAIN, then 120'"
# a PCI driver's name needs room for the instance number
expect_err "load: a 29-character PCI driver name is refused" "is too long: at most 28" \
	$BPFDRV load --pin $TOBJ/longname_pci.bpf.o
mkdir -p /sys/fs/bpf/longname
bpftool struct_ops register $TOBJ/longname_pci.bpf.o /sys/fs/bpf/longname >"$OUT/bt" 2>&1
check "the module refuses it too (bpftool register; kernel log names the limit)" \
	eval '! ls /sys/class/bpfdrv | grep -q "^a_pci" && dmesg | grep -q "PCI driver name a_pci_driver_name_of_29_chars is too long"'
rm -rf /sys/fs/bpf/longname

expect_err "edu0: 13 (overflows 32 bits) is refused with EINVAL" "EINVAL" \
	$EDU fact /dev/bpfdrv/edu0 13
expect_err "edu0: garbage is refused with EINVAL" "EINVAL" $EDU fact /dev/bpfdrv/edu0 x1

# --- registers through ioctl ---
check "edu0: liveness register returns the complement (0x12345678 -> 0xedcba987)" \
	eval "$EDU liveness /dev/bpfdrv/edu0 0x12345678 | grep -qx 0xedcba987"
check "edu0: raw register write and read back (liveness 0x1 -> 0xfffffffe)" \
	eval "$EDU regwrite /dev/bpfdrv/edu0 4 4 1 && $EDU regread /dev/bpfdrv/edu0 4 4 | grep -qx 0xfffffffe"
expect_err "edu0: MMIO past the BAR's end is refused by the kfunc (ERANGE)" "ERANGE" \
	$EDU regread /dev/bpfdrv/edu0 0x100000 4
expect_err "edu0: an 8-byte read straddling the BAR's end is refused (ERANGE)" "ERANGE" \
	$EDU regread /dev/bpfdrv/edu0 0xffffc 8
expect_err "edu0: a misaligned MMIO access is refused (ERANGE)" "ERANGE" \
	$EDU regread /dev/bpfdrv/edu0 2 4
expect_err "edu0: the driver keeps DMA registers out of raw writes (EPERM)" "EPERM" \
	$EDU regwrite /dev/bpfdrv/edu0 0x80 8 0
check "edu0: the device still works after the refused accesses" \
	eval "$EDU liveness /dev/bpfdrv/edu0 0 | grep -qx 0xffffffff"

# --- DMA ---
check "edu0: DMA of 4096 bytes to the device and back is byte-exact (2 patterns)" \
	$EDU dma /dev/bpfdrv/edu0
check "edu1: DMA round trip on the second instance" $EDU dma /dev/bpfdrv/edu1
# edu's read and write are direct: DMA buffer <-> caller, no kernel buffer
direct_retries() { awk '$1 == "direct_retries" { print $2 }' "/sys/class/bpfdrv/$1/stats"; }
retries=$(direct_retries edu0)
check "edu0: DMA from and into pages not mapped yet (the direct copy is made again)" \
	eval '$EDU dmafresh /dev/bpfdrv/edu0 && [ "$(direct_retries edu0)" -gt "$retries" ]'

# --- the reference C driver on the second function ---
check "unbind edu1 from bpfdrv" $BPFDRV unbind "${edus[1]}"
check "edu1's node is gone after unbind" node_gone edu1
if insmod "$KMODS/edu_ref.ko" 2>"$OUT/insmod" &&
	echo edu_ref >"/sys/bus/pci/devices/${edus[1]}/driver_override" &&
	echo "${edus[1]}" >/sys/bus/pci/drivers_probe && wait_for 5 test -c /dev/edu_ref0; then
	ok "reference driver edu_ref takes the second edu function"
	$EDU facts /dev/edu_ref0 >"$OUT/facts_ref" 2>&1
	check "reference driver: factorials 0..12 equal the known values" \
		cmp "$OUT/known" "$OUT/facts_ref"
	check "BPF driver and reference driver give the same factorials" \
		cmp "$OUT/facts0" "$OUT/facts_ref"
	check "reference driver: DMA round trip" $EDU dma /dev/edu_ref0
	for args in "liveness 0x12345678" "regread 0x100000 4" "fact 13"; do
		# shellcheck disable=SC2086
		a=$($EDU ${args%% *} /dev/bpfdrv/edu0 ${args#* } 2>&1)
		# shellcheck disable=SC2086
		b=$($EDU ${args%% *} /dev/edu_ref0 ${args#* } 2>&1)
		check "same answer from both drivers for '$args' ($a)" test "$a" = "$b"
	done
	echo "${edus[1]}" >"/sys/bus/pci/drivers/edu_ref/unbind"
	echo >"/sys/bus/pci/devices/${edus[1]}/driver_override"
	rmmod edu_ref
else
	nok "reference driver edu_ref takes the second edu function"
	sed 's/^/# /' "$OUT/insmod"
fi
check "bind edu1 back: the attached driver makes it an instance again" \
	eval "$BPFDRV bind ${edus[1]} && wait_for 5 test -c /dev/bpfdrv/edu1"

# --- a device that is not edu ---
if [ -n "$testdev" ]; then
	expect_err "a non-edu function (pci-testdev) is refused by the driver's init" \
		"refused a device" $BPFDRV load --name wrong --device "$testdev" $OBJ/edu.bpf.o
	check "no node for the refused device" node_gone wrong0
	check "the refusal is in the kernel log" eval "dmesg | grep -q 'wrong0: driver init failed'"
	check "the failed load gave pci-testdev back (no driver, no driver_override)" \
		eval '[ -z "$(driver_of "$testdev")" ] &&
		      grep -qx "(null)" "/sys/bus/pci/devices/$testdev/driver_override"'

	# I/O-port BARs: pci-testdev's BAR 1 through the kfuncs, compared with
	# /dev/port at the address lspci reports (the independent path)
	check "load portio (binds pci-testdev)" $BPFDRV load --pin $TOBJ/portio.bpf.o
	port=$(lspci -v -s "$testdev" | awk '/I\/O ports at/ { print $4; exit }')
	if python3 - "$port" >"$OUT/portio" 2>&1 <<'PY'
import fcntl, os, sys
port = int(sys.argv[1], 16)
dev = os.open("/dev/bpfdrv/portio0", os.O_RDWR)
length = fcntl.ioctl(dev, 0x5003, 1)
fcntl.ioctl(dev, 0x5002, 0)	# select test 0: byte 0 at offset 0
raw = os.open("/dev/port", os.O_RDONLY)
words = []
for off in range(0, 24, 4):
    kf = fcntl.ioctl(dev, 0x5001, off)
    ref = int.from_bytes(os.pread(raw, 4, port + off), "little") & 0x7fffffff
    print(f"# BAR 1 + {off}: kfunc {kf:#010x}, /dev/port {ref:#010x}")
    if kf != ref:
        sys.exit(1)
    words.append(kf)
print(f"# BAR 1: {length} ports at {port:#x}")
sys.exit(0 if length >= 24 and any(words) else 1)
PY
	then
		ok "an I/O-port BAR reads through bpfdrv_mmio_read() as through /dev/port"
	else
		nok "an I/O-port BAR reads through bpfdrv_mmio_read() as through /dev/port"
	fi
	cat "$OUT/portio"
	check "unload portio" $BPFDRV unload portio
	$BPFDRV unbind "$testdev" >/dev/null
else
	echo "# skip: wrong-device and I/O-port tests (no pci-testdev in this VM)"
fi

# A failed load gives back a function it took from another driver.
rng=$(lspci -Dn -d 1af4:1005 | awk '{ print $1; exit }')
if [ -n "$rng" ] && [ "$(driver_of "$rng")" = virtio-pci ]; then
	expect_err "a driver the kernel refuses, for virtio-rng-pci, is not loaded" \
		"unsupported member irq_hard" \
		$BPFDRV load --device "$rng" $TOBJ/hostile/sleepable_irq_hard.bpf.o
	check "the failed load gave virtio-rng-pci back to virtio-pci" \
		eval '[ "$(driver_of "$rng")" = virtio-pci ] &&
		      grep -qx "(null)" "/sys/bus/pci/devices/$rng/driver_override"'
else
	echo "# skip: give-back test (no virtio-rng-pci on virtio-pci in this VM)"
fi

expect_err "bind: a malformed address is refused" "not a PCI address" $BPFDRV bind 00:09.0
expect_err "bind: an absent device is refused" "no PCI device" $BPFDRV bind 0000:7f:1f.7

# --- unbind and hot-remove with open files ---
exec 5<>/dev/bpfdrv/edu0
check "unbind edu0 while a file is open on it" $BPFDRV unbind "${edus[0]}"
check "edu0's node is removed" node_gone edu0
if ( printf 5 >&5 ) 2>"$OUT/w"; then nok "write after unbind fails"; else
	check "write after unbind gives ENODEV" grep -q "No such device" "$OUT/w"; fi
exec 5>&-
check "bind edu0 again" eval "$BPFDRV bind ${edus[0]} && wait_for 5 test -c /dev/bpfdrv/edu0"

exec 5<>/dev/bpfdrv/edu1
printf 7 >&5
echo 1 >"/sys/bus/pci/devices/${edus[1]}/remove"
check "hot-remove of edu1 with a factorial pending removes its node" wait_for 5 node_gone edu1
if ( head -c 8 <&5 ) >/dev/null 2>"$OUT/r"; then nok "read after hot-remove fails"; else
	check "read after hot-remove gives ENODEV" grep -q "No such device" "$OUT/r"; fi
exec 5>&-
echo 1 >/sys/bus/pci/rescan
check "the rescanned function can be bound again" \
	eval "wait_for 5 test -e /sys/bus/pci/devices/${edus[1]} && $BPFDRV bind ${edus[1]} && wait_for 5 test -c /dev/bpfdrv/edu1"
check "edu1 works after hot-remove and rescan" \
	eval "$EDU fact /dev/bpfdrv/edu1 5 | grep -qx 120"

# --- detach ---
check "unload edu removes both nodes" \
	eval "$BPFDRV unload edu && node_gone edu0 && node_gone edu1"
check "the functions stay bound to bpfdrv, unused" test "$(driver_of "${edus[0]}")" = bpfdrv
for bdf in "${edus[@]}"; do
	[ "$(driver_of "$bdf")" = bpfdrv ] && $BPFDRV unbind "$bdf" >/dev/null
done
check "no edu function is left bound to bpfdrv" \
	eval '[ "$(driver_of ${edus[0]})" != bpfdrv ] && [ "$(driver_of ${edus[1]})" != bpfdrv ]'

# --- a skeleton from bpfdrv new --pci 1234:11e8, built by its own Makefile ---
check "load the PCI skeleton on ${edus[0]}" \
	$BPFDRV load --pin --device "${edus[0]}" $B/new/skelpci/skelpci.bpf.o
skeleton_test skelpci '^# hw: 0x1234$' "its generated test passes and reads edu's vendor ID"
check "unload the PCI skeleton" $BPFDRV unload skelpci
$BPFDRV unbind "${edus[0]}" >/dev/null

# --- INTx: with msi=0 the interrupt is INTx, masked at the function ---
# (a detached driver's maps are freed, and the module put, asynchronously)
if wait_for 10 rmmod bpfdrv && insmod "$KO" msi=0; then
	ok "reload bpfdrv.ko with msi=0"
	check "load --pin edu on one function" \
		$BPFDRV load --pin --device "${edus[0]}" $OBJ/edu.bpf.o
	grep -w edu0 /proc/interrupts | sed 's/^/# /'
	check "edu0's interrupt is an INTx line (IO-APIC, not MSI)" \
		eval "grep -w edu0 /proc/interrupts | grep -q IO-APIC"
	before=$(irqs edu0)
	$EDU facts /dev/bpfdrv/edu0 >"$OUT/facts-intx" 2>&1
	check "edu0 over INTx: factorials 0..12 equal the known values" \
		cmp "$OUT/known" "$OUT/facts-intx"
	check "edu0 over INTx: each was completed by an interrupt (13 handled)" \
		test $(($(irqs edu0) - before)) -eq 13
	check "unload edu (INTx)" $BPFDRV unload edu
	$BPFDRV unbind "${edus[0]}" >/dev/null
	check "rmmod bpfdrv (msi=0)" wait_for 10 rmmod bpfdrv
else
	nok "reload bpfdrv.ko with msi=0"
fi
