# SPDX-License-Identifier: GPL-2.0
# make bench's tracing section, in the guest (sourced by guest-bench.sh once
# the echo devices are up): the per-call cost of the loops that
# bpfdrv trace's hooks sit on, DRM_IOCTL_VERSION on the virtio GPU (or
# vgem), a 1-byte read of the bpfdrv echo device and, where ACCEL_NODE
# names edu_accel's node, a factorial job on it (its device's interrupt:
# the dev_irq event of -g iommu; the job maps no buffer), each untraced, under
# `bpfdrv trace` with every group, under the one group that covers it
# (-g drm, -g bpfdrv), counting only (-C), and under bpftrace counting
# the same calls with kprobes (in total, and per process and ioctl or
# minor: what -C keeps) and timing them (kprobe+kretprobe, a latency
# histogram: the same work as bpfdrv trace's default), and under bpftrace
# with BPF trampolines, counting at entry (fentry) and, the floor of any
# tracer that times each call, a program that does nothing at entry and a
# count at return (fentry + fexit: timing adds two clock reads and a
# store to that), and timing them (the latency one-liner on fentry and
# fexit: the default's work, done bpftrace's cheapest way); and every
# group with functions traced each way first (--fentry, --kprobe-multi,
# --kprobes, --syscalls), so that the default's way stands beside every
# way this kernel has. Rounds are interleaved: every round runs every
# tracer, in an order rotated each round, each right after an untraced
# run; a figure is the median over rounds (untraced: over all its runs),
# a ratio the median of each run against the untraced one before it
# (report.py).
#
#   trace_bench ROUNDS SECONDS

# sessions: TRACER:GROUP:WORKLOADS (the workloads run under one attach)
# (fentry, kprobe-multi, kprobes and syscalls: all groups, functions
# traced that way first instead of the way chosen for the kernel, to show
# what each way costs beside the default's; syscalls is what kernels that
# refuse function probes get; trace_ways says which way each session's
# hooks got)
SESSIONS="none::drm_version,echo_read1,accel_job all::drm_version,echo_read1,accel_job
all-iommu::drm_version,echo_read1,accel_job
group:drm:drm_version group:bpfdrv:echo_read1 group:iommu:accel_job
fentry::drm_version,echo_read1 kprobe-multi::drm_version,echo_read1
kprobes::drm_version,echo_read1
syscalls::drm_version,echo_read1 count::drm_version,echo_read1
bpftrace::drm_version,echo_read1 bpftrace-keyed::drm_version,echo_read1
bpftrace-lat::drm_version,echo_read1 bpftrace-fentry::drm_version,echo_read1
bpftrace-pair::drm_version,echo_read1 bpftrace-fentry-lat::drm_version,echo_read1"
BPFTRACE_PROG='kprobe:drm_ioctl { @drm_ioctl = count(); }
kprobe:bpfdrv_read { @bpfdrv_read = count(); }'
BPFTRACE_KEYED_PROG='kprobe:drm_ioctl { @drm_ioctl[pid, arg1 & 0xff] = count(); }
kprobe:bpfdrv_read {
	@bpfdrv_read[pid, ((struct file *)arg0)->f_inode->i_rdev & 0xfffff] = count();
}'
BPFTRACE_LAT_PROG='kprobe:drm_ioctl, kprobe:bpfdrv_read { @start[tid] = nsecs; }
kretprobe:drm_ioctl /@start[tid]/ {
	@drm_ioctl = count(); @drm_ioctl_ns = hist(nsecs - @start[tid]);
	delete(@start[tid]);
}
kretprobe:bpfdrv_read /@start[tid]/ {
	@bpfdrv_read = count(); @bpfdrv_read_ns = hist(nsecs - @start[tid]);
	delete(@start[tid]);
}'
# the same programs on BPF trampolines: the same work, the other way
on_trampolines() { sed 's/kretprobe:/fexit:/g; s/kprobe:/fentry:/g' <<<"$1"; }
BPFTRACE_FENTRY_PROG=$(on_trampolines "$BPFTRACE_PROG")
BPFTRACE_FENTRY_LAT_PROG=$(on_trampolines "$BPFTRACE_LAT_PROG")
BPFTRACE_PAIR_PROG='fentry:drm_ioctl, fentry:bpfdrv_read { }
fexit:drm_ioctl { @drm_ioctl = count(); }
fexit:bpfdrv_read { @bpfdrv_read = count(); }'
tracer_pid=

# tracer_start TRACER GROUP: start TRACER in the background (on vCPU 0,
# the loop runs on vCPU 1) and wait until its probes are attached
tracer_start() {
	local pat prog

	tracer_pid=
	rm -f "$OUT/tracer.json" "$OUT/tracer.out"
	case $1 in
	none)
		return 0;;
	all)
		taskset -c 0 $BPFDRV trace -q --json -o "$OUT/tracer.json" \
			>"$OUT/tracer.out" 2>&1 &
		pat="tracing [0-9]* hooks";;
	all-iommu)	# the default groups and iommu: what the DMA hooks add
		taskset -c 0 $BPFDRV trace -q -g all --json -o "$OUT/tracer.json" \
			>"$OUT/tracer.out" 2>&1 &
		pat="tracing [0-9]* hooks";;
	group)
		taskset -c 0 $BPFDRV trace -q -g "$2" --json -o "$OUT/tracer.json" \
			>"$OUT/tracer.out" 2>&1 &
		pat="tracing [0-9]* hooks";;
	fentry|kprobe-multi|kprobes|syscalls)
		taskset -c 0 $BPFDRV trace -q --$1 --json -o "$OUT/tracer.json" \
			>"$OUT/tracer.out" 2>&1 &
		pat="tracing [0-9]* hooks";;
	count)
		taskset -c 0 $BPFDRV trace -q -C --json -o "$OUT/tracer.json" \
			>"$OUT/tracer.out" 2>&1 &
		pat="tracing [0-9]* hooks";;
	bpftrace*)
		# "Attaching N probes" comes before the probes are attached
		# (seconds under TCG): bpftrace starts its -c command after
		rm -f "$OUT/bpftrace.ready"
		case $1 in
		bpftrace) prog=$BPFTRACE_PROG;;
		bpftrace-keyed) prog=$BPFTRACE_KEYED_PROG;;
		bpftrace-fentry) prog=$BPFTRACE_FENTRY_PROG;;
		bpftrace-pair) prog=$BPFTRACE_PAIR_PROG;;
		bpftrace-fentry-lat) prog=$BPFTRACE_FENTRY_LAT_PROG;;
		*) prog=$BPFTRACE_LAT_PROG;;
		esac
		# (-c splits its command at spaces, quotes or not)
		printf 'touch %s/bpftrace.ready\nexec sleep 86400\n' "$OUT" \
			>"$OUT/bpftrace-ready.sh"
		taskset -c 0 bpftrace -e "$prog" -c "/bin/sh $OUT/bpftrace-ready.sh" \
			>"$OUT/tracer.out" 2>&1 &
		pat=;;
	esac
	tracer_pid=$!
	if [ -z "$pat" ]; then
		# (a bpftrace that refused its program stops the wait: its
		# row is skipped, with bpftrace's reason)
		wait_for 120 sh -c "test -e '$OUT/bpftrace.ready' || ! kill -0 $tracer_pid"
		test -e "$OUT/bpftrace.ready" && return 0
		if ! kill -0 $tracer_pid 2>/dev/null; then
			echo "# skip: tracer $1: bpftrace refused its program"
			sed 's/^/# /' "$OUT/tracer.out" | head -20
			tracer_stop
			return 2
		fi
		echo "# error: tracer $1 ${2:-} did not attach"
		sed 's/^/# /' "$OUT/tracer.out" | head -20
		tracer_stop
		return 1
	fi
	if ! wait_for 120 grep -q "$pat" "$OUT/tracer.out"; then
		echo "# error: tracer $1 ${2:-} did not attach"
		sed 's/^/# /' "$OUT/tracer.out" | head -20
		tracer_stop
		return 1
	fi
}

# tracer_counted TRACER WORKLOADS: the tracer saw the loops' calls; a
# figure under a tracer that attached but never fired would mean nothing
tracer_counted() {
	local wl hook n

	[ $1 = none ] && return 0
	for wl in ${2//,/ }; do
		case $wl:$1 in
		drm_version:*|accel_job:all) hook=drm_ioctl;;
		accel_job:*) hook=dev_irq;;
		*) hook=read;;
		esac
		if [ ${1%%-*} = bpftrace ]; then
			[ $hook = read ] && hook=bpfdrv_read
			n=$(awk -v h="@$hook" 'index($0, h ":") == 1 ||
				index($0, h "[") == 1 { n += $NF } END { print n + 0 }' \
				"$OUT/tracer.out")
		else
			n=$(python3 -c 'import json, sys
objs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
print(sum(o.get("count", 0) for o in objs
	  if o.get("type") == "stat" and o.get("hook") == sys.argv[2]))' \
				"$OUT/tracer.json" $hook 2>/dev/null)
		fi
		if ! [ "${n:-0}" -gt 0 ] 2>/dev/null; then
			echo "# error: tracer $1 counted no $wl call (${n:-nothing})"
			grep -v '^\[' "$OUT/tracer.out" | head -20 | sed 's/^/# /'
		fi
	done
}

# trace_ways: the way each bpfdrv trace session attaches the hooks the
# loops cross (drm_ioctl, bpfdrv's read, dev_irq), the order its functions
# are tried in and why, and its start-up time, from its --list (which
# probes, loads and attaches as the session does): one JSON line each
trace_ways() {
	local t opts

	for t in all group:drm group:bpfdrv group:iommu fentry kprobe-multi kprobes \
		 syscalls count; do
		case $t in
		all) opts=;;
		group:*) opts="-g ${t#group:}";;
		count) opts=-C;;
		*) opts=--$t;;
		esac
		taskset -c 0 $BPFDRV trace $opts --list --json 2>/dev/null |
			python3 -c 'import json, sys
tracer, group = (sys.argv[1].split(":") + [""])[:2]
for l in sys.stdin:
    if not l.startswith("{"):
        continue
    o = json.loads(l)
    way = {"bench": "trace_way", "tracer": tracer, "group": group}
    if o["type"] == "hook" and (o["group"], o["hook"]) in (
            ("drm", "drm_ioctl"), ("bpfdrv", "read"), ("iommu", "dev_irq")):
        way.update(hook=o["hook"], kind=o["kind"], target=o["target"],
                   status=o["status"])
    elif o["type"] == "functions":
        way.update(functions=o["ways"], why=o["why"])
    elif o["type"] == "startup":
        way.update(startup_s=o["total_s"], attach_functions_s=o["attach_functions_s"],
                   load_s=o["load_s"])
    else:
        continue
    print(json.dumps(way))' "$t"
	done
}

tracer_stop() {
	[ -n "$tracer_pid" ] || return 0
	kill -INT "$tracer_pid" 2>/dev/null
	wait "$tracer_pid" 2>/dev/null
	pkill -f "^sleep 86400$" 2>/dev/null	# bpftrace's -c command
	tracer_pid=
}

# trace_loops TRACER REP WORKLOADS CARD SECONDS: the loops, one JSON line each
trace_loops() {
	local wl dev

	for wl in ${3//,/ }; do
		case $wl in
		drm_version) dev=$4;;
		accel_job) dev=$ACCEL_NODE;;
		*) dev=/dev/bpfdrv/$ECHO_BPFDRV;;
		esac
		taskset -c 1 $B/selftests/bench/ioctlbench -d "$5" -t $1 -r $2 $wl "$dev" ||
			echo "# error: ioctlbench $wl failed"
	done
}

trace_bench() {
	local rounds=$1 secs=$2 card r i s t group wls t0 sessions

	modprobe virtio_gpu 2>/dev/null
	modprobe vgem 2>/dev/null
	card=$(wait_for 10 $B/selftests/test_trace_drm find virtio_gpu >/dev/null &&
	       $B/selftests/test_trace_drm find virtio_gpu)
	[ -n "$card" ] || card=$($B/selftests/test_trace_drm find vgem)
	if [ -z "$card" ]; then
		echo "# error: tracing bench: no DRM card"
		return 1
	fi
	sessions=($SESSIONS)
	if ! command -v bpftrace >/dev/null; then
		echo "# skip: tracing under bpftrace (not installed)"
		sessions=(${sessions[@]//bpftrace*/})
	elif ! bpftrace --info 2>&1 | grep -q 'fentry: yes'; then
		echo "# skip: bpftrace with fentry (this kernel has no BPF trampolines)"
		sessions=(${sessions[@]//bpftrace-fentry*/})	# and -fentry-lat
		sessions=(${sessions[@]//bpftrace-pair*/})
	fi
	echo "# tracing bench: drm_version on $card, echo_read1 on /dev/bpfdrv/$ECHO_BPFDRV"
	trace_ways
	for ((r = 0; r < rounds; r++)); do
		for ((i = 0; i < ${#sessions[@]}; i++)); do
			s=${sessions[(i + r) % ${#sessions[@]}]}
			IFS=: read -r t group wls <<<"$s"
			[ -n "${ACCEL_NODE:-}" ] || wls=${wls//accel_job/}
			wls=${wls%,}
			[ -n "$wls" ] || continue
			# untraced right before each tracer as well: the guest's
			# speed drifts under TCG, and report.py pairs the two
			[ $t = none ] || trace_loops none $r "$wls" "$card" "$secs"
			t0=$EPOCHREALTIME
			# (a bpftrace program this kernel refuses costs its row only)
			tracer_start $t $group
			case $? in 1) return 1;; 2) continue;; esac
			[ $r = 0 ] && [ $t != none ] &&
				echo "# tracer $t${group:+ -g $group} attached in $(awk "BEGIN { printf \"%.1f\", $EPOCHREALTIME - $t0 }") s"
			trace_loops $t $r "$wls" "$card" "$secs"
			tracer_stop
			tracer_counted $t $wls
		done
	done
	trace_prog_time "$card" "$secs"
}

# trace_prog_time CARD SECONDS: where the added time goes. The programs'
# own run time per run (kernel.bpf_stats_enabled, which adds two clock
# reads per run: a session apart from the rounds), while every group is
# traced and the loops run; bpftool reads it before the tracer detaches.
trace_prog_time() {
	sysctl -qw kernel.bpf_stats_enabled=1 || return 0
	if tracer_start all-iommu; then
		taskset -c 1 $B/selftests/bench/ioctlbench -d "$2" -t stats -r 0 \
			drm_version "$1" >/dev/null
		taskset -c 1 $B/selftests/bench/ioctlbench -d "$2" -t stats -r 0 \
			echo_read1 /dev/bpfdrv/$ECHO_BPFDRV >/dev/null
		[ -n "${ACCEL_NODE:-}" ] &&
			taskset -c 1 $B/selftests/bench/ioctlbench -d "$2" -t stats \
				-r 0 accel_job "$ACCEL_NODE" >/dev/null
		bpftool -j prog show | python3 -c 'import json, sys
for p in json.load(sys.stdin):
    if (p.get("name") in ("func_mentry", "func_mexit", "func_fentry",
                          "func_fexit", "func_entry", "func_exit",
                          "tp_bpfdrv_fop", "tp_sys_enter", "tp_sys_exit",
                          "tp_dma", "tp_dma_size2", "tp_dma_size3",
                          "tp_iommu_fault", "tp_devirq_entry",
                          "tp_devirq_exit") and p.get("run_cnt")):
        print(json.dumps({"bench": "trace_prog", "prog": p["name"],
                          "run_cnt": p["run_cnt"],
                          "run_time_ns": p["run_time_ns"]}))'
		tracer_stop
	fi
	sysctl -qw kernel.bpf_stats_enabled=0
}
