// SPDX-License-Identifier: GPL-2.0
/*
 * gpio_button: input lines whose edges become events that readers wait for.
 *
 * - gpio_edge (the framework's interrupt thread, one call per edge) appends
 *   an event to a ring of the last BUTTON_EVENTS and wakes the device.
 * - read returns one event as a text line "seq=N line=I level=V\n": the
 *   event's number since attach, the line's index in gpio_lines and its
 *   logical level after the edge. Each open file has its own cursor and sees
 *   the events after its open; with none pending, read returns -EAGAIN, so a
 *   blocking reader sleeps until the next edge (O_NONBLOCK: EAGAIN). A reader
 *   that falls more than BUTTON_EVENTS behind skips to the oldest event kept;
 *   the gap in seq shows what it lost. A buffer shorter than the line gets
 *   -EINVAL and the event stays.
 * - poll: readable when an event is pending.
 * - the lines are also keys of an input device ("bpfdrv gpio_button",
 *   /dev/input/eventN): line 0 is KEY_ENTER, line 1 KEY_POWER, pressed
 *   while the level is 1, so evtest and any evdev reader see them.
 *
 * Line 1 is active-low, like a button that pulls its pin down: pressing it
 * (physical low) reads as level 1.
 */
#include <linux/input-event-codes.h>

#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define BUTTON_EVENTS	16	/* a power of two */
#define BUTTON_TEXT_MAX	48

struct button_event {
	__u32 seq;
	__u32 line;
	__u32 level;
};

struct button_state {
	__u32 seq;		/* events so far; event n has seq n */
	struct button_event ev[BUTTON_EVENTS];
};

struct button_reader {
	__u32 seen;		/* seq of the last event this file read */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct button_state);
} button_state SEC(".maps");

static struct button_state *state(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&button_state, &zero);
}

SEC("struct_ops/button_edge")
void BPF_PROG(button_edge, struct bpfdrv_dev *dev, __u32 line, __u32 value)
{
	struct button_state *s = state();
	struct button_event *e;

	if (!s)
		return;
	s->seq++;
	e = &s->ev[s->seq & (BUTTON_EVENTS - 1)];
	e->seq = s->seq;
	e->line = line;
	e->level = value;
	bpfdrv_dev_wake(dev);

	/* the framework refuses undeclared codes; lines are 0 and 1 */
	if (!bpfdrv_input_key(dev, line ? KEY_POWER : KEY_ENTER, value))
		bpfdrv_input_sync(dev);
}

SEC("struct_ops/button_open")
int BPF_PROG(button_open, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	struct button_reader *r = bpfdrv_file_state(file, struct button_reader);
	struct button_state *s = state();

	if (!r || !s)
		return -EIO;
	r->seen = s->seq;
	return 0;
}

SEC("struct_ops/button_read")
int BPF_PROG(button_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	struct button_reader *r = bpfdrv_file_state(file, struct button_reader);
	struct button_state *s = state();
	char text[BUTTON_TEXT_MAX];
	struct button_event *e;
	long n;

	if (!r || !s)
		return -EIO;
	if (r->seen == s->seq)
		return -EAGAIN;
	if (s->seq - r->seen > BUTTON_EVENTS)
		r->seen = s->seq - BUTTON_EVENTS;
	e = &s->ev[(r->seen + 1) & (BUTTON_EVENTS - 1)];

	n = BPF_SNPRINTF(text, sizeof(text), "seq=%u line=%u level=%u\n",
			 e->seq, e->line, e->level);
	if (n < 2 || n > sizeof(text))
		return -EIO;
	n--;			/* the NUL */
	if (n > io->len)
		return -EINVAL;
	if (bpfdrv_io_store(io, 0, text, n))
		return -EIO;
	r->seen++;
	return n;
}

SEC("struct_ops/button_poll")
__u32 BPF_PROG(button_poll, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	struct button_reader *r = bpfdrv_file_state(file, struct button_reader);
	struct button_state *s = state();

	if (!r || !s)
		return BPFDRV_POLLERR;
	return r->seen != s->seq ? BPFDRV_POLLIN : 0;
}

SEC(".struct_ops.link")
struct chr_ext_ops gpio_button = {
	.open = (void *)button_open,
	.read = (void *)button_read,
	.poll = (void *)button_poll,
	.gpio_edge = (void *)button_edge,
	.name = "gpio_button",
	.abi_version = BPFDRV_ABI_VERSION,
	/* the selftests' loopback chip; lines 12 and 13 drive these */
	.gpio_chip = "bpfdrv-loopback",
	.gpio_lines = {
		{ .offset = 4, .flags = BPFDRV_GPIO_IN | BPFDRV_GPIO_EDGE_RISING |
					BPFDRV_GPIO_EDGE_FALLING },
		{ .offset = 5, .flags = BPFDRV_GPIO_IN | BPFDRV_GPIO_ACTIVE_LOW |
					BPFDRV_GPIO_EDGE_RISING |
					BPFDRV_GPIO_EDGE_FALLING },
	},
	.input_keys = { KEY_ENTER, KEY_POWER },
};
