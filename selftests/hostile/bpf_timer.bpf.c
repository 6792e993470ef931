// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a bpf_timer, whose callback the BPF core runs in softirq
 * outside bpfdrv's calls: unpinned against update and detach, without a
 * budget, re-armed at 0 ns for as long as the map lives.
 * expect: bpf_timer is not granted, .*use bpfdrv_timer_start
 */
#include "hostile.h"

struct elem {
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct elem);
} timers SEC(".maps");

static int again(void *map, __u32 *key, struct elem *e)
{
	bpf_timer_start(&e->timer, 0, 0);
	return 0;
}

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	struct elem *e;
	__u32 key = 0;

	e = bpf_map_lookup_elem(&timers, &key);
	if (!e || bpf_timer_init(&e->timer, &timers, 1))
		return 0;
	bpf_timer_set_callback(&e->timer, again);
	bpf_timer_start(&e->timer, 0, 0);
	return 0;
}

HOSTILE_OPS(bpf_timer, .init = (void *)attack);
