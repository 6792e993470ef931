#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bpfdrv trace --perfetto's timeline, read back for the tests.

load(PATH) gives the events as Chrome trace-event dicts (the JSON writer's
own, or those a Perfetto protobuf file stands for), so that one check reads
either format: "X" spans, "i" instants, "b"/"e" lives, "M" names, with pid,
tid, name, cat and ts/dur in microseconds.

The protobuf is decoded here by hand (Perfetto's trace_processor is not in
Debian's archive): each packet is checked as it is read, a slice's end must
close a begin on its track, names and categories must be interned before
use, and a track must be described once, with a process, a thread or a
parent. A file that breaks any of it raises ValueError.

Usage: timeline.py FILE   prints the events as JSON lines, then a summary
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
            raw.append((one(packet, 8), len(raw), one(te, 11), one(te, 9), name,
                        cats[cat_iids[0]] if cat_iids else None))
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
    for ts, _, uuid, typ, name, cat in sorted(raw):
        t = tracks.get(uuid)
        if t is None:
            raise ValueError("an event on track %d, never described" % uuid)
        where = {"pid": t["pid"], "tid": t.get("tid", 0)}
        life = t["kind"] == "named" and t["name"].startswith("jobs and fences")
        if typ == 1:
            stacks.setdefault(uuid, []).append((ts, name, cat))
        elif typ == 2:
            if not stacks.get(uuid):
                raise ValueError("a slice end without its begin on track %d" % uuid)
            b, bname, bcat = stacks[uuid].pop()
            if life:
                ev.append(dict(name=bname, cat=bcat, ph="b", ts=b / 1e3, id=len(ev), **where))
                ev.append(dict(name=bname, cat=bcat, ph="e", ts=ts / 1e3, id=len(ev), **where))
            else:
                ev.append(dict(name=bname, cat=bcat, ph="X", ts=b / 1e3,
                               dur=(ts - b) / 1e3, **where))
        elif typ == 3:
            ev.append(dict(name=name, cat=cat, ph="i", s="t", ts=ts / 1e3, **where))
        else:
            raise ValueError("event type %s" % typ)
    open_slices = sum(len(s) for s in stacks.values())
    if open_slices:
        raise ValueError("%d slices never ended" % open_slices)
    return ev


def load(path):
    data = open(path, "rb").read()
    if data[:1] == b"{":
        return json.loads(data)["traceEvents"]
    return _proto_events(data)


if __name__ == "__main__":
    events = load(sys.argv[1])
    for e in events:
        print(json.dumps(e))
    kinds = {}
    for e in events:
        kinds[e["ph"]] = kinds.get(e["ph"], 0) + 1
    print("# %d events: %s" % (len(events), kinds), file=sys.stderr)
