// SPDX-License-Identifier: GPL-2.0
/*
 * An input device per instance of a driver that declares input_keys: it
 * reports those KEY_/BTN_ codes, which the driver sends with the
 * bpfdrv_input_* kfuncs from any callback (a GPIO edge, an interrupt, a
 * write). Readers use evdev (/dev/input/eventN) as for any keyboard.
 *
 * The kfuncs may run while teardown unregisters the device: input_lock
 * orders them, and after bpfdrv_input_del() they return -ENODEV.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/input.h>
#include <linux/slab.h>

#include "bpfdrv.h"
#include "parts.h"
#include "kfuncs.h"

struct bpfdrv_input {
	struct input_dev *dev;
	char name[BPFDRV_NAME_MAX + 8];		/* "bpfdrv <instance>" */
	char phys[BPFDRV_NAME_MAX + 16];	/* "bpfdrv/<instance>/input0" */
};

static int bpfdrv_input_add(struct bpfdrv_device *bdev)
{
	const struct chr_ext_ops *ops = bdev->ops;
	struct bpfdrv_input *in;
	struct input_dev *idev;
	unsigned int i;
	int ret;

	if (!ops->input_keys[0])
		return 0;
	in = kzalloc(sizeof(*in), GFP_KERNEL);
	idev = input_allocate_device();
	if (!in || !idev) {
		kfree(in);
		input_free_device(idev);
		return -ENOMEM;
	}
	snprintf(in->name, sizeof(in->name), "bpfdrv %s", bdev->pub.name);
	snprintf(in->phys, sizeof(in->phys), "bpfdrv/%s/input0", bdev->pub.name);
	idev->name = in->name;
	idev->phys = in->phys;
	idev->dev.parent = &bdev->dev;
	if (bdev->pub.bus == BPFDRV_BUS_PCI) {
		idev->id.bustype = BUS_PCI;
		idev->id.vendor = bdev->pub.vendor;
		idev->id.product = bdev->pub.device;
	} else {
		idev->id.bustype = BUS_VIRTUAL;
	}
	/* the struct_ops checks refused codes out of range */
	for (i = 0; i < BPFDRV_MAX_INPUT_KEYS && ops->input_keys[i]; i++)
		input_set_capability(idev, EV_KEY, ops->input_keys[i]);
	ret = input_register_device(idev);
	if (ret) {
		dev_info(&bdev->dev, "cannot register input device: %d\n", ret);
		input_free_device(idev);
		kfree(in);
		return ret;
	}
	in->dev = idev;
	spin_lock_irq(&bdev->input_lock);
	bdev->input = in;
	spin_unlock_irq(&bdev->input_lock);
	return 0;
}

static void bpfdrv_input_del(struct bpfdrv_device *bdev)
{
	struct bpfdrv_input *in;

	spin_lock_irq(&bdev->input_lock);
	in = bdev->input;
	bdev->input = NULL;
	spin_unlock_irq(&bdev->input_lock);
	if (!in)
		return;
	input_unregister_device(in->dev);
	kfree(in);
}

__bpf_kfunc_start_defs();

/**
 * bpfdrv_input_key - report a key of the instance's input device
 * @dev: the device
 * @code: a KEY_ or BTN_ code declared in chr_ext_ops.input_keys
 * @value: 0 released, 1 pressed, 2 autorepeat
 *
 * Readers see it after bpfdrv_input_sync().
 *
 * Return: 0, -ENODEV (no input device, or it is going away), -EINVAL (an
 * undeclared code, a value over 2).
 */
__bpf_kfunc int bpfdrv_input_key(struct bpfdrv_dev *dev, u32 code, u32 value)
{
	struct bpfdrv_device *bdev = to_bpfdrv_device(dev);
	unsigned long flags;
	int ret = 0;

	if (value > 2)
		return -EINVAL;
	spin_lock_irqsave(&bdev->input_lock, flags);
	if (!bdev->input)
		ret = -ENODEV;
	else if (code > KEY_MAX || !test_bit(code, bdev->input->dev->keybit))
		ret = -EINVAL;
	else
		input_event(bdev->input->dev, EV_KEY, code, value);
	spin_unlock_irqrestore(&bdev->input_lock, flags);
	return ret;
}

/**
 * bpfdrv_input_sync - end a report: readers get the keys reported before
 * @dev: the device
 *
 * Return: 0, or -ENODEV (no input device, or it is going away).
 */
__bpf_kfunc int bpfdrv_input_sync(struct bpfdrv_dev *dev)
{
	struct bpfdrv_device *bdev = to_bpfdrv_device(dev);
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&bdev->input_lock, flags);
	if (bdev->input)
		input_sync(bdev->input->dev);
	else
		ret = -ENODEV;
	spin_unlock_irqrestore(&bdev->input_lock, flags);
	return ret;
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(bpfdrv_input_kfunc_ids)
BTF_ID_FLAGS(func, bpfdrv_input_key, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_input_sync, KF_TRUSTED_ARGS)
BTF_KFUNCS_END(bpfdrv_input_kfunc_ids)

/* Every instance: the kfuncs take the lock whether it declared keys or not. */
static void bpfdrv_input_init(struct bpfdrv_device *bdev)
{
	spin_lock_init(&bdev->input_lock);
}

const struct bpfdrv_part bpfdrv_part_input = {
	.name = "input",
	.init = bpfdrv_input_init,
	.kfuncs = &bpfdrv_input_kfunc_ids,
	.add = bpfdrv_input_add,
	.del = bpfdrv_input_del,
};
