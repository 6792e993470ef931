// SPDX-License-Identifier: GPL-2.0
/*
 * The allow-list, tried exhaustively on the running kernel: a chr_ext_ops
 * read program calls, in turn, every helper the kernel knows (enum
 * bpf_func_id) and every kfunc its BTF tags (vmlinux and loaded modules).
 * What bpfdrv does not grant must be refused: a helper by the verifier
 * (bpfdrv gives it no prototype), a kfunc by the verifier or, where the
 * verifier admits it for every program type, by bpfdrv when the program is
 * written into a chr_ext_ops map, naming the kfunc in
 * /sys/kernel/bpfdrv/last_refusal. The registers hold zeros, so a call the
 * verifier admits may still fail on its arguments: that is a refusal too,
 * and the counts say which way each went.
 *
 *   test_allow
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "tap.h"

#ifndef BPF_F_VTYPE_BTF_OBJ_FD
#define BPF_F_VTYPE_BTF_OBJ_FD	(1U << 15)
#endif

/* as kmod/allow.c grants them */
static const char *const granted_helpers[] = {
	"map_lookup_elem", "map_update_elem", "map_delete_elem",
	"map_push_elem", "map_pop_elem", "map_peek_elem", "spin_lock",
	"spin_unlock", "ktime_get_ns", "ktime_get_boot_ns",
	"ktime_get_coarse_ns", "jiffies64", "get_prandom_u32",
	"get_smp_processor_id", "get_numa_node_id", "snprintf",
	"trace_printk", "trace_vprintk",
};

static struct btf *vmlinux, *mod, *own;
static int mod_fd;
static __u32 ops_id, value_id, read_idx, value_size, data_off, name_off,
	     read_off;
static char log_buf[1 << 16];

static bool listed(const char *const *list, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

/* The fd and ID of the kernel BTF object named @name. */
static int kernel_btf_fd(const char *name, __u32 *idp)
{
	__u32 id = 0;

	while (!bpf_btf_get_next_id(id, &id)) {
		struct bpf_btf_info info = {};
		__u32 len = sizeof(info);
		char buf[64] = "";
		int fd = bpf_btf_get_fd_by_id(id);

		if (fd < 0)
			continue;
		info.name = (__u64)(unsigned long)buf;
		info.name_len = sizeof(buf);
		if (!bpf_btf_get_info_by_fd(fd, &info, &len) && info.kernel_btf &&
		    !strcmp(buf, name)) {
			*idp = id;
			return fd;
		}
		close(fd);
	}
	return -1;
}

static int member_off(const struct btf *btf, __u32 type_id, const char *name,
		      __u32 *idx)
{
	const struct btf_type *t = btf__type_by_id(btf, type_id);
	const struct btf_member *m = btf_members(t);
	int i;

	for (i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), name)) {
			if (idx)
				*idx = i;
			return btf_member_bit_offset(t, i) / 8;
		}
	return -1;
}

static int setup(void)
{
	__u32 id;
	int off;

	vmlinux = btf__load_vmlinux_btf();
	mod_fd = kernel_btf_fd("bpfdrv", &id);
	if (!vmlinux || mod_fd < 0)
		return -1;
	mod = btf__load_from_kernel_by_id_split(id, vmlinux);
	if (!mod)
		return -1;
	ops_id = btf__find_by_name_kind(mod, "chr_ext_ops", BTF_KIND_STRUCT);
	value_id = btf__find_by_name_kind(mod, "bpf_struct_ops_chr_ext_ops",
					  BTF_KIND_STRUCT);
	if ((int)ops_id <= 0 || (int)value_id <= 0)
		return -1;
	value_size = btf__type_by_id(mod, value_id)->size;
	off = member_off(mod, value_id, "data", NULL);
	data_off = off;
	name_off = member_off(mod, ops_id, "name", NULL);
	off |= (int)name_off;
	read_off = member_off(mod, ops_id, "read", &read_idx);
	/* a struct_ops map needs BTF of the loader's own, as libbpf passes */
	own = btf__new_empty();
	if (!own || btf__add_int(own, "int", 4, BTF_INT_SIGNED) < 0 ||
	    btf__load_into_kernel(own))
		return -1;
	return off < 0 || (int)read_off < 0 ? -1 : 0;
}

/* Load r1..r5 = 0; call (none if @imm is 0); r0 = 0; exit as chr_ext_ops.read. */
static int load_call(__u8 src_reg, __s32 imm, __s16 off, int btf_fd)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 1 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 2 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 3 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 4 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 5 },
		{ .code = BPF_JMP | BPF_CALL, .src_reg = src_reg, .off = off,
		  .imm = imm },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fds[2] = { 0, btf_fd };
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		.expected_attach_type = read_idx,
		.attach_btf_id = ops_id,
		.attach_btf_obj_fd = mod_fd,
		.log_buf = log_buf,
		.log_size = sizeof(log_buf),
		.log_level = 1,
		.fd_array = btf_fd > 0 ? fds : NULL);

	if (!imm)	/* no call: the harness's own check */
		insns[5] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K };
	log_buf[0] = '\0';
	return bpf_prog_load(BPF_PROG_TYPE_STRUCT_OPS, "allow_test", "GPL",
			     insns, sizeof(insns) / sizeof(insns[0]), &opts);
}

/* Write @prog_fd as the read callback of a new chr_ext_ops link map. */
static int write_map(int prog_fd)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts,
		.btf_fd = btf__fd(own),
		.btf_vmlinux_value_type_id = value_id,
		.value_type_btf_obj_fd = mod_fd,
		.map_flags = BPF_F_LINK | BPF_F_VTYPE_BTF_OBJ_FD);
	char *value = calloc(1, value_size);
	int map_fd, zero = 0, ret;

	if (!value)
		return -ENOMEM;
	strcpy(value + data_off + name_off, "allow_test");
	*(__u64 *)(value + data_off + read_off) = prog_fd;
	map_fd = bpf_map_create(BPF_MAP_TYPE_STRUCT_OPS, "allow_test",
				sizeof(int), value_size, 1, &opts);
	if (map_fd < 0) {
		ret = -errno;
		tap_diag("creating the chr_ext_ops map: %s (value type %u, %u bytes, btf fd %d)",
			 strerror(-ret), value_id, value_size, mod_fd);
		free(value);
		return ret;
	}
	ret = bpf_map_update_elem(map_fd, &zero, value, 0) ? -errno : 0;
	close(map_fd);
	free(value);
	return ret;
}

/* The module's last refusal, "SEQ MESSAGE". */
static void last_refusal(char *buf, size_t size)
{
	FILE *f = fopen("/sys/kernel/bpfdrv/last_refusal", "r");

	buf[0] = '\0';
	if (f && !fgets(buf, size, f))
		buf[0] = '\0';
	if (f)
		fclose(f);
}

/* bpfdrv refused, since @before, a call of kfunc @name */
static bool refused_naming(const char *before, const char *name)
{
	char buf[512];
	char pat[160];

	last_refusal(buf, sizeof(buf));
	if (!strcmp(buf, before) || !strstr(buf, "is not one bpfdrv grants"))
		return false;
	/* "kfunc NAME is ..." or, a module's, "kfunc NAME [MODULE] is ..." */
	snprintf(pat, sizeof(pat), "kfunc %s is ", name);
	if (strstr(buf, pat))
		return true;
	snprintf(pat, sizeof(pat), "kfunc %s [", name);
	return strstr(buf, pat);
}

static void try_helpers(void)
{
	int id, max = 0, tried = 0, refused = 0, granted = 0, bad = 0;
	const struct btf_type *t;
	const struct btf_enum *e;
	char name[64];
	int i, tid;

	tid = btf__find_by_name_kind(vmlinux, "bpf_func_id", BTF_KIND_ENUM);
	if (tid <= 0) {
		ok(0, "helpers: enum bpf_func_id in the kernel's BTF");
		return;
	}
	t = btf__type_by_id(vmlinux, tid);
	for (i = 0, e = btf_enum(t); i < btf_vlen(t); i++, e++)
		if (!strcmp(btf__name_by_offset(vmlinux, e->name_off), "__BPF_FUNC_MAX_ID"))
			max = e->val;
	for (id = 1; id < max; id++) {
		const char *full = "";
		int fd;

		for (i = 0, e = btf_enum(t); i < btf_vlen(t); i++, e++)
			if ((int)e->val == id)
				full = btf__name_by_offset(vmlinux, e->name_off);
		snprintf(name, sizeof(name), "%s", strncmp(full, "BPF_FUNC_", 9) ?
			 full : full + 9);
		tried++;
		fd = load_call(0, id, 0, 0);
		if (fd >= 0)
			close(fd);
		if (listed(granted_helpers, sizeof(granted_helpers) / sizeof(granted_helpers[0]), name)) {
			granted++;
			continue;
		}
		if (fd < 0 && (strstr(log_buf, "cannot use helper") ||
			       strstr(log_buf, "unknown func"))) {
			refused++;
			continue;
		}
		bad++;
		ok(0, "helper %s#%d is refused by the verifier (%s)", name, id,
		   fd >= 0 ? "it loaded" : "for another reason");
	}
	ok(!bad && tried > 100, "helpers: %d tried, %d not granted and refused (no prototype), %d granted",
	   tried, refused, granted);
}

/*
 * Every kfunc of @btf (types from @start) not granted; @btf_fd for modules.
 * bpfdrv refuses a kernel kfunc before verification (check_member), a
 * module's when the program is written into the map; the verifier refuses
 * those not registered for struct_ops, or their zero arguments.
 */
static void try_kfuncs(const char *obj, struct btf *btf, __u32 start, int btf_fd,
		       int *tried, int *by_verifier, int *by_bpfdrv, int *bad)
{
	__u32 n = btf__type_cnt(btf), i;
	char before[512];

	for (i = start; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i), *f;
		const char *name;
		int fd, ret;

		if (!btf_is_decl_tag(t) || btf_decl_tag(t)->component_idx != -1 ||
		    strcmp(btf__name_by_offset(btf, t->name_off), "bpf_kfunc"))
			continue;
		f = btf__type_by_id(btf, t->type);
		if (!btf_is_func(f))
			continue;
		/* none of the kernel's is granted (bpf_for()'s neither) */
		name = btf__name_by_offset(btf, f->name_off);
		(*tried)++;
		last_refusal(before, sizeof(before));
		fd = load_call(BPF_PSEUDO_KFUNC_CALL, t->type, btf_fd > 0, btf_fd);
		if (fd < 0) {
			if (refused_naming(before, name))
				(*by_bpfdrv)++;
			else
				(*by_verifier)++;
			continue;
		}
		last_refusal(before, sizeof(before));
		ret = write_map(fd);
		close(fd);
		if (ret == -EACCES && refused_naming(before, name)) {
			(*by_bpfdrv)++;
			continue;
		}
		(*bad)++;
		ok(0, "kfunc %s (%s) is refused when written into a chr_ext_ops map (%s)",
		   name, obj, ret ? strerror(-ret) : "it was accepted");
	}
}

int main(void)
{
	int tried = 0, by_verifier = 0, by_bpfdrv = 0, bad = 0;
	__u32 id = 0;

	if (setup()) {
		ok(0, "allow-list: bpfdrv's chr_ext_ops found in its module BTF");
		return 1;
	}
	/* the harness itself: a program that calls nothing is written */
	{
		int fd = load_call(0, 0, 0, 0), ret;

		ret = fd >= 0 ? write_map(fd) : -EINVAL;
		if (fd >= 0)
			close(fd);
		if (!ok(!ret, "allow-list: a read program that calls nothing is written into a chr_ext_ops map (%s)",
			ret ? strerror(-ret) : "accepted"))
			return 1;
	}
	try_helpers();

	try_kfuncs("vmlinux", vmlinux, 1, 0, &tried, &by_verifier, &by_bpfdrv, &bad);
	while (!bpf_btf_get_next_id(id, &id)) {
		struct bpf_btf_info info = {};
		__u32 len = sizeof(info);
		char buf[64] = "";
		struct btf *btf;
		int fd = bpf_btf_get_fd_by_id(id);

		if (fd < 0)
			continue;
		info.name = (__u64)(unsigned long)buf;
		info.name_len = sizeof(buf);
		if (bpf_btf_get_info_by_fd(fd, &info, &len) || !info.kernel_btf ||
		    !strcmp(buf, "vmlinux") || !strcmp(buf, "bpfdrv")) {
			close(fd);
			continue;
		}
		btf = btf__load_from_kernel_by_id_split(id, vmlinux);
		if (btf)
			try_kfuncs(buf, btf, btf__type_cnt(vmlinux), fd, &tried,
				   &by_verifier, &by_bpfdrv, &bad);
		btf__free(btf);
		close(fd);
	}
	if (!tried)
		tap_diag("skip: kfuncs: this kernel's BTF tags none (pahole before 1.26 writes no bpf_kfunc tags)");
	else
		ok(!bad, "kfuncs: %d not granted tried: %d refused by bpfdrv, naming them; %d by the verifier alone",
		   tried, by_bpfdrv, by_verifier);
	return tap_failures ? 1 : 0;
}
