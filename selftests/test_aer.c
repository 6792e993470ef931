// SPDX-License-Identifier: GPL-2.0
/*
 * test_aer: drive the aerprobe test driver (include/bpfdrv_aerprobe.h) and
 * inject errors with the kernel's aer_inject (/dev/aer_inject).
 *
 *   test_aer NODE votes DETECTED SLOT   what the driver will vote
 *   test_aer NODE counts                "detected N state S slot_resets N
 *                                       resumes N offline O reg 0x..."
 *   test_aer NODE ping                  "ok", or the ioctl's error
 *   test_aer inject BDF UNCOR COR       inject an error into function BDF
 *                                       (DDDD:BB:DD.F): AER status bits
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bpfdrv_aerprobe.h"

/* drivers/pci/pcie/aer_inject.c's */
struct aer_error_inj {
	__u8 bus;
	__u8 dev;
	__u8 fn;
	__u32 uncor_status;
	__u32 cor_status;
	__u32 header_log0;
	__u32 header_log1;
	__u32 header_log2;
	__u32 header_log3;
	__u32 domain;
};

static int inject(const char *bdf, const char *uncor, const char *cor)
{
	struct aer_error_inj e = {};
	unsigned int dom, bus, dev, fn;
	int fd;

	if (sscanf(bdf, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4) {
		fprintf(stderr, "test_aer: %s is not DDDD:BB:DD.F\n", bdf);
		return 2;
	}
	e.domain = dom;
	e.bus = bus;
	e.dev = dev;
	e.fn = fn;
	e.uncor_status = strtoul(uncor, NULL, 0);
	e.cor_status = strtoul(cor, NULL, 0);
	fd = open("/dev/aer_inject", O_WRONLY);
	if (fd < 0 || write(fd, &e, sizeof(e)) != sizeof(e)) {
		printf("error: %s: aer_inject\n", strerror(errno));
		return 1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct aerprobe_counts c;
	struct aerprobe_votes v;
	int fd;

	if (argc == 5 && !strcmp(argv[1], "inject"))
		return inject(argv[2], argv[3], argv[4]);
	if (argc < 3) {
		fprintf(stderr, "usage: test_aer NODE votes|counts|ping ... | inject BDF UNCOR COR\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	if (!strcmp(argv[2], "votes") && argc == 5) {
		v.detected = strtoul(argv[3], NULL, 0);
		v.slot = strtoul(argv[4], NULL, 0);
		if (ioctl(fd, AERP_IOC_VOTES, &v)) {
			perror("AERP_IOC_VOTES");
			return 1;
		}
		return 0;
	}
	if (!strcmp(argv[2], "counts")) {
		if (ioctl(fd, AERP_IOC_COUNTS, &c)) {
			perror("AERP_IOC_COUNTS");
			return 1;
		}
		printf("detected %u state %u slot_resets %u resumes %u offline %u reg 0x%08x\n",
		       c.detected, c.last_state, c.slot_resets, c.resumes,
		       c.offline, c.reg);
		return 0;
	}
	if (!strcmp(argv[2], "ping")) {
		if (ioctl(fd, AERP_IOC_PING, 0)) {
			printf("%s\n", errno == EIO ? "EIO" : strerror(errno));
			return 0;
		}
		printf("ok\n");
		return 0;
	}
	fprintf(stderr, "test_aer: bad command\n");
	return 2;
}
