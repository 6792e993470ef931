/* SPDX-License-Identifier: GPL-2.0 */
/* an instance's parts and the steps run over them (parts.c) */
#ifndef __BPFDRV_KMOD_PARTS_H
#define __BPFDRV_KMOD_PARTS_H

#include "bpfdrv.h"

int bpfdrv_parts_kfuncs_init(void);

/*
 * A part of an instance (parts.c): a step left NULL does nothing. claim and
 * add may fail midway; release and del must then undo what was done.
 */
struct bpfdrv_part {
	const char *name;
	struct btf_id_set8 *kfuncs;	/* registered at module load */
	/* its files beside the node's, in /sys/class/bpfdrv/NAME/ */
	const struct attribute_group *sysfs;
	int (*valid)(const struct chr_ext_ops *ops);	/* at load */
	void (*init)(struct bpfdrv_device *bdev);	/* reserved: its state */
	int (*claim)(struct bpfdrv_device *bdev);	/* before init */
	void (*live)(struct bpfdrv_device *bdev);	/* init succeeded */
	int (*add)(struct bpfdrv_device *bdev);		/* the node exists */
	void (*del)(struct bpfdrv_device *bdev);	/* before it goes */
	void (*revoke)(struct bpfdrv_device *bdev);	/* drained, before exit */
	void (*release)(struct bpfdrv_device *bdev);	/* after exit */
	void (*free)(struct bpfdrv_device *bdev);	/* the last reference */
};

extern const struct bpfdrv_part bpfdrv_part_mmap, bpfdrv_part_pci,
	bpfdrv_part_pci_bar, bpfdrv_part_pci_dma,
	bpfdrv_part_gpio, bpfdrv_part_i2c, bpfdrv_part_spi, bpfdrv_part_hwmon,
	bpfdrv_part_input, bpfdrv_part_leds, bpfdrv_part_accel,
	bpfdrv_part_timers, bpfdrv_part_firmware;

/* the node's attribute groups: @core, then the parts', NULL-terminated */
#define BPFDRV_PARTS_GROUPS_MAX	16
void bpfdrv_parts_sysfs(const struct attribute_group **groups,
			const struct attribute_group *core);
int bpfdrv_parts_valid(const struct chr_ext_ops *ops);
void bpfdrv_parts_init(struct bpfdrv_device *bdev);
int bpfdrv_parts_claim(struct bpfdrv_device *bdev);
void bpfdrv_parts_live(struct bpfdrv_device *bdev);
int bpfdrv_parts_add(struct bpfdrv_device *bdev);
void bpfdrv_parts_del(struct bpfdrv_device *bdev);
void bpfdrv_parts_revoke(struct bpfdrv_device *bdev);
void bpfdrv_parts_release(struct bpfdrv_device *bdev);
void bpfdrv_parts_free(struct bpfdrv_device *bdev);

#endif /* __BPFDRV_KMOD_PARTS_H */
