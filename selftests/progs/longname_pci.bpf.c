// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: a PCI driver (edu's IDs) whose 29-character name leaves no
 * room for the instance number; attaching it must fail, not truncate.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC(".struct_ops.link")
struct chr_ext_ops longname_ops = {
	.name = "a_pci_driver_name_of_29_chars",
	.pci_ids = { BPFDRV_PCI_ID(0x1234, 0x11e8) },
};
