// SPDX-License-Identifier: GPL-2.0
/*
 * What every command of the bpfdrv tool uses: its error messages, name
 * rules, capability and module checks, and reading sysfs.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <elf.h>
#include <linux/capability.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "bpfdrv.h"

void err(const char *fmt, ...)
{
	va_list ap;

	fputs("bpfdrv: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

bool name_valid(const char *name)
{
	size_t i, len = strlen(name);

	if (len == 0 || len >= BPFDRV_NAME_MAX)
		return false;
	for (i = 0; i < len; i++) {
		char c = name[i];
		bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9');

		if (!alnum && (i == 0 || (c != '_' && c != '-')))
			return false;
	}
	return true;
}

/* The init user namespace's inode number (PROC_USER_INIT_INO). */
#define INIT_USER_NS_INO	4026531837UL

/* Does this process hold capability @cap in the initial user namespace? */
bool init_ns_capable(int cap)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = {};
	struct stat st;

	/* a kernel without user namespaces (no such file) has only the first */
	if (stat("/proc/self/ns/user", &st) ? errno != ENOENT : st.st_ino != INIT_USER_NS_INO)
		return false;
	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[cap / 32].effective & (1U << (cap % 32));
}

/* Is @path a readable ELF file for the BPF machine? */
int check_bpf_elf(const char *path)
{
	Elf64_Ehdr eh;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		err("%s: %s", path, strerror(errno));
		return -1;
	}
	n = read(fd, &eh, sizeof(eh));
	close(fd);
	if (n != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_BPF) {
		err("%s: not a BPF object file", path);
		return -1;
	}
	return 0;
}

int check_module(void)
{
	if (access("/sys/module/bpfdrv", F_OK)) {
		err("kernel module bpfdrv is not loaded (modprobe bpfdrv, or insmod bpfdrv.ko)");
		return -1;
	}
	return 0;
}

/* Read a small file (sysfs) into @buf, without its trailing newline. */
int read_line(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

/* Read /sys/class/bpfdrv/<name>/<attr>. */
int read_sysfs(const char *name, const char *attr, char *buf, size_t size)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), SYSFS_CLASS "/%s/%s", name, attr);
	return read_line(path, buf, size);
}

/*
 * The offset of a data member in the object's chr_ext_ops type, or -1 if
 * the object was built without it (older headers).
 */
int member_offset(const struct btf *btf, __u32 type_id, const char *name)
{
	const struct btf_type *t = btf__type_by_id(btf, type_id);
	const struct btf_member *m;
	int i;

	if (!t || !btf_is_struct(t))
		return -1;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), name))
			return btf_member_bit_offset(t, i) / 8;
	return -1;
}

/* @s as a JSON string, quotes and escapes included. */
void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", *s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}
