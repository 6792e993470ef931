// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: init sleeps for 5 seconds (through the test-only
 * bpfdrv_test_msleep() kfunc), as a driver resetting slow hardware would.
 * Loaded with --device on one edu function while another is bound,
 * served and unbound, and another driver attaches: the slow init must not
 * hold those up. Loaded as "slowfail", the init then fails.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

extern void bpfdrv_test_msleep(__u32 ms) __ksym;

SEC("struct_ops.s/slow_init_init")
int BPF_PROG(slow_init_init, struct bpfdrv_dev *dev)
{
	bpfdrv_test_msleep(5000);
	return dev->name[4] == 'f' ? -EIO : 0;	/* slowfail<N> */
}

SEC(".struct_ops.link")
struct chr_ext_ops slow_init_ops = {
	.init = (void *)slow_init_init,
	.name = "slowinit",
	.pci_ids = { { 0x1234, 0x11e8 } },
};
