#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench, inside the VM: bring up the bpfdrv, native and CUSE echo
# devices, run echobench over them and the /dev/zero, /dev/null floor
# (interleaved, REPS repetitions of SECONDS per cell), then the memory
# figures. Results are JSON lines on stdout; the host collects them.
#
#   guest-bench.sh REPS SECONDS
set -u
cd "$(dirname "$0")/../.."
. selftests/guest/lib.sh
. selftests/bench/devices.sh

reps=${1:-5} secs=${2:-0.25}
echo "# kernel $(uname -r)"
# What shapes the figures under emulation: the CPU model QEMU offers, its
# string-copy features, and the mitigations the kernel chose for it.
echo "# env: $(nproc) vCPUs,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
for flag in erms fsrm; do
	grep -qw $flag /proc/cpuinfo && echo "# env: cpu flag $flag" ||
		echo "# env: cpu flag $flag absent"
done
for v in spectre_v2 retbleed; do
	echo "# env: $v: $(cat /sys/devices/system/cpu/vulnerabilities/$v 2>/dev/null)"
done
mount -t bpf bpf /sys/fs/bpf 2>/dev/null
echo_devices_up || { echo_devices_down; exit 1; }

$B/selftests/bench/echobench -r "$reps" -d "$secs" \
	bpfdrv:echo:/dev/bpfdrv/$ECHO_BPFDRV \
	native:echo:/dev/echo_native \
	cuse:echo:/dev/$ECHO_CUSE \
	floor:floor:/dev/zero:/dev/null || echo "# error: echobench failed"

python3 selftests/bench/memory.py $BPFDRV $OBJ/echo.bpf.o $ECHO_BPFDRV \
	/dev/echo_native /dev/$ECHO_CUSE || echo "# error: memory figures failed"

echo_devices_down
if dmesg | grep -E "WARNING:|BUG:|Oops|Call Trace"; then
	echo "# error: the kernel log has a WARNING, BUG or Oops"
fi
echo "# bench done"
