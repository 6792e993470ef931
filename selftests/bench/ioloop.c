// SPDX-License-Identifier: GPL-2.0
/*
 * ioloop: one device path, in a loop, for a profiler to sample (make
 * bench's profiles). Prints the number of rounds it made.
 *
 *   ioloop rw PATH SIZE SECONDS    write SIZE bytes, read them back (echo)
 *   ioloop fact PATH SECONDS       write "12", read 12! once the device's
 *                                  interrupt came (edu, factorial mode)
 *   ioloop ioctl PATH SECONDS      ECHO_IOC_INFO (echo): a 16-byte struct out
 *   ioloop job NODE SECONDS        10! as a job of edu_accel's, submitted
 *                                  and waited for on its fence
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "accel_job.h"
#include "bpfdrv_echo.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int job_loop(const char *node, double secs)
{
	struct accel_edu a;
	long rounds = 0;
	double end;

	if (accel_open(node, &a)) {
		perror(node);
		accel_close(&a);
		return 1;
	}
	end = now() + secs;
	while (now() < end) {
		if (accel_fact(&a)) {
			perror("ioloop");
			return 1;
		}
		rounds++;
	}
	accel_close(&a);
	printf("%ld\n", rounds);
	return 0;
}

int main(int argc, char **argv)
{
	static char buf[65536];
	size_t size = 3;
	double secs, end;
	long rounds = 0;
	struct echo_info info;
	bool fact, ioc;
	int fd;

	if (argc < 4 || (strcmp(argv[1], "rw") && strcmp(argv[1], "fact") &&
			 strcmp(argv[1], "ioctl") && strcmp(argv[1], "job")) ||
	    (!strcmp(argv[1], "rw") && argc != 5)) {
		fprintf(stderr, "usage: ioloop rw PATH SIZE SECONDS | fact PATH SECONDS | ioctl PATH SECONDS | job NODE SECONDS\n");
		return 2;
	}
	if (!strcmp(argv[1], "job"))
		return job_loop(argv[2], atof(argv[3]));
	fact = !strcmp(argv[1], "fact");
	ioc = !strcmp(argv[1], "ioctl");
	if (!fact && !ioc)
		size = strtoul(argv[3], NULL, 0);
	secs = atof(argv[fact || ioc ? 3 : 4]);
	if (!size || size > sizeof(buf)) {
		fprintf(stderr, "ioloop: SIZE must be 1..%zu\n", sizeof(buf));
		return 2;
	}
	fd = open(argv[2], O_RDWR);
	if (fd < 0) {
		perror(argv[2]);
		return 1;
	}
	memset(buf, 'x', size);
	if (fact)
		memcpy(buf, "12\n", 3);
	end = now() + secs;
	while (now() < end) {
		if (ioc) {
			if (ioctl(fd, ECHO_IOC_INFO, &info)) {
				perror("ioloop");
				return 1;
			}
			rounds++;
			continue;
		}
		if (write(fd, buf, size) != (ssize_t)size ||
		    read(fd, buf, fact ? 16 : size) <= 0) {
			perror("ioloop");
			return 1;
		}
		if (fact)
			memcpy(buf, "12\n", 3);
		rounds++;
	}
	printf("%ld\n", rounds);
	return 0;
}
