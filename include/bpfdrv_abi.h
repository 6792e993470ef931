/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The bpfdrv ABI: the struct_ops type chr_ext_ops and the contexts its
 * callbacks receive. Shared by the kernel module, BPF drivers and user space.
 *
 * BPF drivers see these structs through the module's BTF; the BPF build marks
 * them preserve_access_index so field offsets are relocated (CO-RE) against
 * the running module, and fields may be appended in later versions.
 */
#ifndef __BPFDRV_ABI_H
#define __BPFDRV_ABI_H

#include <linux/types.h>

/*
 * The ABI version: chr_ext_ops, the contexts and the kfuncs as this header
 * declares them. A driver records the version it was built for in
 * chr_ext_ops.abi_version; the module refuses a driver built for a newer
 * ABI than its own, and keeps loading drivers built for older ones (0:
 * built before the member existed, version 1). Later versions only append
 * members and add kfuncs (docs/abi.md). Version 2 added the class devices
 * (LEDs, input keys, sensors), I2C and SPI; version 3 mmap windows and
 * DMA buffers; version 4 the hard-IRQ callback; version 5 direct I/O;
 * version 6 the bpfdrv_for() loop; version 7 the accelerator class;
 * version 8 its jobs' buffers for the device's DMA; version 9 several
 * jobs on a ring's device at once; version 10 the driver's own timers;
 * version 11 the accelerator's parameters the driver answers and its
 * device address spaces; version 12 the device's DMA into them;
 * version 13 what vendor PCI drivers need: several interrupt vectors,
 * firmware files, the function's reset.
 */
#define BPFDRV_ABI_VERSION	13

#if defined(__bpf__) && !defined(__KERNEL__)
#define __bpfdrv_core __attribute__((preserve_access_index))
#else
#define __bpfdrv_core
#endif

/*
 * The contexts below (dev, file, io) each end with a pointer that bpfdrv
 * never sets (it stays NULL). A struct with a pointer member is a kernel
 * object to the verifier: a kfunc then accepts only a pointer bpfdrv handed
 * to the callback, never program memory (stack, map value) shaped like the
 * struct. See docs/security.md.
 */

/* Device names: [a-zA-Z0-9_-], first char alphanumeric, NUL included. */
#define BPFDRV_NAME_MAX		32
/* A PCI driver's name: its instances are <name><index>, index < 256. */
#define BPFDRV_PCI_NAME_MAX	(BPFDRV_NAME_MAX - 1 - 3)

/*
 * The most one read, write or ioctl call moves between user space and BPF.
 * A larger read or write is short (returns at most this many bytes), as
 * POSIX allows for devices; callers loop. A larger ioctl is refused (EINVAL).
 */
#define BPFDRV_IO_MAX		4096

/* Bytes of per-open-file storage a driver gets from bpfdrv_file_priv(). */
#define BPFDRV_FILE_PRIV_SIZE	64

/* chr_ext_ops.flags */
#define BPFDRV_F_EXCLUSIVE	(1U << 0) /* one open file at a time, else EBUSY */
#define BPFDRV_F_SEEKABLE	(1U << 1) /* lseek works; io->pos is the offset */
/*
 * ABI 5: read and write copy straight between the caller's memory and the
 * driver's (a ring, a DMA buffer), with no kernel buffer in between; their
 * bpfdrv_io_data() gives NULL. See docs/kfuncs.md, "Direct I/O".
 */
#define BPFDRV_F_DIRECT_IO	(1U << 2)
#define BPFDRV_F_ALL		(BPFDRV_F_EXCLUSIVE | BPFDRV_F_SEEKABLE | \
				 BPFDRV_F_DIRECT_IO)

/* Bytes of per-device-instance storage a driver gets from bpfdrv_dev_priv(). */
#define BPFDRV_DEV_PRIV_SIZE	256

/* PCI functions a driver serves: chr_ext_ops.pci_ids, ended by vendor 0. */
#define BPFDRV_MAX_PCI_IDS	8
struct bpfdrv_pci_id {
	__u16 vendor;
	__u16 device;
};

/* "0000:00:09.0" and its NUL */
#define BPFDRV_PCI_SLOT_MAX	16

/* Interrupt vectors a PCI instance may ask for (ABI 13). */
#define BPFDRV_MAX_IRQ_VECTORS	32

/*
 * Firmware files a driver declares (ABI 13): chr_ext_ops.firmware, ended
 * by an empty name. A name is letters, digits, '.', '_' and '-', not
 * starting with '.'; the file is bpfdrv/<driver name>/<name> where the
 * kernel's firmware loader looks (/lib/firmware). Kfuncs name a file by
 * its index in the array.
 */
#define BPFDRV_MAX_FIRMWARE	4
#define BPFDRV_FIRMWARE_NAME_MAX 32
/* error_detected's state, and what it and slot_reset return (ABI 13) */
#define BPFDRV_PCI_ERR_NORMAL	1	/* the link works: the function may too */
#define BPFDRV_PCI_ERR_FROZEN	2	/* no access until the link's reset */
#define BPFDRV_PCI_ERR_FAILURE	3	/* the function is lost */
#define BPFDRV_ERS_CAN_RECOVER	0
#define BPFDRV_ERS_NEED_RESET	1
#define BPFDRV_ERS_DISCONNECT	2
#define BPFDRV_ERS_RECOVERED	3
/* suspend's and resume's how (ABI 13) */
#define BPFDRV_PM_RUNTIME	1
#define BPFDRV_PM_SYSTEM	2

/* a place in memory BAR bar, for bpfdrv_fw_to_bar() */
#define BPFDRV_BAR_POS(bar, offset) \
	(((__u64)(bar) << 56) | ((__u64)(offset) & ((1ULL << 56) - 1)))

/*
 * GPIO lines a driver claims: chr_ext_ops.gpio_lines, ended by an entry
 * with flags 0. Kfuncs name a line by its index in this array.
 */
#define BPFDRV_MAX_GPIO_LINES	16
#define BPFDRV_GPIO_LABEL_MAX	32
#define BPFDRV_GPIO_IN		(1U << 0)
#define BPFDRV_GPIO_OUT_LOW	(1U << 1)
#define BPFDRV_GPIO_OUT_HIGH	(1U << 2)
#define BPFDRV_GPIO_ACTIVE_LOW	(1U << 3)
#define BPFDRV_GPIO_EDGE_RISING	(1U << 4) /* inputs: call gpio_edge */
#define BPFDRV_GPIO_EDGE_FALLING (1U << 5)
struct bpfdrv_gpio_line {
	__u32 offset;		/* line number on the chip */
	__u32 flags;		/* BPFDRV_GPIO_* */
};

/*
 * Class devices (ABI 2), registered for each instance once init succeeded
 * and removed before exit runs (docs/subsystems.md).
 *
 * LEDs: chr_ext_ops.leds, ended by an entry with an empty name; kfuncs and
 * callbacks name an LED by its index there. Each appears as
 * /sys/class/leds/<instance>:<name>.
 */
#define BPFDRV_MAX_LEDS		8
#define BPFDRV_LED_NAME_MAX	32	/* [a-zA-Z0-9_:-], NUL included */
#define BPFDRV_LED_BRIGHTNESS_MAX 65535
struct bpfdrv_led {
	char name[BPFDRV_LED_NAME_MAX];
	__u32 max_brightness;	/* 1..BPFDRV_LED_BRIGHTNESS_MAX; 0 => 1 */
};

/* Input: the KEY_ and BTN_ codes an instance reports, ended by 0. */
#define BPFDRV_MAX_INPUT_KEYS	16
#define BPFDRV_INPUT_KEY_MAX	0x2ff	/* KEY_MAX */

/*
 * Sensors: chr_ext_ops.sensors, ended by an entry of type 0, appear as one
 * hwmon device per instance. Channels are numbered per type in declaration
 * order: the first temperature is temp1, the first voltage in0.
 */
#define BPFDRV_MAX_SENSORS	8
#define BPFDRV_SENSOR_LABEL_MAX	16
#define BPFDRV_SENSOR_TEMP	1	/* millidegrees Celsius: tempN_input */
#define BPFDRV_SENSOR_IN	2	/* millivolts: inN_input */
struct bpfdrv_sensor {
	__u32 type;		/* BPFDRV_SENSOR_* */
	char label[BPFDRV_SENSOR_LABEL_MAX];	/* tempN_label; "" => none */
};

/*
 * I2C (ABI 2): the adapter, by name (/sys/bus/i2c/devices/i2c-N/name; a
 * trailing '*' matches any name that starts as the rest), and the 7-bit
 * addresses the driver talks to, ended by 0. bpfdrv holds each
 * address as a client of its own while the instance lives; kfuncs name a
 * client by its index in i2c_addrs (docs/i2c.md).
 */
#define BPFDRV_I2C_ADAPTER_MAX	48
#define BPFDRV_MAX_I2C_CLIENTS	4
#define BPFDRV_I2C_ADDR_FIRST	0x08	/* the addresses I2C does not reserve */
#define BPFDRV_I2C_ADDR_LAST	0x77
#define BPFDRV_I2C_BLOCK_MAX	32	/* SMBus block transfers */
#define BPFDRV_I2C_MSG_MAX	256	/* raw I2C messages */

/*
 * SPI (ABI 2): the controller, by the name of its parent device (what
 * ls -l /sys/class/spi_master shows before spi_master/spiN; a trailing '*'
 * matches any name that starts as the rest), the chip select, the mode and
 * the clock. bpfdrv registers a SPI device there while the instance lives;
 * the bpfdrv_spi_* kfuncs talk to it (docs/spi.md). Words are 8 bits.
 */
#define BPFDRV_SPI_CONTROLLER_MAX 48
#define BPFDRV_SPI_CPHA		0x01	/* the same bits as the kernel's SPI_* */
#define BPFDRV_SPI_CPOL		0x02
#define BPFDRV_SPI_MODE_0	0
#define BPFDRV_SPI_MODE_1	BPFDRV_SPI_CPHA
#define BPFDRV_SPI_MODE_2	BPFDRV_SPI_CPOL
#define BPFDRV_SPI_MODE_3	(BPFDRV_SPI_CPOL | BPFDRV_SPI_CPHA)
#define BPFDRV_SPI_CS_HIGH	0x04
#define BPFDRV_SPI_LSB_FIRST	0x08
#define BPFDRV_SPI_MODE_MASK	0x0f
#define BPFDRV_SPI_CS_MAX	15
#define BPFDRV_SPI_XFER_MAX	4096	/* bytes of one transfer */

/*
 * DMA buffers of a PCI instance (ABI 3): bpfdrv_dma_buf_alloc() numbers
 * them; buffer 0 is the one bpfdrv_dma_alloc() gives. Freed buffers keep
 * their memory until the instance goes and count against the total.
 */
#define BPFDRV_MAX_DMA_BUFS	8
#define BPFDRV_DMA_BUF_MAX	(1U << 20)	/* bytes of one buffer */
#define BPFDRV_DMA_TOTAL_MAX	(4U << 20)	/* of an instance, freed included */
/* a place in buffer nr, for bpfdrv_io_to_dma_buf()/bpfdrv_dma_buf_to_io() */
#define BPFDRV_DMA_POS(nr, offset) (((__u64)(nr) << 32) | (__u32)(offset))

/*
 * mmap (ABI 3): windows of a PCI instance's node that map a memory BAR or
 * a DMA buffer into processes (docs/pci.md). chr_ext_ops.mmaps, in
 * increasing offset order, ended by an entry with prot 0. A window shows
 * [region_offset, region_offset + len) of its region at node offsets
 * [offset, offset + len); len 0 reaches the region's end (or the next
 * window). One mmap() falls inside one window. offset, region_offset and
 * len are multiples of the page size (4096 on x86-64). bpfdrv checks every
 * mmap() against the window and the region as it is then; BARs are mapped
 * uncached, and no mapping ever covers a BAR's MSI-X table or PBA.
 */
#define BPFDRV_MAX_MMAPS	8
#define BPFDRV_REGION_BAR(n)	(n)		/* memory BAR n, 0-5 */
#define BPFDRV_REGION_DMA(n)	(16 + (n))	/* DMA buffer n */
#define BPFDRV_MAP_READ		(1U << 0)
#define BPFDRV_MAP_WRITE	(1U << 1)	/* with READ: shared, writable */
struct bpfdrv_mmap_window {
	__u32 region;		/* BPFDRV_REGION_* */
	__u32 prot;		/* BPFDRV_MAP_*; 0 ends the list */
	__u64 offset;		/* in the node: mmap()'s offset */
	__u64 region_offset;	/* in the region */
	__u64 len;		/* bytes; 0: up to the region's end */
};

/*
 * What irq_hard (ABI 4) returns: the interrupt was not the device's, was
 * handled, or was handled in part and the irq callback is to finish it in
 * the instance's interrupt thread.
 */
#define BPFDRV_IRQ_NONE		0
#define BPFDRV_IRQ_HANDLED	1
#define BPFDRV_IRQ_WAKE		2

/*
 * The accelerator class (ABI 7): with chr_ext_ops.accel set, each instance
 * is also a DRM accel device, /dev/accel/accelN, whose name (drmGetVersion)
 * is the driver's (docs/accel.md). bpfdrv gives it GEM buffer objects,
 * their mmap and PRIME sharing (include/bpfdrv_accel.h); the driver adds
 * ioctls of its own: accel_ioctls, ended by an entry with an empty name.
 * Ioctl i is DRM_BPFDRV_DRIVER_BASE + i; bpfdrv copies its argument of
 * size bytes in (BPFDRV_ACCEL_IN) and out (BPFDRV_ACCEL_OUT) and calls
 * accel_ioctl with nr = i.
 */
#define BPFDRV_ACCEL_IOCTLS_MAX		16
#define BPFDRV_ACCEL_IOCTL_NAME_MAX	32	/* [A-Z0-9_], NUL included */
#define BPFDRV_ACCEL_IOCTL_SIZE_MAX	1024
#define BPFDRV_ACCEL_IN			(1U << 0)
#define BPFDRV_ACCEL_OUT		(1U << 1)
struct bpfdrv_accel_ioctl {
	char name[BPFDRV_ACCEL_IOCTL_NAME_MAX];
	__u32 size;		/* bytes of the argument, 0..SIZE_MAX */
	__u32 dir;		/* BPFDRV_ACCEL_IN | BPFDRV_ACCEL_OUT, or 0 */
};

/*
 * Jobs (DRM_IOCTL_BPFDRV_SUBMIT) run on a ring in the order the kernel's
 * DRM scheduler picks: accel_run_job starts one on the device, and the
 * driver ends it with bpfdrv_job_done(), from any callback, irq_hard
 * included. Until then the bpfdrv_job_bo_* kfuncs reach the job's
 * buffers, named BPFDRV_JOB_BO(ring, index in its list): the oldest job
 * on the ring's device that has not ended.
 */
#define BPFDRV_ACCEL_RINGS_MAX		4
#define BPFDRV_ACCEL_TIMEOUT_MS		2000	/* accel_timeout_ms 0 */
#define BPFDRV_ACCEL_TIMEOUT_MS_MAX	60000
#define BPFDRV_JOB_BO(ring, bo)		(((__u32)(ring) << 16) | (__u8)(bo))
/* bytes one bpfdrv_job_bo_load()/_store() copies at most (-E2BIG past) */
#define BPFDRV_JOB_BO_COPY_MAX		(64 * 1024)

/*
 * ABI 9: a ring may have chr_ext_ops.accel_ring_jobs jobs on the device
 * at once (0: 1), each in a slot, 0 to accel_ring_jobs - 1, from its
 * start to its end; bpfdrv_job_slot() tells a job's. A job's buffers are
 * then BPFDRV_JOB_SLOT_BO(ring, slot, index in its list). Jobs are
 * started in the scheduler's order into the next slot, round the ring,
 * and their fences signalled in that order: a job the driver ends early
 * waits for those started before it.
 */
#define BPFDRV_ACCEL_RING_JOBS_MAX	16
#define BPFDRV_JOB_SLOT_BO(ring, slot, bo) \
	(BPFDRV_JOB_BO(ring, bo) | ((((__u32)(slot) + 1) & 0xff) << 8))

/*
 * ABI 8: with chr_ext_ops.accel_dma_bits set (24..64, a PCI driver's),
 * bpfdrv_job_bo_dma() gives the bus address of a range of a job's buffer:
 * bpfdrv maps the buffer for the PCI function's DMA when the driver first
 * asks, and unmaps the job's buffers when it ends, before its fence is
 * signalled. The device reaches a buffer only while a job that names it
 * runs, once its driver asked, and only through the IOMMU (docs/accel.md).
 */
#define BPFDRV_ACCEL_DMA_BITS_MIN	24
/* ABI 11: chr_ext_ops.accel_va_bits, when set */
#define BPFDRV_ACCEL_VA_BITS_MIN	20
#define BPFDRV_ACCEL_VA_BITS_MAX	48
/* ABI 12: mappings one job reaches by DMA (bpfdrv_job_vm_dma()) at most */
#define BPFDRV_JOB_VM_DMA_MAX		8

/*
 * ABI 10: each instance has BPFDRV_TIMERS_MAX timers. bpfdrv_timer_start()
 * arms one to fire after a delay of at least BPFDRV_TIMER_MIN_NS (and one
 * scheduler tick); it fires once, running the driver's timer callback
 * like any other, which may arm it again.
 */
#define BPFDRV_TIMERS_MAX	4
#define BPFDRV_TIMER_MIN_NS	1000000ULL

/* bpfdrv_dev.bus */
#define BPFDRV_BUS_NONE		0
#define BPFDRV_BUS_PCI		1

/*
 * ABI 6: the state of a bpfdrv_for() loop, on the program's stack; only
 * the iterator's kfuncs touch it.
 */
struct bpf_iter_bpfdrv {
	__u64 __opaque[3];
} __attribute__((aligned(8)));

/*
 * One device instance. A driver without pci_ids gets one at attach, named
 * after the ops; a PCI driver gets one per bound PCI function it serves,
 * named <name><index>.
 */
struct bpfdrv_dev {
	char name[BPFDRV_NAME_MAX];
	__u32 minor;
	__u32 index;		/* instance number within the driver */
	__u32 bus;		/* BPFDRV_BUS_* */
	__u16 vendor;		/* PCI IDs (BPFDRV_BUS_PCI) */
	__u16 device;
	const void *__kernel_object;	/* NULL; see above */
} __bpfdrv_core;

/* One open file of a device. */
struct bpfdrv_file {
	__u64 id;		/* unique while the module is loaded */
	__u32 f_flags;		/* O_* flags, O_NONBLOCK kept current */
	__u32 uid;		/* opener's uid in the initial namespace */
	const void *__kernel_object;	/* NULL; see above */
} __bpfdrv_core;

/*
 * One read, write or ioctl call. The data lives in a kernel buffer of len
 * bytes (for read and write of a BPFDRV_F_DIRECT_IO driver, in the caller's
 * memory), reached only through the bpfdrv_io_* kfuncs. For read, len is what
 * the caller asked for (at most BPFDRV_IO_MAX); for write, what it gave; for
 * ioctl, _IOC_SIZE(cmd).
 */
struct bpfdrv_io {
	__u64 pos;		/* file offset (BPFDRV_F_SEEKABLE devices) */
	__u32 len;
	__u32 nonblock;		/* the caller will not wait (O_NONBLOCK) */
	__u64 arg;		/* ioctl: the argument of a command without data */
	const void *__kernel_object;	/* NULL; see above */
} __bpfdrv_core;

/*
 * One reading of a sensor (ABI 2): the driver reports the value with
 * bpfdrv_sensor_report().
 */
struct bpfdrv_sensor_read {
	__u32 sensor;		/* index in chr_ext_ops.sensors */
	__u32 type;		/* its BPFDRV_SENSOR_* */
	const void *__kernel_object;	/* NULL; see above */
} __bpfdrv_core;

/*
 * A byte ring kept in program memory (a map value) and filled or drained by
 * the bpfdrv_io_to_ring()/bpfdrv_ring_to_io() kfuncs; declare one with
 * BPFDRV_RING(capacity).
 */
struct bpfdrv_ring {
	__u32 head;		/* offset of the oldest byte */
	__u32 count;		/* bytes stored */
	__u8 data[];
};

/*
 * The callbacks a BPF driver implements; all are optional. Each gets the
 * device instance it runs for as its first argument. They run in process
 * context, one at a time per device instance, and may be sleepable
 * (SEC("struct_ops.s/...")); irq_hard alone is different (below).
 *
 * The pointers a callback gets are the only ones the kfuncs accept, and
 * only during that call: the verifier refuses anything else at load time.
 *
 * init runs per instance before its node appears; an error refuses that
 * instance. read/write return the bytes moved (0..io->len) or -errno;
 * -EAGAIN makes a blocking caller sleep until the driver calls
 * bpfdrv_dev_wake(), then the callback runs again. Absent: read => -EINVAL,
 * write => -EINVAL, ioctl => -ENOTTY, poll => readable and writable.
 *
 * irq runs in the instance's interrupt thread for each interrupt of a PCI
 * instance (vector: the MSI vector, 0 for INTx) and returns 1 if the device
 * raised it, 0 if not (a shared INTx line). irq_hard (ABI 4), if present,
 * runs first, in hard-IRQ context like a native driver's handler: never
 * sleepable, not serialized with the other callbacks, bounded in time
 * (docs/pci.md); it returns BPFDRV_IRQ_*, and irq then runs only for
 * BPFDRV_IRQ_WAKE. gpio_edge runs in a thread for
 * each edge on an input line declared with BPFDRV_GPIO_EDGE_*; line is the
 * index in gpio_lines, value the level read after the edge.
 *
 * The class callbacks (ABI 2) run in process context for the kernel's LED
 * and hwmon cores: led_set sets LED led (index in leds) to brightness
 * (0..max_brightness) and returns 0 or -errno; led_get returns the
 * brightness or -errno (absent: the last one set); led_blink returns 0 if
 * the hardware now blinks with these delays (ms, never 0), else -errno and
 * the LED core blinks through led_set; sensor_read reports sensor
 * rd->sensor's value with bpfdrv_sensor_report() and returns 0 or -errno.
 *
 * accel_ioctl (ABI 7) runs for the driver's own ioctls on the instance's
 * accel node: nr indexes accel_ioctls, io holds the argument (io->len is
 * its declared size); it returns 0 or -errno. open and release run for
 * the accel node's files too. accel_run_job starts job seqno on ring (arg:
 * the bytes user space gave the job) and returns 0, or -errno to fail it;
 * accel_timeout (optional) runs when a job overran accel_timeout_ms, before
 * bpfdrv fails it with ETIMEDOUT.
 */
struct chr_ext_ops {
	int (*init)(struct bpfdrv_dev *dev);
	void (*exit)(struct bpfdrv_dev *dev);
	int (*open)(struct bpfdrv_dev *dev, struct bpfdrv_file *file);
	void (*release)(struct bpfdrv_dev *dev, struct bpfdrv_file *file);
	int (*read)(struct bpfdrv_dev *dev, struct bpfdrv_file *file,
		    struct bpfdrv_io *io);
	int (*write)(struct bpfdrv_dev *dev, struct bpfdrv_file *file,
		     struct bpfdrv_io *io);
	int (*ioctl)(struct bpfdrv_dev *dev, struct bpfdrv_file *file,
		     unsigned int cmd, struct bpfdrv_io *io);
	__u32 (*poll)(struct bpfdrv_dev *dev, struct bpfdrv_file *file);
	int (*irq)(struct bpfdrv_dev *dev, __u32 vector);
	void (*gpio_edge)(struct bpfdrv_dev *dev, __u32 line, __u32 value);

	char name[BPFDRV_NAME_MAX];	/* the node is /dev/bpfdrv/<name> */
	__u32 mode;			/* node permissions, at most 0666; 0 => 0600 */
	__u32 flags;			/* BPFDRV_F_* */
	/* PCI: the functions served, or one function whatever its IDs */
	struct bpfdrv_pci_id pci_ids[BPFDRV_MAX_PCI_IDS];
	char pci_slot[BPFDRV_PCI_SLOT_MAX];
	/* GPIO: the chip (by label) and the lines claimed at attach */
	char gpio_chip[BPFDRV_GPIO_LABEL_MAX];
	struct bpfdrv_gpio_line gpio_lines[BPFDRV_MAX_GPIO_LINES];
	/*
	 * Live update (bpfdrv update): runs once per instance on the new
	 * code, before it serves; non-zero refuses the update and the old
	 * code goes on. Optional.
	 */
	int (*takeover)(struct bpfdrv_dev *dev);
	__u32 abi_version;		/* BPFDRV_ABI_VERSION built for */
	/* ABI 2: class devices, above */
	struct bpfdrv_led leds[BPFDRV_MAX_LEDS];
	int (*led_set)(struct bpfdrv_dev *dev, __u32 led, __u32 brightness);
	int (*led_get)(struct bpfdrv_dev *dev, __u32 led);
	int (*led_blink)(struct bpfdrv_dev *dev, __u32 led, __u32 delay_on,
			 __u32 delay_off);
	__u16 input_keys[BPFDRV_MAX_INPUT_KEYS];
	struct bpfdrv_sensor sensors[BPFDRV_MAX_SENSORS];
	int (*sensor_read)(struct bpfdrv_dev *dev, struct bpfdrv_sensor_read *rd);
	/* ABI 2: I2C, above */
	char i2c_adapter[BPFDRV_I2C_ADAPTER_MAX];
	__u16 i2c_addrs[BPFDRV_MAX_I2C_CLIENTS];
	/* ABI 2: SPI, above */
	char spi_controller[BPFDRV_SPI_CONTROLLER_MAX];
	__u32 spi_cs;			/* chip select */
	__u32 spi_mode;			/* BPFDRV_SPI_* */
	__u32 spi_max_speed_hz;		/* 0 => the controller's maximum */
	/* ABI 3: mmap windows, above */
	struct bpfdrv_mmap_window mmaps[BPFDRV_MAX_MMAPS];
	/* ABI 4, above */
	int (*irq_hard)(struct bpfdrv_dev *dev, __u32 vector);
	/* ABI 7: the accelerator class, above */
	__u32 accel;			/* 1: a DRM accel device per instance */
	struct bpfdrv_accel_ioctl accel_ioctls[BPFDRV_ACCEL_IOCTLS_MAX];
	int (*accel_ioctl)(struct bpfdrv_dev *dev, struct bpfdrv_file *file,
			   __u32 nr, struct bpfdrv_io *io);
	__u32 accel_rings;		/* job rings, 0..RINGS_MAX; 0 => no jobs */
	__u32 accel_timeout_ms;		/* a job's limit; 0 => TIMEOUT_MS */
	int (*accel_run_job)(struct bpfdrv_dev *dev, __u32 ring, __u64 seqno,
			     struct bpfdrv_io *arg);
	void (*accel_timeout)(struct bpfdrv_dev *dev, __u32 ring, __u64 seqno);
	/* ABI 8: the address bits the device drives for job buffers; 0: none */
	__u32 accel_dma_bits;
	/* ABI 9: jobs a ring may have on the device at once; 0 => 1 */
	__u32 accel_ring_jobs;
	/* ABI 10: timer @id of the instance fired (bpfdrv_timer_start()) */
	void (*timer)(struct bpfdrv_dev *dev, __u32 id);
	/*
	 * ABI 11: GET_PARAM of BPFDRV_ACCEL_PARAM_DRIVER + @param on the
	 * accel node: stores the value, 8 bytes, into @io and returns 0, or
	 * -EINVAL for a parameter or @index it does not have. Optional.
	 */
	int (*accel_get_param)(struct bpfdrv_dev *dev, struct bpfdrv_file *file,
			       __u32 param, __u32 index, struct bpfdrv_io *io);
	/*
	 * ABI 11: device address spaces (VMs, include/bpfdrv_accel.h) of
	 * accel_va_bits address bits (0: none; else 20..48). Each step of a
	 * bind reaches the driver before it takes effect: accel_vm_map maps
	 * [@addr, @addr + @range) of VM @vm to the buffer the binding file
	 * calls @handle, from @bo_offset (0, or -errno to refuse: the bind
	 * ends with it); accel_vm_unmap unmaps a range, and cannot refuse.
	 * Both optional, sleepable, bytes multiples of BPFDRV_ACCEL_VA_PAGE.
	 */
	__u32 accel_va_bits;
	int (*accel_vm_map)(struct bpfdrv_dev *dev, __u32 vm, __u64 addr,
			    __u64 range, __u32 handle, __u64 bo_offset);
	void (*accel_vm_unmap)(struct bpfdrv_dev *dev, __u32 vm, __u64 addr,
			       __u64 range);
	/*
	 * ABI 13: a PCI instance's interrupt vectors: MSI-X, else MSI, at
	 * least irq_vectors_min and at most irq_vectors_max (both 0: one
	 * vector, INTx without MSI; else 1..BPFDRV_MAX_IRQ_VECTORS). irq and
	 * irq_hard get the vector's index, 0..vectors - 1; the instance's
	 * vectors are in /sys/class/bpfdrv/<name>/irq_vectors.
	 */
	__u32 irq_vectors_min;
	__u32 irq_vectors_max;
	/* ABI 13: firmware files loaded at attach, above */
	char firmware[BPFDRV_MAX_FIRMWARE][BPFDRV_FIRMWARE_NAME_MAX];
	/*
	 * ABI 13: a reset of the instance's PCI function (FLR or a bus
	 * reset: the function's sysfs reset, bpfdrv reset): reset_prepare
	 * runs before it, reset_done after it, when the function's config
	 * space is restored; no other callback runs between the two (callers
	 * wait). Both optional.
	 */
	void (*reset_prepare)(struct bpfdrv_dev *dev);
	void (*reset_done)(struct bpfdrv_dev *dev);
	/*
	 * ABI 13: errors of the function's link (PCIe AER): error_detected
	 * runs first (@state: BPFDRV_PCI_ERR_*) and returns what the driver
	 * wants, BPFDRV_ERS_CAN_RECOVER, _NEED_RESET or _DISCONNECT; after a
	 * reset of the link slot_reset returns BPFDRV_ERS_RECOVERED or
	 * _DISCONNECT; error_resume runs once the function works again (not
	 * after a recovery that failed). Each is an ordinary call: the driver
	 * fails what it must (-EIO) between them. All optional: without
	 * error_detected bpfdrv asks for a reset. The instance stays in any
	 * case; a driver that cannot go on ejects itself (bpfdrv_eject()).
	 */
	int (*error_detected)(struct bpfdrv_dev *dev, __u32 state);
	int (*slot_reset)(struct bpfdrv_dev *dev);
	void (*error_resume)(struct bpfdrv_dev *dev);
	/*
	 * ABI 13: power management of a PCI instance. suspend runs before
	 * its function goes to a low-power state (@how: BPFDRV_PM_RUNTIME,
	 * idle for pm_autosuspend_ms; BPFDRV_PM_SYSTEM, system sleep), and
	 * returns 0 or -errno (-EBUSY keeps a runtime suspend off); resume
	 * runs when it is back, its config space restored, and restores the
	 * device's own state. pm_autosuspend_ms 0: no runtime suspend. Both
	 * optional.
	 */
	int (*suspend)(struct bpfdrv_dev *dev, __u32 how);
	int (*resume)(struct bpfdrv_dev *dev, __u32 how);
	__u32 pm_autosuspend_ms;
#ifdef __KERNEL__
	/*
	 * Set on attach; not for BPF. Untyped so that every compilation unit
	 * emits the same BTF for this struct (the kernel requires one).
	 */
	void *driver;
#endif
};

#endif /* __BPFDRV_ABI_H */
