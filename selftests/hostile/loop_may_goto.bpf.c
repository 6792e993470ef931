// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: loops the verifier bounds with may_goto (can_loop), which
 * allows millions of rounds per loop, in a subprogram called from a loop.
 * expect: is may_goto
 */
#include "hostile.h"

/* may_goto to l_break: BPF_JMP | BPF_JCOND, as bpf_experimental.h's can_loop */
#define can_loop							\
	({ __label__ l_break, l_continue;				\
	bool ret = true;						\
	asm volatile goto("1:.byte 0xe5;				\
		      .byte 0;						\
		      .long ((%l[l_break] - 1b - 8) / 8) & 0xffff;	\
		      .short 0"						\
		      :::: l_break);					\
	goto l_continue;						\
	l_break: ret = false;						\
	l_continue:;							\
	ret;								\
	})

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	volatile __u64 n = 0;
	__u64 i;

	for (i = 0; i < (1ULL << 40) && can_loop; i++)
		n++;
	return n;
}

HOSTILE_OPS(loop_may_goto, .read = (void *)attack);
