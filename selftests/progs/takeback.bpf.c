// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for the rollback of a refused live update (45-update.sh), on
 * every edu function. As loaded, its takeover counts the takeovers of each
 * instance, which a read returns (a 32-bit integer). Built with
 * -DTAKEBACK_FAIL_SECOND as the new code: its takeover succeeds on the
 * first instance it is given and fails on the next, so the update is
 * refused and the running code must take the first instance back.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define TAKEBACK_INSTANCES	8

#ifdef TAKEBACK_FAIL_SECOND
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} new_takeovers SEC(".maps");

SEC("struct_ops.s/takeback_takeover")
int BPF_PROG(takeback_takeover, struct bpfdrv_dev *dev)
{
	__u32 zero = 0, *calls = bpf_map_lookup_elem(&new_takeovers, &zero);

	if (!calls)
		return -EIO;
	return (*calls)++ ? -EPROTO : 0;
}
#else
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TAKEBACK_INSTANCES);
	__type(key, __u32);
	__type(value, __u32);
} takeovers SEC(".maps");

SEC("struct_ops.s/takeback_takeover")
int BPF_PROG(takeback_takeover, struct bpfdrv_dev *dev)
{
	__u32 idx = dev->index, *n = bpf_map_lookup_elem(&takeovers, &idx);

	if (n)
		(*n)++;
	return 0;
}
#endif

SEC("struct_ops/takeback_read")
int BPF_PROG(takeback_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
#ifdef TAKEBACK_FAIL_SECOND
	__u32 n = 0;
#else
	__u32 idx = dev->index, *count = bpf_map_lookup_elem(&takeovers, &idx);
	__u32 n = count ? *count : 0;
#endif

	if (io->len < sizeof(n))
		return -EINVAL;
	return bpfdrv_io_store(io, 0, &n, sizeof(n)) ?: sizeof(n);
}

SEC(".struct_ops.link")
struct chr_ext_ops takeback = {
	.read = (void *)takeback_read,
	.takeover = (void *)takeback_takeover,
	.name = "takeback",
	.abi_version = BPFDRV_ABI_VERSION,
	.pci_ids = { { 0x1234, 0x11e8 } },
};
