#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The system-call fuzzer (selftests/fuzz_sys.c) on the nodes of echo, fifo,
# edu and edu_accel, while a second loop updates, detaches and attaches
# drivers, unbinds, binds, hot-removes and rescans the PCI functions under
# it (edu_accel is detached and attached again: unbound, its function
# would go to edu). What it finds the kernel reports (the guest's log check: KASAN,
# lockdep, SLUB's checks, stalls); after it, every driver detaches and
# both modules unload. Hot-removal and rescan only with
# BPFDRV_FUZZ_HOTREMOVE=1 (make fuzz): under TCG, guests that hot-remove
# and rescan edu have, rarely, frozen with a vCPU halted whose timer
# interrupt never came (docs/testing.md). Before it, mutated driver
# objects, command lines and autoload.conf files go to the tool
# (selftests/fuzz_obj.py, fuzz_args.py), and random drivers
# (selftests/gen_driver.py) are loaded and fuzzed. BPFDRV_FUZZ_SECONDS (30),
# BPFDRV_FUZZ_THREADS (4), BPFDRV_FUZZ_OBJECTS (60), BPFDRV_FUZZ_ARGS (150),
# BPFDRV_FUZZ_DRIVER_SECONDS (3, per random driver) and BPFDRV_FUZZ_SEED
# (a fixed one; make fuzz picks a new one) set it. Where the kernel has
# KCOV, the calls are guided by coverage; BPFDRV_FUZZ_CORPUS names a
# directory that keeps the corpus between runs (make fuzz).
. "$(dirname "$0")/lib.sh"

seconds=${BPFDRV_FUZZ_SECONDS:-30}
threads=${BPFDRV_FUZZ_THREADS:-4}
seed=${BPFDRV_FUZZ_SEED:-20261129}
ACCEL_KO=$B/kbuild/$(uname -r)/kmod/bpfdrv_accel.ko
mapfile -t edus < <(lspci -Dn -d 1234:11e8 | awk '{ print $1 }')
bdf_args=()
for b in "${edus[@]}"; do
	bdf_args+=(--bdf "$b")
done

load_module || { nok "insmod bpfdrv.ko for the fuzzer"; exit 0; }

# what a person can hand the tool: mutated driver objects, command lines
# and autoload.conf files, to the tool built with ASan and UBSan, nothing
# else attached meanwhile
if [ -x "$B/asan/user/bpfdrv" ]; then
	python3 selftests/fuzz_obj.py -n "${BPFDRV_FUZZ_OBJECTS:-60}" -S "$seed" \
		--tool "$B/asan/user/bpfdrv" $OBJ/echo.bpf.o $OBJ/fifo.bpf.o \
		$OBJ/edu.bpf.o $OBJ/lm75.bpf.o $OBJ/gpio_leds.bpf.o $OBJ/edu_accel.bpf.o \
		$TOBJ/timers.bpf.o $TOBJ/classes.bpf.o ||
		nok "fuzz: fuzz_obj.py ran to its end (exit $?)"
	$BPFDRV unload --all >/dev/null 2>&1
	# and random command lines and autoload.conf files
	python3 selftests/fuzz_args.py -n "${BPFDRV_FUZZ_ARGS:-150}" -S "$seed" \
		--tool "$B/asan/user/bpfdrv" --objs "$OBJ" "${bdf_args[@]}" ||
		nok "fuzz: fuzz_args.py ran to its end (exit $?)"
	$BPFDRV unload --all >/dev/null 2>&1
	echo "# objects, command lines and autoload.conf files took $SECONDS s"
else
	echo "# skip: the object fuzzer (no ASan build of the tool: make $B/asan/user/bpfdrv)"
fi
phase=$SECONDS
# random drivers (selftests/gen_driver.py): each is refused with a reason,
# or attached, fuzzed through its node, and detached; its loops end then
gen_fuzz() {	# gen_fuzz OBJ: one generated driver
	local obj=$1 name out rc pid

	name=$(basename "$obj" .bpf.o)
	# a sleepable init may loop for hours: its loops end when the loader
	# is killed, and nothing of the driver may stay
	out=$(timeout -k 10 20 $BPFDRV load --pin "$obj" 2>&1)
	rc=$?
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		gen_killed=$((gen_killed + 1))
		$BPFDRV unload "$name" >/dev/null 2>&1
		if wait_for 30 eval "! grep -q '^$name ' /sys/kernel/bpfdrv/drivers" &&
			node_gone "$name"; then
			echo "# $name: its init ran past 20 s; the load was killed and nothing of it stayed"
		else
			nok "fuzz: $name: its load killed in init, it is gone within 30 s ($obj)"
		fi
		return
	fi
	if [ $rc -ne 0 ]; then
		if [ $rc -eq 1 ] && grep -q '^bpfdrv: ' <<<"$out"; then
			gen_refused=$((gen_refused + 1))
			echo "# $name refused: $(grep -m1 -e '^bpfdrv:   reason:' -e '^bpfdrv: ' <<<"$out" |
				sed 's/^bpfdrv: *\(reason: *\)\?//' | cut -c1-150)"
		else
			nok "fuzz: $name is refused with a message or loads (exit $rc; $obj)"
			sed 's/^/#   /' <<<"$out" | head -20
		fi
		return
	fi
	gen_attached=$((gen_attached + 1))
	$B/selftests/fuzz_sys -t 2 -s "$gen_seconds" -S "$seed" "/dev/bpfdrv/$name" \
		>"$OUT/gen.log" 2>&1 &
	pid=$!
	sleep "$gen_seconds"
	# detached (or ejected by itself meanwhile); a call still in its loop ends
	timeout 60 $BPFDRV unload "$name" >/dev/null 2>&1
	if ! wait_for 60 node_gone "$name" || ! wait_for 90 eval "! kill -0 $pid 2>/dev/null"; then
		nok "fuzz: $name detaches and its callers return within 60 s ($obj)"
		kill -9 $pid 2>/dev/null
		return
	fi
	wait $pid || { nok "fuzz: the fuzzer on $name ($obj)"; sed 's/^/#   /' "$OUT/gen.log" | tail -20; }
	echo "# $name attached: $(grep -m1 -o '[0-9]* calls in [0-9]* s' "$OUT/gen.log"), then detached"
}
gen_refused=0 gen_attached=0 gen_killed=0 gen_seconds=${BPFDRV_FUZZ_DRIVER_SECONDS:-3}
if ls $TOBJ/gen/*.bpf.o >/dev/null 2>&1; then
	for obj in $TOBJ/gen/*.bpf.o; do
		gen_fuzz "$obj"
	done
	ok "fuzz: $((gen_refused + gen_attached + gen_killed)) random drivers: $gen_refused refused with a reason, $gen_attached attached, fuzzed for ${gen_seconds} s each and detached, $gen_killed killed in a long init and gone"
	echo "# the random drivers took $((SECONDS - phase)) s"
else
	echo "# skip: random drivers (none built: make gen-drivers)"
fi

check "fuzz: load echo and fifo" \
	eval "$BPFDRV load --pin $OBJ/echo.bpf.o && $BPFDRV load --pin $OBJ/fifo.bpf.o"
nodes="/dev/bpfdrv/echo /dev/bpfdrv/fifo"
if [ ${#edus[@]} -ge 2 ]; then
	check "fuzz: load edu on ${edus[0]}" \
		$BPFDRV load --pin --device "${edus[0]}" "$OBJ/edu.bpf.o"
	nodes+=" /dev/bpfdrv/edu0 /dev/bpfdrv/edu1"
	if accel_deps 2>/dev/null && insmod "$ACCEL_KO"; then
		check "fuzz: load edu_accel on ${edus[1]}" \
			$BPFDRV load --pin --device "${edus[1]}" "$OBJ/edu_accel.bpf.o"
		nodes+=" $(ls /dev/accel/accel* 2>/dev/null | tr '\n' ' ')"
	else
		echo "# skip: edu_accel (no DRM accel class here)"
	fi
else
	echo "# skip: edu and edu_accel (want two edu devices)"
fi
echo "# fuzzing: $nodes"

# the other side: the drivers and devices change under the calls
chaos() {
	local i=0

	while [ ! -e "$OUT/stop" ]; do
		i=$((i + 1))
		case $((i % 6)) in
		0) $BPFDRV update echo "$TOBJ/update/echo_v2.bpf.o";;
		1) $BPFDRV unload fifo && $BPFDRV load --pin "$OBJ/fifo.bpf.o";;
		2) [ -n "${edus[0]:-}" ] && $BPFDRV unbind "${edus[0]}" &&
			$BPFDRV bind "${edus[0]}";;
		3) $BPFDRV update echo "$OBJ/echo.bpf.o";;
		4) [ "${BPFDRV_FUZZ_HOTREMOVE:-0}" = 1 ] && [ -n "${edus[0]:-}" ] &&
			echo 1 >"/sys/bus/pci/devices/${edus[0]}/remove" &&
			echo 1 >/sys/bus/pci/rescan && wait_for 10 test -e "/sys/bus/pci/devices/${edus[0]}" &&
			$BPFDRV bind "${edus[0]}";;
		5) [ -n "${edus[1]:-}" ] && [ -d /sys/module/bpfdrv_accel ] &&
			$BPFDRV unload edu_accel &&
			$BPFDRV load --pin --device "${edus[1]}" "$OBJ/edu_accel.bpf.o";;
		esac >/dev/null 2>&1
		sleep 0.$((RANDOM % 10))
	done
	echo "$i" >"$OUT/chaos"
}
# guided by the kernel's coverage where it has KCOV (the debug kernel),
# with the corpus of earlier runs where the harness keeps one
guide=()
[ -e /sys/kernel/debug/kcov ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
if [ -e /sys/kernel/debug/kcov ]; then
	guide=(-k)
	[ -n "${BPFDRV_FUZZ_CORPUS:-}" ] && [ -w "$BPFDRV_FUZZ_CORPUS" ] &&
		guide+=(-c "$BPFDRV_FUZZ_CORPUS")
else
	echo "# the calls are not guided by coverage: no KCOV in this kernel (the debug kernel has it)"
fi
chaos &
chaos_pid=$!
tap_run timeout -k 10 $((seconds + 90)) $B/selftests/fuzz_sys -t "$threads" -s "$seconds" \
	-S "$seed" "${guide[@]}" $nodes
touch "$OUT/stop"
wait $chaos_pid
echo "# the other side changed drivers and devices $(cat "$OUT/chaos") times"

# everything detaches and unloads after it
for d in echo fifo edu edu_accel; do
	$BPFDRV unload "$d" >/dev/null 2>&1
done
for b in "${edus[@]}"; do
	[ "$(driver_of "$b")" = bpfdrv ] && $BPFDRV unbind "$b" >/dev/null 2>&1
done
if [ -d /sys/module/bpfdrv_accel ]; then
	check "fuzz: bpfdrv_accel.ko unloads after it" wait_for 60 rmmod bpfdrv_accel
fi
check "fuzz: bpfdrv.ko unloads after it (nothing holds it)" wait_for 60 rmmod bpfdrv
