// SPDX-License-Identifier: GPL-2.0
/*
 * GPIO lines of a BPF driver: claimed through gpiod when the driver attaches,
 * released when it detaches, reached from BPF only through the bpfdrv_gpio_*
 * kfuncs, which name a line by its index in chr_ext_ops.gpio_lines.
 *
 * Lines are claimed as a board file would: a gpiod lookup table keyed by the
 * chip's label and the bpfdrv device's name, gpiod_get_index() on that
 * device, then the table is removed again. gpiolib thus enforces exclusive
 * use: a line held by anyone else fails the attach with EBUSY. Each line
 * got is checked to be the declared one (another table for the same
 * device name would win).
 *
 * A chip must not go while bpfdrv holds its lines and their interrupts
 * (free_irq() on a removed chip is a use-after-free): its parent device is
 * held (hold.c). Before the chip's driver removes the chip, the revocation
 * frees the interrupts (waiting for a running edge thread), waits for the
 * kfuncs in flight, puts the lines, and ejects the driver (kind removed);
 * the kfuncs fail with ENODEV from then on. It does not wait for the
 * teardown, which may need a lock the removal holds (the chip's parent an
 * SPI device whose controller goes while the same instance holds a device
 * on it). A chip without a parent device is refused.
 *
 * Edge lines get a threaded interrupt; the thread reads the level and calls
 * the driver's gpio_edge callback through bpfdrv_call(), only while the
 * instance is live (init succeeded, no teardown yet). Detach drains those calls (an SRCU grace
 * period) before exit runs, and frees the interrupts after exit, before the
 * lines are put.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/gpio/consumer.h>
#include <linux/gpio/driver.h>
#include <linux/gpio/machine.h>
#include <linux/interrupt.h>
#include <linux/slab.h>

#include "call.h"
#include "hold.h"
#include "parts.h"
#include "kfuncs.h"

#define BPFDRV_GPIO_DIR_OUT	(BPFDRV_GPIO_OUT_LOW | BPFDRV_GPIO_OUT_HIGH)
#define BPFDRV_GPIO_EDGES	(BPFDRV_GPIO_EDGE_RISING | BPFDRV_GPIO_EDGE_FALLING)

struct bpfdrv_gpio_irq {
	struct bpfdrv_device *bdev;
	struct gpio_desc *desc;
	u32 line;			/* index in gpio_lines */
	int irq;			/* 0: none requested */
};

struct bpfdrv_gpio {
	unsigned int nr_lines;
	struct gpio_desc *descs[BPFDRV_MAX_GPIO_LINES];
	u32 flags[BPFDRV_MAX_GPIO_LINES];
	struct bpfdrv_gpio_irq irqs[BPFDRV_MAX_GPIO_LINES];
	char consumer[BPFDRV_NAME_MAX + 8];	/* "bpfdrv:<name>" */
};

static unsigned int bpfdrv_gpio_count(const struct chr_ext_ops *ops)
{
	unsigned int n = 0;

	while (n < BPFDRV_MAX_GPIO_LINES && ops->gpio_lines[n].flags)
		n++;
	return n;
}

/*
 * Refuse what gpiolib would report badly on the declared chip @gdev: an
 * offset past its end, an offset declared twice (it would say -EBUSY, held
 * by ourselves).
 */
static int bpfdrv_gpio_check(struct bpfdrv_device *bdev,
			     struct gpio_device *gdev, unsigned int n)
{
	const struct chr_ext_ops *ops = bdev->ops;
	struct gpio_desc *desc;
	unsigned int i, j;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		u32 off = ops->gpio_lines[i].offset;

		desc = off > U16_MAX ? ERR_PTR(-EINVAL) :
		       gpio_device_get_desc(gdev, off);
		if (IS_ERR(desc)) {
			dev_info(&bdev->dev, "GPIO chip '%s' has no line %u\n",
				 ops->gpio_chip, off);
			ret = -EINVAL;
		}
		for (j = 0; j < i && !ret; j++) {
			if (ops->gpio_lines[j].offset == off) {
				dev_info(&bdev->dev, "GPIO line %u of chip '%s' is declared twice\n",
					 off, ops->gpio_chip);
				ret = -EINVAL;
			}
		}
	}
	return ret;
}

static enum gpiod_flags bpfdrv_gpiod_flags(u32 flags)
{
	if (flags & BPFDRV_GPIO_OUT_HIGH)
		return GPIOD_OUT_HIGH;
	if (flags & BPFDRV_GPIO_OUT_LOW)
		return GPIOD_OUT_LOW;
	return GPIOD_IN;
}

/*
 * gpiolib uses the first lookup table whose device name matches: had
 * another table for this instance's name been added before ours, its
 * lines would be handed out. Refuse anything but the declared line.
 */
static int bpfdrv_gpio_is_declared(struct bpfdrv_device *bdev,
				   struct gpio_device *gdev,
				   struct gpio_desc *desc, u32 off)
{
	if (gpio_device_get_desc(gdev, off) == desc)
		return 0;
	dev_info(&bdev->dev, "another GPIO lookup table names this device: got a line other than %u of chip '%s'\n",
		 off, bdev->ops->gpio_chip);
	return -EBUSY;
}

/*
 * Request every declared line of chip @gdev, in order; on error put those
 * already got.
 */
static int bpfdrv_gpio_get_lines(struct bpfdrv_device *bdev,
				 struct gpio_device *gdev, struct bpfdrv_gpio *g)
{
	const struct chr_ext_ops *ops = bdev->ops;
	struct gpiod_lookup_table *table;
	struct gpio_desc *desc;
	unsigned int i;
	int ret = 0;

	table = kzalloc(struct_size(table, table, g->nr_lines + 1), GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	table->dev_id = dev_name(&bdev->dev);
	for (i = 0; i < g->nr_lines; i++) {
		u32 flags = ops->gpio_lines[i].flags;

		table->table[i] = GPIO_LOOKUP_IDX(ops->gpio_chip,
						  ops->gpio_lines[i].offset,
						  NULL, i,
						  flags & BPFDRV_GPIO_ACTIVE_LOW ?
						  GPIO_ACTIVE_LOW : GPIO_ACTIVE_HIGH);
	}

	gpiod_add_lookup_table(table);
	for (i = 0; i < g->nr_lines && !ret; i++) {
		u32 off = ops->gpio_lines[i].offset;

		desc = gpiod_get_index(&bdev->dev, NULL, i,
				       bpfdrv_gpiod_flags(g->flags[i]));
		if (IS_ERR(desc)) {
			ret = PTR_ERR(desc);
			if (ret == -EBUSY)
				dev_info(&bdev->dev, "GPIO line %u of chip '%s' is in use (gpioinfo shows by whom)\n",
					 off, ops->gpio_chip);
			else
				dev_info(&bdev->dev, "cannot claim GPIO line %u of chip '%s': %d\n",
					 off, ops->gpio_chip, ret);
			break;
		}
		g->descs[i] = desc;
		ret = bpfdrv_gpio_is_declared(bdev, gdev, desc, off);
		if (!ret)
			ret = gpiod_set_consumer_name(desc, g->consumer);
	}
	gpiod_remove_lookup_table(table);
	kfree(table);

	if (ret) {
		for (i = 0; i < g->nr_lines; i++) {
			if (g->descs[i])
				gpiod_put(g->descs[i]);
			g->descs[i] = NULL;
		}
		/* the chip went away between the check and the claim */
		if (ret == -EPROBE_DEFER)
			ret = -ENODEV;
	}
	return ret;
}

static irqreturn_t bpfdrv_gpio_edge_thread(int irq, void *data)
{
	struct bpfdrv_gpio_irq *gi = data;
	struct bpfdrv_device *bdev = gi->bdev;
	int value;

	value = gpiod_get_value_cansleep(gi->desc);
	if (value < 0)
		return IRQ_HANDLED;
	/* edges before init succeeded or after teardown began are dropped */
	bpfdrv_call_void(bdev, BPFDRV_CALL_LIVE, BPFDRV_CB_GPIO_EDGE, gpio_edge,
			 gi->line, value);
	return IRQ_HANDLED;
}

/* The trigger for the declared logical edges of an input line. */
static unsigned long bpfdrv_gpio_trigger(u32 flags)
{
	bool rising = flags & BPFDRV_GPIO_EDGE_RISING;
	bool falling = flags & BPFDRV_GPIO_EDGE_FALLING;

	/* An active-low line's logical rising edge is a physical falling one. */
	if (flags & BPFDRV_GPIO_ACTIVE_LOW)
		swap(rising, falling);
	return (rising ? IRQF_TRIGGER_RISING : 0) |
	       (falling ? IRQF_TRIGGER_FALLING : 0);
}

static void bpfdrv_gpio_free_irqs(struct bpfdrv_gpio *g)
{
	unsigned int i;

	for (i = 0; i < g->nr_lines; i++) {
		if (g->irqs[i].irq > 0)
			free_irq(g->irqs[i].irq, &g->irqs[i]);
		g->irqs[i].irq = 0;
	}
}

static int bpfdrv_gpio_request_irqs(struct bpfdrv_device *bdev,
				    struct bpfdrv_gpio *g)
{
	const struct chr_ext_ops *ops = bdev->ops;
	unsigned int i;
	int irq, ret;

	for (i = 0; i < g->nr_lines; i++) {
		struct bpfdrv_gpio_irq *gi = &g->irqs[i];

		if (!(g->flags[i] & BPFDRV_GPIO_EDGES))
			continue;
		irq = gpiod_to_irq(g->descs[i]);
		if (irq <= 0) {
			dev_info(&bdev->dev, "GPIO line %u of chip '%s' has no interrupt: %d\n",
				 ops->gpio_lines[i].offset, ops->gpio_chip, irq);
			ret = irq ? irq : -ENXIO;
			goto err;
		}
		gi->bdev = bdev;
		gi->desc = g->descs[i];
		gi->line = i;
		ret = request_threaded_irq(irq, NULL, bpfdrv_gpio_edge_thread,
					   IRQF_ONESHOT |
					   bpfdrv_gpio_trigger(g->flags[i]),
					   g->consumer, gi);
		if (ret) {
			dev_info(&bdev->dev, "cannot request the interrupt of GPIO line %u of chip '%s': %d\n",
				 ops->gpio_lines[i].offset, ops->gpio_chip, ret);
			goto err;
		}
		gi->irq = irq;
	}
	return 0;

err:
	bpfdrv_gpio_free_irqs(g);
	return ret;
}

static void bpfdrv_gpio_put_lines(struct bpfdrv_gpio *g)
{
	unsigned int i;

	for (i = 0; i < g->nr_lines; i++) {
		if (g->descs[i])
			gpiod_put(g->descs[i]);
		g->descs[i] = NULL;
	}
}

/* The chip goes: its edge threads end (they may call the kfuncs). */
static void bpfdrv_gpio_hold_stop(struct bpfdrv_hold *h)
{
	bpfdrv_gpio_free_irqs(h->bdev->gpio);
}

/* No kfunc uses the lines: the chip's removal finds them free. */
static void bpfdrv_gpio_hold_revoke(struct bpfdrv_hold *h)
{
	bpfdrv_gpio_put_lines(h->bdev->gpio);
}

static void bpfdrv_gpio_hold_release(struct bpfdrv_hold *h)
{
	struct bpfdrv_device *bdev = h->bdev;
	struct bpfdrv_gpio *g = bdev->gpio;

	bpfdrv_gpio_free_irqs(g);
	bpfdrv_gpio_put_lines(g);
	bdev->gpio = NULL;
	kfree(g);
}

static const struct bpfdrv_hold_ops bpfdrv_gpio_hold_ops = {
	.stop = bpfdrv_gpio_hold_stop,
	.revoke = bpfdrv_gpio_hold_revoke,
	.release = bpfdrv_gpio_hold_release,
};

/**
 * bpfdrv_gpio_claim - claim the GPIO lines a driver declares
 * @bdev: the device being created, named, not yet live
 *
 * Return: 0 (also when the driver declares no lines), -ENODEV for a missing
 * chip, -EBUSY for a line someone else holds, -EINVAL for a bad declaration.
 */
static int bpfdrv_gpio_claim(struct bpfdrv_device *bdev)
{
	const struct chr_ext_ops *ops = bdev->ops;
	unsigned int i, n = bpfdrv_gpio_count(ops);
	char what[BPFDRV_HOLD_WHAT_MAX];
	struct gpio_device *gdev;
	struct bpfdrv_gpio *g;
	bool edges = false;
	int ret;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		edges |= !!(ops->gpio_lines[i].flags & BPFDRV_GPIO_EDGES);
	if (edges && !ops->gpio_edge) {
		dev_info(&bdev->dev, "declares GPIO edges but has no gpio_edge callback\n");
		return -EINVAL;
	}
	/* gpiolib would say -EPROBE_DEFER for a chip that does not exist */
	gdev = gpio_device_find_by_label(ops->gpio_chip);
	if (!gdev) {
		dev_info(&bdev->dev, "no GPIO chip labelled '%s'\n", ops->gpio_chip);
		return -ENODEV;
	}
	ret = bpfdrv_gpio_check(bdev, gdev, n);
	if (ret)
		goto out;

	ret = -ENOMEM;
	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		goto out;
	g->nr_lines = n;
	for (i = 0; i < n; i++)
		g->flags[i] = ops->gpio_lines[i].flags;
	snprintf(g->consumer, sizeof(g->consumer), "bpfdrv:%s", dev_name(&bdev->dev));

	ret = bpfdrv_gpio_get_lines(bdev, gdev, g);
	if (ret)
		goto err_free;
	ret = bpfdrv_gpio_request_irqs(bdev, g);
	if (ret)
		goto err_put;
	snprintf(what, sizeof(what), "GPIO chip %s", ops->gpio_chip);
	/* a revocation may come as soon as it is held */
	bdev->gpio = g;
	ret = bpfdrv_hold(bdev, &bdev->gpio_hold,
			  gpio_device_to_device(gdev)->parent,
			  &bpfdrv_gpio_hold_ops, what);
	if (ret) {
		dev_info(&bdev->dev, "GPIO chip '%s' has no parent device whose removal bpfdrv can see: %d\n",
			 ops->gpio_chip, ret);
		bdev->gpio = NULL;
		bpfdrv_gpio_free_irqs(g);
		goto err_put;
	}
	goto out;

err_put:
	bpfdrv_gpio_put_lines(g);
err_free:
	kfree(g);
out:
	gpio_device_put(gdev);
	return ret;
}

/**
 * bpfdrv_gpio_release - free the interrupts and lines of a detached driver
 * @bdev: the device, dead, its callbacks drained and exit done
 */
static void bpfdrv_gpio_release(struct bpfdrv_device *bdev)
{
	bpfdrv_hold_release(&bdev->gpio_hold);
}

/*
 * The device's GPIO lines @first..@first + @count - 1, held (ended by
 * bpfdrv_gpio_put()), or NULL with *err: -ENODEV (no lines, or the chip
 * went), -EINVAL (an undeclared line).
 */
static struct bpfdrv_gpio *bpfdrv_gpio_get_lines_held(struct bpfdrv_dev *dev,
						      u32 first, u32 count,
						      int *err)
{
	struct bpfdrv_device *bdev = to_bpfdrv_device(dev);
	struct bpfdrv_gpio *g = bdev->gpio;

	if (!g || !bpfdrv_hold_get(&bdev->gpio_hold)) {
		*err = -ENODEV;
		return NULL;
	}
	if (!count || first >= g->nr_lines || count > g->nr_lines - first) {
		bpfdrv_hold_put(&bdev->gpio_hold);
		*err = -EINVAL;
		return NULL;
	}
	return g;
}

static void bpfdrv_gpio_put(struct bpfdrv_dev *dev)
{
	bpfdrv_hold_put(&to_bpfdrv_device(dev)->gpio_hold);
}

__bpf_kfunc_start_defs();

/**
 * bpfdrv_gpio_get - read one of the device's GPIO lines
 * @dev: the device
 * @line: index in chr_ext_ops.gpio_lines
 *
 * Return: the logical level (0 or 1; active-low lines inverted), -ENODEV if
 * the device has no GPIO lines, -EINVAL for an undeclared index, or the
 * chip's error.
 */
__bpf_kfunc int bpfdrv_gpio_get(struct bpfdrv_dev *dev, u32 line)
{
	struct bpfdrv_gpio *g;
	int ret;

	g = bpfdrv_gpio_get_lines_held(dev, line, 1, &ret);
	if (!g)
		return ret;
	ret = gpiod_get_value_cansleep(g->descs[line]);
	bpfdrv_gpio_put(dev);
	return ret;
}

/**
 * bpfdrv_gpio_set - drive one of the device's output lines
 * @dev: the device
 * @line: index in chr_ext_ops.gpio_lines
 * @value: logical level, 0 or not 0
 *
 * Return: 0, -ENODEV (no GPIO lines), -EINVAL (undeclared index), -EPERM
 * (an input line), or the chip's error.
 */
__bpf_kfunc int bpfdrv_gpio_set(struct bpfdrv_dev *dev, u32 line, u32 value)
{
	unsigned long map = !!value;
	struct bpfdrv_gpio *g;
	int ret;

	g = bpfdrv_gpio_get_lines_held(dev, line, 1, &ret);
	if (!g)
		return ret;
	if (!(g->flags[line] & BPFDRV_GPIO_DIR_OUT))
		ret = -EPERM;
	else	/* the array call returns the chip's error on 6.12 too */
		ret = gpiod_set_array_value_cansleep(1, &g->descs[line], NULL,
						     &map);
	bpfdrv_gpio_put(dev);
	return ret;
}

/**
 * bpfdrv_gpio_get_array - read consecutive lines at once
 * @dev: the device
 * @first: index of the first line
 * @count: number of lines, 1..32
 * @bits: out: bit i is the logical level of line @first + i
 *
 * Return: 0, -ENODEV, -EINVAL (a line outside the declared ones), or the
 * chip's error (then @bits is 0).
 */
__bpf_kfunc int bpfdrv_gpio_get_array(struct bpfdrv_dev *dev, u32 first,
				      u32 count, u32 *bits)
{
	unsigned long map = 0;
	struct bpfdrv_gpio *g;
	int ret;

	*bits = 0;
	g = bpfdrv_gpio_get_lines_held(dev, first, count, &ret);
	if (!g)
		return ret;
	ret = gpiod_get_array_value_cansleep(count, &g->descs[first], NULL, &map);
	bpfdrv_gpio_put(dev);
	if (!ret)
		*bits = map;
	return ret;
}

/**
 * bpfdrv_gpio_set_array - drive consecutive output lines at once
 * @dev: the device
 * @first: index of the first line
 * @count: number of lines, 1..32
 * @bits: bit i is the logical level for line @first + i
 *
 * Return: 0, -ENODEV, -EINVAL (a line outside the declared ones), -EPERM
 * (one of them is an input; nothing is set), or the chip's error.
 */
__bpf_kfunc int bpfdrv_gpio_set_array(struct bpfdrv_dev *dev, u32 first,
				      u32 count, u32 bits)
{
	unsigned long map = bits;
	struct bpfdrv_gpio *g;
	int ret;
	u32 i;

	g = bpfdrv_gpio_get_lines_held(dev, first, count, &ret);
	if (!g)
		return ret;
	for (i = first; i < first + count; i++)
		if (!(g->flags[i] & BPFDRV_GPIO_DIR_OUT))
			break;
	if (i < first + count)
		ret = -EPERM;
	else
		ret = gpiod_set_array_value_cansleep(count, &g->descs[first],
						     NULL, &map);
	bpfdrv_gpio_put(dev);
	return ret;
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(bpfdrv_gpio_kfunc_ids)
BTF_ID_FLAGS(func, bpfdrv_gpio_get, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_gpio_set, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_gpio_get_array, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_gpio_set_array, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_KFUNCS_END(bpfdrv_gpio_kfunc_ids)

const struct bpfdrv_part bpfdrv_part_gpio = {
	.name = "gpio",
	.kfuncs = &bpfdrv_gpio_kfunc_ids,
	.claim = bpfdrv_gpio_claim,
	.release = bpfdrv_gpio_release,
};
