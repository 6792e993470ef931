/* SPDX-License-Identifier: GPL-2.0 */
/* bpfdrv internals shared by the module's files. */
#ifndef __BPFDRV_H
#define __BPFDRV_H

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/cdev.h>
#include <linux/completion.h>
#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/kobject.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/pci.h>
#include <linux/rwsem.h>
#include <linux/security.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>
#include <linux/wait.h>

#include "../include/bpfdrv_abi.h"

/*
 * Every callback: call counts (the file operations, open to poll, in this
 * order) and exit reports (which one a driver failed in).
 */
enum bpfdrv_cb {
	BPFDRV_CB_NONE,
	BPFDRV_CB_INIT,
	BPFDRV_CB_EXIT,
	BPFDRV_CB_OPEN,
	BPFDRV_CB_RELEASE,
	BPFDRV_CB_READ,
	BPFDRV_CB_WRITE,
	BPFDRV_CB_IOCTL,
	BPFDRV_CB_POLL,
	BPFDRV_CB_IRQ,
	BPFDRV_CB_GPIO_EDGE,
	BPFDRV_CB_TAKEOVER,
	BPFDRV_CB_LED_SET,	/* the class callbacks */
	BPFDRV_CB_LED_GET,
	BPFDRV_CB_LED_BLINK,
	BPFDRV_CB_SENSOR_READ,
	BPFDRV_CB_IRQ_HARD,
	BPFDRV_CB_ACCEL_IOCTL,
	BPFDRV_CB_ACCEL_RUN_JOB,
	BPFDRV_CB_ACCEL_TIMEOUT,
	BPFDRV_CB_TIMER,
	BPFDRV_CB_ACCEL_GET_PARAM,
	BPFDRV_CB_ACCEL_VM_MAP,
	BPFDRV_CB_ACCEL_VM_UNMAP,
	BPFDRV_CB_RESET_PREPARE,	/* the PCI function's reset */
	BPFDRV_CB_RESET_DONE,
	BPFDRV_CB_ERROR_DETECTED,	/* the function's link errors (AER) */
	BPFDRV_CB_SLOT_RESET,
	BPFDRV_CB_ERROR_RESUME,
	BPFDRV_CB_SUSPEND,		/* power management */
	BPFDRV_CB_RESUME,
	BPFDRV_CB_NR
};

/* Why a driver (or one of its instances) went away. */
enum bpfdrv_exit_kind {
	BPFDRV_EXIT_NONE,
	BPFDRV_EXIT_UNLOAD,	/* detached by user space */
	BPFDRV_EXIT_ERROR,	/* the driver called bpfdrv_eject() */
	BPFDRV_EXIT_PROTOCOL,	/* a burst of bad return values */
	BPFDRV_EXIT_REMOVED,	/* a device it served went away */
};

#define BPFDRV_EXIT_MSG_MAX	128
/* Bad return values within a second that get a driver ejected. */
#define BPFDRV_BAD_RET_BURST	16

#define BPFDRV_MINORS		256	/* device nodes, and instances per driver */
#define BPFDRV_DEFAULT_MODE	0600

struct bpfdrv_exit_info {
	enum bpfdrv_exit_kind kind;
	enum bpfdrv_cb cb;
	time64_t time;			/* wall clock, seconds */
	char msg[BPFDRV_EXIT_MSG_MAX];
};

struct bpfdrv_stats {
	u64 calls[BPFDRV_CB_NR];
	u64 bad_returns;	/* lengths or errnos the module refused */
	u64 direct_retries;	/* direct calls made again after a fault */
};

/* One attached chr_ext_ops map: a driver with its device instances. */
struct bpfdrv_driver {
	struct chr_ext_ops *ops;	/* under bpfdrv_lock; update swaps it */
	char name[BPFDRV_NAME_MAX];	/* ops->name, which no update changes */
	unsigned int updates;		/* live updates done, under bpfdrv_lock */
	unsigned int gen;		/* bumped when instances come or go */
	struct bpf_link *link;		/* NULL when attached without one */
	struct list_head node;		/* bpfdrv_drivers, under bpfdrv_lock */
	struct list_head instances;	/* bpfdrv_device.drv_node */
	struct ida index_ida;		/* instance numbers */
	bool attached;			/* reg succeeded, under bpfdrv_lock */
	bool stopping;			/* no new instance, under bpfdrv_lock */
	atomic_t pending;		/* instances started or finished elsewhere */
	spinlock_t exit_lock;
	struct bpfdrv_exit_info exit;	/* why it goes, once set */
	struct work_struct eject_work;
	struct bpfdrv_link_detach *detach;	/* for the eject, made at attach */
	/* instances reserved at attach, started by start_work */
	struct list_head starting;
	struct work_struct start_work;
	struct completion started;	/* start_work done, if attach waits */
	atomic_t start_state;		/* enum bpfdrv_start_state */
	int start_err;			/* its first error */
	bool slow_start;		/* attach returned first, under bpfdrv_lock */
};

/* Who reports an attach's instance starts: attach, or an ejection. */
enum bpfdrv_start_state {
	BPFDRV_START_WAITING,		/* attach waits for start_work */
	BPFDRV_START_DONE,		/* it finished in time: attach reports */
	BPFDRV_START_ASYNC,		/* attach returned: errors eject */
};

/* A coherent DMA buffer of an instance; no buffer while cpu is NULL. */
struct bpfdrv_dma_buf {
	void *cpu;
	dma_addr_t addr;
	size_t size;
	struct list_head node;		/* in dma_freed, once freed */
};

/*
 * irq_hard of one interrupt vector while it runs (pci_irq.c): which task
 * runs it, and when its bpfdrv_for() loops must end. Two vectors' irq_hard
 * run at once on two CPUs: each vector has its slot (bdev->hard_calls).
 */
struct bpfdrv_hard_call {
	struct task_struct *task;	/* current while it runs, or NULL */
	u64 deadline;			/* local_clock() */
};

/*
 * One interrupt vector of a PCI instance: its handlers' context
 * (pci_irq.c). Its irq_hard overruns are its own: one handler at a time
 * per vector needs no lock for them.
 */
struct bpfdrv_irq_vec {
	struct bpfdrv_device *bdev;
	struct bpfdrv_hard_call *hard;	/* its slot in bdev->hard_calls */
	u32 index;			/* what irq and irq_hard get */
	int irq;			/* its Linux IRQ once requested, else 0 */
	u8 hard_overruns;		/* irq_hard calls over time in a row */
	char name[BPFDRV_NAME_MAX + 4];	/* in /proc/interrupts: NAME-INDEX */
};

/*
 * A PCI function bound to bpfdrv's pci_driver: its BARs are mapped while it
 * is bound; an attached driver that serves it makes it an instance.
 */
#define BPFDRV_GROUP_WHY_MAX	64
#define BPFDRV_GROUP_SCAN_MAX	8	/* other functions bound to bpfdrv */
struct firmware;

struct bpfdrv_pci_fn {
	struct pci_dev *pdev;
	struct list_head node;		/* bpfdrv_pci_fns, under bpfdrv_lock */
	struct bpfdrv_device *bdev;	/* its instance, under bpfdrv_lock */
	void __iomem *bar[PCI_STD_NUM_BARS];	/* memory and I/O-port BARs */
	resource_size_t bar_len[PCI_STD_NUM_BARS];
	unsigned long bar_io;		/* bit n: BAR n is I/O ports */
	struct bpfdrv_irq_vec *vecs;	/* the instance's vectors, or NULL */
	u32 nvecs;			/* how many; requested: vecs[i].irq */
	bool irq_vectors;		/* pci_alloc_irq_vectors() done */
	bool intx_masked;		/* INTx, masked at the function per IRQ */
	raw_spinlock_t cmd_lock;	/* bpfdrv's writes of PCI_COMMAND */
	bool irq_stopped;		/* irq_hard overran or broke: no more */
	struct bpfdrv_dma_buf dma[BPFDRV_MAX_DMA_BUFS];	/* the instance's */
	struct list_head dma_freed;	/* freed by the driver, kept to teardown */
	size_t dma_total;		/* bytes of dma[] and dma_freed */
	struct mutex dma_lock;		/* dma[] for mmap and faults */
	bool dma_unsafe;		/* masters the bus with no IOMMU */
	struct {			/* its MSI-X table and PBA, at bind */
		int bar;		/* -1: none */
		u64 start, end;
	} msix[2];
	struct bpfdrv_device *reset_bdev;	/* its instance, during a reset */
	/* power management (pci_pm.c) */
	struct bpfdrv_device *pm_bdev;	/* its instance, from suspend to resume */
	bool pm_off;			/* suspended: irq_hard is not called */
	bool pm_runtime;		/* an instance runtime-suspends it */
	bool pm_allowed;		/* that instance lifted pm_runtime_forbid() */
	/* a device bpfdrv does not control shares its DMA domain (iommu.c) */
	bool group_shared;		/* under cmd_lock once it started */
	char group_why[BPFDRV_GROUP_WHY_MAX];	/* "0000:01:02.0 (...)" */
};

/* Whether a PCI function may master the bus (iommu.c). */
enum bpfdrv_dma {
	BPFDRV_DMA_NONE,	/* not a PCI instance */
	BPFDRV_DMA_REFUSED,	/* no translating IOMMU, no opt-in */
	BPFDRV_DMA_IOMMU,	/* its DMA goes through a translating IOMMU */
	BPFDRV_DMA_UNSAFE,	/* no IOMMU, allowed by allow_unsafe_dma=1 */
};

/* A bus device an instance holds (hold.c). */
#define BPFDRV_HOLD_WHAT_MAX	64
struct bpfdrv_hold;
struct bpfdrv_hold_ops {
	/* the device goes: stop what calls the driver (interrupts) first */
	void (*stop)(struct bpfdrv_hold *h);
	/* then drop what its removal waits for; kfuncs are out */
	void (*revoke)(struct bpfdrv_hold *h);
	/* the instance's teardown: give the rest back (h->gone: revoked) */
	void (*release)(struct bpfdrv_hold *h);
};

struct bpfdrv_hold {
	struct list_head node;		/* bpfdrv_holds, until revoked or released */
	struct bpfdrv_device *bdev;
	struct device *dev;		/* referenced while held; NULL: not held */
	const struct bpfdrv_hold_ops *ops;
	struct rw_semaphore use;	/* kfuncs read it; revocation writes */
	bool gone;			/* revoked: kfuncs fail with ENODEV */
	char what[BPFDRV_HOLD_WHAT_MAX];	/* "I2C adapter foo" */
};

/*
 * One device instance. Lives until the last open file is closed: the
 * embedded device's refcount (held by the cdev, by each open file and by the
 * attachment) governs it.
 */
/*
 * A call on the dma-fence signalling path (bpfdrv_call_fence()): which
 * task runs it, and when its bpfdrv_for() loops must end. One slot per
 * caller that never runs twice at once (a ring's run_job, its timeout).
 */
struct bpfdrv_fence_call {
	struct task_struct *task;	/* current while it runs, or NULL */
	u64 deadline;			/* local_clock() */
	u8 cb;				/* enum bpfdrv_cb */
};

#define BPFDRV_FENCE_SLOTS	(2 * BPFDRV_ACCEL_RINGS_MAX + 1)
/* the last: an accelerator's VM binds (accel_vm.c), one at a time */
#define BPFDRV_FENCE_SLOT_VM	(2 * BPFDRV_ACCEL_RINGS_MAX)

/*
 * An instance's life, in the order it goes through it: each step goes
 * forward only, by bpfdrv_state_set() (driver.c), which its creator calls
 * (STARTED, DEAD) or a teardown under bpfdrv_lock (LIVE, FAILED, DYING).
 * The call paths read it without a lock (bpfdrv_live() and the others).
 */
enum bpfdrv_state {
	BPFDRV_STATE_CREATING,	/* reserved and named; init not done */
	BPFDRV_STATE_FAILED,	/* unlinked before init succeeded */
	BPFDRV_STATE_STARTED,	/* init succeeded, not yet published */
	BPFDRV_STATE_LIVE,	/* on its driver's list */
	BPFDRV_STATE_DYING,	/* unlinked by a teardown after init */
	BPFDRV_STATE_DEAD,	/* no callback starts; exit ran if inited */
};

/* bpfdrv_device.pm_flags, bit numbers */
enum {
	BPFDRV_PM_F_RUNTIME,	/* calls hold a runtime PM reference of pm_dev */
	BPFDRV_PM_F_ASLEEP,	/* system sleep: calls wait for the resume */
	BPFDRV_PM_F_BROKEN,	/* its resume failed: calls fail, it is ejected */
};

struct bpfdrv_device {
	struct bpfdrv_dev pub;		/* what BPF sees */
	struct device dev;
	struct cdev cdev;
	struct list_head node;		/* bpfdrv_devices, under bpfdrv_lock */
	struct bpfdrv_driver *drv;	/* valid while !dead */
	struct list_head drv_node;	/* drv->instances, under bpfdrv_lock */
	/* its PCI function, or NULL: from reserve to finish ... */
	struct bpfdrv_pci_fn *reserved_fn;
	/* ... and usable by kfuncs: from claim to revoke */
	struct bpfdrv_pci_fn *active_fn;
	/*
	 * The callbacks: read under lock (an update swaps them under it and
	 * bpfdrv_lock), or while the instance starts or finishes, when no
	 * update runs. Valid while !dead, under srcu.
	 */
	struct chr_ext_ops *ops;
	u32 cb_mask;			/* BIT(enum bpfdrv_cb) of those in ops */
	u32 flags;			/* ops->flags, which no update changes */
	struct srcu_struct srcu;	/* callbacks in flight: bpfdrv_pin() */
	struct mutex lock;		/* one callback at a time */
	enum bpfdrv_state state;
	bool abort;			/* under bpfdrv_lock: what it holds went */
	bool added;			/* the node exists; set by its creator */
	u8 cb;				/* the callback running, under lock */
	bool update_waiting;		/* an update waits for lock: calls queue */
	u64 loop_start;			/* its first bpfdrv_for(), or 0 */
	bool loop_overran;		/* its loops ran past their budget */
	/* irq_hard's, one slot per vector: the first hard_slots (call.h) */
	struct bpfdrv_hard_call hard_calls[BPFDRV_MAX_IRQ_VECTORS];
	u8 hard_slots;			/* set before the vectors are requested */
	/* calls on the dma-fence path, without the mutex (call.h) */
	struct bpfdrv_fence_call fence_calls[BPFDRV_FENCE_SLOTS];
	/*
	 * Power management (pci_pm.c; call.h reads it on every call, and
	 * only a word that is 0 for an instance without runtime PM outside
	 * system sleep): BPFDRV_PM_F_* bits.
	 */
	unsigned long pm_flags;
	struct device *pm_dev;		/* runtime PM references, if RUNTIME */
	atomic_t pm_maps;		/* BAR mappings: runtime suspend waits */
	atomic_t bad_burst;		/* bad returns since bad_since */
	unsigned long bad_since;	/* jiffies */
	struct completion gone;		/* its teardown is complete */
	atomic_t wake_seq;		/* bumped by bpfdrv_wake() */
	wait_queue_head_t wq;		/* blocked readers, writers, pollers */
	atomic_t open_count;
	umode_t mode;			/* of the node */
	struct bpf_link *link;		/* NULL when attached without one */
	struct bpfdrv_stats __percpu *stats;
	u8 priv[BPFDRV_DEV_PRIV_SIZE];	/* bpfdrv_dev_priv() */

	/*
	 * Each part's own state, set up and torn down by its steps in the
	 * parts table: only the files a "part" line names touch what follows
	 * it (selftests/kmod-structure.py checks). A hold outlives the
	 * part's own struct: kfuncs test it before they look at the struct.
	 */
	/* part pci: pci.c pci_irq.c */
	u32 irq_vectors;		/* vectors it has, 0: none */
	/* interrupts the driver handled, per vector (kept after teardown) */
	atomic64_t irq_counts[BPFDRV_MAX_IRQ_VECTORS];
	enum bpfdrv_dma dma;		/* its PCI function's, at setup */
	/* part timers: timer.c */
	struct bpfdrv_timers *timers;
	/* part gpio: gpio.c */
	struct bpfdrv_gpio *gpio;	/* claimed lines; NULL if none */
	struct bpfdrv_hold gpio_hold;	/* their chip's parent */
	/* part i2c: i2c.c */
	struct bpfdrv_i2c *i2c;		/* adapter and clients; NULL if none */
	struct bpfdrv_hold i2c_hold;	/* the adapter */
	/* part spi: spi.c */
	struct spi_device *spi;		/* its SPI device; NULL if none */
	struct bpfdrv_hold spi_hold;	/* the SPI device */
	/* part leds: led.c */
	struct bpfdrv_leds *leds;
	/* part input: input.c */
	struct bpfdrv_input *input;	/* under input_lock */
	spinlock_t input_lock;
	/* part hwmon: hwmon.c */
	struct bpfdrv_hwmon *hwmon;
	/* part accel: accel.c accel_drm.c accel.h */
	const struct bpfdrv_accel_class *accel_cls;	/* pinned from claim */
	void *accel;			/* the class's, from add to del */
	/* job buffers' DMA (accel_dma_bits): the PCI function, or why not */
	struct device *accel_dma_dev;
	int accel_dma_err;
	/* part mmap: mmap.c */
	struct bpfdrv_mmap_window mmaps[BPFDRV_MAX_MMAPS];	/* ops->mmaps' */
	struct inode *map_inode;	/* NULL if the driver has none */
	/* part firmware: firmware.c */
	const struct firmware *fw[BPFDRV_MAX_FIRMWARE];	/* ops->firmware's */
};

/* Reserved by its creator and not published: a teardown sets abort. */
static inline bool bpfdrv_creating(const struct bpfdrv_device *bdev)
{
	enum bpfdrv_state s = READ_ONCE(bdev->state);

	return s == BPFDRV_STATE_CREATING || s == BPFDRV_STATE_STARTED;
}

/* Init succeeded and not dead: interrupts, edges and windows reach it. */
static inline bool bpfdrv_live(const struct bpfdrv_device *bdev)
{
	enum bpfdrv_state s = READ_ONCE(bdev->state);

	return s >= BPFDRV_STATE_STARTED && s != BPFDRV_STATE_DEAD;
}

/* Unlinked or dead: its loops end, and nothing new starts for it. */
static inline bool bpfdrv_going(const struct bpfdrv_device *bdev)
{
	enum bpfdrv_state s = READ_ONCE(bdev->state);

	return s == BPFDRV_STATE_FAILED || s >= BPFDRV_STATE_DYING;
}

static inline bool bpfdrv_dead(const struct bpfdrv_device *bdev)
{
	return READ_ONCE(bdev->state) == BPFDRV_STATE_DEAD;
}

/*
 * An instance pinned against teardown: its SRCU read section, which a
 * detach drains before it frees the driver. The hot path of every call:
 * SRCU-fast where the kernel has it (7.x), whose readers need no full
 * barrier; classic SRCU before (6.12).
 */
struct bpfdrv_pin {
#ifdef DEFINE_SRCU_FAST
	struct srcu_ctr __percpu *scp;
#else
	int idx;
#endif
};

static inline int bpfdrv_pin_init(struct bpfdrv_device *bdev)
{
#ifdef DEFINE_SRCU_FAST
	return init_srcu_struct_fast(&bdev->srcu);
#else
	return init_srcu_struct(&bdev->srcu);
#endif
}

static __always_inline struct bpfdrv_pin bpfdrv_pin(struct bpfdrv_device *bdev)
{
#ifdef DEFINE_SRCU_FAST
	return (struct bpfdrv_pin){ .scp = srcu_read_lock_fast(&bdev->srcu) };
#else
	return (struct bpfdrv_pin){ .idx = srcu_read_lock(&bdev->srcu) };
#endif
}

static __always_inline void bpfdrv_unpin(struct bpfdrv_device *bdev,
					 struct bpfdrv_pin pin)
{
#ifdef DEFINE_SRCU_FAST
	srcu_read_unlock_fast(&bdev->srcu, pin.scp);
#else
	srcu_read_unlock(&bdev->srcu, pin.idx);
#endif
}

struct bpfdrv_file_kern {
	struct bpfdrv_file pub;		/* what BPF sees */
	struct bpfdrv_device *bdev;
	struct mutex io_lock;		/* serializes this file's I/O buffer */
	u8 *buf;			/* BPFDRV_IO_MAX bytes, made on first I/O */
	u8 priv[BPFDRV_FILE_PRIV_SIZE];
};

struct bpfdrv_io_kern {
	struct bpfdrv_io pub;		/* what BPF sees */
	u8 *data;			/* size bytes; NULL if direct */
	u8 __user *udata;		/* a direct call's: the caller's memory */
	u32 size;			/* the bound kfuncs check, = pub.len */
	bool no_ptr;			/* bpfdrv_io_data() gives NULL */
	bool faulted;			/* a direct copy met a missing page */
};

static inline bool bpfdrv_driver_is_pci(const struct chr_ext_ops *ops)
{
	return ops->pci_slot[0] || ops->pci_ids[0].vendor;
}

/* [@off, @off + @len) lies inside @size bytes. */
static inline bool bpfdrv_range_ok(u32 off, u32 len, u32 size)
{
	u32 end;

	return !check_add_overflow(off, len, &end) && end <= size;
}

struct bpf_link;

/*
 * Lockdown forbids access to PCI devices from outside their drivers. An
 * LSM may judge the current task (SELinux does), which in interrupt
 * context is whichever task was interrupted: there the answer a task got
 * last is used. Lockdown is only ever raised, so a yes is kept.
 */
extern bool bpfdrv_pci_lockdown_seen;

static inline bool bpfdrv_pci_locked_down(void)
{
	if (!in_task())
		return READ_ONCE(bpfdrv_pci_lockdown_seen);
	if (!security_locked_down(LOCKDOWN_PCI_ACCESS))
		return false;
	WRITE_ONCE(bpfdrv_pci_lockdown_seen, true);
	return true;
}

/* /sys/kernel/bpfdrv/ (main.c), each beside the data it shows */
extern struct kobj_attribute bpfdrv_attr_exits, bpfdrv_attr_unload,
	bpfdrv_attr_starting, bpfdrv_attr_drivers, bpfdrv_attr_last_update,
	bpfdrv_attr_last_refusal;
extern const char * const bpfdrv_cb_names[BPFDRV_CB_NR];

__printf(2, 3) int bpfdrv_refuse_err(int err, const char *fmt, ...);

/* [A-Za-z0-9]: the kernel's isalnum() takes Latin-1 letters too */
static inline bool bpfdrv_isalnum(char c)
{
	return isascii(c) && isalnum(c);
}

static inline struct bpfdrv_device *to_bpfdrv_device(struct bpfdrv_dev *pub)
{
	return container_of(pub, struct bpfdrv_device, pub);
}

static inline struct bpfdrv_file_kern *to_bpfdrv_file(struct bpfdrv_file *pub)
{
	return container_of(pub, struct bpfdrv_file_kern, pub);
}

static inline struct bpfdrv_io_kern *to_bpfdrv_io(struct bpfdrv_io *pub)
{
	return container_of(pub, struct bpfdrv_io_kern, pub);
}

/* Wake the instance's sleepers (readers, writers, pollers) to try again. */
static inline void bpfdrv_device_wake(struct bpfdrv_device *bdev)
{
	atomic_inc(&bdev->wake_seq);
	wake_up_interruptible_all(&bdev->wq);
}

/* @name, or, if @pattern ends with '*', whatever starts as it does. */
static inline bool bpfdrv_name_matches(const char *name, const char *pattern)
{
	size_t len = strlen(pattern);

	if (len && pattern[len - 1] == '*')
		return !strncmp(name, pattern, len - 1);
	return !strcmp(name, pattern);
}

#endif /* __BPFDRV_H */
