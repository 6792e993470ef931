#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""What else a person can hand the tool: random command lines (each
command's options, in any order, with values at the edges: empty, huge,
negative, not numbers, format strings, paths that are not there or not
files, bytes that are not UTF-8) and random autoload.conf files (long
lines, many words, comments, binary bytes, objects that are not there).
The tool (built with ASan and UBSan) must answer each with exit 0, or
with 1 or 2 (127: trace's or stats' command could not run) and a message:
never crash, hang or report a memory error.
PCI functions are only those given with --bdf (which the run may bind and
unbind) and ones that do not exist. Prints unnumbered TAP lines; a failure
prints its command line.

Usage: fuzz_args.py [-n N] [-S SEED] --tool BPFDRV --objs DIR [--bdf BDF]...
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

STRINGS = ["", "0", "-1", "1", "4294967296", "99999999999999999999999", "0x10",
           "abc", "%s%s%n%p", "a b", "-", "--", "../../../etc/passwd", "/",
           "/dev/null", "/proc/self/status", "\u00e9\u00ff", "x" * 300,
           "y" * 5000, "echo", "fifo", "gen0", "*", "\t"]
NUMBERS = ["0", "1", "-1", "2", "abc", "", "1e3", "0x7fffffff", "4294967297",
           "-2147483648", "1.5"]
# the durations and intervals of trace and stats: short, or not numbers
SHORT = ["0", "1", "-1", "abc", "", "0.5", "1s"]
GROUPS = ["all", "npu", "drm", "nvidia", "bpfdrv", "dev", "none", "drm,npu", ",", "x" * 200]


class Args:
    def __init__(self, rng, objs, bdfs, tmp):
        self.rng = rng
        self.objs = objs
        self.bdfs = bdfs
        self.tmp = tmp

    def pick(self, seq):
        return self.rng.choice(seq)

    def obj(self):
        return self.pick(self.objs + ["/dev/null", "/nonexistent.bpf.o", "",
                                      self.tmp, "/proc/self/mem"])

    def bdf(self):
        return self.pick(self.bdfs + ["0000:fe:1f.7", "ff:1f.7", "0000:00:00", "zz",
                                      "", "../../devices", "0000:fe:00.0" + "0" * 100])

    def path(self):
        return self.pick(["/dev/null", os.path.join(self.tmp, "out"), "/nonexistent/out",
                          "", self.tmp, os.path.join(self.tmp, "x" * 300)])

    def value(self):
        return self.pick(STRINGS + [self.pick(NUMBERS)])

    def options(self, table, n):
        out = []
        for _ in range(n):
            name, kind = self.pick(table)
            out.append(name)
            if kind:
                out.append(kind())
        return out

    def command(self):
        r = self.rng.randrange
        v, num, short, path, dev, obj = (self.value, lambda: self.pick(NUMBERS),
                                         lambda: self.pick(SHORT), self.path,
                                         self.bdf, self.obj)
        cmds = {
            "load": [("-p", None), ("--pin", None), ("-n", v), ("--name", v), ("-d", dev),
                     ("--device", dev), ("-v", None), ("-h", None), ("--bogus", None)],
            "update": [("-n", v), ("-d", dev), ("-h", None), ("--name", v)],
            "unload": [("--all", None), ("-h", None), ("--name", v)],
            "list": [("-h", None), ("--json", None), ("-v", None)],
            "status": [("-h", None), ("--json", None)],
            "stats": [("-i", short), ("-d", short), ("-p", num), ("-f", None), ("-c", v),
                      ("-j", None), ("-o", path), ("-h", None), ("--interval", short)],
            "trace": [("-g", lambda: self.pick(GROUPS)), ("-l", None), ("-i", short),
                      ("-d", short), ("-p", num), ("-c", v), ("-j", None), ("-o", path),
                      ("-q", None), ("-C", None), ("--ioctl-names", None),
                      ("--perfetto", path), ("--fentry", None), ("--kprobes", None),
                      ("--kprobe-multi", None), ("--syscalls", None),
                      ("--irq-tracepoints", None), ("--count-only", None),
                      ("--device", v), ("--follow", None), ("-h", None)],
            "bind": [], "unbind": [], "reset": [],
            "new": [("-o", path), ("--pci", v), ("--gpio", None), ("--accel", None),
                    ("--ci", None), ("-h", None)],
            "autoload": [],
        }
        name = self.pick(list(cmds) + ["help", "--version", "-h", "", "loadx", "x" * 400])
        argv = [name]
        if name in ("load", "update"):
            argv += self.options(cmds[name], r(4))
            argv += [obj() for _ in range(r(3))]
            if name == "update":
                argv.insert(r(len(argv)) + 1, v())
        elif name in ("trace", "stats"):
            # a short run whatever the rest says: later -d values are short
            # too; one small group unless -g picks others (attaching every
            # group's programs takes seconds a command on a KASAN kernel)
            argv += ["-d", "1", "-g", "bpfdrv"] if name == "trace" else ["-d", "1"]
            argv += self.options(cmds[name], r(6))
            argv += [v() for _ in range(r(2))]
        elif name in ("bind", "unbind"):
            argv += [dev() for _ in range(r(3))]
        elif name == "reset":
            argv += [v() for _ in range(r(3))]
        elif name == "autoload":
            argv += self.pick([["match", dev()], ["add", dev()], ["remove", dev()],
                               ["boot", "-c", path()], ["boot", "-c"], ["stop"], [v()], []])
        elif name == "new":
            # names only inside the run's directory: new writes a tree there
            argv += self.options(cmds[name], r(4))
            argv += [self.pick(["drv", "", "a b", "x" * 300, "%s", "-", "\u00e9", "9"])
                     for _ in range(r(3))]
        elif name in cmds:
            argv += self.options(cmds[name], r(4))
            argv += [v() for _ in range(r(3))]
        return argv

    def conf(self):
        """An autoload.conf of random lines."""
        lines = []
        for _ in range(self.rng.randint(0, 8)):
            k = self.rng.randrange(9)
            if k == 0:
                lines.append(self.pick(["echo.bpf.o", "fifo.bpf.o"]) + " " +
                             " ".join(self.options([("--name", self.value), ("--pin", None),
                                                    ("--device", self.bdf)], self.rng.randrange(3))))
            elif k == 1:
                lines.append(self.obj() + " --name " + self.value())
            elif k == 2:
                lines.append("echo.bpf.o " + "w " * self.rng.choice([15, 16, 17, 200]))
            elif k == 3:
                lines.append("#" + self.value())
            elif k == 4:
                lines.append("x" * self.rng.choice([1022, 1023, 1024, 1025, 5000]))
            elif k == 5:
                lines.append(bytes(self.rng.getrandbits(8) for _ in range(40))
                             .decode("latin-1"))
            elif k == 6:
                lines.append(self.value())
            elif k == 7:
                lines.append("")
            else:
                lines.append("\t  echo.bpf.o\t# a comment")
        end = self.pick(["\n", "", "\0"])
        return "\n".join(lines) + end


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=150)
    ap.add_argument("-S", "--seed", type=int, default=1)
    ap.add_argument("--only", type=int)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--objs", required=True, help="a directory of driver objects")
    ap.add_argument("--bdf", action="append", default=[])
    args = ap.parse_args()
    # the commands run in a directory of their own: paths are absolute
    args.tool = os.path.abspath(args.tool)
    args.objs = os.path.abspath(args.objs)
    objs = sorted(os.path.join(args.objs, f) for f in os.listdir(args.objs)
                  if f.endswith(".bpf.o"))
    tmp = tempfile.mkdtemp()
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1")
    bad = 0
    codes = {}
    todo = [args.only] if args.only is not None else range(args.n)
    for i in todo:
        rng = random.Random(args.seed * 1000033 + i)
        gen = Args(rng, objs, args.bdf, tmp)
        conf = os.path.join(tmp, "autoload.conf")
        with open(conf, "w", encoding="latin-1") as f:
            f.write(gen.conf())
        argv = gen.command()
        if rng.randrange(4) == 0:
            argv = ["autoload", "boot", "-c", conf]
        cenv = dict(env, BPFDRV_DRIVER_PATH=rng.choice(
            [args.objs, args.objs + ":/nonexistent", "", ":::", "/" * 300, tmp]))
        try:
            r = subprocess.run([args.tool] + argv, env=cenv, cwd=tmp, capture_output=True,
                               timeout=60, stdin=subprocess.DEVNULL)
            rc, out = r.returncode, r.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            rc, out = "timeout", ""
        sanitizer = "AddressSanitizer" in out or "runtime error:" in out
        codes[rc] = codes.get(rc, 0) + 1
        # trace and stats run what follows their options; one that cannot
        # be run exits 127, as env and timeout do
        allowed = (0, 1, 2, 127) if argv[0] in ("trace", "stats") else (0, 1, 2)
        if rc not in allowed or sanitizer or (rc != 0 and not out.strip()):
            bad += 1
            print("not ok - fuzz_args: command %d: exit %s%s: bpfdrv %s; reproduce: "
                  "fuzz_args.py -S %d --only %d"
                  % (i, rc, ", a sanitizer's report" if sanitizer else
                     ("" if out.strip() else ", no message"),
                     " ".join(repr(a) for a in argv)[:400], args.seed, i))
            if argv[:2] == ["autoload", "boot"]:
                print("#   autoload.conf: %r" % open(conf, encoding="latin-1").read()[:300])
            for line in out.splitlines()[:30]:
                print("#   " + line)
        # what a command attached goes again; what it wrote in tmp stays
        subprocess.run([args.tool, "unload", "--all"], capture_output=True)
    shutil.rmtree(tmp, ignore_errors=True)
    print("# fuzz_args: %d command lines (seed %d): exits %s; %d failures"
          % (len(todo), args.seed,
             ", ".join("%s: %d" % (k, codes[k]) for k in sorted(codes, key=str)), bad))
    print("%s - fuzz_args: every command line and autoload.conf gets an answer; the tool"
          " never crashes, hangs or reports a memory error" % ("ok" if not bad else "not ok"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
