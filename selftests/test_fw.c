// SPDX-License-Identifier: GPL-2.0
/*
 * test_fw: call the fwprobe test driver's firmware kfuncs
 * (include/bpfdrv_fwprobe.h) and print what they return.
 *
 *   test_fw NODE size FW                     the file's size, or -errno
 *   test_fw NODE dma FW FW_OFF BUF OFF LEN   bpfdrv_fw_to_dma_buf's return
 *   test_fw NODE bar FW FW_OFF BAR OFF LEN   bpfdrv_fw_to_bar's return
 *   test_fw NODE dmaread OFF                 64 bytes of DMA buffer 0, hex
 *   test_fw NODE reg OFF                     BAR0's register at OFF, hex
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bpfdrv_fwprobe.h"

static unsigned long long num(const char *s)
{
	return strtoull(s, NULL, 0);
}

int main(int argc, char **argv)
{
	struct fwprobe_call c = {};
	int fd, i;

	if (argc < 4) {
		fprintf(stderr, "usage: test_fw NODE size|dma|bar|dmaread|reg ARGS\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	if (!strcmp(argv[2], "size")) {
		c.op = FWP_SIZE;
		c.fw = num(argv[3]);
	} else if ((!strcmp(argv[2], "dma") || !strcmp(argv[2], "bar")) && argc == 8) {
		c.op = argv[2][0] == 'd' ? FWP_TO_DMA : FWP_TO_BAR;
		c.fw = num(argv[3]);
		c.fw_off = num(argv[4]);
		/* BPFDRV_DMA_POS and BPFDRV_BAR_POS */
		c.pos = c.op == FWP_TO_DMA ? num(argv[5]) << 32 | (num(argv[6]) & 0xffffffff) :
			num(argv[5]) << 56 | (num(argv[6]) & ((1ULL << 56) - 1));
		c.len = num(argv[7]);
	} else if (!strcmp(argv[2], "dmaread")) {
		c.op = FWP_DMA_READ;
		c.pos = num(argv[3]);
	} else if (!strcmp(argv[2], "reg")) {
		c.op = FWP_REG_READ;
		c.pos = num(argv[3]);
	} else {
		fprintf(stderr, "test_fw: bad command\n");
		return 2;
	}
	if (ioctl(fd, FWP_IOC_CALL, &c)) {
		perror("FWP_IOC_CALL");
		return 1;
	}
	if (c.op == FWP_DMA_READ) {
		for (i = 0; i < (int)sizeof(c.data); i++)
			printf("%02x", c.data[i]);
		printf("\n");
	} else if (c.op == FWP_REG_READ && c.ret >= 0) {
		printf("0x%08llx\n", (unsigned long long)c.ret);
	} else {
		printf("%lld\n", (long long)c.ret);
	}
	return 0;
}
