/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/* The fifo driver's constants, shared with user space. */
#ifndef __BPFDRV_FIFO_H
#define __BPFDRV_FIFO_H

/* Bytes a fifo device holds before writers block. */
#define FIFO_CAPACITY	4096

#endif /* __BPFDRV_FIFO_H */
