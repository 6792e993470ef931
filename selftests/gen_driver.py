#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Random drivers from the driver ABI, for the fuzz part: each a chr_ext_ops
program with random callbacks (sleepable or not), whose bodies call bpfdrv's
kfuncs with typed arguments at their edges, loop through bpfdrv_for(), use
maps, private data and timers, eject themselves, and now and then call
what bpfdrv does not grant. Every one compiles; the kernel decides: it is
refused at load with a reason, or attached and fuzzed through its node
(selftests/guest/60-fuzz.sh). The same seed writes the same drivers.

Usage: gen_driver.py [-n N] [-S SEED] -o DIR
"""
import argparse
import os
import random
import sys

EDGES = ["0", "1", "7", "8", "63", "64", "4095", "4096", "4097", "65535",
         "0x7fffffff", "0x80000000", "0xffffffff", "0xfffffffffffffffful"]
SIZES = [1, 2, 8, 16, 64, 256, 4096]
ERRS = ["0", "-EINVAL", "-ENOSPC", "-EAGAIN", "-EFAULT", "-4095", "-4096",
        "1", "0x7fffffff", "-1", "(int)s->v[%d]"]
NV = 8		# counters in the state map
RING = 512	# bytes of the state's ring

# name: (arguments, return type, has a file, has an io buffer)
CALLBACKS = {
    "init": ("struct bpfdrv_dev *dev", "int", False, False),
    "exit": ("struct bpfdrv_dev *dev", "void", False, False),
    "open": ("struct bpfdrv_dev *dev, struct bpfdrv_file *file", "int", True, False),
    "release": ("struct bpfdrv_dev *dev, struct bpfdrv_file *file", "void", True, False),
    "read": ("struct bpfdrv_dev *dev, struct bpfdrv_file *file, struct bpfdrv_io *io",
             "int", True, True),
    "write": ("struct bpfdrv_dev *dev, struct bpfdrv_file *file, struct bpfdrv_io *io",
              "int", True, True),
    "ioctl": ("struct bpfdrv_dev *dev, struct bpfdrv_file *file, unsigned int cmd, "
              "struct bpfdrv_io *io", "int", True, True),
    "poll": ("struct bpfdrv_dev *dev, struct bpfdrv_file *file", "__u32", True, False),
    "takeover": ("struct bpfdrv_dev *dev", "int", False, False),
    "timer": ("struct bpfdrv_dev *dev, __u32 id", "void", False, False),
}


class Gen:
    def __init__(self, rng, idx):
        self.rng = rng
        self.idx = idx
        self.loops = 0
        self.denied = []	# what bpfdrv does not grant, for the header
        # one driver in five calls one thing it may not (a helper bpfdrv
        # does not grant, a sleepable kfunc where it cannot sleep): refused
        self.wrong = rng.randrange(5) == 0
        self.sleepable = False	# the callback being written

    def pick(self, seq):
        return self.rng.choice(seq)

    def chance(self, n):
        return self.rng.randrange(n) == 0

    def expr(self, ctx):
        r = self.rng.randrange(8)
        if r < 3:
            return self.pick(EDGES)
        if r < 5:
            return "s->v[%d]" % self.rng.randrange(NV)
        if r == 5 and ctx["loops"]:
            return "(__u64)%s" % self.pick(ctx["loops"])
        if r == 6 and ctx["name"] == "ioctl":
            return "(__u64)cmd"
        if r == 6 and ctx["name"] == "timer":
            return "(__u64)id"
        return "(s->v[%d] + %s)" % (self.rng.randrange(NV), self.pick(EDGES))

    def stmts(self, ctx, depth, n):
        out = []
        for _ in range(n):
            out += self.stmt(ctx, depth)
        return out

    def stmt(self, ctx, depth):
        io, file, v = ctx["io"], ctx["file"], self.rng.randrange(NV)
        kinds = ["set", "set", "wake", "timer", "timer_cancel", "hash", "global",
                 "dev_priv", "if", "loop", "eject", "yield", "bus", "denied"]
        if io:
            kinds += ["io_data", "io_data", "io_load", "io_store", "io_at", "ring", "ring"]
        if file:
            kinds += ["file_priv", "file_priv"]
        k = self.pick(kinds)
        if k == "set":
            return ["s->v[%d] %s %s;" % (v, self.pick(["=", "+=", "^="]), self.expr(ctx))]
        if k == "wake":
            return ["bpfdrv_dev_wake(dev);"]
        if k == "timer":
            return ["s->v[%d] = bpfdrv_timer_start(dev, %s, %s);"
                    % (v, self.pick(["0", "1", "3", "4", "255", "(__u32)" + self.expr(ctx)]),
                       self.pick(["0", "1000", "1000000", "100000000", "1ull << 40",
                                  self.expr(ctx)]))]
        if k == "timer_cancel":
            return ["s->v[%d] = bpfdrv_timer_cancel(dev, %s);"
                    % (v, self.pick(["0", "1", "255", "(__u32)" + self.expr(ctx)]))]
        if k == "hash":
            op = self.pick(["update", "lookup", "delete"])
            key = "(__u32)(%s) & 31" % self.expr(ctx)
            if op == "update":
                return ["{", "\t__u32 key = %s;" % key, "\t__u64 val = %s;" % self.expr(ctx),
                        "", "\tbpf_map_update_elem(&counts, &key, &val, BPF_ANY);", "}"]
            if op == "lookup":
                return ["{", "\t__u32 key = %s;" % key,
                        "\t__u64 *val = bpf_map_lookup_elem(&counts, &key);", "",
                        "\tif (val)", "\t\t*val += %s;" % self.expr(ctx), "}"]
            return ["{", "\t__u32 key = %s;" % key, "",
                    "\tbpf_map_delete_elem(&counts, &key);", "}"]
        if k == "global":
            return ["gen_global[%d] = %s;" % (self.rng.randrange(4), self.expr(ctx))]
        if k in ("dev_priv", "file_priv"):
            size = self.pick(SIZES)
            call = ("bpfdrv_dev_priv(dev, %d)" if k == "dev_priv"
                    else "bpfdrv_file_priv(file, %d)") % size
            return ["{", "\t__u8 *p = %s;" % call, "", "\tif (p)",
                    "\t\tp[%d] += (__u8)%s;" % (self.rng.randrange(size), self.expr(ctx)), "}"]
        if k == "if" and depth < 3:
            body = self.stmts(ctx, depth + 1, self.rng.randint(1, 3))
            return (["if (s->v[%d] %s %s) {" % (v, self.pick(["==", "<", ">", "!=", "&"]),
                                                self.pick(EDGES))]
                    + ["\t" + line for line in body] + ["}"])
        if k == "loop" and depth < 3 and len(ctx["loops"]) < 2:
            self.loops += 1
            var = "i%d" % self.loops
            end = self.pick(["4", "100", "10000", "1 << 20", "1 << 30", "(int)s->v[%d]" % v])
            ctx["loops"].append(var)
            body = self.stmts(ctx, depth + 1, self.rng.randint(1, 3))
            ctx["loops"].pop()
            return (["{", "\tint %s;" % var, "",
                     "\tbpfdrv_for(%s, dev, %s, %s) {" % (var, self.pick(["0", "1", "-5"]), end)]
                    + ["\t\t" + line for line in body] + ["\t}", "}"])
        if k == "eject" and self.chance(3):
            return ["if (s->v[%d] == %s)" % (v, self.pick(EDGES)),
                    "\tbpfdrv_error(dev, \"gen%d: v%d %%u\", (__u32)s->v[%d]);"
                    % (self.idx, v, v)]
        if k == "yield" and self.may_sleep():
            return ["s->v[%d] = bpfdrv_dev_yield(dev);" % v]
        if k == "bus" and self.chance(3):
            calls = [
                "s->v[%d] = bpfdrv_mmio_read(dev, 0, %s, 4, &s->v[%d]);" % (v, self.expr(ctx), v),
                "s->v[%d] = bpfdrv_pci_bar_len(dev, %s);" % (v, self.pick(["0", "5", "6"])),
                "s->v[%d] = bpfdrv_job_done(dev, 0, %s, 0);" % (v, self.expr(ctx)),
            ]
            if self.may_sleep():
                calls += [
                    "s->v[%d] = bpfdrv_dma_alloc(dev, %s, 32);" % (v, self.pick(["4096", "0", "1 << 30"])),
                    "s->v[%d] = bpfdrv_gpio_get(dev, %s);" % (v, self.pick(["0", "31"])),
                    "s->v[%d] = bpfdrv_i2c_read_byte(dev, 0);" % v,
                ]
            return [self.pick(calls)]
        if k == "denied" and self.wrong and not self.denied:
            what, line = self.pick([
                ("bpf_probe_read_kernel", "bpf_probe_read_kernel(&s->v[%d], 8, (void *)s->v[%d]);"
                 % (v, (v + 1) % NV)),
                ("bpf_get_current_task", "s->v[%d] = bpf_get_current_task();" % v),
                ("bpf_send_signal", "bpf_send_signal(9);"),
                ("bpf_get_current_comm", "bpf_get_current_comm(gen_comm, sizeof(gen_comm));"),
            ])
            self.denied.append(what)
            return [line]
        if k == "io_data":
            size = self.pick(SIZES)
            return ["{", "\t__u8 *p = bpfdrv_io_data(io, (__u32)%s, %d);" % (self.expr(ctx), size),
                    "", "\tif (p)",
                    "\t\tp[%d] = (__u8)%s;" % (self.rng.randrange(size), self.expr(ctx)), "}"]
        if k in ("io_load", "io_store"):
            n = self.pick([1, 2, 8, 32])
            call = "bpfdrv_io_%s(io, (__u32)%s, b, sizeof(b))" % (k[3:], self.expr(ctx))
            return ["{", "\t__u64 b[%d] = {};" % n, "",
                    "\tb[0] = s->v[%d];" % v, "\ts->v[%d] = %s;" % (v, call),
                    "\ts->v[%d] ^= b[%d];" % ((v + 1) % NV, n - 1), "}"]
        if k == "io_at":
            call = self.pick(["load_at", "store_at"])
            return ["{", "\t__u8 b[64] = {};", "",
                    "\ts->v[%d] = bpfdrv_io_%s(io, b, sizeof(b), (__u32)%s, (__u32)%s);"
                    % (v, call, self.expr(ctx), self.expr(ctx)), "}"]
        if k == "ring":
            call = self.pick(["ring_to_io", "io_to_ring"])
            return ["s->v[%d] = bpfdrv_%s(io, &s->ring, sizeof(s->ring));" % (v, call)]
        return ["s->v[%d]++;" % v]

    def may_sleep(self):
        """A sleepable kfunc here: in a sleepable callback, or as the
        driver's one wrong thing."""
        if self.sleepable:
            return True
        if self.wrong and not self.denied and self.chance(8):
            self.denied.append("a sleepable kfunc where it cannot sleep")
            return True
        return False

    def callback(self, name, sleepable):
        args, ret, file, io = CALLBACKS[name]
        self.sleepable = sleepable
        ctx = {"name": name, "file": file, "io": io, "loops": []}
        body = self.stmts(ctx, 0, self.rng.randint(1, 6))
        lines = ["SEC(\"struct_ops%s/gen%d_%s\")" % (".s" if sleepable else "", self.idx, name)]
        lines.append("%s BPF_PROG(gen%d_%s, %s)" % (ret, self.idx, name, args))
        lines.append("{")
        lines.append("\tstruct gen_state *s = state();")
        lines.append("")
        if ret == "void":
            lines.append("\tif (!s)\n\t\treturn;")
        elif ret == "__u32":
            lines.append("\tif (!s)\n\t\treturn BPFDRV_POLLERR;")
        else:
            lines.append("\tif (!s)\n\t\treturn -EIO;")
        lines += ["\t" + line for line in body]
        if ret == "int":
            # init and takeover mostly succeed: a driver that attaches gets fuzzed
            r = self.pick(ERRS + ["0"] * (40 if name in ("init", "takeover") else 2))
            lines.append("\treturn %s;" % (r % self.rng.randrange(NV) if "%d" in r else r))
        elif ret == "__u32":
            lines.append("\treturn %s;" % self.pick(["BPFDRV_POLLIN", "BPFDRV_POLLOUT",
                                                     "BPFDRV_POLLIN | BPFDRV_POLLOUT",
                                                     "(__u32)s->v[0]", "0"]))
        lines.append("}")
        return lines

    def driver(self):
        rng = self.rng
        names = [n for n in CALLBACKS if rng.randrange(3)]
        if not names:
            names = ["read"]
        src = ["// SPDX-License-Identifier: GPL-2.0",
               "/* generated by selftests/gen_driver.py: driver %d */" % self.idx,
               "#include \"bpfdrv.bpf.h\"", "",
               "char _license[] SEC(\"license\") = \"GPL\";", "",
               "struct gen_state {",
               "\tstruct BPFDRV_RING(%d) ring;" % RING,
               "\t__u64 v[%d];" % NV, "};", "",
               "struct {", "\t__uint(type, BPF_MAP_TYPE_ARRAY);",
               "\t__uint(max_entries, 1);", "\t__type(key, __u32);",
               "\t__type(value, struct gen_state);", "} gen_state SEC(\".maps\");", "",
               "struct {", "\t__uint(type, BPF_MAP_TYPE_HASH);",
               "\t__uint(max_entries, 16);", "\t__type(key, __u32);",
               "\t__type(value, __u64);", "} counts SEC(\".maps\");", "",
               "__u64 gen_global[4];", "char gen_comm[16];", "",
               "static struct gen_state *state(void)", "{", "\t__u32 zero = 0;", "",
               "\treturn bpf_map_lookup_elem(&gen_state, &zero);", "}", ""]
        for n in names:
            src += self.callback(n, rng.randrange(2) == 0) + [""]
        flags = rng.choice(["0", "BPFDRV_F_DIRECT_IO", "BPFDRV_F_SEEKABLE",
                            "BPFDRV_F_EXCLUSIVE | BPFDRV_F_DIRECT_IO", "BPFDRV_F_ALL",
                            "1u << 9"] + ["0"] * 8)
        src += ["SEC(\".struct_ops.link\")", "struct chr_ext_ops gen%d = {" % self.idx]
        src += ["\t.%s = (void *)gen%d_%s," % (n, self.idx, n) for n in names]
        src += ["\t.name = \"gen%d\"," % self.idx,
                "\t.abi_version = %s," % rng.choice(["BPFDRV_ABI_VERSION"] * 8 + ["0", "999"]),
                "\t.flags = %s," % flags,
                "\t.mode = %s," % rng.choice(["0666"] * 4 + ["0600", "0", "0777"]), "};"]
        head = ("/* callbacks: %s; calls what is not granted: %s */"
                % (", ".join(names), ", ".join(self.denied) or "nothing"))
        return "\n".join(line.rstrip() for line in src[:2] + [head] + src[2:]) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=20)
    ap.add_argument("-S", "--seed", type=int, default=1)
    ap.add_argument("-o", "--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for i in range(args.n):
        g = Gen(random.Random(args.seed * 1000003 + i), i)
        with open(os.path.join(args.out, "gen%d.bpf.c" % i), "w") as f:
            f.write(g.driver())
    return 0


if __name__ == "__main__":
    sys.exit(main())
