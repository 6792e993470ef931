// SPDX-License-Identifier: GPL-2.0
/*
 * gpio_loopback: a test-only GPIO chip whose lines are wired in pairs.
 *
 * The chip "bpfdrv-loopback" has 16 lines; line k and line k + 8 are joined
 * by a wire. An output line reads its own value; an input line reads what
 * its partner drives when the partner is an output, else 0 (a pull-down). So
 * a value a driver sets on one side can be read through the GPIO character
 * device on the other side, and setting a line from user space drives an
 * edge into its partner.
 *
 * Edges raise interrupts through a GPIOLIB_IRQCHIP irq_chip: every change of
 * a line's direction or value recomputes all levels, and a changed level on
 * an unmasked line whose trigger matches is injected from a hard irq_work
 * (a hard one on PREEMPT_RT too, as irq_sim's), the hard interrupt context a
 * real chip's parent interrupt would run in. Lines
 * keep their state when released, as real pins do, so a short-lived gpioset
 * leaves its partner at the level it set. Nothing here sleeps: the chip is
 * can_sleep = false and its state is under a raw spinlock.
 */
#include <linux/bitmap.h>
#include <linux/gpio/driver.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/spinlock.h>

#define LOOPBACK_LABEL	"bpfdrv-loopback"
#define LOOPBACK_NGPIO	16
#define LOOPBACK_HALF	(LOOPBACK_NGPIO / 2)

struct gpio_loopback {
	struct gpio_chip gc;
	raw_spinlock_t lock;		/* everything below */
	unsigned long is_out;		/* direction: 1 = output */
	unsigned long value;		/* driven values of output lines */
	unsigned long level;		/* levels as last computed */
	unsigned long unmasked;		/* interrupts enabled */
	unsigned long rising;		/* trigger types */
	unsigned long falling;
	unsigned long pending;		/* edges for the irq_work to inject */
	struct irq_work work;
};

static struct platform_device *loopback_pdev;

static unsigned int loopback_partner(unsigned int offset)
{
	return offset ^ LOOPBACK_HALF;
}

/* What @offset reads: its own value, or its partner's, or the pull-down. */
static bool loopback_level(struct gpio_loopback *lb, unsigned int offset)
{
	unsigned int p = loopback_partner(offset);

	if (test_bit(offset, &lb->is_out))
		return test_bit(offset, &lb->value);
	return test_bit(p, &lb->is_out) && test_bit(p, &lb->value);
}

/* After any change: record new levels, queue the edges that interrupt. */
static void loopback_update(struct gpio_loopback *lb)
{
	unsigned int offset;

	lockdep_assert_held(&lb->lock);
	for (offset = 0; offset < LOOPBACK_NGPIO; offset++) {
		bool now = loopback_level(lb, offset);

		if (now == test_bit(offset, &lb->level))
			continue;
		__assign_bit(offset, &lb->level, now);
		if (test_bit(offset, &lb->unmasked) &&
		    test_bit(offset, now ? &lb->rising : &lb->falling))
			__set_bit(offset, &lb->pending);
	}
	if (lb->pending)
		irq_work_queue(&lb->work);
}

static void loopback_inject(struct irq_work *work)
{
	struct gpio_loopback *lb = container_of(work, struct gpio_loopback, work);
	unsigned long pending, flags;
	unsigned int offset;

	raw_spin_lock_irqsave(&lb->lock, flags);
	pending = lb->pending;
	lb->pending = 0;
	raw_spin_unlock_irqrestore(&lb->lock, flags);

	for_each_set_bit(offset, &pending, LOOPBACK_NGPIO)
		generic_handle_domain_irq(lb->gc.irq.domain, offset);
}

static int loopback_get(struct gpio_chip *gc, unsigned int offset)
{
	struct gpio_loopback *lb = gpiochip_get_data(gc);
	unsigned long flags;
	int level;

	raw_spin_lock_irqsave(&lb->lock, flags);
	level = loopback_level(lb, offset);
	raw_spin_unlock_irqrestore(&lb->lock, flags);
	return level;
}

static void loopback_set_value(struct gpio_chip *gc, unsigned int offset,
			       int value)
{
	struct gpio_loopback *lb = gpiochip_get_data(gc);
	unsigned long flags;

	raw_spin_lock_irqsave(&lb->lock, flags);
	__assign_bit(offset, &lb->value, value);
	loopback_update(lb);
	raw_spin_unlock_irqrestore(&lb->lock, flags);
}

/*
 * gpio_chip.set returns void up to 6.16 and int from 6.17 on; pick the
 * variant that matches the member's type instead of testing versions.
 */
static void loopback_set_void(struct gpio_chip *gc, unsigned int offset,
			      int value)
{
	loopback_set_value(gc, offset, value);
}

static int loopback_set_int(struct gpio_chip *gc, unsigned int offset,
			    int value)
{
	loopback_set_value(gc, offset, value);
	return 0;
}

#define loopback_set_fn(member)						\
	_Generic((member),						\
		void (*)(struct gpio_chip *, unsigned int, int) :	\
			loopback_set_void,				\
		default :						\
			loopback_set_int)

static int loopback_get_direction(struct gpio_chip *gc, unsigned int offset)
{
	struct gpio_loopback *lb = gpiochip_get_data(gc);
	unsigned long flags;
	bool out;

	raw_spin_lock_irqsave(&lb->lock, flags);
	out = test_bit(offset, &lb->is_out);
	raw_spin_unlock_irqrestore(&lb->lock, flags);
	return out ? GPIO_LINE_DIRECTION_OUT : GPIO_LINE_DIRECTION_IN;
}

static int loopback_direction_input(struct gpio_chip *gc, unsigned int offset)
{
	struct gpio_loopback *lb = gpiochip_get_data(gc);
	unsigned long flags;

	raw_spin_lock_irqsave(&lb->lock, flags);
	__clear_bit(offset, &lb->is_out);
	loopback_update(lb);
	raw_spin_unlock_irqrestore(&lb->lock, flags);
	return 0;
}

static int loopback_direction_output(struct gpio_chip *gc, unsigned int offset,
				     int value)
{
	struct gpio_loopback *lb = gpiochip_get_data(gc);
	unsigned long flags;

	raw_spin_lock_irqsave(&lb->lock, flags);
	__assign_bit(offset, &lb->value, value);
	__set_bit(offset, &lb->is_out);
	loopback_update(lb);
	raw_spin_unlock_irqrestore(&lb->lock, flags);
	return 0;
}

static void loopback_irq_mask(struct irq_data *d)
{
	struct gpio_chip *gc = irq_data_get_irq_chip_data(d);
	struct gpio_loopback *lb = gpiochip_get_data(gc);
	irq_hw_number_t hwirq = irqd_to_hwirq(d);
	unsigned long flags;

	raw_spin_lock_irqsave(&lb->lock, flags);
	__clear_bit(hwirq, &lb->unmasked);
	raw_spin_unlock_irqrestore(&lb->lock, flags);
	gpiochip_disable_irq(gc, hwirq);
}

static void loopback_irq_unmask(struct irq_data *d)
{
	struct gpio_chip *gc = irq_data_get_irq_chip_data(d);
	struct gpio_loopback *lb = gpiochip_get_data(gc);
	irq_hw_number_t hwirq = irqd_to_hwirq(d);
	unsigned long flags;

	gpiochip_enable_irq(gc, hwirq);
	raw_spin_lock_irqsave(&lb->lock, flags);
	__set_bit(hwirq, &lb->unmasked);
	raw_spin_unlock_irqrestore(&lb->lock, flags);
}

static int loopback_irq_set_type(struct irq_data *d, unsigned int type)
{
	struct gpio_chip *gc = irq_data_get_irq_chip_data(d);
	struct gpio_loopback *lb = gpiochip_get_data(gc);
	irq_hw_number_t hwirq = irqd_to_hwirq(d);
	unsigned long flags;

	/* edges only: a level interrupt would need re-raising on unmask */
	type &= IRQ_TYPE_SENSE_MASK;
	if (type & ~IRQ_TYPE_EDGE_BOTH)
		return -EINVAL;

	raw_spin_lock_irqsave(&lb->lock, flags);
	__assign_bit(hwirq, &lb->rising, type & IRQ_TYPE_EDGE_RISING);
	__assign_bit(hwirq, &lb->falling, type & IRQ_TYPE_EDGE_FALLING);
	raw_spin_unlock_irqrestore(&lb->lock, flags);
	return 0;
}

static const struct irq_chip loopback_irq_chip = {
	.name = LOOPBACK_LABEL,
	.irq_mask = loopback_irq_mask,
	.irq_unmask = loopback_irq_unmask,
	.irq_set_type = loopback_irq_set_type,
	.flags = IRQCHIP_IMMUTABLE | IRQCHIP_SKIP_SET_WAKE,
	GPIOCHIP_IRQ_RESOURCE_HELPERS,
};

static void loopback_sync_work(void *data)
{
	struct gpio_loopback *lb = data;

	irq_work_sync(&lb->work);
}

static int loopback_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct gpio_loopback *lb;
	struct gpio_irq_chip *girq;
	int ret;

	lb = devm_kzalloc(dev, sizeof(*lb), GFP_KERNEL);
	if (!lb)
		return -ENOMEM;
	raw_spin_lock_init(&lb->lock);
	/* hard: on PREEMPT_RT a plain irq_work runs in a thread, irqs enabled */
	lb->work = IRQ_WORK_INIT_HARD(loopback_inject);

	lb->gc.label = LOOPBACK_LABEL;
	lb->gc.parent = dev;
	lb->gc.owner = THIS_MODULE;
	lb->gc.base = -1;
	lb->gc.ngpio = LOOPBACK_NGPIO;
	lb->gc.can_sleep = false;
	lb->gc.get = loopback_get;
	lb->gc.set = loopback_set_fn(lb->gc.set);
	lb->gc.get_direction = loopback_get_direction;
	lb->gc.direction_input = loopback_direction_input;
	lb->gc.direction_output = loopback_direction_output;

	girq = &lb->gc.irq;
	gpio_irq_chip_set_chip(girq, &loopback_irq_chip);
	girq->handler = handle_simple_irq;
	girq->default_type = IRQ_TYPE_NONE;

	ret = devm_gpiochip_add_data(dev, &lb->gc, lb);
	if (ret)
		return ret;
	/*
	 * Released before the chip and its irq domain: once the module goes
	 * nobody holds a line, so no edge is queued after this sync.
	 */
	return devm_add_action_or_reset(dev, loopback_sync_work, lb);
}

static struct platform_driver loopback_driver = {
	.probe = loopback_probe,
	.driver = {
		.name = "gpio-loopback",
	},
};

static int __init loopback_init(void)
{
	int ret;

	ret = platform_driver_register(&loopback_driver);
	if (ret)
		return ret;
	loopback_pdev = platform_device_register_simple("gpio-loopback",
							PLATFORM_DEVID_NONE,
							NULL, 0);
	if (IS_ERR(loopback_pdev)) {
		platform_driver_unregister(&loopback_driver);
		return PTR_ERR(loopback_pdev);
	}
	return 0;
}

static void __exit loopback_exit(void)
{
	platform_device_unregister(loopback_pdev);
	platform_driver_unregister(&loopback_driver);
}

module_init(loopback_init);
module_exit(loopback_exit);

MODULE_DESCRIPTION("Test GPIO chip with lines wired in pairs (bpfdrv selftests)");
MODULE_LICENSE("GPL");
