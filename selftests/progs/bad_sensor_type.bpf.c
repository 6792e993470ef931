// SPDX-License-Identifier: GPL-2.0
/* Refused at attach: a sensor of an unknown type. */
#include <linux/input-event-codes.h>

#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC(".struct_ops.link")
struct chr_ext_ops bad_sensor_type = {
	.name = "bad_sensor_type",
	.abi_version = BPFDRV_ABI_VERSION,
	.sensors = { { .type = 99 } },
};
