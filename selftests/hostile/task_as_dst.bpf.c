// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a kernel object from a generic kfunc (init's task_struct, from
 * bpf_task_from_pid()) as the destination of bpfdrv_io_load(), to write
 * caller data into it.
 * expect: kfunc bpf_task_from_pid is not one bpfdrv grants
 */
#include "hostile.h"

struct task_struct {
	int pid;
} __attribute__((preserve_access_index));

extern struct task_struct *bpf_task_from_pid(__s32 pid) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	struct task_struct *t = bpf_task_from_pid(1);
	int ret;

	if (!t)
		return -ESRCH;
	ret = bpfdrv_io_load(io, 0, (void *)t, 8);
	bpf_task_release(t);
	return ret;
}

HOSTILE_OPS(task_as_dst, .write = (void *)attack);
