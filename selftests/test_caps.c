// SPDX-License-Identifier: GPL-2.0
/*
 * Who may attach: load a driver object while privileged, then try to
 * attach it (BPF_LINK_CREATE, where bpfdrv's reg runs) after losing a
 * capability or from a new user namespace, as a loader holding a BPF token
 * would run. bpfdrv must refuse with EPERM and create nothing.
 *
 *   test_caps ECHO_OBJ GPIO_OBJ
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/capability.h>
#include <bpf/libbpf.h>
#include "tap.h"

static int set_effective(int drop1, int drop2)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[0].effective = data[0].permitted;
	data[1].effective = data[1].permitted;
	if (drop1 >= 0)
		data[drop1 / 32].effective &= ~(1U << (drop1 % 32));
	if (drop2 >= 0)
		data[drop2 / 32].effective &= ~(1U << (drop2 % 32));
	return syscall(SYS_capset, &hdr, data);
}

static bool node_exists(const char *name)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/dev/bpfdrv/%s", name);
	return !stat(path, &st);
}

/* Attach the object's one chr_ext_ops map in a child set up by @how. */
static int attach_as(const char *path, int how, int *err)
{
	struct bpf_object *obj;
	struct bpf_map *map;
	struct bpf_link *link;
	int status, pfd[2];
	pid_t pid;

	*err = 0;
	obj = bpf_object__open_file(path, NULL);
	if (!obj || bpf_object__load(obj))
		return -1;
	bpf_object__for_each_map(map, obj)
		if (bpf_map__type(map) == BPF_MAP_TYPE_STRUCT_OPS)
			break;
	if (!map || pipe(pfd))
		return -1;
	pid = fork();
	if (!pid) {
		int e = 0;

		if (how == 1 && set_effective(CAP_SYS_ADMIN, -1))
			e = -1000;
		if (how == 2 && set_effective(CAP_SYS_RAWIO, -1))
			e = -1000;
		if (how == 3 && unshare(CLONE_NEWUSER))
			e = -1000;
		if (!e) {
			link = bpf_map__attach_struct_ops(map);
			e = link ? 0 : errno;
			bpf_link__destroy(link);
		}
		if (write(pfd[1], &e, sizeof(e)) != sizeof(e))
			_exit(1);
		_exit(0);
	}
	if (read(pfd[0], err, sizeof(*err)) != sizeof(*err))
		*err = -1001;
	waitpid(pid, &status, 0);
	close(pfd[0]);
	close(pfd[1]);
	bpf_object__close(obj);
	return 0;
}

static struct bpf_map *ops_map(struct bpf_object *obj)
{
	struct bpf_map *map;

	bpf_object__for_each_map(map, obj)
		if (bpf_map__type(map) == BPF_MAP_TYPE_STRUCT_OPS)
			return map;
	return NULL;
}

/*
 * Attach the object while privileged, then update the link with a second
 * copy of it (libbpf's bpf_link__update_map) in a child set up by @how.
 * Returns the update's errno, and whether the node stayed, in @stayed.
 */
static int update_as(const char *path, int how, bool *stayed)
{
	struct bpf_object *a = bpf_object__open_file(path, NULL);
	struct bpf_object *b = bpf_object__open_file(path, NULL);
	struct bpf_link *link = NULL;
	int e = -1001, status, pfd[2] = { -1, -1 };
	pid_t pid;

	if (!a || !b || bpf_object__load(a) || bpf_object__load(b) ||
	    !(link = bpf_map__attach_struct_ops(ops_map(a))) || pipe(pfd))
		goto out;
	pid = fork();
	if (!pid) {
		e = 0;
		if (how == 1 && set_effective(CAP_SYS_ADMIN, -1))
			e = -1000;
		if (!e)
			e = -bpf_link__update_map(link, ops_map(b));
		if (write(pfd[1], &e, sizeof(e)) != sizeof(e))
			_exit(1);
		_exit(0);
	}
	if (read(pfd[0], &e, sizeof(e)) != sizeof(e))
		e = -1001;
	waitpid(pid, &status, 0);
	*stayed = node_exists("echo");
out:
	if (pfd[0] >= 0) {
		close(pfd[0]);
		close(pfd[1]);
	}
	bpf_link__destroy(link);
	bpf_object__close(a);
	bpf_object__close(b);
	return e;
}

int main(int argc, char **argv)
{
	static const struct {
		int how, obj;
		int want;
		const char *what;
	} cases[] = {
		{ 1, 0, EPERM, "without CAP_SYS_ADMIN, attaching echo gives EPERM" },
		{ 3, 0, EPERM, "from a new user namespace (all its capabilities), attaching echo gives EPERM" },
		{ 2, 0, 0, "without CAP_SYS_RAWIO, a driver without hardware attaches" },
		{ 2, 1, EPERM, "without CAP_SYS_RAWIO, a driver that claims GPIO lines gives EPERM" },
		{ 0, 0, 0, "with both, echo attaches" },
	};
	const char *names[] = { "echo", "gpio_leds" };
	bool stayed = false;
	size_t i;
	int err;

	if (argc != 3) {
		fprintf(stderr, "usage: test_caps ECHO_OBJ GPIO_OBJ\n");
		return 2;
	}
	libbpf_set_print(NULL);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cases[i].how == 3 && access("/proc/self/ns/user", F_OK)) {
			printf("# skip: %s (this kernel has no user namespaces)\n", cases[i].what);
			continue;
		}
		if (attach_as(argv[1 + cases[i].obj], cases[i].how, &err)) {
			tap_check(0, "%s (the privileged load failed)", cases[i].what);
			continue;
		}
		tap_check(err == cases[i].want && !node_exists(names[cases[i].obj]),
			  "%s (%s)", cases[i].what, err > 0 ? strerror(err) :
			  err ? "setup failed" : "attached, detached");
	}
	err = update_as(argv[1], 1, &stayed);
	tap_check(err == EPERM && stayed,
		  "without CAP_SYS_ADMIN, a live update of echo's link gives EPERM and echo stays (%s)",
		  err > 0 ? strerror(err) : err ? "setup failed" : "updated");
	err = update_as(argv[1], 0, &stayed);
	tap_check(err == 0 && stayed,
		  "with it, libbpf's bpf_link__update_map() updates echo (%s)",
		  err > 0 ? strerror(err) : err ? "setup failed" : "updated");
	return tap_failures ? 1 : 0;
}
