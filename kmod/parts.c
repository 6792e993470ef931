// SPDX-License-Identifier: GPL-2.0
/*
 * What an instance is made of besides its node and callbacks: its mmap
 * windows, its PCI function, the bus devices it claims (GPIO lines, I2C
 * clients, a SPI device) and its class devices (hwmon, input, LEDs). Each
 * plugs in with a struct bpfdrv_part in its own file, which names its
 * kfuncs' set and its steps; this table is the one place that names them,
 * and the core (main.c and struct_ops.c at load, driver.c when an instance
 * starts and finishes, chrdev.c at its release) runs each step over the
 * table without naming a bus or a class.
 *
 * Steps run in table order; del and release in reverse, so that what was
 * added last goes first.
 */
#include "bpfdrv.h"
#include "kfuncs.h"
#include "parts.h"

static const struct bpfdrv_part * const bpfdrv_parts[] = {
	&bpfdrv_part_mmap,
	&bpfdrv_part_pci,
	&bpfdrv_part_pci_bar,
	&bpfdrv_part_pci_dma,
	&bpfdrv_part_firmware,	/* after pci: the function is its device */
	&bpfdrv_part_gpio,
	&bpfdrv_part_i2c,
	&bpfdrv_part_spi,
	/* classes: LEDs last, as a taken LED name is the likeliest failure */
	&bpfdrv_part_hwmon,
	&bpfdrv_part_input,
	&bpfdrv_part_leds,
	&bpfdrv_part_accel,
	&bpfdrv_part_timers,
};

#define for_each_part(i, p)						\
	for ((i) = 0; (i) < ARRAY_SIZE(bpfdrv_parts) &&			\
		      ((p) = bpfdrv_parts[i], 1); (i)++)
#define for_each_part_reverse(i, p)					\
	for ((i) = ARRAY_SIZE(bpfdrv_parts); (i)-- > 0 &&		\
		      ((p) = bpfdrv_parts[i], 1);)

/* At module load: each part's kfuncs, from the set beside them (kfuncs.c). */
int bpfdrv_parts_kfuncs_init(void)
{
	const struct bpfdrv_part *p;
	unsigned int i;
	int ret;

	for_each_part(i, p) {
		ret = p->kfuncs ? bpfdrv_kfuncs_add(p->kfuncs) : 0;
		if (ret)
			return ret;
	}
	return 0;
}

/* At module load: the node's files, the core's and the parts' own. */
void bpfdrv_parts_sysfs(const struct attribute_group **groups,
			const struct attribute_group *core)
{
	const struct bpfdrv_part *p;
	unsigned int i, n = 0;

	BUILD_BUG_ON(ARRAY_SIZE(bpfdrv_parts) + 2 > BPFDRV_PARTS_GROUPS_MAX);
	groups[n++] = core;
	for_each_part(i, p)
		if (p->sysfs)
			groups[n++] = p->sysfs;
	groups[n] = NULL;
}

/* At load: the declarations of every part; the log says what is wrong. */
int bpfdrv_parts_valid(const struct chr_ext_ops *ops)
{
	const struct bpfdrv_part *p;
	unsigned int i;
	int ret;

	for_each_part(i, p) {
		ret = p->valid ? p->valid(ops) : 0;
		if (ret)
			return ret;
	}
	return 0;
}

/* Before init: claim what the driver declared; undone by release. */
int bpfdrv_parts_claim(struct bpfdrv_device *bdev)
{
	const struct bpfdrv_part *p;
	unsigned int i;
	int ret;

	for_each_part(i, p) {
		ret = p->claim ? p->claim(bdev) : 0;
		if (ret)
			return ret;
	}
	return 0;
}

/* Every instance, at reserve, whatever it declares: each part's state. */
void bpfdrv_parts_init(struct bpfdrv_device *bdev)
{
	const struct bpfdrv_part *p;
	unsigned int i;

	for_each_part(i, p)
		if (p->init)
			p->init(bdev);
}

/* init succeeded: what was held back (interrupts) may reach the driver. */
void bpfdrv_parts_live(struct bpfdrv_device *bdev)
{
	const struct bpfdrv_part *p;
	unsigned int i;

	for_each_part(i, p)
		if (p->live)
			p->live(bdev);
}

/* The node exists: add the class devices under it; undone by del. */
int bpfdrv_parts_add(struct bpfdrv_device *bdev)
{
	const struct bpfdrv_part *p;
	unsigned int i;
	int ret;

	for_each_part(i, p) {
		ret = p->add ? p->add(bdev) : 0;
		if (ret)
			return ret;
	}
	return 0;
}

/* Before the node goes; also after a partial add, or none. */
void bpfdrv_parts_del(struct bpfdrv_device *bdev)
{
	const struct bpfdrv_part *p;
	unsigned int i;

	for_each_part_reverse(i, p)
		if (p->del)
			p->del(bdev);
}

/* Drained, before exit: cut user space off what goes next. */
void bpfdrv_parts_revoke(struct bpfdrv_device *bdev)
{
	const struct bpfdrv_part *p;
	unsigned int i;

	for_each_part(i, p)
		if (p->revoke)
			p->revoke(bdev);
}

/* After exit: give everything back; also after a partial claim, or none. */
void bpfdrv_parts_release(struct bpfdrv_device *bdev)
{
	const struct bpfdrv_part *p;
	unsigned int i;

	for_each_part_reverse(i, p)
		if (p->release)
			p->release(bdev);
}

/* The instance's last reference went: no file, no mapping is left. */
void bpfdrv_parts_free(struct bpfdrv_device *bdev)
{
	const struct bpfdrv_part *p;
	unsigned int i;

	for_each_part(i, p)
		if (p->free)
			p->free(bdev);
}
