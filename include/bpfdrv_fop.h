/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The file operations that the module's bpfdrv:bpfdrv_fop tracepoint
 * reports in its "op" argument. Shared by the module and `bpfdrv trace`;
 * values only get appended.
 */
#ifndef __BPFDRV_FOP_H
#define __BPFDRV_FOP_H

enum bpfdrv_fop {
	BPFDRV_FOP_OPEN,
	BPFDRV_FOP_RELEASE,
	BPFDRV_FOP_READ,
	BPFDRV_FOP_WRITE,
	BPFDRV_FOP_IOCTL,
	BPFDRV_FOP_POLL,
	BPFDRV_FOP_NR
};

#endif /* __BPFDRV_FOP_H */
