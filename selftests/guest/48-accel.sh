#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The accelerator class: a BPF driver as a DRM accel device. Declarations
# refused at load (each with the kernel's reason); accel_probe's node
# through libdrm (test_accel: version, buffers, mmap, the driver's own
# ioctls, limits, threads, jobs and their fences, PRIME with vgem); its
# ioctls and jobs counted by the driver's stats and by bpfdrv trace against
# the client's tally; a detach with a file, a mapping, a dma-buf and jobs
# held; bpfdrv_accel.ko unloadable after. The dma-fence rules (no sleeping
# or unbudgeted run_job), the limits (dumb buffers, the declared mode, the
# per-file job cap, the memory cgroup), a flood of jobs killed behind a held
# one at unload, fences that outlive the driver.
. "$(dirname "$0")/lib.sh"

T=$B/selftests
ACCEL_KO=$B/kbuild/$(uname -r)/kmod/bpfdrv_accel.ko
load_module

# ---------------- without the class module ----------------
# The guest has no bpfdrv_accel.ko where modprobe looks: the request fails
expect_refused "no class module" "$TOBJ/accel_probe.bpf.o" \
	"bpfdrv_accel.ko (the DRM accel class) cannot be loaded"

# ---------------- the class module ----------------
if ! accel_deps; then
	echo "# skip: accel (this kernel has no DRM shmem helpers or scheduler)"
	exit 0
fi
check "bpfdrv_accel.ko loads" insmod "$ACCEL_KO"

for c in "name:invalid name for accel ioctl 0" \
	 "dup:accel ioctl RUN is declared twice" \
	 "size:accel ioctl RUN: size 1025" \
	 "dir:accel ioctl RUN: size 8 and dir 0" \
	 "gap:accel ioctl 2 follows the end of its accel_ioctls" \
	 "noaccel:has accel ioctls or rings but is no accelerator" \
	 "nocb:declares accel ioctls but has no accel_ioctl callback" \
	 "two:accel is 2" \
	 "rings:5 accel rings of 0 jobs, a 0 ms job timeout (at most 4, 16" \
	 "ringjobs:1 accel rings of 17 jobs, a 0 ms job timeout (at most 4, 16" \
	 "ringjobsnorings:has accel_ring_jobs but no accel rings" \
	 "norun:accel rings need an accel_run_job callback, and it rings" \
	 "runnorings:accel rings need an accel_run_job callback, and it rings" \
	 "dmanopci:accel_dma_bits 32 (want 0, or 24..64 in a PCI driver" \
	 "dmabits:accel_dma_bits 23 (want 0, or 24..64 in a PCI driver" \
	 "sleepjob:accel_run_job runs on the dma-fence signalling path: it cannot be sleepable" \
	 "sleeptimeout:accel_timeout runs on the dma-fence signalling path: it cannot be sleepable" \
	 "fencekfunc:kfunc bpfdrv_pci_cfg_read.* not on the dma-fence signalling path" \
	 "sleepvmmap:accel_vm_map runs on the dma-fence signalling path: it cannot be sleepable" \
	 "vmfencekfunc:kfunc bpfdrv_pci_cfg_read.* not on the dma-fence signalling path"; do
	expect_refused refused "$TOBJ/bad_accel_${c%%:*}.bpf.o" "${c#*:}"
done
check "no refused declaration left an accel node" \
	eval '! ls /sys/class/accel 2>/dev/null | grep -q .'

# tac MODE ARG...: test_accel, a crash counted as a failure (lib.sh)
tac() { tap_run $T/test_accel "$@"; }

# across MODE ACTION [ARG...]: test_accel MODE on the node (and ARGs)
# until it is ready, then ACTION (a function), then the client goes on;
# its TAP lines follow
across() {
	local mode=$1 action=$2 client rc

	rm -f "$OUT/go-$mode"
	mkfifo "$OUT/go-$mode"
	$T/test_accel "$mode" "$node" "${@:3}" <"$OUT/go-$mode" >"$OUT/$mode" 2>&1 &
	client=$!
	exec 9>"$OUT/go-$mode"
	wait_for 30 grep -q "^# ready" "$OUT/$mode"
	$action
	(echo go >&9) 2>/dev/null	# a client gone already: not our SIGPIPE
	exec 9>&-
	wait "$client"
	rc=$?
	check "the $mode client's checks pass" test $rc -eq 0
	cat "$OUT/$mode"
}

# ---------------- an accelerator without rings ----------------
# its driver's ioctls only: no fence context (7.3 warned for 0 of them)
check "accel_probe_norings loads (ioctls, no rings)" \
	$BPFDRV load --pin "$TOBJ/accel_probe_norings.bpf.o"
node=$($T/test_accel find accel_probe)
check "its accel node exists ($node)" test -c "$node"
tac threads "$node" 1
tac params "$node" 0
# it declares 0666: anyone may use it (devtmpfs made the node so; udev
# may have given it to render, as Debian's rule does)
# (udev first: its rule, applied after the chmod, would undo it)
command -v udevadm >/dev/null && udevadm settle --timeout=10
echo "# its node: $(stat -c '%a %U:%G' "$node")"
chmod 0666 "$node"
tac nonroot "$node" 0
check "accel_probe_norings unloads" $BPFDRV unload accel_probe

# ---------------- accel_probe through libdrm ----------------
check "accel_probe loads" $BPFDRV load --pin "$TOBJ/accel_probe.bpf.o"
node=$($T/test_accel find accel_probe)
check "its accel node exists ($node)" test -c "$node"
[ -n "$node" ] || ls -la /dev/accel /sys/class/accel 2>&1 | sed 's/^/# /'
sysdev=$(readlink -f "/sys/class/accel/$(basename "$node")/device")
check "the node's parent is the instance ($sysdev)" \
	test "$(basename "$sysdev")" = accel_probe
stat() { awk -v k="$1" '$1 == k { print $2 }' /sys/class/bpfdrv/accel_probe/stats; }

tac basic "$node"
tac limits "$node"
tac dumb "$node"
# what each file used, in fdinfo: its rings' busy time, its buffers
tac fdinfo "$node"
# the same reader against malformed fdinfo (a driver's keys are free-form)
tap_run $T/test_fdinfo_parse
# ... as trace --top shows it: the traced process's two clients, one with
# its 12 KiB of buffers and its ring kept busy 1.5 s
$BPFDRV trace --top -i 0.3 -g drm -o "$OUT/top-accel.out" -- \
	$T/test_accel fdinfo "$node" 1.5 >"$OUT/top-fdinfo" 2>&1
check "trace --top: the traced process's DRM clients from fdinfo (driver, 12 KiB of buffers, busy while its ring is)" \
	python3 -S -c 'import re, sys
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()
        if re.match(r"\d+ +test_accel +accel_probe ", l)]
print("#", len(rows), "rows, the last:", rows[-2:])
busy = [float(r[5]) for r in rows if len(r) >= 8 and r[5] != "-"]
sys.exit(not (any(r[-2:] == ["12.0", "KiB"] for r in rows) and any(r[-2:] == ["0", "B"] for r in rows)
              and busy and max(busy) >= 50))' "$OUT/top-accel.out"
# it declares no mode (0600): a node widened by udev (render, 0660) or by
# hand does not let others in
command -v udevadm >/dev/null && udevadm settle --timeout=10
chmod 0666 "$node"
tac nonroot "$node" 13
chmod 0600 "$node"
# pinned buffers are charged: a client in a 48 MiB memory cgroup pinning
# 256 MiB fails, and the cgroup's charge goes with it
cg=/sys/fs/cgroup
mountpoint -q $cg || mount -t cgroup2 none $cg 2>/dev/null
if echo +memory >$cg/cgroup.subtree_control 2>/dev/null && mkdir -p $cg/accelpin &&
	echo 48M >$cg/accelpin/memory.max; then
	echo 0 >$cg/accelpin/memory.swap.max 2>/dev/null
	sh -c 'echo $$ >'$cg'/accelpin/cgroup.procs && exec "$@"' sh \
		$T/test_accel pin "$node" 256 >"$OUT/pin" 2>&1
	rc=$?
	cat "$OUT/pin"
	check "the pinning client exits cleanly (rc $rc) or its cgroup killed it" \
		eval "[ $rc -eq 0 ] || grep -q '^oom_kill [1-9]' $cg/accelpin/memory.events"
	check "nothing stays charged to its cgroup ($(cat $cg/accelpin/memory.current) bytes)" \
		wait_for 10 eval "[ \$(cat $cg/accelpin/memory.current) -lt 4194304 ]"
	check "the machine still answers (a buffer and a job)" $T/test_accel submitters "$node" 1 5 1
	rmdir $cg/accelpin
else
	echo "# skip: the memory cgroup test (no cgroup2 memory controller)"
fi
before=$(stat accel_ioctl)
tac threads "$node" 4
expect_eq "stats count each of the 8000 ADDs once" \
	"$(($(stat accel_ioctl) - before))" 8000

# the skeleton bpfdrv new --accel writes, built by its own Makefile
check "load the accelerator skeleton (bpfdrv new --accel)" \
	$BPFDRV load --pin $B/new/skelaccel/skelaccel.bpf.o
skeleton_test skelaccel '^11 passed, 0 failed' "its generated test passes, GET_PARAM, a job on a timeline and one in a VM included"
check "unload the skeleton" $BPFDRV unload skelaccel

# jobs, most started from their submit (a ring idle), then each through
# the DRM scheduler (direct_submit=N)
DIRECT=/sys/module/bpfdrv_accel/parameters/direct_submit
before=$(stat accel_run_job)
tac jobs "$node"
tac submitters "$node" 4 200 2
echo N >$DIRECT
tac jobs "$node"
expect_eq "stats: run_job ran once for each of the 800 submitters' jobs and the 2 x 9 others" \
	"$(($(stat accel_run_job) - before))" 818
tac edges "$node"
# priorities through the scheduler's jobs only (N), then with direct jobs
tac priority "$node"
echo Y >$DIRECT
tac priority "$node"
tac timeline "$node"
before=$(stat accel_get_param)
tac params "$node" 2
expect_eq "stats: accel_get_param ran for each of the driver's parameters asked (9)" \
	"$(($(stat accel_get_param) - before))" 9
if command -v setpriv >/dev/null; then
	tap_run setpriv --bounding-set=-sys_nice $T/test_accel priority_denied "$node"
else
	echo "# skip: a high priority without CAP_SYS_NICE (no setpriv)"
fi
echo N >$DIRECT

modprobe vgem 2>/dev/null
vgem=$($T/test_trace_drm find vgem)
if [ -n "$vgem" ]; then
	tac prime "$node" "$vgem"
	# through the scheduler (N: the tracer's tests below count its jobs),
	# then started from the submit where nothing is waited for
	tac implicit "$node" "$vgem"
	echo Y >$DIRECT
	tac implicit "$node" "$vgem"
	echo N >$DIRECT
else
	echo "# skip: PRIME with vgem (no vgem card)"
fi

# bpfdrv trace names the driver's ioctls from its own table (two threads:
# a function hook; the tracepoints below, hit by two threads or rings at
# once, may lose a call to BPF's recursion check, which the tracer reports)
$BPFDRV trace -g drm --json -o "$OUT/trace.json" -- \
	$T/test_accel threads "$node" 2 >"$OUT/threads" 2>&1
check "trace -g drm -- test_accel threads exits 0" test $? -eq 0
sed 's/^/# /' "$OUT/threads"
expect_eq "trace: the ADD ioctl row counts the client's 4000" \
	"$(jsum "$OUT/trace.json" count type=stat hook=drm_ioctl detail=ADD driver=accel_probe)" 4000

# the same jobs counted by ftrace's gpu_scheduler events on the same run
# (the accelerator's is the guest's only DRM scheduler), named per kernel
sched_evs=()
for pair in drm_sched_job_queue:drm_sched_job drm_sched_job_run:drm_run_job \
	    drm_sched_job_done:drm_sched_process_job; do
	for e in ${pair%%:*} ${pair#*:}; do
		[ -d $TFS/events/gpu_scheduler/$e ] && { sched_evs+=($e); break; }
	done
done
events_on gpu_scheduler "" "${sched_evs[@]}" || sched_evs=()
$BPFDRV trace -g drm --json -o "$OUT/trace-jobs.json" --perfetto "$OUT/jobs.trace" -- \
	$T/test_accel submitters "$node" 1 200 1 >"$OUT/jobs" 2>&1
check "trace -g drm -- test_accel submitters exits 0, nothing lost" test $? -eq 0
cat "$OUT/jobs"
grep '"type":"lost"' "$OUT/trace-jobs.json" | sed 's/^/# /'
[ ${#sched_evs[@]} -eq 3 ] && events_off gpu_scheduler "${sched_evs[@]}"
i=0
for hook in sched_queue sched_run sched_done; do
	expect_eq "trace: $hook counts the client's 200 jobs" \
		"$(jsum "$OUT/trace-jobs.json" count type=stat hook=$hook)" 200
	if [ ${#sched_evs[@]} -eq 3 ]; then
		expect_eq "ftrace: ${sched_evs[$i]} counts the same" \
			"$(ftrace_count "${sched_evs[$i]}")" 200
	else
		nok "ftrace: the scheduler's queue, run and done events exist"
	fi
	i=$((i + 1))
done
echo 1 >$TFS/tracing_on
expect_eq "trace: the SUBMIT ioctl row counts them too" \
	"$(jsum "$OUT/trace-jobs.json" count type=stat hook=drm_ioctl detail=BPFDRV_SUBMIT driver=accel_probe)" 200
check "trace --perfetto: an instant per job queued, run and done, a span per job's life" \
	python3 -S -c 'import json, sys
sys.path.insert(0, "selftests"); import timeline
ev = timeline.load(sys.argv[1])
n = lambda ph, name: sum(1 for e in ev if e["ph"] == ph and e["name"].split(" ")[0] == name)
got = [n("i", "sched_queue"), n("i", "sched_run"), n("i", "sched_done"),
       n("b", "sched_queue_to_done"), n("e", "sched_queue_to_done")]
print("# queue, run, done instants; life begins, ends:", got)
sys.exit(got != [200] * 5)' "$OUT/jobs.trace"
check "trace --perfetto: each of the 200 submits has a flow to its job's life and one to its finished fence's signal, and no flow dangles" \
	python3 -S -c 'import sys
sys.path.insert(0, "selftests"); import timeline
pairs = timeline.check_flows(timeline.load(sys.argv[1], flows=True))
subs = {s["name"] for _, s, _ in pairs}
got = [sum(i & 3 == timeline.FLOW_JOB for i, _, _ in pairs),
       sum(i & 3 == timeline.FLOW_FENCE for i, _, _ in pairs)]
print("# flows to jobs, to fences:", got, "from", subs)
sys.exit(got != [200, 200] or subs != {"drm_ioctl BPFDRV_SUBMIT"})' "$OUT/jobs.trace"

# direct jobs: none in the scheduler's events, each in dma_fence's (a
# fence handed to the device); with N, each in the scheduler's again
# run_jobs N: "RUN EMIT", the scheduler's run and bpfdrv_accel's fence
# emit events of N jobs, one at a time
run_jobs() {
	local run=${sched_evs[1]} emit=$TFS/events/dma_fence/dma_fence_emit

	[ -n "$run" ] && [ -d "$emit" ] && events_on gpu_scheduler "" "$run" || return 1
	echo 'driver == "bpfdrv_accel"' >"$emit/filter"
	echo 1 >"$emit/enable"
	echo 1 >$TFS/tracing_on
	$T/test_accel submitters "$node" 1 "$1" 1 | sed 's/^/# /' >&2
	events_off gpu_scheduler "$run"
	events_off dma_fence dma_fence_emit
	echo "$(ftrace_count "$run") $(ftrace_count dma_fence_emit)"
	echo 1 >$TFS/tracing_on
}
if counts=$(run_jobs 100); then
	expect_eq "direct_submit=N: 100 jobs one at a time, each run by the scheduler and its fence emitted" \
		"$counts" "100 100"
	echo Y >$DIRECT
	expect_eq "direct_submit=Y: none of 100 jobs for an idle ring goes through the scheduler, each fence emitted" \
		"$(run_jobs 100)" "0 100"
else
	echo Y >$DIRECT
	nok "ftrace: the scheduler's run and dma_fence's emit events exist"
fi
echo N >$DIRECT

# ---------------- edu_accel: jobs on real (emulated) hardware ----------------
if [ "$(lspci -Dn -d 1234:11e8 | wc -l)" -ge 1 ]; then
	check "edu_accel binds the edu functions and loads" \
		$BPFDRV load --pin "$OBJ/edu_accel.bpf.o"
	edu=$($T/test_accel find edu_accel)
	check "edu_accel's first instance has an accel node ($edu)" test -c "$edu"
	before=$(cat /sys/class/bpfdrv/edu_accel0/irq_count)
	jobs=$(awk '$1 == "accel_run_job" { print $2 }' /sys/class/bpfdrv/edu_accel0/stats)
	# its job buffers' DMA mappings, seen by bpfdrv trace -g iommu and,
	# independently, by ftrace's dma events of the same function
	bdf=$(basename "$(readlink -f /sys/class/bpfdrv/edu_accel0/device)")
	dmaev=
	# and its interrupts (an MSI of its own), by ftrace's irq events
	irqn=$(ls "/sys/bus/pci/devices/$bdf/msi_irqs" 2>/dev/null | head -1)
	irqev=
	[ -n "$irqn" ] && events_on irq "irq == $irqn" irq_handler_entry && irqev=1
	dma_events_on "$bdf" dma_map_sg dma_unmap_sg && dmaev=1
	$BPFDRV trace -g drm,iommu -j -o "$OUT/edu-iommu.json" \
		--perfetto "$OUT/edu.json" -- \
		$T/test_accel edu "$edu" 50 >"$OUT/edu" 2>"$OUT/edu.err"
	cat "$OUT/edu"
	tac params_absent "$edu"
	jobs=$(($(awk '$1 == "accel_run_job" { print $2 }' /sys/class/bpfdrv/edu_accel0/stats) - jobs))
	irqs=$(($(cat /sys/class/bpfdrv/edu_accel0/irq_count) - before))
	# a buffer is mapped when the driver asks for its bus address: both of
	# each of test_accel edu's 2 DMA jobs that reach the device
	dmajobs=2
	# one timeline: the function's own track with its mappings and its
	# interrupts, beside the jobs the scheduler ran
	check "trace --perfetto: $bdf's track has a mapping per buffer of each of the $dmajobs DMA jobs and its $irqs interrupts, beside the $jobs jobs" \
		python3 -S -c 'import json, sys
sys.path.insert(0, "selftests"); import timeline
ev = timeline.load(sys.argv[1])
tids = {e["tid"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"
        and e["args"]["name"] == sys.argv[2] and e["pid"] == 0x7fffffff}
on_track = lambda ph, name: sum(1 for e in ev if e["ph"] == ph and e.get("tid") in tids
                                and e.get("pid") == 0x7fffffff and e["name"] == name)
maps = on_track("i", "dma_map_sg " + sys.argv[2])
irqs = on_track("X", "dev_irq " + sys.argv[2])
runs = sum(1 for e in ev if e["ph"] == "i" and e["name"].split(" ")[0] == "sched_run")
print("# tracks", tids, "mappings", maps, "interrupts", irqs, "jobs run", runs)
sys.exit(not (len(tids) == 1 and maps == 2 * int(sys.argv[5]) and
              runs == int(sys.argv[3]) and irqs == int(sys.argv[4])))' \
		"$OUT/edu.json" "$bdf" "$jobs" "$irqs" "$dmajobs"
	expect_eq "trace -g iommu: dev_irq of $bdf counts the interrupts edu_accel took" \
		"$(jsum "$OUT/edu-iommu.json" count type=stat hook=dev_irq detail=$bdf)" "$irqs"
	if [ -n "$irqev" ]; then
		events_off irq irq_handler_entry
		expect_eq "ftrace: irq_handler_entry of its IRQ $irqn counts the same" \
			"$(ftrace_count irq_handler_entry)" "$irqs"
		echo 1 >$TFS/tracing_on
	else
		nok "ftrace: $bdf has an MSI and irq_handler_entry exists"
	fi
	if [ -n "$dmaev" ]; then
		dma_events_off dma_map_sg dma_unmap_sg
		for e in dma_map_sg dma_unmap_sg; do
			expect_eq "trace -g iommu: $e of $bdf, two buffers for each of the $dmajobs DMA jobs of $jobs" \
				"$(jsum "$OUT/edu-iommu.json" count type=stat hook=$e detail=$bdf)" $((2 * dmajobs))
			expect_eq "ftrace: $e of $bdf counts the same" \
				"$(grep -c " $e: $bdf " $TFS/trace)" $((2 * dmajobs))
		done
		echo 1 >$TFS/tracing_on
	else
		echo "# skip: DMA mappings of job buffers counted (no dma trace events)"
	fi
	# 13 + 1 (3!, then 13 refused) + 50 x 13 values, each an interrupt,
	# and two per DMA job (to the device, back), of which there are two
	expect_eq "irq_hard took each value's and each transfer's interrupt, once" \
		"$irqs" 668
	# from here jobs for an idle ring start from their submit again
	echo Y >$DIRECT
	# its ring has 4 jobs on the device, the others queued in the driver:
	# 4 clients, each with 4 jobs in flight
	tac eduthreads "$edu" 4 32
	# jobs in a VM: each mapping is mapped for edu's DMA once, at its
	# bind (ftrace's dma events of the function count them against the
	# test's own tally), and unmapped when unbound and no job holds it
	iommu=noiommu
	ls /sys/kernel/iommu_groups/ 2>/dev/null | grep -q . && iommu=iommu
	if dma_events_on "$bdf" dma_map_sg dma_unmap_sg; then
		tac edu_vm "$edu" $iommu | tee "$OUT/edu_vm"
		maps=$(sed -n 's/^# vm dma mappings //p' "$OUT/edu_vm")
		check "ftrace: dma_unmap_sg of $bdf for each of its $maps VM mappings, the last a job held" \
			wait_for 10 eval '[ "$(grep -c " dma_unmap_sg: $bdf " $TFS/trace)" = "$maps" ]'
		dma_events_off dma_map_sg dma_unmap_sg
		expect_eq "ftrace: dma_map_sg of $bdf once for each of them, none per job" \
			"$(grep -c " dma_map_sg: $bdf " $TFS/trace)" "$maps"
		echo 1 >$TFS/tracing_on
	else
		tac edu_vm "$edu" $iommu
	fi
	tac edu_vm_random "$edu" "$RANDOM"
	# the function unbound, then hot-removed, with DMA jobs running and
	# queued; the function comes back each time
	inst_of() { ls "/sys/bus/pci/devices/$1/bpfdrv" 2>/dev/null | head -1; }
	node_of() {
		local a

		for a in /sys/class/accel/accel*; do
			[ "$(basename "$(readlink -f "$a/device")")" = "$1" ] &&
				echo "/dev/accel/${a##*/}"
		done
	}
	inst=$(inst_of "$bdf")
	node=$(node_of "$inst")
	# cut_off HOW CMD: the function goes by CMD under the client's jobs
	cut_off() {
		check "$1 $bdf with DMA jobs running and queued" eval "$2"
		check "its instance $inst is gone" wait_gone "$inst"
	}
	unbind_it() { cut_off unbind "echo $bdf >/sys/bus/pci/devices/$bdf/driver/unbind"; }
	across eduhold unbind_it
	echo "$bdf" >/sys/bus/pci/drivers_probe
	check "$bdf binds to edu_accel again" wait_for 10 eval 'test -n "$(inst_of '"$bdf"')"'
	inst=$(inst_of "$bdf")
	node=$(node_of "$inst")
	remove_it() { cut_off hot-remove "echo 1 >/sys/bus/pci/devices/$bdf/remove"; }
	across eduhold remove_it
	echo 1 >/sys/bus/pci/rescan
	check "$bdf comes back after a rescan" wait_for 10 test -e "/sys/bus/pci/devices/$bdf"
	check "bpfdrv bind hands it to bpfdrv again" $BPFDRV bind "$bdf"
	check "edu_accel serves it again" \
		wait_for 10 eval 'test -n "$(inst_of '"$bdf"')"'
	# a VM's mappings lose their DMA with the instance, not at the
	# file's close (the function may serve another driver next)
	inst=$(inst_of "$bdf")
	node=$(node_of "$inst")
	revoke_it() {
		dma_events_on "$bdf" dma_unmap_sg || return 0
		unbind_it
		dma_events_off dma_unmap_sg
		expect_eq "ftrace: its VM's 2 mappings unmapped for DMA as the instance went" \
			"$(grep -c " dma_unmap_sg: $bdf " $TFS/trace)" 2
		echo 1 >$TFS/tracing_on
	}
	across edu_vm_hold revoke_it
	echo "$bdf" >/sys/bus/pci/drivers_probe
	check "$bdf binds to edu_accel once more" \
		wait_for 10 eval 'test -n "$(inst_of '"$bdf"')"'
	check "unload edu_accel" $BPFDRV unload edu_accel
	# a hostile driver has edu write to the buffer of a job that ended
	bdf=$(lspci -Dn -d 1234:11e8 | awk 'NR == 1 { print $1 }')
	check "edu_stale loads on $bdf" \
		$BPFDRV load --pin --device "$bdf" "$TOBJ/edu_stale.bpf.o"
	klog=$(dmesg | wc -l)
	tac stale "$($T/test_accel find edu_stale)"
	dmesg | tail -n +$((klog + 1)) | grep -i "DMAR" >"$OUT/dmar"
	sed 's/^/# /' "$OUT/dmar" | head -3
	check "the IOMMU reported refusing that write" grep -qi "fault addr" "$OUT/dmar"
	check "unload edu_stale" $BPFDRV unload edu_stale
	for bdf in $(lspci -Dn -d 1234:11e8 | awk '{ print $1 }'); do
		$BPFDRV unbind "$bdf" >/dev/null 2>&1
	done
else
	echo "# skip: edu_accel (no edu device: run with -device edu)"
fi
echo Y >$DIRECT

# ---------------- detach with users ----------------
# accel_probe_long: a held job waits for the detach, not its timeout
check "accel_probe unloads" $BPFDRV unload accel_probe
check "accel_probe_long loads" $BPFDRV load --pin "$TOBJ/accel_probe_long.bpf.o"
node=$($T/test_accel find accel_probe)

# a live update with a job running and one queued: the new code runs it
update_it() {
	check "update accel_probe with a job running and one queued" \
		$BPFDRV update accel_probe "$TOBJ/accel_probe_v2.bpf.o"
	check "the accel node is the same ($node)" \
		test "$($T/test_accel find accel_probe)" = "$node"
}
across update update_it

# the driver ejects itself (bpfdrv_error) with a job held and one queued
eject_it() {
	tac eject "$node"
	check "the ejected accel_probe's instance goes" wait_gone accel_probe
	check "its exit says why" \
		grep -q "^accel_probe error .*ejected as asked" /sys/kernel/bpfdrv/exits
}
across hold eject_it
check "its accel node is gone" eval "[ ! -e $node ]"
check "accel_probe_long loads again after the ejection" \
	$BPFDRV load --pin "$TOBJ/accel_probe_long.bpf.o"
node=$($T/test_accel find accel_probe)

unload_it() {
	local reader

	# the client's fdinfo read over and over as its device goes
	(n=0
	 while [ ! -e "$OUT/unloaded" ]; do
		cat /proc/$client/fdinfo/* >/dev/null 2>&1 && n=$((n + 1))
	 done
	 echo $n >"$OUT/fdinfo-reads") &
	reader=$!
	check "accel_probe unloads with a file, a mapping, a dma-buf and jobs held" \
		$BPFDRV unload accel_probe
	check "its instance is gone" node_gone accel_probe
	touch "$OUT/unloaded"
	wait $reader
	check "its client's fdinfo read as it went ($(cat "$OUT/fdinfo-reads") times)" \
		test "$(cat "$OUT/fdinfo-reads")" -gt 0
}
across hold unload_it
check "its accel node is gone" eval "[ ! -e $node ]"
check "bpfdrv_accel.ko unloads once nothing holds it" \
	wait_for 10 rmmod bpfdrv_accel

# ---------------- the dma-fence path's budget ----------------
# (accel_probe_long: a 60 s timeout, which the ejection comes well before)
check "bpfdrv_accel.ko loads again" insmod "$ACCEL_KO"
check "accel_probe_long loads" $BPFDRV load --pin "$TOBJ/accel_probe_long.bpf.o"
node=$($T/test_accel find accel_probe)
tac budget "$node"
check "the looping driver is ejected" wait_gone accel_probe
check "its exit names the budget it overran" \
	grep -q "^accel_probe protocol .*accel_run_job looped past its budget" /sys/kernel/bpfdrv/exits

# ---------------- several jobs on a ring's device at once ----------------
check "accel_probe_multi loads (4 jobs on a ring's device at once)" \
	$BPFDRV load --pin "$TOBJ/accel_probe_multi.bpf.o"
node=$($T/test_accel find accel_probe)
tac multi "$node"
tac direct "$node"
tac submitters "$node" 4 200 2
# direct_submit flipped over and over under 4 submitters: both paths at once
(while [ ! -e "$OUT/flip-stop" ]; do echo N >$DIRECT; echo Y >$DIRECT; done) &
flipper=$!
tac submitters "$node" 4 200 2
touch "$OUT/flip-stop"
wait $flipper
check "direct_submit refuses a value that is not a boolean" \
	eval '! echo maybe >$DIRECT 2>/dev/null && [ "$(cat $DIRECT)" = Y ]'
# and through the scheduler alone: its credits, not direct jobs' slots
echo N >$DIRECT
tac multi "$node"
echo Y >$DIRECT
check "accel_probe_multi unloads" $BPFDRV unload accel_probe

# ---------------- device address spaces (drm_gpuvm) ----------------
if [ -d /sys/module/drm_gpuvm ]; then
	check "accel_probe_vm loads (VMs of 20 bits, its own page tables)" \
		$BPFDRV load --pin "$TOBJ/accel_probe_vm.bpf.o"
	node=$($T/test_accel find accel_probe)
	before=$(stat accel_vm_map)
	tac vm "$node" "$RANDOM"
	check "stats: accel_vm_map ran for binds ($(($(stat accel_vm_map) - before)))" \
		test "$(($(stat accel_vm_map) - before))" -gt 500
	tac vm_hostile "$node"
	tac vm_async "$node" "$RANDOM"
	# with every job through the scheduler too (a VM job is no different),
	# traced: the tracer names the VM ioctls and counts the client's
	echo N >$DIRECT
	# and ftrace, independently: a kprobe event on drm_ioctl for VM_BIND
	kp=
	echo "p:bpfdrv_vm/drm_ioctl drm_ioctl cmd=%si:u32" >>$TFS/kprobe_events 2>/dev/null &&
		events_on bpfdrv_vm "cmd == $($T/test_accel nr_vm_bind)" drm_ioctl && kp=1
	$BPFDRV trace -g drm --json -o "$OUT/trace-vm.json" \
		--perfetto "$OUT/vm-timeline.json" -- \
		$T/test_accel vm "$node" "$RANDOM" >"$OUT/vm" 2>&1
	check "trace -g drm -- test_accel vm exits 0" test $? -eq 0
	cat "$OUT/vm"
	# which of the tracer's counts lost what, if anything
	grep '"type":"lost"' "$OUT/trace-vm.json" | grep -v '"total":0' | sed 's/^/# /'
	echo Y >$DIRECT
	if [ -n "$kp" ]; then
		events_off bpfdrv_vm drm_ioctl
		expect_eq "ftrace: a kprobe on drm_ioctl counts the same 1001 VM_BIND calls" \
			"$(ftrace_count drm_ioctl)" 1001
		echo 1 >$TFS/tracing_on
	else
		nok "ftrace: a kprobe event on drm_ioctl (kprobes in this kernel)"
	fi
	echo "-:bpfdrv_vm/drm_ioctl" >>$TFS/kprobe_events 2>/dev/null
	# 1000 random binds and one from another file; one VM made, one
	# destroy refused
	expect_eq "trace: the BPFDRV_VM_BIND row counts the client's 1001 binds" \
		"$(jsum "$OUT/trace-vm.json" count type=stat hook=drm_ioctl detail=BPFDRV_VM_BIND driver=accel_probe)" 1001
	expect_eq "trace: BPFDRV_VM_CREATE and BPFDRV_VM_DESTROY once each" \
		"$(jsum "$OUT/trace-vm.json" count type=stat hook=drm_ioctl detail=BPFDRV_VM_CREATE driver=accel_probe) $(jsum "$OUT/trace-vm.json" count type=stat hook=drm_ioctl detail=BPFDRV_VM_DESTROY driver=accel_probe)" "1 1"
	# and puts each bind on the timeline: a span on the client's thread
	check "trace --perfetto: 1001 spans drm_ioctl BPFDRV_VM_BIND on the client's thread, each as long as its call" \
		python3 -S -c 'import sys
sys.path.insert(0, "selftests"); import timeline
ev = timeline.load(sys.argv[1])
binds = [e for e in ev if e["ph"] == "X" and e["name"] == "drm_ioctl BPFDRV_VM_BIND"]
threads = {(e["pid"], e["tid"]) for e in binds}
print("# bind spans", len(binds), "threads", len(threads),
      "longest", max([e["dur"] for e in binds] or [0]), "us")
sys.exit(not (len(binds) == 1001 and all(e["dur"] > 0 for e in binds) and
              len(threads) == 1))' "$OUT/vm-timeline.json"
	unload_vm() {
		check "accel_probe_vm unloads with 4 VMs of a file bound and a job held in one" \
			$BPFDRV unload accel_probe
	}
	across vm_hold unload_vm
	check "bpfdrv_accel.ko unloads once the client closed (nothing of its VMs left)" \
		wait_for 10 rmmod bpfdrv_accel
	check "bpfdrv_accel.ko loads again" insmod "$ACCEL_KO"
else
	echo "# skip: device address spaces (this kernel has no drm_gpuvm)"
fi

# ---------------- a flood killed behind a held job, then unload ----------------
# (7.3.4: a use-after-free in the scheduler's kill work once the
# accelerator was freed under it)
check "accel_probe_long loads" $BPFDRV load --pin "$TOBJ/accel_probe_long.bpf.o"
node=$($T/test_accel find accel_probe)
$T/test_accel flood "$node" 8 </dev/null >"$OUT/flood" 2>&1 &
client=$!
wait_for 120 grep -q "^# ready" "$OUT/flood"
# its 8 files' fdinfo read over and over (their rings' jobs under the
# rings' locks) until the client is killed
(n=0
 while kill -0 $client 2>/dev/null; do
	cat /proc/$client/fdinfo/* 2>/dev/null | grep -q "^drm-engine-ring0:" && n=$((n + 1))
 done
 echo $n >"$OUT/fdinfo-reads") &
reader=$!
sleep 2
kill -9 $client
wait $client 2>/dev/null
wait $reader
check "the flood's fdinfo read while its jobs waited and as its client died ($(cat "$OUT/fdinfo-reads") times)" \
	test "$(cat "$OUT/fdinfo-reads")" -gt 0
grep -v "stdin closed" "$OUT/flood"
check "accel_probe unloads with the killed jobs waiting behind the held one" \
	$BPFDRV unload accel_probe
check "every job is freed: bpfdrv_accel.ko unloads" wait_for 60 rmmod bpfdrv_accel

# ---------------- fences that outlive the driver ----------------
check "bpfdrv_accel.ko loads again" insmod "$ACCEL_KO"
check "accel_probe_long loads" $BPFDRV load --pin "$TOBJ/accel_probe_long.bpf.o"
node=$($T/test_accel find accel_probe)
# a held job is a vgem buffer's fence (implicit sync) while the kernel
# reclaims: its caches dropped (every shrinker runs), memory compacted,
# the root cgroup asked to reclaim 64 MiB; then the job ends
pressure() {
	check "the kernel's shrinkers run while the job is held" \
		timeout 60 sh -c 'echo 3 >/proc/sys/vm/drop_caches'
	echo 1 >/proc/sys/vm/compact_memory 2>/dev/null
	echo 64M >/sys/fs/cgroup/memory.reclaim 2>/dev/null
	echo "# reclaim: $(awk '$1 ~ /^(pgscan|pgsteal)_(kswapd|direct)$/ { printf "%s %s ", $1, $2 }' /proc/vmstat)"
}
if [ -n "$vgem" ]; then
	across resv pressure "$vgem"
else
	echo "# skip: a job as a vgem buffer's fence (no vgem card)"
fi
unload_held() {
	check "accel_probe unloads with its fences held in sync files" \
		$BPFDRV unload accel_probe
	check "bpfdrv_accel.ko stays while they live" eval '! rmmod bpfdrv_accel 2>/dev/null'
}
across fences unload_held
check "then it unloads" wait_for 10 rmmod bpfdrv_accel
# a warning's whole report (the log check quotes its first line)
dmesg | grep -A40 "WARNING" | sed 's/^/# dmesg: /'
