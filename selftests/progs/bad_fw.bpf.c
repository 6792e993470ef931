// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware declarations bpfdrv refuses, one per build: the Makefile builds
 * bad_fw_<case>.bpf.o with -DBAD_<case>, and selftests/guest/26-reset.sh
 * names the reason for each. missing and big are refused when the
 * instance starts (attach with --device), the others at load.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#if defined(BAD_dotdot)
#define FIRMWARE	{ ".." }
#elif defined(BAD_slash)
#define FIRMWARE	{ "a/b.fw" }
#elif defined(BAD_hidden)
#define FIRMWARE	{ ".x.fw" }
#elif defined(BAD_gap)
#define FIRMWARE	{ "", "x.fw" }
#elif defined(BAD_long)
/* 32 characters fill the name: no NUL ends it */
#define FIRMWARE	{ "abcdefghijklmnopqrstuvwxyz012345" }
#elif defined(BAD_space)
#define FIRMWARE	{ "a b.fw" }
#else	/* missing, big, sleep: a name that is right */
#define FIRMWARE	{ "badfw.fw" }
#endif

#ifdef BAD_sleep
/* the copy may take long: sleepable callbacks only */
SEC("struct_ops/badfw_ioctl")
int BPF_PROG(badfw_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	return bpfdrv_fw_to_dma_buf(dev, 0, 0, 0, 16);
}
#endif

SEC(".struct_ops.link")
struct chr_ext_ops badfw = {
#ifdef BAD_sleep
	.ioctl = (void *)badfw_ioctl,
#endif
	.name = "badfw",
	.abi_version = BPFDRV_ABI_VERSION,
	.firmware = FIRMWARE,
};
