#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bpfdrv trace --perfetto's timeline, read back for the tests.

load(PATH) gives the events as Chrome trace-event dicts (the JSON writer's
own, or those a Perfetto protobuf file stands for), so that one check reads
either format: "X" spans, "i" instants, "b"/"e" lives, "M" names, with pid,
tid, name, cat and ts/dur in microseconds. load(PATH, flows=True) adds the
flows, as "s" (a flow begins) and "f" (it ends) events with an id, at the
place and time of the event they are bound to; check_flows(EVENTS) checks
them: every flow id begins at one submit's span and ends at one job's life
or one fence's signal, after it, and no id dangles.

The protobuf is decoded here by hand (Perfetto's trace_processor is not in
Debian's archive): each packet is checked as it is read, a slice's end must
close a begin on its track, names and categories must be interned before
use, and a track must be described once, with a process, a thread or a
parent. A file that breaks any of it raises ValueError.

Usage: timeline.py FILE   prints the events as JSON lines, then a summary
                          (and the flows, checked)
"""
import json
import sys


def _varint(b, i):
    v = shift = 0
    while True:
        if i >= len(b):
            raise ValueError("truncated varint")
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        if not c & 0x80:
            return v, i
        shift += 7
        if shift > 63:
            raise ValueError("varint too long")


def fields(b):
    """(field, wire type, value) of a message: ints, or bytes for LEN"""
    i, out = 0, []
    while i < len(b):
        key, i = _varint(b, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            v, i = _varint(b, i)
        elif wt == 2:
            n, i = _varint(b, i)
            if i + n > len(b):
                raise ValueError("field %d: length %d past the end" % (f, n))
            v, i = b[i:i + n], i + n
        elif wt == 1:
            v, i = int.from_bytes(b[i:i + 8], "little"), i + 8
        elif wt == 5:
            v, i = int.from_bytes(b[i:i + 4], "little"), i + 4
        else:
            raise ValueError("wire type %d" % wt)
        out.append((f, wt, v))
    return out


def one(msg, f, default=None):
    vs = [v for (g, _, v) in fields(msg) if g == f]
    if len(vs) > 1:
        raise ValueError("field %d repeated" % f)
    return vs[0] if vs else default


def _proto_events(data):
    tracks, names, cats, raw = {}, {}, {}, []
    for f, wt, packet in fields(data):
        if f != 1 or wt != 2:
            raise ValueError("Trace field %d is not a packet" % f)
        seq = one(packet, 10)
        te, td, interned = one(packet, 11), one(packet, 60), one(packet, 12)
        if interned is not None:
            for g, _, entry in fields(interned):
                table = {1: cats, 2: names}.get(g)
                if table is None:
                    raise ValueError("interned field %d" % g)
                iid, s = one(entry, 1), one(entry, 2).decode()
                if iid in table and table[iid] != s:
                    raise ValueError("iid %d interned twice" % iid)
                table[iid] = s
        if td is not None:
            uuid = one(td, 1)
            if uuid in tracks:
                raise ValueError("track %d described twice" % uuid)
            proc, thread = one(td, 3), one(td, 4)
            t = {"parent": one(td, 5), "name": (one(td, 2) or b"").decode()}
            if proc is not None:
                t.update(kind="process", pid=one(proc, 1),
                         name=(one(proc, 6) or b"").decode())
            elif thread is not None:
                t.update(kind="thread", pid=one(thread, 1), tid=one(thread, 2))
            elif t["parent"] is not None:
                t["kind"] = "named"
            else:
                raise ValueError("track %d has no process, thread or parent" % uuid)
            tracks[uuid] = t
        if te is not None:
            if seq is None or one(packet, 8) is None:
                raise ValueError("an event without sequence or timestamp")
            if one(packet, 58) != 3:
                raise ValueError("an event not on CLOCK_MONOTONIC")
            name_iid, cat_iids = one(te, 10), [v for g, _, v in fields(te) if g == 3]
            name = names.get(name_iid) if name_iid else (one(te, 23) or b"").decode()
            if name_iid and name is None:
                raise ValueError("name iid %d used before it was interned" % name_iid)
            if any(c not in cats for c in cat_iids):
                raise ValueError("category used before it was interned")
            flow_out = [v for g, wt, v in fields(te) if g == 47 and wt == 1]
            flow_in = [v for g, wt, v in fields(te) if g == 48 and wt == 1]
            if any(g in (47, 48) and wt != 1 for g, wt, _ in fields(te)):
                raise ValueError("a flow id that is not a fixed64")
            if (flow_out or flow_in) and one(te, 9) == 2:
                raise ValueError("flow ids on a slice's end")
            if len(flow_in) > 1:
                raise ValueError("an event ends %d flows" % len(flow_in))
            raw.append((one(packet, 8), len(raw), one(te, 11), one(te, 9), name,
                        cats[cat_iids[0]] if cat_iids else None, flow_out, flow_in))
    # a named track's pid is its process's, its tid a number of its own
    tid_of = {}
    for uuid, t in tracks.items():
        if t["kind"] == "named":
            parent = tracks.get(t["parent"])
            if not parent or parent["kind"] != "process":
                raise ValueError("track %d's parent is not a process" % uuid)
            t["pid"] = parent["pid"]
            base = t["name"]
            if base.startswith(("jobs and fences", "hardirq", "softirq", "irq")):
                base = base.rstrip("0123456789").rstrip()	# a lane of it
            t["tid"] = tid_of.setdefault((t["pid"], base), 0x10000 + len(tid_of))
        elif t["kind"] == "thread":
            parent = tracks.get(t["parent"]) if t["parent"] is not None else None
            if parent and parent.get("pid") != t["pid"]:
                raise ValueError("thread track %d under another process" % uuid)
    ev = []
    for uuid, t in tracks.items():
        if t["kind"] == "process":
            ev.append({"name": "process_name", "ph": "M", "pid": t["pid"], "tid": 0,
                       "args": {"name": t["name"]}})
        elif t["kind"] == "named":
            ev.append({"name": "thread_name", "ph": "M", "pid": t["pid"], "tid": t["tid"],
                       "args": {"name": t["name"]}})
    stacks = {}

    def flows(ts, out, fin, where):
        for i in out:
            ev.append(dict(name="flow", cat="flow", ph="s", id=i, ts=ts / 1e3, **where))
        for i in fin:
            ev.append(dict(name="flow", cat="flow", ph="f", id=i, ts=ts / 1e3, **where))

    for ts, _, uuid, typ, name, cat, fout, fin in sorted(raw):
        t = tracks.get(uuid)
        if t is None:
            raise ValueError("an event on track %d, never described" % uuid)
        where = {"pid": t["pid"], "tid": t.get("tid", 0)}
        life = t["kind"] == "named" and t["name"].startswith("jobs and fences")
        if typ == 1:
            stacks.setdefault(uuid, []).append((ts, name, cat, fout, fin))
        elif typ == 2:
            if not stacks.get(uuid):
                raise ValueError("a slice end without its begin on track %d" % uuid)
            b, bname, bcat, bout, bin_ = stacks[uuid].pop()
            if life:
                ev.append(dict(name=bname, cat=bcat, ph="b", ts=b / 1e3, id=len(ev), **where))
                ev.append(dict(name=bname, cat=bcat, ph="e", ts=ts / 1e3, id=len(ev), **where))
            else:
                ev.append(dict(name=bname, cat=bcat, ph="X", ts=b / 1e3,
                               dur=(ts - b) / 1e3, **where))
            flows(b, bout, bin_, where)
        elif typ == 3:
            ev.append(dict(name=name, cat=cat, ph="i", s="t", ts=ts / 1e3, **where))
            flows(ts, fout, fin, where)
        else:
            raise ValueError("event type %s" % typ)
    open_slices = sum(len(s) for s in stacks.values())
    if open_slices:
        raise ValueError("%d slices never ended" % open_slices)
    return ev


FLOW_JOB, FLOW_FENCE = 1, 2	# a flow id's low bits: where it goes (trace.h)


def load(path, flows=False):
    data = open(path, "rb").read()
    if data[:1] == b"{":
        ev = json.loads(data)["traceEvents"]
        for e in ev:
            if e.get("ph") in ("s", "t", "f"):
                e["id"] = int(e["id"], 16)
    else:
        ev = _proto_events(data)
    return ev if flows else [e for e in ev if e["ph"] not in ("s", "t", "f")]


def check_flows(ev):
    """Every flow's two ends, [(id, its submit's span, the event it ends at)],
    or ValueError: an id that begins or ends twice or alone, an end that is
    not its role's (a job's life, a fence's signal), a begin at no span, an
    end before its begin."""
    begins, ends = {}, {}
    for e in ev:
        if e["ph"] in ("s", "f"):
            where = begins if e["ph"] == "s" else ends
            if e["id"] in where:
                raise ValueError("flow %#x %s twice" % (e["id"], "begins" if e["ph"] == "s"
                                                       else "ends"))
            where[e["id"]] = e
        elif e["ph"] == "t":
            raise ValueError("flow %#x has a step" % e["id"])
    alone = sorted(set(begins) ^ set(ends))
    if alone:
        raise ValueError("%d flows dangle: %s" % (len(alone), ", ".join(map(hex, alone[:5]))))
    at = {}
    for e in ev:
        if e["ph"] in ("X", "b", "i"):
            at.setdefault((e["ph"], e["pid"], e["tid"], e["ts"]), []).append(e)
    pairs = []
    for i, s in sorted(begins.items()):
        f = ends[i]
        span = at.get(("X", s["pid"], s["tid"], s["ts"]))
        if not span:
            raise ValueError("flow %#x begins at no span" % i)
        role = i & 3
        want = ("b", "sched_queue_to_done") if role == FLOW_JOB else ("i", "fence_signaled")
        end = [e for e in at.get((want[0], f["pid"], f["tid"], f["ts"]), ())
               if e["name"].split(" ")[0] == want[1]]
        if role not in (FLOW_JOB, FLOW_FENCE) or not end:
            raise ValueError("flow %#x ends at no %s" % (i, want[1]))
        if f["ts"] < s["ts"]:
            raise ValueError("flow %#x ends before it begins" % i)
        pairs.append((i, span[0], end[0]))
    return pairs


if __name__ == "__main__":
    events = load(sys.argv[1], flows=True)
    for e in events:
        print(json.dumps(e))
    kinds = {}
    for e in events:
        kinds[e["ph"]] = kinds.get(e["ph"], 0) + 1
    print("# %d events: %s; %d flows, each from a submit to its job or fence"
          % (len(events), kinds, len(check_flows(events))), file=sys.stderr)
