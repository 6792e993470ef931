// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for the I2C kfuncs on i2c-stub: client 0 at 0x50 (a chip the
 * stub emulates), client 1 at 0x51 (none: transfers fail). A write of
 * struct i2c_probe_cmd runs one kfunc; a read returns struct
 * i2c_probe_result: its return value and the bytes a block read got.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

enum {
	OP_READ_BYTE = 1,
	OP_WRITE_BYTE,
	OP_READ_BYTE_DATA,
	OP_WRITE_BYTE_DATA,
	OP_READ_WORD_DATA,
	OP_WRITE_WORD_DATA,
	OP_READ_BLOCK,		/* 8 bytes from reg */
	OP_WRITE_BLOCK,		/* the 8 bytes of data to reg */
	OP_READ_BLOCK_33,	/* one byte more than SMBus allows */
	OP_TRANSFER,		/* raw: write reg, read 8 bytes */
};

struct i2c_probe_cmd {
	__u32 op;
	__u32 client;
	__u32 reg;
	__u32 value;
	__u8 data[8];
};

struct i2c_probe_result {
	__s32 ret;
	__u8 data[36];
};

struct i2c_probe_result result;
__u8 big[33];

SEC("struct_ops.s/probe_write")
int BPF_PROG(probe_write, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	struct i2c_probe_cmd cmd;
	int ret;

	if (io->len != sizeof(cmd) || bpfdrv_io_load(io, 0, &cmd, sizeof(cmd)))
		return -EINVAL;
	switch (cmd.op) {
	case OP_READ_BYTE:
		ret = bpfdrv_i2c_read_byte(dev, cmd.client);
		break;
	case OP_WRITE_BYTE:
		ret = bpfdrv_i2c_write_byte(dev, cmd.client, cmd.value);
		break;
	case OP_READ_BYTE_DATA:
		ret = bpfdrv_i2c_read_byte_data(dev, cmd.client, cmd.reg);
		break;
	case OP_WRITE_BYTE_DATA:
		ret = bpfdrv_i2c_write_byte_data(dev, cmd.client, cmd.reg,
						 cmd.value);
		break;
	case OP_READ_WORD_DATA:
		ret = bpfdrv_i2c_read_word_data(dev, cmd.client, cmd.reg);
		break;
	case OP_WRITE_WORD_DATA:
		ret = bpfdrv_i2c_write_word_data(dev, cmd.client, cmd.reg,
						 cmd.value);
		break;
	case OP_READ_BLOCK:
		ret = bpfdrv_i2c_read_block(dev, cmd.client, cmd.reg,
					    result.data, 8);
		break;
	case OP_WRITE_BLOCK:
		ret = bpfdrv_i2c_write_block(dev, cmd.client, cmd.reg,
					     cmd.data, sizeof(cmd.data));
		break;
	case OP_READ_BLOCK_33:
		ret = bpfdrv_i2c_read_block(dev, cmd.client, cmd.reg,
					    big, sizeof(big));
		break;
	case OP_TRANSFER:
		result.data[0] = cmd.reg;
		ret = bpfdrv_i2c_transfer(dev, cmd.client, result.data, 9, 1);
		break;
	default:
		return -EINVAL;
	}
	result.ret = ret;
	return sizeof(cmd);
}

SEC("struct_ops/probe_read")
int BPF_PROG(probe_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	if (io->len < sizeof(result))
		return -EINVAL;
	return bpfdrv_io_store(io, 0, &result, sizeof(result)) ?: sizeof(result);
}

SEC(".struct_ops.link")
struct chr_ext_ops i2c_probe = {
	.read = (void *)probe_read,
	.write = (void *)probe_write,
	.name = "i2c_probe",
	.abi_version = BPFDRV_ABI_VERSION,
	.i2c_adapter = "SMBus stub driver",
	.i2c_addrs = { 0x50, 0x51 },
};
