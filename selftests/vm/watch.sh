#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh: runs in the background (launch), the watch on a
# guest's console (watch_guest) and its bound (boot_limit). Needs log()
# and BPFDRV_CACHE; max_jobs and the job_* arrays are run.sh's.
# selftests/vm/test-watch.sh tests it with guests that are shell functions.

# A guest's first line is guest.sh's "# kernel" (the demo's "== kernel"):
# one still silent after boot_limit seconds is stopped, the end of its
# console shown, and booted once more (a fresh machine's first guest once
# printed nothing for 17 minutes; booted again, it took 86 s). The bound:
# BPFDRV_BOOT_LIMIT, else three times the slowest first line of that
# kernel's recorded boots here (120 s at least), else 600 s.
boot_times=$BPFDRV_CACHE/boot-seconds
boot_limit() {	# boot_limit REL
	local slowest

	if [ -n "${BPFDRV_BOOT_LIMIT:-}" ]; then
		echo "$BPFDRV_BOOT_LIMIT"
		return
	fi
	slowest=$(awk -v r="$1" '$1 == r && $2 > m { m = $2 } END { print m + 0 }' \
		"$boot_times" 2>/dev/null)
	if [ "${slowest:-0}" -gt 0 ]; then
		echo $((slowest * 3 > 120 ? slowest * 3 : 120))
	else
		echo 600
	fi
}
# (cat, not awk, reads /proc: awk stops at a process that ended meanwhile)
kill_tree() {	# kill_tree PID: it and every process under it (no procps needed)
	local child

	kill -STOP "$1" 2>/dev/null	# no new children meanwhile
	for child in $(cat /proc/[0-9]*/stat 2>/dev/null |
		       awk -v p="$1" '{ pid = $1; sub(/.*\) /, ""); if ($2 == p) print pid }'); do
		kill_tree "$child"
	done
	kill "$1" 2>/dev/null
	kill -CONT "$1" 2>/dev/null
}
# watch_guest LABEL LOG PID LIMIT: until PID ends, say as each of the
# guest's parts ends (its TAP lines and time); stop PID if LOG has no first
# line within LIMIT s (returns 3), and record how long the first line took.
# A guest up but silent for longer than a part may run (guest.sh ends a
# stuck part, or its guest, by then) is frozen: stopped (returns 4), the
# end of its console shown, rather than left to the VM's limit. A guest
# that ended without a first line did not come up (returns 5: the debug
# kernel's init once timed out waiting for udev on a busy host). With END
# (seconds since the epoch), a guest still running then is stopped
# (returns 6): the run's time is spent.
watch_guest() {
	local label=$1 out=$2 pid=$3 limit=$4 end=${5:-} start=$SECONDS seen=0 total
	local first= line part= pstart=0 pok=0 pnok=0 rel=${1%% *} heard=$SECONDS
	local quiet=${BPFDRV_QUIET_LIMIT:-$((${BPFDRV_PART_TIMEOUT:-600} + 300))}

	part_done() {
		[ -n "$part" ] &&
			log "$label: part $part: $pok passed, $pnok failed in $((SECONDS - pstart)) s"
		part=
	}
	while kill -0 "$pid" 2>/dev/null; do
		sleep 2
		total=$(wc -l <"$out" 2>/dev/null || echo 0)
		while IFS= read -r line; do
			case $line in
			"# kernel "*|*"== kernel "*)
				[ -n "$first" ] && continue
				first=$((SECONDS - start))
				echo "$rel $first" >>"$boot_times"
				log "$label: the guest is up after $first s";;
			"# part "*:*)	# left out on this kernel
				;;
			"# part "*" took "*)	# its end, and its time in the guest
				[ -n "$part" ] &&
					log "$label: part $part: $pok passed, $pnok failed in ${line##* took }"
				part=;;
			"# part "*)
				part_done
				part=${line#\# part } pstart=$SECONDS pok=0 pnok=0;;
			"# guest done"*)
				part_done;;
			"ok - "*) pok=$((pok + 1));;
			"not ok - "*) pnok=$((pnok + 1));;
			esac
		done < <(sed -n "$((seen + 1)),${total}p" "$out" 2>/dev/null | tr -d '\r')
		[ "$total" -gt "$seen" ] && heard=$SECONDS
		seen=$total
		if [ -n "$end" ] && [ "$(date +%s)" -ge "$end" ]; then
			log "$label: the run's time is spent: stopped${part:+ in part $part}"
			kill_tree "$pid"
			return 6
		fi
		if [ -z "$first" ] && [ $((SECONDS - start)) -ge "$limit" ]; then
			kill_tree "$pid"
			return 3
		fi
		if [ -n "$first" ] && [ $((SECONDS - heard)) -ge "$quiet" ]; then
			log "$label: no line from the guest in $quiet s${part:+ (in part $part)}: stopped; the end of its console:"
			tail -n 12 "$out" | tr -d '\r' | sed "s/^/bpfdrv-vm:   | /" >&2
			kill_tree "$pid"
			return 4
		fi
	done
	part_done
	[ -n "$first" ] || return 5
	return 0
}

# launch KIND LABEL LOG CMD...: run CMD in the background once a slot is free;
# its output goes to LOG, its exit status and time to LOG.status. A guest
# (KIND boot) is watched: its parts' progress, and a silent boot, a guest
# that froze or one that ended before it came up, retried once.
# BPFDRV_RUN_END (seconds since the epoch) bounds a guest's run: it is
# stopped then, and booted again only while a boot fits before it; LOG.late
# says why it did not run to its end (report() skips what it did not run).
launch() {
	local kind=$1 label=$2 out=$3 end=${BPFDRV_RUN_END:-}

	shift 3
	while [ "$(jobs -rp | wc -l)" -ge "$max_jobs" ]; do
		wait -n
	done
	log "$label: started (log: ${out#"$BPFDRV_TOP"/})"
	rm -f "$out.status" "$out.silent" "$out.frozen" "$out.late"
	(
		start=$SECONDS limit=$(boot_limit "${label%% *}")
		for try in 1 2; do
			"$@" >"$out" 2>&1 &
			pid=$!
			rc=0
			[ "$kind" = boot ] && { watch_guest "$label" "$out" $pid "$limit" "$end" || rc=$?; }
			if [ $rc = 6 ]; then
				wait $pid 2>/dev/null
				echo "stopped at the run's end" >"$out.late"
				rc=124
				break
			fi
			# a second boot only where it fits before the run's end
			if [ $try = 1 ] && [ $rc != 0 ] && [ -n "$end" ] &&
				[ $(($(date +%s) + limit)) -gt "$end" ]; then
				wait $pid 2>/dev/null
				log "$label: no time left to boot it again before the run's end"
				echo "did not run to its end, and no time was left to boot it again" >"$out.late"
				rc=124
				break
			fi
			# 4: frozen once up (under TCG, once in CI's runs so far,
			# unexplained: docs/testing.md): kept, and booted once more
			if [ $rc = 4 ] && [ $try = 1 ]; then
				wait $pid 2>/dev/null
				mv "$out" "$out.frozen"
				log "$label: booting it once more (the frozen run's log: ${out#"$BPFDRV_TOP"/}.frozen)"
				continue
			fi
			# 5: ended before its first line: shown, booted once more
			if [ $rc = 5 ]; then
				log "$label: the guest ended before it came up; the end of its console:"
				tail -n 12 "$out" | tr -d '\r' | sed "s/^/bpfdrv-vm:   | /" >&2
				if [ $try = 1 ]; then
					wait $pid 2>/dev/null
					mv "$out" "$out.silent"
					log "$label: booting it once more"
					continue
				fi
				rc=0	# its own status, below
			fi
			if [ $rc != 3 ]; then
				wait $pid
				vrc=$?
				if [ $rc = 4 ]; then rc=124; else rc=$vrc; fi
				break
			fi
			wait $pid 2>/dev/null
			rc=124
			mv "$out" "$out.silent"
			log "$label: no line from the guest in $limit s: stopped; the end of its console:"
			tail -n 12 "$out.silent" | tr -d '\r' | sed "s/^/bpfdrv-vm:   | /" >&2
			[ $try = 1 ] && log "$label: booting it once more"
		done
		[ $rc = 124 ] && [ -f "$out.silent" ] && [ ! -s "$out" ] &&
			cp "$out.silent" "$out"
		echo "$rc $((SECONDS - start))" >"$out.status"
	) &
	job_kinds+=("$kind") job_labels+=("$label") job_logs+=("$out") job_pids+=($!)
	job_part_limits+=("${BPFDRV_PART_TIMEOUT:-600}")	# what guest.sh is given
}
