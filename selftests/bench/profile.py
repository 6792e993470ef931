#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's profiles, in the guest: turn bpftrace's JSON output (map
@pN: the kernel stacks of loop N, sampled by a profile probe) and the
"PROFILE N ROUNDS" lines of profile.sh into one JSON line per loop for
report.py.

    profile.py SECONDS LABEL... < bpftrace-output

Leaf: the function a sample was in (offsets dropped); user: samples taken
in user mode (no kernel stack). Inclusive: samples with the frame anywhere
in the stack, for the frames of the paths profiled.
"""
import collections
import json
import sys

FRAMES = ["bpfdrv_read", "bpfdrv_write", "bpfdrv_ioctl", "echo_native_read",
	  "echo_native_write", "echo_native_ioctl", "edu_ref_read",
	  "edu_ref_write", "bpf__chr_ext_ops_", "bpf_prog_",
	  "__bpf_prog_enter", "__bpf_prog_exit", "bpfdrv_ring_to_io",
	  "bpfdrv_io_to_ring", "bpfdrv_io_data", "bpfdrv_mmio_write",
	  "_copy_to_user", "_copy_from_user", "__check_object_size",
	  "schedule", "mutex_lock", "mutex_unlock"]


def reduce(stacks):
	leaf, incl = collections.Counter(), collections.Counter()
	user = total = 0
	for stack, n in stacks.items():
		# bpftrace's JSON keeps the stack's newlines escaped
		stack = stack.replace("\\n", "\n")
		frames = [f.strip().split("+")[0] for f in stack.split("\n") if f.strip()]
		total += n
		if not frames:
			user += n
			continue
		leaf[frames[0]] += n
		for want in FRAMES:
			if any(f.startswith(want) for f in frames):
				incl[want] += n
	return total, user, leaf, incl


def main():
	secs, labels = float(sys.argv[1]), sys.argv[2:]
	maps, rounds = {}, {}
	for line in sys.stdin:
		line = line.strip()
		if line.startswith("PROFILE "):
			_, i, *n = line.split()
			rounds[int(i)] = int(n[0]) if n and n[0].isdigit() else None
		if not line.startswith("{"):
			continue
		obj = json.loads(line)
		if obj.get("type") == "map":
			maps.update(obj["data"])
	ok = True
	for i, label in enumerate(labels):
		total, user, leaf, incl = reduce(maps.get(f"@p{i}", {}))
		print(json.dumps({"bench": "profile", "label": label, "secs": secs,
				  "rounds": rounds.get(i), "samples": total,
				  "user": user, "leaf": leaf.most_common(20),
				  "incl": dict(incl)}))
		ok = ok and total > 0 and rounds.get(i)
	return 0 if ok else 1


if __name__ == "__main__":
	sys.exit(main())
