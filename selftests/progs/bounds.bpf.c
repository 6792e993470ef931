// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: each ioctl (bpfdrv_bounds.h) calls one kfunc at or past one
 * of its bounds, with values only known at run time, and returns the
 * kfunc's result. Attached alone it owns no hardware; attached to a PCI
 * function (--device) the PCI and DMA cases reach real BAR and DMA bounds.
 */
#include "bpfdrv.bpf.h"
#include "bpfdrv_bounds.h"

char _license[] SEC("license") = "GPL";

struct small_ring BPFDRV_RING(64);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct small_ring);
} rings SEC(".maps");

/* Offsets from a map, so the verifier cannot know them. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} zero_map SEC(".maps");

static __always_inline __u32 runtime(__u32 v)
{
	__u32 key = 0, *z = bpf_map_lookup_elem(&zero_map, &key);

	return z ? v + *z : v;
}

static __always_inline int is_null(void *p)
{
	return p ? 0 : 1;
}

static __always_inline int ring_case(struct bpfdrv_io *io, __u32 head,
				     __u32 count, __u32 size)
{
	__u32 key = 0;
	struct small_ring *r = bpf_map_lookup_elem(&rings, &key);

	if (!r)
		return -EIO;
	r->head = head;
	r->count = count;
	if (size == sizeof(r->head) + sizeof(r->count))
		return bpfdrv_io_to_ring(io, r, 8);
	return bpfdrv_io_to_ring(io, r, sizeof(*r));
}

static __always_inline int s64_ret(__s64 v)
{
	return v < 0 ? (int)v : 0;
}

SEC("struct_ops.s/bounds_ioctl")
int BPF_PROG(bounds_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	__u8 buf[16] = {};
	__u64 v64;
	__u32 v32;
	__s64 len;

	switch (cmd) {
	case BOUNDS_CMD(BOUNDS_IO_LOAD_STRADDLE):
		return bpfdrv_io_load(io, runtime(8), buf, 16);
	case BOUNDS_CMD(BOUNDS_IO_LOAD_AT_END):
		return bpfdrv_io_load(io, runtime(16), buf, 1);
	case BOUNDS_CMD(BOUNDS_IO_LOAD_WRAP):
		return bpfdrv_io_load(io, runtime(0xfffffffc), buf, 8);
	case BOUNDS_CMD(BOUNDS_IO_STORE_STRADDLE):
		return bpfdrv_io_store(io, runtime(9), buf, 8);
	case BOUNDS_CMD(BOUNDS_IO_DATA_AT_END):
		return is_null(bpfdrv_io_data(io, runtime(16), 1));
	case BOUNDS_CMD(BOUNDS_IO_DATA_WRAP):
		return is_null(bpfdrv_io_data(io, runtime(0xfffffff8), 16));
	case BOUNDS_CMD(BOUNDS_IO_DATA_LAST):
		return is_null(bpfdrv_io_data(io, runtime(8), 8));
	case BOUNDS_CMD(BOUNDS_FILE_PRIV_OVER):
		return is_null(bpfdrv_file_priv(file, BPFDRV_FILE_PRIV_SIZE + 1));
	case BOUNDS_CMD(BOUNDS_FILE_PRIV_ALL):
		return is_null(bpfdrv_file_priv(file, BPFDRV_FILE_PRIV_SIZE));
	case BOUNDS_CMD(BOUNDS_DEV_PRIV_OVER):
		return is_null(bpfdrv_dev_priv(dev, BPFDRV_DEV_PRIV_SIZE + 1));
	case BOUNDS_CMD(BOUNDS_DEV_PRIV_ALL):
		return is_null(bpfdrv_dev_priv(dev, BPFDRV_DEV_PRIV_SIZE));
	case BOUNDS_CMD(BOUNDS_RING_BAD_HEAD):
		return ring_case(io, runtime(64), 0, 0);
	case BOUNDS_CMD(BOUNDS_RING_BAD_COUNT):
		return ring_case(io, 0, runtime(65), 0);
	case BOUNDS_CMD(BOUNDS_RING_NO_DATA):
		return ring_case(io, 0, 0, 8);
	case BOUNDS_CMD(BOUNDS_BAR_LEN):
		return s64_ret(bpfdrv_pci_bar_len(dev, 0));
	case BOUNDS_CMD(BOUNDS_MMIO_READ):
		return bpfdrv_mmio_read(dev, 0, 0, 4, &v64);
	case BOUNDS_CMD(BOUNDS_MMIO_PAST_BAR):
		len = bpfdrv_pci_bar_len(dev, 0);
		if (len < 0)
			return len;
		return bpfdrv_mmio_read(dev, 0, len, 4, &v64);
	case BOUNDS_CMD(BOUNDS_MMIO_BAR6):
		return bpfdrv_mmio_read(dev, runtime(6), 0, 4, &v64);
	case BOUNDS_CMD(BOUNDS_CFG_READ):
		return bpfdrv_pci_cfg_read(dev, 0, 2, &v32);
	case BOUNDS_CMD(BOUNDS_CFG_PAST_END):
		return bpfdrv_pci_cfg_read(dev, runtime(4096), 4, &v32);
	case BOUNDS_CMD(BOUNDS_CFG_WRITE_BAR):
		return bpfdrv_pci_cfg_write(dev, 0x10, 4, 0xffffffff);
	case BOUNDS_CMD(BOUNDS_CFG_SET_MASTER):
		len = bpfdrv_pci_cfg_read(dev, 4, 2, &v32);
		if (len)
			return len;
		return bpfdrv_pci_cfg_write(dev, 4, 2, v32 | 4);
	case BOUNDS_CMD(BOUNDS_DMA_ALLOC):
		return s64_ret(bpfdrv_dma_alloc(dev, 4096, 32));
	case BOUNDS_CMD(BOUNDS_DMA_ALLOC_HUGE):
		return s64_ret(bpfdrv_dma_alloc(dev, runtime((1 << 20) + 1), 32));
	case BOUNDS_CMD(BOUNDS_DMA_IN):
		return bpfdrv_io_to_dma(io, 0, dev, runtime(4080), 16);
	case BOUNDS_CMD(BOUNDS_DMA_PAST_END):
		return bpfdrv_io_to_dma(io, 0, dev, runtime(4088), 16);
	case BOUNDS_CMD(BOUNDS_DMA_IO_PAST_END):
		return bpfdrv_dma_to_io(dev, 0, io, runtime(8), 16);
	case BOUNDS_CMD(BOUNDS_GPIO_GET):
		return bpfdrv_gpio_get(dev, 0);
	case BOUNDS_CMD(BOUNDS_GPIO_SET_ARRAY):
		return bpfdrv_gpio_set_array(dev, 0, runtime(16), 0);
	}
	return -ENOTTY;
}

SEC(".struct_ops.link")
struct chr_ext_ops bounds_ops = {
	.ioctl = (void *)bounds_ioctl,
	.name = "bounds",
};
