// SPDX-License-Identifier: GPL-2.0
/*
 * aerprobe: a PCI test driver for the recovery from errors of the
 * function's link (ABI 13), attached with --device on a PCIe function that
 * has AER (QEMU's igb); include/bpfdrv_aerprobe.h is its interface.
 */
#include "bpfdrv.bpf.h"
#include "bpfdrv_aerprobe.h"

char _license[] SEC("license") = "GPL";

struct aerp_dev {
	struct aerprobe_votes votes;
	struct aerprobe_counts counts;
};

SEC("struct_ops/aerp_error_detected")
int BPF_PROG(aerp_error_detected, struct bpfdrv_dev *dev, __u32 state)
{
	struct aerp_dev *a = bpfdrv_dev_state(dev, struct aerp_dev);

	if (!a)
		return BPFDRV_ERS_DISCONNECT;
	a->counts.detected++;
	a->counts.last_state = state;
	a->counts.offline = 1;
	return a->votes.detected;
}

SEC("struct_ops/aerp_slot_reset")
int BPF_PROG(aerp_slot_reset, struct bpfdrv_dev *dev)
{
	struct aerp_dev *a = bpfdrv_dev_state(dev, struct aerp_dev);

	if (!a)
		return BPFDRV_ERS_DISCONNECT;
	a->counts.slot_resets++;
	return a->votes.slot;
}

SEC("struct_ops/aerp_error_resume")
void BPF_PROG(aerp_error_resume, struct bpfdrv_dev *dev)
{
	struct aerp_dev *a = bpfdrv_dev_state(dev, struct aerp_dev);

	if (!a)
		return;
	a->counts.resumes++;
	a->counts.offline = 0;
}

SEC("struct_ops/aerp_ioctl")
int BPF_PROG(aerp_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	struct aerp_dev *a = bpfdrv_dev_state(dev, struct aerp_dev);
	int err;

	if (!a)
		return -EIO;
	switch (cmd) {
	case AERP_IOC_VOTES:
		return bpfdrv_io_load(io, 0, &a->votes, sizeof(a->votes));
	case AERP_IOC_COUNTS:
		a->counts.reg = bpfdrv_readl(dev, 0, 8, &err);
		return bpfdrv_io_store(io, 0, &a->counts, sizeof(a->counts));
	case AERP_IOC_PING:
		return a->counts.offline ? -EIO : 0;
	}
	return -ENOTTY;
}

SEC(".struct_ops.link")
struct chr_ext_ops aerprobe = {
	.ioctl = (void *)aerp_ioctl,
	.error_detected = (void *)aerp_error_detected,
	.slot_reset = (void *)aerp_slot_reset,
	.error_resume = (void *)aerp_error_resume,
	.name = "aerprobe",
	.abi_version = BPFDRV_ABI_VERSION,
};
