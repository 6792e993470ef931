#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""What a person can hand the tool: driver objects mutated at random (bits
flipped, the ELF and BTF headers' fields and section headers set to values
at the edges, sections overwritten, the file cut short), each given to
`bpfdrv load`. The tool (built with ASan and UBSan) must refuse it with a
message (exit 1) or load it (exit 0; it is detached again): never crash,
hang, or report a memory error. Prints unnumbered TAP lines; a failure
names its reproducer (the seed and the object's number).

Usage: fuzz_obj.py [-n N] [-S SEED] [--only I] --tool BPFDRV OBJ...
"""
import argparse
import os
import random
import struct
import subprocess
import sys
import tempfile

EDGES = [0, 1, 2, 3, 4, 7, 8, 0x18, 0x7f, 0x80, 0xff, 0x100, 0xfff, 0x1000,
         0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff]
EDGES64 = EDGES + [0x100000000, 0x7fffffffffffffff, 0xffffffffffffffff]


def sections(data):
    """(name offset, type, offset, size, header offset) of each section of
    an ELF64 little-endian object, as far as its headers can be read."""
    try:
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", data, 0x3a)
        out = []
        for i in range(shnum):
            h = shoff + i * shentsize
            name, typ, _, _, off, size = struct.unpack_from("<IIQQQQ", data, h)
            out.append((name, typ, off, size, h))
        return out
    except struct.error:
        return []


def btf_section(data, secs):
    """The .BTF section's (offset, size), if its name can be found."""
    try:
        shstrndx, = struct.unpack_from("<H", data, 0x3e)
        stroff = secs[shstrndx][2]
        for name, _, off, size, _ in secs:
            end = data.index(b"\0", stroff + name)
            if data[stroff + name:end] == b".BTF":
                return off, size
    except (IndexError, ValueError):
        pass
    return None


def put(data, off, fmt, value):
    if 0 <= off <= len(data) - struct.calcsize(fmt):
        struct.pack_into(fmt, data, off, value & ((1 << (8 * struct.calcsize(fmt))) - 1))


def mutate(rng, data):
    data = bytearray(data)
    secs = sections(data)
    btf = btf_section(data, secs)
    what = []
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(8)
        if kind == 0:
            for _ in range(rng.randint(1, 16)):
                i = rng.randrange(len(data))
                data[i] ^= 1 << rng.randrange(8)
            what.append("bits")
        elif kind == 1 and secs:
            _, _, _, _, h = rng.choice(secs)
            field = rng.choice([(0x18, "<Q"), (0x20, "<Q"), (0x28, "<I"),
                                (0x2c, "<I"), (0x38, "<Q"), (0x04, "<I")])
            put(data, h + field[0], field[1], rng.choice(EDGES64))
            what.append("section header")
        elif kind == 2:
            field = rng.choice([(0x28, "<Q"), (0x3a, "<H"), (0x3c, "<H"),
                                (0x3e, "<H"), (0x10, "<H"), (0x12, "<H")])
            put(data, field[0], field[1], rng.choice(EDGES64))
            what.append("ELF header")
        elif kind in (3, 4) and btf:
            off, size = btf
            if kind == 3:	# the header: hdr_len, type_off/len, str_off/len
                put(data, off + rng.choice([4, 8, 12, 16, 20]), "<I",
                    rng.choice(EDGES))
                what.append("BTF header")
            elif size > 32:	# a type's info, size or a member's offset
                put(data, off + 24 + 4 * rng.randrange((size - 24) // 4), "<I",
                    rng.choice(EDGES + [rng.getrandbits(32)]))
                what.append("BTF type")
        elif kind == 5 and secs:
            _, _, off, size, _ = rng.choice(secs)
            if 0 < size < len(data) and off + size <= len(data):
                a = off + rng.randrange(size)
                n = min(rng.randint(1, 64), off + size - a)
                data[a:a + n] = bytes(rng.getrandbits(8) for _ in range(n))
                what.append("section bytes")
        elif kind == 6:
            cut = rng.randrange(len(data))
            del data[cut:]
            what.append("cut at %d" % cut)
            if not data:
                break
        else:
            a, b = rng.randrange(len(data)), rng.randrange(len(data))
            n = min(rng.randint(1, 256), len(data) - max(a, b))
            data[a:a + n] = data[b:b + n]
            what.append("copy")
    return bytes(data), what


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("-S", "--seed", type=int, default=1)
    ap.add_argument("--only", type=int)
    ap.add_argument("--tool", required=True)
    ap.add_argument("objs", nargs="+")
    args = ap.parse_args()
    originals = [open(p, "rb").read() for p in args.objs]
    counts = {"refused": 0, "loaded": 0}
    bad = 0
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1")
    tmp = tempfile.mkdtemp()
    todo = [args.only] if args.only is not None else range(args.n)
    for i in todo:
        rng = random.Random(args.seed * 1000003 + i)
        src = rng.randrange(len(originals))
        data, what = mutate(rng, originals[src])
        path = os.path.join(tmp, "fz%d.bpf.o" % i)
        with open(path, "wb") as f:
            f.write(data)
        try:
            r = subprocess.run([args.tool, "load", "--pin", path], env=env,
                               capture_output=True, text=True, timeout=60,
                               errors="replace")
            rc, err = r.returncode, r.stderr
        except subprocess.TimeoutExpired:
            rc, err = "timeout", ""
        sanitizer = "AddressSanitizer" in err or "runtime error:" in err
        said = any(line.startswith("bpfdrv:") for line in err.splitlines())
        if rc == 0 and not sanitizer:
            counts["loaded"] += 1
            subprocess.run([args.tool, "unload", "--all"], capture_output=True)
        elif rc == 1 and said and not sanitizer:
            counts["refused"] += 1
        else:
            bad += 1
            print("not ok - fuzz_obj: object %d (%s, %s): exit %s%s; reproduce: "
                  "fuzz_obj.py -S %d --only %d --tool BPFDRV %s"
                  % (i, os.path.basename(args.objs[src]), ", ".join(what), rc,
                     ", a sanitizer's report" if sanitizer else
                     ("" if said else ", no message"),
                     args.seed, i, " ".join(args.objs)))
            for line in err.splitlines()[:30]:
                print("#   " + line)
        os.unlink(path)
    os.rmdir(tmp)
    print("# fuzz_obj: %d mutated objects (seed %d): %d refused with a message, "
          "%d loaded and detached, %d failures"
          % (len(todo), args.seed, counts["refused"], counts["loaded"], bad))
    print("%s - fuzz_obj: every mutated object is refused with a message or loads;"
          " the tool never crashes, hangs or reports a memory error"
          % ("ok" if not bad else "not ok"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
