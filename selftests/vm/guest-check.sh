#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make vm-check, in the guest: load and attach every BPF object of /drivers
# on this kernel, one at a time, and say what the verifier (or the
# attach) answered, with the likely fix for the messages kernels are known
# to differ on; while NAME.bpf.o is loaded, run /drivers/test-NAME if there
# is one. Prints unnumbered TAP lines; the host numbers them.
cd /src || exit 1
rel=$(uname -r)
echo "# kernel $rel"
export PATH=/src/build/user:$PATH
mount -t bpf bpf /sys/fs/bpf 2>/dev/null
insmod "build/kbuild/$rel/kmod/bpfdrv.ko" || echo "not ok - bpfdrv.ko loads on $rel"
insmod "build/kbuild/$rel/selftests/kmods/gpio_loopback.ko" 2>/dev/null

# hint MESSAGES: the fix for a verifier message, from writing-a-driver.md
hint() {
	case $1 in
	*"unbounded min value is not allowed"*)
		echo "this kernel's verifier does not bound the result of % or / (6.12): compare the index with its bound after computing it";;
	*"invalid access to map value"*)
		echo "a variable offset into a buffer: copy with bpfdrv_io_store_at()/bpfdrv_io_load_at(); a constant one: clamp the length to the buffer's sizeof";;
	*"unbounded memory access"*)
		echo "clamp the length before the call: if (n > sizeof(buf)) n = sizeof(buf);";;
	*"must be sleepable"*)
		echo "a sleeping kfunc in a non-sleepable callback: use SEC(\"struct_ops.s/...\")";;
	*"must be referenced or trusted"*)
		echo "a context kept from an earlier call: contexts live for one call";;
	*"helper bpf_loop"*|*"bpf_iter_num"*|*"may_goto"*)
		echo "a loop whose rounds no budget bounds: loop with bpfdrv_for(i, dev, start, end)";;
	*"is global: its work"*)
		echo "a global function: make it static (__always_inline or static) so the verifier checks it per call";;
	*"not found in kernel or module BTFs"*)
		echo "a kfunc this bpfdrv.ko does not have: build the driver against the module's headers";;
	esac
}

# run_test NAME: /drivers/test-NAME, if there is one, while NAME is loaded;
# its TAP lines labelled with NAME, and a line for its exit status
run_test() {
	local t=/drivers/test-$1 out rc

	[ -x "$t" ] || return 0
	out=$(cd /drivers && timeout 120 "$t" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed -n -e "s/^ok [0-9]* - /ok - $1: /p" \
		-e "s/^not ok [0-9]* - /not ok - $1: /p" -e 's/^#/#  /p'
	if [ $rc -eq 0 ]; then
		echo "ok - test-$1 passes on $rel"
	else
		echo "not ok - test-$1 passes on $rel (exit $rc)"
		printf '%s\n' "$out" | grep -v "^ok \|^not ok \|^#" | sed 's/^/#   /' | head -20
	fi
}

n=0
for obj in /drivers/*.bpf.o; do
	[ -e "$obj" ] || { echo "# no *.bpf.o in /drivers"; break; }
	n=$((n + 1))
	name=${obj##*/}
	if out=$(bpfdrv load --pin "$obj" 2>&1); then
		echo "ok - $name loads and attaches on $rel"
		run_test "${name%.bpf.o}"
	else
		echo "not ok - $name loads and attaches on $rel"
		printf '%s\n' "$out" | sed 's/^/#   /'
		h=$(hint "$out")
		[ -n "$h" ] && echo "#   fix: $h (docs/writing-a-driver.md, When the kernel says no)"
	fi
	for pin in /sys/fs/bpf/bpfdrv/*; do
		[ -e "$pin" ] && bpfdrv unload "${pin##*/}" >/dev/null
	done
done
echo "# $n objects checked"
rmmod bpfdrv 2>/dev/null
echo "# guest done"
