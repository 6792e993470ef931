// SPDX-License-Identifier: GPL-2.0
/* A valid BPF object with no chr_ext_ops map: the loader must say so. */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC("tracepoint/syscalls/sys_enter_getpid")
int on_getpid(void *ctx)
{
	return 0;
}
