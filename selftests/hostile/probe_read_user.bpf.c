// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: read the calling process's memory with bpf_probe_read_user()
 * instead of the data bpfdrv copied in.
 * expect: bpf_probe_read_user#112
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	char buf[8];

	bpf_probe_read_user(buf, sizeof(buf), (void *)0x400000);
	return buf[0];
}

HOSTILE_OPS(probe_read_user, .ioctl = (void *)attack);
