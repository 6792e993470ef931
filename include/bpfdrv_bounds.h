/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The bounds test driver (selftests/progs/bounds.bpf.c): each ioctl calls
 * one kfunc at or past one of its bounds and returns what the kfunc gave,
 * so user space can check that bad offsets and sizes are contained at run
 * time with the documented errno. The I/O window of every command is 16
 * bytes. A kfunc that returns a pointer gives 1 for NULL and 0 otherwise.
 */
#ifndef __BPFDRV_BOUNDS_H
#define __BPFDRV_BOUNDS_H

#include <linux/ioctl.h>

struct bpfdrv_bounds_arg {
	__u8 data[16];
};

#define BOUNDS_CMD(n)	_IOWR('B', n, struct bpfdrv_bounds_arg)

enum bpfdrv_bounds_case {
	BOUNDS_IO_LOAD_STRADDLE = 1,	/* io_load [8, 24) of 16: -ERANGE */
	BOUNDS_IO_LOAD_AT_END,		/* io_load [16, 17): -ERANGE */
	BOUNDS_IO_LOAD_WRAP,		/* io_load at 0xfffffffc, 8 bytes: -ERANGE */
	BOUNDS_IO_STORE_STRADDLE,	/* io_store [9, 17): -ERANGE */
	BOUNDS_IO_DATA_AT_END,		/* io_data(16, 1): NULL */
	BOUNDS_IO_DATA_WRAP,		/* io_data(0xfffffff8, 16): NULL */
	BOUNDS_IO_DATA_LAST,		/* io_data(8, 8): a pointer */
	BOUNDS_FILE_PRIV_OVER,		/* file_priv(65): NULL */
	BOUNDS_FILE_PRIV_ALL,		/* file_priv(64): a pointer */
	BOUNDS_DEV_PRIV_OVER,		/* dev_priv(257): NULL */
	BOUNDS_DEV_PRIV_ALL,		/* dev_priv(256): a pointer */
	BOUNDS_RING_BAD_HEAD,		/* ring head == capacity: -EINVAL */
	BOUNDS_RING_BAD_COUNT,		/* ring count > capacity: -EINVAL */
	BOUNDS_RING_NO_DATA,		/* ring of header size only: -EINVAL */
	BOUNDS_BAR_LEN,			/* pci_bar_len(0): length or -ENODEV */
	BOUNDS_MMIO_READ,		/* mmio_read(0, 0, 4) */
	BOUNDS_MMIO_PAST_BAR,		/* mmio_read at BAR 0's length: -ERANGE */
	BOUNDS_MMIO_BAR6,		/* mmio_read(6, 0, 4): -ENXIO */
	BOUNDS_CFG_READ,		/* pci_cfg_read(0, 2) */
	BOUNDS_CFG_PAST_END,		/* pci_cfg_read(4096, 4): -EINVAL */
	BOUNDS_CFG_WRITE_BAR,		/* pci_cfg_write(BAR0): -EPERM */
	BOUNDS_DMA_ALLOC,		/* dma_alloc(4096, 32) */
	BOUNDS_DMA_ALLOC_HUGE,		/* dma_alloc(1 MiB + 1, 32): -EINVAL */
	BOUNDS_DMA_IN,			/* io_to_dma [4080, 4096): 0 */
	BOUNDS_DMA_PAST_END,		/* io_to_dma [4088, 4104): -ERANGE */
	BOUNDS_DMA_IO_PAST_END,		/* dma_to_io io [8, 24): -ERANGE */
	BOUNDS_GPIO_GET,		/* gpio_get(0): -ENODEV without lines */
	BOUNDS_GPIO_SET_ARRAY,		/* gpio_set_array(0, 16): -ENODEV */
	BOUNDS_CFG_SET_MASTER,		/* PCI_COMMAND | MASTER: 0 behind an IOMMU */
	BOUNDS_NR
};

#endif /* __BPFDRV_BOUNDS_H */
