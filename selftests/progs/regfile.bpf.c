// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: a seekable file of 256 byte-wide registers, the pattern of
 * docs/writing-a-driver.md ("Seekable devices and register windows"). A
 * read or write moves [pos, pos + len) clamped to the file, a variable
 * offset with a variable length, which bpfdrv_io_{store,load}_at() check
 * at run time. REGFILE_BAD_SRC and REGFILE_BAD_IO make them refuse a range.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define REGFILE_SIZE	256
#define REGFILE_BAD_SRC	0x80105201	/* _IOR('R', 1, 16 bytes) */
#define REGFILE_BAD_IO	0x80105202	/* _IOR('R', 2, 16 bytes) */

__u8 regs[REGFILE_SIZE];

/* The bytes of a call at io->pos that lie in the file: 0 at its end. */
static __u32 regfile_span(struct bpfdrv_io *io)
{
	__u64 pos = io->pos;

	if (pos >= REGFILE_SIZE)
		return 0;
	return io->len < REGFILE_SIZE - pos ? io->len : REGFILE_SIZE - pos;
}

SEC("struct_ops/regfile_read")
int BPF_PROG(regfile_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u32 n = regfile_span(io);

	if (!n)
		return 0;	/* end of file */
	return bpfdrv_io_store_at(io, regs, sizeof(regs), io->pos, n) ?: n;
}

SEC("struct_ops/regfile_write")
int BPF_PROG(regfile_write, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u32 n = regfile_span(io);

	if (!n)
		return -ENOSPC;	/* a write of 0 bytes never gets here */
	return bpfdrv_io_load_at(io, regs, sizeof(regs), io->pos, n) ?: n;
}

SEC("struct_ops/regfile_ioctl")
int BPF_PROG(regfile_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	switch (cmd) {
	case REGFILE_BAD_SRC:	/* past the end of regs */
		return bpfdrv_io_store_at(io, regs, sizeof(regs), 250, 10);
	case REGFILE_BAD_IO:	/* past the end of the 16-byte I/O buffer */
		return bpfdrv_io_store_at(io, regs, sizeof(regs), 0, 17);
	}
	return -ENOTTY;
}

SEC(".struct_ops.link")
struct chr_ext_ops regfile = {
	.read = (void *)regfile_read,
	.write = (void *)regfile_write,
	.ioctl = (void *)regfile_ioctl,
	.name = "regfile",
	.flags = BPFDRV_F_SEEKABLE,
	.mode = 0666,
};
