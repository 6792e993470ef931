# SPDX-License-Identifier: GPL-2.0
#
# make            build the module (against KDIR), the BPF drivers and bpfdrv
# make test       build everything for each kernel of the matrix and run the
#                 selftests in VMs (sets up its own Debian root; needs root);
#                 KERNELS=newest: the quick run, on the newest kernel only
# make demo       boot a VM and show a driver attaching and data flowing
# make bench      bpfdrv against a native module and CUSE in one VM boot;
#                 results in build/bench/
# make kmod       only the module; KDIR=<kernel build dir>, KREL=<its release>

BUILD	?= build
KREL	?= $(shell uname -r)
KDIR	?= /lib/modules/$(KREL)/build
CC	?= gcc
CLANG	?= clang
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)

CFLAGS	?= -O2 -g
CFLAGS	+= -Wall -Wextra -Wno-unused-parameter -Iinclude
BPF_CFLAGS := -O2 -g -target bpf -Wall -Iinclude \
	      $(if $(MULTIARCH),-I/usr/include/$(MULTIARCH))

BPF_DRIVERS := $(patsubst bpf-drivers/%.bpf.c,$(BUILD)/bpf/%.bpf.o,$(wildcard bpf-drivers/*.bpf.c))
BPF_TESTS := $(patsubst selftests/progs/%.bpf.c,$(BUILD)/selftests/%.bpf.o,$(wildcard selftests/progs/*.bpf.c))
HOSTILE := $(patsubst selftests/hostile/%.bpf.c,$(BUILD)/selftests/hostile/%.bpf.o,$(wildcard selftests/hostile/*.bpf.c))
TEST_PROGS := $(patsubst selftests/%.c,$(BUILD)/selftests/%,$(wildcard selftests/test_*.c))
BENCH_PROGS := $(patsubst selftests/%.c,$(BUILD)/selftests/%,$(wildcard selftests/bench/*.c))
HEADERS := $(wildcard include/*.h)
# Driver skeletons from bpfdrv new, built as a user would (selftests load them).
SKELETONS := $(BUILD)/new/skel/skel.bpf.o $(BUILD)/new/skelpci/skelpci.bpf.o \
	     $(BUILD)/new/skelgpio/skelgpio.bpf.o
# Live-update fixtures: example drivers built as other versions of themselves.
UPDATE_FIXTURES := $(addprefix $(BUILD)/selftests/update/,echo_v2.bpf.o \
		   echo_layout2.bpf.o fifo_v2.bpf.o edu_v2.bpf.o id_mode.bpf.o \
		   id_flags.bpf.o id_ids.bpf.o id_noirq.bpf.o)
# ABI fixtures: drivers built with the frozen headers of each ABI version.
ABI_FIXTURES := $(patsubst selftests/abi/%.bpf.c,$(BUILD)/selftests/abi/%.bpf.o,\
		$(wildcard selftests/abi/*.bpf.c selftests/abi/v*/*.bpf.c))

.PHONY: all bpf user kmod selftests test demo bench vm vm-start vm-run vm-stop clean
all: bpf user kmod

bpf: $(BPF_DRIVERS)
user: $(BUILD)/user/bpfdrv
selftests: $(BPF_TESTS) $(HOSTILE) $(TEST_PROGS) $(BENCH_PROGS) $(SKELETONS) \
	   $(UPDATE_FIXTURES) $(ABI_FIXTURES)

$(BUILD)/bpf/%.bpf.o: bpf-drivers/%.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/selftests/%.bpf.o: selftests/progs/%.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/selftests/update/echo_v2.bpf.o: VARIANT := -DECHO_VERSION=2
$(BUILD)/selftests/update/echo_layout2.bpf.o: VARIANT := -DECHO_VERSION=3 -DECHO_STATE_LAYOUT=2
$(BUILD)/selftests/update/fifo_v2.bpf.o: VARIANT := -DFIFO_VERSION=2
$(BUILD)/selftests/update/edu_v2.bpf.o: VARIANT := -DEDU_VERSION=2
$(BUILD)/selftests/update/id_mode.bpf.o: VARIANT := -DCHANGE_MODE
$(BUILD)/selftests/update/id_flags.bpf.o: VARIANT := -DCHANGE_FLAGS
$(BUILD)/selftests/update/id_ids.bpf.o: VARIANT := -DCHANGE_IDS
$(BUILD)/selftests/update/id_noirq.bpf.o: VARIANT := -DDROP_IRQ
$(BUILD)/selftests/update/id_%.bpf.o: selftests/progs/upd_identity.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) $(VARIANT) -c $< -o $@
$(BUILD)/selftests/update/%.bpf.o: $(wildcard bpf-drivers/*.bpf.c) $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) $(VARIANT) -c bpf-drivers/$(firstword $(subst _, ,$*)).bpf.c -o $@

# A versioned fixture includes its own directory's headers only (quoted
# includes look there first, and -Iinclude is left out).
$(BUILD)/selftests/abi/v%.bpf.o: selftests/abi/v%.bpf.c
	@mkdir -p $(@D)
	$(CLANG) $(filter-out -Iinclude,$(BPF_CFLAGS)) -c $< -o $@

$(BUILD)/selftests/abi/%.bpf.o: selftests/abi/%.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

# The hostile-driver corpus: objects the kernel must refuse (selftests/hostile).
$(BUILD)/selftests/hostile/%.bpf.o: selftests/hostile/%.bpf.c selftests/hostile/hostile.h $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

# The tracing programs (user/*.bpf.c) are CO-RE: they are compiled against a
# vmlinux.h dumped from a kernel's BTF at build time (the headers package's
# BTF-only vmlinux, else the running kernel's) and relocated when loaded.
VMLINUX_BTF ?= $(firstword $(wildcard /usr/src/linux-headers-*-amd64/vmlinux) \
		 /sys/kernel/btf/vmlinux)
BPFTOOL ?= bpftool
LLVM_STRIP ?= llvm-strip
USER_SRCS := $(filter-out %.bpf.c,$(wildcard user/*.c))
USER_SKELS := $(patsubst user/%.bpf.c,$(BUILD)/user/%.skel.h,$(wildcard user/*.bpf.c))

$(BUILD)/user/vmlinux.h:
	@mkdir -p $(@D)
	$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c >$@.tmp && mv $@.tmp $@

$(BUILD)/user/%.bpf.o: user/%.bpf.c user/trace.h $(BUILD)/user/vmlinux.h
	$(CLANG) -O2 -g -target bpf -Wall -D__TARGET_ARCH_x86 -I$(BUILD)/user -Iuser \
		-c $< -o $@

# The skeleton embeds the object: without DWARF it is a few ten kB, not a MB.
$(BUILD)/user/%.skel.h: $(BUILD)/user/%.bpf.o
	$(LLVM_STRIP) -g -o $(@:.skel.h=.stripped.o) $<
	$(BPFTOOL) gen skeleton $(@:.skel.h=.stripped.o) name $(*F)_bpf >$@.tmp && mv $@.tmp $@

$(BUILD)/user/bpfdrv: $(USER_SRCS) $(wildcard user/*.h) $(USER_SKELS) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iuser -I$(BUILD)/user \
		-DBPFDRV_INCLUDE_DIR='"$(abspath include)"' $(USER_SRCS) -o $@ \
		$(shell pkg-config --libs libbpf 2>/dev/null || echo -lbpf)

$(BUILD)/new/skel/skel.bpf.o: NEW_ARGS :=
$(BUILD)/new/skelpci/skelpci.bpf.o: NEW_ARGS := --pci 1234:11e8
$(BUILD)/new/skelgpio/skelgpio.bpf.o: NEW_ARGS := --gpio bpfdrv-loopback:0
$(BUILD)/new/%.bpf.o: $(BUILD)/user/bpfdrv $(HEADERS)
	rm -rf $(@D) && mkdir -p $(BUILD)/new
	$(BUILD)/user/bpfdrv new $(notdir $(@D)) $(NEW_ARGS) -o $(@D) >/dev/null
	$(MAKE) -s -C $(@D) CC=$(CC) CLANG=$(CLANG)

$(BUILD)/selftests/%: selftests/%.c selftests/tap.h $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iselftests $< -o $@ -lpthread

$(BUILD)/selftests/test_caps: selftests/test_caps.c selftests/tap.h $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iselftests $< -o $@ \
		$(shell pkg-config --libs libbpf 2>/dev/null || echo -lbpf)

$(BUILD)/selftests/bench/cuse_echo: selftests/bench/cuse_echo.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(shell pkg-config --cflags fuse3 2>/dev/null) $< -o $@ \
		$(shell pkg-config --libs fuse3 2>/dev/null || echo -lfuse3) -lpthread

# kbuild writes next to the sources, so each kernel gets its own copy.
KOUT := $(BUILD)/kbuild/$(KREL)
kmod:
	@mkdir -p $(KOUT)/selftests
	@cp -r Kbuild kmod include $(KOUT)/
	@cp -r selftests/kmods $(KOUT)/selftests/
	$(MAKE) -C $(KDIR) M=$(abspath $(KOUT)) modules
	@echo "module: $(KOUT)/kmod/bpfdrv.ko"

# KERNELS="newest", "oldest" or releases: a part of the matrix
# (BPFDRV_KERNELS); PARTS="core pci ...": a part of the suite (BPFDRV_PARTS)
test:
	$(if $(KERNELS),BPFDRV_KERNELS="$(KERNELS)") \
		$(if $(PARTS),BPFDRV_PARTS="$(PARTS)") selftests/vm/run.sh test

demo:
	selftests/vm/run.sh demo

bench:
	selftests/vm/run.sh bench

export CMD
# Development: a kernel of the matrix with the project at /src and
# DRIVERS=dir at /drivers; vm opens a shell, vm-start runs in the
# background for vm-run CMD='...' and vm-stop.
vm vm-start:
	$(if $(DRIVERS),BPFDRV_DRIVERS="$(DRIVERS)") \
		$(if $(KERNEL),BPFDRV_KERNELS="$(KERNEL)") selftests/vm/run.sh $@

vm-run:
	selftests/vm/session.sh run "$$CMD"

vm-stop:
	selftests/vm/session.sh stop

clean:
	rm -rf $(BUILD)
