// SPDX-License-Identifier: GPL-2.0
/*
 * Would-be live updates that change what a driver is: the kernel must refuse
 * each, and the running driver go on (45-update.sh). Built once per change
 * (build/selftests/update/id_*.bpf.o):
 *
 *	-DCHANGE_MODE	echo with node mode 0600 instead of 0666
 *	-DCHANGE_FLAGS	echo, seekable
 *	-DCHANGE_IDS	edu, serving one more PCI ID
 *	-DDROP_IRQ	edu without its interrupt callback (irq_hard)
 *
 * Without any, it is an echo look-alike that changes nothing. Each keeps
 * the flags of the driver it stands for (both use direct I/O), so the one
 * change is the only one.
 */
#include "bpfdrv.bpf.h"
#include "bpfdrv_edu.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/upd_identity_read")
int BPF_PROG(upd_identity_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	return 0;
}

#ifdef CHANGE_IDS
SEC("struct_ops/upd_identity_irq")
int BPF_PROG(upd_identity_irq, struct bpfdrv_dev *dev, __u32 vector)
{
	return 0;
}
#endif

SEC(".struct_ops.link")
struct chr_ext_ops upd_identity = {
	.read = (void *)upd_identity_read,
#if defined(CHANGE_IDS) || defined(DROP_IRQ)
	.name = "edu",
	.mode = 0600,
	.flags = BPFDRV_F_DIRECT_IO,
#ifdef CHANGE_IDS
	.irq = (void *)upd_identity_irq,
	.pci_ids = { BPFDRV_PCI_ID(EDU_VENDOR, EDU_DEVICE),
		     BPFDRV_PCI_ID(EDU_VENDOR, 0x11e9) },
#else
	.pci_ids = { BPFDRV_PCI_ID(EDU_VENDOR, EDU_DEVICE) },
#endif
#else
	.name = "echo",
#ifdef CHANGE_MODE
	.mode = 0600,
#else
	.mode = 0666,
#endif
#ifdef CHANGE_FLAGS
	.flags = BPFDRV_F_DIRECT_IO | BPFDRV_F_SEEKABLE,
#else
	.flags = BPFDRV_F_DIRECT_IO,
#endif
#endif
};
