// SPDX-License-Identifier: GPL-2.0
/*
 * led_taker: a test-only LED class device with the name given at load
 * (insmod led_taker.ko name=...), so a test can take the name a BPF
 * driver's LED would get and see the attach fail. Its brightness is
 * kept and does nothing.
 */
#include <linux/leds.h>
#include <linux/module.h>

static char *name;
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "the LED's name in /sys/class/leds");

static int led_taker_set(struct led_classdev *cdev, enum led_brightness value)
{
	return 0;
}

static struct led_classdev led_taker = {
	.max_brightness = 1,
	.brightness_set_blocking = led_taker_set,
};

static int __init led_taker_init(void)
{
	if (!name || !*name)
		return -EINVAL;
	led_taker.name = name;
	led_taker.flags = LED_REJECT_NAME_CONFLICT;
	return led_classdev_register(NULL, &led_taker);
}
module_init(led_taker_init);

static void __exit led_taker_exit(void)
{
	led_classdev_unregister(&led_taker);
}
module_exit(led_taker_exit);

MODULE_DESCRIPTION("bpfdrv selftests: an LED class device to take a name");
MODULE_LICENSE("GPL");
