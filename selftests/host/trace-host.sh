#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bpfdrv trace on the build host's own kernel, the kind GPU clouds run
# (no kprobes, fentry refused, no percpu ksyms; see ENVIRONMENT.md): it
# must never fail wholesale, and its syscall mode must count exactly what
# an LD_PRELOAD counter counts. Only tracing programs run on the host; the
# host never loads bpfdrv.ko. Runs inside the bookworm root (the host's C
# library and python3), as root; prints unnumbered TAP lines.
# Usage: trace-host.sh [BPFDRV]
cd "$(dirname "$0")/../.." || exit 1
B=${1:-build/host/user/bpfdrv}	# the tool built with STATIC_LIBBPF=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; }
check() { # DESCRIPTION CMD...
	local what=$1

	shift
	if "$@" >"$out/check.out" 2>&1; then ok "$what"; else
		nok "$what"; sed 's/^/# /' "$out/check.out" | head -20; fi
}

echo "# host kernel $(uname -r), lockdown: $(cat /sys/kernel/security/lockdown 2>/dev/null || echo "not shown")"
if ! [ -x "$B" ]; then
	nok "the host build of bpfdrv exists ($B)"
	exit 0
fi

# --- never wholesale: every hook attached, or skipped with its reason ---
$B trace --list --json >"$out/list.json" 2>"$out/list.err"
check "trace --list exits 0 on the host kernel" test $? -eq 0
python3 - "$out/list.json" <<'EOF2'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
for o in rows:
    if o["type"] == "hook":
        print("# %-7s %-24s %-12s %s" % (o["group"], o["hook"], o["kind"], o["status"][:90]))
    elif o["type"] == "irq_context":
        print("# interrupt context: " + o["how"])
EOF2
check "trace --list: each hook is attached by a named way, or skipped with a reason" \
	python3 -c 'import json, sys
ways = {"fentry", "kprobe.multi", "kprobe", "tracepoint", "syscall", "latency"}
bad = [o for o in map(json.loads, open(sys.argv[1])) if o["type"] == "hook" and not
       ((o["attached"] and o["kind"] in ways) or
        (not o["attached"] and o["kind"] == "-" and len(o["status"]) > len("skipped: ")))]
print(bad)
sys.exit(bool(bad))' "$out/list.json"
check "trace --list says how interrupts are told apart" \
	grep -q '"type":"irq_context"' "$out/list.json"
# a default run: one line on stderr counts the skipped hooks per group and
# groups why (the modules not loaded), as --list of the same groups says
# hook by hook; -q prints none
timeout 60 $B trace -d 0.3 >"$out/default.txt" 2>"$out/default.err"
timeout 60 $B trace -q -d 0.3 >/dev/null 2>"$out/quiet.err"
check "a default run: one stderr line counts the skipped hooks per group and names the modules not loaded, as --list does; -q: none" \
	python3 -c 'import collections, json, re, sys
err = [l for l in open(sys.argv[1]).read().splitlines() if "skipped" in l]
print("stderr:", err)
groups = ("npu", "drm", "bpfdrv", "nvidia")
hooks = [o for o in map(json.loads, open(sys.argv[2]))
         if o["type"] == "hook" and not o["attached"] and o["group"] in groups]
skipped = collections.Counter(o["group"] for o in hooks)
mods = {m for o in hooks for m in re.findall(r"^skipped: module (\S+) not loaded$", o["status"])}
total = sum(skipped.values())
want = "bpfdrv: %d hooks skipped (%s)" % (total, ", ".join(
    "%s %d" % (g, skipped[g]) for g in groups if skipped[g]))
m = re.search(r"modules not loaded: ([^;]*)", err[0]) if len(err) == 1 else None
named = set(m.group(1).split(", ")) if m else set()
print("expected:", want, "modules", sorted(mods), "named", sorted(named))
quiet = open(sys.argv[3]).read()
sys.exit(not (total and len(err) == 1 and err[0].startswith(want) and named == mods
              and err[0].endswith("bpfdrv trace -l says why") and "skipped" not in quiet))' \
	"$out/default.err" "$out/list.json" "$out/quiet.err"
timeout 60 $B trace -g drm -q -d 0.5 >"$out/drm.txt" 2>&1
check "trace -g drm runs with what attaches (the dma_fence tracepoints) and exits 0" \
	eval "[ $? -eq 0 ] && grep -q 'Traced for' '$out/drm.txt'"
$B trace -g drm --irq-tracepoints --list --json >"$out/irqtp.json" 2>&1
check "trace --irq-tracepoints: interrupts are told by tracepoints" \
	grep -q '"how":"told by [1-9][0-9]* irq, softirq' "$out/irqtp.json"
# the iommu group: each of its tracepoints that tracefs lists is attached
$B trace -g iommu --list --json >"$out/iommu.json" 2>"$out/iommu.err"
check "trace -g iommu --list: each tracepoint the host has is attached, the rest skipped" \
	python3 -c 'import json, os, sys
tp = {n for s in ("dma", "iommu", "intel_iommu")
      for n in (os.listdir("/sys/kernel/tracing/events/" + s)
                if os.path.isdir("/sys/kernel/tracing/events/" + s) else [])}
hooks = [o for o in map(json.loads, open(sys.argv[1])) if o["type"] == "hook"]
bad = [o["hook"] for o in hooks if o["kind"] in ("tracepoint", "-") and o["target"] in tp
       and not o["attached"]]
print("attached:", sum(o["attached"] for o in hooks), "of", len(hooks), "bad:", bad)
sys.exit(bool(bad) or not hooks)' "$out/iommu.json"
BPFDRV_TRACE_REFUSE=tp_count $B trace -g drm --list --json >"$out/refuse.json" 2>&1
check "a refused program loses only its hooks: fence_wait skipped, fence_init attached" \
	python3 -c 'import json, sys
h = {o["hook"]: o for o in map(json.loads, open(sys.argv[1])) if o["type"] == "hook"}
sys.exit(not (not h["fence_wait"]["attached"] and "refused" in h["fence_wait"]["status"]
              and h["fence_init"]["attached"]))' "$out/refuse.json"
BPFDRV_TRACE_REFUSE=tp_sys_enter $B trace --device /dev/null -d 0.2 >"$out/none.txt" 2>&1
check "nothing attachable: exit status 1 and one line that says so" \
	eval "[ $? -eq 1 ] && grep -q 'nothing to trace' '$out/none.txt'"

# --- the timeline in both formats: the same spans, decoded ---
for tl in t.pftrace t.json; do
	timeout 60 $B trace --device /dev/null -q --perfetto "$out/$tl" -- sh -c \
		'for i in $(seq 300); do echo x >/dev/null; done' >/dev/null 2>"$out/$tl.err"
done
check "trace --perfetto: the protobuf and the JSON timelines of one workload decode to the same 300 writes and their opens" \
	python3 - "$out/t.pftrace" "$out/t.json" <<'EOF2'
import collections, sys
sys.path.insert(0, "selftests")
import timeline
count = lambda path: collections.Counter((e["ph"], e["name"]) for e in timeline.load(path)
                                         if e["ph"] != "M")
proto, js = count(sys.argv[1]), count(sys.argv[2])
print("protobuf:", sorted(proto.items()), "\njson:", sorted(js.items()))
sys.exit(not (proto == js and proto[("X", "write /dev/null")] == 300
              and proto[("X", "open /dev/null")] >= 300))
EOF2

# --- the timeline's flows, no kernel needed: synthetic submits (through
# the scheduler, direct, without a fence; ends lost, begins lost, ends
# first) through user/trace/flows.c to both writers, read back ---
gcc=$(command -v gcc-12 || command -v gcc)
if $gcc -O2 -Wall -Wextra -Wno-unused-parameter -Werror -Iuser -Iinclude -o "$out/tlflows" \
	selftests/test_timeline_flows.c user/trace/flows.c user/trace/timeline_proto.c \
	user/trace/timeline_json.c 2>"$out/tlflows.err"; then
	"$out/tlflows" "$out/flows.pftrace" "$out/flows.json" >"$out/flows.want" 2>&1
	check "timeline flows: every synthetic event written once, in each format" test $? -eq 0
	check "timeline flows: both formats decode to the same flows, each from one submit's span to one job's life or fence's signal, as many as met, none dangling" \
		python3 - "$out/flows.pftrace" "$out/flows.json" "$out/flows.want" <<'EOF2'
import json, sys
sys.path.insert(0, "selftests")
import timeline
want = json.load(open(sys.argv[3]))
got = []
for path in sys.argv[1:3]:
    ev = timeline.load(path, flows=True)
    pairs = timeline.check_flows(ev)
    got.append(sorted((i, s["ts"], e["ph"], e["ts"]) for i, s, e in pairs))
    print("# %s: %d flows (%d to jobs, %d to fences); the generator made %d"
          % (path.split("/")[-1], len(pairs), sum(i & 3 == 1 for i, _, _ in pairs),
             sum(i & 3 == 2 for i, _, _ in pairs), want["flows"]))
# the check must fail on a flow that dangles
ev = timeline.load(sys.argv[2], flows=True)
ev.remove(next(e for e in ev if e["ph"] == "f"))
try:
    timeline.check_flows(ev)
    caught = False
except ValueError as e:
    caught = "dangle" in str(e)
print("# a flow without its end is caught:", caught)
sys.exit(not (got[0] == got[1] and len(got[0]) == want["flows"] and caught))
EOF2
else
	nok "the timeline flow test builds"
	sed 's/^/# /' "$out/tlflows.err" | head
fi

# --- NVIDIA's ioctl names: every define of the header, with its value ---
$B trace --ioctl-names >"$out/names.txt"
check "trace --ioctl-names: NVIDIA's names and numbers are those of its header" \
	python3 - user/nvidia/nv_ioctl_numbers.h "$out/names.txt" <<'EOF2'
import re, sys
defs = dict(re.findall(r"^#define (\w+)\s+(.+?)\s*$", open(sys.argv[1]).read(), re.M))
def value(expr):
    expr = re.sub(r"UVM_IOCTL_BASE\((\d+)\)", r"\1", expr)
    expr = re.sub(r"\b(NV_IOCTL_BASE)\b", defs["NV_IOCTL_BASE"], expr)
    return eval(expr, {})
want = {n: value(v) for n, v in defs.items()
        if (n.startswith("NV_ESC_") or n.startswith("UVM_")) and n != "UVM_IOCTL_BASE(i)"
        and "(" not in n}
got = {l.split()[2]: int(l.split()[1]) for l in open(sys.argv[2])}
bad = {n: (v, got.get(n)) for n, v in want.items() if got.get(n) != v}
extra = set(got) - set(want)
print("# %d names in the header, %d printed; wrong or missing %s, extra %s"
      % (len(want), len(got), bad, extra))
sys.exit(bool(bad or extra))
EOF2

# --- the syscall mode against an LD_PRELOAD counter: threads and forks ---
gcc=$(command -v gcc-12 || command -v gcc)
if ! $gcc -O2 -Wall -shared -fPIC -o "$out/devcount.so" selftests/host/devcount.c \
	-ldl -lpthread 2>"$out/cc.err"; then
	nok "the LD_PRELOAD counter builds"
	sed 's/^/# /' "$out/cc.err"
	exit 0
fi
mkdir "$out/counts"
: >"$out/stdin"
devs=()
for d in /dev/null /dev/zero /dev/full /dev/ptmx; do
	devs+=("$((0x$(stat -c %t "$d"))):$((0x$(stat -c %T "$d")))")
done
$B trace --json -o "$out/sys.json" --device /dev/null --device /dev/zero \
	--device /dev/full --device /dev/ptmx -- \
	env LD_PRELOAD="$out/devcount.so" DEVCOUNT_DIR="$out/counts" WORKLOAD_ROUNDS=400 \
	python3 selftests/host/workload.py <"$out/stdin" >"$out/workload.out" 2>&1
check "trace --device ... -- workload: exit 0" test $? -eq 0
python3 selftests/host/compare.py "$out/sys.json" "$out/counts" "${devs[@]}"
# the syscall mode is what the tool chose: no option forced it
check "the dev group was traced by system calls" \
	grep -q '"group":"dev","hook":"write","kind":"syscall"' \
	<($B trace --list --json --device /dev/null)
