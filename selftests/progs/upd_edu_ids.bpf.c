// SPDX-License-Identifier: GPL-2.0
/*
 * A would-be update of the edu driver that serves other PCI IDs: the kernel
 * must refuse it (an update cannot change what a driver binds to).
 */
#include "bpfdrv.bpf.h"
#include "bpfdrv_edu.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/upd_edu_ids_read")
int BPF_PROG(upd_edu_ids_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	return 0;
}

SEC("struct_ops/upd_edu_ids_irq")
int BPF_PROG(upd_edu_ids_irq, struct bpfdrv_dev *dev, __u32 vector)
{
	return 0;
}

SEC(".struct_ops.link")
struct chr_ext_ops upd_edu_ids = {
	.read = (void *)upd_edu_ids_read,
	.irq = (void *)upd_edu_ids_irq,
	.name = "edu",
	.mode = 0600,
	.pci_ids = { BPFDRV_PCI_ID(EDU_VENDOR, EDU_DEVICE),
		     BPFDRV_PCI_ID(EDU_VENDOR, 0x11e9) },
};
