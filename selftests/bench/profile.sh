# SPDX-License-Identifier: GPL-2.0
# make bench's profiles, in the guest (sourced by guest-bench.sh): where a
# path's time goes, as kernel stacks that bpftrace's profile probe samples
# from a process looping over it (ioloop, on CPU 0), reduced by profile.py
# to one JSON line per loop. Loops given together run one after the other
# under one bpftrace (which takes long to start under TCG), each under its
# own name (comm), so the probe tells them apart; they run in the same boot,
# so before and after a change are side by side.
#
#   profile_run SECONDS "LABEL|IOLOOP-ARGS" ...

PROFILE_HZ=997

profile_run() {
	local secs=$1 i=0 spec prog="" labels=()

	shift
	: >"$OUT/profile.cmds"
	for spec in "$@"; do
		labels+=("${spec%%|*}")
		ln -sf "$(realpath $B/selftests/bench/ioloop)" "$OUT/pl_$i"
		prog+="profile:hz:$PROFILE_HZ /comm == \"pl_$i\"/ { @p$i[kstack(16)] = count(); }
"
		echo "echo PROFILE $i \$(taskset -c 0 $OUT/pl_$i ${spec#*|} $secs)" \
			>>"$OUT/profile.cmds"
		i=$((i + 1))
	done
	bpftrace -f json -e "$prog" -c "/bin/sh $OUT/profile.cmds" 2>"$OUT/profile.err" |
		python3 selftests/bench/profile.py "$secs" "${labels[@]}" ||
		{ echo "# error: profiles failed: ${labels[*]}"; sed 's/^/# /' "$OUT/profile.err"; }
}
