#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The structure kmod/ promises, checked on its source (TAP lines):

- no call cycle between its files: the core calls the parts (buses,
  classes) through the table in parts.c, never by name;
- one way to call a driver: no file but call.h takes an instance's callback
  mutex or calls a callback (irq_hard, in hard-IRQ context, and the live
  update's own lock, are the two named exceptions);
- one way to hold a bus device: only hold.c registers a bus notifier;
- no cycle by name either: a function or variable of another file named
  anywhere in code (a kfunc set, an ops table, a part) counts;
- the docs name what is there (architecture.md's file table, the files with
  kfunc sets, every kfunc in docs/);
- absent.c's stand-ins (kernels without a bus or class) keep the real
  kfunc sets, flags and prototypes;
- each part's state in the instance (struct bpfdrv_device) is touched by
  that part's files only.

The tool's own source (user/ and its subdirectories such as user/trace/,
its BPF programs left out) is held to the first two: no cycle between its
files by call or by name; and by #include: no cycle in the include graph
(X.c and X.h are one node, so a .c including its own header is none), and
no header included by a file that uses none of the names it declares.

Usage: kmod-structure.py [KMOD_DIR | USER_DIR]
       kmod-structure.py --graph USER_DIR   the include graph, as DOT
"""
import collections
import glob
import os
import re
import sys

graph_only = len(sys.argv) > 1 and sys.argv[1] == "--graph"
if graph_only:
    del sys.argv[1]
kmod = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "kmod")
label = os.path.basename(os.path.normpath(kmod))
# by path below the directory: user/trace/session.c is trace/session.c
files = {os.path.relpath(p, kmod): open(p).read()
         for p in glob.glob(os.path.join(kmod, "**", "*.[ch]"), recursive=True)
         if not p.endswith(".bpf.c")}
bodies = {f: re.sub(r"/\*.*?\*/|//[^\n]*", "", s, flags=re.S)
          for f, s in files.items()}
fails = 0


def tap(good, desc, detail=()):
    global fails
    print(("ok - " if good else "not ok - ") + desc)
    for line in detail:
        print("# " + line)
    fails += not good


# functions defined (not static) in each .c file
defs = {}
for f, s in bodies.items():
    if not f.endswith(".c"):
        continue
    for m in re.finditer(r"^(?!static)[a-z_][\w \*]*?[\s\*](\w+)\(", s, re.M):
        defs[m.group(1)] = f


def references(texts, use):
    """file -> the files whose definitions it uses (@use: a name's regex)"""
    out = collections.defaultdict(set)
    for f, s in texts.items():
        if f.endswith(".c"):
            for name, df in defs.items():
                if df != f and re.search(use % name, s):
                    out[f].add(df)
    return out


calls = references(bodies, r"\b%s\s*\(")


def cycle():
    """A call cycle between files, as a list, or None."""
    state = {}

    def visit(f, path):
        state[f] = 1
        for g in sorted(calls.get(f, ())):
            if state.get(g) == 1:
                return path[path.index(g):] + [g]
            if g not in state:
                c = visit(g, path + [g])
                if c:
                    return c
        state[f] = 2
        return None

    for f in sorted(calls):
        if f not in state:
            c = visit(f, [f])
            if c:
                return c
    return None


c = cycle()
tap(not c, "%s: no call cycle between its %d files"
    % (label, len([f for f in files if f.endswith(".c")])),
    ["cycle: " + " -> ".join(c)] if c else ())

# ... nor one by name: a function or variable of another file named
# anywhere in code (a kfunc set, an ops table, a part, an attribute), not
# only called. Strings are not code: allow.c's list of the kfuncs allowed
# on the fence path compares names with what sprint_symbol() writes.
code = {f: re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', s) for f, s in bodies.items()}
for f, s in bodies.items():
    if not f.endswith(".c"):
        continue
    for m in re.finditer(r"^(?!static|extern)(?:const )?struct \w+ (?:\* ?)?(?:const )?(\w+)"
                         r"(?:\[\w*\])? *(?:=|;)", s, re.M):
        defs[m.group(1)] = f
calls = references(code, r"\b%s\b")
c = cycle()
tap(not c, label + ": no cycle between files by name (functions and variables"
    " named, %d symbols)" % len(defs),
    ["cycle: " + " -> ".join(c)] if c else ())


def include_graph():
    """node -> the nodes it includes; a node is a file less its .c or .h"""
    edges = collections.defaultdict(set)
    for f, text in files.items():
        for inc in re.findall(r'^#\s*include\s+"([^"]+)"', text, re.M):
            for cand in (os.path.join(os.path.dirname(f), inc), inc):
                cand = os.path.normpath(cand)
                if cand in files:
                    if cand[:-2] != f[:-2]:
                        edges[f[:-2]].add((cand[:-2], f, cand))
                    break
    return edges


def header_names(text):
    """what a header declares for others: functions, types, macros, constants"""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
    names = set(re.findall(r"^#\s*define\s+(\w+)", text, re.M)) - \
        set(re.findall(r"^#\s*ifndef\s+(\w+)", text, re.M))	# its guard
    names |= set(re.findall(r"\b(?:struct|enum|union)\s+(\w+)\s*\{", text))
    names |= set(re.findall(r"^typedef\b[^;]*?\b(\w+)\s*(?:\[[^]]*\])?;", text, re.M))
    names |= set(re.findall(r"^extern\b[^;(]*?\b(\w+)\s*(?:\[[^]]*\])?(?:,[^;]*)?;",
                            text, re.M))
    for m in re.findall(r"^extern\b[^;(]*;", text, re.M):
        names |= set(re.findall(r"(\w+)\s*(?:\[[^]]*\])?\s*[,;]", m))
    names |= set(re.findall(r"^(?!#|typedef\b|struct \w+;|extern\b)[A-Za-z_][\w \*]*?\b(\w+)\s*\(",
                            text, re.M))
    for body in re.findall(r"\benum\b[^{;]*\{(.*?)\}", text, re.S):
        names |= set(re.findall(r"^\s*([A-Za-z_]\w*)", body, re.M))
    return names - {"if", "for", "while", "return", "sizeof", "static", "inline"}


if label != "kmod":
    edges = include_graph()
    if graph_only:
        print("digraph %s {" % label)
        for a in sorted(edges):
            for b in sorted({e[0] for e in edges[a]}):
                print('\t"%s" -> "%s";' % (a, b))
        print("}")
        sys.exit(0)
    calls = {a: {e[0] for e in es} for a, es in edges.items()}
    c = cycle()
    tap(not c, "%s: no #include cycle between its %d files (%d nodes, %d edges)"
        % (label, len(files), len({f[:-2] for f in files}),
           sum(len(v) for v in calls.values())),
        ["cycle: " + " -> ".join(c)] if c else ())
    unused = []
    for a, es in sorted(edges.items()):
        for _, f, h in sorted(es):
            if not h.endswith(".h"):
                continue
            names = header_names(files[h])
            if not any(re.search(r"\b%s\b" % re.escape(n), code[f]) for n in names):
                unused.append("%s includes %s and uses none of its %d names"
                              % (f, h, len(names)))
    tap(not unused, "%s: every header of its own is included only where its names are used"
        % label, unused)
    sys.exit(1 if fails else 0)

# the docs name what is there: every file in architecture.md's table,
# every file with kfuncs where it says who registers them, every kfunc in
# a page of docs/
docs = os.path.join(kmod, "..", "docs")
arch = open(os.path.join(docs, "architecture.md")).read()
table = arch[arch.index("| file | role |"):arch.index("## Objects")]
missing = [f for f in sorted(files) if "`kmod/%s`" % f not in table]
tap(not missing, "docs: architecture.md's file table names every file of kmod/",
    ["not in it: " + ", ".join(missing)] if missing else ())
safety = arch[arch.index("## Kfunc safety"):arch.index("Four rules")]
with_sets = sorted(f for f, s in bodies.items() if "BTF_KFUNCS_START" in s)
missing = [f for f in with_sets if "`%s`" % f not in safety and "`kmod/%s`" % f not in safety]
tap(not missing, "docs: architecture.md names the %d files with kfunc sets" % len(with_sets),
    ["not named: " + ", ".join(missing)] if missing else ())
all_docs = "".join(open(p).read() for p in glob.glob(os.path.join(docs, "*.md")))
kfuncs = sorted({k for s in bodies.values()
                 for k in re.findall(r"BTF_ID_FLAGS\(func, (\w+)", s)})
missing = [k for k in kfuncs if not re.search(r"`[^`]*\b%s\b" % k, all_docs)]
tap(not missing, "docs: all %d kfuncs documented (kfuncs.md, or their bus's page)"
    % len(kfuncs),
    ["not in it: " + ", ".join(missing)] if missing else ())

# the stand-ins of absent.c (a kernel built without a bus or class) are
# the real kfuncs' set, flags and prototypes: a driver that loads on one
# kernel loads on every kernel
def kfunc_set(text, name):
    m = re.search(r"BTF_KFUNCS_START\(%s\)(.*?)BTF_KFUNCS_END" % name, text, re.S)
    return re.findall(r"BTF_ID_FLAGS\(func, (\w+)(.*?)\)\n", m.group(1)) if m else None


def prototype(text, name):
    m = re.search(r"__bpf_kfunc\s+([^;{}]*?)\b%s\s*\(([^)]*)\)" % name, text)
    return " ".join(("%s(%s)" % (m.group(1), m.group(2))).split()) if m else None


bad = []
absent = bodies.get("absent.c", "")
for part in re.findall(r"BTF_KFUNCS_START\((\w+)_absent_kfunc_ids\)", absent):
    real = [(f, s) for f, s in bodies.items()
            if f != "absent.c" and kfunc_set(s, part + "_kfunc_ids")]
    if len(real) != 1:
        bad.append("%s: no file has the real set" % part)
        continue
    f, s = real[0]
    stand_in, real_set = kfunc_set(absent, part + "_absent_kfunc_ids"), kfunc_set(s, part + "_kfunc_ids")
    if stand_in != real_set:
        bad.append("%s: %s's set %s, absent.c's %s" % (part, f, real_set, stand_in))
    for k, _ in real_set:
        if prototype(absent, k) != prototype(s, k):
            bad.append("%s: %s in %s, %s in absent.c" % (k, prototype(s, k), f, prototype(absent, k)))
tap(absent and not bad, "kmod: absent.c's stand-in kfuncs are the real sets, flags and prototypes",
    bad)

# each part's state in the instance (bpfdrv.h: the fields after a "part
# NAME: FILES" comment) is touched by those files only
bad, owned = [], {}
header = files.get("bpfdrv.h", "")	# with its comments
struct = header[header.index("struct bpfdrv_device {"):]
struct = struct[:struct.index("\n};")]
owner = None
for line in struct.split("\n"):
    m = re.match(r"\s*/\* part (\w+): ([\w. ]+) \*/", line)
    if m:
        owner = m.group(2).split()
        continue
    m = re.match(r"\s*[\w ]+?[\s\*](\w+)(\[\w*\])?;", line)
    if m and owner:
        owned[m.group(1)] = owner
for field, allowed in owned.items():
    for f, s in bodies.items():
        if f not in allowed and re.search(
                r"(\bbdev|to_bpfdrv_device\([^()]*\)|h->bdev)->%s\b" % field, s):
            bad.append("%s: %s, the part of %s's" % (f, field, " ".join(allowed)))
tap(len(owned) > 10 and not bad,
    "kmod: each part's state in the instance is touched by its own files only "
    "(%d fields)" % len(owned), bad)

# one way to call a driver
bad = []
for f, s in bodies.items():
    if f == "call.h":
        continue
    for n, line in enumerate(s.split("\n"), 1):
        # the mutex in call.h only; SRCU in bpfdrv_pin() (bpfdrv.h) only
        if re.search(r"(mutex_(lock|trylock|lock_killable)\w*|srcu_read_lock\w*)"
                     r"\(&bdev->(lock|srcu)\)", line) and \
                not (f == "update.c" and "trylock" in line) and \
                not (f == "bpfdrv.h" and "srcu_read_lock" in line):
            bad.append("%s:%d: %s" % (f, n, line.strip()))
        # a chr_ext_ops callback (not a hold's or a link's own ops)
        m = re.search(r"(?<!h->)(?<!link->)\bops->(\w+)\(", line)
        if m and not (f == "pci_irq.c" and m.group(1) == "irq_hard"):
            bad.append("%s:%d: %s" % (f, n, line.strip()))
tap(not bad, "kmod: every callback is called through call.h "
    "(irq_hard and the update's lock excepted)", bad)

# one way to hold a bus device
bad = ["%s: %s" % (f, m.group(0)) for f, s in bodies.items() if f != "hold.c"
       for m in re.finditer(r"bus_register_notifier\([^)]*\)", s)]
tap(not bad, "kmod: only hold.c watches buses for removals", bad)
sys.exit(1 if fails else 0)
