#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Lockdown: once the kernel is locked down, PCI drivers cannot attach and an
# attached one's hardware kfuncs fail with EPERM. Lockdown cannot be lifted,
# so this part runs last.
. "$(dirname "$0")/lib.sh"

EDU=$B/selftests/test_edu
mapfile -t edus < <(lspci -Dn -d 1234:11e8 | awk '{ print $1 }')
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
if [ ! -w /sys/kernel/security/lockdown ]; then
	echo "# skip: lockdown tests (no lockdown LSM in this kernel)"
	exit 0
fi
if [ ${#edus[@]} -lt 1 ]; then
	echo "# skip: lockdown tests (no edu device)"
	exit 0
fi
load_module || { nok "insmod bpfdrv.ko for the lockdown tests"; exit 0; }

check "edu attached before lockdown" $BPFDRV load --pin --device "${edus[0]}" $OBJ/edu.bpf.o
check "lock the kernel down (integrity)" eval "echo integrity >/sys/kernel/security/lockdown"
expect_err "locked down: MMIO from an attached driver fails with EPERM" "EPERM" \
	$EDU liveness /dev/bpfdrv/edu0 1
expect_err "locked down: mapping edu0's registers fails with EPERM" "error: EPERM: mmap" \
	$B/selftests/test_mmap map /dev/bpfdrv/edu0 0 4096 rw
expect_err "locked down: attaching a PCI driver is refused" "locked down" \
	$BPFDRV load --pin --name edu_ld --device "${edus[0]}" $OBJ/edu.bpf.o
check "locked down: a driver without hardware still attaches" \
	$BPFDRV load --pin --name echo_ld $OBJ/echo.bpf.o
expect_err "locked down: a live update of a PCI driver is refused" "the kernel is locked down" \
	$BPFDRV update edu $OBJ/edu.bpf.o --device "${edus[0]}"
check "locked down: a live update of a driver without hardware goes through" \
	$BPFDRV update echo_ld $OBJ/echo.bpf.o --name echo_ld
check "locked down: drivers still detach" \
	eval "$BPFDRV unload echo_ld && $BPFDRV unload edu"
$BPFDRV unbind "${edus[0]}" >/dev/null

# Lockdown must not be what stops a hostile driver: the verifier does.
hostile_corpus "locked down: hostile"
