// SPDX-License-Identifier: GPL-2.0
/*
 * echobench: per-operation cost of echo devices (bpfdrv, a native module,
 * CUSE) and of the system call floor (/dev/zero, /dev/null), or of edu
 * devices (the bpfdrv edu driver, the edu_ref module), measured in one
 * process so that every implementation sees the same machine.
 *
 *   echobench [-d SECONDS] [-r REPS] [-p] IMPL...   (-p: thread i on CPU i mod CPUs)
 *   IMPL: NAME:echo:PATH            an echo device
 *         NAME:floor:RPATH:WPATH    reads from RPATH, the rest on WPATH
 *         NAME:edu:PATH             an edu device (include/bpfdrv_edu.h)
 *         NAME:mmio:PATH            edu's registers mapped from PATH (a
 *                                   bpfdrv node's window, or a function's
 *                                   sysfs resource0 under uio_pci_generic)
 *         NAME:uio:PATH:UIODEV      as mmio, with interrupts by read() of
 *                                   UIODEV (/dev/uioN), as UIO users do
 *         NAME:vfio:BDF             edu function BDF under vfio-pci, as a
 *                                   VFIO user drives it: its BAR mapped
 *                                   from the device fd, its MSI on an
 *                                   eventfd, a buffer of ours mapped for
 *                                   its DMA through the IOMMU
 *         NAME:accel:NODE           edu_accel's accel node (docs/accel.md):
 *                                   the factorial and the DMA as jobs,
 *                                   each submitted with an out-syncobj and
 *                                   waited for
 *
 * Workloads: read and write of 1 B and 4 KiB, an ioctl round trip
 * (ECHO_IOC_INFO), open+close; for edu, a register round trip
 * (EDU_IOC_LIVENESS: an MMIO write and read), a factorial (write n, read
 * n! once the device's interrupt came) and 4 KiB by DMA to the device and
 * back (the drivers' DMA mode; mmio programs the DMA through the edu
 * driver's windows and polls); mmio and uio do the register round
 * trip through the mapping, and uio the factorial with its interrupt read
 * from /dev/uioN (acknowledged at the device, INTx unmasked through the
 * function's config file); vfio does all three through its mapping, the
 * factorial's interrupt read from an eventfd, the DMA polled as mmio's;
 * accel runs the factorial as a job of one value and the DMA as a job of
 * 4 KiB, from submit to its fence signalled, and fact_pipe the factorial
 * with ACCEL_DEPTH_MAX jobs in flight per submitter (an op: the oldest
 * waited for, the next submitted). Echo workloads run with one and
 * two threads, every thread on its own open file of the same device; edu
 * ones with one thread (its liveness register and factorial unit are one
 * per device, so concurrent users would only measure waiting), except
 * accel's, also with ACCEL_SUBMITTERS threads: jobs queued by several
 * files is what its scheduler is for. One run takes
 * echo and floor implementations or edu ones. Repetitions are interleaved: rep
 * 0 runs every workload on every implementation, then rep 1, and so on,
 * with the order of implementations rotated each rep, so slow drifts of
 * the machine hit all of them alike.
 *
 * Every operation is timed alone with clock_gettime() (the median cost of
 * an empty timing pair is subtracted). The work that keeps the echo ring
 * usable (refilling it for reads, clearing it for writes) is not timed and
 * not counted. A thread's ops/s is the median over its batches of BATCH
 * consecutive counted ops of BATCH / (their summed time): the guest's
 * vCPUs share a busy host, and a batch in which the host took the vCPU
 * away is an outlier the median discards, where a mean would not. A cell's
 * ops/s is the sum over its threads; the plain mean rate is reported too.
 * Output: one JSON object per cell and line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/pci_regs.h>
#include <linux/vfio.h>

#include "accel_job.h"
#include "bpfdrv_echo.h"
#include "bpfdrv_edu.h"

#define MAX_IMPLS	8
#define ECHO_THREADS	2
#define ACCEL_SUBMITTERS	4
#define MAX_THREADS	ACCEL_SUBMITTERS
#define MAX_SAMPLES	(1 << 21)	/* per thread and cell */
#define IO_BIG		4096
#define BATCH		16	/* ops per throughput sample */

enum impl_kind { KIND_ECHO, KIND_FLOOR, KIND_EDU, KIND_MMIO, KIND_UIO,
		 KIND_VFIO, KIND_ACCEL };

struct impl {
	const char *name;
	enum impl_kind kind;
	const char *rpath;	/* reads; mmio and uio: the registers */
	const char *wpath;	/* writes, ioctl, open+close; uio: /dev/uioN */
};

static bool edu_kind(enum impl_kind kind)
{
	return kind == KIND_EDU || kind == KIND_MMIO || kind == KIND_UIO ||
	       kind == KIND_VFIO || kind == KIND_ACCEL;
}

/* Liveness register round trip through the mapping @r; 0 or -1. */
static long mmio_reg(volatile uint32_t *r, uint32_t v)
{
	r[EDU_REG_LIVENESS / 4] = v;
	if (r[EDU_REG_LIVENESS / 4] == ~v)
		return 0;
	errno = EIO;
	return -1;
}

/*
 * 10! by interrupt, as a uio_pci_generic user computes it: wait for the
 * interrupt on /dev/uioN, acknowledge it at the device, and unmask INTx
 * (which the kernel masked at the function) by clearing PCI_COMMAND's
 * INTx disable bit through the function's config file, as the UIO
 * documentation's example does (uio_pci_generic has no irqcontrol).
 */
static long uio_fact(volatile uint32_t *r, int uio, int cfg, uint8_t cmd_hi)
{
	uint32_t count;

	r[EDU_REG_STATUS / 4] = EDU_STATUS_IRQ_FACT;
	r[EDU_REG_FACT / 4] = 10;
	if (read(uio, &count, sizeof(count)) != sizeof(count))
		return -1;
	r[EDU_REG_IRQ_ACK / 4] = EDU_IRQ_FACT;
	if (pwrite(cfg, &cmd_hi, 1, PCI_COMMAND + 1) != 1)
		return -1;
	if (r[EDU_REG_FACT / 4] == 3628800)
		return 0;
	errno = EIO;
	return -1;
}

/* An edu function under vfio-pci, opened as a VFIO user opens it. */
struct vfio_edu {
	int container, group, device;
	int irq;			/* eventfd of its MSI */
	volatile uint32_t *regs;	/* BAR 0 */
	uint8_t *dma;			/* 2 * EDU_DMA_SIZE at VFIO_EDU_IOVA */
};

/* Where our DMA buffer appears to edu: inside its 28 address bits. */
#define VFIO_EDU_IOVA	0x100000

/* Open function @bdf through its IOMMU group; 0, or -1 with errno set. */
static int vfio_open(const char *bdf, struct vfio_edu *v)
{
	struct vfio_group_status status = { .argsz = sizeof(status) };
	struct vfio_region_info bar = {
		.argsz = sizeof(bar), .index = VFIO_PCI_BAR0_REGION_INDEX,
	};
	struct vfio_region_info cfg = {
		.argsz = sizeof(cfg), .index = VFIO_PCI_CONFIG_REGION_INDEX,
	};
	struct vfio_iommu_type1_dma_map map = {
		.argsz = sizeof(map), .iova = VFIO_EDU_IOVA,
		.size = 2 * EDU_DMA_SIZE,
		.flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
	};
	char set_buf[sizeof(struct vfio_irq_set) + sizeof(int)];
	struct vfio_irq_set *set = (struct vfio_irq_set *)set_buf;
	char path[PATH_MAX], link[PATH_MAX];
	uint16_t cmd;
	ssize_t n;

	*v = (struct vfio_edu){ -1, -1, -1, -1, MAP_FAILED, MAP_FAILED };
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/iommu_group", bdf);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return -1;
	link[n] = '\0';
	snprintf(path, sizeof(path), "/dev/vfio/%s", strrchr(link, '/') + 1);
	v->container = open("/dev/vfio/vfio", O_RDWR);
	v->group = open(path, O_RDWR);
	if (v->container < 0 || v->group < 0 ||
	    ioctl(v->group, VFIO_GROUP_GET_STATUS, &status))
		return -1;
	if (!(status.flags & VFIO_GROUP_FLAGS_VIABLE)) {
		errno = EBUSY;	/* another function of the group has a driver */
		return -1;
	}
	if (ioctl(v->group, VFIO_GROUP_SET_CONTAINER, &v->container) ||
	    ioctl(v->container, VFIO_SET_IOMMU, VFIO_TYPE1v2_IOMMU))
		return -1;
	v->device = ioctl(v->group, VFIO_GROUP_GET_DEVICE_FD, bdf);
	if (v->device < 0 ||
	    ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &bar) ||
	    ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &cfg))
		return -1;
	v->regs = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
		       v->device, bar.offset);
	v->dma = mmap(NULL, 2 * EDU_DMA_SIZE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (v->regs == MAP_FAILED || v->dma == MAP_FAILED)
		return -1;
	map.vaddr = (uintptr_t)v->dma;
	if (ioctl(v->container, VFIO_IOMMU_MAP_DMA, &map))
		return -1;
	/* DMA and MSI are memory writes of the device: bus mastering on */
	if (pread(v->device, &cmd, 2, cfg.offset + PCI_COMMAND) != 2)
		return -1;
	cmd |= PCI_COMMAND_MASTER;
	if (pwrite(v->device, &cmd, 2, cfg.offset + PCI_COMMAND) != 2)
		return -1;
	v->irq = eventfd(0, 0);
	if (v->irq < 0)
		return -1;
	set->argsz = sizeof(set_buf);
	set->flags = VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER;
	set->index = VFIO_PCI_MSI_IRQ_INDEX;
	set->start = 0;
	set->count = 1;
	memcpy(set->data, &v->irq, sizeof(int));
	return ioctl(v->device, VFIO_DEVICE_SET_IRQS, set) ? -1 : 0;
}

static void vfio_close(struct vfio_edu *v)
{
	if (v->regs != MAP_FAILED)
		munmap((void *)v->regs, 4096);
	if (v->dma != MAP_FAILED)
		munmap(v->dma, 2 * EDU_DMA_SIZE);
	/* closing the device fd frees its MSI; the container's, the mapping */
	if (v->irq >= 0)
		close(v->irq);
	if (v->device >= 0)
		close(v->device);
	if (v->group >= 0)
		close(v->group);
	if (v->container >= 0)
		close(v->container);
}

/* 10! by interrupt, as a VFIO user computes it: the MSI on an eventfd. */
static long vfio_fact(struct vfio_edu *v)
{
	volatile uint32_t *r = v->regs;
	uint64_t count;

	r[EDU_REG_STATUS / 4] = EDU_STATUS_IRQ_FACT;
	r[EDU_REG_FACT / 4] = 10;
	if (read(v->irq, &count, sizeof(count)) != sizeof(count))
		return -1;
	r[EDU_REG_IRQ_ACK / 4] = EDU_IRQ_FACT;
	if (r[EDU_REG_FACT / 4] == 3628800)
		return 0;
	errno = EIO;
	return -1;
}

/* Wait until edu clears @bit of register @off; bounded: 0 or -1. */
static long edu_poll(volatile uint32_t *r, uint32_t off, uint32_t bit)
{
	long i;

	for (i = 0; i < 100000000; i++)
		if (!(r[off / 4] & bit))
			return 0;
	errno = ETIMEDOUT;
	return -1;
}

/*
 * 4 KiB to the device and back by DMA, through the edu driver's windows:
 * the registers in @r, its DMA buffer (bus address @bus) at @buf, whose
 * first half goes out and second half comes back. @mark varies the data.
 */
static long mmio_dma(volatile uint32_t *r, uint8_t *buf, uint64_t bus,
		     uint8_t mark)
{
	volatile uint64_t *q = (volatile uint64_t *)r;

	buf[0] = mark;
	buf[EDU_DMA_SIZE - 1] = ~mark;
	q[EDU_REG_DMA_SRC / 8] = bus;
	q[EDU_REG_DMA_DST / 8] = EDU_DMA_DEV_ADDR;
	q[EDU_REG_DMA_COUNT / 8] = EDU_DMA_SIZE;
	q[EDU_REG_DMA_CMD / 8] = EDU_DMA_START;
	if (edu_poll(r, EDU_REG_DMA_CMD, EDU_DMA_START))
		return -1;
	q[EDU_REG_DMA_SRC / 8] = EDU_DMA_DEV_ADDR;
	q[EDU_REG_DMA_DST / 8] = bus + EDU_DMA_SIZE;
	q[EDU_REG_DMA_CMD / 8] = EDU_DMA_START | EDU_DMA_TO_RAM;
	if (edu_poll(r, EDU_REG_DMA_CMD, EDU_DMA_START))
		return -1;
	if (!memcmp(buf, buf + EDU_DMA_SIZE, EDU_DMA_SIZE))
		return 0;
	errno = EIO;
	return -1;
}

/* The same through an edu driver's DMA mode: write(2), then read(2). */
static long edu_rw_dma(int fd, uint8_t *out, uint8_t *in, uint8_t mark)
{
	out[0] = mark;
	out[EDU_DMA_SIZE - 1] = ~mark;
	if (write(fd, out, EDU_DMA_SIZE) != EDU_DMA_SIZE ||
	    read(fd, in, EDU_DMA_SIZE) != EDU_DMA_SIZE)
		return -1;
	if (!memcmp(out, in, EDU_DMA_SIZE))
		return 0;
	errno = EIO;
	return -1;
}

enum workload { WL_READ1, WL_READ4K, WL_WRITE1, WL_WRITE4K, WL_IOCTL,
		WL_OPENCLOSE, WL_EDU_REG, WL_EDU_FACT, WL_EDU_DMA,
		WL_EDU_FACT_PIPE, WL_NR };

static const char *const wl_names[WL_NR] = {
	"read1", "read4k", "write1", "write4k", "ioctl", "openclose",
	"reg", "fact", "dma", "fact_pipe",
};

#define EDU_FACT_N	"10"
#define EDU_FACT_RESULT	"3628800\n"


struct worker {
	pthread_t thread;
	int cpu;		/* pinned there if >= 0 */
	const struct impl *impl;
	enum workload wl;
	uint32_t *samples;	/* ns per counted op */
	uint64_t ops;
	uint64_t busy_ns;
	int err;		/* errno of an unexpected failure */
};

static double run_seconds = 0.25;
static bool pin_threads;
static int nr_cpus = 1;
static uint64_t timer_cost_ns;
static pthread_barrier_t start_barrier;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median over batches of BATCH consecutive samples of their ops/s. */
static double batch_rate(const uint32_t *samples, uint64_t n)
{
	static double rates[MAX_SAMPLES / BATCH];
	uint64_t b, i, nb = n / BATCH;

	for (b = 0; b < nb; b++) {
		uint64_t sum = 0;

		for (i = 0; i < BATCH; i++)
			sum += samples[b * BATCH + i];
		rates[b] = sum ? BATCH * 1e9 / sum : 0;
	}
	if (!nb)
		return 0;
	qsort(rates, nb, sizeof(rates[0]), cmp_double);
	return rates[nb / 2];
}

/* Median cost of a timing pair with nothing between. */
static uint64_t measure_timer_cost(void)
{
	static uint32_t s[20001];
	int i;

	for (i = 0; i < 20001; i++) {
		uint64_t t0 = now_ns();

		s[i] = now_ns() - t0;
	}
	qsort(s, 20001, sizeof(s[0]), cmp_u32);
	return s[10000];
}

/* Fill the echo ring until it refuses more; returns -1 on a real error. */
static int echo_refill(int fd, const char *buf)
{
	for (;;) {
		ssize_t n = write(fd, buf, IO_BIG);

		if (n < 0)
			return errno == ENOSPC ? 0 : -1;
		if (n < IO_BIG)
			return 0;
	}
}

static size_t wl_size(enum workload wl)
{
	return wl == WL_READ1 || wl == WL_WRITE1 ? 1 : IO_BIG;
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	const struct impl *im = w->impl;
	bool echo = im->kind == KIND_ECHO;
	bool rd = w->wl == WL_READ1 || w->wl == WL_READ4K;
	const char *path = rd ? im->rpath : im->wpath;
	size_t size = wl_size(w->wl);
	volatile uint32_t *regs = NULL;
	struct echo_info info;
	char buf[IO_BIG];
	__u32 val;
	uint64_t end, t0, t1, d;
	int fd = -1, regs_fd = -1, cfg_fd = -1;
	char cfg_path[PATH_MAX];
	static __thread uint8_t dma_in[EDU_DMA_SIZE];
	uint8_t cmd_hi = 0, *dma_buf = MAP_FAILED;
	struct edu_info edu = {};
	__u32 mode = EDU_MODE_DMA;
	struct vfio_edu vfio;
	struct accel_edu accel = { .fd = -1 };
	long r;

	memset(buf, 'x', sizeof(buf));
	if (w->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	if (im->kind == KIND_MMIO || im->kind == KIND_UIO) {
		regs_fd = open(im->rpath, O_RDWR | O_SYNC);
		if (regs_fd >= 0)
			regs = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
				    regs_fd, 0);
		if (regs_fd < 0 || regs == MAP_FAILED) {
			w->err = errno;
			pthread_barrier_wait(&start_barrier);
			return NULL;
		}
		path = im->kind == KIND_UIO ? im->wpath : NULL;
	}
	if (im->kind == KIND_VFIO) {
		if (vfio_open(im->rpath, &vfio)) {
			w->err = errno;
			vfio_close(&vfio);
			pthread_barrier_wait(&start_barrier);
			return NULL;
		}
		regs = vfio.regs;
		path = NULL;
	}
	if (im->kind == KIND_ACCEL) {
		if (accel_open(im->rpath, &accel)) {
			w->err = errno;
			accel_close(&accel);
			pthread_barrier_wait(&start_barrier);
			return NULL;
		}
		path = NULL;
	}
	if (im->kind == KIND_MMIO && w->wl == WL_EDU_DMA) {
		/* the driver's DMA buffer window, and its bus address */
		if (!ioctl(regs_fd, EDU_IOC_INFO, &edu))
			dma_buf = mmap(NULL, 2 * EDU_DMA_SIZE, PROT_READ | PROT_WRITE,
				       MAP_SHARED, regs_fd, EDU_MMAP_DMA);
		if (dma_buf == MAP_FAILED) {
			w->err = errno;
			pthread_barrier_wait(&start_barrier);
			return NULL;
		}
	}
	if (im->kind == KIND_UIO) {
		/* the function's config file, beside its resource0 */
		snprintf(cfg_path, sizeof(cfg_path), "%.*s/config",
			 (int)(strrchr(im->rpath, '/') - im->rpath), im->rpath);
		cfg_fd = open(cfg_path, O_RDWR);
		if (cfg_fd < 0 || pread(cfg_fd, &cmd_hi, 1, PCI_COMMAND + 1) != 1) {
			w->err = errno;
			pthread_barrier_wait(&start_barrier);
			return NULL;
		}
		cmd_hi &= ~(PCI_COMMAND_INTX_DISABLE >> 8);
	}
	if (w->wl != WL_OPENCLOSE && path) {
		fd = open(path, O_RDWR);
		if (fd < 0 || (w->wl == WL_EDU_DMA &&
			       ioctl(fd, EDU_IOC_SET_MODE, &mode))) {
			w->err = errno;
			pthread_barrier_wait(&start_barrier);
			return NULL;
		}
	}
	pthread_barrier_wait(&start_barrier);
	end = now_ns() + (uint64_t)(run_seconds * 1e9);
	for (t1 = 0; t1 < end && w->ops < MAX_SAMPLES;) {
		bool counted = true;

		t0 = now_ns();
		switch (w->wl) {
		case WL_READ1:
		case WL_READ4K:
			r = read(fd, buf, size);
			break;
		case WL_WRITE1:
		case WL_WRITE4K:
			r = write(fd, buf, size);
			break;
		case WL_IOCTL:
			r = ioctl(fd, ECHO_IOC_INFO, &info);
			/* The floor's /dev/null has no ioctls: ENOTTY. */
			if (!echo && r < 0 && errno == ENOTTY)
				r = 0;
			break;
		case WL_OPENCLOSE:
			r = open(path, O_RDWR);
			if (r >= 0)
				r = close(r);
			break;
		case WL_EDU_REG:
			if (regs) {
				r = mmio_reg(regs, (uint32_t)t0);
				break;
			}
			val = (__u32)t0;
			r = ioctl(fd, EDU_IOC_LIVENESS, &val);
			if (!r && val != ~(__u32)t0) {
				r = -1;
				errno = EIO;	/* not the device's answer */
			}
			break;
		case WL_EDU_FACT_PIPE:
			r = accel_fact_pipe(&accel, ACCEL_DEPTH_MAX);
			break;
		case WL_EDU_DMA:
			if (im->kind == KIND_ACCEL)
				r = accel_dma(&accel, w->ops);
			else if (im->kind == KIND_VFIO)
				r = mmio_dma(regs, vfio.dma, VFIO_EDU_IOVA, w->ops);
			else if (regs)
				r = mmio_dma(regs, dma_buf, edu.dma_addr, w->ops);
			else
				r = edu_rw_dma(fd, (uint8_t *)buf, dma_in, w->ops);
			break;
		default:
			if (im->kind == KIND_VFIO) {
				r = vfio_fact(&vfio);
				break;
			}
			if (im->kind == KIND_ACCEL) {
				r = accel_fact(&accel);
				break;
			}
			if (regs) {
				r = uio_fact(regs, fd, cfg_fd, cmd_hi);
				break;
			}
			r = write(fd, EDU_FACT_N, strlen(EDU_FACT_N));
			if (r == (long)strlen(EDU_FACT_N))
				r = read(fd, buf, sizeof(buf));
			if (r >= 0 && (r != (long)strlen(EDU_FACT_RESULT) ||
				       memcmp(buf, EDU_FACT_RESULT, r))) {
				r = -1;
				errno = EIO;	/* not 10! */
			}
			break;
		}
		t1 = now_ns();

		if (w->wl <= WL_WRITE4K && r != (long)size) {
			/* An empty or full ring: make it usable, untimed. */
			counted = false;
			if (echo && rd && r >= 0)
				r = echo_refill(fd, buf);
			else if (echo && !rd && (r >= 0 || errno == ENOSPC))
				r = ioctl(fd, ECHO_IOC_CLEAR);
		}
		if (r < 0) {
			w->err = errno;
			break;
		}
		if (!counted)
			continue;
		d = t1 - t0;
		d = d > timer_cost_ns ? d - timer_cost_ns : 0;
		w->samples[w->ops++] = d > UINT32_MAX ? UINT32_MAX : d;
		w->busy_ns += d;
	}
	if (fd >= 0)
		close(fd);
	if (im->kind == KIND_VFIO)
		vfio_close(&vfio);
	else if (im->kind == KIND_ACCEL)
		accel_close(&accel);
	else if (regs)
		munmap((void *)regs, 4096);
	if (regs_fd >= 0)
		close(regs_fd);
	if (cfg_fd >= 0)
		close(cfg_fd);
	if (dma_buf != MAP_FAILED)
		munmap(dma_buf, 2 * EDU_DMA_SIZE);
	return NULL;
}

static struct worker workers[MAX_THREADS];

/* Bring the device to the state the workload starts from. */
static int prepare(const struct impl *im, enum workload wl)
{
	char buf[IO_BIG];
	int fd, ret = 0;

	if (im->kind != KIND_ECHO)
		return 0;
	fd = open(im->wpath, O_RDWR);
	if (fd < 0)
		return -1;
	memset(buf, 'x', sizeof(buf));
	if (ioctl(fd, ECHO_IOC_CLEAR))
		ret = -1;
	else if (wl == WL_READ1 || wl == WL_READ4K)
		ret = echo_refill(fd, buf);
	close(fd);
	return ret;
}

static int run_cell(const struct impl *im, enum workload wl, int threads,
		    int rep)
{
	static uint32_t *all;
	double ops_per_s = 0, mean_ops_per_s = 0;
	uint64_t ops = 0, n = 0;
	int i;

	/*
	 * A bpfdrv window gives no interrupts to user space, and
	 * uio_pci_generic no memory the device may DMA to; edu_accel's jobs
	 * do no register round trip, and only they keep jobs in flight. Edu
	 * has one thread, accel's factorials also ACCEL_SUBMITTERS.
	 */
	if ((im->kind == KIND_MMIO && wl == WL_EDU_FACT) ||
	    (im->kind == KIND_UIO && wl == WL_EDU_DMA) ||
	    (im->kind == KIND_ACCEL && wl == WL_EDU_REG) ||
	    (im->kind != KIND_ACCEL && wl == WL_EDU_FACT_PIPE))
		return 0;
	if (edu_kind(im->kind) && threads > 1 &&
	    (im->kind != KIND_ACCEL || wl == WL_EDU_DMA ||
	     threads != ACCEL_SUBMITTERS))
		return 0;
	if (!all)
		all = malloc(sizeof(*all) * MAX_SAMPLES * MAX_THREADS);
	if (!all)
		return -1;
	if (prepare(im, wl)) {
		fprintf(stderr, "echobench: %s: preparing %s: %s\n", im->name,
			wl_names[wl], strerror(errno));
		return -1;
	}
	pthread_barrier_init(&start_barrier, NULL, threads);
	for (i = 0; i < threads; i++) {
		struct worker *w = &workers[i];

		w->impl = im;
		w->wl = wl;
		w->cpu = pin_threads ? i % nr_cpus : -1;
		w->ops = w->busy_ns = 0;
		w->err = 0;
		if (pthread_create(&w->thread, NULL, worker_run, w)) {
			fprintf(stderr, "echobench: cannot start a thread\n");
			exit(1);
		}
	}
	for (i = 0; i < threads; i++) {
		struct worker *w = &workers[i];

		pthread_join(w->thread, NULL);
		if (w->err) {
			fprintf(stderr, "echobench: %s %s: %s\n", im->name,
				wl_names[wl], strerror(w->err));
			return -1;
		}
		if (w->busy_ns)
			mean_ops_per_s += w->ops * 1e9 / w->busy_ns;
		ops_per_s += batch_rate(w->samples, w->ops);
		memcpy(all + n, w->samples, w->ops * sizeof(*all));
		n += w->ops;
		ops += w->ops;
	}
	pthread_barrier_destroy(&start_barrier);
	if (!n) {
		fprintf(stderr, "echobench: %s %s: no operation completed\n",
			im->name, wl_names[wl]);
		return -1;
	}
	qsort(all, n, sizeof(*all), cmp_u32);
	printf("{\"bench\": \"%s\", \"impl\": \"%s\", \"workload\": \"%s\", "
	       "\"threads\": %d, \"rep\": %d, \"ops\": %llu, "
	       "\"ops_per_s\": %.1f, \"mean_ops_per_s\": %.1f, "
	       "\"p50_ns\": %u, \"p99_ns\": %u}\n",
	       edu_kind(im->kind) ? "edu" : "echo", im->name, wl_names[wl],
	       threads, rep, (unsigned long long)ops,
	       ops_per_s, mean_ops_per_s, all[n / 2], all[n * 99 / 100]);
	fflush(stdout);
	return 0;
}

static int parse_impl(char *arg, struct impl *im)
{
	char *kind, *sep;

	im->name = strsep(&arg, ":");
	kind = strsep(&arg, ":");
	if (!kind || !arg || !*im->name)
		return -1;
	if (!strcmp(kind, "echo")) {
		im->kind = KIND_ECHO;
		im->rpath = im->wpath = arg;
		return strchr(arg, ':') ? -1 : 0;
	}
	if (!strcmp(kind, "edu")) {
		im->kind = KIND_EDU;
		im->rpath = im->wpath = arg;
		return strchr(arg, ':') ? -1 : 0;
	}
	if (!strcmp(kind, "mmio")) {
		im->kind = KIND_MMIO;
		im->rpath = im->wpath = arg;
		return strchr(arg, ':') ? -1 : 0;
	}
	if (!strcmp(kind, "uio")) {
		/* PATH is under a PCI address, which has colons of its own */
		sep = strrchr(arg, ':');
		if (!sep || !sep[1])
			return -1;
		*sep = '\0';
		im->kind = KIND_UIO;
		im->rpath = arg;
		im->wpath = sep + 1;
		return 0;
	}
	if (!strcmp(kind, "vfio")) {
		im->kind = KIND_VFIO;
		im->rpath = im->wpath = arg;	/* a PCI address */
		return 0;
	}
	if (!strcmp(kind, "accel")) {
		im->kind = KIND_ACCEL;
		im->rpath = im->wpath = arg;
		return strchr(arg, ':') ? -1 : 0;
	}
	if (!strcmp(kind, "floor")) {
		im->kind = KIND_FLOOR;
		im->rpath = strsep(&arg, ":");
		im->wpath = arg;
		return arg && *arg ? 0 : -1;
	}
	return -1;
}

static void usage(void)
{
	fprintf(stderr, "usage: echobench [-d SECONDS] [-r REPS] [-p] "
		"NAME:echo:PATH|NAME:floor:RPATH:WPATH ... | "
		"NAME:edu:PATH|NAME:mmio:PATH|NAME:uio:PATH:UIODEV|"
		"NAME:vfio:BDF|NAME:accel:NODE ...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct impl impls[MAX_IMPLS];
	int nimpl, reps = 5, rep, wl, t, i, opt, first_wl, end_wl, max_threads;

	while ((opt = getopt(argc, argv, "d:r:p")) != -1) {
		switch (opt) {
		case 'p':
			pin_threads = true;
			break;
		case 'd':
			run_seconds = atof(optarg);
			if (run_seconds <= 0 || run_seconds > 60)
				usage();
			break;
		case 'r':
			reps = atoi(optarg);
			if (reps < 1 || reps > 1000)
				usage();
			break;
		default:
			usage();
		}
	}
	nimpl = argc - optind;
	if (nimpl < 1 || nimpl > MAX_IMPLS)
		usage();
	for (i = 0; i < nimpl; i++) {
		if (parse_impl(argv[optind + i], &impls[i])) {
			fprintf(stderr, "echobench: bad implementation '%s'\n",
				argv[optind + i]);
			usage();
		}
	}
	for (i = 1; i < nimpl; i++) {
		if (edu_kind(impls[i].kind) != edu_kind(impls[0].kind)) {
			fprintf(stderr, "echobench: edu and echo implementations run separately\n");
			usage();
		}
	}
	max_threads = edu_kind(impls[0].kind) ? ACCEL_SUBMITTERS : ECHO_THREADS;
	nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (nr_cpus < 1)
		nr_cpus = 1;
	first_wl = edu_kind(impls[0].kind) ? WL_EDU_REG : WL_READ1;
	end_wl = edu_kind(impls[0].kind) ? WL_NR : WL_EDU_REG;
	for (t = 0; t < MAX_THREADS; t++) {
		workers[t].samples = malloc(sizeof(uint32_t) * MAX_SAMPLES);
		if (!workers[t].samples)
			return 1;
		memset(workers[t].samples, 0, sizeof(uint32_t) * MAX_SAMPLES);
	}
	timer_cost_ns = measure_timer_cost();
	printf("{\"bench\": \"timer\", \"cost_ns\": %llu}\n",
	       (unsigned long long)timer_cost_ns);

	for (rep = 0; rep < reps; rep++)
		for (wl = first_wl; wl < end_wl; wl++)
			for (t = 1; t <= max_threads; t++)
				for (i = 0; i < nimpl; i++)
					if (run_cell(&impls[(i + rep) % nimpl],
						     wl, t, rep))
						return 1;
	return 0;
}
