// SPDX-License-Identifier: GPL-2.0
/*
 * The parts a kernel is built without: Debian's cloud kernel has no I2C,
 * SPI, GPIO, hwmon or LED support. Each missing part is replaced by one
 * that refuses, at load and with the reason, a driver that declares it,
 * and its kfuncs by ones that fail with ENODEV, as they do on a device
 * that declared nothing of the kind: a driver object that declares nothing
 * missing loads on every kernel.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/string.h>

#include "bpfdrv.h"
#include "parts.h"
#include "kfuncs.h"

static bool __maybe_unused bpfdrv_declared(const void *member, size_t size)
{
	return memchr_inv(member, 0, size);
}

static int __maybe_unused bpfdrv_absent(const struct chr_ext_ops *ops,
					bool declared, const char *what,
					const char *config)
{
	if (!declared)
		return 0;
	return bpfdrv_refuse_err(-EOPNOTSUPP,
				 "driver %s declares %s, which this kernel was built without (%s)",
				 ops->name, what, config);
}

__bpf_kfunc_start_defs();

#if !IS_ENABLED(CONFIG_I2C)
static int bpfdrv_i2c_absent(const struct chr_ext_ops *ops)
{
	bool declared = bpfdrv_declared(ops->i2c_adapter, sizeof(ops->i2c_adapter)) ||
			bpfdrv_declared(ops->i2c_addrs, sizeof(ops->i2c_addrs));

	return bpfdrv_absent(ops, declared, "I2C clients", "CONFIG_I2C");
}

__bpf_kfunc int bpfdrv_i2c_read_byte(struct bpfdrv_dev *dev, u32 client)
{
	return -ENODEV;
}

__bpf_kfunc int bpfdrv_i2c_write_byte(struct bpfdrv_dev *dev, u32 client,
				      u8 value)
{
	return -ENODEV;
}

__bpf_kfunc int bpfdrv_i2c_read_byte_data(struct bpfdrv_dev *dev, u32 client,
					  u8 reg)
{
	return -ENODEV;
}

__bpf_kfunc int bpfdrv_i2c_write_byte_data(struct bpfdrv_dev *dev, u32 client,
					   u8 reg, u8 value)
{
	return -ENODEV;
}

__bpf_kfunc int bpfdrv_i2c_read_word_data(struct bpfdrv_dev *dev, u32 client,
					  u8 reg)
{
	return -ENODEV;
}

__bpf_kfunc int bpfdrv_i2c_write_word_data(struct bpfdrv_dev *dev, u32 client,
					   u8 reg, u16 value)
{
	return -ENODEV;
}

__bpf_kfunc int bpfdrv_i2c_read_block(struct bpfdrv_dev *dev, u32 client,
				      u8 reg, void *buf, u32 buf__sz)
{
	return -ENODEV;
}

__bpf_kfunc int bpfdrv_i2c_write_block(struct bpfdrv_dev *dev, u32 client,
				       u8 reg, void *buf, u32 buf__sz)
{
	return -ENODEV;
}

__bpf_kfunc int bpfdrv_i2c_transfer(struct bpfdrv_dev *dev, u32 client,
				    void *buf, u32 buf__sz, u32 wlen)
{
	return -ENODEV;
}

BTF_KFUNCS_START(bpfdrv_i2c_absent_kfunc_ids)
BTF_ID_FLAGS(func, bpfdrv_i2c_read_byte, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_i2c_write_byte, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_i2c_read_byte_data, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_i2c_write_byte_data, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_i2c_read_word_data, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_i2c_write_word_data, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_i2c_read_block, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_i2c_write_block, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_i2c_transfer, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_KFUNCS_END(bpfdrv_i2c_absent_kfunc_ids)

const struct bpfdrv_part bpfdrv_part_i2c = {
	.name = "i2c",
	.kfuncs = &bpfdrv_i2c_absent_kfunc_ids,
	.valid = bpfdrv_i2c_absent,
};
#endif

#if !IS_ENABLED(CONFIG_SPI_MASTER)
static int bpfdrv_spi_absent(const struct chr_ext_ops *ops)
{
	bool declared = bpfdrv_declared(ops->spi_controller, sizeof(ops->spi_controller)) ||
			ops->spi_cs || ops->spi_mode || ops->spi_max_speed_hz;

	return bpfdrv_absent(ops, declared, "a SPI device", "CONFIG_SPI_MASTER");
}

__bpf_kfunc int bpfdrv_spi_transfer(struct bpfdrv_dev *dev, void *buf,
				    u32 buf__sz)
{
	return -ENODEV;
}

__bpf_kfunc int bpfdrv_spi_write_then_read(struct bpfdrv_dev *dev, void *tx,
					   u32 tx__sz, void *rx, u32 rx__sz)
{
	return -ENODEV;
}

BTF_KFUNCS_START(bpfdrv_spi_absent_kfunc_ids)
BTF_ID_FLAGS(func, bpfdrv_spi_transfer, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_spi_write_then_read, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_KFUNCS_END(bpfdrv_spi_absent_kfunc_ids)

const struct bpfdrv_part bpfdrv_part_spi = {
	.name = "spi",
	.kfuncs = &bpfdrv_spi_absent_kfunc_ids,
	.valid = bpfdrv_spi_absent,
};
#endif

#if !IS_ENABLED(CONFIG_GPIOLIB)
static int bpfdrv_gpio_absent(const struct chr_ext_ops *ops)
{
	bool declared = bpfdrv_declared(ops->gpio_chip, sizeof(ops->gpio_chip)) ||
			bpfdrv_declared(ops->gpio_lines, sizeof(ops->gpio_lines)) ||
			ops->gpio_edge;

	return bpfdrv_absent(ops, declared, "GPIO lines", "CONFIG_GPIOLIB");
}

__bpf_kfunc int bpfdrv_gpio_get(struct bpfdrv_dev *dev, u32 line)
{
	return -ENODEV;
}

__bpf_kfunc int bpfdrv_gpio_set(struct bpfdrv_dev *dev, u32 line, u32 value)
{
	return -ENODEV;
}

__bpf_kfunc int bpfdrv_gpio_get_array(struct bpfdrv_dev *dev, u32 first,
				      u32 count, u32 *bits)
{
	*bits = 0;
	return -ENODEV;
}

__bpf_kfunc int bpfdrv_gpio_set_array(struct bpfdrv_dev *dev, u32 first,
				      u32 count, u32 bits)
{
	return -ENODEV;
}

BTF_KFUNCS_START(bpfdrv_gpio_absent_kfunc_ids)
BTF_ID_FLAGS(func, bpfdrv_gpio_get, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_gpio_set, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_gpio_get_array, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_gpio_set_array, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_KFUNCS_END(bpfdrv_gpio_absent_kfunc_ids)

const struct bpfdrv_part bpfdrv_part_gpio = {
	.name = "gpio",
	.kfuncs = &bpfdrv_gpio_absent_kfunc_ids,
	.valid = bpfdrv_gpio_absent,
};
#endif

#if !IS_ENABLED(CONFIG_HWMON)
static int bpfdrv_hwmon_absent(const struct chr_ext_ops *ops)
{
	bool declared = bpfdrv_declared(ops->sensors, sizeof(ops->sensors)) ||
			ops->sensor_read;

	return bpfdrv_absent(ops, declared, "hwmon sensors", "CONFIG_HWMON");
}

__bpf_kfunc int bpfdrv_sensor_report(struct bpfdrv_sensor_read *rd, s64 value)
{
	return -ENODEV;
}

BTF_KFUNCS_START(bpfdrv_hwmon_absent_kfunc_ids)
BTF_ID_FLAGS(func, bpfdrv_sensor_report, KF_TRUSTED_ARGS)
BTF_KFUNCS_END(bpfdrv_hwmon_absent_kfunc_ids)

const struct bpfdrv_part bpfdrv_part_hwmon = {
	.name = "hwmon",
	.kfuncs = &bpfdrv_hwmon_absent_kfunc_ids,
	.valid = bpfdrv_hwmon_absent,
};
#endif

#if !IS_ENABLED(CONFIG_INPUT)
static int bpfdrv_input_absent(const struct chr_ext_ops *ops)
{
	bool declared = bpfdrv_declared(ops->input_keys, sizeof(ops->input_keys));

	return bpfdrv_absent(ops, declared, "input keys", "CONFIG_INPUT");
}

__bpf_kfunc int bpfdrv_input_key(struct bpfdrv_dev *dev, u32 code, u32 value)
{
	return -ENODEV;
}

__bpf_kfunc int bpfdrv_input_sync(struct bpfdrv_dev *dev)
{
	return -ENODEV;
}

BTF_KFUNCS_START(bpfdrv_input_absent_kfunc_ids)
BTF_ID_FLAGS(func, bpfdrv_input_key, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_input_sync, KF_TRUSTED_ARGS)
BTF_KFUNCS_END(bpfdrv_input_absent_kfunc_ids)

const struct bpfdrv_part bpfdrv_part_input = {
	.name = "input",
	.kfuncs = &bpfdrv_input_absent_kfunc_ids,
	.valid = bpfdrv_input_absent,
};
#endif

__bpf_kfunc_end_defs();

#if !IS_ENABLED(CONFIG_LEDS_CLASS)
static int bpfdrv_leds_absent(const struct chr_ext_ops *ops)
{
	bool declared = bpfdrv_declared(ops->leds, sizeof(ops->leds)) ||
			ops->led_set || ops->led_get || ops->led_blink;

	return bpfdrv_absent(ops, declared, "LEDs", "CONFIG_LEDS_CLASS");
}

const struct bpfdrv_part bpfdrv_part_leds = {
	.name = "leds",
	.valid = bpfdrv_leds_absent,
};
#endif
