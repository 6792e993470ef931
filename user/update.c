// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv update NAME OBJ: give an attached driver new code while its files
 * stay open. The new object is loaded, then swapped in with BPF_LINK_UPDATE
 * on the driver's link (kmod/update.c does the swap); pinned links and those
 * of a running bpfdrv load work alike.
 *
 * Driver state in maps carries over: each map of the running driver that
 * the new object declares alike (name, type, key and value size, entries,
 * flags) is handed to the new object instead of a fresh one. Global
 * variables (.data, .bss, .rodata) and all other maps start afresh. What
 * was kept and what starts empty is printed.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfdrv.h"

#define LAST_UPDATE_FILE "/sys/kernel/bpfdrv/last_update"
#define MAX_OLD_MAPS	64
#define UPDATE_TRIES	5
#define UPDATE_RETRY_US	100000

struct old_map {
	__u32 id;
	struct bpf_map_info info;
	bool used;		/* handed to the new object */
};

/* The kernel's BTF and bpfdrv.ko's on top, loaded once: they are large. */
static struct btf *module_btf(__u32 id)
{
	static struct btf *vmlinux, *btf;

	if (!vmlinux)
		vmlinux = btf__load_vmlinux_btf();
	if (!btf && vmlinux)
		btf = btf__load_from_kernel_by_id_split(id, vmlinux);
	return btf;
}

/*
 * The programs of the running driver, by member index of the kernel's
 * chr_ext_ops (0: none): its struct_ops map's value holds each callback's
 * program id where the kernel keeps the function pointer. The layout comes
 * from the module's BTF, as bpftool struct_ops dump does. Returns the
 * number of members.
 */
static int old_prog_ids(int map_fd, const struct bpf_map_info *info,
			__u32 *ids, int max)
{
	struct btf *btf = module_btf(info->btf_vmlinux_id);
	const struct btf_type *vt, *dt, *mt;
	const struct btf_member *m;
	int i, n = 0, data_off = -1;
	__u32 zero = 0, data_type = 0;
	char *value;

	value = calloc(1, info->value_size);
	if (!btf || !value || bpf_map_lookup_elem(map_fd, &zero, value))
		goto out;
	vt = btf__type_by_id(btf, info->btf_vmlinux_value_type_id);
	if (!vt || !btf_is_struct(vt))
		goto out;
	for (i = 0, m = btf_members(vt); i < btf_vlen(vt); i++, m++) {
		if (!strcmp(btf__name_by_offset(btf, m->name_off), "data")) {
			data_off = btf_member_bit_offset(vt, i) / 8;
			data_type = m->type;
		}
	}
	dt = data_off >= 0 ? btf__type_by_id(btf, data_type) : NULL;
	if (!dt || !btf_is_struct(dt))
		goto out;
	for (i = 0, m = btf_members(dt); i < btf_vlen(dt) && i < max; i++, m++) {
		int off = data_off + btf_member_bit_offset(dt, i) / 8;
		__u64 id;

		ids[i] = 0;
		n = i + 1;
		mt = btf__type_by_id(btf, m->type);
		if (!mt || !btf_is_ptr(mt) ||
		    !btf_is_func_proto(btf__type_by_id(btf, mt->type)) ||
		    off + sizeof(id) > info->value_size)
			continue;
		memcpy(&id, value + off, sizeof(id));
		ids[i] = id;
	}
out:
	free(value);
	return n;
}

/* The maps the running driver's programs @prog_ids use, without duplicates. */
static int old_maps(const __u32 *prog_ids, int nprogs, struct old_map *maps)
{
	__u32 map_ids[MAX_OLD_MAPS];
	int i, j, k, n = 0;

	for (i = 0; i < nprogs; i++) {
		struct bpf_prog_info pinfo = {};
		__u32 len = sizeof(pinfo);
		int fd = prog_ids[i] ? bpf_prog_get_fd_by_id(prog_ids[i]) : -1;

		if (fd < 0)
			continue;
		pinfo.nr_map_ids = MAX_OLD_MAPS;
		pinfo.map_ids = (__u64)(unsigned long)map_ids;
		if (bpf_prog_get_info_by_fd(fd, &pinfo, &len)) {
			close(fd);
			continue;
		}
		close(fd);
		for (j = 0; j < (int)pinfo.nr_map_ids && j < MAX_OLD_MAPS; j++) {
			for (k = 0; k < n && maps[k].id != map_ids[j]; k++)
				;
			if (k < n || n == MAX_OLD_MAPS)
				continue;
			fd = bpf_map_get_fd_by_id(map_ids[j]);
			len = sizeof(maps[n].info);
			memset(&maps[n].info, 0, len);
			if (fd >= 0 && !bpf_map_get_info_by_fd(fd, &maps[n].info, &len)) {
				maps[n].id = map_ids[j];
				maps[n].used = false;
				n++;
			}
			if (fd >= 0)
				close(fd);
		}
	}
	return n;
}

/* The member of struct type @t named @name, its index, or -1. */
static int member_index(const struct btf *btf, const struct btf_type *t,
			const char *name)
{
	const struct btf_member *m = btf_members(t);
	int i;

	for (i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), name))
			return i;
	return -1;
}

/*
 * Set the new struct_ops map's value, as libbpf's attach would: the
 * kernel's layout (bpf_struct_ops_chr_ext_ops in the module's BTF) with the
 * object's data members and the fds of its programs, each at the member
 * libbpf recorded as its expected_attach_type. The kernel then checks the
 * declaration (init_member, validate) before any link is touched.
 */
static int set_struct_ops_value(struct bpf_object *obj, struct bpf_map *map,
				const struct bpf_map_info *old_info)
{
	const struct btf *ubtf = bpf_object__btf(obj);
	struct btf *kbtf = module_btf(old_info->btf_vmlinux_id);
	const struct btf_type *vt, *kt, *ut, *mt;
	const struct btf_member *m;
	struct bpf_program *prog;
	size_t usize, vsize;
	int i, data_off, ui, ret = -1;
	char *kvalue = NULL, *uvalue;
	__u32 zero = 0;
	__s32 id;

	uvalue = bpf_map__initial_value(map, &usize);
	ut = btf__type_by_id(ubtf, bpf_map__btf_value_type_id(map));
	if (!uvalue || !ut || !kbtf)
		goto out;
	id = btf__find_by_name_kind(kbtf, "bpf_struct_ops_chr_ext_ops",
				    BTF_KIND_STRUCT);
	vt = id > 0 ? btf__type_by_id(kbtf, id) : NULL;
	i = vt ? member_index(kbtf, vt, "data") : -1;
	if (i < 0)
		goto out;
	data_off = btf_member_bit_offset(vt, i) / 8;
	kt = btf__type_by_id(kbtf, btf_members(vt)[i].type);
	vsize = vt->size;
	kvalue = calloc(1, vsize);
	if (!kvalue || !kt || !btf_is_struct(kt))
		goto out;

	for (i = 0, m = btf_members(kt); i < btf_vlen(kt); i++, m++) {
		int koff = data_off + btf_member_bit_offset(kt, i) / 8;
		__s64 ksize = btf__resolve_size(kbtf, m->type);
		const char *mname = btf__name_by_offset(kbtf, m->name_off);

		mt = btf__type_by_id(kbtf, m->type);
		if (btf_is_ptr(mt) && btf_is_func_proto(btf__type_by_id(kbtf, mt->type)))
			continue;	/* the programs' fds, below */
		ui = member_index(ubtf, ut, mname);
		if (ui < 0 || ksize <= 0 || koff + ksize > (__s64)vsize)
			continue;	/* not in the object: zero */
		if (btf__resolve_size(ubtf, btf_members(ut)[ui].type) != ksize ||
		    btf_member_bit_offset(ut, ui) / 8 + ksize > (__s64)usize)
			goto out;
		memcpy(kvalue + koff, uvalue + btf_member_bit_offset(ut, ui) / 8,
		       ksize);
	}
	bpf_object__for_each_program(prog, obj) {
		int member = bpf_program__expected_attach_type(prog);
		int koff;

		if (bpf_program__type(prog) != BPF_PROG_TYPE_STRUCT_OPS ||
		    bpf_program__fd(prog) < 0 || member >= btf_vlen(kt))
			continue;
		koff = data_off + btf_member_bit_offset(kt, member) / 8;
		*(unsigned long *)(kvalue + koff) = bpf_program__fd(prog);
	}
	ret = bpf_map_update_elem(bpf_map__fd(map), &zero, kvalue, 0);
out:
	free(kvalue);
	return ret;
}

/* The tag (a hash of its instructions) of program @fd; 0 if unknown. */
static __u64 prog_tag(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	__u64 tag = 0;

	if (fd >= 0 && !bpf_prog_get_info_by_fd(fd, &info, &len))
		memcpy(&tag, info.tag, sizeof(tag));
	return tag;
}

/*
 * Print which callbacks the update changes: added, removed, new code, or
 * the same code (equal program tags).
 */
static void report_callbacks(struct bpf_object *obj, const char *name,
			     const struct bpf_map_info *st_info,
			     const __u32 *old_ids, int nmembers)
{
	static const char *const kinds[] = { "changed", "added", "removed", "unchanged" };
	struct btf *kbtf = module_btf(st_info->btf_vmlinux_id);
	char lists[4][512] = { "", "", "", "" };
	const struct btf_type *kt;
	struct bpf_program *prog;
	int i, k, new_fd[64];
	__s32 id;

	id = kbtf ? btf__find_by_name_kind(kbtf, "chr_ext_ops", BTF_KIND_STRUCT) : -1;
	kt = id > 0 ? btf__type_by_id(kbtf, id) : NULL;
	if (!kt || nmembers > 64)
		return;
	for (i = 0; i < nmembers; i++)
		new_fd[i] = -1;
	bpf_object__for_each_program(prog, obj) {
		int member = bpf_program__expected_attach_type(prog);

		if (bpf_program__type(prog) == BPF_PROG_TYPE_STRUCT_OPS &&
		    member < nmembers)
			new_fd[member] = bpf_program__fd(prog);
	}
	for (i = 0; i < nmembers && i < btf_vlen(kt); i++) {
		const char *cb = btf__name_by_offset(kbtf, btf_members(kt)[i].name_off);
		int old_fd;

		if (!old_ids[i] && new_fd[i] < 0)
			continue;
		if (!old_ids[i]) {
			k = 1;
		} else if (new_fd[i] < 0) {
			k = 2;
		} else {
			old_fd = bpf_prog_get_fd_by_id(old_ids[i]);
			k = prog_tag(old_fd) == prog_tag(new_fd[i]) ? 3 : 0;
			if (old_fd >= 0)
				close(old_fd);
		}
		if (strlen(lists[k]) + strlen(cb) + 2 < sizeof(lists[k])) {
			strcat(lists[k], " ");
			strcat(lists[k], cb);
		}
	}
	for (k = 0; k < 4; k++)
		if (lists[k][0])
			printf("%s: callbacks %s:%s\n", name, kinds[k], lists[k]);
}

/* Why the new object's @map cannot take over @old, or NULL. */
static const char *map_differs(const struct bpf_map *map,
			       const struct bpf_map_info *old)
{
	if (bpf_map__type(map) != old->type)
		return "type";
	if (bpf_map__key_size(map) != old->key_size)
		return "key size";
	if (bpf_map__value_size(map) != old->value_size)
		return "value size";
	if (bpf_map__max_entries(map) != old->max_entries)
		return "max_entries";
	if (bpf_map__map_flags(map) != old->map_flags)
		return "flags";
	return NULL;
}

/*
 * Hand the new object the running driver's maps it declares alike; print
 * what carries over. Pinned maps are libbpf's to reuse.
 */
static int reuse_maps(struct bpf_object *obj, const char *name,
		      struct old_map *old, int nold)
{
	struct bpf_map *map;
	int i;

	bpf_object__for_each_map(map, obj) {
		char mname[BPF_OBJ_NAME_LEN];
		const char *why = NULL;

		/* reuse_fd renames the map: keep a copy for the report */
		snprintf(mname, sizeof(mname), "%s", bpf_map__name(map));
		if (bpf_map__is_internal(map) ||
		    bpf_map__type(map) == BPF_MAP_TYPE_STRUCT_OPS ||
		    bpf_map__pin_path(map))
			continue;
		for (i = 0; i < nold; i++)
			if (!old[i].used &&
			    !strncmp(old[i].info.name, mname, BPF_OBJ_NAME_LEN - 1))
				break;
		if (i < nold)
			why = map_differs(map, &old[i].info);
		if (i == nold) {
			printf("%s: map %s is new: it starts empty\n", name, mname);
		} else if (why) {
			printf("%s: map %s changed its %s: it starts empty\n", name,
			       mname, why);
		} else {
			int fd = bpf_map_get_fd_by_id(old[i].id);

			if (fd < 0 || bpf_map__reuse_fd(map, fd)) {
				err("%s: cannot reuse map %s: %s", name, mname,
				    strerror(errno));
				if (fd >= 0)
					close(fd);
				return -1;
			}
			close(fd);	/* reuse_fd took its own copy */
			old[i].used = true;
			printf("%s: map %s kept\n", name, mname);
		}
	}
	return 0;
}

/* The kernel's reason for refusing the update of @name, if it gave one. */
static void print_refusal(const char *name, int e)
{
	size_t len = strlen(name);
	const char *why = strerror(e);
	char line[256];

	/* another update may have run since: only our driver's line counts */
	if (!read_line(LAST_UPDATE_FILE, line, sizeof(line)) &&
	    !strncmp(line, name, len) && !strncmp(line + len, " refused ", 9))
		why = line + len + 9;
	err("%s: update refused: %s; the running driver is unchanged", name, why);
}

static void usage_update(FILE *f)
{
	fprintf(f,
		"usage: bpfdrv update NAME OBJ [--name NAME] [--device BDF]\n"
		"                    [--gpio-chip LABEL] [--gpio-lines N,...]\n"
		"                    [--i2c-adapter NAME] [--i2c-addrs A,...]\n"
		"                    [--spi-controller NAME] [--spi-cs N] [--spi-mode M]\n"
		"                    [--spi-speed HZ]\n"
		"Replace attached driver NAME's code with OBJ's while its files stay\n"
		"open. Give the options bpfdrv load was given; the driver's name, IDs,\n"
		"lines, mode and flags cannot change. Maps declared alike keep their\n"
		"contents.\n"
		"  -h, --help  this help\n");
}

/* What cmd_update() works with: the running driver and the new code. */
struct update {
	const char *name, *path;
	struct map_overrides o;
	int link_fd, st_fd;
	struct bpf_map_info st_info;
	struct bpf_object *obj;
	struct bpf_map *found;		/* the new declaration */
};

/* Options, NAME and OBJ: 0, or the exit status (-1: go on). */
static int update_parse_args(struct update *u, int argc, char **argv)
{
	static const struct option opts[] = {
		OVERRIDE_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "n:d:h", opts, NULL)) != -1) {
		if (override_option(opt, optarg, &u->o))
			continue;
		switch (opt) {
		case 'h':
			usage_update(stdout);
			return 0;
		default:
			usage_update(stderr);
			return 2;
		}
	}
	if (optind != argc - 2) {
		usage_update(stderr);
		return 2;
	}
	u->name = argv[optind];
	u->path = u->o.path = argv[optind + 1];
	if (check_overrides(&u->o) || check_bpf_elf(u->path) || check_module())
		return 1;
	if (!init_ns_capable(CAP_SYS_ADMIN)) {
		err("%s: updating a driver needs CAP_SYS_ADMIN in the initial user namespace",
		    u->name);
		return 1;
	}
	return -1;
}

/* The running driver's link and struct_ops map: 0 or -1. */
static int update_open_running(struct update *u)
{
	struct bpf_link_info linfo = {};
	unsigned int id, updates;
	__u32 len;

	if (driver_entry(u->name, &id, &updates, NULL)) {
		err("%s: no such driver attached (bpfdrv list shows them)", u->name);
		return -1;
	}
	if (!id) {
		err("%s: attached without a link, which is what an update replaces",
		    u->name);
		return -1;
	}
	u->link_fd = bpf_link_get_fd_by_id(id);
	len = sizeof(linfo);
	if (u->link_fd < 0 || bpf_link_get_info_by_fd(u->link_fd, &linfo, &len) ||
	    linfo.type != BPF_LINK_TYPE_STRUCT_OPS) {
		err("%s: cannot open its link %u: %s", u->name, id, strerror(errno));
		return -1;
	}
	u->st_fd = bpf_map_get_fd_by_id(linfo.struct_ops.map_id);
	len = sizeof(u->st_info);
	if (u->st_fd < 0 || bpf_map_get_info_by_fd(u->st_fd, &u->st_info, &len)) {
		err("%s: cannot open its struct_ops map: %s", u->name, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The map declaring NAME, or the object's only driver whatever its name:
 * the kernel then says what would change. Only it is loaded: 0 or -1.
 */
static int update_pick_map(struct update *u)
{
	const struct btf *btf = bpf_object__btf(u->obj);
	int n = 0, n_gpio = 0, n_i2c = 0, n_spi = 0;
	char mname[BPFDRV_NAME_MAX];
	bool pci = false, named = false;
	struct bpf_map *map;

	bpf_object__for_each_map(map, u->obj) {
		if (!is_chr_ext_ops(btf, map))
			continue;
		if (prepare_driver_map(btf, map, &u->o, mname, &pci, &n_gpio,
				       &n_i2c, &n_spi))
			return -1;
		if (!named && (!n || !strcmp(mname, u->name))) {
			u->found = map;
			named = !strcmp(mname, u->name);
		}
		n++;
	}
	if (!u->found) {
		err("%s: no chr_ext_ops map in this object", u->path);
		return -1;
	}
	if (n > 1 && !named) {
		err("%s: %d drivers in this object, none named %s", u->path, n, u->name);
		return -1;
	}
	if (check_driver_programs(u->obj, u->path))
		return -1;
	/* the object's other drivers stay unattached */
	bpf_object__for_each_map(map, u->obj)
		if (map != u->found && is_chr_ext_ops(btf, map))
			bpf_map__set_autocreate(map, false);
	return 0;
}

/*
 * Swap the link to the new map, again while the kernel is busy (an
 * instance starting or stopping, a long call): 0, with how long the
 * successful swap took in @ms, or -1.
 */
static int update_swap(struct update *u, double *ms)
{
	LIBBPF_OPTS(bpf_link_update_opts, uopts,
		    .flags = BPF_F_REPLACE, .old_map_fd = u->st_fd);
	struct timespec t0, t1;
	int tries = 0, r;

	do {
		if (tries)
			usleep(UPDATE_RETRY_US);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		r = bpf_link_update(u->link_fd, bpf_map__fd(u->found), &uopts);
		clock_gettime(CLOCK_MONOTONIC, &t1);
	} while (r && errno == EBUSY && ++tries < UPDATE_TRIES);
	if (r) {
		print_refusal(u->name, errno);
		return -1;
	}
	*ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	return 0;
}

int cmd_update(int argc, char **argv)
{
	struct update u = { .link_fd = -1, .st_fd = -1 };
	struct old_map old[MAX_OLD_MAPS];
	int nold, nmembers, ret;
	__u32 old_ids[64];
	double ms;

	ret = update_parse_args(&u, argc, argv);
	if (ret >= 0)
		return ret;
	ret = 1;
	if (update_open_running(&u))
		goto out;
	u.obj = bpf_object__open_file(u.path, NULL);
	if (!u.obj) {
		err("%s: cannot open BPF object: %s", u.path, strerror(errno));
		goto out;
	}
	if (update_pick_map(&u))
		goto out;
	nmembers = old_prog_ids(u.st_fd, &u.st_info, old_ids, 64);
	nold = old_maps(old_ids, nmembers, old);
	if (reuse_maps(u.obj, u.name, old, nold) || load_object(u.obj, u.path))
		goto out;
	refusal_mark();
	if (set_struct_ops_value(u.obj, u.found, &u.st_info)) {
		if (refusal_explain(u.path))
			goto out;
		err("%s: the kernel refused the new declaration: %s (see dmesg)",
		    u.path, strerror(errno));
		goto out;
	}
	fflush(stdout);
	if (update_swap(&u, &ms))
		goto out;
	report_callbacks(u.obj, u.name, &u.st_info, old_ids, nmembers);
	printf("%s: updated to %s in %.3f ms\n", u.name, u.path, ms);
	ret = 0;
out:
	bpf_object__close(u.obj);
	if (u.st_fd >= 0)
		close(u.st_fd);
	if (u.link_fd >= 0)
		close(u.link_fd);
	return ret;
}
