#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's profiles, in the guest: turn bpftrace's JSON output (the
kernel stacks of one process, sampled by a profile probe, and the line
ioloop printed) into one JSON line for report.py.

    profile.py LABEL SECONDS < bpftrace-output

Leaf: the function a sample was in (offsets dropped); user: samples taken
in user mode (no kernel stack). Inclusive: samples with the frame anywhere
in the stack, for the frames of the read and write paths.
"""
import collections
import json
import sys

FRAMES = ["bpfdrv_read", "bpfdrv_write", "bpfdrv_ioctl", "bpf_prog_",
	  "bpfdrv_ring_to_io", "bpfdrv_io_to_ring", "bpfdrv_dma_buf_to_io",
	  "bpfdrv_io_to_dma_buf", "_copy_to_user", "_copy_from_user",
	  "bpfdrv_pci_irq_hard", "bpfdrv_pci_irq_thread", "irq_thread",
	  "schedule", "mutex_lock", "__srcu_read_lock"]


def main():
	label, secs = sys.argv[1], float(sys.argv[2])
	stacks, rounds = {}, None
	for line in sys.stdin:
		line = line.strip()
		if line.isdigit():
			rounds = int(line)
		if not line.startswith("{"):
			continue
		obj = json.loads(line)
		if obj.get("type") == "map":
			for v in obj["data"].values():
				stacks.update(v)
	leaf, incl = collections.Counter(), collections.Counter()
	user = total = 0
	for stack, n in stacks.items():
		frames = [f.strip().split("+")[0] for f in stack.split("\n") if f.strip()]
		total += n
		if not frames:
			user += n
			continue
		leaf[frames[0]] += n
		for want in FRAMES:
			if any(f.startswith(want) for f in frames):
				incl[want] += n
	print(json.dumps({"bench": "profile", "label": label, "secs": secs,
			  "rounds": rounds, "samples": total, "user": user,
			  "leaf": leaf.most_common(10), "incl": dict(incl)}))
	return 0 if total and rounds else 1


if __name__ == "__main__":
	sys.exit(main())
