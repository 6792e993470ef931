#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test / make demo / make bench: set up the Debian root and kernels
# (cached), build the BPF objects and bpfdrv once and the module for each
# kernel, then boot each kernel under QEMU and run the selftests (or the demo,
# or the benchmark on the newest kernel) in it.
#
#   BPFDRV_ACCEL=tcg|kvm   force the accelerator (default: TCG under CI,
#                          otherwise KVM if a probe boot works)
#   BPFDRV_KERNELS="..."   kernel releases to use instead of the matrix
#   BPFDRV_VM_TIMEOUT=s    limit for one VM run (default 1800)
#   BPFDRV_PART_TIMEOUT=s  limit for one part in a guest (default 600)
#   BPFDRV_BOOT_LIMIT=s    a guest silent this long is booted again (watch.sh)
#   BPFDRV_QUIET_LIMIT=s   a guest up but silent this long is stopped
#                          (default: the part limit and 300 s)
#   BPFDRV_JOBS=n          make test: runs (VM boots, host checks) at once
#                          (default: a quarter of the host's cores, at least 1)
#   BPFDRV_DEB12_PARTS="." make test: the parts run on Debian 12's kernel
#   BPFDRV_LTS_PARTS="..." BPFDRV_MID_PARTS="..." BPFDRV_RT_PARTS="...": on
#                          trixie's 6.12, on 7.2, on PREEMPT_RT
#   BPFDRV_NEWEST_SKIP="." the parts the newest generic kernel leaves to
#                          PREEMPT_RT of the same release
#   BPFDRV_PARTS="..."     run only these parts of selftests/guest/ (core pci ...)
#   BPFDRV_DEBUG=0|1       make test: never or always end with the debug kernel
#                          (default: when the matrix took at most
#                          BPFDRV_DEBUG_GATE seconds, default 1800)
#   BPFDRV_DEBUG_PARTS="." its parts there (default: core pci mmap eject
#                          fuzz, the fuzzers for 2 minutes; make
#                          test-debug adds the others)
#   BPFDRV_DEBUG_END=s     make test: the debug kernel's parts start only
#                          while they can end this many seconds after the
#                          run began (default 3840: 64 minutes)
#   BPFDRV_DEBUG_GRACE=s   its guest is stopped this long after that
#                          (default 420)
#   BPFDRV_FUZZ_SECONDS=s, BPFDRV_FUZZ_SEED=n, BPFDRV_FUZZ_THREADS=n: the
#                          fuzz part's length (30), seed, threads (4)
#   BPFDRV_FUZZ_DRIVERS=n  its random drivers (16; selftests/gen_driver.py)
#   BPFDRV_FUZZ_ARGS=n     its random command lines for the tool (150)
#   BPFDRV_FUZZ_CORPUS=1   keep the fuzzer's corpus in build/fuzz-corpus
#                          (make fuzz; used with KCOV, the debug kernel's)
#   BPFDRV_BENCH_REPS=n    make bench: repetitions (default 9)
#   BPFDRV_BENCH_SECONDS=s make bench: timed seconds per cell (default 0.15)
#   BPFDRV_BENCH_TRACE_ROUNDS=n  make bench: rounds of the tracing section
#                          (default 5; bpftrace takes 2 to 80 s to attach under TCG)
#   BPFDRV_DRIVERS=dir     make vm, make vm-start: a directory of your own
#                          drivers, at /drivers in the guest
#   BPFDRV_PLAN=1          test and bench: print what each run would do
#                          (with BPFDRV_KERNELS) instead of setting up,
#                          building and booting (test-settings.sh)
#
# make vm boots one kernel (the newest, or the first of BPFDRV_KERNELS) for
# development and opens a shell in it; make vm-start boots it without one,
# in the background; make vm-run and make vm-stop (session.sh) talk to it.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

mode=${1:-test}
run_began=$(date +%s)
case $mode in test|demo|bench|deb|vm|vm-start|check) ;;
*) die "usage: run.sh test|demo|bench|deb|vm|vm-start|check";; esac
[ "$(id -u)" = 0 ] || die "make $mode needs root (debootstrap, chroot, mount); try: sudo make $mode"
plan=${BPFDRV_PLAN:-}

for tool in unshare chroot timeout; do
	command -v $tool >/dev/null || die "$tool is missing on the host"
done

[ -n "$plan" ] || "$BPFDRV_TOP/selftests/vm/mkroot.sh" || exit 1

# The packages build in the root: its debhelper, clang and libbpf.
# Their version: VERSION, then the commit count and commit, so that each
# commit's packages upgrade the one before (outside git: VERSION).
build_debs() {
	local ver source n

	ver=$(cat "$BPFDRV_TOP/VERSION") source="a tree outside git"
	if n=$(git -C "$BPFDRV_TOP" rev-list --count HEAD 2>/dev/null); then
		ver+=+git$n.$(git -C "$BPFDRV_TOP" rev-parse --short=8 HEAD)
		source="commit $(git -C "$BPFDRV_TOP" rev-parse --short=12 HEAD)"
	fi
	log "building the Debian packages $ver (build/deb)"
	in_root packaging/build-deb.sh "/src/${BPFDRV_BUILD#"$BPFDRV_TOP"/}/deb" \
		"$ver" "$source" || die "make deb failed"
}
if [ "$mode" = deb ]; then
	build_debs
	exit
fi
# the demo, the benchmark and a development session boot the newest
# kernel: only that one is installed (a fresh machine's first demo is quick)
case $mode in demo|bench|vm|vm-start)
	[ -n "${BPFDRV_KERNELS:-}" ] || export BPFDRV_KERNELS=newest;;
esac
if [ -n "$plan" ]; then
	read -ra kernels <<<"${BPFDRV_KERNELS:?BPFDRV_PLAN needs BPFDRV_KERNELS}"
else
	mapfile -t kernels < <("$BPFDRV_TOP/selftests/vm/kernels.sh") || exit 1
fi
[ ${#kernels[@]} -gt 0 ] || die "no kernels"
# The debug kernel (KASAN, lockdep: selftests/vm/debug-kernel.sh), built once
# from Debian's source and cached: make test-debug runs it alone, on what
# exercises lifetimes (attach, detach, ejection, update, unbind, bus devices
# going, mappings, class devices); make test after the matrix, on a part of
# that (debug_round below).
if [ "$mode" = test ] && [ "${BPFDRV_DEBUG_KERNEL:-}" = only ]; then
	if [ -n "$plan" ]; then
		kernels=(debug)
	else
		kernels=("$("$BPFDRV_TOP/selftests/vm/debug-kernel.sh")") || exit 1
	fi
	export BPFDRV_PARTS=${BPFDRV_PARTS:-core hostile pci mmap irq gpio classes i2c spi eject update isolation accel fuzz}
	# KASAN and lockdep under TCG: several times slower
	export BPFDRV_VM_TIMEOUT=${BPFDRV_VM_TIMEOUT:-5400}
	export BPFDRV_PART_TIMEOUT=${BPFDRV_PART_TIMEOUT:-1800}
fi
# Benchmark ratios come from one boot; the newest kernel is the one to quote.
[ "$mode" = bench ] && kernels=("${kernels[-1]}")
# A development session: the kernel asked for first, else the newest.
case $mode in vm*) [ -n "${BPFDRV_KERNELS:-}" ] || kernels=("${kernels[-1]}");; esac
[ "$mode" = check ] && [ -z "${BPFDRV_DRIVERS:-}" ] &&
	die "make vm-check needs DRIVERS=dir, a directory of built drivers (*.bpf.o)"
if [ -n "${BPFDRV_DRIVERS:-}" ]; then
	[ -d "$BPFDRV_DRIVERS" ] || die "DRIVERS=$BPFDRV_DRIVERS is not a directory"
	BPFDRV_DRIVERS=$(cd "$BPFDRV_DRIVERS" && pwd)
	export BPFDRV_DRIVERS
fi

mkdir -p "$BPFDRV_BUILD/vm"
targets="bpf user selftests"
# the tool built with ASan and UBSan, for the fuzz part only,
# and the random drivers of its seed
make_vars=
if [[ " ${BPFDRV_PARTS:-} " == *" fuzz "* ]]; then
	targets+=" ${BPFDRV_BUILD#"$BPFDRV_TOP"/}/asan/user/bpfdrv gen-drivers"
	make_vars="${BPFDRV_FUZZ_SEED:+GEN_SEED=$BPFDRV_FUZZ_SEED }${BPFDRV_FUZZ_DRIVERS:+GEN_COUNT=$BPFDRV_FUZZ_DRIVERS}"
fi
# the demo runs the drivers and the edu test program only; vm-check, the
# tool (bpfdrv-ci's harness has no tests)
[ "$mode" = demo ] && targets="bpf user ${BPFDRV_BUILD#"$BPFDRV_TOP"/}/selftests/test_edu"
[ "$mode" = check ] && targets="bpf user"
host_tool=/src/${BPFDRV_BUILD#"$BPFDRV_TOP"/}/host
if [ -z "$plan" ]; then
	log "building ${targets// /, } (once, for every kernel)"
	in_root make -s $targets $make_vars >"$BPFDRV_BUILD/vm/build.log" 2>&1 ||
		{ cat "$BPFDRV_BUILD/vm/build.log" >&2; die "build failed"; }
else
	echo "plan: build $targets${make_vars:+ $make_vars}"
fi
# the tool as the packages build it (libbpf linked in), for the host's own
# kernel: the host-trace part runs it there
if [ "$mode" = test ] && [ -z "$plan" ]; then
	in_root make -s user STATIC_LIBBPF=1 BUILD="$host_tool" >>"$BPFDRV_BUILD/vm/build.log" 2>&1 ||
		{ cat "$BPFDRV_BUILD/vm/build.log" >&2; die "build for the host failed"; }
fi
# the package part installs them in the guest
with_package=0
if [ "$mode" = test ] && { [ -z "${BPFDRV_PARTS:-}" ] ||
	[[ " $BPFDRV_PARTS " == *" package "* ]]; }; then
	with_package=1
	[ -n "$plan" ] || build_debs
fi
[ -n "$plan" ] || for rel in "${kernels[@]}"; do
	log "building bpfdrv.ko for $rel"
	# kbuild in parallel: a minute each on two cores, serial
	BPFDRV_ROOT=$(kernel_root "$rel") in_root make -s -j"$(nproc)" kmod KREL="$rel" \
		KDIR="/usr/src/linux-headers-$rel" >"$BPFDRV_BUILD/vm/build-$rel.log" 2>&1 ||
		{ cat "$BPFDRV_BUILD/vm/build-$rel.log" >&2; die "module build for $rel failed"; }
done

# KVM where it works, TCG otherwise: a probe boots the kernel to its init.
accel_flags() {
	local accel=${BPFDRV_ACCEL:-} img

	if [ -z "$accel" ]; then
		if [ -n "${CI:-}" ] || [ ! -w /dev/kvm ]; then
			accel=tcg
		elif [ -f "$BPFDRV_CACHE/accel" ]; then
			accel=$(cat "$BPFDRV_CACHE/accel")
		else
			img=$(kernel_image "${kernels[0]}")
			if in_root timeout 60 qemu-system-x86_64 -accel kvm -m 512 -nographic \
				-no-reboot -kernel "$img" \
				-append "console=ttyS0 panic=-1 init=/bpfdrv-kvm-probe" \
				</dev/null 2>&1 | grep -q "bpfdrv-kvm-probe"; then
				accel=kvm
			else
				accel=tcg
			fi
			echo $accel >"$BPFDRV_CACHE/accel"
		fi
	fi
	log "accelerator: $accel"
	[ "$accel" = kvm ] || echo --disable-kvm
}
accel=$(accel_flags)

# The guest's devices: two edu devices (two driver instances), the second
# alone behind a PCIe root port, so that a bus reset is its reset method
# (edu has no FLR), a PCI function that is not edu (wrong-device tests)
# and a virtio GPU (DRM).
# i2c-ddc: an EDID EEPROM on the q35 SMBus; 0x50-0x57 are q35's SPD EEPROMs.
# i2c-echo: a chip that returns the bytes last written to it. Behind a
# PCI bridge, one IOMMU group: pvpanic-pci (for bpfdrv) and a second
# virtio-rng-pci (virtio-pci's), for the group checks of 23-iommu.sh.
QEMU_DEVICES="-device edu -device pcie-root-port,id=bpfdrv_rp,chassis=2,slot=1 \
-device edu,bus=bpfdrv_rp -device pci-testdev -device virtio-gpu-pci -device virtio-rng-pci \
-device i2c-ddc,address=0x58 -device i2c-echo,address=0x5a \
-device pci-bridge,id=bpfdrv_br,chassis_nr=1 -device pvpanic-pci,bus=bpfdrv_br,addr=1 \
-device virtio-rng-pci,bus=bpfdrv_br,addr=2 \
-netdev user,id=bpfdrv_igb,restrict=on -device pcie-root-port,id=bpfdrv_rp_igb,chassis=3,x-speed=5 \
-device igb,bus=bpfdrv_rp_igb,netdev=bpfdrv_igb"
# igb (an 82576): 10 MSI-X vectors that a write of EICS raises one by one,
# for 24-irq's interrupt vectors (ABI 13). Behind its own root port, last,
# so that the other devices keep their slots, and at device 0 there: its
# SR-IOV VFs sit 0x80 functions past it, past the root bus's last slot
# ("VF addr overflows") when it is there. The guest's igb driver binds it
# at boot unless blacklisted (the test guests do: boot_suite); bpfdrv load
# --device takes it over. Its netdev is isolated
# (restrict=on): no traffic.

# vm REL CMD [VNG-OPTION...]: boot REL with the source tree as /src
# (read-only) and run CMD in it. QEMU opens the guest's stdout and stderr
# as /proc/self/fd/1 and 2: on a log file, each anew at offset 0, so the
# guest's stderr overwrote the start of the log. A pipe keeps one stream.
vm() {
	local img rel=$1 cmd=$2

	shift 2
	if [ -n "$plan" ]; then
		echo "plan: vm $rel: timeout ${BPFDRV_VM_TIMEOUT:-1800}${BPFDRV_ROOT_UPPER:+, an overlay of the root}${BPFDRV_QEMU_BIN:+, QEMU $BPFDRV_QEMU_BIN} $accel $* -e $cmd"
		return
	fi
	img=$(kernel_image "$rel")
	in_root timeout "${BPFDRV_VM_TIMEOUT:-1800}" vng --run "$img" $accel \
		${BPFDRV_QEMU_BIN:+--qemu "$BPFDRV_QEMU_BIN"} \
		--disable-microvm --user root --cpus 2 --memory 2G \
		--qemu-opts="$vm_iommu${BPFDRV_QEMU_DEVICES:-$QEMU_DEVICES}" "$@" -e "$cmd" \
		</dev/null 2>&1 | cat
}
# Every guest has an IOMMU (QEMU's VT-d, which Debian's kernels turn on):
# bpfdrv lets a PCI function master the bus only when an IOMMU translates
# its DMA (docs/pci.md), and vfio-pci (the benchmark) needs one too.
vm_iommu="-device intel-iommu "

. "$BPFDRV_TOP/selftests/vm/watch.sh"
if [ -n "$plan" ]; then
	launch() {	# the plan: what each run would do
		local kind=$1 label=$2

		shift 3
		if [ "$kind" = boot ]; then
			echo "plan: boot $label: part limit ${BPFDRV_PART_TIMEOUT:-600}, boot limit $(boot_limit "${label%% *}") s${BPFDRV_RUN_END:+, stopped at $BPFDRV_RUN_END}"
			"$@"
		else
			echo "plan: host $label: ${*#"$BPFDRV_TOP"/}"
		fi
	}
	report() { :; }
fi

case $mode in vm|vm-start)
	rel=${kernels[0]} dir=$BPFDRV_BUILD/vm/session
	rm -rf "$dir"
	mkdir -p "$dir"
	echo $$ >"$dir/pid"
	# the session's files and the user's drivers are writable in the guest
	rw=("--rwdir=/src/${dir#"$BPFDRV_TOP"/}=/src/${dir#"$BPFDRV_TOP"/}")
	[ -n "${BPFDRV_DRIVERS:-}" ] && rw+=(--rwdir=/drivers=/drivers)
	log "booting $rel for development (about 20 s under TCG)"
	if [ "$mode" = vm ]; then
		img=$(kernel_image "$rel")
		in_root vng --run "$img" $accel --disable-microvm --user root \
			--cpus 2 --memory 2G --qemu-opts="$vm_iommu$QEMU_DEVICES" "${rw[@]}" \
			-e "selftests/vm/guest-session.sh --shell"
	else
		log "make vm-run CMD='...' runs a command in it; make vm-stop ends it"
		BPFDRV_VM_TIMEOUT=0 vm "$rel" "selftests/vm/guest-session.sh" "${rw[@]}" \
			>"$BPFDRV_BUILD/vm/session.log" 2>&1
	fi
	rm -rf "$dir"
	exit
esac

if [ "$mode" = demo ]; then
	rel=${kernels[-1]} out=$BPFDRV_BUILD/vm/demo.log
	limit=$(boot_limit "$rel")
	log "booting $rel for the demo (about 30 s under TCG; silent for $limit s, it boots again)"
	mkdir -p "${out%/*}"
	for try in 1 2; do
		: >"$out"
		vm "$rel" "selftests/demo.sh" >"$out" 2>&1 &
		pid=$!
		tail -n +1 -f --pid=$pid "$out" &
		tailer=$!
		rc=0
		watch_guest "$rel demo" "$out" $pid "$limit" || rc=$?
		wait $pid
		vrc=$?
		wait $tailer
		[ $rc = 4 ] && exit 1
		[ $rc = 3 ] || exit $vrc
		log "demo: no line from the guest in $limit s: stopped"
		[ $try = 1 ] && log "demo: booting it once more"
	done
	die "the demo's guest never came up (its console: ${out#"$BPFDRV_TOP"/})"
fi

if [ "$mode" = bench ]; then
	rel=${kernels[-1]} out=$BPFDRV_BUILD/bench
	[ -n "$plan" ] && out=$(mktemp -d)
	mkdir -p "$out"
	if [ -n "$accel" ]; then echo accel=tcg; else echo accel=kvm; fi >"$out/meta"
	log "booting $rel for the benchmark (a few minutes under TCG; log: $out/guest.log)"
	# tsc=reliable: keep the TSC clocksource; under TCG on a busy host the
	# watchdog switches to hpet mid-run, and every timestamp (the loops',
	# the tracers') then costs 20 times more
	vm "$rel" "selftests/bench/guest-bench.sh ${BPFDRV_BENCH_REPS:-9} ${BPFDRV_BENCH_SECONDS:-0.15} ${BPFDRV_BENCH_TRACE_ROUNDS:-5}" \
		--append tsc=reliable >"$out/guest.log" 2>&1
	[ -n "$plan" ] && { cat "$out/guest.log"; rm -rf "$out"; exit 0; }
	grep -q "^# bench done" <(tr -d '\r' <"$out/guest.log") ||
		{ tail -30 "$out/guest.log" >&2; die "the benchmark did not complete"; }
	! grep "^# error" "$out/guest.log" >&2 || die "the benchmark failed (see $out/guest.log)"
	in_root selftests/bench/report.sh "${out#"$BPFDRV_TOP"/}"
	exit
fi

n=0 passed=0 failed=0
# tally LABEL FILE: number FILE's TAP lines, labelled, into the totals;
# sets kpassed and kfailed
tally() {
	local line

	kpassed=0 kfailed=0
	while IFS= read -r line; do
		case $line in
		"ok - "*)
			n=$((n + 1)) kpassed=$((kpassed + 1))
			echo "ok $n - [$1] ${line#ok - }";;
		"not ok - "*)
			n=$((n + 1)) kfailed=$((kfailed + 1))
			echo "not ok $n - [$1] ${line#not ok - }";;
		"# "*)
			echo "$line";;
		esac
	done < <(tr -d '\r' <"$2")
}

# The runs are independent (each VM has its own devices and a read-only
# /src; each writes its own log), so up to BPFDRV_JOBS of them can run at
# once. A TCG guest keeps two host cores busy (its vCPUs and QEMU's main
# loop serving 9p): on two cores, two guests at once each ran 2.1 times
# slower. Results are reported in the order the runs were started.
max_jobs=${BPFDRV_JOBS:-$(($(nproc) >= 8 ? $(nproc) / 4 : 1))}
job_labels=() job_logs=() job_pids=() job_kinds=() job_part_limits=()


# boot_suite REL ARGS: boot REL and run selftests/guest.sh ARGS. The stock
# kernels have no KASAN: SLUB's checks with poisoning and red zones
# (slub_debug=FZP) and KFENCE's sampled guard pages find use-after-free and
# overflows instead, reported as "BUG", which the guest's log check fails
# on. SLUB's on the caches of bpfdrv's instances (2248 bytes: kmalloc-4k)
# and drivers (400: kmalloc-512) only: on every kmalloc cache 7.2's run
# took 7% longer.
boot_suite() {
	local rel=$1 v

	shift
	[ -n "${BPFDRV_PART_TIMEOUT:-}" ] && set -- -e "BPFDRV_PART_TIMEOUT=$BPFDRV_PART_TIMEOUT" "$@"
	for v in BPFDRV_DEADLINE BPFDRV_FUZZ_SECONDS BPFDRV_FUZZ_SEED BPFDRV_FUZZ_THREADS BPFDRV_FUZZ_OBJECTS \
		 BPFDRV_FUZZ_HOTREMOVE BPFDRV_FUZZ_ARGS BPFDRV_FUZZ_DRIVER_SECONDS; do
		[ -n "${!v:-}" ] && set -- -e "$v=${!v}" "$@"
	done
	# the coverage-guided fuzzer's corpus, kept between runs (make fuzz)
	local corpus=()
	if [ "${BPFDRV_FUZZ_CORPUS:-0}" = 1 ]; then
		[ -n "$plan" ] || mkdir -p "$BPFDRV_TOP/build/fuzz-corpus"
		set -- -e BPFDRV_FUZZ_CORPUS=build/fuzz-corpus "$@"
		corpus=(--rwdir=/src/build/fuzz-corpus=/src/build/fuzz-corpus)
	fi
	# the console in the log from warnings up, with their stacks (printed
	# at the default level): a panic or a hang says why and where. igb is
	# there for bpfdrv's tests: the guest's own driver probing it at boot
	# held up udev until the debug kernel's guest gave up (twice)
	vm "$rel" "selftests/guest.sh $*" "${corpus[@]}" --verbose --append loglevel=5 \
		--append module_blacklist=igb \
		--append "slub_debug=FZP,kmalloc-4k,kmalloc-512" \
		--append "kfence.sample_interval=${BPFDRV_KFENCE_MS:-10}" \
		${BPFDRV_GUEST_APPEND:+--append "$BPFDRV_GUEST_APPEND"}
}

# report I: wait for the I-th run and tally it
report() {
	local kind=${job_kinds[$1]} label=${job_labels[$1]} out=${job_logs[$1]} rc secs limit

	wait "${job_pids[$1]}"
	read -r rc secs <"$out.status" 2>/dev/null || rc=? secs=?
	tally "$label" "$out"
	[ -f "$out.frozen" ] &&
		echo "# [$label] the guest froze once, and was booted again (its first run: $out.frozen)"
	# a guest the run's end stopped (BPFDRV_RUN_END): what it ran is
	# counted above, the rest skipped, saying so
	if [ "$kind" = boot ] && [ -f "$out.late" ]; then
		echo "# skip: [$label] the rest of its parts: the guest $(cat "$out.late")"
	elif [ "$kind" = boot ]; then
		n=$((n + 1))
		# its first line and its last: nothing was lost on the way
		if grep -q "^# kernel " <(tr -d '\r' <"$out") &&
			grep -q "^# guest done" <(tr -d '\r' <"$out"); then
			kpassed=$((kpassed + 1))
			echo "ok $n - [$label] guest booted and ran to completion"
		else
			kfailed=$((kfailed + 1))
			echo "not ok $n - [$label] guest booted and ran to completion (rc $rc; see $out)"
			tail -30 "$out" | sed 's/^/# /'
		fi
		# the guest took the part limit it was given
		limit=$(tr -d '\r' <"$out" | sed -n "s/^# each part's limit: \([0-9]*\) s$/\1/p" | head -n 1)
		n=$((n + 1))
		if [ "${limit:-}" = "${job_part_limits[$1]}" ]; then
			kpassed=$((kpassed + 1))
			echo "ok $n - [$label] the guest's parts had BPFDRV_PART_TIMEOUT's limit (${limit} s)"
		else
			kfailed=$((kfailed + 1))
			echo "not ok $n - [$label] the guest's parts had BPFDRV_PART_TIMEOUT's limit (${limit:-none} s, want ${job_part_limits[$1]})"
		fi
	fi
	echo "# $label: $kpassed passed, $kfailed failed in $secs s"
	passed=$((passed + kpassed)) failed=$((failed + kfailed))
}

echo "TAP version 13"
# make vm-check: each kernel boots once and loads every object of DRIVERS
if [ "$mode" = check ]; then
	for rel in "${kernels[@]}"; do
		log "$rel: loading the objects of $BPFDRV_DRIVERS"
		out=$BPFDRV_BUILD/vm/check-$rel.log
		vm "$rel" "selftests/vm/guest-check.sh" --rodir=/drivers=/drivers >"$out" 2>&1
		tally "$rel" "$out"
		if ! grep -q "^# guest done" <(tr -d '\r' <"$out"); then
			n=$((n + 1)) kfailed=$((kfailed + 1))
			echo "not ok $n - [$rel] the guest ran to completion (see $out)"
		fi
		passed=$((passed + kpassed)) failed=$((failed + kfailed))
	done
	echo "1..$n"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
fi
log "up to $max_jobs runs at once"
# The package part boots on its own, on the newest kernel only (unless
# PARTS names it); package-dkms.sh below builds for the oldest and the
# newest. DKMS's compile takes about 10 minutes under TCG, so DKMS builds
# the module for the guest's kernel here first, natively in the guest's
# own root, and the guest installs with that build's DKMS tarball
# (BPFDRV_PACKAGE_COMPILE=1 compiles in the guest instead). The longest
# runs start first.
# The whole matrix (BPFDRV_PARTS unset): its guests start a part only
# while it would end by BPFDRV_MATRIX_END seconds after the run began
# (default 4200: 70 minutes), the rest skipped, saying so: a machine
# slower than the ones measured stays inside CI's 90 minutes.
matrix_end=
[ -z "${BPFDRV_PARTS:-}" ] && matrix_end=$((run_began + ${BPFDRV_MATRIX_END:-4200}))
main_parts=$(echo " ${BPFDRV_PARTS:-} " |
	sed 's/ package / /g; s/ host-trace / /g; s/ session / /g; s/ swiotlb / /g; s/ sleep / /g; s/ watch / /g; s/ cloud / /g; s/^ *//; s/ *$//')
# the harness's own watch on its guests, with pretend guests (20 s), and
# its settings, each through the plan it makes (2 s)
if [ -z "${BPFDRV_PARTS:-}" ] || [[ " $BPFDRV_PARTS " == *" watch "* ]]; then
	launch host watch "$BPFDRV_BUILD/vm/test-watch.log" \
		"$BPFDRV_TOP/selftests/vm/test-watch.sh"
	[ -n "$plan" ] || launch host settings "$BPFDRV_BUILD/vm/test-settings.log" \
		"$BPFDRV_TOP/selftests/vm/test-settings.sh"
fi
if [ "$with_package" = 1 ]; then
	pkg_kernels=("${kernels[-1]}")
	[ -n "${BPFDRV_PARTS:-}" ] && pkg_kernels=("${kernels[@]}")
	[ -n "$plan" ] || rm -f "$BPFDRV_BUILD"/deb/bpfdrv-*.dkms.tar.gz
	if [ ${#pkg_kernels[@]} = 1 ] && [ -z "${BPFDRV_PACKAGE_COMPILE:-}" ] && [ -z "$plan" ] &&
		[ "$(kernel_root "${pkg_kernels[0]}")" = "$BPFDRV_ROOT" ]; then
		log "DKMS builds bpfdrv.ko for the package guest (${pkg_kernels[0]})"
		"$BPFDRV_TOP/selftests/vm/package-dkms.sh" --tarball "${pkg_kernels[0]}" \
			>"$BPFDRV_BUILD/vm/package-tarball.log" 2>&1
		grep -q "^ok" "$BPFDRV_BUILD/vm/package-tarball.log" ||
			log "it failed (build/vm/package-tarball.log); the guest compiles"
	fi
	for rel in "${pkg_kernels[@]}"; do
		BPFDRV_VM_TIMEOUT=${BPFDRV_VM_TIMEOUT:-2400} \
			launch boot "$rel package" "$BPFDRV_BUILD/vm/test-$rel-package.log" \
			boot_suite "$rel" package
	done
fi
# The host's jobs before the kernels' guests, so that the matrix's deadline
# bounds what comes last. The packages outside the guests: DKMS for the
# oldest and the newest kernel (and their cloud flavours; every kernel's
# module is built from the same Kbuild for its guest) (in an overlay of
# the root that has its headers), and the packaged tool on the host itself
if [ "$with_package" = 1 ]; then
	launch host dkms "$BPFDRV_BUILD/vm/test-dkms.log" \
		"$BPFDRV_TOP/selftests/vm/package-dkms.sh" $(printf '%s\n' "${kernels[0]}" "${kernels[-1]}" | uniq)
	launch host host "$BPFDRV_BUILD/vm/test-host.log" \
		"$BPFDRV_TOP/selftests/vm/package-host.sh"
fi
# the tracer on the host's own kernel (a restricted one: no kprobes, no
# fentry, no percpu ksyms), in the bookworm root for its C library
if [ -z "${BPFDRV_PARTS:-}" ] || [[ " $BPFDRV_PARTS " == *" host-trace "* ]]; then
	launch host host-trace "$BPFDRV_BUILD/vm/test-host-trace.log" \
		env BPFDRV_ROOT="$BPFDRV_ROOT12" bash -c '. "$1"; shift; in_root "$@"' bash \
		"$BPFDRV_TOP/selftests/vm/lib.sh" selftests/host/trace-host.sh "$host_tool/user/bpfdrv"
fi
# the development loop, as a user drives it from the host; make vm-check
# on a directory of drivers (the oldest and the newest kernel), and
# bpfdrv-ci from the bpfdrv-dev package on a copy of its example
if [ -z "${BPFDRV_PARTS:-}" ] || [[ " $BPFDRV_PARTS " == *" session "* ]]; then
	launch host "session ${kernels[-1]}" "$BPFDRV_BUILD/vm/test-session.log" \
		"$BPFDRV_TOP/selftests/vm/session-test.sh" "${kernels[-1]}"
	launch host vm-check "$BPFDRV_BUILD/vm/test-vm-check.log" \
		"$BPFDRV_TOP/selftests/vm/check-test.sh"
	[ "$with_package" = 1 ] &&
		launch host bpfdrv-ci "$BPFDRV_BUILD/vm/test-bpfdrv-ci.log" \
			"$BPFDRV_TOP/selftests/vm/ci-test.sh"
fi
# Debian 12's 6.12 is 6.12 of trixie built with gcc-12 and pahole 1.24: it
# runs the parts that depend on the compiler and on BTF (the kfuncs, the
# struct_ops type, the verifier's refusals, PCI and GPIO, the ABI
# fixtures), and its module is built and installed by DKMS in the bookworm
# root; trixie's 6.12, the same kernel version, runs the rest.
deb12_parts=${BPFDRV_DEB12_PARTS:-core hostile stall pci reset pm mmap irq gpio classes i2c spi eject abi accel}
# the accelerator's part runs on Debian 12's 6.12 for the 6.12 line (the
# swiotlb part runs its DMA tests on trixie's)
lts_parts=${BPFDRV_LTS_PARTS:-iommu trace drm-clients update}
# The line between 6.12 LTS and the newest (7.2) runs what depends on the
# kernel's version most (the verifier and its allow-list, BTF, PCI);
# PREEMPT_RT, the newest's release, what depends on preemption and timing
# (stalls, interrupts, ejection and its drain, update, isolation, the
# tracer, the accelerator's jobs). The newest generic kernel runs
# everything else. Each part runs on a 6.12 and a 7.x kernel (bench-equiv,
# lockdown and isolation on one; core on three, the tracer on a 6.12, RT
# and the cloud kernel): the whole suite on five kernels did not fit CI's
# 90 minutes, and on 2026-11-30 this matrix took 79 minutes on a two-core
# host, so the newest left interrupts, the accelerator and the tracer to
# RT (Debian 12's 6.12 runs the first two, trixie's the tracer), and 7.2
# the hostile objects to the newest (1081 s -> 753 s; 264 -> 126).
mid_parts=${BPFDRV_MID_PARTS:-core pci}
rt_parts=${BPFDRV_RT_PARTS:-stall irq eject isolation trace update accel}
newest_skip=${BPFDRV_NEWEST_SKIP:-eject isolation update stall irq accel trace}
if [ -z "${BPFDRV_PARTS:-}" ] || [ -n "$main_parts" ]; then
	for rel in "${kernels[@]}"; do
		args=(-x package -x swiotlb -x sleep)
		# the fuzzers run in make fuzz and make test-debug
		[ -z "${BPFDRV_PARTS:-}" ] && args+=(-x fuzz)
		parts=$main_parts
		if [ -z "${BPFDRV_PARTS:-}" ]; then
			case $rel in
			*-rt-*) parts=$rt_parts;;
			"${kernels[-1]}")
				for p in $newest_skip; do
					args+=(-x "$p")
				done;;
			6.12.*) parts=$lts_parts;;
			*) parts=$mid_parts;;
			esac
			[ "$(kernel_root "$rel")" = "$BPFDRV_ROOT12" ] && parts=$deb12_parts
		fi
		# the tracing part's repetitions (each way of attaching) run on
		# the newest that runs it: PREEMPT_RT in the matrix
		if [ -n "${BPFDRV_PARTS:-}" ] || [[ $rel != *-rt-* ]]; then
			[ "$rel" = "${kernels[-1]}" ] || args+=(-e BPFDRV_TRACE_SHORT=1)
		fi
		BPFDRV_DEADLINE=$matrix_end launch boot "$rel" "$BPFDRV_BUILD/vm/test-$rel.log" \
			boot_suite "$rel" "${args[@]}" $parts
	done
fi
# The accelerator's DMA where every DMA is bounced: a guest booted with
# swiotlb=force, on trixie's 6.12 and the newest kernel (the swiotlb part),
# with an edu whose DMA engine drives 32 address bits (its default 28 do
# not reach swiotlb's buffer, which the kernel puts below 4 GiB)
if [ -z "${BPFDRV_PARTS:-}" ] || [[ " $BPFDRV_PARTS " == *" swiotlb "* ]]; then
	for rel in "${kernels[@]}"; do
		case $rel in *-rt-*) continue;; esac
		[ "$(kernel_root "$rel")" = "$BPFDRV_ROOT12" ] && continue
		[ "$rel" = "${kernels[-1]}" ] || [[ $rel == 6.12.* ]] || continue
		BPFDRV_GUEST_APPEND=swiotlb=force \
		BPFDRV_QEMU_DEVICES="-device edu,dma_mask=0xffffffff" \
			BPFDRV_DEADLINE=$matrix_end launch boot "$rel swiotlb" \
			"$BPFDRV_BUILD/vm/test-$rel-swiotlb.log" boot_suite "$rel" swiotlb
	done
fi
# System sleep in a guest whose own virtio devices (its 9p root) keep
# their state across a resume (qemu-sleep.sh), on Debian 12's 6.12 and
# the newest kernel (the sleep part: 76 s a guest)
if [ -z "${BPFDRV_PARTS:-}" ] || [[ " $BPFDRV_PARTS " == *" sleep "* ]]; then
	for rel in "${kernels[@]}"; do
		[ "$rel" = "${kernels[-1]}" ] || [ -n "${BPFDRV_PARTS:-}" ] ||
			[ "$(kernel_root "$rel")" = "$BPFDRV_ROOT12" ] || continue
		BPFDRV_QEMU_BIN=/src/selftests/vm/qemu-sleep.sh BPFDRV_DEADLINE=$matrix_end \
			launch boot "$rel sleep" \
			"$BPFDRV_BUILD/vm/test-$rel-sleep.log" boot_suite "$rel" sleep
	done
fi
# Debian's cloud kernel, of the newest line: built without I2C, SPI, GPIO,
# hwmon, LEDs and DRM, and without 9p. Its guest boots an overlay of the
# root (the root stays as the other guests see it) that has the kernel,
# its headers and virtiofsd, over virtiofs; it runs the refusals of what
# the kernel lacks (the absent part) and the tracing part (the core part
# runs on three other kernels: 104 s here).
if [ "$mode" = test ] && { [ -z "${BPFDRV_PARTS:-}" ] || [[ " $BPFDRV_PARTS " == *" cloud "* ]]; }; then
	cloud=${kernels[-1]%-amd64}-cloud-amd64
	upper=$BPFDRV_BUILD/vm/root-$cloud
	prep=$BPFDRV_BUILD/vm/prepare-$cloud.log
	[ -n "$plan" ] || rm -rf --one-file-system "$upper"
	[ -n "$plan" ] ||
		log "$cloud: installing it, its headers and virtiofsd in an overlay of the root; building bpfdrv.ko for it"
	# trixie's 6.12 packages the image as linux-image-*, later lines as linux-binary-*
	if [ -n "$plan" ] || BPFDRV_ROOT_UPPER=$upper in_root /bin/bash -c '
		set -e
		export DEBIAN_FRONTEND=noninteractive
		image="linux-binary-$1 linux-modules-$1"
		apt-cache show "linux-binary-$1" >/dev/null 2>&1 || image=linux-image-$1
		apt-get install -y -q --no-install-recommends virtiofsd "linux-headers-$1" $image
		make -s kmod KREL="$1" KDIR="/usr/src/linux-headers-$1"
	' bash "$cloud" >"$prep" 2>&1; then
		BPFDRV_ROOT_UPPER=$upper BPFDRV_DEADLINE=$matrix_end \
			launch boot "$cloud" "$BPFDRV_BUILD/vm/test-$cloud.log" \
			boot_suite "$cloud" -e BPFDRV_TRACE_SHORT=1 absent trace
	else
		launch host "$cloud" "$BPFDRV_BUILD/vm/test-$cloud.log" /bin/bash -c '
			echo "not ok - $1 and bpfdrv.ko for it install in an overlay of the root"
			tail -n 15 "$2" | sed "s/^/# /"' bash "$cloud" "$prep"
	fi
fi
for i in "${!job_pids[@]}"; do
	report "$i"
done

# The whole matrix ends with the debug kernel, alone (beside other guests
# its boot timed out in udev's coldplug), on the lifetime parts that fit
# CI's 90 minutes: on a two-core machine where the matrix took 31 minutes,
# its build took 11 and these parts 15 (before DRM and the accel part; on
# a slower one the matrix took 40, the parts 25), then a short campaign
# of the fuzzers (2 minutes of system calls guided by KCOV). Skipped,
# saying why, when the matrix took longer than BPFDRV_DEBUG_GATE seconds
# (30 minutes: the machine is slow enough for both to pass 75) or the disk has too
# little room for its build tree (4 GiB, 12 asked). The update part is
# left to make test-debug: 914 s there under TCG, past the 600 s limit.
# BPFDRV_DEBUG=1 runs it whatever the time, BPFDRV_DEBUG=0 never.
debug_round() {
	local took=$SECONDS free rel log=$BPFDRV_BUILD/vm/debug-kernel.log
	local parts=${BPFDRV_DEBUG_PARTS:-core pci mmap eject fuzz}
	# a short campaign of the fuzzers (2 minutes of system calls, guided
	# by the kernel's coverage), unless the settings ask for another
	local fuzz_s=${BPFDRV_FUZZ_SECONDS:-120} fuzz_o=${BPFDRV_FUZZ_OBJECTS:-20}
	local fuzz_a=${BPFDRV_FUZZ_ARGS:-30}

	free=$(df -P -BG "$BPFDRV_CACHE" | awk 'NR == 2 { print $4 + 0 }')
	if [ "${BPFDRV_DEBUG:-}" != 1 ] && [ "$took" -gt "${BPFDRV_DEBUG_GATE:-1800}" ]; then
		echo "# skip: the debug kernel (KASAN, lockdep): the matrix took $((took / 60)) min here, more than the $((${BPFDRV_DEBUG_GATE:-1800} / 60)) that leave room for its build and run in 90 (make test-debug runs it)"
		return
	fi
	if [ "${BPFDRV_DEBUG:-}" != 1 ] && [ "$free" -lt 12 ]; then
		echo "# skip: the debug kernel (KASAN, lockdep): $free GiB free, less than the 12 asked for its build (make test-debug runs it)"
		return
	fi
	# the guest starts a part only while the longest so far would end
	# before the run's end (its parts skipped past it say so). At 72
	# minutes CI took 4651 s: a part may outlast the longest before it,
	# and the log check, the shutdown and CI's own set-up come after or
	# before; 64 leaves those 11 minutes under 75. At 64, CI took 5129 s:
	# nothing bounded a guest that froze (15 silent minutes) or did not
	# come up (10), and its second boot. The watch stops the guest 7
	# minutes after the parts' end (BPFDRV_DEBUG_GRACE) and boots it
	# again only where a boot fits before that.
	local end=$((run_began + ${BPFDRV_DEBUG_END:-3840}))
	local stop=$((end + ${BPFDRV_DEBUG_GRACE:-420}))
	if [ -n "$plan" ]; then
		BPFDRV_FUZZ_SECONDS=$fuzz_s BPFDRV_FUZZ_OBJECTS=$fuzz_o BPFDRV_FUZZ_ARGS=$fuzz_a \
			BPFDRV_VM_TIMEOUT=2400 BPFDRV_PART_TIMEOUT=600 BPFDRV_DEADLINE=$end \
			BPFDRV_RUN_END=$stop launch boot "debug" - boot_suite "debug" $parts
		return
	fi
	log "the debug kernel (KASAN, lockdep): building it if not cached (log: ${log#"$BPFDRV_TOP"/})"
	n=$((n + 1))
	if ! rel=$("$BPFDRV_TOP/selftests/vm/debug-kernel.sh" 2>"$log") ||
		! in_root make -s kmod KREL="$rel" KDIR="/usr/src/linux-headers-$rel" \
			>"$BPFDRV_BUILD/vm/build-$rel.log" 2>&1 ||
		{ [[ " $parts " != *" fuzz "* ]] ||
		  ! in_root make -s "${BPFDRV_BUILD#"$BPFDRV_TOP"/}/asan/user/bpfdrv" gen-drivers \
			GEN_COUNT=8 >>"$BPFDRV_BUILD/vm/build-$rel.log" 2>&1; }; then
		failed=$((failed + 1))
		echo "not ok $n - the debug kernel and bpfdrv.ko for it build (see ${log#"$BPFDRV_TOP"/})"
		tail -20 "$log" | sed 's/^/# /'
		return
	fi
	passed=$((passed + 1))
	echo "ok $n - the debug kernel $rel and bpfdrv.ko for it build ($(((SECONDS - took) / 60)) min)"
	# its boot and one part take about 10 minutes on a slow machine
	if [ "${BPFDRV_DEBUG:-}" != 1 ] && [ $(($(date +%s) + 600)) -gt "$end" ]; then
		echo "# skip: the debug kernel's parts: the run is at $(((SECONDS) / 60)) min, too near its end ($((${BPFDRV_DEBUG_END:-3840} / 60)); make test-debug runs them)"
		return
	fi
	# KASAN and lockdep under TCG: two to three times slower (on a slow
	# host these parts took 117 s to 482 s each, accel about 300; i2c and
	# spi, 376 s more, did not fit the guest's 30 minutes: test-debug)
	BPFDRV_FUZZ_SECONDS=$fuzz_s BPFDRV_FUZZ_OBJECTS=$fuzz_o BPFDRV_FUZZ_ARGS=$fuzz_a \
		BPFDRV_VM_TIMEOUT=2400 BPFDRV_PART_TIMEOUT=600 BPFDRV_DEADLINE=$end \
		BPFDRV_RUN_END=$stop launch boot "$rel" "$BPFDRV_BUILD/vm/test-$rel.log" \
		boot_suite "$rel" $parts
	report $((${#job_pids[@]} - 1))
}
[ "$mode" = test ] && [ -z "${BPFDRV_PARTS:-}" ] && { [ -z "${BPFDRV_KERNELS:-}" ] || [ -n "$plan" ]; } &&
	[ "${BPFDRV_DEBUG:-}" != 0 ] && [ "${BPFDRV_DEBUG_KERNEL:-}" != only ] && debug_round
# this run's guests' logs ("-" in a plan)
late=$(cat "${job_logs[@]}" /dev/null 2>/dev/null | tr -d '\r' |
	grep -c "^# skip: part .* past the run's deadline")
[ "$late" -gt 0 ] &&
	echo "# $late parts were skipped at the run's deadline (BPFDRV_MATRIX_END, BPFDRV_DEBUG_END): this machine is slower than the matrix is sized for"
echo "# make $mode took $(($(date +%s) - run_began)) s"
echo "1..$n"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
