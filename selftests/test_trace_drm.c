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
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <drm/drm.h>
#include <drm/drm_mode.h>
#include <drm/vgem_drm.h>

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
		"\"DRIVER+0x%02x\":%d,\"DRIVER+0x%02x\":%d,\"GEM_CLOSE\":%d},"
		"\"fences_created\":%d,\"fences_signaled\":%d}\n",
		t.version, t.get_cap, t.create_dumb,
		DRM_VGEM_FENCE_ATTACH, t.fence_attach,
		DRM_VGEM_FENCE_SIGNAL, t.fence_signal, t.gem_close,
		t.fence_attach, t.fence_signal);
	fclose(f);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "find"))
		return find(argv[2]);
	if (argc == 6 && !strcmp(argv[1], "run"))
		return run(argv[2], argv[3], atoi(argv[4]), argv[5]);
	fprintf(stderr, "usage: %s find DRIVER | run VGEM_CARD GPU_CARD N TALLY\n",
		argv[0]);
	return 2;
}
