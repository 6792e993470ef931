#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench, on the host side: turn the guest's JSON lines into medians,
ratios and targets. Writes DIR/results.json, DIR/results.md (the tables,
also printed) and DIR/chart.dat (for chart.gp).

    report.py DIR        (DIR holds guest.log and meta from run.sh)

A figure is the median over repetitions of one cell's ops/s, p50 or p99;
ratios are of median ops/s, both sides from the same boot.
"""
import json
import statistics
import sys

# (bench, numerator, denominator): the ratios the issue asks for
RATIOS = [
	("echo", "bpfdrv", "native"),
	("echo", "bpfdrv", "buffered"),
	("echo", "bpfdrv", "cuse"),
	("echo", "native", "floor"),
	("edu", "bpfdrv", "native"),
	("edu", "mmap", "uio"),
	("edu", "mmap", "native"),
	("edu", "mmap", "vfio"),
	("edu", "bpfdrv", "thread"),
	("edu", "accel", "bpfdrv"),
	("edu", "accel", "native"),
	("edu", "accel1", "bpfdrv"),
	("edu", "accel_sched", "bpfdrv"),
]

# Targets to report against (never asserted): bpfdrv/native per size,
# bpfdrv/CUSE everywhere.
NATIVE_TARGET = {"read1": 0.90, "write1": 0.90, "read4k": 0.95, "write4k": 0.95}
CUSE_TARGET = 10.0

WORKLOAD_TEXT = {
	"read1": "read 1 B", "read4k": "read 4 KiB", "write1": "write 1 B",
	"write4k": "write 4 KiB", "ioctl": "ioctl round trip",
	"openclose": "open+close", "reg": "register round trip",
	"fact": "factorial + interrupt",
	"dma": "DMA of 4 KiB, to the device and back",
	"fact_pipe": "factorial jobs, 4 in flight per submitter",
}

# The tracing section: per-call cost under each tracer against untraced.
TRACE_WORKLOADS = {"drm_version": ("DRM_IOCTL_VERSION", "-g drm"),
		   "echo_read1": ("bpfdrv echo read 1 B", "-g bpfdrv"),
		   "accel_job": ("edu_accel factorial job, submit to fence (its interrupt)",
				 "-g iommu")}
TRACE_TARGET = 1.3	# all groups <= 1.3x untraced, and <= bpftrace

ECHO_IMPLS = ("bpfdrv", "buffered", "native", "cuse", "floor")


def load(dirname):
	cells, trace, memory, timer, kernel, env = [], [], None, None, "?", []
	profiles, trace_progs, trace_ways = [], [], []
	with open(f"{dirname}/guest.log", errors="replace") as f:
		for line in f:
			line = line.strip()
			if line.startswith("# kernel "):
				kernel = line[len("# kernel "):]
			if line.startswith("# env: "):
				env.append(line[len("# env: "):])
			if not line.startswith('{"bench"'):
				continue
			obj = json.loads(line)
			if obj["bench"] == "memory":
				memory = obj
			elif obj["bench"] == "trace":
				trace.append(obj)
			elif obj["bench"] == "profile":
				profiles.append(obj)
			elif obj["bench"] == "timer":
				timer = obj["cost_ns"]
			elif obj["bench"] == "trace_prog":
				trace_progs.append(obj)
			elif obj["bench"] == "trace_way":
				trace_ways.append(obj)
			else:
				cells.append(obj)
	meta = {}
	try:
		with open(f"{dirname}/meta") as f:
			meta = dict(l.strip().split("=", 1) for l in f if "=" in l)
	except OSError:
		pass
	meta["env"] = env
	meta["profiles"] = profiles
	meta["trace_progs"] = trace_progs
	meta["trace_ways"] = trace_ways
	return cells, trace, memory, timer, kernel, meta


def summarize(cells):
	"""{(bench, workload, threads): {impl: {ops_per_s, p50_ns, p99_ns, reps}}}"""
	groups = {}
	for c in cells:
		key = (c["bench"], c["workload"], c["threads"])
		groups.setdefault(key, {}).setdefault(c["impl"], []).append(c)
	out = {}
	for key, impls in groups.items():
		out[key] = {}
		for impl, runs in impls.items():
			ops = statistics.median(r["ops_per_s"] for r in runs)
			if not ops:
				# no whole batch in a cell (edu's DMA takes 100 ms a
				# transfer): the plain mean rate
				ops = statistics.median(r.get("mean_ops_per_s", 0) for r in runs)
			out[key][impl] = {
				"ops_per_s": ops,
				"p50_ns": statistics.median(r["p50_ns"] for r in runs),
				"p99_ns": statistics.median(r["p99_ns"] for r in runs),
				"reps": len(runs),
			}
	return out


def summarize_trace(trace):
	"""{workload: {tracer: {ns_per_call, ratio, reps}}}, ratio to untraced.

	Under TCG the guest's speed moves between two levels for tens of
	seconds at a time (untraced DRM_IOCTL_VERSION 1.7 or 2.5 us), so a
	tracer's ratio is the median over rounds of its figure against the
	untraced run just before it (tracing.sh runs one before each tracer),
	not against the untraced median."""
	out = {}
	for wl in TRACE_WORKLOADS:
		runs, ratios, last = {}, {}, None
		for t in trace:
			if t["workload"] != wl:
				continue
			runs.setdefault(t["tracer"], []).append(t["ns_per_call"])
			if t["tracer"] == "none":
				last = t["ns_per_call"]
			elif last:
				ratios.setdefault(t["tracer"], []).append(t["ns_per_call"] / last)
		if "none" not in runs:
			continue
		base = statistics.median(runs["none"])
		out[wl] = {tr: {"ns_per_call": statistics.median(v),
				"ratio": statistics.median(ratios[tr]) if tr in ratios else
					 statistics.median(v) / base if base else None,
				"reps": len(v)} for tr, v in runs.items()}
	return out


# Tracers in table order: (key, name, what it records per call).
TRACERS = [
	("none", "untraced", ""),
	("all", "bpfdrv trace", "count, errors, latency histogram, per process"),
	("all-iommu", "bpfdrv trace -g all",
	 "the same, and DMA mappings and faults of every device (-g iommu)"),
	("group", "bpfdrv trace -g GROUP", "the same, one group"),
	("fentry", "bpfdrv trace --fentry", "the same, fentry/fexit"),
	("kprobe-multi", "bpfdrv trace --kprobe-multi", "the same, kprobe.multi"),
	("kprobes", "bpfdrv trace --kprobes", "the same, kprobe/kretprobe"),
	("syscalls", "bpfdrv trace --syscalls",
	 "the same, from the system calls on the device's file"),
	("count", "bpfdrv trace -C",
	 "count per process, at entry (bpfdrv_fop: at return)"),
	("bpftrace", "bpftrace, kprobe count", "count, at entry"),
	("bpftrace-keyed", "bpftrace, kprobe count per key",
	 "count per process and ioctl/minor, at entry"),
	("bpftrace-lat", "bpftrace, kprobe+kretprobe", "count, latency histogram"),
	("bpftrace-fentry", "bpftrace, fentry count", "count, at entry (BPF trampoline)"),
	("bpftrace-pair", "bpftrace, empty fentry + fexit count",
	 "count at return, nothing at entry: timing each call's floor"),
	("bpftrace-fentry-lat", "bpftrace, fentry+fexit", "count, latency histogram"),
]


def trace_targets(fig):
	"""The issue's targets, and the like-for-like comparisons."""
	def cmp(a, b, what):
		if a in fig and b in fig:
			ok = fig[a]["ratio"] <= fig[b]["ratio"]
			return [f"{what} {'met' if ok else 'MISSED'}"]
		return []
	notes = []
	if "all" in fig:
		ok = fig["all"]["ratio"] <= TRACE_TARGET
		notes.append(f"all <= {TRACE_TARGET}x {'met' if ok else 'MISSED'}")
	if "all-iommu" in fig:
		ok = fig["all-iommu"]["ratio"] <= TRACE_TARGET
		notes.append(f"-g all <= {TRACE_TARGET}x {'met' if ok else 'MISSED'}")
	notes += cmp("all", "bpftrace", "all <= bpftrace count")
	notes += cmp("all", "bpftrace-lat", "all <= bpftrace latency")
	notes += cmp("all", "bpftrace-fentry-lat", "all <= bpftrace fentry latency")
	notes += cmp("count", "bpftrace", "-C <= bpftrace count")
	notes += cmp("count", "bpftrace-keyed", "-C <= bpftrace count per key")
	notes += cmp("bpftrace-pair", "bpftrace", "timing's floor <= bpftrace count")
	return notes


# The hook each loop crosses, per (tracer session, workload): its --list
# line says which way it got (trace_way lines, tracing.sh's trace_ways).
TRACE_HOOKS = {"drm_version": "drm_ioctl", "echo_read1": "read", "accel_job": "dev_irq"}
# the sessions that trace every group, by the default's way and each way first
WAY_TRACERS = ("all", "fentry", "kprobe-multi", "kprobes", "syscalls")


def trace_way(ways, tracer, wl):
	"""The way the hook of loop @wl got under session @tracer, or None."""
	group = {"drm_version": "drm", "echo_read1": "bpfdrv",
		 "accel_job": "iommu"}[wl] if tracer == "group" else ""
	hook = "drm_ioctl" if (wl, tracer) == ("accel_job", "all") else TRACE_HOOKS[wl]
	for w in ways:
		if w["tracer"] == tracer and w.get("group", "") == group and \
		   w.get("hook") == hook:
			return w["kind"] if w["kind"] != "-" else "not attached"
	return None


def trace_way_lines(tsum, ways):
	"""Per loop: the default's way beside every way, and why it is that."""
	lines = []
	why = next((w["why"] for w in ways if w["tracer"] == "all" and "why" in w), None)
	for wl in [wl for wl in TRACE_WORKLOADS if wl in tsum]:
		fig = tsum[wl]
		got = {t: (trace_way(ways, t, wl), fig[t]["ratio"]) for t in WAY_TRACERS
		       if t in fig and fig[t].get("ratio") is not None}
		if "all" not in got:
			continue
		dway, dratio = got["all"]
		cells = [f"{'default' if t == 'all' else '--' + t} ({w or '?'}) {r:.2f}x"
			 for t, (w, r) in got.items()]
		if "bpftrace" in fig:
			cells.append(f"bpftrace count {fig['bpftrace']['ratio']:.2f}x")
		cheap = min(got, key=lambda t: got[t][1])
		line = f"Ways, {TRACE_WORKLOADS[wl][0]}: " + "; ".join(cells) + ". "
		if got[cheap][0] == dway:
			line += f"The default's way ({dway}) is the cheapest measured"
		else:
			line += (f"The default ({dway}) is not the cheapest way measured "
				 f"({got[cheap][0]}, {got[cheap][1]:.2f}x)")
		if "bpftrace" in fig:
			ok = fig["all"]["ratio"] <= fig["bpftrace"]["ratio"]
			line += (f"; default <= bpftrace count {'met' if ok else 'MISSED'}")
			floor, lat = fig.get("bpftrace-pair"), fig.get("bpftrace-fentry-lat")
			if not ok and floor and lat:
				line += ("; timing each call has a floor of"
					 f" {floor['ratio']:.2f}x (an empty fentry and a count"
					 " at fexit), and bpftrace's latency one-liner on"
					 f" fentry/fexit costs {lat['ratio']:.2f}x")
		if why and dway in ("kprobe.multi", "fentry", "kprobe"):
			line += f" (functions: {why})"
		elif why and dway == "tracepoint":
			line += (" (bpfdrv's own tracepoint goes before its functions, "
				 f"and is exact; functions: {why})")
		lines.append(line + ".")
	starts = [w for w in ways if "startup_s" in w]
	if starts:
		lines += ["", "Start-up of each session (`--list`: probing, loading and "
			  "attaching every hook): " + "; ".join(
			  f"{'default' if w['tracer'] == 'all' else '-g ' + w['group'] if w['tracer'] == 'group' else '-C' if w['tracer'] == 'count' else '--' + w['tracer']}"
			  f" {w['startup_s']:.2f} s (loading {w['load_s']:.2f} s, functions "
			  f"{w['attach_functions_s']:.2f} s)" for w in starts) + "."]
	return lines


def trace_table(tsum, ways=()):
	wls = [wl for wl in TRACE_WORKLOADS if wl in tsum]
	lines = ["", "Tracing: ns per call, median over interleaved rounds (the"
		 " ratio: median over rounds of each run against the untraced run"
		 " just before it; and the way the loop's hook got):", "",
		 "| tracer | records per call | " +
		 " | ".join(f"{TRACE_WORKLOADS[wl][0]} (`{TRACE_WORKLOADS[wl][1]}`)"
			    for wl in wls) + " |",
		 "|---|---|" + "---|" * len(wls)]
	for key, name, what in TRACERS:
		cols = []
		for wl in wls:
			f = tsum[wl].get(key)
			if not f:
				cols.append("-")
			elif key == "none":
				cols.append(f"{f['ns_per_call']:.0f}")
			else:
				way = trace_way(ways, key, wl) if key in WAY_TRACERS + \
					("group", "count", "all-iommu") else None
				cols.append(f"{f['ns_per_call']:.0f} ({f['ratio']:.2f}x"
					    f"{', ' + way if way else ''})")
		if any(c != "-" for c in cols):
			lines.append(f"| {name} | {what} | " + " | ".join(cols) + " |")
	lines.append("")
	for wl in wls:
		lines.append(f"Targets, {TRACE_WORKLOADS[wl][0]}: " +
			     "; ".join(trace_targets(tsum[wl])) + ".")
	return lines + [""] + trace_way_lines(tsum, ways)


def trace_prog_lines(progs):
	"""The tracing programs' own run time per call (bpf_stats)."""
	runs = [f"{p['prog']} {p['run_time_ns'] / p['run_cnt']:.0f} ns"
		for p in progs if p.get("run_cnt")]
	if not runs:
		return []
	return ["", "The programs' own time per run (`kernel.bpf_stats_enabled`, "
		"one session with every group, every loop): " + ", ".join(runs) +
		". The rest of what a tracer adds is the mechanism: probe or "
		"tracepoint dispatch, and the clock reads.", ""]


def ratio(fig, a, b):
	if a in fig and b in fig and fig[b]["ops_per_s"] > 0:
		return fig[a]["ops_per_s"] / fig[b]["ops_per_s"]
	return None


def fmt_ops(v):
	return f"{v / 1000:.1f} k" if v >= 1000 else f"{v:.0f}" if v >= 10 else f"{v:.1f}"


def fmt_us(ns):
	return f"{ns / 1000:.1f}"


def target_text(workload, r_native, r_cuse):
	notes = []
	t = NATIVE_TARGET.get(workload)
	if t is not None and r_native is not None:
		notes.append(f"native {'met' if r_native >= t else 'MISSED'} (>= {t:.2f})")
	if r_cuse is not None:
		notes.append(f"CUSE {'met' if r_cuse >= CUSE_TARGET else 'MISSED'} (>= {CUSE_TARGET:.0f}x)")
	return "; ".join(notes)


def profile_table(profiles):
	"""Where each profiled loop's time goes, as shares of its samples."""
	lines = ["", "Profiles: kernel stacks of one looping process, sampled"
		 " by bpftrace (profile:hz:997), as % of its samples. user ="
		 " samples in user mode; the top functions are where samples"
		 " landed (leaf), the frames column counts a sample for every"
		 " listed frame on its stack (inclusive).", "",
		 "| loop | rounds/s | samples | user | top leaf functions |"
		 " inclusive frames |", "|---|---|---|---|---|---|"]
	for p in profiles:
		n = p["samples"] or 1
		leaf = ", ".join(f"{sym} {100 * c / n:.0f}%" for sym, c in p["leaf"][:6])
		incl = ", ".join(f"{f} {100 * c / n:.0f}%" for f, c in
				 sorted(p["incl"].items(), key=lambda x: -x[1]))
		rate = p["rounds"] / p["secs"] if p.get("rounds") else 0
		lines.append(f"| {p['label']} | {rate:.0f} | {p['samples']} |"
			     f" {100 * p['user'] / n:.0f}% | {leaf} | {incl} |")
	return lines


def jobs_table(summary):
	"""edu_accel's factorial jobs against the edu driver's ioctl path."""
	ioctl = summary.get(("edu", "fact", 1), {}).get("bpfdrv")
	rows = []
	for impl, ring, path in (("accel1", 1, "direct"), ("accel", 4, "direct"),
				 ("accel_sched", 4, "scheduler")):
		for wl, depth in (("fact", 1), ("fact_pipe", 4)):
			for threads in (1, 4):
				fig = summary.get(("edu", wl, threads), {}).get(impl)
				if not fig:
					continue
				r = f"{fig['ops_per_s'] / ioctl['ops_per_s']:.2f}" if ioctl else "-"
				rows.append(f"| {path} | {ring} | {threads} | {depth} |"
					    f" {fmt_ops(fig['ops_per_s'])} | {r} |"
					    f" {fmt_us(fig['p50_ns'])} / {fmt_us(fig['p99_ns'])} |")
	if not rows:
		return []
	return ["", "edu_accel's factorial jobs (10!, a job of one value),"
		" by how a job for an idle ring starts (direct: from its submit;"
		" scheduler: direct_submit=N, every job through the DRM"
		" scheduler), the jobs its ring has on the device at once"
		" (edu_accel1: 1, edu_accel: 4), its submitters (each on a file"
		" of its own) and the jobs each keeps in flight; against the edu"
		" driver's factorial ioctl path (bpfdrv, 1 thread, median over"
		" the rounds). p50 / p99: per op (submit to fence; in flight: the"
		" oldest waited for, the next submitted).", "",
		"| path | ring jobs | submitters | in flight each | jobs/s |"
		" / ioctl path | p50 / p99 µs |", "|---|---|---|---|---|---|---|"] + rows


def tables(summary, tsum, memory, timer, kernel, meta, reps):
	lines = [f"Kernel {kernel}, accelerator {meta.get('accel', '?')}"
		 f" (TCG = software emulation: absolute figures are far below"
		 f" hardware, only ratios carry over), median of {reps}"
		 f" interleaved repetitions; timer cost {timer} ns subtracted"
		 f" per operation. Guest: {'; '.join(meta.get('env', []))}.", ""]
	echo = sorted(k for k in summary if k[0] == "echo")
	if echo:
		lines += ["echo: bpfdrv = echo.bpf.c (direct I/O: ring <-> caller),"
			  " buffered = the same driver built without"
			  " BPFDRV_F_DIRECT_IO (ring -> kernel buffer -> caller,"
			  " as before ABI 5), native = echo_native.ko, CUSE ="
			  " cuse_echo, floor = /dev/zero and /dev/null.", "",
			  "| workload | threads | bpfdrv ops/s | buffered ops/s"
			  " | native ops/s | CUSE ops/s | floor ops/s | bpfdrv/native"
			  " | bpfdrv/buffered | bpfdrv/CUSE | native/floor | targets |",
			  "|---|---|---|---|---|---|---|---|---|---|---|---|"]
		order = list(WORKLOAD_TEXT)
		echo.sort(key=lambda k: (order.index(k[1]), k[2]))
		for key in echo:
			fig = summary[key]
			rn = ratio(fig, "bpfdrv", "native")
			rb = ratio(fig, "bpfdrv", "buffered")
			rc = ratio(fig, "bpfdrv", "cuse")
			rf = ratio(fig, "native", "floor")
			cols = [fmt_ops(fig[i]["ops_per_s"]) if i in fig else "-"
				for i in ECHO_IMPLS]
			lines.append(f"| {WORKLOAD_TEXT[key[1]]} | {key[2]} | " +
				     " | ".join(cols) + " | " +
				     " | ".join("-" if r is None else f"{r:.2f}"
						for r in (rn, rb, rc, rf)) +
				     f" | {target_text(key[1], rn, rc)} |")
		lines += ["", "Per-operation latency, µs (median over repetitions"
			  " of each cell's p50 / p99):", "",
			  "| workload | threads | bpfdrv p50 / p99 | buffered p50 / p99"
			  " | native p50 / p99 | CUSE p50 / p99 | floor p50 / p99 |",
			  "|---|---|---|---|---|---|---|"]
		for key in echo:
			fig = summary[key]
			cols = [f"{fmt_us(fig[i]['p50_ns'])} / {fmt_us(fig[i]['p99_ns'])}"
				if i in fig else "-"
				for i in ECHO_IMPLS]
			lines.append(f"| {WORKLOAD_TEXT[key[1]]} | {key[2]} | " +
				     " | ".join(cols) + " |")
	edu = sorted(k for k in summary if k[0] == "edu")
	if edu:
		impls = ("bpfdrv", "native", "mmap", "uio", "vfio", "thread", "accel",
			 "accel1", "accel_sched")
		lines += ["", "edu: bpfdrv = the edu driver's ioctl/read interface"
			  " (interrupts in irq_hard, direct I/O),"
			  " native = edu_ref.ko, mmap = registers through the edu"
			  " driver's mmap window, uio = uio_pci_generic (sysfs BAR"
			  " mapping, interrupts by read() of /dev/uioN), vfio ="
			  " vfio-pci (BAR mapped from the device fd, MSI on an eventfd,"
			  " DMA into the process's memory through the guest's IOMMU,"
			  " polled as mmap's), thread = the ABI-3 edu (interrupts in the irq callback, run by"
			  " the IRQ thread; I/O through the kernel buffer), on the"
			  " second function in a round of its own beside bpfdrv (whose"
			  " figures are medians over both its rounds, as mmap's over"
			  " the uio and vfio rounds); a bpfdrv"
			  " window gives no interrupts to user space, so mmap has"
			  " no factorial (its DMA polls the device), and"
			  " uio_pci_generic no memory the device may DMA to, so uio"
			  " has no DMA; accel = edu_accel, the accelerator class"
			  " (docs/accel.md): the factorial as a job of one value,"
			  " the DMA as a job of 4 KiB to the device and back,"
			  " from its submit to its fence signalled (syncobj wait),"
			  " on the second function in a round of its own beside"
			  " bpfdrv (4 jobs on the device at once; accel1: edu_accel"
			  " with one, in a round of its own; accel_sched: edu_accel"
			  " with every job through the DRM scheduler); with 4 submitters,"
			  " each on a file of its own, the ops/s are the jobs of"
			  " all four.", "",
			  "| edu workload | " + " | ".join(f"{i} ops/s" for i in impls) +
			  " | bpfdrv/native | mmap/uio | mmap/vfio | mmap/native"
			  " | bpfdrv/thread | accel/bpfdrv | accel/native"
			  " | accel1/bpfdrv | accel_sched/bpfdrv | " +
			  " | ".join(f"{i} p50 / p99 µs" for i in impls) + " |",
			  "|---|" + "---|" * (2 * len(impls) + 9)]
		for key in edu:
			fig = summary[key]
			rs = [ratio(fig, a, b) for a, b in
			      (("bpfdrv", "native"), ("mmap", "uio"), ("mmap", "vfio"),
			       ("mmap", "native"), ("bpfdrv", "thread"),
			       ("accel", "bpfdrv"), ("accel", "native"),
			       ("accel1", "bpfdrv"), ("accel_sched", "bpfdrv"))]
			ops = [fmt_ops(fig[i]["ops_per_s"]) if i in fig else "-" for i in impls]
			lat = [f"{fmt_us(fig[i]['p50_ns'])} / {fmt_us(fig[i]['p99_ns'])}"
			       if i in fig else "-" for i in impls]
			who = f", {key[2]} submitters" if key[2] > 1 else ""
			lines.append(f"| {WORKLOAD_TEXT.get(key[1], key[1])}{who} | " +
				     " | ".join(ops) + " | " +
				     " | ".join("-" if r is None else f"{r:.2f}" for r in rs) +
				     " | " + " | ".join(lat) + " |")
		lines += jobs_table(summary)
	if meta.get("profiles"):
		lines += profile_table(meta["profiles"])
	if tsum:
		lines += trace_table(tsum, meta["trace_ways"]) + \
			trace_prog_lines(meta["trace_progs"])
	if memory:
		m = memory
		s = m.get("struct_bytes", {})
		files = m.get("measured_file_bytes", {})
		lines += ["", "Kernel memory of one attached driver:", "",
			  "| item | bytes |", "|---|---|",
			  f"| bpfdrv.ko core (text + data, once for all drivers) | {m['bpfdrv_module_core_bytes']} |",
			  f"| echo_native.ko core (includes its 128 KiB ring) | {m['native_module_core_bytes']} |",
			  f"| echo BPF programs: {m['programs']}, JIT code | {m['prog_jited_bytes']} |",
			  f"| echo BPF programs, memlock | {m['prog_memlock_bytes']} |",
			  f"| echo maps: {m['maps']} (ring state + struct_ops), memlock | {m['map_memlock_bytes']} |",
			  f"| struct bpfdrv_device (per attached driver) | {s.get('bpfdrv_device', '?')} |",
			  f"| struct bpfdrv_stats x {m['possible_cpus']} possible CPUs (per driver) | "
			  f"{s.get('bpfdrv_stats', 0) * m['possible_cpus']} |",
			  f"| struct bpfdrv_file_kern (per open file) | {s.get('bpfdrv_file_kern', '?')} |",
			  "| I/O buffer (per open file, from its first ioctl, or read or write without direct I/O, of more than 64 B) | 4096 |",
			  f"| measured: kernel memory per extra attached echo instance | {m['measured_instance_bytes']} |",
			  f"| measured: per open file after 1 B I/O, bpfdrv / native / CUSE | "
			  f"{files.get('bpfdrv_1', '?')} / {files.get('native_1', '?')} / {files.get('cuse_1', '?')} |",
			  f"| measured: per open file after 4 KiB I/O, bpfdrv / native / CUSE | "
			  f"{files.get('bpfdrv_4096', '?')} / {files.get('native_4096', '?')} / {files.get('cuse_4096', '?')} |"]
	return lines


def chart_data(summary, path):
	"""One row per echo workload and thread count: ops/s of each impl."""
	order = list(WORKLOAD_TEXT)
	keys = sorted((k for k in summary if k[0] == "echo"),
		      key=lambda k: (order.index(k[1]), k[2]))
	with open(path, "w") as f:
		f.write("# label bpfdrv native cuse floor (ops/s)\n")
		for k in keys:
			fig = summary[k]
			vals = [f"{fig[i]['ops_per_s']:.1f}" if i in fig else "NaN"
				for i in ("bpfdrv", "native", "cuse", "floor")]
			label = f"{WORKLOAD_TEXT[k[1]]}, {k[2]}T"
			f.write(f'"{label}" ' + " ".join(vals) + "\n")


def main():
	if len(sys.argv) != 2:
		sys.exit("usage: report.py DIR")
	d = sys.argv[1]
	try:
		cells, trace, memory, timer, kernel, meta = load(d)
	except (OSError, ValueError) as e:
		sys.exit(f"report.py: {d}/guest.log: {e}")
	if not cells:
		sys.exit(f"report.py: no results in {d}/guest.log")
	summary = summarize(cells)
	tsum = summarize_trace(trace)
	# mmap runs in two rounds (beside uio, beside vfio): the usual count
	reps = statistics.mode(v["reps"] for fig in summary.values() for v in fig.values())
	ratios = []
	for bench, a, b in RATIOS:
		for key, fig in sorted(summary.items()):
			r = ratio(fig, a, b)
			if key[0] == bench and r is not None:
				ratios.append({"bench": bench, "workload": key[1],
					       "threads": key[2], "ratio": f"{a}/{b}",
					       "value": round(r, 3)})
	result = {
		"kernel": kernel, "accel": meta.get("accel"), "repetitions": reps,
		"environment": meta["env"],
		"timer_cost_ns": timer,
		"medians": [{"bench": k[0], "workload": k[1], "threads": k[2],
			     "impl": impl, **v}
			    for k, fig in sorted(summary.items())
			    for impl, v in fig.items()],
		"ratios": ratios, "memory": memory, "runs": cells,
		"tracing": [{"workload": wl, "tracer": tr, **{k: round(v, 3)
			     if isinstance(v, float) else v for k, v in f.items()}}
			    for wl, fig in tsum.items() for tr, f in fig.items()],
		"tracing_runs": trace,
		"profiles": meta["profiles"],
		"tracing_programs": meta["trace_progs"],
		"tracing_ways": meta["trace_ways"],
	}
	with open(f"{d}/results.json", "w") as f:
		json.dump(result, f, indent=1)
	lines = tables(summary, tsum, memory, timer, kernel, meta, reps)
	with open(f"{d}/results.md", "w") as f:
		f.write("\n".join(lines) + "\n")
	chart_data(summary, f"{d}/chart.dat")
	print("\n".join(lines))


if __name__ == "__main__":
	main()
