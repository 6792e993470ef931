#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench, inside the VM: bring up the bpfdrv (direct I/O and kernel
# buffer), native and CUSE echo devices, run echobench over them and the
# /dev/zero, /dev/null floor (interleaved, REPS repetitions of SECONDS per
# cell), then over the bpfdrv edu driver and the edu_ref module on the two
# edu functions, then over edu driven through mappings (bpfdrv's window,
# uio_pci_generic, vfio-pci), then over the ABI-3 edu (interrupts in the
# IRQ thread), then over edu_accel's jobs (the accelerator class),
# with kernel-stack profiles of the 4 KiB echo and factorial loops
# (profile.sh), then the memory figures, then the cost of tracing
# (tracing.sh). Results are JSON lines on stdout; the host collects them.
#
# Thread i runs on vCPU i and the CUSE daemon on vCPU 0: under TCG a wakeup
# across vCPUs waits for the host to schedule the other vCPU's thread,
# milliseconds on a busy host, which would measure the host, not CUSE.
#
#   guest-bench.sh REPS SECONDS [TRACE_ROUNDS]
set -u
cd "$(dirname "$0")/../.."
. selftests/guest/lib.sh
. selftests/bench/devices.sh
. selftests/bench/tracing.sh
. selftests/bench/profile.sh

reps=${1:-9} secs=${2:-0.15} trace_rounds=${3:-5}
exec 2>&1	# one stream: the host's log must not get two writers
echo "# kernel $(uname -r)"
# What shapes the figures under emulation: the CPU model QEMU offers, its
# string-copy features, and the mitigations the kernel chose for it.
echo "# env: $(nproc) vCPUs,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
for flag in erms fsrm; do
	grep -qw $flag /proc/cpuinfo && echo "# env: cpu flag $flag" ||
		echo "# env: cpu flag $flag absent"
done
# the clock every timestamp reads (run.sh boots with tsc=reliable: TCG's
# TSC fails the clocksource watchdog on a busy host, and hpet costs ~1 us)
echo "# env: clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
for v in spectre_v2 retbleed; do
	echo "# env: $v: $(cat /sys/devices/system/cpu/vulnerabilities/$v 2>/dev/null)"
done
mount -t bpf bpf /sys/fs/bpf 2>/dev/null
CUSE_CPU=0 echo_devices_up || { echo_devices_down; exit 1; }
# the same echo with a kernel buffer between caller and ring (before ABI 5)
$BPFDRV load --pin --name benchbuf $TOBJ/bench/echo_buffered.bpf.o >/dev/null ||
	echo "# error: bpfdrv load echo_buffered failed"

$B/selftests/bench/echobench -p -r "$reps" -d "$secs" \
	bpfdrv:echo:/dev/bpfdrv/$ECHO_BPFDRV \
	buffered:echo:/dev/bpfdrv/benchbuf \
	native:echo:/dev/echo_native \
	cuse:echo:/dev/$ECHO_CUSE \
	floor:floor:/dev/zero:/dev/null || echo "# error: echobench failed"
# where the 4 KiB I/O path's time goes, direct and through the kernel buffer,
# and the 1-byte and ioctl paths' (the framework's fixed cost per call)
profile_run 4 "echo write+read 4 KiB: bpfdrv, direct I/O|rw /dev/bpfdrv/$ECHO_BPFDRV 4096" \
	"echo write+read 4 KiB: bpfdrv, kernel buffer|rw /dev/bpfdrv/benchbuf 4096" \
	"echo write+read 4 KiB: native|rw /dev/echo_native 4096" \
	"echo write+read 1 B: bpfdrv|rw /dev/bpfdrv/$ECHO_BPFDRV 1" \
	"echo write+read 1 B: native|rw /dev/echo_native 1" \
	"echo ioctl INFO: bpfdrv|ioctl /dev/bpfdrv/$ECHO_BPFDRV" \
	"echo ioctl INFO: native|ioctl /dev/echo_native"
$BPFDRV unload benchbuf >/dev/null

# edu: edu0 stays with the bpfdrv edu driver, the second function goes to
# edu_ref, as in the PCI tests. Both functions' interrupts go to vCPU 0,
# where the benchmark thread runs, for the reason given above.
irqs_to_cpu0() {
	local bdf irq

	for bdf in "$@"; do
		for irq in $(ls "/sys/bus/pci/devices/$bdf/msi_irqs" 2>/dev/null) \
			$(cat "/sys/bus/pci/devices/$bdf/irq"); do
			echo 1 >"/proc/irq/$irq/smp_affinity" 2>/dev/null
		done
	done
}
# The accelerator class: edu_accel's factorial and DMA as jobs, from
# submit to fence (the factorial with one submitter, then ACCEL_SUBMITTERS
# on files of their own, each also with jobs in flight), on the second
# function, beside the edu driver's ioctl path on the first:
#   accel_round OBJECT NAME DIRECT EDU0 EDU1
# edu_accel has 4 jobs on the device at once (accel), edu_accel1 one
# (accel1); DIRECT is bpfdrv_accel's direct_submit for the round (N:
# every job through the DRM scheduler, accel_sched). The first round
# profiles a job beside the ioctl path.
accel_round() {
	local node obj=$1 name=$2 direct=$3

	shift 3
	if [ ! -d /sys/module/bpfdrv_accel ] &&
		{ ! accel_deps ||
		  ! insmod "$B/kbuild/$(uname -r)/kmod/bpfdrv_accel.ko"; }; then
		echo "# error: loading bpfdrv_accel.ko failed"
		return
	fi
	echo "$direct" >/sys/module/bpfdrv_accel/parameters/direct_submit
	if $BPFDRV load --pin --device "$1" $OBJ/edu.bpf.o >/dev/null &&
		$BPFDRV load --pin --device "$2" "$obj" >/dev/null &&
		wait_for 5 test -c /dev/bpfdrv/edu0 &&
		node=$($B/selftests/test_accel find edu_accel) && [ -c "$node" ]; then
		irqs_to_cpu0 "$@"
		$B/selftests/bench/echobench -p -r "$reps" -d "$secs" \
			bpfdrv:edu:/dev/bpfdrv/edu0 "$name:accel:$node" ||
			echo "# error: echobench (edu_accel) failed"
		[ "$name" = accel ] &&
			profile_run 4 "edu factorial: bpfdrv ioctl path|fact /dev/bpfdrv/edu0" \
				"edu factorial: edu_accel job, submit to fence|job $node"
	else
		echo "# error: loading edu and edu_accel side by side failed"
	fi
	$BPFDRV unload edu_accel >/dev/null 2>&1
	$BPFDRV unload edu >/dev/null 2>&1
	echo Y >/sys/module/bpfdrv_accel/parameters/direct_submit
}

mapfile -t edus < <(lspci -Dn -d 1234:11e8 | awk '{ print $1 }')
if [ ${#edus[@]} -lt 2 ]; then
	echo "# skip: edu benchmark (want two edu devices, found ${#edus[@]})"
elif $BPFDRV load --pin $OBJ/edu.bpf.o >/dev/null &&
	$BPFDRV unbind "${edus[1]}" >/dev/null && insmod $KMODS/edu_ref.ko &&
	echo edu_ref >"/sys/bus/pci/devices/${edus[1]}/driver_override" &&
	echo "${edus[1]}" >/sys/bus/pci/drivers_probe &&
	wait_for 5 test -c /dev/edu_ref0 && wait_for 5 test -c /dev/bpfdrv/edu0; then
	irqs_to_cpu0 "${edus[@]}"
	$B/selftests/bench/echobench -p -r "$reps" -d "$secs" \
		bpfdrv:edu:/dev/bpfdrv/edu0 native:edu:/dev/edu_ref0 ||
		echo "# error: echobench (edu) failed"
	profile_run 4 "edu factorial: bpfdrv, irq_hard|fact /dev/bpfdrv/edu0" \
		"edu factorial: native|fact /dev/edu_ref0"
	echo "${edus[1]}" >/sys/bus/pci/drivers/edu_ref/unbind
	rmmod edu_ref
	# what users would pick instead: the second function under
	# uio_pci_generic, driven through its sysfs BAR mapping and
	# /dev/uioN, beside edu0 driven through the bpfdrv window
	if modprobe uio_pci_generic &&
		echo uio_pci_generic >"/sys/bus/pci/devices/${edus[1]}/driver_override" &&
		echo "${edus[1]}" >/sys/bus/pci/drivers_probe &&
		uio=$(ls "/sys/bus/pci/devices/${edus[1]}/uio" 2>/dev/null) && [ -n "$uio" ] &&
		wait_for 5 test -c "/dev/$uio"; then
		irqs_to_cpu0 "${edus[@]}"
		$B/selftests/bench/echobench -p -r "$reps" -d "$secs" \
			mmap:mmio:/dev/bpfdrv/edu0 \
			uio:uio:/sys/bus/pci/devices/${edus[1]}/resource0:/dev/$uio ||
			echo "# error: echobench (edu through mappings) failed"
		echo "${edus[1]}" >/sys/bus/pci/drivers/uio_pci_generic/unbind
	else
		echo "# error: binding uio_pci_generic to ${edus[1]} failed"
	fi
	rmmod uio_pci_generic 2>/dev/null
	# and under vfio-pci, as VFIO users drive a device: the BAR mapped
	# from the device fd, MSI on an eventfd, DMA into their own memory
	# through the IOMMU (run.sh gives the benchmark's guest one)
	if [ ! -e "/sys/bus/pci/devices/${edus[1]}/iommu_group" ]; then
		echo "# skip: vfio-pci (no IOMMU in this guest)"
	elif modprobe vfio-pci &&
		echo vfio-pci >"/sys/bus/pci/devices/${edus[1]}/driver_override" &&
		echo "${edus[1]}" >/sys/bus/pci/drivers_probe &&
		[ "$(basename "$(readlink "/sys/bus/pci/devices/${edus[1]}/driver")")" = vfio-pci ]; then
		# its MSI is set up when echobench opens the device: aim new IRQs
		# at vCPU 0 as the others'
		old_affinity=$(cat /proc/irq/default_smp_affinity)
		echo 1 >/proc/irq/default_smp_affinity
		$B/selftests/bench/echobench -p -r "$reps" -d "$secs" \
			mmap:mmio:/dev/bpfdrv/edu0 vfio:vfio:"${edus[1]}" ||
			echo "# error: echobench (edu under vfio-pci) failed"
		echo "$old_affinity" >/proc/irq/default_smp_affinity
		echo "${edus[1]}" >/sys/bus/pci/drivers/vfio-pci/unbind
	else
		echo "# error: binding vfio-pci to ${edus[1]} failed"
	fi
	echo >"/sys/bus/pci/devices/${edus[1]}/driver_override"
	$BPFDRV unload edu >/dev/null
	# before ABI 4: edu as it was, its interrupt in the sleepable irq
	# callback, run by the IRQ thread, on the second function, beside
	# today's edu on the first (each claims its own by --device)
	if $BPFDRV load --pin --device "${edus[0]}" $OBJ/edu.bpf.o >/dev/null &&
		$BPFDRV load --pin --name eduthread --device "${edus[1]}" \
			$TOBJ/abi/v3/edu.bpf.o >/dev/null &&
		wait_for 5 test -c /dev/bpfdrv/edu0 &&
		wait_for 5 test -c /dev/bpfdrv/eduthread0; then
		irqs_to_cpu0 "${edus[@]}"
		$B/selftests/bench/echobench -p -r "$reps" -d "$secs" \
			bpfdrv:edu:/dev/bpfdrv/edu0 thread:edu:/dev/bpfdrv/eduthread0 ||
			echo "# error: echobench (edu, ABI 3) failed"
		profile_run 4 "edu factorial: bpfdrv, irq callback in the IRQ thread (ABI 3)|fact /dev/bpfdrv/eduthread0"
	else
		echo "# error: loading edu and the ABI-3 edu side by side failed"
	fi
	$BPFDRV unload eduthread >/dev/null 2>&1
	$BPFDRV unload edu >/dev/null 2>&1
	accel_round $OBJ/edu_accel.bpf.o accel Y "${edus[@]}"
	accel_round $TOBJ/edu_accel1.bpf.o accel1 Y "${edus[@]}"
	accel_round $OBJ/edu_accel.bpf.o accel_sched N "${edus[@]}"
else
	echo "# error: setting up the edu drivers failed"
fi

taskset -c 0 python3 selftests/bench/memory.py $BPFDRV $OBJ/echo.bpf.o $ECHO_BPFDRV \
	/dev/echo_native /dev/$ECHO_CUSE || echo "# error: memory figures failed"

# edu_accel's jobs for the tracing section: DMA events for -g iommu
ACCEL_NODE=
if [ ${#edus[@]} -ge 1 ] && [ -d /sys/module/bpfdrv_accel ] &&
	$BPFDRV load --pin --device "${edus[0]}" $OBJ/edu_accel.bpf.o >/dev/null; then
	ACCEL_NODE=$($B/selftests/test_accel find edu_accel)
else
	echo "# skip: tracing a job of edu_accel (no edu, or no accel class)"
fi
trace_bench "$trace_rounds" "$secs" || echo "# error: the tracing bench failed"
$BPFDRV unload edu_accel >/dev/null 2>&1
rmmod bpfdrv_accel 2>/dev/null
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
echo "# clocksource at the end: $cs"

echo_devices_down
if dmesg | grep -E "WARNING:|BUG:|Oops|Call Trace"; then
	echo "# error: the kernel log has a WARNING, BUG or Oops"
fi
echo "# bench done"
