# SPDX-License-Identifier: GPL-2.0
# Helpers for the in-guest test parts (sourced). Each part prints unnumbered
# TAP lines ("ok - ...", "not ok - ..."); the host numbers and counts them.

B=build
BPFDRV=$B/user/bpfdrv
KO=$B/kbuild/$(uname -r)/kmod/bpfdrv.ko
KMODS=$B/kbuild/$(uname -r)/selftests/kmods
OBJ=$B/bpf
TOBJ=$B/selftests
OUT=$(mktemp -d)

ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; }
check() {	# check DESCRIPTION CMD...: pass when CMD succeeds
	local desc=$1

	shift
	if "$@" >"$OUT/check" 2>&1; then ok "$desc"; else nok "$desc"; sed 's/^/# /' "$OUT/check"; fi
}
# tap_run CMD...: a test program whose own TAP lines count (exit 0, or 1
# for its failures, which it printed); a crash or a usage error (exit 2 or
# more, or a signal) counts as a failure, not as lines that never came
tap_run() {
	local rc

	"$@"
	rc=$?
	[ $rc -le 1 ] || nok "${1##*/} ${2:-} exits $rc (killed by a signal, or misused)"
}
# expect_err DESCRIPTION PATTERN CMD...: CMD fails with one line matching PATTERN
expect_err() {
	local desc=$1 pat=$2

	shift 2
	if "$@" >"$OUT/out" 2>&1; then
		nok "$desc (command succeeded)"
	elif grep -q -- "$pat" "$OUT/out"; then
		ok "$desc"
	else
		nok "$desc"
	fi
	sed 's/^/# /' "$OUT/out" | head -20
}
# skeleton_test NAME ERE DESCRIPTION: run the generated test of the loaded
# skeleton NAME (from bpfdrv new); passes if it does and its output matches
skeleton_test() {
	local rc

	"$B/new/$1/test-$1" >"$OUT/skel" 2>&1
	rc=$?
	sed 's/^/# /' "$OUT/skel"
	if [ $rc -eq 0 ] && grep -Eq "$2" "$OUT/skel"; then
		ok "$3"
	else
		nok "$3 (rc $rc)"
	fi
}
opens() {	# opens INSTANCE N: INSTANCE has N open files
	test "$(cat /sys/class/bpfdrv/$1/open_count 2>/dev/null)" = "$2"
}
wait_for() {	# wait_for SECONDS CMD...: poll until CMD succeeds
	local i

	for ((i = 0; i < $1 * 10; i++)); do
		"${@:2}" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
# instance_of BDF: the name of the instance bound to the PCI function
instance_of() {
	local d

	for d in /sys/class/bpfdrv/*; do
		[ "$(basename "$(readlink "$d/device" 2>/dev/null)")" = "$1" ] &&
			basename "$d" && return
	done
}
# edu_pair: of two edu functions, bdf on the root bus (no reset method)
# and other, alone behind a PCIe root port (a bus reset); fails without two
edu_pair() {
	local b edus

	mapfile -t edus < <(lspci -Dn -d 1234:11e8 | awk '{ print $1 }')
	[ ${#edus[@]} -ge 2 ] || return 1
	bdf= other=
	for b in "${edus[@]}"; do
		if [ -e "/sys/bus/pci/devices/$b/reset" ]; then other=$b; else bdf=$b; fi
	done
	[ -n "$bdf" ] || bdf=${edus[0]}
	[ -n "$other" ] && [ "$other" != "$bdf" ] || other=${edus[1]}
}
# edu_pm_count NODE suspends|resumes|hist|quiesced_calls: edu's own count
# (EDU_IOC_PM: a call, which resumes a runtime-suspended function)
edu_pm_count() {
	$B/selftests/test_edu pm "$1" |
		awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'
}
# stat_of INSTANCE KEY: a count of its sysfs stats (read without a call)
stat_of() { awk -v k="$2" '$1 == k { print $2 }' "/sys/class/bpfdrv/$1/stats"; }
node_gone() { [ ! -e "/dev/bpfdrv/$1" ]; }
# the driver a PCI function is bound to, or nothing
driver_of() { basename "$(readlink "/sys/bus/pci/devices/$1/driver" 2>/dev/null)" 2>/dev/null; }
# events_on SYSTEM FILTER EVENT...: ftrace's SYSTEM:EVENTs (those FILTER
# lets through; "" for all), in a cleared buffer (tracing stays off while
# they are set up); fails where the kernel has no such event. events_off
# SYSTEM EVENT... undoes it, tracing left off for the buffer to be read.
# ftrace_count EVENT: how many EVENT lines the buffer holds.
TFS=/sys/kernel/tracing
events_on() {
	local sys=$1 filter=$2 e

	shift 2
	for e in "$@"; do
		[ -d "$TFS/events/$sys/$e" ] || return 1
	done
	echo 0 >$TFS/tracing_on
	echo >$TFS/trace
	for e in "$@"; do
		[ -z "$filter" ] || echo "$filter" >"$TFS/events/$sys/$e/filter"
		echo 1 >"$TFS/events/$sys/$e/enable"
	done
	echo 1 >$TFS/tracing_on
}
events_off() {
	local sys=$1 e

	shift
	echo 0 >$TFS/tracing_on
	for e in "$@"; do
		echo 0 >"$TFS/events/$sys/$e/enable"
		echo 0 >"$TFS/events/$sys/$e/filter"
	done
}
ftrace_count() { grep -c " $1: " $TFS/trace; }
# dma_events_on DEVICE EVENT...: the dma events of one device
dma_events_on() { events_on dma "device == \"$1\"" "${@:2}"; }
dma_events_off() { events_off dma "$@"; }
# wait_gone NODE: until /dev/bpfdrv/NODE is gone (10 s at most), polled
# without a pause so that what follows runs as soon as it is
wait_gone() {
	local end=$((SECONDS + 10))

	while [ -e "/dev/bpfdrv/$1" ]; do
		((SECONDS < end)) || return 1
	done
}
# status_says NAME DESCRIPTION PATTERN: bpfdrv status NAME, shown, matches
status_says() {
	$BPFDRV status "$1" >"$OUT/status" 2>&1
	sed 's/^/# /' "$OUT/status"
	check "$2" grep -q "$3" "$OUT/status"
}
preempt_rt() { uname -v | grep -qw PREEMPT_RT; }	# a PREEMPT_RT kernel
# what bpfdrv_accel.ko needs before an insmod: DRM, its shmem helpers and
# the scheduler; drm_gpuvm too where the kernel has it (its address spaces)
accel_deps() {
	modprobe -a drm drm_shmem_helper gpu_sched || return
	modprobe -q drm_gpuvm 2>/dev/null
	return 0
}
known_facts() {	# the factorials 0..12 as test_edu facts prints them
	local n f=1

	for ((n = 0; n <= 12; n++)); do
		((n > 0)) && f=$((f * n))
		echo "$n $f"
	done
}


# load_module: make sure bpfdrv.ko is loaded (parts may run on their own).
load_module() {
	[ -d /sys/module/bpfdrv ] && return 0
	insmod "$KO"
}

# hostile_corpus LABEL: load every object of selftests/hostile/; each must be
# refused with the message its source states ("expect: ERE"), attach
# nothing, and leave a core_pattern sentinel unchanged.
hostile_corpus() {
	local label=$1 src name pat n=0 old sentinel=bpfdrv-sentinel-$$

	old=$(cat /proc/sys/kernel/core_pattern)
	echo "$sentinel" >/proc/sys/kernel/core_pattern
	for src in selftests/hostile/*.bpf.c; do
		name=$(basename "$src" .bpf.c)
		pat=$(sed -n 's/^ \* expect: //p' "$src")
		n=$((n + 1))
		if [ -z "$pat" ]; then
			nok "$label $name: its source states the refusal it expects"
			continue
		fi
		# --pin: a wrongly accepted object must not block the run
		if $BPFDRV load --pin "$TOBJ/hostile/$name.bpf.o" >"$OUT/out" 2>&1; then
			nok "$label $name: refused at load (it attached)"
			for d in $(ls /sys/class/bpfdrv | grep '^hostile_'); do
				$BPFDRV unload "$d" >/dev/null 2>&1
			done
		elif grep -Eq -- "$pat" "$OUT/out"; then
			ok "$label $name: $(grep -E -m1 -- "$pat" "$OUT/out" | sed 's/^[# ]*//' | cut -c1-160)"
		else
			nok "$label $name: refused with /$pat/"
			sed 's/^/# /' "$OUT/out" | head -20
		fi
	done
	check "$label: the corpus has at least 30 objects ($n)" test "$n" -ge 30
	check "$label: no hostile driver is attached" \
		eval '! ls /sys/class/bpfdrv 2>/dev/null | grep -q hostile'
	check "$label: kernel memory unchanged (core_pattern sentinel)" \
		test "$(cat /proc/sys/kernel/core_pattern)" = "$sentinel"
	echo "$old" >/proc/sys/kernel/core_pattern
}

# expect_refused LABEL OBJ MESSAGE [OPTION...]: bpfdrv load [OPTION...] OBJ
# fails and the kernel
# log gains MESSAGE (the module's reason); nothing stays attached
expect_refused() {
	local label=$1 obj=$2 msg=$3 klog name

	shift 3
	name=$(basename "$obj" .bpf.o)
	klog=$(dmesg | wc -l)
	if $BPFDRV load --pin "$@" "$obj" >"$OUT/out" 2>&1; then
		nok "$label: $name refused (it attached)"
		$BPFDRV unload "$name" >/dev/null 2>&1
	elif dmesg | tail -n +$((klog + 1)) | grep -q -- "$msg"; then
		ok "$label: $name: $msg"
	else
		nok "$label: $name refused, with '$msg' in the kernel log"
		sed 's/^/# /' "$OUT/out"
		dmesg | tail -n +$((klog + 1)) | sed 's/^/# /'
	fi
}

# The JSON helpers use jq: a Python start costs a second or two under TCG,
# and the tracer's parts read its results a hundred times. A condition KEY=VALUE
# compares the value as text, case-insensitively (true, null, 5).
jq_match='def text: if type == "string" then . else tojson end;
def matches($o): all($ARGS.positional[] | capture("^(?<k>[^=]*)=(?<v>.*)$");
	($o[.k] | text | ascii_downcase) == (.v | ascii_downcase));
[inputs | select(startswith("{")) | fromjson | select(matches(.))]'
# jsum FILE FIELD KEY=VALUE...: sum of FIELD over the JSON lines matching all
jsum() {
	local file=$1 field=$2

	shift 2
	jq -Rn --arg f "$field" "$jq_match"' | map(.[$f] // 0 |
		if type == "boolean" then (if . then 1 else 0 end) else . end) | add // 0' \
		"$file" --args "$@"
}
# jcount FILE KEY=VALUE...: how many JSON lines match all
jcount() {
	local file=$1

	shift
	jq -Rn "$jq_match | length" "$file" --args "$@"
}
# jget FILE KEY[.KEY]: a value of the one JSON object in FILE
jget() {
	jq -r --arg p "$2" 'getpath($p | split("."))' "$1"
}
# expect_eq DESCRIPTION GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else nok "$1"; echo "# got '$2', want '$3'"; fi
}
