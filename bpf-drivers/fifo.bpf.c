// SPDX-License-Identifier: GPL-2.0
/*
 * fifo: a bounded blocking FIFO, like a pipe that lives in a device node.
 *
 * - read takes the oldest bytes; on an empty FIFO it returns -EAGAIN, which
 *   makes the framework put a blocking reader to sleep (or return EAGAIN to
 *   an O_NONBLOCK one) until a writer calls bpfdrv_wake().
 * - write stores what fits; on a full FIFO it returns -EAGAIN the same way,
 *   until a reader makes room.
 * - poll: readable when data is stored, writable when there is room.
 * - read and write copy straight to and from the caller (BPFDRV_F_DIRECT_IO).
 *
 * Every change of fill level wakes the device's waiters; they retry their
 * callback and either make progress or sleep again.
 *
 * - ioctl FIFO_IOC_VERSION gives the version of this code. A live update
 *   keeps the data (the map is reused) and blocked readers and writers: they
 *   sleep in the framework, not in this code, and retry on the new code.
 */
#include "bpfdrv.bpf.h"
#include "bpfdrv_fifo.h"

/* Built as another version to show and test live updates: -DFIFO_VERSION=2 */
#ifndef FIFO_VERSION
#define FIFO_VERSION	1
#endif

char _license[] SEC("license") = "GPL";

struct fifo_state {
	struct BPFDRV_RING(FIFO_CAPACITY) ring;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fifo_state);
} fifo_state SEC(".maps");

static struct fifo_state *state(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&fifo_state, &zero);
}

SEC("struct_ops/fifo_read")
int BPF_PROG(fifo_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	struct fifo_state *s = state();
	int n;

	if (!s)
		return -EIO;
	if (!s->ring.count)
		return -EAGAIN;
	n = bpfdrv_ring_to_io(io, &s->ring, sizeof(s->ring));
	if (n > 0)
		bpfdrv_dev_wake(dev);	/* room for blocked writers */
	return n;
}

SEC("struct_ops/fifo_write")
int BPF_PROG(fifo_write, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	struct fifo_state *s = state();
	int n;

	if (!s)
		return -EIO;
	if (s->ring.count == FIFO_CAPACITY)
		return -EAGAIN;
	n = bpfdrv_io_to_ring(io, &s->ring, sizeof(s->ring));
	if (n > 0)
		bpfdrv_dev_wake(dev);	/* data for blocked readers */
	return n;
}

SEC("struct_ops/fifo_ioctl")
int BPF_PROG(fifo_ioctl, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, unsigned int cmd,
	     struct bpfdrv_io *io)
{
	__u32 *version;

	if (cmd != FIFO_IOC_VERSION)
		return -ENOTTY;
	version = (void *)bpfdrv_io_data(io, 0, sizeof(*version));
	if (!version)
		return -EINVAL;
	*version = FIFO_VERSION;
	return 0;
}

SEC("struct_ops/fifo_poll")
__u32 BPF_PROG(fifo_poll, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	struct fifo_state *s = state();
	__u32 mask = 0;

	if (!s)
		return BPFDRV_POLLERR;
	if (s->ring.count)
		mask |= BPFDRV_POLLIN;
	if (s->ring.count < FIFO_CAPACITY)
		mask |= BPFDRV_POLLOUT;
	return mask;
}

SEC(".struct_ops.link")
struct chr_ext_ops fifo = {
	.read = (void *)fifo_read,
	.write = (void *)fifo_write,
	.ioctl = (void *)fifo_ioctl,
	.poll = (void *)fifo_poll,
	.name = "fifo",
	.abi_version = BPFDRV_ABI_VERSION,
	.flags = BPFDRV_F_DIRECT_IO,
	.mode = 0666,
};
