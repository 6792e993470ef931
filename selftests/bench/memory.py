#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""In the guest: what one attached bpfdrv driver costs in kernel memory,
beside the native module, printed as one JSON line ({"bench": "memory"}).

Two kinds of figures:
- accounted: module core sizes (/sys/module/*/coresize), the BPF programs'
  and maps' memlock and JIT sizes (bpftool), and the sizes of bpfdrv's own
  structures from the module's BTF;
- measured: the growth of slab objects in use (/proc/slabinfo: active
  objects times object size) plus Percpu and VmallocUsed (/proc/meminfo)
  per extra attached instance, and per open file after one I/O of 1 B and
  of 4 KiB, the latter also for the native module and CUSE for comparison.

    memory.py BPFDRV ECHO_OBJ DRIVER_NAME NATIVE_DEV CUSE_DEV
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time

INSTANCES = 4		# extra instances per round (median of 3 rounds)
FILES = 1000		# files opened for the per-file figure (median of 3 rounds)


def kernel_bytes():
	"""Slab objects in use + Percpu + VmallocUsed: what drivers allocate."""
	total = 0
	with open("/proc/slabinfo") as f:
		for line in f:
			if line.startswith(("slabinfo", "#")):
				continue
			fields = line.split()
			total += int(fields[1]) * int(fields[3])
	with open("/proc/meminfo") as f:
		for line in f:
			k, v = line.split(":", 1)
			if k in ("Percpu", "VmallocUsed"):
				total += int(v.split()[0]) * 1024
	return total


def settle():
	"""Drop caches, then wait until kernel memory stops shrinking: maps,
	programs and trampolines of detached drivers are freed after RCU
	grace periods (tasks-trace ones for struct_ops), seconds under TCG,
	and a free that lands inside a measurement hides an allocation."""
	with open("/proc/sys/vm/drop_caches", "w") as f:
		f.write("3\n")
	last = kernel_bytes()
	for _ in range(30):
		time.sleep(1)
		now = kernel_bytes()
		if abs(now - last) < 16 * 1024:
			return now
		last = now
	return last


def coresize(mod):
	with open(f"/sys/module/{mod}/coresize") as f:
		return int(f.read())


def possible_cpus():
	"""Per-CPU allocations are made for every possible CPU ("0-3")."""
	with open("/sys/devices/system/cpu/possible") as f:
		n = 0
		for part in f.read().strip().split(","):
			lo, _, hi = part.partition("-")
			n += int(hi or lo) - int(lo) + 1
		return n


def bpftool(*args):
	out = subprocess.run(["bpftool", "-j", *args], check=True,
			     capture_output=True, text=True).stdout
	return json.loads(out)


def btf_struct_sizes(names):
	raw = subprocess.run(["bpftool", "btf", "dump", "file",
			      "/sys/kernel/btf/bpfdrv", "format", "raw"],
			     check=True, capture_output=True, text=True).stdout
	sizes = {}
	for m in re.finditer(r"STRUCT '(\w+)' size=(\d+)", raw):
		if m.group(1) in names:
			sizes[m.group(1)] = int(m.group(2))
	return sizes


def bpf_objects():
	"""The echo driver's programs and maps: memlock and JIT bytes."""
	progs = [p for p in bpftool("prog", "show")
		 if p.get("name", "").startswith("echo_")]
	maps = [m for m in bpftool("map", "show")
		if m.get("name") in ("echo_state", "echo")]
	return {
		"programs": len(progs),
		"prog_jited_bytes": sum(p.get("bytes_jited", 0) for p in progs),
		"prog_memlock_bytes": sum(p.get("bytes_memlock", 0) for p in progs),
		"maps": len(maps),
		"map_memlock_bytes": sum(m.get("bytes_memlock", 0) for m in maps),
	}


def per_instance(bpfdrv, obj):
	"""Growth per extra attached echo instance (maps, programs, device)."""
	return statistics.median(per_instance_once(bpfdrv, obj)
				 for _ in range(3))


def per_instance_once(bpfdrv, obj):
	before = settle()
	for i in range(INSTANCES):
		subprocess.run([bpfdrv, "load", "--pin", "--name", f"memecho{i}",
				obj], check=True, capture_output=True)
	after = settle()
	for i in range(INSTANCES):
		subprocess.run([bpfdrv, "unload", f"memecho{i}"], check=True,
			       capture_output=True)
	return (after - before) // INSTANCES


def per_file(path, size):
	"""Growth per open file of PATH after one write and read of SIZE."""
	return statistics.median(per_file_once(path, size) for _ in range(3))


def per_file_once(path, size):
	before = settle()
	fds = []
	for _ in range(FILES):
		fd = os.open(path, os.O_RDWR)
		os.write(fd, b"x" * size)
		os.read(fd, size)
		fds.append(fd)
	after = kernel_bytes()
	for fd in fds:
		os.close(fd)
	return (after - before) // FILES


def main():
	if len(sys.argv) != 6:
		sys.exit("usage: memory.py BPFDRV ECHO_OBJ DRIVER_NAME NATIVE_DEV CUSE_DEV")
	bpfdrv, obj, name, native_dev, cuse_dev = sys.argv[1:]
	res = {"bench": "memory"}
	res["bpfdrv_module_core_bytes"] = coresize("bpfdrv")
	res["native_module_core_bytes"] = coresize("echo_native")
	res.update(bpf_objects())
	res["struct_bytes"] = btf_struct_sizes(
		{"bpfdrv_device", "bpfdrv_file_kern", "bpfdrv_stats"})
	res["possible_cpus"] = possible_cpus()
	res["measured_instance_bytes"] = per_instance(bpfdrv, obj)
	res["measured_file_bytes"] = {
		f"{impl}_{size}": per_file(path, size)
		for impl, path in (("bpfdrv", f"/dev/bpfdrv/{name}"),
				   ("native", native_dev), ("cuse", cuse_dev))
		for size in (1, 4096)
	}
	print(json.dumps(res))


if __name__ == "__main__":
	main()
