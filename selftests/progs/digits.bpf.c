// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for make vm-check: reads the file offset back in decimal,
 * each digit taken from a stack array at an index computed with %. 6.12's
 * verifier does not bound the result of % ("math between fp pointer and
 * register with unbounded min value is not allowed"); 7.x's does. The
 * same object therefore loads on one kernel of the matrix and not on
 * another, which is what vm-check is for (see writing-a-driver.md).
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define DIGITS	10

SEC("struct_ops/digits_read")
int BPF_PROG(digits_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	char digits[DIGITS], out[DIGITS + 1];
	__u64 v = io->pos;
	__u32 nd = 0, k, n;

	for (k = 0; k < DIGITS; k++) {
		digits[k] = '0' + v % 10;
		nd++;
		v /= 10;
		if (!v)
			break;
	}
	for (k = 0; k < DIGITS; k++) {
		if (k >= nd)
			break;
		out[k] = digits[(nd - 1 - k) % DIGITS];
	}
	out[nd < DIGITS ? nd : DIGITS] = '\n';
	n = nd + 1;
	if (n > io->len)
		return -EINVAL;
	if (n > sizeof(out))
		n = sizeof(out);
	return bpfdrv_io_store(io, 0, out, n) ?: n;
}

SEC(".struct_ops.link")
struct chr_ext_ops digits = {
	.read = (void *)digits_read,
	.name = "digits",
	.flags = BPFDRV_F_SEEKABLE,
	.mode = 0444,
};
