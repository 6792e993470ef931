// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv_accel.ko on a kernel built without DRM's accel class, its GEM
 * shmem helpers or its GPU scheduler (Debian's cloud kernel): DKMS installs
 * both modules on every kernel, and this one says why it cannot load. An
 * accelerator driver is then refused at load (accel.c).
 */
#include <linux/module.h>

static int __init bpfdrv_accel_absent_init(void)
{
	pr_info("bpfdrv_accel: this kernel was built without DRM accel devices (CONFIG_DRM_ACCEL, CONFIG_DRM_GEM_SHMEM_HELPER, CONFIG_DRM_SCHED)\n");
	return -ENODEV;
}
module_init(bpfdrv_accel_absent_init);

MODULE_DESCRIPTION("bpfdrv's DRM accel class, absent from this kernel");
MODULE_LICENSE("GPL");
