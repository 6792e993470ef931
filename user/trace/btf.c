// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace: the kernel's BTF objects, vmlinux's and each module's
 * split BTF, loaded once per run and asked by probing. The cache is this
 * file's own state: loading a module's BTF costs milliseconds, and probing
 * asks for it once per candidate.
 */
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf.h"

/*
 * The kernel's BTF objects, loaded once: vmlinux and each module's split
 * BTF, with the object fd that an fentry program names as its target.
 */
static struct btf *vmlinux_btf;
static struct kernel_btf {
	char name[64];
	__u32 id;
	int fd;
	struct btf *btf;
} kernel_btfs[512];
static int nr_kernel_btfs = -1;

static void list_kernel_btfs(void)
{
	__u32 id = 0;

	nr_kernel_btfs = 0;
	while (!bpf_btf_get_next_id(id, &id) && nr_kernel_btfs < 512) {
		struct kernel_btf *k = &kernel_btfs[nr_kernel_btfs];
		struct bpf_btf_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_btf_get_fd_by_id(id);

		if (fd < 0)
			continue;
		info.name = (__u64)(unsigned long)k->name;
		info.name_len = sizeof(k->name);
		if (bpf_btf_get_info_by_fd(fd, &info, &len) || !info.kernel_btf) {
			close(fd);
			continue;
		}
		k->id = id;
		k->fd = fd;
		nr_kernel_btfs++;
	}
}

void free_kernel_btfs(void)
{
	int i;

	for (i = 0; i < nr_kernel_btfs; i++) {
		btf__free(kernel_btfs[i].btf);
		kernel_btfs[i].btf = NULL;
		close(kernel_btfs[i].fd);
	}
	nr_kernel_btfs = -1;
	btf__free(vmlinux_btf);
	vmlinux_btf = NULL;
}

/* @module's BTF (NULL: vmlinux's) and its object fd (0 for vmlinux). */
struct btf *kernel_btf(const char *module, int *obj_fd)
{
	int i;

	if (!vmlinux_btf)
		vmlinux_btf = btf__load_vmlinux_btf();
	*obj_fd = 0;
	if (!module || !vmlinux_btf)
		return vmlinux_btf;
	if (nr_kernel_btfs < 0)
		list_kernel_btfs();
	for (i = 0; i < nr_kernel_btfs; i++) {
		struct kernel_btf *k = &kernel_btfs[i];

		if (strcmp(k->name, module))
			continue;
		if (!k->btf)
			k->btf = btf__load_from_kernel_by_id_split(k->id, vmlinux_btf);
		*obj_fd = k->fd;
		return k->btf;
	}
	return NULL;
}

/* Is there a tracepoint @name in @module's BTF (or the kernel's)? */
bool tracepoint_exists(const char *module, const char *name)
{
	struct btf *btf;
	char tname[128];
	int fd;

	snprintf(tname, sizeof(tname), "btf_trace_%s", name);
	btf = kernel_btf(NULL, &fd);
	if (btf && btf__find_by_name_kind(btf, tname, BTF_KIND_TYPEDEF) > 0)
		return true;
	btf = module ? kernel_btf(module, &fd) : NULL;
	return btf && btf__find_by_name_kind(btf, tname, BTF_KIND_TYPEDEF) > 0;
}

/* Does @module (NULL: the kernel) have BTF? */
bool has_btf(const char *module)
{
	int fd;

	return !!kernel_btf(module, &fd);
}

/* Does the kernel's struct @type exist (-1: no), and has it @member (1)? */
int kernel_struct_has(const char *type, const char *member)
{
	struct btf *btf = kernel_btf(NULL, &(int){ 0 });
	const struct btf_type *t;
	const struct btf_member *m;
	int id, i;

	id = btf ? btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT) : -1;
	if (id <= 0)
		return -1;
	t = btf__type_by_id(btf, id);
	for (i = 0, m = btf_members(t); i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), member))
			return 1;
	return 0;
}

