// SPDX-License-Identifier: GPL-2.0
/*
 * A DRM workload whose every operation is counted, for the trace tests.
 *
 *   test_trace_drm find DRIVER       print the /dev/dri/card* of DRIVER
 *   test_trace_drm run VGEM_CARD GPU_CARD N TALLY
 *
 * "run" issues N rounds of: DRM_IOCTL_VERSION and DRM_IOCTL_GET_CAP on the
 * GPU card, and on the vgem card one VGEM_FENCE_ATTACH (creates a dma_fence)
 * and one VGEM_FENCE_SIGNAL (signals it), around one dumb buffer. It then
 * writes to TALLY, as one JSON object, how many of each ioctl succeeded and
 * how many fences it created and signaled: what `bpfdrv trace` must report.
 * Diagnostics go to stderr; the exit status is 0 only if every call worked.
 *
 *   test_trace_drm threads GPU_CARD THREADS CALLS TALLY
 *
 * THREADS threads, all in flight at once, each make CALLS blocking
 * DRM_IOCTL_SYNCOBJ_WAITs that sleep 2 ms (a syncobj with no fence,
 * waited for with WAIT_FOR_SUBMIT until a timeout): what a tracer that
 * runs out of probe instances loses.
 *
 *   test_trace_drm rare VGEM_CARD GPU_CARD TALLY
 *
 * Each of the rarer core ioctls (authentication, cursor, leases, GETFB2,
 * syncobj timelines and eventfd), two of the driver's own, and two numbers
 * the kernel has no ioctl for, once each; most fail, which is fine: TALLY
 * names each by its uapi macro, for the names the tracer must show.
 *
 *   test_trace_drm pending VGEM_CARD SECONDS
 *
 * Attach a vgem fence and never signal it: vgem signals it from a timer
 * (softirq) 10 s later, while this process sleeps SECONDS.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <drm/drm.h>
#include <drm/drm_mode.h>
#include <drm/vgem_drm.h>
#include <drm/virtgpu_drm.h>

static int driver_is(int fd, const char *want)
{
	char name[64] = "";
	struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };

	return !ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, want);
}

static int find(const char *driver)
{
	struct dirent *de;
	DIR *d = opendir("/dev/dri");
	char path[300];
	int fd;

	if (!d)
		return 1;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "card", 4))
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%s", de->d_name);
		fd = open(path, O_RDWR);
		if (fd < 0)
			continue;
		if (driver_is(fd, driver)) {
			printf("%s\n", path);
			close(fd);
			closedir(d);
			return 0;
		}
		close(fd);
	}
	closedir(d);
	return 1;
}

struct tally {
	int version, get_cap, create_dumb, fence_attach, fence_signal, gem_close;
};

static int xioctl(int fd, unsigned long cmd, void *arg, const char *what, int *count)
{
	if (ioctl(fd, cmd, arg)) {
		fprintf(stderr, "%s: %s\n", what, strerror(errno));
		return -1;
	}
	(*count)++;
	return 0;
}

static int run(const char *vgem_path, const char *gpu_path, int rounds,
	       const char *tally_path)
{
	struct drm_mode_create_dumb dumb = { .width = 64, .height = 64, .bpp = 32 };
	struct tally t = {};
	int vgem, gpu, i, bad = 0;
	FILE *f;

	vgem = open(vgem_path, O_RDWR);
	gpu = open(gpu_path, O_RDWR);
	if (vgem < 0 || gpu < 0) {
		fprintf(stderr, "open: %s\n", strerror(errno));
		return 1;
	}
	bad |= xioctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &dumb, "create_dumb",
		      &t.create_dumb);
	for (i = 0; i < rounds && !bad; i++) {
		struct drm_version v = {};
		struct drm_get_cap cap = { .capability = DRM_CAP_DUMB_BUFFER };
		struct drm_vgem_fence_attach attach = { .handle = dumb.handle };
		struct drm_vgem_fence_signal sig = {};

		bad |= xioctl(gpu, DRM_IOCTL_VERSION, &v, "version", &t.version);
		bad |= xioctl(gpu, DRM_IOCTL_GET_CAP, &cap, "get_cap", &t.get_cap);
		bad |= xioctl(vgem, DRM_IOCTL_VGEM_FENCE_ATTACH, &attach,
			      "fence_attach", &t.fence_attach);
		sig.fence = attach.out_fence;
		if (!bad)
			bad |= xioctl(vgem, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig,
				      "fence_signal", &t.fence_signal);
	}
	if (t.create_dumb) {
		struct drm_gem_close gc = { .handle = dumb.handle };

		bad |= xioctl(vgem, DRM_IOCTL_GEM_CLOSE, &gc, "gem_close", &t.gem_close);
	}
	close(vgem);
	close(gpu);

	f = fopen(tally_path, "w");
	if (!f)
		return 1;
	fprintf(f, "{\"ioctl\":{\"VERSION\":%d,\"GET_CAP\":%d,\"MODE_CREATE_DUMB\":%d,"
		"\"VGEM_FENCE_ATTACH\":%d,\"VGEM_FENCE_SIGNAL\":%d,\"GEM_CLOSE\":%d},"
		"\"fences_created\":%d,\"fences_signaled\":%d}\n",
		t.version, t.get_cap, t.create_dumb, t.fence_attach, t.fence_signal,
		t.gem_close, t.fence_attach, t.fence_signal);
	fclose(f);
	return bad ? 1 : 0;
}

/* --- threads: blocking ioctls, all in flight at once --- */

struct waiter {
	int fd, calls, slept, failed;
	pthread_barrier_t *start;
	pthread_t thread;
};

static __s64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *waiter(void *arg)
{
	struct waiter *w = arg;
	struct drm_syncobj_create create = {};
	struct drm_syncobj_destroy destroy = {};
	int i;

	if (ioctl(w->fd, DRM_IOCTL_SYNCOBJ_CREATE, &create)) {
		w->failed = errno;
		return NULL;
	}
	pthread_barrier_wait(w->start);
	for (i = 0; i < w->calls; i++) {
		struct drm_syncobj_wait wait = {
			.handles = (__u64)(unsigned long)&create.handle,
			.count_handles = 1,
			.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
			.timeout_nsec = now_ns() + 2000000,
		};

		/* nothing is ever submitted: it sleeps until the timeout */
		if (ioctl(w->fd, DRM_IOCTL_SYNCOBJ_WAIT, &wait) && errno == ETIME)
			w->slept++;
	}
	destroy.handle = create.handle;
	ioctl(w->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &destroy);
	return NULL;
}

static int threads(const char *gpu_path, int nthreads, int calls, const char *tally_path)
{
	struct waiter *w = calloc(nthreads, sizeof(*w));
	int fd = open(gpu_path, O_RDWR), i, slept = 0, bad = 0;
	pthread_barrier_t start;
	FILE *f;

	if (fd < 0 || !w || nthreads < 1) {
		fprintf(stderr, "%s: %s\n", gpu_path, strerror(errno));
		return 1;
	}
	pthread_barrier_init(&start, NULL, nthreads);
	for (i = 0; i < nthreads; i++) {
		w[i] = (struct waiter){ .fd = fd, .calls = calls, .start = &start };
		if (pthread_create(&w[i].thread, NULL, waiter, &w[i])) {
			fprintf(stderr, "pthread_create failed\n");
			return 1;	/* the others wait at the barrier: exit */
		}
	}
	for (i = 0; i < nthreads; i++) {
		pthread_join(w[i].thread, NULL);
		if (w[i].failed) {
			fprintf(stderr, "SYNCOBJ_CREATE: %s\n", strerror(w[i].failed));
			bad = 1;
		}
		slept += w[i].slept;
	}
	close(fd);
	f = fopen(tally_path, "w");
	if (!f)
		return 1;
	fprintf(f, "{\"ioctl\":{\"SYNCOBJ_CREATE\":%d,\"SYNCOBJ_WAIT\":%d,"
		"\"SYNCOBJ_DESTROY\":%d},\"waits_slept\":%d}\n", nthreads,
		nthreads * calls, nthreads, slept);
	fclose(f);
	free(w);
	return bad || slept != nthreads * calls;
}

/* --- rare: names of ioctls that few clients make --- */

#define RARE(fd, name, arg) { fd, DRM_IOCTL_##name, #name, arg }

static int rare(const char *vgem_path, const char *gpu_path, const char *tally_path)
{
	int vgem = open(vgem_path, O_RDWR), gpu = open(gpu_path, O_RDWR), value, i;
	struct drm_auth auth = {};
	struct drm_stats stats = {};
	struct drm_mode_cursor cursor = {};
	struct drm_mode_fb_cmd2 fb2 = {};
	struct drm_mode_create_lease lease = {};
	struct drm_mode_list_lessees lessees = {};
	struct drm_mode_get_lease get_lease = {};
	struct drm_mode_revoke_lease revoke = {};
	struct drm_syncobj_timeline_wait twait = {};
	struct drm_syncobj_timeline_array tarray = {};
	struct drm_syncobj_transfer transfer = {};
	struct drm_syncobj_eventfd efd = { .fd = -1 };
	struct drm_virtgpu_getparam param = {
		.param = VIRTGPU_PARAM_3D_FEATURES, .value = (__u64)(unsigned long)&value,
	};
	struct drm_vgem_fence_signal sig = { .fence = ~0U };
	const struct { int fd; unsigned long cmd; const char *name; void *arg; } calls[] = {
		RARE(gpu, AUTH_MAGIC, &auth),
		RARE(gpu, GET_STATS, &stats),
		RARE(gpu, MODE_CURSOR, &cursor),
		RARE(gpu, MODE_GETFB2, &fb2),
		RARE(gpu, MODE_CREATE_LEASE, &lease),
		RARE(gpu, MODE_LIST_LESSEES, &lessees),
		RARE(gpu, MODE_GET_LEASE, &get_lease),
		RARE(gpu, MODE_REVOKE_LEASE, &revoke),
		RARE(gpu, SYNCOBJ_TIMELINE_WAIT, &twait),
		RARE(gpu, SYNCOBJ_QUERY, &tarray),
		RARE(gpu, SYNCOBJ_TIMELINE_SIGNAL, &tarray),
		RARE(gpu, SYNCOBJ_TRANSFER, &transfer),
		RARE(gpu, SYNCOBJ_EVENTFD, &efd),
		RARE(gpu, VIRTGPU_GETPARAM, &param),
		RARE(vgem, VGEM_FENCE_SIGNAL, &sig),
	};
	FILE *f;

	if (vgem < 0 || gpu < 0) {
		fprintf(stderr, "open: %s\n", strerror(errno));
		return 1;
	}
	f = fopen(tally_path, "w");
	if (!f)
		return 1;
	fputs("{\"ioctl\":{", f);
	for (i = 0; i < (int)(sizeof(calls) / sizeof(calls[0])); i++) {
		ioctl(calls[i].fd, calls[i].cmd, calls[i].arg);
		fprintf(f, "\"%s\":1,", calls[i].name);
	}
	/* numbers that name no ioctl: a core one past the table, a driver one */
	ioctl(gpu, DRM_IO(0xf0), NULL);
	ioctl(vgem, DRM_IO(DRM_COMMAND_BASE + 0x30), NULL);
	fputs("\"0xf0\":1,\"DRIVER+0x30\":1}}\n", f);
	fclose(f);
	close(vgem);
	close(gpu);
	return 0;
}

/* --- pending: a fence that an interrupt signals --- */

static int pending(const char *vgem_path, int seconds)
{
	struct drm_mode_create_dumb dumb = { .width = 64, .height = 64, .bpp = 32 };
	int fd = open(vgem_path, O_RDWR);
	struct drm_vgem_fence_attach attach = {};

	if (fd < 0 || ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &dumb)) {
		fprintf(stderr, "%s: %s\n", vgem_path, strerror(errno));
		return 1;
	}
	attach.handle = dumb.handle;
	if (ioctl(fd, DRM_IOCTL_VGEM_FENCE_ATTACH, &attach)) {
		fprintf(stderr, "fence_attach: %s\n", strerror(errno));
		return 1;
	}
	printf("fence attached\n");
	fflush(stdout);
	sleep(seconds);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "find"))
		return find(argv[2]);
	if (argc == 6 && !strcmp(argv[1], "run"))
		return run(argv[2], argv[3], atoi(argv[4]), argv[5]);
	if (argc == 6 && !strcmp(argv[1], "threads"))
		return threads(argv[2], atoi(argv[3]), atoi(argv[4]), argv[5]);
	if (argc == 5 && !strcmp(argv[1], "rare"))
		return rare(argv[2], argv[3], argv[4]);
	if (argc == 4 && !strcmp(argv[1], "pending"))
		return pending(argv[2], atoi(argv[3]));
	fprintf(stderr, "usage: %s find DRIVER | run VGEM_CARD GPU_CARD N TALLY |\n"
		"  threads GPU_CARD THREADS CALLS TALLY | rare VGEM_CARD GPU_CARD TALLY |\n"
		"  pending VGEM_CARD SECONDS\n", argv[0]);
	return 2;
}
