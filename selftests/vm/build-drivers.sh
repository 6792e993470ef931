#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make vm-build DRIVERS=dir: build a directory of drivers (its own
# Makefile, as bpfdrv new writes it) with the Debian root's clang, libbpf
# headers and C library, against this tree's include/. The root's clang
# does not run outside the root, and the host's may be missing or too old;
# the root is the VMs' filesystem, so the tests it builds run there too.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || die "make vm-build needs root (chroot, mount); try: sudo make vm-build"
[ -n "${BPFDRV_DRIVERS:-}" ] || die "make vm-build needs DRIVERS=dir"
[ -d "$BPFDRV_DRIVERS" ] || die "DRIVERS=$BPFDRV_DRIVERS is not a directory"
BPFDRV_DRIVERS=$(cd "$BPFDRV_DRIVERS" && pwd)
export BPFDRV_DRIVERS
"$BPFDRV_TOP/selftests/vm/mkroot.sh" || exit 1
in_root make -C /drivers BPFDRV_INCLUDE=/src/include "$@"
