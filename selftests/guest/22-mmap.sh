#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mmap (ABI 3): edu driven from user space through the edu driver's windows
# (factorials and DMA), beside the driver's own interface; mmap_probe's
# windows, each meeting one check (bounds, read-only, I/O ports, MSI-X,
# private mappings); and revocation: a process (and its forked child) that
# keeps a mapping gets SIGBUS after detach, unbind, ejection and hot-remove;
# and dma_bufs' DMA buffers: eight at once, through the copy kfuncs and
# their windows, freed with their mappings revoked, the 4 MiB limit.
. "$(dirname "$0")/lib.sh"

MAP=$B/selftests/test_mmap
EDU=$B/selftests/test_edu
MiB=$((1 << 20))
mapfile -t edus < <(lspci -Dn -d 1234:11e8 | awk '{ print $1 }')
testdev=$(lspci -Dn -d 1b36:0005 | awk '{ print $1; exit }')
rng=$(lspci -Dn -d 1af4:1005 | awk '{ print $1; exit }')
if [ ${#edus[@]} -lt 2 ] || [ -z "$testdev" ] || [ -z "$rng" ]; then
	echo "# skip: mmap tests (want two edu devices, pci-testdev and virtio-rng-pci)"
	exit 0
fi
load_module || { nok "insmod bpfdrv.ko for the mmap tests"; exit 0; }

# node_of BDF: the node of the instance that serves BDF
node_of() {
	local d

	for d in /sys/class/bpfdrv/*; do
		[ "$(basename "$(readlink "$d/device")")" = "$1" ] && echo "/dev/bpfdrv/${d##*/}"
	done
}
# mapping NODE OFF LEN HOW ERRNO DESCRIPTION: test_mmap map fails with ERRNO
refused() {
	expect_err "$6" "error: $5: mmap" $MAP map "$1" "$2" "$3" "$4"
}
# hold_start NODE OFF [fork]: a process (and child) holding a mapped page
hold_start() {
	rm -rf "$OUT/hold"
	mkdir "$OUT/hold"
	timeout 60 $MAP hold "$1" "$2" "$OUT/hold" ${3:-} >"$OUT/hold/out" 2>&1 &
	HOLDER=$!
	wait_for 10 test -e "$OUT/hold/ready"
}
# hold_end: let the holder read again; it must die of SIGBUS (7)
hold_end() {
	local rc

	touch "$OUT/hold/go"
	wait $HOLDER
	rc=$?
	sed 's/^/# /' "$OUT/hold/out"
	[ $rc = $((128 + 7)) ] && ! grep -q "after the revoke" "$OUT/hold/out"
}

# ---------------- edu through its windows ----------------
check "edu: load" $BPFDRV load --pin $OBJ/edu.bpf.o
E0=/dev/bpfdrv/edu0
known_facts >"$OUT/known"
$MAP edu-facts $E0 >"$OUT/mfacts" 2>&1
check "edu0: factorials 0..12 polled through the mapped registers equal the known values" \
	cmp "$OUT/known" "$OUT/mfacts"
check "edu0: the driver's own factorials, by interrupt, still work beside them" \
	eval '$EDU facts $E0 | cmp -s - "$OUT/known"'
check "edu0: 4 KiB by DMA to the device and back, from and into the mapped buffer" \
	eval '$MAP edu-dma $E0 | grep -q "^ok 4096"'
check "edu0: the driver's own DMA still works beside it" $EDU dma $E0
check "edu0: the whole register BAR (1 MiB) maps" \
	eval '$MAP map $E0 0 $MiB rw | grep -q "^ok 0x10000ed"'

# bounds of edu's windows: BAR 0 (1 MiB) at 0, the DMA buffer (8 KiB) at 1 MiB
refused $E0 0 $((MiB + 4096)) rw EINVAL "edu0: a mapping past the end of the BAR window is refused"
refused $E0 $MiB $((3 * 4096)) rw EINVAL "edu0: a mapping past the end of the DMA buffer is refused"
refused $E0 $((MiB + 8192)) 4096 rw EINVAL "edu0: a mapping that starts past the DMA buffer is refused"
refused $E0 $((1 << 40)) 4096 rw EINVAL "edu0: an offset far past every window is refused"
refused $E0 0 4096 private EINVAL "edu0: a private mapping is refused"
NORAWIO="setpriv --bounding-set=-sys_rawio --inh-caps=-sys_rawio"
expect_err "edu0: mapping the register BAR needs CAP_SYS_RAWIO (EPERM without it)" \
	"error: EPERM: mmap" $NORAWIO $MAP map $E0 0 4096 rw
check "edu0: the DMA buffer maps without CAP_SYS_RAWIO" $NORAWIO $MAP map $E0 $MiB 4096 rw
check "edu0: the DMA buffer (8 KiB) maps whole" $MAP map $E0 $MiB 8192 rw

# ---------------- revocation ----------------
hold_start $E0 0 fork
check "revoke: a process and its forked child read edu0's ID register through the mapping" \
	grep -q "child: read 0x10000ed" "$OUT/hold/out"
check "revoke: unload edu while they hold the mapping" $BPFDRV unload edu
check "revoke: after detach, the child dies of SIGBUS at its next access, then the parent" \
	eval 'hold_end && grep -q "child: killed by signal 7" "$OUT/hold/out"'

check "revoke: load edu again" $BPFDRV load --pin $OBJ/edu.bpf.o
hold_start /dev/bpfdrv/edu0 $MiB
check "revoke: unbind edu0 while a process holds its DMA buffer mapped" \
	$BPFDRV unbind "${edus[0]}"
check "revoke: after unbind, its next access gets SIGBUS" hold_end
check "revoke: bind edu0 again" \
	eval "$BPFDRV bind ${edus[0]} && wait_for 5 test -c /dev/bpfdrv/edu0"

hold_start /dev/bpfdrv/edu1 0
echo 1 >"/sys/bus/pci/devices/${edus[1]}/remove"
check "revoke: hot-remove of edu1 while a process holds its registers mapped" \
	wait_for 5 node_gone edu1
check "revoke: after hot-remove, its next access gets SIGBUS" hold_end
echo 1 >/sys/bus/pci/rescan
check "revoke: the rescanned edu1 is served again, and maps" \
	eval "wait_for 5 test -e /sys/bus/pci/devices/${edus[1]} && $BPFDRV bind ${edus[1]} &&
	      wait_for 5 test -c /dev/bpfdrv/edu1 && $MAP map /dev/bpfdrv/edu1 0 4096 ro | grep -q '^ok 0x10000ed'"
check "revoke: unload edu" $BPFDRV unload edu
for bdf in "${edus[@]}"; do $BPFDRV unbind "$bdf" >/dev/null; done

# ---------------- mmap_probe: each check ----------------
check "probe: bind virtio-rng-pci ($rng) to bpfdrv" $BPFDRV bind "$rng"
check "probe: load mmap_probe (pci-testdev and virtio-rng-pci)" \
	$BPFDRV load --pin $TOBJ/mmap_probe.bpf.o
T=$(node_of "$testdev") R=$(node_of "$rng")
lspci -vs "$rng" | grep -E "Memory at|I/O ports at|MSI-X" | sed 's/^/# /'
check "probe: pci-testdev's read-only BAR 0 maps read-only" $MAP map "$T" 0 4096 ro
refused "$T" 0 4096 rw EACCES "probe: a writable mapping of a read-only window is refused"
expect_err "probe: mprotect cannot make the read-only mapping writable" \
	"error: EACCES: mprotect" $MAP mprotect "$T" 0 4096
refused "$T" $MiB 4096 rw ENXIO "probe: an I/O-port BAR (pci-testdev's BAR 1) is refused"
refused "$T" $((2 * MiB)) 4096 rw ENXIO "probe: an absent BAR (pci-testdev's BAR 4) is refused"
refused "$T" $((3 * MiB)) 4096 rw EINVAL "probe: a window that starts at the end of its BAR maps nothing"
check "probe: the DMA buffer (5000 bytes: 2 pages) maps whole" $MAP map "$T" $((4 * MiB)) 8192 rw
refused "$T" $((4 * MiB)) 12288 rw EINVAL "probe: a third page past the DMA buffer is refused"
check "probe: a window on the DMA buffer's second page maps it" $MAP map "$T" $((5 * MiB)) 4096 rw
refused "$T" $((5 * MiB)) 8192 rw EINVAL "probe: a mapping longer than its window (len 4096) is refused"
refused "$T" $((5 * MiB + 4096)) 4096 rw EINVAL "probe: an offset between windows is refused"
refused "$R" $MiB 4096 rw EPERM "probe: virtio-rng's MSI-X table page (BAR 1) is refused"
check "probe: virtio-rng's memory BAR 4 maps" $MAP map "$R" $((2 * MiB)) 4096 rw

# ejection revokes too: the driver ejects itself (ioctl 0x4d01)
hold_start "$T" $((4 * MiB))
python3 -S -c '
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
try:
    fcntl.ioctl(fd, 0x4d01)
except OSError:
    pass
' "$T"
check "revoke: mmap_probe ejected itself" wait_for 5 eval '! ls /dev/bpfdrv | grep -q mmap_probe'
check "revoke: after the ejection, the holder of its DMA buffer gets SIGBUS" hold_end
$BPFDRV unload mmap_probe >/dev/null 2>&1
$BPFDRV unbind "$testdev" >/dev/null
check "probe: give virtio-rng-pci back to virtio-pci" \
	eval "$BPFDRV unbind $rng && echo >/sys/bus/pci/devices/$rng/driver_override &&
	      echo $rng >/sys/bus/pci/drivers_probe && [ \"\$(driver_of $rng)\" = virtio-pci ]"

# ---------------- declarations the module refuses ----------------
for case in "nopci:mmap windows need a PCI driver" \
	    "prot:mmap window 0: prot 0x2 (want READ or READ|WRITE)" \
	    "region:mmap window 0: unknown region 6" \
	    "align:mmap window 0: offset, region_offset and len must be multiples of 4096" \
	    "overlap:mmap window 1 overlaps the one before" \
	    "gap:mmap window 2 follows the end of its mmaps"; do
	expect_refused refused "$TOBJ/bad_mmap_${case%%:*}.bpf.o" "${case#*:}"
done
check "refused: no node left by the refused drivers" \
	eval '! ls /dev/bpfdrv 2>/dev/null | grep -q "bad_mmap"'
$BPFDRV unbind "$testdev" >/dev/null 2>&1

# ---------------- several DMA buffers (dma_bufs on pci-testdev) ----------------
cat >"$OUT/dma.py" <<'PY'
import errno, fcntl, mmap, os, struct, sys
op, node, nr = sys.argv[1], sys.argv[2], int(sys.argv[3])
fd = os.open(node, os.O_RDWR)
try:
    if op == "alloc":
        fcntl.ioctl(fd, 0x4401, nr | int(sys.argv[4]) << 8)
    elif op == "free":
        fcntl.ioctl(fd, 0x4402, nr)
    elif op == "write":
        fcntl.ioctl(fd, 0x40404410 + nr, bytes.fromhex(sys.argv[4]).ljust(64, b"\0"))
    elif op == "read":
        print(bytes(fcntl.ioctl(fd, 0x80404420 + nr, bytes(64)))[:8].hex())
    elif op == "mread":
        print(mmap.mmap(fd, 4096, offset=nr << 20)[:8].hex())
    elif op == "mwrite":
        mmap.mmap(fd, 4096, offset=nr << 20)[:8] = bytes.fromhex(sys.argv[4])
    print("ok")
except OSError as e:
    print("error: " + errno.errorcode[e.errno])
    sys.exit(1)
PY
dma() { python3 -S "$OUT/dma.py" "$@"; }
if ! $BPFDRV load --pin $TOBJ/dma_bufs.bpf.o >"$OUT/load" 2>&1; then
	nok "dma: load dma_bufs on pci-testdev"
	sed 's/^/# /' "$OUT/load"
else
	ok "dma: load dma_bufs on pci-testdev"
	D=$(node_of "$testdev")
	check "dma: eight buffers of 256 KiB" \
		eval 'for n in 0 1 2 3 4 5 6 7; do dma alloc $D $n 262144 | grep -qx ok || exit 1; done'
	expect_err "dma: buffer 8 does not exist: EINVAL" "error: EINVAL" \
		dma alloc $D 8 4096
	expect_err "dma: a buffer in use is not allocated twice: EEXIST" "error: EEXIST" \
		dma alloc $D 3 4096
	dma free $D 7 >/dev/null
	expect_err "dma: a buffer over 1 MiB is refused: EINVAL" "error: EINVAL" \
		dma alloc $D 7 $((MiB + 1))
	check "dma: buffer 3 written through a call reads back through its mapping" \
		eval 'dma write $D 3 0123456789abcdef | grep -qx ok &&
		      [ "$(dma mread $D 3 | head -1)" = 0123456789abcdef ]'
	check "dma: buffer 5 written through its mapping reads back through a call" \
		eval 'dma mwrite $D 5 feedfacecafebeef | grep -qx ok &&
		      [ "$(dma read $D 5 | head -1)" = feedfacecafebeef ]'
	check "dma: each buffer is its own (buffer 4 is still zero)" \
		test "$(dma read $D 4 | head -1)" = 0000000000000000
	hold_start "$D" $((3 * MiB))
	check "dma: free buffer 3 while a process holds it mapped" \
		eval 'dma free $D 3 | grep -qx ok'
	check "dma: after the free, its next access gets SIGBUS" hold_end
	expect_err "dma: a freed buffer cannot be mapped: ENXIO" "error: ENXIO: mmap" \
		$MAP map "$D" $((3 * MiB)) 4096 rw
	expect_err "dma: a freed buffer cannot be copied to: ENOMEM" "error: ENOMEM" \
		dma write $D 3 00
	check "dma: the other buffers keep their data and mappings (buffer 5)" \
		test "$(dma mread $D 5 | head -1)" = feedfacecafebeef
	# 6 x 256 KiB live, 2 x 256 KiB freed (3 and 7): 2 MiB held
	check "dma: buffer 3 can be allocated again, fresh (zero)" \
		eval 'dma alloc $D 3 262144 | grep -qx ok && [ "$(dma mread $D 3 | head -1)" = 0000000000000000 ]'
	check "dma: up to 4 MiB per instance, freed buffers included (buffer 7: 1 MiB)" \
		eval 'dma alloc $D 7 $MiB | grep -qx ok'
	dma free $D 6 >/dev/null
	expect_err "dma: past 4 MiB, ENOSPC (freed buffers still count)" "error: ENOSPC" \
		dma alloc $D 6 $MiB
	check "dma: unload dma_bufs (every buffer, freed ones too, goes)" $BPFDRV unload dma_bufs
fi
$BPFDRV unbind "$testdev" >/dev/null 2>&1
