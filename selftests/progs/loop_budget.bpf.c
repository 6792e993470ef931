// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: LOOP_DEPTH nested bpfdrv_for() loops of 2^30 rounds each, in
 * a read (cannot sleep: its loops end at loop_max_ms and the driver is
 * ejected) and in a sleepable ioctl (its rounds yield; they end when the
 * caller is killed or the driver detached). Built for depths 8 down to 2
 * (loop_depth_N.bpf.o), as the verifier of each kernel admits another.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#ifndef LOOP_DEPTH
#define LOOP_DEPTH	8
#endif
#define ROUNDS	(1 << 30)
#define L1(dev, body)	bpfdrv_for(a, dev, 0, ROUNDS) body
#define L2(dev, body)	bpfdrv_for(b, dev, 0, ROUNDS) L1(dev, body)
#define L3(dev, body)	bpfdrv_for(c, dev, 0, ROUNDS) L2(dev, body)
#define L4(dev, body)	bpfdrv_for(d, dev, 0, ROUNDS) L3(dev, body)
#define L5(dev, body)	bpfdrv_for(e, dev, 0, ROUNDS) L4(dev, body)
#define L6(dev, body)	bpfdrv_for(f, dev, 0, ROUNDS) L5(dev, body)
#define L7(dev, body)	bpfdrv_for(g, dev, 0, ROUNDS) L6(dev, body)
#define L8(dev, body)	bpfdrv_for(h, dev, 0, ROUNDS) L7(dev, body)
#define NEST_(n, dev, body)	L##n(dev, body)
#define NEST__(n, dev, body)	NEST_(n, dev, body)
#define NEST(dev, body)		NEST__(LOOP_DEPTH, dev, body)

/*
 * Rounds run, counted in a global: a counter on the stack would be a
 * precise scalar the verifier must follow round by round, and no loop of
 * two levels would converge.
 */
__u64 rounds;

SEC("struct_ops/loop_budget_read")
int BPF_PROG(loop_budget_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__attribute__((unused)) int a, b, c, d, e, f, g, h;
	__u64 out[2], start = bpf_ktime_get_ns();

	rounds = 0;
	NEST(dev, __sync_fetch_and_add(&rounds, 1);)
	/* how far it got, and the call's time in ns, for the test */
	out[0] = rounds;
	out[1] = bpf_ktime_get_ns() - start;
	return bpfdrv_io_store(io, 0, out, sizeof(out)) ?: sizeof(out);
}

SEC("struct_ops.s/loop_budget_ioctl")
int BPF_PROG(loop_budget_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	__attribute__((unused)) int a, b, c, d, e, f, g, h;

	NEST(dev, __sync_fetch_and_add(&rounds, 1);)
	return 0;
}

#ifdef LOOP_LED
/* loop_led.bpf.o: with an LED, whose removal calls led_set at teardown */
__u32 brightness;

SEC("struct_ops/loop_led_set")
int BPF_PROG(loop_led_set, struct bpfdrv_dev *dev, __u32 led, __u32 value)
{
	brightness = value;
	return 0;
}
#endif

SEC(".struct_ops.link")
struct chr_ext_ops loop_budget_ops = {
	.read = (void *)loop_budget_read,
	.ioctl = (void *)loop_budget_ioctl,
#ifdef LOOP_LED
	.led_set = (void *)loop_led_set,
	.leds = { { .name = "loop" } },
	.name = "loop_led",
#else
	.name = "loop_budget",
#endif
	.mode = 0666,
	.abi_version = BPFDRV_ABI_VERSION,
};
