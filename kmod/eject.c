// SPDX-License-Identifier: GPL-2.0
/*
 * Ejection, the sched_ext model: a driver that reports a fatal error
 * (bpfdrv_eject()) or keeps violating the protocol is detached
 * asynchronously, as by an unload, and why is kept after it is gone. Every
 * driver's last exit is listed in /sys/kernel/bpfdrv/exits, one line each:
 *
 *	NAME KIND TIME CALLBACK MESSAGE
 *
 * KIND is unload, error, protocol or removed; TIME is seconds since the
 * epoch; CALLBACK is the callback that failed, or "-"; MESSAGE runs to the
 * end of the line. Writing a name to /sys/kernel/bpfdrv/unload detaches that
 * driver the same way, with kind unload.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/capability.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>

#include "call.h"
#include "eject.h"
#include "kfuncs.h"

/* Records kept: the newest per driver name, the oldest names dropped. */
#define BPFDRV_MAX_EXITS	16

struct bpfdrv_exit_rec {
	struct list_head node;
	char name[BPFDRV_NAME_MAX];
	struct bpfdrv_exit_info info;
};

static DEFINE_SPINLOCK(bpfdrv_exits_lock);
static LIST_HEAD(bpfdrv_exits);
static unsigned int bpfdrv_nr_exits;

const char * const bpfdrv_cb_names[BPFDRV_CB_NR] = {
	[BPFDRV_CB_NONE] = "-",
	[BPFDRV_CB_INIT] = "init",
	[BPFDRV_CB_EXIT] = "exit",
	[BPFDRV_CB_OPEN] = "open",
	[BPFDRV_CB_RELEASE] = "release",
	[BPFDRV_CB_READ] = "read",
	[BPFDRV_CB_WRITE] = "write",
	[BPFDRV_CB_IOCTL] = "ioctl",
	[BPFDRV_CB_POLL] = "poll",
	[BPFDRV_CB_IRQ] = "irq",
	[BPFDRV_CB_GPIO_EDGE] = "gpio_edge",
	[BPFDRV_CB_TAKEOVER] = "takeover",
	[BPFDRV_CB_LED_SET] = "led_set",
	[BPFDRV_CB_LED_GET] = "led_get",
	[BPFDRV_CB_LED_BLINK] = "led_blink",
	[BPFDRV_CB_SENSOR_READ] = "sensor_read",
	[BPFDRV_CB_IRQ_HARD] = "irq_hard",
	[BPFDRV_CB_ACCEL_IOCTL] = "accel_ioctl",
	[BPFDRV_CB_ACCEL_RUN_JOB] = "accel_run_job",
	[BPFDRV_CB_ACCEL_TIMEOUT] = "accel_timeout",
	[BPFDRV_CB_TIMER] = "timer",
	[BPFDRV_CB_ACCEL_GET_PARAM] = "accel_get_param",
	[BPFDRV_CB_ACCEL_VM_MAP] = "accel_vm_map",
	[BPFDRV_CB_ACCEL_VM_UNMAP] = "accel_vm_unmap",
	[BPFDRV_CB_RESET_PREPARE] = "reset_prepare",
	[BPFDRV_CB_RESET_DONE] = "reset_done",
	[BPFDRV_CB_ERROR_DETECTED] = "error_detected",
	[BPFDRV_CB_SLOT_RESET] = "slot_reset",
	[BPFDRV_CB_ERROR_RESUME] = "error_resume",
	[BPFDRV_CB_SUSPEND] = "suspend",
	[BPFDRV_CB_RESUME] = "resume",
};

static const char * const bpfdrv_exit_kinds[] = {
	[BPFDRV_EXIT_NONE] = "none",
	[BPFDRV_EXIT_UNLOAD] = "unload",
	[BPFDRV_EXIT_ERROR] = "error",
	[BPFDRV_EXIT_PROTOCOL] = "protocol",
	[BPFDRV_EXIT_REMOVED] = "removed",
};

/* Keep @info as the last exit of driver @name. */
void bpfdrv_exit_record(const char *name, const struct bpfdrv_exit_info *info)
{
	struct bpfdrv_exit_rec *rec, *r, *old = NULL;

	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return;
	strscpy(rec->name, name, sizeof(rec->name));
	rec->info = *info;

	spin_lock(&bpfdrv_exits_lock);
	list_for_each_entry(r, &bpfdrv_exits, node) {
		if (!strcmp(r->name, name)) {
			old = r;
			break;
		}
	}
	if (!old && bpfdrv_nr_exits == BPFDRV_MAX_EXITS)
		old = list_first_entry(&bpfdrv_exits, struct bpfdrv_exit_rec, node);
	if (old)
		list_del(&old->node);
	else
		bpfdrv_nr_exits++;
	list_add_tail(&rec->node, &bpfdrv_exits);
	spin_unlock(&bpfdrv_exits_lock);
	kfree(old);
}

/*
 * The link a driver was attached with, detached as BPF_LINK_DETACH would:
 * unreg runs, and the link's fd reports EPOLLHUP to a waiting loader. Its
 * own work item, so that a user's detach (which holds the BPF core's
 * struct_ops mutex while our unreg waits for the eject work) never waits
 * for this one.
 */
struct bpfdrv_link_detach {
	struct work_struct work;
	struct bpf_link *link;
};

static void bpfdrv_link_detach_workfn(struct work_struct *work)
{
	struct bpfdrv_link_detach *d =
		container_of(work, struct bpfdrv_link_detach, work);

	if (d->link->ops->detach)
		d->link->ops->detach(d->link);
	bpf_link_put(d->link);
	kfree(d);
}

/*
 * Made when a driver attaches, so that an ejection cannot fail to detach
 * for want of memory; bpfdrv_link_detach_async() or kfree() consumes it.
 */
struct bpfdrv_link_detach *bpfdrv_link_detach_alloc(void)
{
	struct bpfdrv_link_detach *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (d)
		INIT_WORK(&d->work, bpfdrv_link_detach_workfn);
	return d;
}

/* Detach @link (its driver is attached) from a work item; consumes @d. */
void bpfdrv_link_detach_async(struct bpfdrv_link_detach *d,
			      struct bpf_link *link)
{
	if (!d)
		return;		/* used already */
	d->link = bpf_link_inc_not_zero(link);
	if (IS_ERR(d->link)) {
		kfree(d);	/* already going away */
		return;
	}
	schedule_work(&d->work);
}

/*
 * A driver's message goes to sysfs, the log and terminals: a line break
 * becomes a space, other control characters (escape sequences) and
 * non-ASCII bytes '?'.
 */
static void bpfdrv_printable(char *msg)
{
	for (; *msg; msg++)
		if (*msg == '\n')
			*msg = ' ';
		else if (!isascii(*msg) || iscntrl(*msg))
			*msg = '?';
}

/*
 * Eject @drv: the first reason wins, later ones (and errors from the exit
 * callbacks the teardown runs) are dropped. Any context.
 */
void bpfdrv_driver_eject(struct bpfdrv_driver *drv, enum bpfdrv_exit_kind kind,
			 enum bpfdrv_cb cb, const char *msg)
{
	unsigned long flags;
	bool first;

	spin_lock_irqsave(&drv->exit_lock, flags);
	first = drv->exit.kind == BPFDRV_EXIT_NONE;
	if (first) {
		drv->exit.kind = kind;
		drv->exit.cb = cb;
		drv->exit.time = ktime_get_real_seconds();
		strscpy(drv->exit.msg, msg, sizeof(drv->exit.msg));
		bpfdrv_printable(drv->exit.msg);
	}
	spin_unlock_irqrestore(&drv->exit_lock, flags);
	if (first)
		schedule_work(&drv->eject_work);
}

__bpf_kfunc_start_defs();

/**
 * bpfdrv_eject - report a fatal error: the driver is detached
 * @dev: the callback's device instance
 * @msg: why, in program memory (bpfdrv_error() formats it)
 * @msg__sz: its size; the message ends at its first NUL
 *
 * Every instance of the driver is then torn down as by an unload, after
 * the callback returns; the reason is kept in /sys/kernel/bpfdrv/exits and
 * a loader in the foreground prints it. Only the first report counts, and
 * reports from exit are dropped.
 */
__bpf_kfunc void bpfdrv_eject(struct bpfdrv_dev *dev, const char *msg,
			      u32 msg__sz)
{
	struct bpfdrv_device *bdev = to_bpfdrv_device(dev);
	char buf[BPFDRV_EXIT_MSG_MAX];
	u32 n = min_t(u32, msg__sz, sizeof(buf) - 1);
	/* irq_hard and the fence path run beside the mutex's callback */
	enum bpfdrv_cb cb = bpfdrv_cb_current(bdev);

	/* exit is a teardown already (an unload, an unbind): nothing to eject */
	if (cb == BPFDRV_CB_EXIT)
		return;
	memcpy(buf, msg, n);
	buf[n] = '\0';
	bpfdrv_driver_eject(bdev->drv, BPFDRV_EXIT_ERROR, cb, buf);
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(bpfdrv_eject_kfunc_ids)
BTF_ID_FLAGS(func, bpfdrv_eject, KF_TRUSTED_ARGS)
BTF_KFUNCS_END(bpfdrv_eject_kfunc_ids)

/* bpfdrv_eject(), for chr_ext_ops programs (kfuncs.c) */
int bpfdrv_eject_kfuncs_init(void)
{
	return bpfdrv_kfuncs_add(&bpfdrv_eject_kfunc_ids);
}

static ssize_t exits_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct bpfdrv_exit_rec *r;
	int len = 0;

	spin_lock(&bpfdrv_exits_lock);
	list_for_each_entry(r, &bpfdrv_exits, node)
		len += sysfs_emit_at(buf, len, "%s %s %lld %s %s\n", r->name,
				     bpfdrv_exit_kinds[r->info.kind],
				     (long long)r->info.time,
				     bpfdrv_cb_names[r->info.cb],
				     r->info.msg[0] ? r->info.msg : "-");
	spin_unlock(&bpfdrv_exits_lock);
	return len;
}

struct kobj_attribute bpfdrv_attr_exits = __ATTR_RO(exits);

/* At module exit every driver is detached; only records are left. */
void bpfdrv_eject_exit(void)
{
	struct bpfdrv_exit_rec *r, *tmp;

	list_for_each_entry_safe(r, tmp, &bpfdrv_exits, node)
		kfree(r);
}
