// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver holding two I2C clients of i2c_eeprom_sim's adapter and a
 * line of the GPIO expander on the same adapter: the adapter's deletion
 * takes both from under it at once. A read returns what
 * bpfdrv_gpio_get(line 0) and bpfdrv_i2c_read_byte(client 0) give, as two
 * 32-bit integers (-ENODEV once they are gone).
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops.s/i2c_gpio_read")
int BPF_PROG(i2c_gpio_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__s32 ret[2];

	if (io->len < sizeof(ret))
		return -EINVAL;
	ret[0] = bpfdrv_gpio_get(dev, 0);
	ret[1] = bpfdrv_i2c_read_byte(dev, 0);
	return bpfdrv_io_store(io, 0, ret, sizeof(ret)) ?: sizeof(ret);
}

SEC(".struct_ops.link")
struct chr_ext_ops i2c_gpio = {
	.read = (void *)i2c_gpio_read,
	.name = "i2c_gpio",
	.abi_version = BPFDRV_ABI_VERSION,
	.i2c_adapter = "bpfdrv-i2c-sim",
	.i2c_addrs = { 0x50, 0x51 },
	.gpio_chip = "bpfdrv-i2c-gpio-sim",
	.gpio_lines = {
		{ .offset = 0, .flags = BPFDRV_GPIO_IN },
	},
};
