// SPDX-License-Identifier: GPL-2.0
/*
 * A workload on a bpfdrv echo device whose every file operation is
 * counted, for the trace/stats tests.
 *
 *   test_trace_chrdev NAME N TALLY
 *
 * Opens /dev/bpfdrv/NAME N times; on each open file writes once, reads
 * once, issues ECHO_IOC_INFO once and polls once (timeout 0, so the driver's
 * poll runs exactly once), then closes it. Writes to TALLY, as one JSON
 * object, how many of each operation it performed: what `bpfdrv stats` and
 * `bpfdrv trace` must report for NAME.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bpfdrv_echo.h"

int main(int argc, char **argv)
{
	int opens = 0, releases = 0, reads = 0, writes = 0, ioctls = 0, polls = 0;
	char path[128], buf[16];
	int i, n, bad = 0;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: %s NAME N TALLY\n", argv[0]);
		return 2;
	}
	snprintf(path, sizeof(path), "/dev/bpfdrv/%s", argv[1]);
	n = atoi(argv[2]);
	for (i = 0; i < n; i++) {
		struct pollfd pfd = { .events = POLLIN };
		struct echo_info info;
		int fd = open(path, O_RDWR | O_NONBLOCK);

		if (fd < 0) {
			fprintf(stderr, "open %s: %s\n", path, strerror(errno));
			bad = 1;
			break;
		}
		opens++;
		if (write(fd, "ping", 4) == 4)
			writes++;
		else
			bad = 1;
		if (read(fd, buf, sizeof(buf)) == 4)
			reads++;
		else
			bad = 1;
		if (!ioctl(fd, ECHO_IOC_INFO, &info))
			ioctls++;
		else
			bad = 1;
		pfd.fd = fd;
		if (poll(&pfd, 1, 0) >= 0)
			polls++;
		else
			bad = 1;
		if (!close(fd))
			releases++;
	}
	f = fopen(argv[3], "w");
	if (!f)
		return 1;
	fprintf(f, "{\"open\":%d,\"release\":%d,\"read\":%d,\"write\":%d,"
		"\"ioctl\":%d,\"poll\":%d}\n", opens, releases, reads, writes,
		ioctls, polls);
	fclose(f);
	return bad;
}
