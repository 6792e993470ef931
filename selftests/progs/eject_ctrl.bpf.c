// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: a read reports a fatal error whose message carries a
 * terminal escape sequence, a forged line and a Latin-1 byte; bpfdrv keeps
 * it on one printable line.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/eject_ctrl_read")
int BPF_PROG(eject_ctrl_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	/* the BPF core refuses escapes in a format; arguments pass */
	bpfdrv_error(dev, "%c[2Jcleared\nforged line\r%c %d", 0x1b, 0xe9, 1);
	return 0;
}

SEC(".struct_ops.link")
struct chr_ext_ops eject_ctrl_ops = {
	.read = (void *)eject_ctrl_read,
	.name = "eject_ctrl",
	.mode = 0444,
	.abi_version = BPFDRV_ABI_VERSION,
};
