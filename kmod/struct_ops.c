// SPDX-License-Identifier: GPL-2.0
/*
 * The chr_ext_ops struct_ops type. Attaching a map (reg) creates the
 * driver's device instances; detaching it (unreg) destroys them after
 * draining callers; updating the link (update) gives them new code.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/btf.h>
#include <linux/module.h>
#include <linux/sysfs.h>

#include "call.h"
#include "allow.h"
#include "driver.h"
#include "kfuncs.h"
#include "node.h"
#include "parts.h"
#include "struct_ops.h"
#include "update.h"

/* The module's BTF, as the verifier sees it (kfuncs.c's filter). */
static int bpfdrv_ops_init(struct btf *btf)
{
	bpfdrv_btf = btf;
	return 0;
}

static bool bpfdrv_ops_is_valid_access(int off, int size,
				       enum bpf_access_type type,
				       const struct bpf_prog *prog,
				       struct bpf_insn_access_aux *info)
{
	return bpf_tracing_btf_ctx_access(off, size, type, prog, info);
}

static const struct bpf_verifier_ops bpfdrv_verifier_ops = {
	.get_func_proto = bpfdrv_get_func_proto,
	.is_valid_access = bpfdrv_ops_is_valid_access,
};

/* The callback members: their offsets and callbacks (bpfdrv_cb_names). */
#define BPFDRV_CB_MEMBER(m, cb)	{ offsetof(struct chr_ext_ops, m), cb }
static const struct {
	u32 moff;
	enum bpfdrv_cb cb;
} bpfdrv_cb_members[] = {
	BPFDRV_CB_MEMBER(init, BPFDRV_CB_INIT),
	BPFDRV_CB_MEMBER(exit, BPFDRV_CB_EXIT),
	BPFDRV_CB_MEMBER(open, BPFDRV_CB_OPEN),
	BPFDRV_CB_MEMBER(release, BPFDRV_CB_RELEASE),
	BPFDRV_CB_MEMBER(read, BPFDRV_CB_READ),
	BPFDRV_CB_MEMBER(write, BPFDRV_CB_WRITE),
	BPFDRV_CB_MEMBER(ioctl, BPFDRV_CB_IOCTL),
	BPFDRV_CB_MEMBER(poll, BPFDRV_CB_POLL),
	BPFDRV_CB_MEMBER(irq, BPFDRV_CB_IRQ),
	BPFDRV_CB_MEMBER(gpio_edge, BPFDRV_CB_GPIO_EDGE),
	BPFDRV_CB_MEMBER(takeover, BPFDRV_CB_TAKEOVER),
	BPFDRV_CB_MEMBER(led_set, BPFDRV_CB_LED_SET),
	BPFDRV_CB_MEMBER(led_get, BPFDRV_CB_LED_GET),
	BPFDRV_CB_MEMBER(led_blink, BPFDRV_CB_LED_BLINK),
	BPFDRV_CB_MEMBER(sensor_read, BPFDRV_CB_SENSOR_READ),
	BPFDRV_CB_MEMBER(irq_hard, BPFDRV_CB_IRQ_HARD),
	BPFDRV_CB_MEMBER(accel_ioctl, BPFDRV_CB_ACCEL_IOCTL),
	BPFDRV_CB_MEMBER(accel_run_job, BPFDRV_CB_ACCEL_RUN_JOB),
	BPFDRV_CB_MEMBER(accel_timeout, BPFDRV_CB_ACCEL_TIMEOUT),
	BPFDRV_CB_MEMBER(timer, BPFDRV_CB_TIMER),
	BPFDRV_CB_MEMBER(accel_get_param, BPFDRV_CB_ACCEL_GET_PARAM),
	BPFDRV_CB_MEMBER(accel_vm_map, BPFDRV_CB_ACCEL_VM_MAP),
	BPFDRV_CB_MEMBER(accel_vm_unmap, BPFDRV_CB_ACCEL_VM_UNMAP),
	BPFDRV_CB_MEMBER(reset_prepare, BPFDRV_CB_RESET_PREPARE),
	BPFDRV_CB_MEMBER(reset_done, BPFDRV_CB_RESET_DONE),
	BPFDRV_CB_MEMBER(error_detected, BPFDRV_CB_ERROR_DETECTED),
	BPFDRV_CB_MEMBER(slot_reset, BPFDRV_CB_SLOT_RESET),
	BPFDRV_CB_MEMBER(error_resume, BPFDRV_CB_ERROR_RESUME),
	BPFDRV_CB_MEMBER(suspend, BPFDRV_CB_SUSPEND),
	BPFDRV_CB_MEMBER(resume, BPFDRV_CB_RESUME),
};

/* The name of the callback at byte @moff, or NULL for a data member. */
static const char *bpfdrv_cb_member_name(u32 moff)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(bpfdrv_cb_members); i++)
		if (bpfdrv_cb_members[i].moff == moff)
			return bpfdrv_cb_names[bpfdrv_cb_members[i].cb];
	return NULL;
}

/*
 * Every callback runs in process context, so all may be sleepable, except
 * irq_hard, which runs in hard-IRQ context, and the two on the dma-fence
 * signalling path, which may not wait for anything (call.h).
 */
static int bpfdrv_ops_check_member(const struct btf_type *t,
				   const struct btf_member *member,
				   const struct bpf_prog *prog)
{
	u32 moff = __btf_member_bit_offset(t, member) / 8;
	const char *cb = bpfdrv_cb_member_name(moff);

	if (moff == offsetof(struct chr_ext_ops, irq_hard) && prog->sleepable) {
		pr_info("irq_hard runs in hard-IRQ context: it cannot be sleepable (SEC(\"struct_ops/...\"))\n");
		return -EINVAL;
	}
	if (bpfdrv_fence_member(moff) && prog->sleepable) {
		pr_info("%s runs on the dma-fence signalling path: it cannot be sleepable (SEC(\"struct_ops/...\"))\n",
			cb);
		return -EINVAL;
	}
	return cb ? bpfdrv_allow_unverified(prog, cb) : 0;
}

static bool bpfdrv_gpio_lines_valid(const struct chr_ext_ops *ops)
{
	const u32 dir = BPFDRV_GPIO_IN | BPFDRV_GPIO_OUT_LOW | BPFDRV_GPIO_OUT_HIGH;
	const u32 edge = BPFDRV_GPIO_EDGE_RISING | BPFDRV_GPIO_EDGE_FALLING;
	const u32 all = dir | edge | BPFDRV_GPIO_ACTIVE_LOW;
	int i;

	for (i = 0; i < BPFDRV_MAX_GPIO_LINES; i++) {
		u32 flags = ops->gpio_lines[i].flags;

		if (!flags)
			break;
		/* exactly one direction; edges only on inputs */
		if ((flags & ~all) || hweight32(flags & dir) != 1 ||
		    ((flags & edge) && !(flags & BPFDRV_GPIO_IN)))
			return false;
	}
	/* lines need a chip, and a chip needs lines */
	return !i == !ops->gpio_chip[0];
}

/* Key codes in range, ended by 0 (and only 0 after it). */
static bool bpfdrv_input_keys_valid(const struct chr_ext_ops *ops)
{
	bool ended = false;
	int i;

	for (i = 0; i < BPFDRV_MAX_INPUT_KEYS; i++) {
		u16 code = ops->input_keys[i];

		if (code > BPFDRV_INPUT_KEY_MAX || (ended && code))
			return false;
		ended |= !code;
	}
	return true;
}

/*
 * The data members init_member takes: each copied as it is, or through
 * its take(), which checks it first (saying why it refuses) and copies it.
 * Returning 1 marks a member handled.
 */
struct bpfdrv_data_member {
	u32 moff;
	u32 size;
	int (*take)(const struct bpfdrv_data_member *m,
		    const struct chr_ext_ops *uops, struct chr_ext_ops *kops);
};

/* A string member: NUL-terminated within its array. */
static int bpfdrv_take_string(const struct bpfdrv_data_member *m,
			      const struct chr_ext_ops *uops,
			      struct chr_ext_ops *kops)
{
	const char *src = (const char *)uops + m->moff;

	if (strnlen(src, m->size) == m->size)
		return -EINVAL;
	strscpy((char *)kops + m->moff, src, m->size);
	return 1;
}

static int bpfdrv_take_name(const struct bpfdrv_data_member *m,
			    const struct chr_ext_ops *uops,
			    struct chr_ext_ops *kops)
{
	if (!bpfdrv_name_valid(uops->name)) {
		pr_info("invalid driver name (want 1-%d of [A-Za-z0-9_-], starting alphanumeric)\n",
			BPFDRV_NAME_MAX - 1);
		return -EINVAL;
	}
	return bpfdrv_take_string(m, uops, kops);
}

static int bpfdrv_take_mode(const struct bpfdrv_data_member *m,
			    const struct chr_ext_ops *uops,
			    struct chr_ext_ops *kops)
{
	/* no setuid, setgid, sticky or execute bits on a device node */
	if (uops->mode & ~0666) {
		pr_info("invalid node mode %#o (at most 0666)\n", uops->mode);
		return -EINVAL;
	}
	kops->mode = uops->mode;
	return 1;
}

static int bpfdrv_take_flags(const struct bpfdrv_data_member *m,
			     const struct chr_ext_ops *uops,
			     struct chr_ext_ops *kops)
{
	if (uops->flags & ~BPFDRV_F_ALL) {
		pr_info("invalid flags %#x (known: %#x)\n", uops->flags,
			BPFDRV_F_ALL);
		return -EINVAL;
	}
	kops->flags = uops->flags;
	return 1;
}

/* name precedes abi_version: kops->name is taken already */
static int bpfdrv_take_abi_version(const struct bpfdrv_data_member *m,
				   const struct chr_ext_ops *uops,
				   struct chr_ext_ops *kops)
{
	if (uops->abi_version > BPFDRV_ABI_VERSION) {
		pr_info("driver %s was built for bpfdrv ABI %u; this module has ABI %u\n",
			kops->name, uops->abi_version, BPFDRV_ABI_VERSION);
		return -EPROTONOSUPPORT;
	}
	kops->abi_version = uops->abi_version ?: 1;
	return 1;
}

static int bpfdrv_take_gpio_lines(const struct bpfdrv_data_member *m,
				  const struct chr_ext_ops *uops,
				  struct chr_ext_ops *kops)
{
	if (!bpfdrv_gpio_lines_valid(uops)) {
		pr_info("invalid gpio_chip/gpio_lines declaration\n");
		return -EINVAL;
	}
	memcpy(kops->gpio_lines, uops->gpio_lines, sizeof(kops->gpio_lines));
	return 1;
}

static int bpfdrv_take_input_keys(const struct bpfdrv_data_member *m,
				  const struct chr_ext_ops *uops,
				  struct chr_ext_ops *kops)
{
	if (!bpfdrv_input_keys_valid(uops)) {
		pr_info("invalid input_keys: codes 1..%d, ended by 0\n",
			BPFDRV_INPUT_KEY_MAX);
		return -EINVAL;
	}
	memcpy(kops->input_keys, uops->input_keys, sizeof(kops->input_keys));
	return 1;
}

#define BPFDRV_DATA_MEMBER(m, take)					\
	{ offsetof(struct chr_ext_ops, m),				\
	  sizeof_field(struct chr_ext_ops, m), take }
/*
 * The class, I2C, SPI, mmap, accelerator, interrupt vector and firmware
 * declarations are copied here
 * and checked whole in validate (bpfdrv_parts_valid()).
 */
static const struct bpfdrv_data_member bpfdrv_data_members[] = {
	BPFDRV_DATA_MEMBER(name, bpfdrv_take_name),
	BPFDRV_DATA_MEMBER(mode, bpfdrv_take_mode),
	BPFDRV_DATA_MEMBER(flags, bpfdrv_take_flags),
	BPFDRV_DATA_MEMBER(pci_ids, NULL),
	BPFDRV_DATA_MEMBER(pci_slot, bpfdrv_take_string),
	BPFDRV_DATA_MEMBER(gpio_chip, bpfdrv_take_string),
	BPFDRV_DATA_MEMBER(gpio_lines, bpfdrv_take_gpio_lines),
	BPFDRV_DATA_MEMBER(abi_version, bpfdrv_take_abi_version),
	BPFDRV_DATA_MEMBER(leds, NULL),
	BPFDRV_DATA_MEMBER(input_keys, bpfdrv_take_input_keys),
	BPFDRV_DATA_MEMBER(sensors, NULL),
	BPFDRV_DATA_MEMBER(i2c_adapter, NULL),
	BPFDRV_DATA_MEMBER(i2c_addrs, NULL),
	BPFDRV_DATA_MEMBER(spi_controller, NULL),
	BPFDRV_DATA_MEMBER(spi_cs, NULL),
	BPFDRV_DATA_MEMBER(spi_mode, NULL),
	BPFDRV_DATA_MEMBER(spi_max_speed_hz, NULL),
	BPFDRV_DATA_MEMBER(mmaps, NULL),
	BPFDRV_DATA_MEMBER(accel, NULL),
	BPFDRV_DATA_MEMBER(accel_ioctls, NULL),
	BPFDRV_DATA_MEMBER(accel_rings, NULL),
	BPFDRV_DATA_MEMBER(accel_timeout_ms, NULL),
	BPFDRV_DATA_MEMBER(accel_dma_bits, NULL),
	BPFDRV_DATA_MEMBER(accel_ring_jobs, NULL),
	BPFDRV_DATA_MEMBER(accel_va_bits, NULL),
	BPFDRV_DATA_MEMBER(irq_vectors_min, NULL),
	BPFDRV_DATA_MEMBER(irq_vectors_max, NULL),
	BPFDRV_DATA_MEMBER(firmware, NULL),
	BPFDRV_DATA_MEMBER(pm_autosuspend_ms, NULL),
};

static int bpfdrv_ops_init_member(const struct btf_type *t,
				  const struct btf_member *member,
				  void *kdata, const void *udata)
{
	u32 moff = __btf_member_bit_offset(t, member) / 8;
	const struct bpfdrv_data_member *m;
	const char *cb;

	for (m = bpfdrv_data_members;
	     m < bpfdrv_data_members + ARRAY_SIZE(bpfdrv_data_members); m++) {
		if (m->moff != moff)
			continue;
		if (m->take)
			return m->take(m, udata, kdata);
		memcpy(kdata + moff, udata + moff, m->size);
		return 1;
	}
	cb = bpfdrv_cb_member_name(moff);
	return cb ? bpfdrv_allow_member(moff, cb, kdata, udata) : 0;
}

/*
 * Checks of a whole declaration, at load (BPF_MAP_UPDATE_ELEM): what does
 * not depend on the running system is refused before anything attaches or
 * updates.
 */
static int bpfdrv_ops_decl_valid(const struct chr_ext_ops *ops)
{
	return bpfdrv_parts_valid(ops);
}

/* After every member: the programs installed are those checked. */
static int bpfdrv_ops_validate(void *kdata)
{
	u32 moffs[ARRAY_SIZE(bpfdrv_cb_members)];
	int i;

	for (i = 0; i < ARRAY_SIZE(bpfdrv_cb_members); i++)
		moffs[i] = bpfdrv_cb_members[i].moff;
	return bpfdrv_allow_validate(kdata, moffs, ARRAY_SIZE(moffs)) ?:
	       bpfdrv_ops_decl_valid(kdata);
}

/* Runs in the attaching process, which bpfdrv_driver_attach() checks. */
static int bpfdrv_ops_reg(void *kdata, struct bpf_link *link)
{
	/* older kernels validate only maps attached with a link */
	int ret = link ? 0 : bpfdrv_ops_decl_valid(kdata);

	if (ret)
		return ret;
	return bpfdrv_driver_attach(kdata, link);
}

static void bpfdrv_ops_unreg(void *kdata, struct bpf_link *link)
{
	bpfdrv_driver_detach(kdata);
}

/* BPF_LINK_UPDATE: new code for an attached driver, in the caller. */
static int bpfdrv_ops_update(void *kdata, void *old_kdata, struct bpf_link *link)
{
	return bpfdrv_driver_update(kdata, old_kdata);
}

/* CFI stubs: the kernel finds each callback's prototype through these. */
static int bpfdrv_stub_init(struct bpfdrv_dev *dev)
{
	return 0;
}

static void bpfdrv_stub_exit(struct bpfdrv_dev *dev)
{
}

static int bpfdrv_stub_open(struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	return 0;
}

static void bpfdrv_stub_release(struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
}

static int bpfdrv_stub_read(struct bpfdrv_dev *dev, struct bpfdrv_file *file,
			    struct bpfdrv_io *io)
{
	return -EINVAL;
}

static int bpfdrv_stub_write(struct bpfdrv_dev *dev, struct bpfdrv_file *file,
			     struct bpfdrv_io *io)
{
	return -EINVAL;
}

static int bpfdrv_stub_ioctl(struct bpfdrv_dev *dev, struct bpfdrv_file *file,
			     unsigned int cmd, struct bpfdrv_io *io)
{
	return -ENOTTY;
}

static u32 bpfdrv_stub_poll(struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	return 0;
}

static int bpfdrv_stub_irq(struct bpfdrv_dev *dev, u32 vector)
{
	return 0;
}

static int bpfdrv_stub_irq_hard(struct bpfdrv_dev *dev, u32 vector)
{
	return BPFDRV_IRQ_NONE;
}

static void bpfdrv_stub_gpio_edge(struct bpfdrv_dev *dev, u32 line, u32 value)
{
}

static int bpfdrv_stub_takeover(struct bpfdrv_dev *dev)
{
	return 0;
}

static int bpfdrv_stub_led_set(struct bpfdrv_dev *dev, u32 led, u32 brightness)
{
	return 0;
}

static int bpfdrv_stub_led_get(struct bpfdrv_dev *dev, u32 led)
{
	return 0;
}

static int bpfdrv_stub_led_blink(struct bpfdrv_dev *dev, u32 led, u32 delay_on,
				 u32 delay_off)
{
	return -EINVAL;
}

static int bpfdrv_stub_sensor_read(struct bpfdrv_dev *dev,
				   struct bpfdrv_sensor_read *rd)
{
	return -ENODATA;
}

static int bpfdrv_stub_accel_ioctl(struct bpfdrv_dev *dev,
				   struct bpfdrv_file *file, u32 nr,
				   struct bpfdrv_io *io)
{
	return -ENOTTY;
}

static int bpfdrv_stub_accel_run_job(struct bpfdrv_dev *dev, u32 ring,
				     u64 seqno, struct bpfdrv_io *arg)
{
	return -ENODEV;
}

static void bpfdrv_stub_accel_timeout(struct bpfdrv_dev *dev, u32 ring,
				      u64 seqno)
{
}

static void bpfdrv_stub_timer(struct bpfdrv_dev *dev, u32 id)
{
}

static int bpfdrv_stub_accel_get_param(struct bpfdrv_dev *dev,
				       struct bpfdrv_file *file, u32 param,
				       u32 index, struct bpfdrv_io *io)
{
	return -EINVAL;
}

static int bpfdrv_stub_accel_vm_map(struct bpfdrv_dev *dev, u32 vm, u64 addr,
				    u64 range, u32 handle, u64 bo_offset)
{
	return -EINVAL;
}

static void bpfdrv_stub_accel_vm_unmap(struct bpfdrv_dev *dev, u32 vm,
				       u64 addr, u64 range)
{
}

static void bpfdrv_stub_reset_prepare(struct bpfdrv_dev *dev)
{
}

static void bpfdrv_stub_reset_done(struct bpfdrv_dev *dev)
{
}

static int bpfdrv_stub_error_detected(struct bpfdrv_dev *dev, u32 state)
{
	return 0;
}

static int bpfdrv_stub_slot_reset(struct bpfdrv_dev *dev)
{
	return 0;
}

static void bpfdrv_stub_error_resume(struct bpfdrv_dev *dev)
{
}

static int bpfdrv_stub_suspend(struct bpfdrv_dev *dev, u32 how)
{
	return 0;
}

static int bpfdrv_stub_resume(struct bpfdrv_dev *dev, u32 how)
{
	return 0;
}

static struct chr_ext_ops bpfdrv_cfi_stubs = {
	.init = bpfdrv_stub_init,
	.exit = bpfdrv_stub_exit,
	.open = bpfdrv_stub_open,
	.release = bpfdrv_stub_release,
	.read = bpfdrv_stub_read,
	.write = bpfdrv_stub_write,
	.ioctl = bpfdrv_stub_ioctl,
	.poll = bpfdrv_stub_poll,
	.irq = bpfdrv_stub_irq,
	.gpio_edge = bpfdrv_stub_gpio_edge,
	.takeover = bpfdrv_stub_takeover,
	.led_set = bpfdrv_stub_led_set,
	.led_get = bpfdrv_stub_led_get,
	.led_blink = bpfdrv_stub_led_blink,
	.sensor_read = bpfdrv_stub_sensor_read,
	.irq_hard = bpfdrv_stub_irq_hard,
	.accel_ioctl = bpfdrv_stub_accel_ioctl,
	.accel_run_job = bpfdrv_stub_accel_run_job,
	.accel_timeout = bpfdrv_stub_accel_timeout,
	.timer = bpfdrv_stub_timer,
	.accel_get_param = bpfdrv_stub_accel_get_param,
	.accel_vm_map = bpfdrv_stub_accel_vm_map,
	.accel_vm_unmap = bpfdrv_stub_accel_vm_unmap,
	.reset_prepare = bpfdrv_stub_reset_prepare,
	.reset_done = bpfdrv_stub_reset_done,
	.error_detected = bpfdrv_stub_error_detected,
	.slot_reset = bpfdrv_stub_slot_reset,
	.error_resume = bpfdrv_stub_error_resume,
	.suspend = bpfdrv_stub_suspend,
	.resume = bpfdrv_stub_resume,
};

/*
 * /sys/module/bpfdrv/parameters/abi_version: the tool checks an object's
 * chr_ext_ops.abi_version against it before loading, to name both versions.
 */
static int bpfdrv_abi_version_set(const char *val, const struct kernel_param *kp)
{
	return -EPERM;
}

static int bpfdrv_abi_version_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n", BPFDRV_ABI_VERSION);
}

static const struct kernel_param_ops bpfdrv_abi_version_ops = {
	.set = bpfdrv_abi_version_set,
	.get = bpfdrv_abi_version_get,
};
module_param_cb(abi_version, &bpfdrv_abi_version_ops, NULL, 0444);
MODULE_PARM_DESC(abi_version, "the chr_ext_ops ABI version (read-only)");

struct bpf_struct_ops bpfdrv_struct_ops = {
	.verifier_ops = &bpfdrv_verifier_ops,
	.init = bpfdrv_ops_init,
	.check_member = bpfdrv_ops_check_member,
	.init_member = bpfdrv_ops_init_member,
	.reg = bpfdrv_ops_reg,
	.unreg = bpfdrv_ops_unreg,
	.update = bpfdrv_ops_update,
	.validate = bpfdrv_ops_validate,
	.cfi_stubs = &bpfdrv_cfi_stubs,
	.owner = THIS_MODULE,
	.name = "chr_ext_ops",
};

int bpfdrv_struct_ops_init(void)
{
	return register_bpf_struct_ops(&bpfdrv_struct_ops, chr_ext_ops);
}
