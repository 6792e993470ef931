// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a generic kfunc the BPF core offers every program type, which
 * bpfdrv does not grant (the verifier admits it; bpfdrv refuses the
 * program when its map is written).
 * expect: kfunc bpf_rcu_read_lock.* is not one bpfdrv grants
 */
#include "hostile.h"

extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	return 0;
}

HOSTILE_OPS(kfunc_rcu_lock, .init = (void *)attack);
