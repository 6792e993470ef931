/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * What a BPF driver includes: the chr_ext_ops ABI, the bpfdrv kfuncs and
 * libbpf's helpers. Drivers need no vmlinux.h; the structs below are
 * relocated against the running bpfdrv module's BTF.
 */
#ifndef __BPFDRV_BPF_H
#define __BPFDRV_BPF_H

#include <stdbool.h>
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/ioctl.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpfdrv_abi.h"

/* poll() masks (linux/eventpoll.h values) */
#define BPFDRV_POLLIN	(0x0001 | 0x0040)	/* EPOLLIN | EPOLLRDNORM */
#define BPFDRV_POLLOUT	(0x0004 | 0x0100)	/* EPOLLOUT | EPOLLWRNORM */
#define BPFDRV_POLLERR	0x0008
#define BPFDRV_POLLHUP	0x0010

extern __u8 *bpfdrv_io_data(struct bpfdrv_io *io, __u32 offset,
			    const __u32 rdwr_buf_size) __ksym;
extern int bpfdrv_io_load(struct bpfdrv_io *io, __u32 io_off, void *dst,
			  __u32 dst__sz) __ksym;
extern int bpfdrv_io_store(struct bpfdrv_io *io, __u32 io_off, void *src,
			   __u32 src__sz) __ksym;
extern int bpfdrv_io_load_at(struct bpfdrv_io *io, void *dst, __u32 dst__sz,
			     __u32 dst_off, __u32 len) __ksym;
extern int bpfdrv_io_store_at(struct bpfdrv_io *io, void *src, __u32 src__sz,
			      __u32 src_off, __u32 len) __ksym;
extern int bpfdrv_ring_to_io(struct bpfdrv_io *io, void *ring,
			     __u32 ring__sz) __ksym;
extern int bpfdrv_io_to_ring(struct bpfdrv_io *io, void *ring,
			     __u32 ring__sz) __ksym;
extern __u8 *bpfdrv_file_priv(struct bpfdrv_file *file,
			      const __u32 rdwr_buf_size) __ksym;
extern void bpfdrv_dev_wake(struct bpfdrv_dev *dev) __ksym;
extern void bpfdrv_eject(struct bpfdrv_dev *dev, const char *msg,
			 __u32 msg__sz) __ksym;
extern __u8 *bpfdrv_dev_priv(struct bpfdrv_dev *dev,
			     const __u32 rdwr_buf_size) __ksym;
extern int bpfdrv_dev_yield(struct bpfdrv_dev *dev) __ksym;

/* ABI 6: bpfdrv_for(), the loop a driver may write (docs/writing-a-driver.md) */
extern int bpf_iter_bpfdrv_new(struct bpf_iter_bpfdrv *it,
			       struct bpfdrv_dev *dev, int start,
			       int end) __ksym;
extern int *bpf_iter_bpfdrv_next(struct bpf_iter_bpfdrv *it) __ksym;
extern void bpf_iter_bpfdrv_destroy(struct bpf_iter_bpfdrv *it) __ksym;

/*
 * for (i = start; i < end; i++), on instance @dev, within its call's budget:
 * in a callback that cannot sleep, the loops of one call end after
 * loop_max_ms and the driver is ejected; in a sleepable one, each round
 * may reschedule, and the loop ends when the caller is killed or the
 * instance torn down. libbpf's bpf_for() and bpf_loop() are refused.
 */
#define bpfdrv_for(i, dev, start, end)					\
	for (struct bpf_iter_bpfdrv ___it					\
		__attribute__((aligned(8),					\
			       cleanup(bpf_iter_bpfdrv_destroy))),		\
	     *___p __attribute__((unused)) =				\
		(bpf_iter_bpfdrv_new(&___it, (dev), (start), (end)),	\
		 (void)bpf_iter_bpfdrv_destroy, (void *)0);			\
	     ({								\
		int *___t = bpf_iter_bpfdrv_next(&___it);		\
		___t && ((i) = *___t, (i) >= (start) && (i) < (end));	\
	     });)

/* PCI (see docs/kfuncs.md): only on the instance's own function. */
extern int bpfdrv_pci_cfg_read(struct bpfdrv_dev *dev, __u32 off, __u32 size,
			       __u32 *val) __ksym;
extern int bpfdrv_pci_cfg_write(struct bpfdrv_dev *dev, __u32 off, __u32 size,
				__u32 val) __ksym;
extern __s64 bpfdrv_pci_bar_len(struct bpfdrv_dev *dev, __u32 bar) __ksym;
extern int bpfdrv_mmio_read(struct bpfdrv_dev *dev, __u32 bar, __u64 off,
			    __u32 size, __u64 *val) __ksym;
extern int bpfdrv_mmio_write(struct bpfdrv_dev *dev, __u32 bar, __u64 off,
			     __u32 size, __u64 val) __ksym;
extern __s64 bpfdrv_dma_alloc(struct bpfdrv_dev *dev, __u32 size,
			      __u32 mask_bits) __ksym;
extern int bpfdrv_io_to_dma(struct bpfdrv_io *io, __u32 io_off,
			    struct bpfdrv_dev *dev, __u32 dma_off,
			    __u32 len) __ksym;
extern int bpfdrv_dma_to_io(struct bpfdrv_dev *dev, __u32 dma_off,
			    struct bpfdrv_io *io, __u32 io_off,
			    __u32 len) __ksym;
/* ABI 3: up to BPFDRV_MAX_DMA_BUFS buffers; nr 0 is bpfdrv_dma_alloc()'s. */
extern __s64 bpfdrv_dma_buf_alloc(struct bpfdrv_dev *dev, __u32 nr,
				  __u32 size, __u32 mask_bits) __ksym;
extern int bpfdrv_dma_buf_free(struct bpfdrv_dev *dev, __u32 nr) __ksym;
/* ABI 13: the driver's firmware files (chr_ext_ops.firmware), by index */
extern __s64 bpfdrv_fw_size(struct bpfdrv_dev *dev, __u32 fw) __ksym;
extern int bpfdrv_fw_to_dma_buf(struct bpfdrv_dev *dev, __u32 fw, __u64 fw_off,
				__u64 pos, __u32 len) __ksym;
extern int bpfdrv_fw_to_bar(struct bpfdrv_dev *dev, __u32 fw, __u64 fw_off,
			    __u64 pos, __u32 len) __ksym;
/* pos: BPFDRV_DMA_POS(nr, offset), since a kfunc takes five arguments */
extern int bpfdrv_io_to_dma_buf(struct bpfdrv_io *io, __u32 io_off,
				struct bpfdrv_dev *dev, __u64 pos,
				__u32 len) __ksym;
extern int bpfdrv_dma_buf_to_io(struct bpfdrv_dev *dev, __u64 pos,
				struct bpfdrv_io *io, __u32 io_off,
				__u32 len) __ksym;

/* GPIO: line is an index into chr_ext_ops.gpio_lines; sleepable programs. */
extern int bpfdrv_gpio_get(struct bpfdrv_dev *dev, __u32 line) __ksym;
extern int bpfdrv_gpio_set(struct bpfdrv_dev *dev, __u32 line,
			   __u32 value) __ksym;
extern int bpfdrv_gpio_get_array(struct bpfdrv_dev *dev, __u32 first,
				 __u32 count, __u32 *bits) __ksym;
extern int bpfdrv_gpio_set_array(struct bpfdrv_dev *dev, __u32 first,
				 __u32 count, __u32 bits) __ksym;

/*
 * Class devices (ABI 2; docs/subsystems.md). Keys: a code declared in
 * chr_ext_ops.input_keys, value 0 released, 1 pressed, 2 repeat; readers
 * see keys after bpfdrv_input_sync(). Sensors: sensor_read reports the
 * value of the reading at hand.
 */
extern int bpfdrv_input_key(struct bpfdrv_dev *dev, __u32 code,
			    __u32 value) __ksym;
extern int bpfdrv_input_sync(struct bpfdrv_dev *dev) __ksym;
extern int bpfdrv_sensor_report(struct bpfdrv_sensor_read *rd,
				__s64 value) __ksym;

/* ABI 7: the jobs of an accelerator (docs/accel.md) */
extern int bpfdrv_job_done(struct bpfdrv_dev *dev, __u32 ring, __u64 seqno,
			   int err) __ksym __weak;
extern int bpfdrv_job_bo_load(struct bpfdrv_dev *dev, __u32 ring_bo, __u32 off,
			      void *dst, __u32 dst__sz) __ksym __weak;
extern int bpfdrv_job_bo_store(struct bpfdrv_dev *dev, __u32 ring_bo,
			       __u32 off, void *src, __u32 src__sz) __ksym __weak;
/* ABI 8: the bus address of a range of a job's buffer, for the device */
extern __s64 bpfdrv_job_bo_dma(struct bpfdrv_dev *dev, __u32 ring_bo, __u32 off,
			       __u32 len) __ksym __weak;
/* ABI 9: the slot of a job on a ring's device (BPFDRV_JOB_SLOT_BO) */
extern int bpfdrv_job_slot(struct bpfdrv_dev *dev, __u32 ring,
			   __u64 seqno) __ksym __weak;
/* ABI 11: copies through the VM a job runs in (SUBMIT's vm_id) */
extern int bpfdrv_job_vm_load(struct bpfdrv_dev *dev, __u32 ring_job,
			      __u64 addr, void *dst, __u32 dst__sz) __ksym __weak;
extern int bpfdrv_job_vm_store(struct bpfdrv_dev *dev, __u32 ring_job,
			       __u64 addr, void *src, __u32 src__sz) __ksym __weak;
/* ABI 12: the bus address of a range of a job's VM, for the device */
extern __s64 bpfdrv_job_vm_dma(struct bpfdrv_dev *dev, __u32 ring_job,
			       __u64 addr, __u32 len) __ksym __weak;
/* ABI 10: arm (or move) timer @id, cancel it; the timer callback runs */
extern int bpfdrv_timer_start(struct bpfdrv_dev *dev, __u32 id,
			      __u64 delay_ns) __ksym __weak;
extern int bpfdrv_timer_cancel(struct bpfdrv_dev *dev, __u32 id) __ksym __weak;

/*
 * I2C (ABI 2; docs/i2c.md): client is an index into chr_ext_ops.i2c_addrs;
 * sleepable programs. Reads return the value (a byte, a word) or -errno.
 */
extern int bpfdrv_i2c_read_byte(struct bpfdrv_dev *dev, __u32 client) __ksym;
extern int bpfdrv_i2c_write_byte(struct bpfdrv_dev *dev, __u32 client,
				 __u8 value) __ksym;
extern int bpfdrv_i2c_read_byte_data(struct bpfdrv_dev *dev, __u32 client,
				     __u8 reg) __ksym;
extern int bpfdrv_i2c_write_byte_data(struct bpfdrv_dev *dev, __u32 client,
				      __u8 reg, __u8 value) __ksym;
extern int bpfdrv_i2c_read_word_data(struct bpfdrv_dev *dev, __u32 client,
				     __u8 reg) __ksym;
extern int bpfdrv_i2c_write_word_data(struct bpfdrv_dev *dev, __u32 client,
				      __u8 reg, __u16 value) __ksym;
extern int bpfdrv_i2c_read_block(struct bpfdrv_dev *dev, __u32 client,
				 __u8 reg, void *buf, __u32 buf__sz) __ksym;
extern int bpfdrv_i2c_write_block(struct bpfdrv_dev *dev, __u32 client,
				  __u8 reg, void *buf, __u32 buf__sz) __ksym;
extern int bpfdrv_i2c_transfer(struct bpfdrv_dev *dev, __u32 client,
			       void *buf, __u32 buf__sz, __u32 wlen) __ksym;

/*
 * SPI (ABI 2; docs/spi.md): the device of chr_ext_ops.spi_controller and
 * spi_cs; sleepable programs. 1..BPFDRV_SPI_XFER_MAX bytes per buffer.
 * bpfdrv_spi_transfer() is full duplex: it sends buf and fills it with what
 * came back. bpfdrv_spi_write_then_read() sends tx, then reads rx, with
 * chip select held active throughout (a command and its answer).
 */
extern int bpfdrv_spi_transfer(struct bpfdrv_dev *dev, void *buf,
			       __u32 buf__sz) __ksym;
extern int bpfdrv_spi_write_then_read(struct bpfdrv_dev *dev, void *tx,
				      __u32 tx__sz, void *rx,
				      __u32 rx__sz) __ksym;

/*
 * Report a fatal error, printf-style (bpf_snprintf() formats, numbers
 * only: %d %i %u %x %X %c; a %s or %p leaves the message empty): the
 * driver is detached once the callback returns, and the message is kept as
 * its exit reason (bpfdrv status, /sys/kernel/bpfdrv/exits). The callback
 * should still return an error for the call at hand.
 */
#define BPFDRV_EXIT_MSG_MAX	128
#define bpfdrv_error(dev, fmt, args...)					\
	({								\
		char ___msg[BPFDRV_EXIT_MSG_MAX] = "";			\
									\
		BPF_SNPRINTF(___msg, sizeof(___msg), fmt, ##args);	\
		bpfdrv_eject(dev, ___msg, sizeof(___msg));		\
	})

/* A ring of CAP bytes for a map value: struct BPFDRV_RING(4096) ring; */
#define BPFDRV_RING(cap) {						\
		__u32 head;						\
		__u32 count;						\
		__u8 data[cap];						\
	}

/* Per-open-file state of type T, or NULL (T larger than the storage). */
#define bpfdrv_file_state(file, T) \
	((T *)bpfdrv_file_priv(file, sizeof(T)))

/* Per-device-instance state of type T, or NULL (T larger than the storage). */
#define bpfdrv_dev_state(dev, T) \
	((T *)bpfdrv_dev_priv(dev, sizeof(T)))

/* Declare the PCI functions a driver serves, in its chr_ext_ops map. */
#define BPFDRV_PCI_ID(v, d)	{ .vendor = (v), .device = (d) }

/* 32-bit MMIO helpers: the value, or 0 with *err set. */
static __always_inline __u32 bpfdrv_readl(struct bpfdrv_dev *dev, __u32 bar,
					  __u64 off, int *err)
{
	__u64 val = 0;

	*err = bpfdrv_mmio_read(dev, bar, off, 4, &val);
	return val;
}

static __always_inline int bpfdrv_writel(struct bpfdrv_dev *dev, __u32 bar,
					 __u64 off, __u32 val)
{
	return bpfdrv_mmio_write(dev, bar, off, 4, val);
}

#ifndef min
#define min(a, b) ((a) < (b) ? (a) : (b))
#endif

#endif /* __BPFDRV_BPF_H */
