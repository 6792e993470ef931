#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# QEMU for the system sleep guest (run.sh, vng --qemu): the virtio devices
# on the root bus (virtme-ng's 9p filesystems, the root among them, its
# virtio-serial ports, the test's GPU) each behind a PCIe root port of its
# own, with the PM capability's No_Soft_Reset bit
# (x-pcie-pm-no-soft-reset). virtio-pci resets a device at every system
# resume unless that bit is set, and 9pnet_virtio has no restore to set
# its queues up again: the guest's every file access then hangs
# (virtio-gpu loses its resources). QEMU gives a virtio device the
# capability only behind a PCIe port, not on the root bus where
# virtme-ng puts them.
args=() n=0
while [ $# -gt 0 ]; do
	if [ "$1" = -device ] && [ $# -gt 1 ] && [[ $2 == virtio-*-pci* ]] &&
		[[ $2 != *bus=* ]]; then
		args+=(-device "pcie-root-port,id=bpfdrv_sleep$n,chassis=$((40 + n))"
		       -device "$2,bus=bpfdrv_sleep$n,x-pcie-pm-no-soft-reset=on")
		n=$((n + 1))
		shift 2
		continue
	fi
	args+=("$1")
	shift
done
exec qemu-system-x86_64 "${args[@]}"
