#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo, inside the VM: the module loads, the echo driver attaches, its
# node appears, data flows through it, bpfdrv list shows the counts, and
# the driver detaches.
set -u
cd "$(dirname "$0")/.."
BPFDRV=build/user/bpfdrv
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; }

step "kernel $(uname -r): load the framework module"
run insmod "build/kbuild/$(uname -r)/kmod/bpfdrv.ko" || exit 1
run ls /sys/kernel/btf/bpfdrv
mount -t bpf bpf /sys/fs/bpf 2>/dev/null

step "attach the echo driver, a BPF object compiled once for every kernel"
run $BPFDRV load --pin build/bpf/echo.bpf.o
run ls -l /dev/bpfdrv/

step "data flows through the BPF driver"
printf '$ echo "hello from user space" > /dev/bpfdrv/echo\n'
echo "hello from user space" >/dev/bpfdrv/echo
run cat /dev/bpfdrv/echo

step "a blocking FIFO: the reader sleeps until a writer in another process writes"
run $BPFDRV load --pin build/bpf/fifo.bpf.o
printf '$ cat /dev/bpfdrv/fifo &   (blocks)\n'
timeout 10 head -n 1 /dev/bpfdrv/fifo | sed 's/^/reader got: /' &
sleep 1
printf '$ echo "woken by the writer" > /dev/bpfdrv/fifo\n'
echo "woken by the writer" >/dev/bpfdrv/fifo
wait
echo

step "a PCI driver in BPF: QEMU's edu device, factorials completed by interrupt"
run lspci -nn -d 1234:11e8
run $BPFDRV load --pin build/bpf/edu.bpf.o
printf '$ exec 3<>/dev/bpfdrv/edu0; echo 10 >&3; cat <&3\n'
exec 3<>/dev/bpfdrv/edu0
echo 10 >&3
cat <&3
exec 3>&-
run grep edu0 /proc/interrupts
run build/selftests/test_edu dma /dev/bpfdrv/edu0

step "bpfdrv list: instances, open files and per-callback call counts"
run $BPFDRV list

step "detach: the node goes away, then the module can be removed"
run $BPFDRV unload echo
run $BPFDRV unload fifo
run $BPFDRV unload edu
for bdf in $(lspci -Dn -d 1234:11e8 | cut -d' ' -f1); do $BPFDRV unbind "$bdf" >/dev/null; done
run ls /dev/bpfdrv/ 2>&1
sleep 1
run rmmod bpfdrv && echo "module removed"
if dmesg | grep -qE "WARNING:|BUG:|Oops"; then
	echo "kernel log shows a problem:"; dmesg | tail -30; exit 1
fi
echo "kernel log clean"
