// SPDX-License-Identifier: GPL-2.0
/*
 * LED class devices: one per chr_ext_ops.leds entry and instance, named
 * <instance>:<name>. brightness_set_blocking, brightness_get and blink_set
 * of the LED core call the driver's led_set, led_get and led_blink (the
 * last two only if it has them). Being blocking, they run in process
 * context: the core defers calls from atomic context (triggers) to its
 * workqueue.
 *
 * A name another LED holds fails the attach: the core would otherwise
 * rename ours (<name>_1), and user space would find another LED, or none,
 * where it looks.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/leds.h>
#include <linux/slab.h>

#include "call.h"
#include "parts.h"

/* Blink delays when the LED core leaves the choice to the driver. */
#define BPFDRV_LED_BLINK_DEFAULT_MS	500

struct bpfdrv_led_dev {
	struct led_classdev cdev;
	struct bpfdrv_device *bdev;
	u32 index;			/* in chr_ext_ops.leds */
	bool registered;
	char name[BPFDRV_NAME_MAX + BPFDRV_LED_NAME_MAX];
};

struct bpfdrv_leds {
	unsigned int nr;
	struct bpfdrv_led_dev led[] __counted_by(nr);
};

static unsigned int bpfdrv_led_count(const struct chr_ext_ops *ops)
{
	unsigned int n = 0;

	while (n < BPFDRV_MAX_LEDS && ops->leds[n].name[0])
		n++;
	return n;
}

static bool bpfdrv_led_name_valid(const char *name)
{
	size_t i, len = strnlen(name, BPFDRV_LED_NAME_MAX);

	if (!len || len == BPFDRV_LED_NAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!bpfdrv_isalnum(name[i]) && !strchr("_:-", name[i]))
			return false;
	return true;
}

/* Checks at load: names, brightness, no duplicate, and a led_set. */
static int bpfdrv_leds_valid(const struct chr_ext_ops *ops)
{
	unsigned int i, j, n = bpfdrv_led_count(ops);

	for (i = n; i < BPFDRV_MAX_LEDS; i++) {
		if (ops->leds[i].max_brightness ||
		    memchr_inv(ops->leds[i].name, 0, BPFDRV_LED_NAME_MAX)) {
			pr_info("driver %s: LED %u follows the end of its leds (an entry with an empty name)\n",
				ops->name, i);
			return -EINVAL;
		}
	}
	for (i = 0; i < n; i++) {
		const struct bpfdrv_led *led = &ops->leds[i];

		if (!bpfdrv_led_name_valid(led->name)) {
			pr_info("driver %s: invalid name for LED %u (want 1-%d of [A-Za-z0-9_:-])\n",
				ops->name, i, BPFDRV_LED_NAME_MAX - 1);
			return -EINVAL;
		}
		if (led->max_brightness > BPFDRV_LED_BRIGHTNESS_MAX) {
			pr_info("driver %s: LED %s: max_brightness %u is over %u\n",
				ops->name, led->name, led->max_brightness,
				BPFDRV_LED_BRIGHTNESS_MAX);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (!strcmp(ops->leds[j].name, led->name)) {
				pr_info("driver %s: LED %s is declared twice\n",
					ops->name, led->name);
				return -EINVAL;
			}
		}
	}
	if (n && !ops->led_set) {
		pr_info("driver %s declares LEDs but has no led_set callback\n",
			ops->name);
		return -EINVAL;
	}
	return 0;
}

static int bpfdrv_led_set(struct led_classdev *cdev, enum led_brightness value)
{
	struct bpfdrv_led_dev *led = container_of(cdev, struct bpfdrv_led_dev, cdev);

	return bpfdrv_call(led->bdev, BPFDRV_CALL_LIVE, BPFDRV_CB_LED_SET,
			   led_set, 0, -ENODEV, led->index, value);
}

/* The LED core keeps its last brightness when this fails. */
static enum led_brightness bpfdrv_led_get(struct led_classdev *cdev)
{
	struct bpfdrv_led_dev *led = container_of(cdev, struct bpfdrv_led_dev, cdev);

	return bpfdrv_call(led->bdev, BPFDRV_CALL_LIVE, BPFDRV_CB_LED_GET,
			   led_get, cdev->max_brightness, -ENODEV, led->index);
}

/* An error makes the LED core blink in software, through led_set. */
static int bpfdrv_led_blink(struct led_classdev *cdev, unsigned long *delay_on,
			    unsigned long *delay_off)
{
	struct bpfdrv_led_dev *led = container_of(cdev, struct bpfdrv_led_dev, cdev);

	if (!*delay_on && !*delay_off) {
		*delay_on = BPFDRV_LED_BLINK_DEFAULT_MS;
		*delay_off = BPFDRV_LED_BLINK_DEFAULT_MS;
	}
	/* the driver gets delays it can act on: 1..U32_MAX ms */
	if (!*delay_on || !*delay_off || *delay_on > U32_MAX ||
	    *delay_off > U32_MAX)
		return -EINVAL;
	return bpfdrv_call(led->bdev, BPFDRV_CALL_LIVE, BPFDRV_CB_LED_BLINK,
			   led_blink, 0, -ENODEV, led->index, *delay_on,
			   *delay_off);
}

static int bpfdrv_leds_add(struct bpfdrv_device *bdev)
{
	const struct chr_ext_ops *ops = bdev->ops;
	unsigned int i, n = bpfdrv_led_count(ops);
	struct bpfdrv_leds *leds;
	int ret;

	if (!n)
		return 0;
	leds = kzalloc(struct_size(leds, led, n), GFP_KERNEL);
	if (!leds)
		return -ENOMEM;
	leds->nr = n;
	bdev->leds = leds;
	for (i = 0; i < n; i++) {
		struct bpfdrv_led_dev *led = &leds->led[i];

		led->bdev = bdev;
		led->index = i;
		snprintf(led->name, sizeof(led->name), "%s:%s", bdev->pub.name,
			 ops->leds[i].name);
		led->cdev.name = led->name;
		led->cdev.max_brightness = ops->leds[i].max_brightness ?: 1;
		led->cdev.brightness_set_blocking = bpfdrv_led_set;
		if (ops->led_get)
			led->cdev.brightness_get = bpfdrv_led_get;
		if (ops->led_blink)
			led->cdev.blink_set = bpfdrv_led_blink;
		led->cdev.flags = LED_REJECT_NAME_CONFLICT;
		ret = led_classdev_register(&bdev->dev, &led->cdev);
		if (ret == -EEXIST) {
			dev_info(&bdev->dev, "LED name %s is taken by another LED\n",
				 led->name);
			return ret;
		}
		if (ret) {
			dev_info(&bdev->dev, "cannot register LED %s: %d\n",
				 led->name, ret);
			return ret;
		}
		led->registered = true;
	}
	return 0;
}

/* The LED core turns each LED off (led_set) before it goes. */
static void bpfdrv_leds_del(struct bpfdrv_device *bdev)
{
	struct bpfdrv_leds *leds = bdev->leds;
	unsigned int i;

	if (!leds)
		return;
	for (i = 0; i < leds->nr; i++)
		if (leds->led[i].registered)
			led_classdev_unregister(&leds->led[i].cdev);
	bdev->leds = NULL;
	kfree(leds);
}

const struct bpfdrv_part bpfdrv_part_leds = {
	.name = "leds",
	.valid = bpfdrv_leds_valid,
	.add = bpfdrv_leds_add,
	.del = bpfdrv_leds_del,
};
