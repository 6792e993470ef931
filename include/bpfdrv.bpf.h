/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * What a BPF driver includes: the chr_ext_ops ABI, the bpfdrv kfuncs and
 * libbpf's helpers. Drivers need no vmlinux.h; the structs below are
 * relocated against the running bpfdrv module's BTF.
 */
#ifndef __BPFDRV_BPF_H
#define __BPFDRV_BPF_H

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
extern int bpfdrv_ring_to_io(struct bpfdrv_io *io, void *ring,
			     __u32 ring__sz) __ksym;
extern int bpfdrv_io_to_ring(struct bpfdrv_io *io, void *ring,
			     __u32 ring__sz) __ksym;
extern __u8 *bpfdrv_file_priv(struct bpfdrv_file *file,
			      const __u32 rdwr_buf_size) __ksym;
extern void bpfdrv_wake(struct bpfdrv_file *file) __ksym;
extern void bpfdrv_dev_wake(struct bpfdrv_dev *dev) __ksym;

/* A ring of CAP bytes for a map value: struct BPFDRV_RING(4096) ring; */
#define BPFDRV_RING(cap) {						\
		__u32 head;						\
		__u32 count;						\
		__u8 data[cap];						\
	}

/* Per-open-file state of type T, or NULL (T larger than the storage). */
#define bpfdrv_file_state(file, T) \
	((T *)bpfdrv_file_priv(file, sizeof(T)))

#ifndef min
#define min(a, b) ((a) < (b) ? (a) : (b))
#endif

#endif /* __BPFDRV_BPF_H */
