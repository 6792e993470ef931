// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: the deepest bpfdrv_for() nests, each of 2^30 rounds, in a
 * read (cannot sleep: its loops end at loop_max_ms and the driver is
 * ejected) and in a sleepable ioctl (its rounds yield; they end when the
 * caller is killed or the driver detached).
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define ROUNDS	(1 << 30)
/* eight loops, nested: 2^240 rounds in all */
#define NEST(dev, body)							\
	bpfdrv_for(a, dev, 0, ROUNDS) bpfdrv_for(b, dev, 0, ROUNDS)	\
	bpfdrv_for(c, dev, 0, ROUNDS) bpfdrv_for(d, dev, 0, ROUNDS)	\
	bpfdrv_for(e, dev, 0, ROUNDS) bpfdrv_for(f, dev, 0, ROUNDS)	\
	bpfdrv_for(g, dev, 0, ROUNDS) bpfdrv_for(h, dev, 0, ROUNDS)	\
		body

SEC("struct_ops/loop_budget_read")
int BPF_PROG(loop_budget_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	int a, b, c, d, e, f, g, h;
	__u64 rounds = 0;

	NEST(dev, rounds++;)
	/* how far it got, for the test to print */
	return bpfdrv_io_store(io, 0, &rounds, sizeof(rounds)) ?: sizeof(rounds);
}

SEC("struct_ops.s/loop_budget_ioctl")
int BPF_PROG(loop_budget_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	int a, b, c, d, e, f, g, h;
	__u64 rounds = 0;

	NEST(dev, rounds++;)
	return rounds > 0;
}

SEC(".struct_ops.link")
struct chr_ext_ops loop_budget_ops = {
	.read = (void *)loop_budget_read,
	.ioctl = (void *)loop_budget_ioctl,
	.name = "loop_budget",
	.mode = 0666,
	.abi_version = BPFDRV_ABI_VERSION,
};
