// SPDX-License-Identifier: GPL-2.0
/*
 * A hwmon device per instance of a driver that declares sensors: each read
 * of tempN_input or inN_input calls the driver's sensor_read, which reports
 * the value with bpfdrv_sensor_report(). The device's name is the
 * instance's, made valid for hwmon ('-' becomes '_').
 *
 * Its parent is the instance's PCI function, or none: sensors(1) lists
 * hwmon devices by their parent's bus, as <name>-pci-NNNN or
 * <name>-virtual-0, and skips those under a device of an unknown bus, as
 * the instance's node would be. Without a parent, the hwmon core takes
 * attribute groups rather than channel descriptions.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/ctype.h>
#include <linux/hwmon.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "call.h"
#include "parts.h"
#include "kfuncs.h"

/* "temp8_label" */
#define BPFDRV_HWMON_ATTR_NAME_MAX	16

struct bpfdrv_hwmon_attr {
	struct device_attribute attr;
	u8 sensor;			/* index in chr_ext_ops.sensors */
	char name[BPFDRV_HWMON_ATTR_NAME_MAX];
};

struct bpfdrv_hwmon {
	struct bpfdrv_device *bdev;
	struct device *dev;		/* the hwmon device */
	char *name;
	struct bpfdrv_hwmon_attr attrs[2 * BPFDRV_MAX_SENSORS];
	struct attribute *attr_list[2 * BPFDRV_MAX_SENSORS + 1];
	struct attribute_group group;
	const struct attribute_group *groups[2];
};

/* One reading: what the driver sees, and what it reported. */
struct bpfdrv_sensor_read_kern {
	struct bpfdrv_sensor_read pub;
	s64 value;
	bool reported;
};

static unsigned int bpfdrv_sensor_count(const struct chr_ext_ops *ops)
{
	unsigned int n = 0;

	while (n < BPFDRV_MAX_SENSORS && ops->sensors[n].type)
		n++;
	return n;
}

static bool bpfdrv_sensor_label_valid(const char *label)
{
	size_t i, len = strnlen(label, BPFDRV_SENSOR_LABEL_MAX);

	if (len == BPFDRV_SENSOR_LABEL_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!isprint(label[i]))
			return false;
	return true;
}

/* Checks at load: known types, printable labels, and a sensor_read. */
static int bpfdrv_sensors_valid(const struct chr_ext_ops *ops)
{
	unsigned int i, n = bpfdrv_sensor_count(ops);

	for (i = 0; i < BPFDRV_MAX_SENSORS; i++) {
		const struct bpfdrv_sensor *s = &ops->sensors[i];

		if (i >= n && memchr_inv(s, 0, sizeof(*s))) {
			pr_info("driver %s: sensor %u follows the end of its sensors (an entry of type 0)\n",
				ops->name, i);
			return -EINVAL;
		}
		if (i < n && s->type != BPFDRV_SENSOR_TEMP &&
		    s->type != BPFDRV_SENSOR_IN) {
			pr_info("driver %s: sensor %u has unknown type %u\n",
				ops->name, i, s->type);
			return -EINVAL;
		}
		if (i < n && !bpfdrv_sensor_label_valid(s->label)) {
			pr_info("driver %s: sensor %u: label is not printable text of at most %d characters\n",
				ops->name, i, BPFDRV_SENSOR_LABEL_MAX - 1);
			return -EINVAL;
		}
	}
	if (n && !ops->sensor_read) {
		pr_info("driver %s declares sensors but has no sensor_read callback\n",
			ops->name);
		return -EINVAL;
	}
	return 0;
}

static ssize_t bpfdrv_hwmon_input_show(struct device *dev,
				       struct device_attribute *attr, char *buf)
{
	struct bpfdrv_hwmon_attr *ha =
		container_of(attr, struct bpfdrv_hwmon_attr, attr);
	struct bpfdrv_hwmon *hw = dev_get_drvdata(dev);
	struct bpfdrv_device *bdev = hw->bdev;
	struct bpfdrv_sensor_read_kern rd = {};
	int ret;

	/* fixed since load; the ops an update swaps are freed after RCU */
	rd.pub.sensor = ha->sensor;
	rcu_read_lock();
	rd.pub.type = READ_ONCE(bdev->ops)->sensors[ha->sensor].type;
	rcu_read_unlock();
	ret = bpfdrv_call(bdev, BPFDRV_CALL_LIVE, BPFDRV_CB_SENSOR_READ,
			  sensor_read, 0, -ENODEV, &rd.pub);
	if (ret)
		return ret;
	/* success without a value: the sensor has none to give */
	if (!rd.reported)
		return -ENODATA;
	return sysfs_emit(buf, "%lld\n", rd.value);
}

/*
 * Labels are fixed since load: an update cannot change the sensors. But
 * it swaps the ops, and frees the old ones after an RCU grace period.
 */
static ssize_t bpfdrv_hwmon_label_show(struct device *dev,
				       struct device_attribute *attr, char *buf)
{
	struct bpfdrv_hwmon_attr *ha =
		container_of(attr, struct bpfdrv_hwmon_attr, attr);
	struct bpfdrv_hwmon *hw = dev_get_drvdata(dev);
	ssize_t len;

	rcu_read_lock();
	len = sysfs_emit(buf, "%s\n",
			 READ_ONCE(hw->bdev->ops)->sensors[ha->sensor].label);
	rcu_read_unlock();
	return len;
}

static void bpfdrv_hwmon_attr(struct bpfdrv_hwmon *hw, unsigned int *n,
			      u8 sensor, const char *prefix, unsigned int chan,
			      bool label)
{
	struct bpfdrv_hwmon_attr *ha = &hw->attrs[*n];

	snprintf(ha->name, sizeof(ha->name), "%s%u_%s", prefix, chan,
		 label ? "label" : "input");
	sysfs_attr_init(&ha->attr.attr);
	ha->attr.attr.name = ha->name;
	ha->attr.attr.mode = 0444;
	ha->attr.show = label ? bpfdrv_hwmon_label_show : bpfdrv_hwmon_input_show;
	ha->sensor = sensor;
	hw->attr_list[(*n)++] = &ha->attr.attr;
}

static int bpfdrv_hwmon_add(struct bpfdrv_device *bdev)
{
	const struct chr_ext_ops *ops = bdev->ops;
	unsigned int i, n = 0, nr_temp = 0, nr_in = 0;
	struct bpfdrv_hwmon *hw;
	struct device *hdev;

	if (!ops->sensors[0].type)
		return 0;
	hw = kzalloc(sizeof(*hw), GFP_KERNEL);
	if (!hw)
		return -ENOMEM;
	hw->name = hwmon_sanitize_name(bdev->pub.name);
	if (IS_ERR(hw->name)) {
		kfree(hw);
		return -ENOMEM;
	}
	hw->bdev = bdev;
	/* temperatures count from 1, voltages from 0 (hwmon's sysfs ABI) */
	for (i = 0; i < BPFDRV_MAX_SENSORS && ops->sensors[i].type; i++) {
		bool temp = ops->sensors[i].type == BPFDRV_SENSOR_TEMP;
		const char *prefix = temp ? "temp" : "in";
		unsigned int chan = temp ? ++nr_temp : nr_in++;

		bpfdrv_hwmon_attr(hw, &n, i, prefix, chan, false);
		if (ops->sensors[i].label[0])
			bpfdrv_hwmon_attr(hw, &n, i, prefix, chan, true);
	}
	hw->group.attrs = hw->attr_list;
	hw->groups[0] = &hw->group;

	hdev = hwmon_device_register_with_groups(bdev->active_fn ?
						 &bdev->active_fn->pdev->dev : NULL,
						 hw->name, hw, hw->groups);
	if (IS_ERR(hdev)) {
		dev_info(&bdev->dev, "cannot register hwmon device: %ld\n",
			 PTR_ERR(hdev));
		kfree(hw->name);
		kfree(hw);
		return PTR_ERR(hdev);
	}
	hw->dev = hdev;
	bdev->hwmon = hw;
	return 0;
}

/* Waits for readings in progress. */
static void bpfdrv_hwmon_del(struct bpfdrv_device *bdev)
{
	struct bpfdrv_hwmon *hw = bdev->hwmon;

	if (!hw)
		return;
	hwmon_device_unregister(hw->dev);
	bdev->hwmon = NULL;
	kfree(hw->name);
	kfree(hw);
}

__bpf_kfunc_start_defs();

/**
 * bpfdrv_sensor_report - give the value of the reading at hand
 * @rd: the reading sensor_read got
 * @value: in the sensor type's unit (millidegrees Celsius, millivolts)
 *
 * Return: 0.
 */
__bpf_kfunc int bpfdrv_sensor_report(struct bpfdrv_sensor_read *rd, s64 value)
{
	struct bpfdrv_sensor_read_kern *k =
		container_of(rd, struct bpfdrv_sensor_read_kern, pub);

	k->value = value;
	k->reported = true;
	return 0;
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(bpfdrv_hwmon_kfunc_ids)
BTF_ID_FLAGS(func, bpfdrv_sensor_report, KF_TRUSTED_ARGS)
BTF_KFUNCS_END(bpfdrv_hwmon_kfunc_ids)

const struct bpfdrv_part bpfdrv_part_hwmon = {
	.name = "hwmon",
	.kfuncs = &bpfdrv_hwmon_kfunc_ids,
	.valid = bpfdrv_sensors_valid,
	.add = bpfdrv_hwmon_add,
	.del = bpfdrv_hwmon_del,
};
