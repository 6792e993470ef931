// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: bpf_rdonly_cast() turns an address into a read-only pointer to
 * a kernel type, which the verifier lets a program read (the loads become
 * BPF_PROBE_MEM). The verifier inlines the cast: bpfdrv refuses it before.
 * expect: kfunc bpf_rdonly_cast is not one bpfdrv grants
 */
#include "hostile.h"
#include <bpf/bpf_core_read.h>

extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;

struct task_struct {
	int pid;
} __attribute__((preserve_access_index));

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	struct task_struct *t;

	t = bpf_rdonly_cast((void *)0xffffffff81000000ULL,
			    bpf_core_type_id_kernel(struct task_struct));
	return t->pid;
}

HOSTILE_OPS(rdonly_cast_read, .init = (void *)attack);
