// SPDX-License-Identifier: GPL-2.0
/*
 * Run-time containment: drive the bounds test driver (bounds.bpf.c) and
 * check that every kfunc called at or past a bound fails with its
 * documented errno, touching nothing.
 *
 *   test_bounds DEV nohw   an instance that owns no hardware
 *   test_bounds DEV pci    an instance on an edu function (BAR 0 1 MiB)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/types.h>
#include "bpfdrv_bounds.h"
#include "tap.h"

struct bounds_case {
	int nr;
	int nohw;	/* expected result without hardware: 0, 1 or -errno */
	int pci;	/* on an edu function */
	const char *what;
};

static const struct bounds_case cases[] = {
	{ BOUNDS_IO_LOAD_STRADDLE, -ERANGE, -ERANGE, "io_load straddling the end of the I/O window" },
	{ BOUNDS_IO_LOAD_AT_END, -ERANGE, -ERANGE, "io_load at the end of the I/O window" },
	{ BOUNDS_IO_LOAD_WRAP, -ERANGE, -ERANGE, "io_load whose offset wraps around 32 bits" },
	{ BOUNDS_IO_STORE_STRADDLE, -ERANGE, -ERANGE, "io_store straddling the end of the I/O window" },
	{ BOUNDS_IO_DATA_AT_END, 1, 1, "io_data at the end of the I/O window is NULL" },
	{ BOUNDS_IO_DATA_WRAP, 1, 1, "io_data whose offset wraps around is NULL" },
	{ BOUNDS_IO_DATA_LAST, 0, 0, "io_data of the last 8 bytes is granted" },
	{ BOUNDS_FILE_PRIV_OVER, 1, 1, "file_priv of 65 bytes (storage is 64) is NULL" },
	{ BOUNDS_FILE_PRIV_ALL, 0, 0, "file_priv of all 64 bytes is granted" },
	{ BOUNDS_DEV_PRIV_OVER, 1, 1, "dev_priv of 257 bytes (storage is 256) is NULL" },
	{ BOUNDS_DEV_PRIV_ALL, 0, 0, "dev_priv of all 256 bytes is granted" },
	{ BOUNDS_RING_BAD_HEAD, -EINVAL, -EINVAL, "a ring whose head is at its capacity" },
	{ BOUNDS_RING_BAD_COUNT, -EINVAL, -EINVAL, "a ring whose count exceeds its capacity" },
	{ BOUNDS_RING_NO_DATA, -EINVAL, -EINVAL, "a ring with no room for data" },
	{ BOUNDS_BAR_LEN, -ENODEV, 0, "pci_bar_len" },
	{ BOUNDS_MMIO_READ, -ENODEV, 0, "mmio_read of BAR 0" },
	{ BOUNDS_MMIO_PAST_BAR, -ENODEV, -ERANGE, "mmio_read at BAR 0's length" },
	{ BOUNDS_MMIO_BAR6, -ENODEV, -ENXIO, "mmio_read of BAR 6" },
	{ BOUNDS_CFG_READ, -ENODEV, 0, "pci_cfg_read of the vendor ID" },
	{ BOUNDS_CFG_PAST_END, -ENODEV, -EINVAL, "pci_cfg_read past config space" },
	{ BOUNDS_CFG_WRITE_BAR, -ENODEV, -EPERM, "pci_cfg_write to BAR 0" },
	{ BOUNDS_CFG_SET_MASTER, -ENODEV, 0, "pci_cfg_write of PCI_COMMAND's bus-master bit, behind the IOMMU" },
	{ BOUNDS_DMA_IN, -ENODEV, -ENOMEM, "io_to_dma before any DMA buffer" },
	{ BOUNDS_DMA_ALLOC_HUGE, -ENODEV, -EINVAL, "dma_alloc of 1 MiB + 1" },
	{ BOUNDS_DMA_ALLOC, -ENODEV, 0, "dma_alloc of 4096 bytes" },
	{ BOUNDS_DMA_ALLOC, -ENODEV, -EEXIST, "a second dma_alloc" },
	{ BOUNDS_DMA_IN, -ENODEV, 0, "io_to_dma of the DMA buffer's last 16 bytes" },
	{ BOUNDS_DMA_PAST_END, -ENODEV, -ERANGE, "io_to_dma straddling the DMA buffer's end" },
	{ BOUNDS_DMA_IO_PAST_END, -ENODEV, -ERANGE, "dma_to_io straddling the I/O window's end" },
	{ BOUNDS_GPIO_GET, -ENODEV, -ENODEV, "gpio_get without GPIO lines" },
	{ BOUNDS_GPIO_SET_ARRAY, -ENODEV, -ENODEV, "gpio_set_array without GPIO lines" },
};

static const char *result_name(int r, char *buf, size_t size)
{
	const char *name = r < 0 ? strerrorname_np(-r) : NULL;

	if (name)
		snprintf(buf, size, "-%s", name);
	else
		snprintf(buf, size, "%d", r);
	return buf;
}

int main(int argc, char **argv)
{
	struct bpfdrv_bounds_arg arg;
	bool pci;
	size_t i;
	int fd;

	if (argc != 3 || (strcmp(argv[2], "nohw") && strcmp(argv[2], "pci"))) {
		fprintf(stderr, "usage: test_bounds DEV nohw|pci\n");
		return 2;
	}
	pci = !strcmp(argv[2], "pci");
	tap_diag("bounds: an instance %s", pci ? "on an edu function" : "without hardware");
	fd = open(argv[1], O_RDWR);
	if (!tap_check(fd >= 0, "open %s", argv[1]))
		return 1;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bounds_case *c = &cases[i];
		int want = pci ? c->pci : c->nohw, got;
		char w[32], g[32];

		memset(&arg, 0xa5, sizeof(arg));
		got = ioctl(fd, BOUNDS_CMD(c->nr), &arg);
		if (got < 0)
			got = -errno;
		tap_check(got == want, "%s: %s (want %s)", c->what,
		   result_name(got, g, sizeof(g)), result_name(want, w, sizeof(w)));
	}
	close(fd);
	return tap_failures ? 1 : 0;
}
