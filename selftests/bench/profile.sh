# SPDX-License-Identifier: GPL-2.0
# make bench's profiles, in the guest (sourced by guest-bench.sh): where a
# path's time goes, as kernel stacks that bpftrace's profile probe samples
# from one process (ioloop, on CPU 0), aggregated by profile.py into a JSON
# line. The same loop runs on two builds of a driver in the same boot, so
# before and after a change are side by side.
#
#   profile_run LABEL SECONDS IOLOOP-ARGS...

PROFILE_HZ=997

profile_run() {
	local label=$1 secs=$2

	shift 2
	bpftrace -f json -e "profile:hz:$PROFILE_HZ /pid == cpid/ { @[kstack(16)] = count(); }" \
		-c "taskset -c 0 $B/selftests/bench/ioloop $* $secs" 2>"$OUT/profile.err" |
		python3 selftests/bench/profile.py "$label" "$secs" ||
		{ echo "# error: profile '$label' failed"; sed 's/^/# /' "$OUT/profile.err"; }
}
