// SPDX-License-Identifier: GPL-2.0
/*
 * echo: a loopback device. What is written is read back, in order, from one
 * buffer per device (ECHO_CAPACITY bytes, shared by all its open files).
 *
 * - write appends what fits; a full buffer gives ENOSPC.
 * - read takes the oldest bytes; an empty buffer reads as end of file.
 * - ioctl ECHO_IOC_INFO reports fill level and totals, ECHO_IOC_CLEAR
 *   empties the buffer, ECHO_IOC_VERSION gives the version of this code.
 * - poll: readable when data is stored, writable when there is room.
 * - read and write are direct (BPFDRV_F_DIRECT_IO): the ring kfuncs copy
 *   between the caller's memory and the ring, with no kernel buffer between.
 *
 * Live update (bpfdrv update echo echo.bpf.o): the buffer is in a map, which
 * the new code gets if it declares the same one, so no byte is lost. The
 * state records the layout it was written in; takeover refuses state it
 * cannot read, and the old code goes on.
 *
 * The buffer lives in a one-element array map, so each loaded copy of this
 * object (bpfdrv load --name) has its own. The framework runs a device's
 * callbacks one at a time, so no locking is needed here.
 */
#include "bpfdrv.bpf.h"
#include "bpfdrv_echo.h"

/* Built as another version to show and test live updates: -DECHO_VERSION=2 */
#ifndef ECHO_VERSION
#define ECHO_VERSION		1
#endif
/* make bench builds a copy with -DECHO_BUFFERED: I/O through a kernel buffer */
#ifdef ECHO_BUFFERED
#define ECHO_FLAGS		0
#else
#define ECHO_FLAGS		BPFDRV_F_DIRECT_IO
#endif
/* The layout of struct echo_state; a change needs a new number. */
#ifndef ECHO_STATE_LAYOUT
#define ECHO_STATE_LAYOUT	1
#endif

char _license[] SEC("license") = "GPL";

struct echo_state {
	struct BPFDRV_RING(ECHO_CAPACITY) ring;
	__u64 total_written;
	__u32 layout;		/* ECHO_STATE_LAYOUT of the code that wrote it */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct echo_state);
} echo_state SEC(".maps");

static struct echo_state *state(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&echo_state, &zero);
}

/* Fresh state gets our layout; state in another layout is refused. */
static int adopt_state(struct echo_state *s)
{
	if (s->layout && s->layout != ECHO_STATE_LAYOUT)
		return -EPROTO;
	s->layout = ECHO_STATE_LAYOUT;
	return 0;
}

SEC("struct_ops.s/echo_init")
int BPF_PROG(echo_init, struct bpfdrv_dev *dev)
{
	struct echo_state *s = state();

	return s ? adopt_state(s) : -EIO;
}

/* A live update: the new code serves from here on if this returns 0. */
SEC("struct_ops.s/echo_takeover")
int BPF_PROG(echo_takeover, struct bpfdrv_dev *dev)
{
	struct echo_state *s = state();
#ifdef ECHO_TAKEOVER_LOOP
	int i, j;

	/* a test version whose takeover does not end (45-update.sh) */
	bpfdrv_for(i, dev, 0, 1 << 30)
		bpfdrv_for(j, dev, 0, 1 << 30)
			;
#endif

	return s ? adopt_state(s) : -EIO;
}

SEC("struct_ops/echo_read")
int BPF_PROG(echo_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	struct echo_state *s = state();

	if (!s)
		return -EIO;
	return bpfdrv_ring_to_io(io, &s->ring, sizeof(s->ring));
}

SEC("struct_ops/echo_write")
int BPF_PROG(echo_write, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	struct echo_state *s = state();
	int n;

	if (!s)
		return -EIO;
	n = bpfdrv_io_to_ring(io, &s->ring, sizeof(s->ring));
	if (n == 0)
		return -ENOSPC;
	if (n > 0)
		s->total_written += n;
	return n;
}

SEC("struct_ops/echo_ioctl")
int BPF_PROG(echo_ioctl, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, unsigned int cmd,
	     struct bpfdrv_io *io)
{
	struct echo_state *s = state();
	struct echo_info *info;
	__u32 *version;

	if (!s)
		return -EIO;
	switch (cmd) {
	case ECHO_IOC_INFO:
		info = (void *)bpfdrv_io_data(io, 0, sizeof(*info));
		if (!info)
			return -EINVAL;
		info->stored = s->ring.count;
		info->capacity = ECHO_CAPACITY;
		info->total_written = s->total_written;
		return 0;
	case ECHO_IOC_CLEAR:
		s->ring.head = 0;
		s->ring.count = 0;
		return 0;
	case ECHO_IOC_VERSION:
		version = (void *)bpfdrv_io_data(io, 0, sizeof(*version));
		if (!version)
			return -EINVAL;
		*version = ECHO_VERSION;
		return 0;
	}
	return -ENOTTY;
}

SEC("struct_ops/echo_poll")
__u32 BPF_PROG(echo_poll, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	struct echo_state *s = state();
	__u32 mask = 0;

	if (!s)
		return BPFDRV_POLLERR;
	if (s->ring.count)
		mask |= BPFDRV_POLLIN;
	if (s->ring.count < ECHO_CAPACITY)
		mask |= BPFDRV_POLLOUT;
	return mask;
}

SEC(".struct_ops.link")
struct chr_ext_ops echo = {
	.init = (void *)echo_init,
	.takeover = (void *)echo_takeover,
	.read = (void *)echo_read,
	.write = (void *)echo_write,
	.ioctl = (void *)echo_ioctl,
	.poll = (void *)echo_poll,
	.name = "echo",
	.abi_version = BPFDRV_ABI_VERSION,
	.flags = ECHO_FLAGS,
	.mode = 0666,
};
