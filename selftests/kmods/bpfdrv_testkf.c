// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only kfuncs for bpfdrv's selftests, as bpf_testmod provides them for
 * the BPF selftests: a callback that sleeps for a while, to check that one
 * busy device never holds up another device's attach, detach or I/O.
 */
#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/delay.h>
#include <linux/minmax.h>
#include <linux/module.h>

__bpf_kfunc_start_defs();

/**
 * bpfdrv_test_msleep - sleep, as a callback waiting for slow hardware would
 * @ms: milliseconds, at most 10000; a signal ends the sleep early
 */
__bpf_kfunc void bpfdrv_test_msleep(u32 ms)
{
	msleep_interruptible(min(ms, 10000U));
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(bpfdrv_testkf_ids)
BTF_ID_FLAGS(func, bpfdrv_test_msleep, KF_SLEEPABLE)
BTF_KFUNCS_END(bpfdrv_testkf_ids)

static const struct btf_kfunc_id_set bpfdrv_testkf_set = {
	.owner = THIS_MODULE,
	.set = &bpfdrv_testkf_ids,
};

static int __init bpfdrv_testkf_init(void)
{
	return register_btf_kfunc_id_set(BPF_PROG_TYPE_STRUCT_OPS,
					 &bpfdrv_testkf_set);
}

static void __exit bpfdrv_testkf_exit(void)
{
}

module_init(bpfdrv_testkf_init);
module_exit(bpfdrv_testkf_exit);

MODULE_DESCRIPTION("bpfdrv selftests: a sleeping kfunc");
MODULE_LICENSE("GPL");
