// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: a trace_printk format user space may rewrite. The format
 * sits in .data, which libbpf maps writable into the loader; test_fmt_race
 * flips its conversion between %d and %s while reads print @value, a
 * kernel address, through trace_printk (mode 0) or trace_vprintk (mode 1).
 * A read returns 0 once printed, or the helper's error.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

/* all three in .data (initialised, not zero), where the test finds them */
char fmt[16] = "fmt_race %d\n";
__u64 value = 1;
__u32 mode = 1;

SEC("struct_ops/fmt_race_read")
int BPF_PROG(fmt_race_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u64 args[4] = { value, 0, 0, 0 };
	long ret;

	if (mode)
		ret = bpf_trace_vprintk(fmt, sizeof(fmt), args, sizeof(args));
	else
		ret = bpf_trace_printk(fmt, sizeof(fmt), value);
	return ret < 0 ? ret : 0;
}

SEC(".struct_ops.link")
struct chr_ext_ops fmt_race = {
	.read = (void *)fmt_race_read,
	.name = "fmt_race",
	.mode = 0600,
};
