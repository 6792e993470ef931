// SPDX-License-Identifier: GPL-2.0
/*
 * lm75: an LM75-compatible I2C temperature sensor in hwmon.
 *
 * The chip's temperature register (0) is a big-endian two's-complement
 * word in 1/256 degree Celsius, of which the LM75 fills the top 9 bits
 * (0.5 degree steps); the configuration register (1) bit 0 shuts the
 * sensor down. sensor_read reads the register and reports millidegrees,
 * so `sensors` shows lm75-virtual-0 / temp1 ("ambient"); a shut-down chip
 * gives ENODATA, a chip that does not answer the bus's error (ENXIO).
 *
 * The adapter and address below are the selftests' (i2c-stub emulating a
 * chip at 0x48); bpfdrv load --i2c-adapter and --i2c-addrs point it at a
 * real one, e.g. --i2c-adapter "SMBus I801 adapter at efa0" --i2c-addrs 0x49.
 * I2C kfuncs sleep: sensor_read is sleepable.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define LM75_REG_TEMP		0x00
#define LM75_REG_CONF		0x01
#define LM75_CONF_SHUTDOWN	0x01
#define LM75_RESOLUTION_MASK	0xff80	/* 9 bits */

/* The chip sends the high byte first; SMBus words are little-endian. */
static __s16 lm75_word(int smbus_word)
{
	__u16 w = smbus_word;

	return (__s16)((w << 8 | w >> 8) & LM75_RESOLUTION_MASK);
}

SEC("struct_ops.s/lm75_init")
int BPF_PROG(lm75_init, struct bpfdrv_dev *dev)
{
	/* the chip must answer, or the instance is not made */
	int conf = bpfdrv_i2c_read_byte_data(dev, 0, LM75_REG_CONF);

	return conf < 0 ? conf : 0;
}

SEC("struct_ops.s/lm75_sensor_read")
int BPF_PROG(lm75_sensor_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_sensor_read *rd)
{
	int conf, word;

	conf = bpfdrv_i2c_read_byte_data(dev, 0, LM75_REG_CONF);
	if (conf < 0)
		return conf;
	if (conf & LM75_CONF_SHUTDOWN)
		return 0;	/* no value: ENODATA */
	word = bpfdrv_i2c_read_word_data(dev, 0, LM75_REG_TEMP);
	if (word < 0)
		return word;
	/* 1/256 degree to millidegrees; an arithmetic shift keeps the sign */
	return bpfdrv_sensor_report(rd, ((__s64)lm75_word(word) * 1000) >> 8);
}

SEC(".struct_ops.link")
struct chr_ext_ops lm75 = {
	.init = (void *)lm75_init,
	.sensor_read = (void *)lm75_sensor_read,
	.name = "lm75",
	.abi_version = BPFDRV_ABI_VERSION,
	.i2c_adapter = "SMBus stub driver",
	.i2c_addrs = { 0x48 },
	.sensors = {
		{ .type = BPFDRV_SENSOR_TEMP, .label = "ambient" },
	},
};
