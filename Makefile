# SPDX-License-Identifier: GPL-2.0
#
# make            build the module (against KDIR), the BPF drivers and bpfdrv
# make test       build everything for each kernel of the matrix and run the
#                 selftests in VMs (sets up its own Debian root; needs root),
#                 then some lifetime parts on the debug kernel if time allows;
#                 KERNELS=newest: the quick run, on the newest kernel only
# make test-debug the lifetime parts on a KASAN and lockdep kernel, built
#                 once from Debian's source (about 11 minutes) and cached
# make fuzz       the system-call fuzzer on that kernel (FUZZ_MINUTES=10)
# make demo       boot a VM and show a driver attaching and data flowing
# make bench      bpfdrv against a native module and CUSE in one VM boot;
#                 results in build/bench/
# make kmod       only the module; KDIR=<kernel build dir>, KREL=<its release>
# make deb        the Debian packages (bpfdrv-dkms, bpfdrv, bpfdrv-dev), built
#                 in the Debian root; results in build/deb/
# make install    the tool, drivers, headers and module source (DESTDIR, PREFIX)
# make vm-start DRIVERS=dir, vm-run CMD=..., vm-stop: the development loop
# make vm-build DRIVERS=dir   build your drivers with the root's compiler
# make vm-check DRIVERS=dir   load them on every kernel of the matrix

BUILD	?= build
KREL	?= $(shell uname -r)
KDIR	?= /lib/modules/$(KREL)/build
CC	?= gcc
CLANG	?= clang
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)

VERSION	:= $(shell cat VERSION)
CFLAGS	?= -O2 -g
CFLAGS	+= -Wall -Wextra -Wno-unused-parameter -Iinclude
BPF_CFLAGS := -O2 -g -target bpf -Wall -Iinclude \
	      $(if $(MULTIARCH),-I/usr/include/$(MULTIARCH))

BPF_DRIVERS := $(patsubst bpf-drivers/%.bpf.c,$(BUILD)/bpf/%.bpf.o,$(wildcard bpf-drivers/*.bpf.c))
BPF_TESTS := $(patsubst selftests/progs/%.bpf.c,$(BUILD)/selftests/%.bpf.o,\
	     $(filter-out %/bad_accel.bpf.c %/bad_fw.bpf.c,$(wildcard selftests/progs/*.bpf.c)))
HOSTILE := $(patsubst selftests/hostile/%.bpf.c,$(BUILD)/selftests/hostile/%.bpf.o,$(wildcard selftests/hostile/*.bpf.c))
TEST_PROGS := $(patsubst selftests/%.c,$(BUILD)/selftests/%,$(wildcard selftests/test_*.c)) \
	      $(BUILD)/selftests/fuzz_sys
BENCH_PROGS := $(patsubst selftests/%.c,$(BUILD)/selftests/%,$(wildcard selftests/bench/*.c))
HEADERS := $(wildcard include/*.h)
# Driver skeletons from bpfdrv new, built as a user would (selftests load them).
SKELETONS := $(BUILD)/new/skel/skel.bpf.o $(BUILD)/new/skelpci/skelpci.bpf.o \
	     $(BUILD)/new/skelgpio/skelgpio.bpf.o $(BUILD)/new/skelaccel/skelaccel.bpf.o
# Live-update fixtures: example drivers built as other versions of themselves.
UPDATE_FIXTURES := $(addprefix $(BUILD)/selftests/update/,echo_v2.bpf.o \
		   echo_layout2.bpf.o fifo_v2.bpf.o edu_v2.bpf.o id_mode.bpf.o \
		   id_flags.bpf.o id_ids.bpf.o id_noirq.bpf.o timers_v2.bpf.o \
		   echo_takeloop.bpf.o takeback_fail.bpf.o)
# irqtest without its irq callback, and without irq_hard.
IRQ_FIXTURES := $(BUILD)/selftests/irqtest_nothread.bpf.o \
		$(BUILD)/selftests/irqtest_nohard.bpf.o \
		$(BUILD)/selftests/irqtest_initraise.bpf.o \
		$(patsubst %,$(BUILD)/selftests/msixtest_%.bpf.o,minmax max33 min16 upd nohard)
# the stall test's loops, nested to each depth below the default 8
LOOP_FIXTURES := $(foreach d,2 3 4 5 6 7,$(BUILD)/selftests/loop_depth_$(d).bpf.o) \
		 $(BUILD)/selftests/loop_led.bpf.o
# accelerator declarations refused at load (bad_accel.bpf.c)
ACCEL_BAD_CASES := name dup size dir gap noaccel nocb two rings norun runnorings \
		   dmanopci dmabits sleepjob sleeptimeout fencekfunc ringjobs \
		   ringjobsnorings sleepvmmap vmfencekfunc
ACCEL_FIXTURES := $(patsubst %,$(BUILD)/selftests/bad_accel_%.bpf.o,$(ACCEL_BAD_CASES)) \
		  $(BUILD)/selftests/accel_probe_long.bpf.o \
		  $(BUILD)/selftests/accel_probe_v2.bpf.o \
		  $(BUILD)/selftests/accel_probe_norings.bpf.o \
		  $(BUILD)/selftests/accel_probe_multi.bpf.o \
		  $(BUILD)/selftests/accel_probe_vm.bpf.o \
		  $(BUILD)/selftests/edu_accel32.bpf.o \
		  $(BUILD)/selftests/edu_accel1.bpf.o
# firmware declarations refused (bad_fw.bpf.c), and edu with its firmware
FW_BAD_CASES := dotdot slash hidden gap long space missing big sleep
FW_FIXTURES := $(patsubst %,$(BUILD)/selftests/bad_fw_%.bpf.o,$(FW_BAD_CASES)) \
	       $(BUILD)/selftests/edu_fw.bpf.o $(BUILD)/selftests/edu_pm.bpf.o \
	       $(BUILD)/selftests/edu_pmbig.bpf.o $(BUILD)/selftests/edu_pmmap.bpf.o \
	       $(BUILD)/selftests/fw_probe_nopci.bpf.o
# echo with its I/O through a kernel buffer, beside the direct one (make bench).
BENCH_FIXTURES := $(BUILD)/selftests/bench/echo_buffered.bpf.o
# ABI fixtures: drivers built with the frozen headers of each ABI version.
ABI_FIXTURES := $(patsubst selftests/abi/%.bpf.c,$(BUILD)/selftests/abi/%.bpf.o,\
		$(wildcard selftests/abi/*.bpf.c selftests/abi/v*/*.bpf.c))

.PHONY: all bpf user kmod selftests gen-drivers test test-debug fuzz demo bench vm vm-start vm-run vm-stop vm-build \
	vm-check clean \
	install install-tool install-dev install-dkms-src install-harness deb
all: bpf user kmod

bpf: $(BPF_DRIVERS)
user: $(BUILD)/user/bpfdrv
selftests: $(BPF_TESTS) $(HOSTILE) $(TEST_PROGS) $(BENCH_PROGS) $(SKELETONS) \
	   $(UPDATE_FIXTURES) $(ABI_FIXTURES) $(IRQ_FIXTURES) $(BENCH_FIXTURES) \
	   $(LOOP_FIXTURES) $(ACCEL_FIXTURES) $(FW_FIXTURES)

$(BUILD)/bpf/%.bpf.o: bpf-drivers/%.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/selftests/%.bpf.o: selftests/progs/%.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/selftests/irqtest_nothread.bpf.o: VARIANT := -DIRQT_NO_THREAD
$(BUILD)/selftests/irqtest_nohard.bpf.o: VARIANT := -DIRQT_NO_HARD
$(BUILD)/selftests/irqtest_initraise.bpf.o: VARIANT := -DIRQT_RAISE_IN_INIT
$(BUILD)/selftests/irqtest_%.bpf.o: selftests/progs/irqtest.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) $(VARIANT) -c $< -o $@

# msixtest's declarations: refused (min > max, max > 32, more vectors than
# igb has), another count (a refused update), and without irq_hard
$(BUILD)/selftests/msixtest_minmax.bpf.o: VARIANT := -DMSIXT_MIN=8 -DMSIXT_MAX=4
$(BUILD)/selftests/msixtest_max33.bpf.o: VARIANT := -DMSIXT_MIN=1 -DMSIXT_MAX=33
$(BUILD)/selftests/msixtest_min16.bpf.o: VARIANT := -DMSIXT_MIN=16 -DMSIXT_MAX=32
$(BUILD)/selftests/msixtest_upd.bpf.o: VARIANT := -DMSIXT_MIN=4 -DMSIXT_MAX=6
$(BUILD)/selftests/msixtest_nohard.bpf.o: VARIANT := -DMSIXT_NO_HARD
$(BUILD)/selftests/msixtest_%.bpf.o: selftests/progs/msixtest.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) $(VARIANT) -c $< -o $@

$(BUILD)/selftests/loop_depth_%.bpf.o: selftests/progs/loop_budget.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DLOOP_DEPTH=$* -c $< -o $@

$(BUILD)/selftests/loop_led.bpf.o: selftests/progs/loop_budget.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DLOOP_DEPTH=2 -DLOOP_LED -c $< -o $@

$(BUILD)/selftests/bench/echo_buffered.bpf.o: bpf-drivers/echo.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DECHO_BUFFERED -c $< -o $@

$(BUILD)/selftests/update/echo_v2.bpf.o: VARIANT := -DECHO_VERSION=2
$(BUILD)/selftests/update/echo_layout2.bpf.o: VARIANT := -DECHO_VERSION=3 -DECHO_STATE_LAYOUT=2
$(BUILD)/selftests/update/echo_takeloop.bpf.o: VARIANT := -DECHO_VERSION=4 -DECHO_TAKEOVER_LOOP
$(BUILD)/selftests/update/fifo_v2.bpf.o: VARIANT := -DFIFO_VERSION=2
$(BUILD)/selftests/update/edu_v2.bpf.o: VARIANT := -DEDU_VERSION=2
$(BUILD)/selftests/update/id_mode.bpf.o: VARIANT := -DCHANGE_MODE
$(BUILD)/selftests/update/id_flags.bpf.o: VARIANT := -DCHANGE_FLAGS
$(BUILD)/selftests/update/id_ids.bpf.o: VARIANT := -DCHANGE_IDS
$(BUILD)/selftests/update/id_noirq.bpf.o: VARIANT := -DDROP_IRQ
# timers whose callback counts a thousand a run: the update's code runs
$(BUILD)/selftests/update/timers_v2.bpf.o: selftests/progs/timers.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DTIMERS_STEP=1000 -c $< -o $@
# a takeover that fails on the second instance: the first is taken back
$(BUILD)/selftests/update/takeback_fail.bpf.o: selftests/progs/takeback.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DTAKEBACK_FAIL_SECOND -c $< -o $@
$(BUILD)/selftests/update/id_%.bpf.o: selftests/progs/upd_identity.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) $(VARIANT) -c $< -o $@
$(BUILD)/selftests/update/%.bpf.o: $(wildcard bpf-drivers/*.bpf.c) $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) $(VARIANT) -c bpf-drivers/$(firstword $(subst _, ,$*)).bpf.c -o $@

# accel_probe whose jobs wait a minute before they time out
$(BUILD)/selftests/accel_probe_long.bpf.o: selftests/progs/accel_probe.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DACCEL_PROBE_TIMEOUT_MS=60000 -c $< -o $@
# its update: STORE jobs set the top bit
$(BUILD)/selftests/accel_probe_v2.bpf.o: selftests/progs/accel_probe.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DACCEL_PROBE_TIMEOUT_MS=60000 -DACCEL_PROBE_V2 -c $< -o $@

# four jobs on a ring's device at once, each held up to 3 seconds
$(BUILD)/selftests/accel_probe_multi.bpf.o: selftests/progs/accel_probe.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DACCEL_PROBE_RING_JOBS=4 -DACCEL_PROBE_TIMEOUT_MS=3000 \
		-c $< -o $@

# with device address spaces: its page tables, jobs that walk a VM
$(BUILD)/selftests/accel_probe_vm.bpf.o: selftests/progs/accel_probe.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DACCEL_PROBE_VM -c $< -o $@

# an accelerator with the driver's ioctls and no rings
$(BUILD)/selftests/accel_probe_norings.bpf.o: selftests/progs/accel_probe.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DACCEL_PROBE_NO_RINGS -c $< -o $@

# edu_accel's queue hands the device over with atomics that return values
$(BUILD)/bpf/edu_accel.bpf.o $(BUILD)/selftests/edu_accel32.bpf.o \
$(BUILD)/selftests/edu_accel1.bpf.o $(BUILD)/selftests/abi/v10/edu_accel.bpf.o \
$(BUILD)/selftests/abi/v11/edu_accel.bpf.o: \
	BPF_CFLAGS += -mcpu=v3

# edu_accel for an edu whose DMA engine drives 32 address bits (swiotlb part)
$(BUILD)/selftests/edu_accel32.bpf.o: bpf-drivers/edu_accel.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DEDU_ACCEL_DMA_BITS=32 -c $< -o $@
# edu_accel with one job on the device at a time (make bench, the accel part)
$(BUILD)/selftests/edu_accel1.bpf.o: bpf-drivers/edu_accel.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DEDU_ACCEL_RING_JOBS=1 -c $< -o $@

$(BUILD)/selftests/bad_fw_%.bpf.o: selftests/progs/bad_fw.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DBAD_$* -c $< -o $@
# fwprobe without a PCI function: its copies have nowhere to go
$(BUILD)/selftests/fw_probe_nopci.bpf.o: selftests/progs/fw_probe.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DFWP_NO_PCI -c $< -o $@
$(BUILD)/selftests/edu_fw.bpf.o: bpf-drivers/edu.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DEDU_FIRMWARE -c $< -o $@
# edu with runtime PM (200 ms idle) and its failures to order (27-pm.sh)
$(BUILD)/selftests/edu_pm.bpf.o: bpf-drivers/edu.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DEDU_AUTOSUSPEND_MS=200 -c $< -o $@
$(BUILD)/selftests/edu_pmmap.bpf.o: bpf-drivers/edu.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DEDU_AUTOSUSPEND_MS=200 -DEDU_PM_BAR_WINDOW -c $< -o $@
$(BUILD)/selftests/edu_pmbig.bpf.o: bpf-drivers/edu.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DEDU_AUTOSUSPEND_MS=90000000 -c $< -o $@

# Accelerator declarations refused at load, one case each (bad_accel.bpf.c)
$(BUILD)/selftests/bad_accel_%.bpf.o: selftests/progs/bad_accel.bpf.c $(HEADERS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -DBAD_$* -DCASE=$* -c $< -o $@

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

# The tracing programs (user/trace/trace.bpf.c) are CO-RE: they are compiled
# against a vmlinux.h dumped from a kernel's BTF at build time (the headers
# package's BTF-only vmlinux, else the running kernel's) and relocated when
# loaded.
VMLINUX_BTF ?= $(firstword $(wildcard /usr/src/linux-headers-*-amd64/vmlinux) \
		 /sys/kernel/btf/vmlinux)
BPFTOOL ?= bpftool
LLVM_STRIP ?= llvm-strip
USER_SRCS := $(filter-out %.bpf.c,$(wildcard user/*.c user/trace/*.c))
USER_HDRS := $(wildcard user/*.h user/trace/*.h user/nvidia/*.h)
USER_SKELS := $(BUILD)/user/trace.skel.h $(BUILD)/user/trace_irqtp.skel.h

$(BUILD)/user/vmlinux.h:
	@mkdir -p $(@D)
	$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c >$@.tmp && mv $@.tmp $@

$(BUILD)/user/trace.bpf.o: user/trace/trace.bpf.c user/trace/trace.h include/bpfdrv_fop.h \
			  $(BUILD)/user/vmlinux.h
	$(CLANG) -O2 -g -target bpf -Wall -D__TARGET_ARCH_x86 -I$(BUILD)/user -Iinclude \
		$(TRACE_VARIANT) -c $< -o $@

# The tracing programs for kernels that cannot resolve percpu ksyms: they
# tell interrupt context from the irq tracepoints (the session picks one).
$(BUILD)/user/trace_irqtp.bpf.o: TRACE_VARIANT := -DTRACE_IRQ_FROM_TRACEPOINTS
$(BUILD)/user/trace_irqtp.bpf.o: user/trace/trace.bpf.c user/trace/trace.h include/bpfdrv_fop.h \
				 $(BUILD)/user/vmlinux.h
	$(CLANG) -O2 -g -target bpf -Wall -D__TARGET_ARCH_x86 -I$(BUILD)/user -Iinclude \
		$(TRACE_VARIANT) -c $< -o $@

# The skeleton embeds the object: without DWARF it is a few ten kB, not a MB.
$(BUILD)/user/%.skel.h: $(BUILD)/user/%.bpf.o
	$(LLVM_STRIP) -g -o $(@:.skel.h=.stripped.o) $<
	$(BPFTOOL) gen skeleton $(@:.skel.h=.stripped.o) name $(*F)_bpf >$@.tmp && mv $@.tmp $@

# STATIC_LIBBPF=1 (the packages): libbpf linked in, so that one binary
# runs on every Debian release the packages support, whatever its libbpf;
# user/compat/glibc.c keeps it off glibc symbols newer than bookworm's.
INCLUDE_DIR ?= $(abspath include)
ifeq ($(STATIC_LIBBPF),1)
USER_LIBS := -Wl,-Bstatic -lbpf -Wl,-Bdynamic -lelf -lz -lm
USER_COMPAT := user/compat/glibc.c
else
USER_LIBS := $(shell pkg-config --libs libbpf 2>/dev/null || echo -lbpf) -lm
endif

$(BUILD)/user/bpfdrv: $(USER_SRCS) $(USER_COMPAT) $(USER_HDRS) \
		      $(USER_SKELS) $(HEADERS) VERSION
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -Iuser -I$(BUILD)/user \
		-DBPFDRV_INCLUDE_DIR='"$(INCLUDE_DIR)"' \
		-DBPFDRV_VERSION='"$(VERSION)"' $(USER_SRCS) $(USER_COMPAT) -o $@ $(USER_LIBS)

$(BUILD)/new/skel/skel.bpf.o: NEW_ARGS :=
$(BUILD)/new/skelpci/skelpci.bpf.o: NEW_ARGS := --pci 1234:11e8
$(BUILD)/new/skelgpio/skelgpio.bpf.o: NEW_ARGS := --gpio bpfdrv-loopback:0
$(BUILD)/new/skelaccel/skelaccel.bpf.o: NEW_ARGS := --accel
$(BUILD)/new/%.bpf.o: $(BUILD)/user/bpfdrv $(HEADERS)
	rm -rf $(@D) && mkdir -p $(BUILD)/new
	$(BUILD)/user/bpfdrv new $(notdir $(@D)) $(NEW_ARGS) -o $(@D) >/dev/null
	$(MAKE) -s -C $(@D) CC=$(CC) CLANG=$(CLANG)

$(BUILD)/selftests/%: selftests/%.c selftests/tap.h $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iselftests $< -o $@ -lpthread

$(BUILD)/selftests/test_caps $(BUILD)/selftests/test_allow $(BUILD)/selftests/test_fmt_race \
$(BUILD)/selftests/test_beside: \
		$(BUILD)/selftests/%: selftests/%.c selftests/tap.h $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iselftests $< -o $@ \
		$(shell pkg-config --libs libbpf 2>/dev/null || echo -lbpf) -lpthread

$(BUILD)/selftests/test_fmt_race $(BUILD)/selftests/test_beside: selftests/datasec.h

# the tool built with ASan and UBSan, for the object fuzzer (fuzz_obj.py)
ASAN_CC := $(CC) -fsanitize=address,undefined -fno-omit-frame-pointer
$(BUILD)/asan/user/bpfdrv: $(USER_SRCS) $(USER_COMPAT) $(USER_HDRS) \
		$(HEADERS) VERSION
	$(MAKE) --no-print-directory BUILD=$(BUILD)/asan CC="$(ASAN_CC)" $@

# random drivers for the fuzz part (selftests/gen_driver.py); each compiles
# or the generator is wrong. GEN_SEED and GEN_COUNT name the set.
GEN_SEED ?= 20261129
GEN_COUNT ?= 16
GEN_DIR := $(BUILD)/selftests/gen
GEN_STAMP := $(GEN_DIR)/seed-$(GEN_SEED)-$(GEN_COUNT)
gen-drivers: $(GEN_STAMP)
$(GEN_STAMP): selftests/gen_driver.py $(HEADERS)
	rm -rf $(GEN_DIR)
	python3 selftests/gen_driver.py -n $(GEN_COUNT) -S $(GEN_SEED) -o $(GEN_DIR)
	for c in $(GEN_DIR)/*.bpf.c; do \
		$(CLANG) $(BPF_CFLAGS) -c $$c -o $${c%.c}.o || exit 1; \
	done
	touch $@

# the system-call fuzzer: DRM's UAPI headers come from libdrm
$(BUILD)/selftests/fuzz_sys: selftests/fuzz_sys.c selftests/fuzz_cover.c \
			     selftests/fuzz_cover.h selftests/tap.h $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iselftests $(shell pkg-config --cflags libdrm) \
		selftests/fuzz_sys.c selftests/fuzz_cover.c -o $@ -lpthread

# the timeline's flows through both writers, no kernel needed (trace-host.sh
# builds and runs it too, and checks its files with selftests/timeline.py)
TIMELINE_SRCS := user/trace/flows.c user/trace/timeline_proto.c user/trace/timeline_json.c
$(BUILD)/selftests/test_timeline_flows: selftests/test_timeline_flows.c $(TIMELINE_SRCS) \
					$(USER_HDRS) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iuser $< $(TIMELINE_SRCS) -o $@

# trace --top's fdinfo reader against malformed input (its own unit)
$(BUILD)/selftests/test_fdinfo_parse: selftests/test_fdinfo_parse.c user/trace/fdinfo.c \
				      user/trace/fdinfo.h selftests/tap.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iselftests $< user/trace/fdinfo.c -o $@

# the accelerator class's client is a libdrm one
$(BUILD)/selftests/test_accel: selftests/test_accel.c selftests/tap.h $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iselftests $(shell pkg-config --cflags libdrm) $< -o $@ \
		-lpthread $(shell pkg-config --libs libdrm)

$(BUILD)/selftests/bench/echobench $(BUILD)/selftests/bench/ioctlbench \
$(BUILD)/selftests/bench/ioloop: \
	selftests/bench/accel_job.h

$(BUILD)/selftests/bench/cuse_echo: selftests/bench/cuse_echo.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(shell pkg-config --cflags fuse3 2>/dev/null) $< -o $@ \
		$(shell pkg-config --libs fuse3 2>/dev/null || echo -lfuse3) -lpthread

# kbuild writes next to the sources, so each kernel gets its own copy; the
# copy keeps the sources' times, so an unchanged module is not rebuilt (a
# guest of a parallel test run may be loading it).
KOUT := $(BUILD)/kbuild/$(KREL)
kmod:
	@mkdir -p $(KOUT)/selftests
	@cp -r --preserve=timestamps Kbuild kmod include $(KOUT)/
	@cp -r --preserve=timestamps selftests/kmods $(KOUT)/selftests/
	$(MAKE) -C $(KDIR) M=$(abspath $(KOUT)) modules
	@echo "module: $(KOUT)/kmod/bpfdrv.ko"

# Installation, as the Debian packages lay it out (debian/rules). The module
# is not installed here: DKMS builds it from install-dkms-src's tree.
PREFIX	?= /usr
DRIVERS_DIR := $(PREFIX)/lib/bpfdrv/drivers
install: install-tool install-dev install-dkms-src

install-tool: $(BUILD)/user/bpfdrv $(BPF_DRIVERS)
	install -D -m 755 $(BUILD)/user/bpfdrv $(DESTDIR)$(PREFIX)/bin/bpfdrv
	install -d $(DESTDIR)$(DRIVERS_DIR)
	install -m 644 $(BPF_DRIVERS) $(DESTDIR)$(DRIVERS_DIR)/
	install -D -m 644 packaging/60-bpfdrv.rules \
		$(DESTDIR)$(PREFIX)/lib/udev/rules.d/60-bpfdrv.rules
	install -D -m 644 packaging/bpfdrv.service \
		$(DESTDIR)$(PREFIX)/lib/systemd/system/bpfdrv.service
	install -D -m 644 packaging/autoload.conf $(DESTDIR)/etc/bpfdrv/autoload.conf
	install -D -m 644 packaging/bpfdrv.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/bpfdrv

# Headers, a pkg-config file, and the driver bpfdrv new writes as the example.
install-dev: $(BUILD)/user/bpfdrv
	install -d $(DESTDIR)$(PREFIX)/include/bpfdrv
	install -m 644 $(HEADERS) $(DESTDIR)$(PREFIX)/include/bpfdrv/
	install -d $(DESTDIR)$(PREFIX)/share/pkgconfig
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
		-e "s|@ABI@|$$(awk '$$2 == "BPFDRV_ABI_VERSION" { print $$3 }' include/bpfdrv_abi.h)|" \
		packaging/bpfdrv.pc.in >$(DESTDIR)$(PREFIX)/share/pkgconfig/bpfdrv.pc
	rm -rf $(BUILD)/example && $(BUILD)/user/bpfdrv new hello --ci -o $(BUILD)/example >/dev/null
	install -d $(DESTDIR)$(PREFIX)/share/doc/bpfdrv-dev/examples/hello
	install -m 644 $(BUILD)/example/* $(DESTDIR)$(PREFIX)/share/doc/bpfdrv-dev/examples/hello/
	install -D -m 644 $(BUILD)/example/.github/workflows/bpfdrv.yml \
		$(DESTDIR)$(PREFIX)/share/doc/bpfdrv-dev/examples/hello/.github/workflows/bpfdrv.yml
	install -D -m 755 packaging/bpfdrv-ci $(DESTDIR)$(PREFIX)/bin/bpfdrv-ci
	$(MAKE) install-harness HARNESS=$(DESTDIR)$(PREFIX)/share/bpfdrv/harness

# What bpfdrv-ci runs: the sources of the module (with the test modules
# the guest loads), the tool and the drivers, and the VM harness (make
# vm-build, make vm-check).
HARNESS_FILES := Makefile Kbuild VERSION include kmod bpf-drivers user \
		 selftests/vm selftests/kmods
install-harness:
	install -d $(HARNESS)
	tar -cf - $(HARNESS_FILES) | tar -C $(HARNESS) -xf -

# The module's source as DKMS builds it: kmod/ and the ABI headers.
DKMS_SRC = $(DESTDIR)$(PREFIX)/src/bpfdrv-$(VERSION)
install-dkms-src:
	install -d $(DKMS_SRC)/kmod $(DKMS_SRC)/include
	install -m 644 kmod/Kbuild kmod/*.c kmod/*.h $(DKMS_SRC)/kmod/
	install -m 644 $(HEADERS) $(DKMS_SRC)/include/
	echo 'obj-m += kmod/' >$(DKMS_SRC)/Kbuild

# bpfdrv-dkms, bpfdrv and bpfdrv-dev in build/deb/, built in the Debian root
deb:
	selftests/vm/run.sh deb

# KERNELS="newest", "oldest" or releases: a part of the matrix
# (BPFDRV_KERNELS); PARTS="core pci ...": a part of the suite (BPFDRV_PARTS)
test:
	$(if $(KERNELS),BPFDRV_KERNELS="$(KERNELS)") \
		$(if $(PARTS),BPFDRV_PARTS="$(PARTS)") selftests/vm/run.sh test

# the lifetime parts on the KASAN and lockdep kernel, built once and cached
test-debug:
	BPFDRV_DEBUG_KERNEL=only $(if $(PARTS),BPFDRV_PARTS="$(PARTS)") \
		selftests/vm/run.sh test

# the system-call fuzzer on the KASAN and lockdep kernel: FUZZ_MINUTES
# (10) long, a new seed each run (FUZZ_SEED=n repeats one)
FUZZ_MINUTES ?= 10
fuzz:
	BPFDRV_DEBUG_KERNEL=only BPFDRV_PARTS=fuzz \
		BPFDRV_FUZZ_SECONDS=$$(($(FUZZ_MINUTES) * 60)) \
		BPFDRV_FUZZ_SEED=$(or $(FUZZ_SEED),$$(date +%s)) \
		BPFDRV_FUZZ_OBJECTS=$$(($(FUZZ_MINUTES) * 10)) BPFDRV_FUZZ_HOTREMOVE=1 \
		BPFDRV_FUZZ_DRIVERS=$$(($(FUZZ_MINUTES) * 4)) \
		BPFDRV_FUZZ_ARGS=$$(($(FUZZ_MINUTES) * 30)) \
		BPFDRV_FUZZ_CORPUS=1 \
		BPFDRV_PART_TIMEOUT=$$(($(FUZZ_MINUTES) * 60 + 900)) \
		BPFDRV_VM_TIMEOUT=$$(($(FUZZ_MINUTES) * 60 + 2400)) \
		selftests/vm/run.sh test

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

# DRIVERS=dir: build it with the root's compiler (vm-build); load every
# object in it on each kernel of the matrix, or KERNELS=..., one boot each,
# with the verifier's verdict per kernel (vm-check)
vm-build:
	$(if $(DRIVERS),BPFDRV_DRIVERS="$(DRIVERS)") selftests/vm/build-drivers.sh

vm-check:
	$(if $(DRIVERS),BPFDRV_DRIVERS="$(DRIVERS)") \
		$(if $(KERNELS),BPFDRV_KERNELS="$(KERNELS)") selftests/vm/run.sh check

clean:
	rm -rf $(BUILD)
