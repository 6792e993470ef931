// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for the single-line GPIO kfuncs and their errors. A write's
 * first byte picks one call; the write returns its error, or the length on
 * success. A read returns the level of input line 1 as "0\n" or "1\n".
 *
 * gpio_kfuncs claims loopback lines 6 (output) and 7 (input), so their
 * partners 14 and 15 observe and drive them; gpio_nolines has no lines.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

static int one_call(struct bpfdrv_dev *dev, char op)
{
	__u32 bits = 0;

	switch (op) {
	case '0':
	case '1':
		return bpfdrv_gpio_set(dev, 0, op == '1');
	case 'i':		/* set an input line: -EPERM */
		return bpfdrv_gpio_set(dev, 1, 1);
	case 'u':		/* an index not declared: -EINVAL */
		return bpfdrv_gpio_set(dev, 2, 1);
	case 'g':
		return bpfdrv_gpio_get(dev, BPFDRV_MAX_GPIO_LINES);
	case 'A':		/* the array includes the input: -EPERM */
		return bpfdrv_gpio_set_array(dev, 0, 2, 3);
	case 'R':		/* past the last declared line: -EINVAL */
		return bpfdrv_gpio_get_array(dev, 1, 2, &bits);
	}
	return -EINVAL;
}

SEC("struct_ops.s/kf_write")
int BPF_PROG(kf_write, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	char op = 0;
	int err;

	if (!dev)
		return -ENODEV;
	if (bpfdrv_io_load(io, 0, &op, 1))
		return -EINVAL;
	err = one_call(dev, op);
	return err < 0 ? err : io->len;
}

SEC("struct_ops.s/kf_read")
int BPF_PROG(kf_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	char out[2] = { '0', '\n' };
	int level;

	if (!dev)
		return -ENODEV;
	if (io->pos)
		return 0;
	level = bpfdrv_gpio_get(dev, 1);
	if (level < 0)
		return level;
	out[0] += level;
	if (bpfdrv_io_store(io, 0, out, sizeof(out)))
		return -EINVAL;
	return sizeof(out);
}

SEC("struct_ops.s/nolines_write")
int BPF_PROG(nolines_write, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	int err;

	if (!dev)
		return -EIO;
	err = bpfdrv_gpio_get(dev, 0);	/* -ENODEV: no lines */
	return err < 0 ? err : io->len;
}

SEC(".struct_ops.link")
struct chr_ext_ops gpio_kfuncs_ops = {
	.read = (void *)kf_read,
	.write = (void *)kf_write,
	.name = "gpio_kfuncs",
	.flags = BPFDRV_F_SEEKABLE,
	.gpio_chip = "bpfdrv-loopback",
	.gpio_lines = {
		{ .offset = 6, .flags = BPFDRV_GPIO_OUT_HIGH },
		{ .offset = 7, .flags = BPFDRV_GPIO_IN },
	},
};

SEC(".struct_ops.link")
struct chr_ext_ops gpio_nolines_ops = {
	.write = (void *)nolines_write,
	.name = "gpio_nolines",
};
