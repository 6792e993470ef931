// SPDX-License-Identifier: GPL-2.0
/* Refused at attach: sensors without a sensor_read callback. */
#include <linux/input-event-codes.h>

#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC(".struct_ops.link")
struct chr_ext_ops bad_sensor_noread = {
	.name = "bad_sensor_noread",
	.abi_version = BPFDRV_ABI_VERSION,
	.sensors = { { .type = BPFDRV_SENSOR_TEMP } },
};
