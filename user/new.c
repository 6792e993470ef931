// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv new NAME [--pci VENDOR:DEVICE | --gpio CHIP:LINE] [--accel]
 * [-o DIR]: write a driver skeleton to start from: NAME.bpf.c, the header
 * it shares with user space, a Makefile that builds it out of tree against
 * bpfdrv's headers, and test-NAME.c, which exercises it. The driver, as
 * written, loads and passes its test: /dev/bpfdrv/NAME keeps what was last
 * written and reads it back (seekable), and NAME_IOC_INFO reports its
 * length and one value from the hardware (the PCI vendor ID, or the GPIO
 * line level). With --accel it is also a DRM accelerator whose jobs copy
 * their first buffer into their second.
 *
 * Templates say @N@ for the name, @U@ for it in capitals, @A@ for the
 * test's accelerator checks (or nothing).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpfdrv.h"

/* Where bpfdrv's headers are; the build sets it. */
#ifndef BPFDRV_INCLUDE_DIR
#define BPFDRV_INCLUDE_DIR "/usr/include/bpfdrv"
#endif

static const char driver_head[] =
"// SPDX-License-Identifier: GPL-2.0\n"
"/*\n"
" * @N@: a bpfdrv driver, from bpfdrv new. /dev/bpfdrv/@N@ keeps what was\n"
" * last written (up to @U@_BUF bytes) and reads it back at any offset;\n"
" * @U@_IOC_INFO reports its length and a value read from the hardware.\n"
" */\n"
"#include \"bpfdrv.bpf.h\"\n"
"#include \"@N@.h\"\n"
"\n"
"char _license[] SEC(\"license\") = \"GPL\";\n"
"\n"
"struct @N@_state {\n"
"\t__u32 len;\n"
"\t__u8 buf[@U@_BUF];\n"
"};\n"
"\n"
"struct {\n"
"\t__uint(type, BPF_MAP_TYPE_ARRAY);\n"
"\t__uint(max_entries, 1);\n"
"\t__type(key, __u32);\n"
"\t__type(value, struct @N@_state);\n"
"} @N@_states SEC(\".maps\");\n"
"\n"
"static struct @N@_state *state(void)\n"
"{\n"
"\t__u32 key = 0;\n"
"\n"
"\treturn bpf_map_lookup_elem(&@N@_states, &key);\n"
"}\n"
"\n"
"SEC(\"struct_ops/@N@_read\")\n"
"int BPF_PROG(@N@_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,\n"
"\t     struct bpfdrv_io *io)\n"
"{\n"
"\tstruct @N@_state *s = state();\n"
"\t__u64 pos = io->pos;\n"
"\t__u32 n = io->len;\n"
"\n"
"\tif (!s)\n"
"\t\treturn -EIO;\n"
"\tif (pos >= s->len)\n"
"\t\treturn 0;\t/* end of file */\n"
"\tif (n > s->len - pos)\n"
"\t\tn = s->len - pos;\n"
"\t/* a variable offset and length: checked at run time */\n"
"\treturn bpfdrv_io_store_at(io, s->buf, sizeof(s->buf), pos, n) ?: n;\n"
"}\n"
"\n"
"SEC(\"struct_ops/@N@_write\")\n"
"int BPF_PROG(@N@_write, struct bpfdrv_dev *dev, struct bpfdrv_file *file,\n"
"\t     struct bpfdrv_io *io)\n"
"{\n"
"\tstruct @N@_state *s = state();\n"
"\t__u32 n = io->len;\n"
"\n"
"\tif (!s)\n"
"\t\treturn -EIO;\n"
"\tif (n > sizeof(s->buf))\n"
"\t\tn = sizeof(s->buf);\n"
"\tif (bpfdrv_io_load_at(io, s->buf, sizeof(s->buf), 0, n))\n"
"\t\treturn -EIO;\n"
"\ts->len = n;\t/* a write replaces the contents */\n"
"\treturn n;\n"
"}\n"
"\n";

static const char hw_none[] =
"/* No hardware: report 0. */\n"
"static int @N@_hw(struct bpfdrv_dev *dev, __u32 *val)\n"
"{\n"
"\t*val = 0;\n"
"\treturn 0;\n"
"}\n"
"\n";

static const char hw_pci[] =
"/* The PCI function's vendor ID, from its config space. */\n"
"static int @N@_hw(struct bpfdrv_dev *dev, __u32 *val)\n"
"{\n"
"\treturn bpfdrv_pci_cfg_read(dev, 0, 2, val);\n"
"}\n"
"\n";

static const char hw_gpio[] =
"/* The level of the driver's GPIO line 0. */\n"
"static int @N@_hw(struct bpfdrv_dev *dev, __u32 *val)\n"
"{\n"
"\tint level = bpfdrv_gpio_get(dev, 0);\n"
"\n"
"\tif (level < 0)\n"
"\t\treturn level;\n"
"\t*val = level;\n"
"\treturn 0;\n"
"}\n"
"\n";

/* --accel: a job, ended at once */
static const char driver_job[] =
"/*\n"
" * A job on the accelerator's ring (docs/accel.md): copies the start of\n"
" * its first buffer into its second or, in a VM (its argument two device\n"
" * addresses), from one address to the other. A device would be started\n"
" * here, and its interrupt (irq_hard) would call bpfdrv_job_done(). A PCI\n"
" * device that reaches the buffers itself: set .accel_dma_bits and\n"
" * program the addresses bpfdrv_job_bo_dma() or bpfdrv_job_vm_dma() give.\n"
" */\n"
"SEC(\"struct_ops/@N@_run_job\")\n"
"int BPF_PROG(@N@_run_job, struct bpfdrv_dev *dev, __u32 ring, __u64 seqno,\n"
"\t     struct bpfdrv_io *arg)\n"
"{\n"
"\t__u8 buf[@U@_JOB_BYTES];\n"
"\t__u64 va[2];\n"
"\n"
"\tif (!bpfdrv_io_load(arg, 0, va, sizeof(va))) {\n"
"\t\tif (bpfdrv_job_vm_load(dev, BPFDRV_JOB_BO(ring, 0), va[0], buf,\n"
"\t\t\t\t       sizeof(buf)) ||\n"
"\t\t    bpfdrv_job_vm_store(dev, BPFDRV_JOB_BO(ring, 0), va[1], buf,\n"
"\t\t\t\t\tsizeof(buf)))\n"
"\t\t\treturn -EFAULT;\t/* not mapped there: the job fails */\n"
"\t} else if (bpfdrv_job_bo_load(dev, BPFDRV_JOB_BO(ring, 0), 0, buf,\n"
"\t\t\t\t      sizeof(buf)) ||\n"
"\t\t   bpfdrv_job_bo_store(dev, BPFDRV_JOB_BO(ring, 1), 0, buf,\n"
"\t\t\t\t       sizeof(buf))) {\n"
"\t\treturn -EINVAL;\t/* the job fails with EINVAL */\n"
"\t}\n"
"\treturn bpfdrv_job_done(dev, ring, seqno, 0);\n"
"}\n"
"\n";

static const char ops_accel[] =
"\t.accel = 1,\n"
"\t.accel_rings = 1,\n"
"\t.accel_va_bits = 32,\t/* VMs of 4 GiB of device addresses */\n"
"\t.accel_run_job = (void *)@N@_run_job,\n";

/* sleepable: the PCI and GPIO kfuncs may sleep */
static const char driver_ioctl[] =
"/*\n"
" * .s: sleepable. ioctl runs in the caller's process, and the PCI, GPIO,\n"
" * I2C and SPI kfuncs may sleep; the verifier refuses them elsewhere.\n"
" */\n"
"SEC(\"struct_ops.s/@N@_ioctl\")\n"
"int BPF_PROG(@N@_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,\n"
"\t     unsigned int cmd, struct bpfdrv_io *io)\n"
"{\n"
"\tstruct @N@_state *s = state();\n"
"\tstruct @N@_info info = {};\n"
"\tint ret;\n"
"\n"
"\tif (cmd != @U@_IOC_INFO)\n"
"\t\treturn -ENOTTY;\n"
"\tif (!s)\n"
"\t\treturn -EIO;\n"
"\tinfo.len = s->len;\n"
"\tret = @N@_hw(dev, &info.hw);\n"
"\tif (ret)\n"
"\t\treturn ret;\n"
"\treturn bpfdrv_io_store(io, 0, &info, sizeof(info));\n"
"}\n"
"\n"
"/* named after the driver: bpftool pins the link under this name */\n"
"SEC(\".struct_ops.link\")\n"
"struct chr_ext_ops @N@ = {\n"
"\t.read = (void *)@N@_read,\n"
"\t.write = (void *)@N@_write,\n"
"\t.ioctl = (void *)@N@_ioctl,\n"
"\t.name = \"@N@\",\n"
"\t.abi_version = BPFDRV_ABI_VERSION,\n"
"\t.flags = BPFDRV_F_SEEKABLE,\n"
"\t.mode = 0600,\n";

static const char header[] =
"/* SPDX-License-Identifier: GPL-2.0 */\n"
"/* What @N@.bpf.c shares with user space. */\n"
"#ifndef __@U@_H\n"
"#define __@U@_H\n"
"\n"
"#include <linux/ioctl.h>\n"
"#include <linux/types.h>\n"
"\n"
"#define @U@_BUF\t256\n"
"#define @U@_JOB_BYTES\t64\t/* what a job copies, with --accel */\n"
"\n"
"struct @N@_info {\n"
"\t__u32 len;\t/* bytes stored */\n"
"\t__u32 hw;\t/* PCI vendor ID, GPIO level, or 0 */\n"
"};\n"
"\n"
"#define @U@_IOC_INFO\t_IOR('B', 1, struct @N@_info)\n"
"\n"
"#endif\n";

static const char makefile[] =
"# Builds @N@.bpf.o and test-@N@ against bpfdrv's headers.\n"
"#   make BPFDRV_INCLUDE=<bpfdrv>/include    if they are elsewhere\n"
"BPFDRV_INCLUDE ?= @I@\n"
"CC ?= cc\n"
"CLANG ?= clang\n"
"MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)\n"
"\n"
"all: @N@.bpf.o test-@N@\n"
"\n"
"@N@.bpf.o: @N@.bpf.c @N@.h\n"
"\t$(CLANG) -O2 -g -target bpf -Wall -I$(BPFDRV_INCLUDE) \\\n"
"\t\t$(if $(MULTIARCH),-I/usr/include/$(MULTIARCH)) -c $< -o $@\n"
"\n"
"test-@N@: test-@N@.c @N@.h\n"
"\t$(CC) -O2 -Wall -I$(BPFDRV_INCLUDE) -o $@ $<\n"
"\n"
"# every kernel bpfdrv tests, each booted once in a VM: this directory's\n"
"# drivers loaded and their tests run there (root). bpfdrv-ci comes with\n"
"# bpfdrv-dev; a bpfdrv source tree's make vm-check does the same.\n"
"BPFDRV_TREE ?= $(abspath $(BPFDRV_INCLUDE)/..)\n"
"check:\n"
"\t@if command -v bpfdrv-ci >/dev/null; then bpfdrv-ci $(CURDIR); \\\n"
"\telif test -f $(BPFDRV_TREE)/selftests/vm/run.sh; then \\\n"
"\t\t$(MAKE) -C $(BPFDRV_TREE) vm-build vm-check DRIVERS=$(CURDIR); \\\n"
"\telse echo 'install bpfdrv-dev (bpfdrv-ci), or set BPFDRV_TREE'; exit 1; fi\n"
"\n"
"clean:\n"
"\trm -f @N@.bpf.o test-@N@\n"
"\n"
".PHONY: all check clean\n";

static const char test_prog[] =
"// SPDX-License-Identifier: GPL-2.0\n"
"/*\n"
" * test-@N@: exercises /dev/bpfdrv/@N@ (load the driver first); prints\n"
" * TAP lines and exits non-zero if a check fails.\n"
" */\n"
"#include <fcntl.h>\n"
"#include <stdio.h>\n"
"#include <string.h>\n"
"#include <sys/ioctl.h>\n"
"#include <unistd.h>\n"
"\n"
"#include \"@N@.h\"\n"
"\n"
"static int n, failed;\n"
"\n"
"static void check(int cond, const char *what)\n"
"{\n"
"\tprintf(\"%sok %d - %s\\n\", cond ? \"\" : \"not \", ++n, what);\n"
"\tfailed += !cond;\n"
"}\n"
"\n";

static const char test_main[] =
"/* usage: test-@N@ [DEVICE]; a PCI driver's first instance is @N@0 */\n"
"int main(int argc, char **argv)\n"
"{\n"
"\tconst char *path = argc > 1 ? argv[1] : \"/dev/bpfdrv/@N@\";\n"
"\tconst char msg[] = \"hello, @N@\";\n"
"\tstruct @N@_info info = {};\n"
"\tchar buf[@U@_BUF] = \"\";\n"
"\tint fd = open(path, O_RDWR);\n"
"\n"
"\tif (fd < 0 && argc == 1)\n"
"\t\tfd = open(path = \"/dev/bpfdrv/@N@0\", O_RDWR);\n"
"\tif (fd < 0) {\n"
"\t\tperror(path);\n"
"\t\treturn 1;\n"
"\t}\n"
"\tcheck(write(fd, msg, strlen(msg)) == (ssize_t)strlen(msg), \"write\");\n"
"\tcheck(pread(fd, buf, sizeof(buf), 0) == (ssize_t)strlen(msg) &&\n"
"\t      !memcmp(buf, msg, strlen(msg)), \"read it back\");\n"
"\tcheck(pread(fd, buf, 3, 2) == 3 && !memcmp(buf, msg + 2, 3),\n"
"\t      \"read part of it at an offset\");\n"
"\tcheck(ioctl(fd, @U@_IOC_INFO, &info) == 0 && info.len == strlen(msg),\n"
"\t      \"@U@_IOC_INFO reports the length\");\n"
"\tprintf(\"# hw: %#x\\n\", info.hw);\n"
"@A@"
"\tprintf(\"%d passed, %d failed\\n\", n - failed, failed);\n"
"\treturn failed ? 1 : 0;\n"
"}\n";

/* --accel: the test finds the accel node and runs a job through it */
static const char test_accel_fn[] =
"\n"
"#include <stdint.h>\n"
"#include <sys/mman.h>\n"
"#include <time.h>\n"
"#include <drm/drm.h>\n"
"\n"
"#include \"bpfdrv_accel.h\"\n"
"\n"
"/* The accel node whose DRM driver is @N@ (its first instance's). */\n"
"static int accel_open(void)\n"
"{\n"
"\tchar path[32], name[64];\n"
"\tint i, fd;\n"
"\n"
"\tfor (i = 0; i < 64; i++) {\n"
"\t\tstruct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };\n"
"\n"
"\t\tsnprintf(path, sizeof(path), \"/dev/accel/accel%d\", i);\n"
"\t\tfd = open(path, O_RDWR);\n"
"\t\tif (fd < 0)\n"
"\t\t\tcontinue;\n"
"\t\tmemset(name, 0, sizeof(name));\n"
"\t\tif (!ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, \"@N@\"))\n"
"\t\t\treturn fd;\n"
"\t\tclose(fd);\n"
"\t}\n"
"\treturn -1;\n"
"}\n"
"\n"
"/* A buffer of 4 KiB, mapped; NULL if that failed. */\n"
"static unsigned char *accel_buffer(int fd, __u32 *handle)\n"
"{\n"
"\tstruct drm_bpfdrv_bo_create bo = { .size = 4096 };\n"
"\tstruct drm_bpfdrv_bo_info info = {};\n"
"\tvoid *p;\n"
"\n"
"\tif (ioctl(fd, DRM_IOCTL_BPFDRV_BO_CREATE, &bo))\n"
"\t\treturn NULL;\n"
"\tinfo.handle = *handle = bo.handle;\n"
"\tif (ioctl(fd, DRM_IOCTL_BPFDRV_BO_INFO, &info))\n"
"\t\treturn NULL;\n"
"\tp = mmap(NULL, info.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,\n"
"\t\t info.mmap_offset);\n"
"\treturn p == MAP_FAILED ? NULL : p;\n"
"}\n"
"\n"
"static void accel_test(void)\n"
"{\n"
"\tconst char msg[@U@_JOB_BYTES] = \"a job of @N@\";\n"
"\tstruct drm_bpfdrv_get_param rings = { .param = BPFDRV_ACCEL_PARAM_RINGS };\n"
"\tstruct drm_bpfdrv_submit sub = { .nr_bos = 2 };\n"
"\tstruct drm_syncobj_create sync = {};\n"
"\tstruct drm_syncobj_timeline_wait wait = { .count_handles = 1 };\n"
"\tstruct drm_bpfdrv_vm_create vm = {};\n"
"\tstruct drm_bpfdrv_vm_bind bind = { .op = BPFDRV_VM_BIND_MAP, .range = 4096 };\n"
"\t__u64 point = 1, va[2] = { 0x100000, 0x200000 };\n"
"\tint bound;\n"
"\tunsigned char *in, *out;\n"
"\tstruct timespec now;\n"
"\tint fd = accel_open();\n"
"\n"
"\tcheck(fd >= 0, \"its accel node, whose driver DRM names @N@\");\n"
"\tif (fd < 0)\n"
"\t\treturn;\n"
"\tcheck(!ioctl(fd, DRM_IOCTL_BPFDRV_GET_PARAM, &rings) && rings.value == 1,\n"
"\t      \"GET_PARAM: it has one ring\");\n"
"\tin = accel_buffer(fd, &sub.bos[0]);\n"
"\tout = accel_buffer(fd, &sub.bos[1]);\n"
"\tcheck(in && out && !ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &sync),\n"
"\t      \"two buffers, mapped, and a syncobj\");\n"
"\tif (!in || !out)\n"
"\t\treturn;\n"
"\tmemcpy(in, msg, sizeof(msg));\n"
"\t/* a timeline syncobj: the job's fence becomes its point 1 */\n"
"\tsub.out_syncobj = sync.handle;\n"
"\tsub.out_point = point;\n"
"\twait.handles = (uintptr_t)&sync.handle;\n"
"\twait.points = (uintptr_t)&point;\n"
"\twait.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;\n"
"\tclock_gettime(CLOCK_MONOTONIC, &now);\n"
"\twait.timeout_nsec = (now.tv_sec + 5) * 1000000000LL + now.tv_nsec;\n"
"\tcheck(!ioctl(fd, DRM_IOCTL_BPFDRV_SUBMIT, &sub) &&\n"
"\t      !ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &wait) &&\n"
"\t      !memcmp(out, msg, sizeof(msg)),\n"
"\t      \"a job copies the first buffer into the second\");\n"
"\t/* a VM: both buffers bound at device addresses, a job in it */\n"
"\tcheck(!ioctl(fd, DRM_IOCTL_BPFDRV_VM_CREATE, &vm), \"a VM\");\n"
"\tbind.vm_id = vm.vm_id;\n"
"\tbind.handle = sub.bos[0];\n"
"\tbind.addr = va[0];\n"
"\tbound = !ioctl(fd, DRM_IOCTL_BPFDRV_VM_BIND, &bind);\n"
"\tbind.handle = sub.bos[1];\n"
"\tbind.addr = va[1];\n"
"\tcheck(bound && !ioctl(fd, DRM_IOCTL_BPFDRV_VM_BIND, &bind),\n"
"\t      \"both buffers bound in it\");\n"
"\tmemset(out, 0, sizeof(msg));\n"
"\tsub.nr_bos = 0;\n"
"\tsub.vm_id = vm.vm_id;\n"
"\tsub.arg_len = sizeof(va);\n"
"\tmemcpy(sub.arg, va, sizeof(va));\n"
"\tpoint = 2;\n"
"\tsub.out_point = point;\n"
"\tclock_gettime(CLOCK_MONOTONIC, &now);\n"
"\twait.timeout_nsec = (now.tv_sec + 5) * 1000000000LL + now.tv_nsec;\n"
"\tcheck(!ioctl(fd, DRM_IOCTL_BPFDRV_SUBMIT, &sub) &&\n"
"\t      !ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &wait) &&\n"
"\t      !memcmp(out, msg, sizeof(msg)),\n"
"\t      \"a job in the VM copies from one of its addresses to the other\");\n"
"\tclose(fd);\n"
"}\n"
"\n";

static bool new_accel;	/* --accel: what @A@ stands for */

/* Write @tmpl to @path, with @N@, @U@, @I@ and @A@ replaced. */
static int emit(const char *dir, const char *file, const char *tmpl,
		const char *name, const char *mode)
{
	char path[PATH_MAX], upper[BPFDRV_NAME_MAX];
	const char *p;
	size_t i;
	FILE *f;

	for (i = 0; name[i] && i < sizeof(upper) - 1; i++)
		upper[i] = toupper((unsigned char)name[i]);
	upper[i] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, mode);
	if (!f) {
		err("cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	for (p = tmpl; *p; p++) {
		if (p[0] == '@' && p[1] && p[2] == '@') {
			if (p[1] == 'A') {
				if (new_accel)
					fputs("\taccel_test();\n", f);
				p += 2;
				continue;
			}
			if (p[1] == 'N' || p[1] == 'U' || p[1] == 'I') {
				fputs(p[1] == 'N' ? name : p[1] == 'U' ? upper :
				      BPFDRV_INCLUDE_DIR, f);
				p += 2;
				continue;
			}
		}
		fputc(*p, f);
	}
	return fclose(f) ? -1 : 0;
}

/* --ci: a CI workflow that runs bpfdrv-ci on the repository */
static const char ci_workflow[] =
"# CI for the drivers of this repository: bpfdrv-ci builds them, then loads\n"
"# each and runs its test-NAME on every kernel bpfdrv tests (Debian's\n"
"# kernels, each booted under QEMU), and fails if any check fails.\n"
"#\n"
"# The job runs in a Debian container: bpfdrv-ci builds a Debian root with\n"
"# debootstrap, from the mirror of the container's apt configuration (or\n"
"# BPFDRV_MIRROR), and needs mounts and chroot (a privileged container).\n"
"# BPFDRV_DEV_DEB names the bpfdrv-dev package to install: set it as a\n"
"# repository variable (a file in the repository, or a URL your CI reaches).\n"
"name: bpfdrv\n"
"on: [push, pull_request]\n"
"jobs:\n"
"  kernels:\n"
"    runs-on: ubuntu-latest\n"
"    container:\n"
"      image: debian:bookworm\n"
"      options: --privileged\n"
"    env:\n"
"      BPFDRV_DEV_DEB: ${{ vars.BPFDRV_DEV_DEB }}\n"
"    steps:\n"
"      - uses: actions/checkout@v4\n"
"      - name: bpfdrv-dev\n"
"        run: |\n"
"          apt-get update -q\n"
"          case $BPFDRV_DEV_DEB in\n"
"          http*) apt-get install -y -q curl && curl -fsSLo /tmp/dev.deb \"$BPFDRV_DEV_DEB\" &&\n"
"                 BPFDRV_DEV_DEB=/tmp/dev.deb;;\n"
"          esac\n"
"          apt-get install -y -q make debootstrap \"$(realpath \"$BPFDRV_DEV_DEB\")\"\n"
"      - name: every kernel\n"
"        run: bpfdrv-ci .\n"
"      - uses: actions/cache@v4\n"
"        with:\n"
"          path: ~/.cache/bpfdrv\n"
"          key: bpfdrv-roots-${{ hashFiles('**/Makefile') }}\n";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bpfdrv new NAME [--pci VENDOR:DEVICE | --gpio CHIP:LINE] [--accel] [--ci] [-o DIR]\n"
		"  writes NAME.bpf.c, NAME.h, test-NAME.c and a Makefile to DIR\n"
		"  (default: ./NAME); NAME is a C identifier of at most %d characters.\n"
		"  --accel makes it a DRM accelerator too (/dev/accel/accelN) with a ring\n"
		"  whose jobs copy their first buffer into their second\n"
		"  --ci also writes .github/workflows/bpfdrv.yml, a CI job that runs\n"
		"  bpfdrv-ci (bpfdrv-dev): the drivers and their tests on every kernel\n"
		"  -h, --help  this help\n",
		BPFDRV_PCI_NAME_MAX);
}

int cmd_new(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pci", required_argument, NULL, 'p' },
		{ "gpio", required_argument, NULL, 'g' },
		{ "ci", no_argument, NULL, 'c' },
		{ "accel", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *pci = NULL, *gpio = NULL, *dir = NULL, *name;
	unsigned int vendor, device, line;
	char chip[BPFDRV_GPIO_LABEL_MAX], file[BPFDRV_NAME_MAX + 16], extra[1024];
	int c, i, failed;
	bool ci = false;
	char *ops;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			pci = optarg;
			break;
		case 'g':
			gpio = optarg;
			break;
		case 'o':
			dir = optarg;
			break;
		case 'c':
			ci = true;
			break;
		case 'a':
			new_accel = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1 || (pci && gpio)) {
		usage(stderr);
		return 2;
	}
	name = argv[optind];
	for (i = 0; name[i]; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_')
			break;
	if (name[i] || !isalpha((unsigned char)name[0]) ||
	    i > BPFDRV_PCI_NAME_MAX) {
		err("'%s' cannot name a driver skeleton: use a C identifier of at most %d characters",
		    name, BPFDRV_PCI_NAME_MAX);
		return 1;
	}
	extra[0] = '\0';
	if (pci) {
		if (sscanf(pci, "%x:%x", &vendor, &device) != 2 ||
		    vendor > 0xffff || device > 0xffff) {
			err("--pci wants VENDOR:DEVICE in hex, as lspci -n prints (e.g. 1234:11e8)");
			return 1;
		}
		snprintf(extra, sizeof(extra),
			 "\t.pci_ids = { { 0x%04x, 0x%04x } },\n"
			 "\t/*\n"
			 "\t * Its interrupts: .irq (sleepable) and/or .irq_hard, each\n"
			 "\t * (dev, vector). One vector unless it asks for more\n"
			 "\t * (ABI 13, MSI-X or MSI; docs/pci.md), e.g.\n"
			 "\t * .irq_vectors_min = 1, .irq_vectors_max = 4,\n"
			 "\t */\n", vendor, device);
	} else if (gpio) {
		const char *colon = strrchr(gpio, ':');

		if (!colon || colon == gpio ||
		    (size_t)(colon - gpio) >= sizeof(chip) ||
		    sscanf(colon + 1, "%u", &line) != 1) {
			err("--gpio wants CHIP:LINE, the chip's label as gpiodetect prints it and a line offset");
			return 1;
		}
		snprintf(chip, sizeof(chip), "%.*s", (int)(colon - gpio), gpio);
		snprintf(extra, sizeof(extra),
			 "\t.gpio_chip = \"%s\",\n"
			 "\t.gpio_lines = { { .offset = %u, .flags = BPFDRV_GPIO_IN } },\n",
			 chip, line);
	}
	if (new_accel)
		strncat(extra, ops_accel, sizeof(extra) - strlen(extra) - 1);
	if (!dir)
		dir = name;
	if (mkdir(dir, 0755) && errno != EEXIST) {
		err("cannot make %s: %s", dir, strerror(errno));
		return 1;
	}
	snprintf(file, sizeof(file), "%s/%s.bpf.c", dir, name);
	if (!access(file, F_OK)) {
		err("%s exists: bpfdrv new never overwrites a driver", file);
		return 1;
	}
	/* the ops end with what the driver serves */
	if (asprintf(&ops, "%s%s};\n", driver_ioctl, extra) < 0)
		return 1;
	snprintf(file, sizeof(file), "%s.bpf.c", name);
	failed = emit(dir, file, driver_head, name, "w") ||
		 emit(dir, file, pci ? hw_pci : gpio ? hw_gpio : hw_none, name, "a") ||
		 (new_accel && emit(dir, file, driver_job, name, "a")) ||
		 emit(dir, file, ops, name, "a");
	free(ops);
	snprintf(file, sizeof(file), "%s.h", name);
	failed = failed || emit(dir, file, header, name, "w");
	snprintf(file, sizeof(file), "test-%s.c", name);
	failed = failed || emit(dir, file, test_prog, name, "w") ||
		 (new_accel && emit(dir, file, test_accel_fn, name, "a")) ||
		 emit(dir, file, test_main, name, "a") ||
		 emit(dir, "Makefile", makefile, name, "w");
	if (!failed && ci) {
		char wf[PATH_MAX];

		snprintf(wf, sizeof(wf), "%s/.github", dir);
		mkdir(wf, 0755);
		snprintf(wf, sizeof(wf), "%s/.github/workflows", dir);
		mkdir(wf, 0755);
		failed = emit(wf, "bpfdrv.yml", ci_workflow, name, "w");
	}
	if (failed)
		return 1;
	printf("%s/: %s.bpf.c %s.h test-%s.c Makefile%s\n", dir, name, name, name,
	       ci ? " .github/workflows/bpfdrv.yml" : "");
	printf("build: make -C %s; load: bpfdrv load --pin %s/%s.bpf.o; test: %s/test-%s\n",
	       dir, dir, name, dir, name);
	return 0;
}
