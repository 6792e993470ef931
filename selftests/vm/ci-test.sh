#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bpfdrv-ci as a driver author uses it in a repository of their own: the
# bpfdrv-dev package unpacked (nothing of this tree), its example driver
# copied to a directory outside the tree, and bpfdrv-ci run there on the
# newest kernel of the matrix (make vm-check, which it runs, is tested on
# the oldest too): the example builds, loads and passes its own test.
# Prints unnumbered TAP lines for run.sh.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; }
deb=$(ls "$BPFDRV_BUILD"/deb/bpfdrv-dev_*_all.deb 2>/dev/null | head -1)
if [ -z "$deb" ]; then
	nok "the bpfdrv-dev package was built"
	exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dpkg-deb -x "$deb" "$work/pkg"
repo=$work/hello-drivers
cp -r "$work/pkg/usr/share/doc/bpfdrv-dev/examples/hello" "$repo"
check_file() { if [ -e "$1" ]; then ok "$2"; else nok "$2"; fi; }
check_file "$work/pkg/usr/bin/bpfdrv-ci" "bpfdrv-dev installs bpfdrv-ci"
check_file "$repo/.github/workflows/bpfdrv.yml" "the example has the CI workflow that runs bpfdrv-ci"

start=$SECONDS
KERNELS=newest BPFDRV_CI_WORK=$work/harness \
	"$work/pkg/usr/bin/bpfdrv-ci" "$repo" >"$work/out" 2>"$work/err"
rc=$?
echo "# bpfdrv-ci on the newest kernel: exit $rc in $((SECONDS - start)) s"
sed 's/^/# /' "$work/out"
newest=$(tail -n 1 "$BPFDRV_CACHE/kernels")
if [ $rc -eq 0 ] && grep -q "^[1-9][0-9]* passed, 0 failed$" "$work/out"; then
	ok "bpfdrv-ci: exit 0, every check passed"
else
	nok "bpfdrv-ci: exit 0, every check passed (rc $rc)"
	sed 's/^/# /' "$work/err" | tail -20
fi
for rel in "$newest"; do
	if grep -q "^ok [0-9]* - \[$rel\] hello.bpf.o loads and attaches" "$work/out" &&
		grep -q "^ok [0-9]* - \[$rel\] test-hello passes on" "$work/out"; then
		ok "bpfdrv-ci: the example loads and passes its test on $rel"
	else
		nok "bpfdrv-ci: the example loads and passes its test on $rel"
	fi
done
check_file "$repo/hello.bpf.o" "bpfdrv-ci built the example in its directory"
