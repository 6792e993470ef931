// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv: character-device drivers written as BPF struct_ops programs.
 *
 * This module owns what the kernel must own (device nodes, user memory,
 * locking, lifetimes) and registers the struct_ops type chr_ext_ops; each
 * attached chr_ext_ops map becomes a device /dev/bpfdrv/<name>.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernfs.h>
#include <linux/module.h>
#include <linux/sysfs.h>

#include "bpfdrv.h"
#include "driver.h"
#include "eject.h"
#include "hold.h"
#include "kfuncs.h"
#include "loop.h"
#include "node.h"
#include "parts.h"
#include "pci.h"
#include "struct_ops.h"

/*
 * struct_ops and kfunc registration "succeed" without doing anything when
 * the kernel dropped the module's BTF (a module built against other headers,
 * with CONFIG_MODULE_ALLOW_BTF_MISMATCH). The kernel publishes accepted
 * module BTF in /sys/kernel/btf/<module> before our init runs; check it.
 */
static bool bpfdrv_btf_present(void)
{
	struct kernfs_node *dir, *kn = NULL;

	dir = kernfs_find_and_get(kernel_kobj->sd, "btf");
	if (dir) {
		kn = kernfs_find_and_get(dir, KBUILD_MODNAME);
		kernfs_put(dir);
	}
	kernfs_put(kn);
	return kn;
}

/* /sys/kernel/bpfdrv/: each attribute lives in the file of its data */
static struct attribute *bpfdrv_kobj_attrs[] = {
	&bpfdrv_attr_exits.attr,		/* eject.c */
	&bpfdrv_attr_unload.attr,		/* driver.c */
	&bpfdrv_attr_starting.attr,
	&bpfdrv_attr_drivers.attr,
	&bpfdrv_attr_last_update.attr,		/* update.c */
	&bpfdrv_attr_last_refusal.attr,		/* allow.c */
	NULL
};

static const struct attribute_group bpfdrv_kobj_group = {
	.attrs = bpfdrv_kobj_attrs,
};

static struct kobject *bpfdrv_kobj;

static int bpfdrv_sysfs_init(void)
{
	int ret;

	bpfdrv_kobj = kobject_create_and_add(KBUILD_MODNAME, kernel_kobj);
	if (!bpfdrv_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(bpfdrv_kobj, &bpfdrv_kobj_group);
	if (ret)
		kobject_put(bpfdrv_kobj);
	return ret;
}

/* The core's answers to events of the lower layers, handed down. */
static const struct bpfdrv_hold_events bpfdrv_hold_events = {
	.pci_bound = bpfdrv_pci_group_bound,
	.dep_gone = bpfdrv_instance_dep_gone,
};

static const struct bpfdrv_pci_fn_events bpfdrv_pci_fn_events = {
	.added = bpfdrv_pci_fn_added,
	.removed = bpfdrv_pci_fn_removed,
};

static int __init bpfdrv_init(void)
{
	int ret;

	if (!bpfdrv_btf_present()) {
		pr_err("the kernel has no BTF for this module (built against other kernel headers?); BPF drivers cannot attach\n");
		return -ENOENT;
	}

	bpfdrv_hold_init(&bpfdrv_hold_events);
	ret = bpfdrv_sysfs_init();
	if (ret)
		return ret;
	ret = bpfdrv_node_init();
	if (ret)
		goto err_sysfs;
	ret = bpfdrv_kfuncs_init() ?: bpfdrv_loop_kfuncs_init() ?:
	      bpfdrv_eject_kfuncs_init() ?: bpfdrv_parts_kfuncs_init() ?:
	      bpfdrv_kfuncs_register();
	if (ret)
		goto err_kfuncs;
	ret = bpfdrv_pci_init(&bpfdrv_pci_fn_events);
	if (ret)
		goto err_kfuncs;
	ret = bpfdrv_struct_ops_init();
	if (ret)
		goto err_pci;
	return 0;

err_pci:
	bpfdrv_pci_exit();
err_kfuncs:
	bpfdrv_kfuncs_exit();
	bpfdrv_hold_exit();	/* the PCI bus watch, if bpfdrv_pci_init() set it */
	bpfdrv_node_exit();
err_sysfs:
	pr_err("registration failed: %d\n", ret);
	kobject_put(bpfdrv_kobj);
	bpfdrv_eject_exit();
	return ret;
}

/* Attached drivers hold a module reference, so none is left here. */
static void __exit bpfdrv_exit(void)
{
	bpfdrv_pci_exit();
	bpfdrv_kfuncs_exit();
	bpfdrv_hold_exit();
	bpfdrv_node_exit();
	kobject_put(bpfdrv_kobj);
	bpfdrv_eject_exit();
}

module_init(bpfdrv_init);
module_exit(bpfdrv_exit);

MODULE_DESCRIPTION("Character-device drivers written as BPF struct_ops programs");
MODULE_LICENSE("GPL");
