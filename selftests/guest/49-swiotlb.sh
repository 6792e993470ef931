#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The accelerator's DMA by the book, where every DMA is bounced: in a guest
# booted with swiotlb=force (run.sh boots one for this part, its edu's
# DMA engine driving 32 address bits), an edu function whose IOMMU group
# is in passthrough (so the DMA API bounces its
# DMA through swiotlb; allow_unsafe_dma=1, which taints) runs edu_accel's
# jobs, one client at a time and several with jobs in flight: the bytes
# its DMA jobs move, through bounce buffers both ways, must all arrive.
. "$(dirname "$0")/lib.sh"

T=$B/selftests
ACCEL_KO=$B/kbuild/$(uname -r)/kmod/bpfdrv_accel.ko

if ! grep -qw "swiotlb=force" /proc/cmdline; then
	echo "# skip: swiotlb (the guest was not booted with swiotlb=force)"
	exit 0
fi
bdf=$(lspci -Dn -d 1234:11e8 | awk 'NR == 1 { print $1 }')
if [ -z "$bdf" ] || ! accel_deps; then
	echo "# skip: swiotlb (no edu device, or no DRM scheduler)"
	exit 0
fi
load_module
check "bpfdrv_accel.ko loads" insmod "$ACCEL_KO"
group=$(basename "$(readlink "/sys/bus/pci/devices/$bdf/iommu_group")")
old=$(cat "/sys/kernel/iommu_groups/$group/type" 2>/dev/null)
[ -e "/sys/bus/pci/devices/$bdf/driver" ] &&
	echo "$bdf" >"/sys/bus/pci/devices/$bdf/driver/unbind"
check "IOMMU group $group of $bdf in passthrough: the DMA API bounces its DMA" \
	eval "echo identity >/sys/kernel/iommu_groups/$group/type"
echo 1 >/sys/module/bpfdrv/parameters/allow_unsafe_dma
check "edu_accel (32-bit DMA) loads on $bdf" \
	$BPFDRV load --pin --device "$bdf" "$TOBJ/edu_accel32.bpf.o"
node=$($T/test_accel find edu_accel)
check "its accel node exists ($node)" test -c "$node"
inst=$(ls "/sys/bus/pci/devices/$bdf/bpfdrv" | head -1)
jobs() { awk '$1 == "accel_run_job" { print $2 }' "/sys/class/bpfdrv/$inst/stats"; }
before=$(jobs)
bounced=
events_on swiotlb "dev_name == \"$bdf\"" swiotlb_bounced && bounced=1
tap_run $T/test_accel edu "$node" 20
# its queue of 4 jobs on the device, bounced: 2 clients with 4 in flight
tap_run $T/test_accel eduthreads "$node" 2 16
if [ -n "$bounced" ]; then
	events_off swiotlb swiotlb_bounced
	# a buffer is mapped when the driver asks for its bus address: both
	# buffers, a page each, of each DMA job, mapped once: two bounces; 2
	# DMA jobs of test_accel edu's, 2 of each eduthreads client's 16 jobs
	dmajobs=6
	expect_eq "ftrace: swiotlb bounced both buffers of each of the $dmajobs DMA jobs (of $(($(jobs) - before)) jobs run)" \
		"$(ftrace_count swiotlb_bounced)" $((2 * dmajobs))
	echo 1 >$TFS/tracing_on
else
	nok "ftrace: the swiotlb_bounced event exists"
fi
# jobs in a VM, its mappings mapped once and synced for each job
tap_run $T/test_accel edu_vm "$node" noiommu
tap_run $T/test_accel edu_vm_random "$node" "$RANDOM"
check "unload edu_accel" $BPFDRV unload edu_accel
echo 0 >/sys/module/bpfdrv/parameters/allow_unsafe_dma
$BPFDRV unbind "$bdf" >/dev/null 2>&1
[ -n "$old" ] && echo "$old" >"/sys/kernel/iommu_groups/$group/type" 2>/dev/null
check "bpfdrv_accel.ko unloads" wait_for 10 rmmod bpfdrv_accel
