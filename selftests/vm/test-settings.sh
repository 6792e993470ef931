#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every documented setting of the harness (docs/testing.md) takes effect:
# run.sh in plan mode (BPFDRV_PLAN=1: each run's command, nothing set up,
# built or booted) with one setting at a time, its plan compared with the
# setting. The watch's own bounds are test-watch.sh's; BPFDRV_PART_TIMEOUT's
# effect inside the guest is checked by the report on every guest. Prints
# unnumbered TAP lines; runs on the host in a few seconds.
set -u
. "$(dirname "$0")/lib.sh"
K="6.12.1+deb12-amd64 6.12.1+deb13-amd64 7.2.1+deb13-amd64 7.3.1+deb13-rt-amd64 7.3.1+deb13-amd64"
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
ok() { echo "ok - settings: $*"; }
nok() { echo "not ok - settings: $*"; }
# plan [NAME=VALUE...] [-- MODE]: the plan with these settings
plan() {
	local mode=test

	[ "${*: -2:1}" = -- ] && { mode=${*: -1}; set -- "${@:1:$#-2}"; }
	env -u CI -u BPFDRV_JOBS -u BPFDRV_PARTS -u BPFDRV_DEBUG -u BPFDRV_VM_TIMEOUT \
		-u BPFDRV_PART_TIMEOUT BPFDRV_PLAN=1 BPFDRV_ACCEL=tcg BPFDRV_CACHE="$cache" \
		BPFDRV_KERNELS="$K" "$@" "$BPFDRV_TOP/selftests/vm/run.sh" "$mode" 2>&1
}
# expect DESCRIPTION PLAN-GREP-ARGS... -- NAME=VALUE...: the plan matches
expect() {
	local desc=$1 out

	shift
	local pat=() i
	for ((i = 1; i <= $#; i++)); do
		[ "${!i}" = -- ] && break
		pat+=("${!i}")
	done
	shift $i
	out=$(plan "$@")
	if grep -q "${pat[@]}" <<<"$out"; then
		ok "$desc"
	else
		nok "$desc"
		grep "^plan: vm\|^bpfdrv-vm\|^# skip" <<<"$out" | head -8 | cut -c1-300 | sed 's/^/# /'
	fi
}
refute() {	# refute DESCRIPTION PATTERN -- NAME=VALUE...: no line matches
	local desc=$1 pat=$2 out

	shift 3
	out=$(plan "$@")
	if grep -q -- "$pat" <<<"$out"; then
		nok "$desc"
		grep -- "$pat" <<<"$out" | head -3 | cut -c1-300 | sed 's/^/# /'
	else
		ok "$desc"
	fi
}
vm_of() { echo "^plan: vm $1: .*"; }	# the vm line of kernel $1

expect "BPFDRV_ACCEL=tcg boots under TCG" -e "$(vm_of 7.3.1+deb13-amd64)--disable-kvm" -- BPFDRV_ACCEL=tcg
refute "BPFDRV_ACCEL=kvm boots under KVM" "--disable-kvm" -- BPFDRV_ACCEL=kvm
expect "CI set: TCG whatever the host has" -e "$(vm_of 7.3.1+deb13-amd64)--disable-kvm" -- BPFDRV_ACCEL= CI=true
expect "BPFDRV_KERNELS: one kernel, the newest, runs every part but those left to PREEMPT_RT" \
	-xE "plan: vm 7.2.1\+deb13-amd64: timeout 1800 .*guest.sh (-e BPFDRV_DEADLINE=[0-9]+ )?-x package -x swiotlb -x sleep -x fuzz -x eject -x isolation -x update -x stall -x irq -x accel -x trace" \
	-- BPFDRV_KERNELS=7.2.1+deb13-amd64
refute "BPFDRV_KERNELS: no other kernel boots" "^plan: vm 7.3.1+deb13-amd64" -- BPFDRV_KERNELS=7.2.1+deb13-amd64
expect "BPFDRV_VM_TIMEOUT=1234 limits the guests" -e "$(vm_of 6.12.1+deb12-amd64)timeout 1234 " -- BPFDRV_VM_TIMEOUT=1234
expect "BPFDRV_VM_TIMEOUT=1234 limits the package guest too" -e "plan: vm 7.3.1+deb13-amd64: timeout 1234 .*guest.sh package" -- BPFDRV_VM_TIMEOUT=1234
expect "BPFDRV_PART_TIMEOUT=77 is given to each guest" -e "$(vm_of 7.2.1+deb13-amd64)-e BPFDRV_PART_TIMEOUT=77 " -- BPFDRV_PART_TIMEOUT=77
expect "BPFDRV_PART_TIMEOUT=77 sets the silence bound's part" -e "plan: boot 7.2.1+deb13-amd64: part limit 77," -- BPFDRV_PART_TIMEOUT=77
expect "BPFDRV_BOOT_LIMIT=42 bounds each boot" -e "plan: boot 7.2.1+deb13-amd64: .*boot limit 42 s" -- BPFDRV_BOOT_LIMIT=42
expect "BPFDRV_CACHE: no boot recorded there, so 600 s" -e "plan: boot 7.2.1+deb13-amd64: .*boot limit 600 s" --
expect "BPFDRV_KFENCE_MS=0 turns KFENCE off" -e "kfence.sample_interval=0 " -- BPFDRV_KFENCE_MS=0
expect "BPFDRV_JOBS=3 runs three at once" -e "up to 3 runs at once" -- BPFDRV_JOBS=3
expect "BPFDRV_DEB12_PARTS=mmap: Debian 12's kernel runs mmap" -xE "plan: vm 6.12.1\+deb12-amd64: .*-e BPFDRV_TRACE_SHORT=1 mmap" -- BPFDRV_DEB12_PARTS=mmap
expect "BPFDRV_LTS_PARTS=irq: trixie's 6.12 runs irq" -xE "plan: vm 6.12.1\+deb13-amd64: .*-e BPFDRV_TRACE_SHORT=1 irq" -- BPFDRV_LTS_PARTS=irq
expect "BPFDRV_MID_PARTS=gpio: 7.2 runs gpio" -xE "plan: vm 7.2.1\+deb13-amd64: .*-e BPFDRV_TRACE_SHORT=1 gpio" -- BPFDRV_MID_PARTS=gpio
expect "BPFDRV_RT_PARTS=spi: PREEMPT_RT runs spi" -xE "plan: vm 7.3.1\+deb13-rt-amd64: .*-x fuzz spi" -- BPFDRV_RT_PARTS=spi
expect "BPFDRV_NEWEST_SKIP=isolation: the newest leaves out isolation alone" \
	-xE "plan: vm 7.3.1\+deb13-amd64: timeout 1800 .*guest.sh (-e BPFDRV_DEADLINE=[0-9]+ )?-x package -x swiotlb -x sleep -x fuzz -x isolation" -- BPFDRV_NEWEST_SKIP=isolation
expect "BPFDRV_PARTS='core pci': each kernel runs core and pci" -xE "plan: vm 7.3.1\+deb13-rt-amd64: .* core pci" -- "BPFDRV_PARTS=core pci"
refute "BPFDRV_PARTS='core pci': no package guest, DKMS, swiotlb or cloud guest" \
	"guest.sh package\|host dkms\|swiotlb=force\|cloud-amd64" -- "BPFDRV_PARTS=core pci"
expect "BPFDRV_PARTS=package: the package guest on each kernel" -e "plan: vm 7.2.1+deb13-amd64: .*guest.sh package" -- BPFDRV_PARTS=package
expect "BPFDRV_PARTS=fuzz: the fuzzers on each kernel (by default only the debug kernel's)" \
	-xE "plan: vm 7.2.1\+deb13-amd64: .*guest.sh -x package -x swiotlb -x sleep -e BPFDRV_TRACE_SHORT=1 fuzz" -- BPFDRV_PARTS=fuzz
expect "the sleep part: its own guest on Debian 12's 6.12 ..." \
	-xE "plan: vm 6.12.1\+deb12-amd64: timeout 1800, QEMU /src/selftests/vm/qemu-sleep.sh .*guest.sh (-e BPFDRV_DEADLINE=[0-9]+ )?sleep" --
expect "... and on the newest kernel, its virtio devices behind root ports (qemu-sleep.sh)" \
	-xE "plan: vm 7.3.1\+deb13-amd64: timeout 1800, QEMU /src/selftests/vm/qemu-sleep.sh .*guest.sh (-e BPFDRV_DEADLINE=[0-9]+ )?sleep" --
refute "... on no other kernel" "plan: vm \(6\.[0-9.]*+deb13\|7\.2\.[0-9]*+deb13\|[0-9.]*+deb13-rt\)-amd64: .*guest.sh.* sleep$" --
out=$(plan)
deadline=$(sed -n 's/^plan: vm 7.2.1+deb13-amd64: .*guest.sh -e BPFDRV_DEADLINE=\([0-9]*\) .*/\1/p' <<<"$out" | head -n 1)
left=$((${deadline:-0} - $(date +%s)))
if [ "$left" -gt 4190 ] && [ "$left" -le 4200 ]; then
	ok "the matrix's guests start parts only until the run's start + 4200 s (BPFDRV_MATRIX_END; $left s left)"
else
	nok "the matrix's guests start parts only until the run's start + 4200 s (BPFDRV_MATRIX_END; ${deadline:-none}: $left s left)"
fi
for g in "cloud-amd64: .*guest.sh -e BPFDRV_DEADLINE=[0-9]+ -e BPFDRV_TRACE_SHORT=1 absent trace" \
	"amd64: .*guest.sh -e BPFDRV_DEADLINE=[0-9]+ swiotlb" "amd64: .*guest.sh -e BPFDRV_DEADLINE=[0-9]+ sleep"; do
	expect "... the ${g%%:*} guest too: ${g##* }" -xE "plan: vm 7.3.1\+deb13-$g" --
done
refute "BPFDRV_PARTS: no deadline" "BPFDRV_DEADLINE" -- BPFDRV_PARTS=core
expect "PREEMPT_RT runs the tracer's repetitions (each way), no other kernel of the matrix" \
	-xE "plan: vm 7.3.1\+deb13-rt-amd64: .*-x fuzz stall irq eject isolation trace update accel" --
expect "BPFDRV_PARTS=cloud: the newest cloud kernel's guest alone" -xE "plan: vm 7.3.1\+deb13-cloud-amd64: .*guest.sh -e BPFDRV_TRACE_SHORT=1 absent trace" -- BPFDRV_PARTS=cloud
expect "BPFDRV_DEBUG=1: the debug kernel's round after the matrix (with 2 minutes of fuzzing), whatever the time and disk" \
	-e "plan: vm debug: .*-e BPFDRV_FUZZ_SECONDS=120 .* core pci mmap eject fuzz$" -- BPFDRV_DEBUG=1
out=$(plan BPFDRV_DEBUG=1 BPFDRV_DEBUG_END=1000)
deadline=$(sed -n 's/^plan: vm debug: .*-e BPFDRV_DEADLINE=\([0-9]*\) .*/\1/p' <<<"$out")
left=$((${deadline:-0} - $(date +%s)))
if [ "$left" -gt 990 ] && [ "$left" -le 1000 ]; then
	ok "BPFDRV_DEBUG_END=1000: the debug kernel's guest gets the run's start + 1000 s as its deadline ($left s left)"
else
	nok "BPFDRV_DEBUG_END=1000: the debug kernel's guest gets the run's start + 1000 s as its deadline (${deadline:-none}: $left s left)"
fi
stop=$(sed -n 's/^plan: boot debug: .*, stopped at \([0-9]*\)$/\1/p' <<<"$out")
if [ -n "$stop" ] && [ $((stop - ${deadline:-0})) = 420 ]; then
	ok "... and the watch stops it 420 s after that (BPFDRV_DEBUG_GRACE)"
else
	nok "... and the watch stops it 420 s after that (BPFDRV_DEBUG_GRACE: ${stop:-never})"
fi
out=$(plan BPFDRV_DEBUG=1)
if ! grep -q "stopped at" <(grep -v "^plan: boot debug" <<<"$out"); then
	ok "no other guest has the run's end"
else
	nok "no other guest has the run's end"
fi
refute "BPFDRV_DEBUG=0: no debug kernel" "^plan: vm debug" -- BPFDRV_DEBUG=0 BPFDRV_DEBUG_GATE=99999
expect "BPFDRV_DEBUG_PARTS=mmap: its parts" -xE "plan: vm debug: .*guest.sh .*-e BPFDRV_PART_TIMEOUT=600 mmap" \
	-- BPFDRV_DEBUG_PARTS=mmap BPFDRV_DEBUG=1
expect "BPFDRV_DEBUG_GATE: a matrix longer than it skips the debug kernel" -e "^# skip: the debug kernel" -- BPFDRV_DEBUG_GATE=-1
expect "BPFDRV_DEBUG_GATE with BPFDRV_DEBUG=1: run whatever the time" -e "plan: vm debug" -- BPFDRV_DEBUG_GATE=-1 BPFDRV_DEBUG=1
expect "BPFDRV_DEBUG_KERNEL=only (make test-debug): the debug kernel alone, every lifetime part, 90 and 30 minutes" \
	-xE "plan: vm debug: timeout 5400 .*-e BPFDRV_PART_TIMEOUT=1800 .*core hostile pci mmap irq gpio classes i2c spi eject update isolation accel fuzz" \
	-- BPFDRV_DEBUG_KERNEL=only
expect "BPFDRV_FUZZ_SECONDS, _SEED, _THREADS and _OBJECTS reach the guest" \
	-e "-e BPFDRV_FUZZ_OBJECTS=4 -e BPFDRV_FUZZ_THREADS=2 -e BPFDRV_FUZZ_SEED=9 -e BPFDRV_FUZZ_SECONDS=5 " \
	-- BPFDRV_FUZZ_SECONDS=5 BPFDRV_FUZZ_SEED=9 BPFDRV_FUZZ_THREADS=2 BPFDRV_FUZZ_OBJECTS=4
expect "BPFDRV_FUZZ_ARGS and _DRIVER_SECONDS reach the guest" \
	-e "-e BPFDRV_FUZZ_DRIVER_SECONDS=2 -e BPFDRV_FUZZ_ARGS=7 " \
	-- BPFDRV_FUZZ_ARGS=7 BPFDRV_FUZZ_DRIVER_SECONDS=2
expect "BPFDRV_FUZZ_CORPUS=1: the corpus in build/fuzz-corpus, writable in the guest" \
	-e "--rwdir=/src/build/fuzz-corpus=/src/build/fuzz-corpus .*-e BPFDRV_FUZZ_CORPUS=build/fuzz-corpus " \
	-- BPFDRV_FUZZ_CORPUS=1
expect "BPFDRV_FUZZ_SEED and _DRIVERS pick the random drivers built for the fuzz part" \
	-xE "plan: build .*gen-drivers GEN_SEED=9 GEN_COUNT=5" \
	-- BPFDRV_PARTS=fuzz BPFDRV_FUZZ_SEED=9 BPFDRV_FUZZ_DRIVERS=5
expect "without the fuzz part, no ASan tool and no random drivers are built" \
	-xE "plan: build bpf user selftests" -- BPFDRV_PARTS=core
expect "BPFDRV_BENCH_REPS, _SECONDS and _TRACE_ROUNDS set the benchmark" \
	-e "plan: vm 7.3.1+deb13-amd64: .*--append tsc=reliable -e selftests/bench/guest-bench.sh 3 0.5 1$" \
	-- BPFDRV_BENCH_REPS=3 BPFDRV_BENCH_SECONDS=0.5 BPFDRV_BENCH_TRACE_ROUNDS=1 -- bench
