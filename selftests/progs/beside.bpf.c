// SPDX-License-Identifier: GPL-2.0
/*
 * Programs aimed at a loaded driver's (beside_target's) by test_beside:
 * extensions in place of its callback and of its subprogram, tracing
 * programs on them, a return-value modifier, and a tracing program that
 * calls a bpfdrv kfunc with the driver's own context. The test sets each
 * one's target and loads them one at a time.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

__u64 entries, exits, entries_twice;

SEC("freplace")
int replace_read(unsigned long long *ctx)
{
	return -EPERM;
}

SEC("freplace")
int replace_twice(int x)
{
	return 0;
}

SEC("fmod_ret")
int BPF_PROG(modret_read, unsigned long long *c)
{
	return -EPERM;
}

SEC("fentry")
int BPF_PROG(wake_read, unsigned long long *c)
{
	bpfdrv_dev_wake(NULL);
	return 0;
}

SEC("fentry")
int BPF_PROG(entry_read, unsigned long long *c)
{
	entries++;
	return 0;
}

SEC("fexit")
int BPF_PROG(exit_read, unsigned long long *c, int ret)
{
	exits++;
	return 0;
}

SEC("fentry")
int BPF_PROG(entry_twice, int x)
{
	entries_twice++;
	return 0;
}
