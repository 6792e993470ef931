// SPDX-License-Identifier: GPL-2.0
/*
 * fwprobe: a PCI test driver (attach with --device on an edu function) that
 * declares one firmware file, probe.fw, and calls the firmware kfuncs with
 * the arguments an ioctl gives (include/bpfdrv_fwprobe.h). Built with
 * FWP_NO_PCI, it is a driver without a device (fwprobe_nopci): its copies
 * have no function to reach.
 */
#include "bpfdrv.bpf.h"
#include "bpfdrv_fwprobe.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops.s/fwp_init")
int BPF_PROG(fwp_init, struct bpfdrv_dev *dev)
{
#ifdef FWP_NO_PCI
	return 0;
#else
	__s64 addr = bpfdrv_dma_alloc(dev, FWP_DMA_SIZE, 32);

	return addr < 0 ? addr : 0;
#endif
}

SEC("struct_ops.s/fwp_ioctl")
int BPF_PROG(fwp_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	struct fwprobe_call c;
	int err = 0;

	if (cmd != FWP_IOC_CALL || bpfdrv_io_load(io, 0, &c, sizeof(c)))
		return -EINVAL;
	switch (c.op) {
	case FWP_SIZE:
		c.ret = bpfdrv_fw_size(dev, c.fw);
		break;
	case FWP_TO_DMA:
		c.ret = bpfdrv_fw_to_dma_buf(dev, c.fw, c.fw_off, c.pos, c.len);
		break;
	case FWP_TO_BAR:
		c.ret = bpfdrv_fw_to_bar(dev, c.fw, c.fw_off, c.pos, c.len);
		break;
	case FWP_DMA_READ:
		if (c.pos > FWP_DMA_SIZE - sizeof(c.data))
			return -EINVAL;
		c.ret = bpfdrv_dma_to_io(dev, c.pos, io,
					 __builtin_offsetof(struct fwprobe_call, data),
					 sizeof(c.data));
		if (bpfdrv_io_store(io, __builtin_offsetof(struct fwprobe_call, ret),
				    &c.ret, sizeof(c.ret)))
			return -EINVAL;
		return 0;
	case FWP_REG_READ:
		c.ret = bpfdrv_readl(dev, 0, c.pos, &err);
		if (err)
			c.ret = err;
		break;
	default:
		return -EINVAL;
	}
	return bpfdrv_io_store(io, 0, &c, sizeof(c));
}

SEC(".struct_ops.link")
struct chr_ext_ops fwprobe = {
	.init = (void *)fwp_init,
	.ioctl = (void *)fwp_ioctl,
#ifdef FWP_NO_PCI
	.name = "fwprobe_nopci",
#else
	.name = "fwprobe",
#endif
	.abi_version = BPFDRV_ABI_VERSION,
	.firmware = { "probe.fw" },
};
