#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Firmware files and the PCI function's reset (ABI 13). edu built with its
# firmware (edu_fw) loads the device's buffer from a file made here, by
# DMA, and again after each reset; fwprobe reaches each check of the
# firmware kfuncs; the declarations bpfdrv refuses; bpfdrv reset and the
# sysfs reset under a stream of factorials, counted against a kprobe on
# the kernel's bus reset. One edu is alone behind a PCIe root port (a bus
# reset is its reset method); the other, on the root bus, has none.
. "$(dirname "$0")/lib.sh"

EDU=$B/selftests/test_edu
TFW=$B/selftests/test_fw
mapfile -t edus < <(lspci -Dn -d 1234:11e8 | awk '{ print $1 }')
if [ ${#edus[@]} -lt 1 ]; then
	echo "# skip: firmware and reset tests (no edu device: run with -device edu)"
	exit 0
fi
load_module || { nok "insmod bpfdrv.ko for the firmware and reset tests"; exit 0; }

# the firmware loader looks in firmware_class.path first
FW=$OUT/firmware
FWPATH=/sys/module/firmware_class/parameters/path
mkdir -p "$FW/bpfdrv/edu" "$FW/bpfdrv/fwprobe" "$FW/bpfdrv/fwprobe_nopci" "$FW/bpfdrv/badfw"
head -c 4096 /dev/urandom >"$FW/bpfdrv/edu/edu.fw"
head -c 8192 /dev/urandom >"$FW/bpfdrv/fwprobe/probe.fw"
head -c 100 /dev/urandom >"$FW/bpfdrv/fwprobe_nopci/probe.fw"
check "the firmware loader's search path is set to the test's directory" \
	eval "printf %s '$FW' >$FWPATH"

resettable= plain=
for b in "${edus[@]}"; do
	if [ -e "/sys/bus/pci/devices/$b/reset" ]; then resettable=$b; else plain=$b; fi
done
# the instance that holds PCI function $1

# --- edu's firmware, loaded into the device's buffer by DMA ---
check "edu_fw: loads, each instance loading edu.fw" $BPFDRV load --pin $TOBJ/edu_fw.bpf.o
$EDU dmaread /dev/bpfdrv/edu0 4096 >"$OUT/fw0" 2>"$OUT/fw0.err"
check "edu_fw: edu0's buffer read back by DMA is the firmware, byte for byte" \
	cmp "$OUT/fw0" "$FW/bpfdrv/edu/edu.fw"
check "edu_fw: a DMA write then fills the device's buffer (0x5a)" \
	eval "$EDU dmafill /dev/bpfdrv/edu0 4096 0x5a && $EDU dmaread /dev/bpfdrv/edu0 4096 | cmp - <(head -c 4096 /dev/zero | tr '\\0' '\\132')"
check "edu_fw: factorials still right" eval "$EDU facts /dev/bpfdrv/edu0 | cmp - <(known_facts)"

if [ -z "$resettable" ]; then
	echo "# skip: reset tests (no edu is alone on its bus: run with -device pcie-root-port,id=rp -device edu,bus=rp)"
else
	rname=$(instance_of "$resettable")
	check "the edu behind the root port ($resettable, $rname) has a reset method: $(cat /sys/bus/pci/devices/$resettable/reset_method)" \
		test -n "$rname"
	$EDU dmafill /dev/bpfdrv/$rname 4096 0x33 >/dev/null 2>&1
	# an independent count: the kernel's bus resets, by a kprobe
	echo 0 >$TFS/tracing_on
	echo >$TFS/trace
	kp=
	echo 'p:bpfdrv_bus_reset pci_bridge_secondary_bus_reset' >>$TFS/kprobe_events 2>/dev/null &&
		echo 1 >$TFS/events/kprobes/bpfdrv_bus_reset/enable && kp=1
	echo 1 >$TFS/tracing_on
	check "bpfdrv reset $rname: its PCI function is reset" $BPFDRV reset "$rname"
	sed 's/^/# /' "$OUT/check"
	$EDU dmaread /dev/bpfdrv/$rname 4096 >"$OUT/fw1" 2>&1
	check "edu_fw: after the reset the device's buffer holds the firmware again" \
		cmp "$OUT/fw1" "$FW/bpfdrv/edu/edu.fw"
	check "the driver's reset_prepare and reset_done ran once each" \
		eval '[ "$(stat_of $rname reset_prepare)" = 1 ] && [ "$(stat_of $rname reset_done)" = 1 ]'

	# under load: a stream of factorials while it is reset 12 times
	$EDU stream /dev/bpfdrv/$rname 25 >"$OUT/stream" 2>&1 &
	streamer=$!
	$EDU stream /dev/bpfdrv/$rname 25 >"$OUT/stream2" 2>&1 &
	streamer2=$!
	sleep 2
	fails=0
	for i in $(seq 6); do
		$BPFDRV reset "$rname" >/dev/null 2>&1 || fails=$((fails + 1))
		echo 1 >"/sys/bus/pci/devices/$resettable/reset" 2>/dev/null || fails=$((fails + 1))
		sleep 1
	done
	check "12 resets under two streams of factorials (6 by bpfdrv reset, 6 by sysfs): none failed" \
		test "$fails" = 0
	wait $streamer
	rc1=$?
	wait $streamer2
	rc2=$?
	check "the streams: every factorial right or EIO, nothing else ($(cat "$OUT/stream"); $(cat "$OUT/stream2"))" \
		eval "[ $rc1 = 0 ] && [ $rc2 = 0 ] && grep -q '^right [1-9]' '$OUT/stream' && grep -q '^right [1-9]' '$OUT/stream2'"
	check "reset_prepare and reset_done: 13 calls each" \
		eval '[ "$(stat_of $rname reset_prepare)" = 13 ] && [ "$(stat_of $rname reset_done)" = 13 ]'
	# edu counts its calls that come between reset_prepare and reset_done
	q=$(edu_pm_count /dev/bpfdrv/$rname quiesced_calls)
	expect_eq "no call of the driver came between a reset_prepare and its reset_done (of the streams' calls)" "$q" 0
	if [ -n "$kp" ]; then
		n=$(grep -c 'bpfdrv_bus_reset:' $TFS/trace)
		check "ftrace's kprobe counts 13 bus resets of the kernel (counted $n)" test "$n" = 13
		echo 0 >$TFS/events/kprobes/bpfdrv_bus_reset/enable
		echo '-:bpfdrv_bus_reset' >>$TFS/kprobe_events
	else
		echo "# skip: the kprobe count of bus resets (no kprobe events here)"
	fi
	# the first transfer after the last reset loads the firmware again
	check "after the resets: the firmware, factorials and DMA round trips are right" \
		eval "$EDU dmaread /dev/bpfdrv/$rname 4096 | cmp - $FW/bpfdrv/edu/edu.fw && $EDU facts /dev/bpfdrv/$rname | cmp - <(known_facts) && $EDU dma /dev/bpfdrv/$rname"
	check "interrupts still reach the driver after the resets" \
		eval "$EDU fact /dev/bpfdrv/$rname 5 | grep -qx 120"
fi
if [ -n "$resettable" ]; then
	# a reset_prepare that would loop for ever: ended at loop_max_ms
	$BPFDRV unload edu >/dev/null 2>&1
	check "resetloop: loads on $resettable" $BPFDRV load --pin --device "$resettable" $TOBJ/reset_loop.bpf.o
	start=$SECONDS
	timeout 60 $BPFDRV reset resetloop0 >"$OUT/rl" 2>&1
	rc=$?
	check "a reset_prepare that loops for ever: the reset ends (exit $rc, in $((SECONDS - start)) s)" \
		test "$rc" = 0 -a $((SECONDS - start)) -lt 30
	check "and the driver is ejected, saying why" \
		eval '$BPFDRV status resetloop 2>&1 | grep -q "reset_prepare looped for more than"'
	$BPFDRV unload resetloop >/dev/null 2>&1

	# a flood: the driver unloaded while resets (bpfdrv's and sysfs's)
	# and a stream of factorials go on, at random points of them
	hung=0 unloads=0 bad=0
	for i in $(seq 4); do
		$BPFDRV load --pin --device "$resettable" $TOBJ/edu_fw.bpf.o >/dev/null 2>&1 || { bad=$((bad + 1)); continue; }
		fname=$(instance_of "$resettable")
		timeout 60 $EDU stream /dev/bpfdrv/$fname 3 >/dev/null 2>&1 &
		s1=$!
		( for j in 1 2 3; do
			timeout 60 $BPFDRV reset "$fname" >/dev/null 2>&1
			timeout 60 sh -c "echo 1 >/sys/bus/pci/devices/$resettable/reset" 2>/dev/null
		  done ) &
		r1=$!
		sleep "0.$((RANDOM % 8))"
		timeout 60 $BPFDRV unload edu >/dev/null 2>&1 && unloads=$((unloads + 1))
		wait $s1
		[ $? = 124 ] && hung=$((hung + 1))
		wait $r1
		[ "$(driver_of "$resettable")" = bpfdrv ] || bad=$((bad + 1))
	done
	check "4 unloads amid resets and a stream: all $unloads done, nothing hung ($hung), the function still bpfdrv's ($bad lost)" \
		eval "[ $unloads = 4 ] && [ $hung = 0 ] && [ $bad = 0 ]"
	check "edu_fw: loads again" $BPFDRV load --pin $TOBJ/edu_fw.bpf.o
	check "after the flood: the firmware, factorials and DMA round trips are right" \
		eval "$EDU dmaread /dev/bpfdrv/$(instance_of "$resettable") 4096 | cmp - $FW/bpfdrv/edu/edu.fw && $EDU facts /dev/bpfdrv/$(instance_of "$resettable") | cmp - <(known_facts)"
fi
if [ -n "$plain" ]; then
	pname=$(instance_of "$plain")
	expect_err "bpfdrv reset $pname: a function without a reset method is refused, saying so" \
		"has no reset method" $BPFDRV reset "$pname"
fi
expect_err "bpfdrv reset: an unknown instance" "no device instance 'nosuch'" $BPFDRV reset nosuch
expect_err "bpfdrv reset: a path is not a name" "is not a device instance's name" $BPFDRV reset ../edu0
check "edu_fw: unload" $BPFDRV unload edu

# --- fwprobe: each check of the firmware kfuncs ---
bdf=${plain:-${edus[0]}}
check "fwprobe: loads on $bdf with probe.fw" $BPFDRV load --pin --device "$bdf" $TOBJ/fw_probe.bpf.o
N=/dev/bpfdrv/fwprobe0
fw_eq() { expect_eq "$1" "$3" "$2"; }	# fw_eq DESCRIPTION WANT GOT
fwhex() { od -An -tx1 -v -j "$1" -N "$2" "$FW/bpfdrv/fwprobe/probe.fw" | tr -d ' \n'; }
fw_eq "bpfdrv_fw_size(0) is the file's 8192 bytes" 8192 "$($TFW $N size 0)"
fw_eq "bpfdrv_fw_size(1): no file 1, ENOENT" -2 "$($TFW $N size 1)"
fw_eq "bpfdrv_fw_size(9): past the array, ENOENT" -2 "$($TFW $N size 9)"
fw_eq "bpfdrv_fw_to_dma_buf: 64 bytes from offset 100 into buffer 0 at 0" 0 "$($TFW $N dma 0 100 0 0 64)"
fw_eq "the DMA buffer holds those bytes" "$(fwhex 100 64)" "$($TFW $N dmaread 0)"
fw_eq "bpfdrv_fw_to_dma_buf: the file's last 64 bytes" 0 "$($TFW $N dma 0 8128 0 64 64)"
fw_eq "the DMA buffer holds them" "$(fwhex 8128 64)" "$($TFW $N dmaread 64)"
fw_eq "bpfdrv_fw_to_dma_buf: past the file's end, ERANGE" -34 "$($TFW $N dma 0 8129 0 0 64)"
fw_eq "bpfdrv_fw_to_dma_buf: an offset that wraps, ERANGE" -34 "$($TFW $N dma 0 0xffffffffffffffc0 0 0 64)"
fw_eq "bpfdrv_fw_to_dma_buf: past the buffer's end, ERANGE" -34 "$($TFW $N dma 0 0 0 4090 64)"
fw_eq "bpfdrv_fw_to_dma_buf: buffer 3 was not allocated, ENOMEM" -12 "$($TFW $N dma 0 0 3 0 64)"
fw_eq "bpfdrv_fw_to_dma_buf: buffer 9 does not exist, EINVAL" -22 "$($TFW $N dma 0 0 9 0 64)"
fw_eq "bpfdrv_fw_to_dma_buf: no file 1, ENOENT" -2 "$($TFW $N dma 1 0 0 0 64)"
fw_eq "the failed copies changed nothing" "$(fwhex 100 64)" "$($TFW $N dmaread 0)"
fw_eq "bpfdrv_fw_to_bar: 4 bytes into edu's liveness register" 0 "$($TFW $N bar 0 0 0 4 4)"
want=$(printf '0x%08x' $(( ~0x$(od -An -tx4 -N4 "$FW/bpfdrv/fwprobe/probe.fw" | tr -d ' ') & 0xffffffff )))
fw_eq "the register reads back their complement" "$want" "$($TFW $N reg 4)"
fw_eq "bpfdrv_fw_to_bar: BAR 1 (edu has none), ENXIO" -6 "$($TFW $N bar 0 0 1 0 4)"
barlen=$(( $(stat -c %s "/sys/bus/pci/devices/$bdf/resource0") ))
fw_eq "bpfdrv_fw_to_bar: past the BAR's end, ERANGE" -34 "$($TFW $N bar 0 0 0 $((barlen - 2)) 4)"
fw_eq "bpfdrv_fw_to_bar: an offset that wraps, ERANGE" -34 "$($TFW $N bar 0 0 0 0xffffffffffffff 4)"
fw_eq "bpfdrv_fw_to_bar: past the file's end, ERANGE" -34 "$($TFW $N bar 0 8190 0 4 4)"
check "fwprobe: unload" $BPFDRV unload fwprobe

# a driver without a device: its file loads, its copies reach no function
check "fwprobe_nopci: loads without a device, with its own probe.fw" \
	$BPFDRV load --pin $TOBJ/fw_probe_nopci.bpf.o
NP=/dev/bpfdrv/fwprobe_nopci
fw_eq "fwprobe_nopci: bpfdrv_fw_size(0) is its file's 100 bytes" 100 "$($TFW $NP size 0)"
fw_eq "fwprobe_nopci: bpfdrv_fw_to_dma_buf: no PCI function, ENODEV" -19 "$($TFW $NP dma 0 0 0 0 64)"
fw_eq "fwprobe_nopci: bpfdrv_fw_to_bar: no PCI function, ENODEV" -19 "$($TFW $NP bar 0 0 0 0 4)"
fw_eq "fwprobe_nopci: a register read: no PCI function, ENODEV" -19 "$($TFW $NP reg 0)"
check "fwprobe_nopci: unload" $BPFDRV unload fwprobe_nopci

# a device with an MSI-X table (virtio-rng-pci: BAR 1, offset 0)
rng=$(lspci -Dn -d 1af4:1005 | awk '{ print $1; exit }')
if [ -n "$rng" ] && lspci -vvs "$rng" | grep -q "Vector table: BAR=1 offset=00000000"; then
	rdrv=$(driver_of "$rng")
	check "fwprobe: loads on virtio-rng-pci ($rng)" \
		$BPFDRV load --pin --device "$rng" $TOBJ/fw_probe.bpf.o
	fw_eq "bpfdrv_fw_to_bar: into its MSI-X table (BAR 1 at 0), EACCES" -13 "$($TFW $N bar 0 0 1 0 4)"
	fw_eq "bpfdrv_fw_to_bar: a range that ends in the table, EACCES" -13 "$($TFW $N bar 0 0 1 0 1)"
	check "fwprobe: unload; virtio-rng-pci back to $rdrv" \
		eval "$BPFDRV unload fwprobe && $BPFDRV unbind $rng && echo $rng >/sys/bus/pci/drivers_probe && [ \"\$(driver_of $rng)\" = '$rdrv' ]"
else
	echo "# skip: the firmware copy into an MSI-X table (no virtio-rng-pci with its table in BAR 1)"
fi

# --- declarations refused ---
for c in "dotdot:a name is letters, digits" "slash:a name is letters, digits" \
	 "hidden:a name is letters, digits" "long:a name is letters, digits" \
	 "space:a name is letters, digits" "gap:follows an empty name"; do
	expect_err "refused at load: firmware name case ${c%%:*}" "${c#*:}" \
		$BPFDRV load --pin $TOBJ/bad_fw_${c%%:*}.bpf.o
done
expect_err "refused at load: a firmware copy in a callback that cannot sleep" \
	"sleepable" $BPFDRV load --pin $TOBJ/bad_fw_sleep.bpf.o
expect_err "a missing firmware file refuses the instance, naming the file" \
	"firmware bpfdrv/badfw/badfw.fw: no such file" \
	$BPFDRV load --pin --device "$bdf" $TOBJ/bad_fw_missing.bpf.o
head -c 2048 /dev/zero >"$FW/bpfdrv/badfw/badfw.fw"
echo 1 >/sys/module/bpfdrv/parameters/firmware_max_kib
expect_err "a firmware file over firmware_max_kib (1 KiB) refuses the instance" \
	"is 2048 bytes, more than firmware_max_kib (1 KiB)" \
	$BPFDRV load --pin --device "$bdf" $TOBJ/bad_fw_big.bpf.o
echo 16384 >/sys/module/bpfdrv/parameters/firmware_max_kib
check "nothing of the refused drivers stays attached" \
	eval '! ls /sys/class/bpfdrv | grep -q badfw && ! grep -q badfw /sys/kernel/bpfdrv/drivers'
check "the same driver loads once its file fits" \
	eval "$BPFDRV load --pin --device $bdf $TOBJ/bad_fw_big.bpf.o && $BPFDRV unload badfw"
echo -n >$FWPATH

# --- errors of the link (AER), injected by the kernel's aer_inject ---
TA=$B/selftests/test_aer
igb=$(lspci -Dn -d 8086:10c9 | awk '{ print $1; exit }')
aer_counts() { $TA /dev/bpfdrv/aerprobe0 counts; }
if [ -z "$igb" ]; then
	echo "# skip: AER recovery (no PCIe function with AER: run with -device igb behind a pcie-root-port)"
elif ! modprobe aer_inject 2>"$OUT/modprobe" || [ ! -c /dev/aer_inject ]; then
	echo "# skip: AER recovery (aer_inject: $(head -c 200 "$OUT/modprobe"))"
else
	idrv=$(driver_of "$igb")
	check "aerprobe: loads on igb ($igb, an 82576 with AER behind a root port)" \
		$BPFDRV load --pin --device "$igb" $TOBJ/aer_probe.bpf.o
	check "bpfdrv reset aerprobe0: igb's own reset ($(cat /sys/bus/pci/devices/$igb/reset_method)) works, its registers readable after ($(aer_counts))" \
		eval "$BPFDRV reset aerprobe0 && ! aer_counts | grep -q 'reg 0x\(00000000\|ffffffff\)'"
	sed 's/^/# /' "$OUT/check"
	klog=$(dmesg | wc -l)
	if ! $TA inject "$igb" 0 0x1 >"$OUT/inj" 2>&1; then
		echo "# skip: AER recovery: aer_inject refused ($(cat "$OUT/inj"); $(dmesg | tail -n 3 | tr '\n' ' '))"
	else
		wait_for 10 eval "dmesg | tail -n +$((klog + 1)) | grep -qi 'correct'"
		check "a correctable error: logged by the AER driver, no recovery ($(aer_counts))" \
			eval "aer_counts | grep -q '^detected 0 .* resumes 0'"
		echo 0 >$TFS/tracing_on
		echo >$TFS/trace
		kp=
		echo 'p:bpfdrv_link_reset pci_bridge_secondary_bus_reset' >>$TFS/kprobe_events 2>/dev/null &&
			echo 1 >$TFS/events/kprobes/bpfdrv_link_reset/enable && kp=1
		echo 1 >$TFS/tracing_on
		# non-fatal (a completion timeout), the driver can recover
		$TA /dev/bpfdrv/aerprobe0 votes 0 3
		$TA inject "$igb" 0x4000 0
		wait_for 10 eval "aer_counts | grep -q 'resumes 1'"
		check "non-fatal error, the driver votes CAN_RECOVER: error_detected(NORMAL), no slot_reset, error_resume ($(aer_counts))" \
			eval "aer_counts | grep -q '^detected 1 state 1 slot_resets 0 resumes 1 offline 0'"
		# non-fatal, the driver wants a reset
		$TA /dev/bpfdrv/aerprobe0 votes 1 3
		klog=$(dmesg | wc -l)
		$TA inject "$igb" 0x4000 0
		wait_for 10 eval "aer_counts | grep -q 'resumes 2'"
		dmesg | tail -n +$((klog + 1)) | sed 's/^/# dmesg: /'
		lspci -vvs "$(basename "$(readlink -f /sys/bus/pci/devices/$igb/..)")" 2>/dev/null |
			grep -E "LnkCap:|LnkSta:|SltCap|SltSta" | sed 's/^/# root port: /'
		check "non-fatal error, the driver votes NEED_RESET: slot_reset, then error_resume ($(aer_counts))" \
			eval "aer_counts | grep -q '^detected 2 state 1 slot_resets 1 resumes 2 offline 0'"
		resets_before=$(grep -c 'bpfdrv_link_reset:' $TFS/trace)
		# fatal (a data link protocol error): the link is reset
		$TA inject "$igb" 0x10 0
		wait_for 15 eval "aer_counts | grep -q 'resumes 3'"
		check "fatal error: error_detected(FROZEN), error_resume after the link's reset ($(aer_counts))" \
			eval "aer_counts | grep -q '^detected 3 state 2 .* resumes 3 offline 0'"
		if [ -n "$kp" ]; then
			n=$(( $(grep -c 'bpfdrv_link_reset:' $TFS/trace) - resets_before ))
			check "ftrace's kprobe saw the link reset (secondary bus resets: $n)" test "$n" -ge 1
		fi
		check "igb answers after the recovery: its status register is not all ones ($(aer_counts))" \
			eval "! aer_counts | grep -q 'reg 0xffffffff'"
		check "calls reach the driver again (ping)" eval "$TA /dev/bpfdrv/aerprobe0 ping | grep -qx ok"
		# the driver gives up: the recovery fails, no error_resume
		$TA /dev/bpfdrv/aerprobe0 votes 2 3
		klog=$(dmesg | wc -l)
		$TA inject "$igb" 0x4000 0
		wait_for 10 eval "aer_counts | grep -q '^detected 4'"
		wait_for 10 eval "dmesg | tail -n +$((klog + 1)) | grep -qi 'recovery failed'"
		# (7.x then tells the driver the function is lost: error_detected(FAILURE))
		check "the driver votes DISCONNECT: the kernel's recovery fails, no error_resume, the driver's calls fail with EIO ($(aer_counts))" \
			eval "aer_counts | grep -q '^detected [45] .* resumes 3 offline 1' &&
			      $TA /dev/bpfdrv/aerprobe0 ping | grep -qx EIO &&
			      dmesg | tail -n +$((klog + 1)) | grep -qi 'recovery failed'"
		if [ -n "$kp" ]; then
			echo 0 >$TFS/events/kprobes/bpfdrv_link_reset/enable
			echo '-:bpfdrv_link_reset' >>$TFS/kprobe_events
		fi
	fi
	check "aerprobe: unload; igb back to ${idrv:-the driver that takes it}" \
		eval "$BPFDRV unload aerprobe && $BPFDRV unbind $igb && echo $igb >/sys/bus/pci/drivers_probe &&
		      { [ -z '$idrv' ] || [ \"\$(driver_of $igb)\" = '$idrv' ]; }"
	rmmod aer_inject 2>/dev/null
fi
for b in "${edus[@]}"; do
	$BPFDRV unbind "$b" >/dev/null 2>&1
done
