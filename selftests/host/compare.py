# SPDX-License-Identifier: GPL-2.0
# compare.py TRACE.json COUNTS_DIR DEV...: bpfdrv trace's per-process rows
# against the LD_PRELOAD counter's (devcount.c), for the devices DEV
# (MAJOR:MINOR); prints TAP lines. Each key is (pid, operation, sub-key):
# the ioctl command, or the device's minor.
import json
import os
import sys

trace, counts_dir, devs = sys.argv[1], sys.argv[2], sys.argv[3:]
traced = {tuple(int(x) for x in d.split(":")) for d in devs}
minors = {m for _, m in traced}

rows = [json.loads(line) for line in open(trace) if line.startswith("{")]
got, got_err = {}, {}
for o in rows:
    if o.get("type") == "proc" and o["group"] == "dev":
        key = (o["pid"], o["hook"], o["sub"])
        got[key] = got.get(key, 0) + o["count"]
    if o.get("type") == "stat" and o["group"] == "dev":
        key = (o["hook"], o["sub"])
        got_err[key] = got_err.get(key, 0) + o["errors"]
lost = [o for o in rows if o.get("type") == "lost"]

want, want_err, overflow = {}, {}, 0
for name in os.listdir(counts_dir):
    pid = int(name)
    for line in open(os.path.join(counts_dir, name)):
        f = line.split()
        if f[0] == "overflow":
            overflow += int(f[1])
            continue
        major, minor, op, sub, count, errors = f[0:2] + [f[2]] + f[3:]
        if (int(major), int(minor)) not in traced:
            continue
        key = (pid, op, int(sub))
        want[key] = want.get(key, 0) + int(count)
        ekey = (op, int(sub))
        want_err[ekey] = want_err.get(ekey, 0) + int(errors)

n = failed = 0


def check(ok, what):
    global n, failed
    n += 1
    failed += not ok
    print("%s - %s" % ("ok" if ok else "not ok", what))


check(not overflow, "the LD_PRELOAD counter kept every row")
check(lost and lost[0]["total"] == 0, "the tracer reports no event lost")
pids = {k[0] for k in want}
check(len(pids) >= 4, "the workload ran in %d counted processes (threads and forks)" % len(pids))
diff = sorted(k for k in set(got) | set(want) if got.get(k, 0) != want.get(k, 0))
for k in diff[:20]:
    print("# pid %d %s %d: traced %d, counted %d" % (k + (got.get(k, 0), want.get(k, 0))))
check(want and not diff, "per process, operation and device: %d traced calls equal %d counted"
      % (sum(got.values()), sum(want.values())))
for op in ("open", "close", "read", "write", "ioctl", "mmap", "poll"):
    t = sum(v for k, v in got.items() if k[1] == op)
    c = sum(v for k, v in want.items() if k[1] == op)
    check(c > 0 and t == c, "%s: %d traced, %d counted by LD_PRELOAD" % (op, t, c))
ediff = sorted(k for k in set(got_err) | set(want_err) if got_err.get(k, 0) != want_err.get(k, 0))
for k in ediff:
    print("# errors of %s %d: traced %d, counted %d" % (k + (got_err.get(k, 0), want_err.get(k, 0))))
check(sum(want_err.values()) > 0 and not ediff,
      "errors per operation and device: %d traced, %d counted" %
      (sum(got_err.values()), sum(want_err.values())))
sys.exit(1 if failed else 0)
