#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Device DMA confined by the IOMMU (docs/pci.md): a PCI function masters
# the bus only where an IOMMU translates its DMA; the guests have QEMU's
# VT-d. A DMA the driver never mapped, programmed from user space through
# edu's register window at a page of this test's own, faults and leaves
# the page as it was. A function in passthrough gets no DMA or MSI unless
# allow_unsafe_dma=1, which taints the kernel.
. "$(dirname "$0")/lib.sh"

mapfile -t edus < <(lspci -Dn -d 1234:11e8 | awk '{ print $1 }')
if [ ${#edus[@]} -lt 2 ]; then
	echo "# skip: the IOMMU checks need two edu functions"
	exit 0
fi
if [ -z "$(ls /sys/class/iommu 2>/dev/null)" ]; then
	nok "the guest has an IOMMU (/sys/class/iommu is empty)"
	exit 0
fi
load_module || { nok "insmod bpfdrv.ko"; exit 0; }

master_ioctl() {	# NODE: set the bus-master bit through pci_cfg_write
	python3 -S -c '
import errno, fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
try:
    fcntl.ioctl(fd, 0xc0104200 | 29, bytes(16))	# BOUNDS_CFG_SET_MASTER
    print("allowed")
except OSError as e:
    print(errno.errorcode[e.errno])' "$1"
}
# master_bit BDF: 4 if its bus-master bit is set, else 0
master_bit() { echo $(( 0x$(setpci -s "$1" COMMAND) & 4 )); }

# `bpfdrv trace -g iommu` sees this part's DMA and faults: it runs from
# before the driver's load to after its unload, and ftrace counts the same
# on the same run (the dma events of the function, a kprobe event on VT-d's
# fault interrupt), independently of BPF
dev0=${edus[0]}
$BPFDRV trace -g iommu --list --json >"$OUT/ilist.json" 2>"$OUT/ilist.err"
check "trace -g iommu --list: every hook whose symbol exists here is attached" \
	jq -e -s '[.[] | select(.type == "hook" and .kind != "latency" and .target != null
		and (.attached | not))] | length == 0' "$OUT/ilist.json"
for hf in vtd_fault_irq:dmar_fault iopf_report:iommu_report_device_fault \
	  iopf_response:iopf_group_response; do
	f=${hf#*:}
	if grep -qE " $f\$" /proc/kallsyms; then want=1; else want=0; fi
	expect_eq "trace -g iommu --list: ${hf%%:*} ($f) attached iff the kernel has it ($want)" \
		"$(jsum "$OUT/ilist.json" attached type=hook hook=${hf%%:*})" "$want"
done
expect_eq "trace -g iommu --list: the recoverable faults' latency pairs them" \
	"$(jsum "$OUT/ilist.json" attached type=hook hook=iopf_report_to_response)" \
	"$(jsum "$OUT/ilist.json" attached type=hook hook=iopf_response)"
tfs=$TFS
dma_events_on "$dev0" dma_alloc dma_free
echo 0 >$tfs/tracing_on
kp=
echo 'p:bpfdrv_vtd_fault dmar_fault' >>$tfs/kprobe_events 2>/dev/null &&
	echo 1 >$tfs/events/kprobes/bpfdrv_vtd_fault/enable && kp=1
echo 1 >$tfs/tracing_on
tklog=$(dmesg | wc -l)
$BPFDRV trace -g iommu -j -o "$OUT/iommu.json" --perfetto "$OUT/iommu.trace" \
	2>"$OUT/iommu.err" &
tracer=$!
wait_for 60 grep -q tracing "$OUT/iommu.err" ||
	nok "trace -g iommu attaches ($(head -c 300 "$OUT/iommu.err"))"

check "load --pin edu on ${edus[0]} (an IOMMU translates its DMA)" \
	$BPFDRV load --pin --device "${edus[0]}" $OBJ/edu.bpf.o
check "sysfs: edu0's dma is iommu" test "$(cat /sys/class/bpfdrv/edu0/dma)" = iommu
check "status: edu0's DMA goes through the IOMMU" \
	eval "$BPFDRV status edu | grep -q 'edu0 on ${edus[0]}.*DMA through the IOMMU'"

# the escape: edu's DMA engine, programmed through the register window
# (CAP_SYS_RAWIO), told to write its buffer to a page it was never given
klog=$(dmesg | wc -l)
python3 -S - "${edus[0]}" >"$OUT/escape" 2>&1 <<'PY'
import ctypes, mmap, os, struct, sys, time
fd = os.open("/dev/bpfdrv/edu0", os.O_RDWR)
regs = mmap.mmap(fd, 4096, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE, offset=0)
reg = lambda off: ctypes.c_uint32.from_buffer(regs, off)
# edu drives 28 address bits: a page of ours below 256 MiB, looked for in
# up to 512 MiB of memory, touched page by page (written, so each has its
# own frame)
size, bufs, page = 64 << 20, [], None
while page is None and len(bufs) < 8:
    buf = mmap.mmap(-1, size, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    bufs.append(buf)
    for i in range(0, size, 4096):
        buf[i] = 0x5a
    base = ctypes.addressof(ctypes.c_char.from_buffer(buf))
    with open("/proc/self/pagemap", "rb") as pm:
        pm.seek((base >> 12) * 8)
        entries = struct.unpack("<%dQ" % (size >> 12), pm.read((size >> 12) * 8))
    page = next((i for i, e in enumerate(entries)
                 if e >> 63 and 0 < (e & ((1 << 55) - 1)) < (1 << 16)), None)
if page is None:
    print("none: no page of ours below 256 MiB in 512 MiB")
    sys.exit(0)
buf[page * 4096:(page + 1) * 4096] = b"\x5a" * 4096
phys = (entries[page] & ((1 << 55) - 1)) << 12
reg(0x80).value = 0x40000           # from the device's own buffer
reg(0x88).value = phys              # to our page, never mapped for it
reg(0x90).value = 4096
reg(0x98).value = 0x01 | 0x02       # start, device to RAM
end = time.time() + 5
while reg(0x98).value & 1 and time.time() < end:
    time.sleep(0.01)
same = buf[page * 4096:(page + 1) * 4096] == b"\x5a" * 4096
print("phys=%#x done=%d unchanged=%d" % (phys, not reg(0x98).value & 1, same))
PY
sed 's/^/# /' "$OUT/escape"
if grep -q "^none" "$OUT/escape"; then
	echo "# skip: the DMA escape needs a page below 256 MiB"
else
	phys=$(sed -n 's/^phys=\(0x[0-9a-f]*\) .*/\1/p' "$OUT/escape")
	check "a DMA to a page the driver never mapped completes at the device" \
		grep -q "done=1" "$OUT/escape"
	check "the page is unchanged" grep -q "unchanged=1" "$OUT/escape"
	dmesg | tail -n +$((klog + 1)) | grep -i "DMAR" >"$OUT/dmar"
	sed 's/^/# /' "$OUT/dmar" | head -4
	check "the IOMMU reported the fault at that address ($phys)" \
		grep -qi "fault addr $phys" "$OUT/dmar"
fi
# a fault whatever the memory's layout: edu's DMA engine sent to an I/O
# address nothing was mapped at (the driver's buffer is at the top of its
# 28 bits), for the tracer's fault counts below
python3 -S - >"$OUT/unmapped" 2>&1 <<'PY'
import ctypes, mmap, os, time
fd = os.open("/dev/bpfdrv/edu0", os.O_RDWR)
regs = mmap.mmap(fd, 4096, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE, offset=0)
reg = lambda off: ctypes.c_uint32.from_buffer(regs, off)
reg(0x80).value = 0x40000           # from the device's own buffer
reg(0x88).value = 0x100000          # to I/O address 1 MiB, never mapped
reg(0x90).value = 4096
reg(0x98).value = 0x01 | 0x02       # start, device to RAM
end = time.time() + 5
while reg(0x98).value & 1 and time.time() < end:
    time.sleep(0.01)
print("done=%d" % (not reg(0x98).value & 1))
PY
check "a DMA to an I/O address nothing was mapped at completes at the device" \
	grep -q "done=1" "$OUT/unmapped"
check "unload edu" $BPFDRV unload edu

kill -INT $tracer
wait $tracer
check "trace -g iommu: Ctrl-C ends it with status 0" test $? -eq 0
echo 0 >$tfs/tracing_on
grep -v '^#' $tfs/trace >"$OUT/ftrace"
dma_events_off dma_alloc dma_free
if [ -n "$kp" ]; then
	echo 0 >$tfs/events/kprobes/bpfdrv_vtd_fault/enable
	echo '-:bpfdrv_vtd_fault' >>$tfs/kprobe_events
fi
echo 1 >$tfs/tracing_on
# ftrace's count and bytes of a dma event of dev0
fcount() { grep -c " $1: $dev0 " "$OUT/ftrace"; }
fbytes() {
	sed -n "s/.* $1: $dev0 .*size=\([0-9]*\).*/\1/p" "$OUT/ftrace" |
		awk '{ s += $1 } END { print s + 0 }'
}
grep -v '"type":"stat"' "$OUT/iommu.json" | sed 's/^/# /' | cut -c1-200 | head -5
for e in dma_alloc dma_free; do
	expect_eq "trace -g iommu: $e on $dev0 counted as ftrace counts it ($(fcount $e))" \
		"$(jsum "$OUT/iommu.json" count type=stat hook=$e detail=$dev0)" "$(fcount $e)"
	expect_eq "trace -g iommu: $e bytes on $dev0 equal ftrace's ($(fbytes $e))" \
		"$(jsum "$OUT/iommu.json" bytes type=stat hook=$e detail=$dev0)" "$(fbytes $e)"
done
# edu.bpf.c's init allocates one buffer of 2 x EDU_DMA_SIZE (4096)
expect_eq "trace -g iommu: the driver's one DMA buffer (8192 bytes) allocated and freed" \
	"$(jsum "$OUT/iommu.json" bytes type=stat hook=dma_alloc detail=$dev0)/$(jsum \
	   "$OUT/iommu.json" bytes type=stat hook=dma_free detail=$dev0)" "8192/8192"
check "trace -g iommu: the IOMMU's page tables were updated (iommu_map counted)" \
	test "$(jsum "$OUT/iommu.json" count type=stat hook=iommu_map)" -gt 0
check "trace --perfetto: $dev0 has its own track with its DMA events" \
	python3 -S -c 'import json, sys
sys.path.insert(0, "selftests"); import timeline
ev = timeline.load(sys.argv[1])
tids = {e["tid"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"
        and e["args"]["name"] == sys.argv[2] and e["pid"] == 0x7fffffff}
n = sum(1 for e in ev if e["ph"] == "i" and e.get("tid") in tids
        and e["name"] == "dma_alloc " + sys.argv[2])
print(tids, n)
sys.exit(not (len(tids) == 1 and n == 1))' "$OUT/iommu.trace" "$dev0"
if [ -n "$kp" ]; then
	faults=$(grep -c "bpfdrv_vtd_fault:" "$OUT/ftrace")
	expect_eq "trace -g iommu: VT-d fault interrupts counted as ftrace's kprobe counts them ($faults)" \
		"$(jsum "$OUT/iommu.json" count type=stat hook=vtd_fault_irq)" "$faults"
	check "... at least one, for the DMA to an unmapped address" test "$faults" -ge 1
	# the kernel's own report: each fault interrupt with a fault pending
	# logs "DRHD: handling fault status reg" (rate-limited: 10 in 5 s)
	logged=$(dmesg | tail -n +$((tklog + 1)) | grep -c "DRHD: handling fault status reg")
	expect_eq "trace -g iommu: VT-d fault interrupts counted as the kernel logged them ($logged)" \
		"$(jsum "$OUT/iommu.json" count type=stat hook=vtd_fault_irq)" "$logged"
	# the handler's latency: the histogram adds up (mean inside it, its
	# buckets summing to the count) and the stddev of one sample is 0
	check "trace -g iommu: the fault handler's latency histogram adds up" \
		python3 -S -c 'import json, sys
r = [o for o in map(json.loads, open(sys.argv[1])) if o.get("hook") == "vtd_fault_irq"][0]
n, h = r["timed"], r["hist_us"]
mean = r["total_ns"] / 1000 / n
print(r)
sys.exit(not (n == r["count"] and sum(b["count"] for b in h) == n and
              h[0]["lo"] <= mean <= h[-1]["hi"] + 1 and
              r["max_ns"] / 1000 <= h[-1]["hi"] + 1 and
              (n > 1 or r["stddev_us"] == 0)))' "$OUT/iommu.json"
	echo "# io_page_fault rows (VT-d logs its faults instead): $(jcount "$OUT/iommu.json" type=stat hook=io_page_fault)"
else
	echo "# skip: the fault counts (no kprobe event on dmar_fault)"
fi

# passthrough (as no IOMMU): no bus mastering unless the admin opts in
bdf=${edus[1]}
group=$(basename "$(readlink "/sys/bus/pci/devices/$bdf/iommu_group")")
old=$(cat "/sys/kernel/iommu_groups/$group/type")
$BPFDRV unbind "$bdf" >/dev/null 2>&1
[ -e "/sys/bus/pci/devices/$bdf/driver" ] &&
	echo "$bdf" >"/sys/bus/pci/devices/$bdf/driver/unbind"
if ! echo identity >"/sys/kernel/iommu_groups/$group/type" 2>"$OUT/type"; then
	nok "IOMMU group $group of $bdf switched to passthrough ($(cat "$OUT/type"))"
else
	# as firmware or a previous driver may leave it: bus-mastering
	setpci -s "$bdf" COMMAND=4:4
	klog=$(dmesg | wc -l)
	expect_err "load edu on a function in passthrough: its init's DMA buffer is refused" \
		"Operation not permitted" $BPFDRV load --device "$bdf" $OBJ/edu.bpf.o
	check "the kernel log says why and how to allow it" \
		eval "dmesg | tail -n +$((klog + 1)) | grep -q 'bus mastering refused: no IOMMU translates'"
	check "the bus-master bit left set before the bind was cleared at probe" \
		eval "[ \$(( 0x\$(setpci -s $bdf COMMAND) & 4 )) -eq 0 ]"
	# nor can a driver set it itself, through the config-space kfunc
	check "load --pin the bounds test driver on the function in passthrough" \
		$BPFDRV load --pin --device "$bdf" $TOBJ/bounds.bpf.o
	got=$(master_ioctl /dev/bpfdrv/bounds0)
	check "pci_cfg_write of the bus-master bit is refused with EPERM (got $got)" test "$got" = EPERM
	check "... and the bit stayed clear" \
		eval "[ \$(( 0x\$(setpci -s $bdf COMMAND) & 4 )) -eq 0 ]"
	check "unload bounds" $BPFDRV unload bounds
	echo 1 >/sys/module/bpfdrv/parameters/allow_unsafe_dma
	check "load edu in passthrough with allow_unsafe_dma=1" \
		$BPFDRV load --pin --name eduu --device "$bdf" $OBJ/edu.bpf.o
	check "status: eduu0 says its DMA has no IOMMU" \
		eval "$BPFDRV status eduu | grep -q 'DMA WITHOUT an IOMMU'"
	check "the kernel is tainted (TAINT_USER)" \
		eval "[ \$(( \$(cat /proc/sys/kernel/tainted) & 64 )) -ne 0 ]"
	check "unload eduu" $BPFDRV unload eduu
	echo 0 >/sys/module/bpfdrv/parameters/allow_unsafe_dma
	$BPFDRV unbind "$bdf" >/dev/null 2>&1
	echo "$old" >"/sys/kernel/iommu_groups/$group/type" 2>/dev/null ||
		echo DMA >"/sys/kernel/iommu_groups/$group/type"
	check "IOMMU group $group is back to $old" \
		test "$(cat "/sys/kernel/iommu_groups/$group/type")" = "$old"
fi
for f in "${edus[@]}"; do
	$BPFDRV unbind "$f" >/dev/null 2>&1
done

# --- an IOMMU group shared with a device bpfdrv does not control ---
# pvpanic-pci and a virtio-rng-pci sit behind one PCI bridge: one group,
# one DMA domain. bpfdrv's function masters the bus only while the other
# is unbound, and stops (its driver ejected) when virtio-pci takes it back.
pvp=$(lspci -Dn -d 1b36:0011 | awk '{ print $1; exit }')
mate=""
if [ -n "$pvp" ]; then
	grp=$(basename "$(readlink "/sys/bus/pci/devices/$pvp/iommu_group")")
	for d in /sys/kernel/iommu_groups/$grp/devices/*; do
		[ "$(driver_of "${d##*/}")" = virtio-pci ] && mate=${d##*/}
	done
fi
if [ -z "$mate" ]; then
	echo "# skip: shared IOMMU group (no pvpanic-pci sharing a group with a virtio-pci device: QEMU puts both behind a PCI bridge)"
else
	ok "pvpanic-pci $pvp shares IOMMU group $grp with $mate (virtio-pci)"
	[ -e "/sys/bus/pci/devices/$pvp/driver" ] &&
		echo "$pvp" >"/sys/bus/pci/devices/$pvp/driver/unbind"
	klog=$(dmesg | wc -l)
	check "load --pin bounds on $pvp, whose group virtio-pci shares" \
		$BPFDRV load --pin --device "$pvp" $TOBJ/bounds.bpf.o
	got=$(master_ioctl /dev/bpfdrv/bounds0)
	check "setting its bus-master bit is refused with EPERM (got $got)" test "$got" = EPERM
	check "... and the bit stayed clear" test "$(master_bit "$pvp")" = 0
	check "the kernel log names the device that shares the group" \
		eval "dmesg | tail -n +$((klog + 1)) | grep -q 'bus mastering refused: $mate (bound to virtio-pci) shares'"
	check "unload bounds" $BPFDRV unload bounds
	echo "$mate" >/sys/bus/pci/drivers/virtio-pci/unbind
	check "load --pin bounds again, the group's virtio-rng-pci unbound" \
		$BPFDRV load --pin --device "$pvp" $TOBJ/bounds.bpf.o
	got=$(master_ioctl /dev/bpfdrv/bounds0)
	check "setting the bus-master bit is allowed now (got $got)" test "$got" = allowed
	check "... and the bit is set" test "$(master_bit "$pvp")" = 4
	check "virtio-pci binds $mate again while bounds masters the bus" \
		sh -c "echo $mate >/sys/bus/pci/drivers/virtio-pci/bind"
	check "the bus-master bit of $pvp was cleared before that" test "$(master_bit "$pvp")" = 0
	check "bounds is ejected (node gone)" wait_gone bounds0
	check "bpfdrv status: removed, bounds0 lost its IOMMU group to $mate" \
		wait_for 10 eval "$BPFDRV status bounds 2>&1 |
			grep -q 'last exit: removed at .*bounds0 lost its IOMMU group to $mate (bound to virtio-pci)'"
	$BPFDRV unload bounds >/dev/null 2>&1
	$BPFDRV unbind "$pvp" >/dev/null 2>&1
	check "$mate serves virtio-pci again" test "$(driver_of "$mate")" = virtio-pci
fi
