#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make vm-check as a driver author runs it: a directory of two drivers, one
# that every kernel accepts and one that only newer verifiers do (digits:
# an index computed with %), checked on the oldest and the newest kernel
# of the matrix. Prints unnumbered TAP lines for run.sh.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/drivers"
cp "$BPFDRV_BUILD/bpf/echo.bpf.o" "$BPFDRV_BUILD/selftests/digits.bpf.o" "$work/drivers/"
oldest=$(head -n 1 "$BPFDRV_CACHE/kernels")
newest=$(tail -n 1 "$BPFDRV_CACHE/kernels")

start=$SECONDS
make -s -C "$BPFDRV_TOP" vm-check DRIVERS="$work/drivers" KERNELS="oldest newest" \
	>"$work/out" 2>"$work/err"
rc=$?
echo "# make vm-check on $oldest and $newest: exit $rc in $((SECONDS - start)) s"
sed 's/^/# /' "$work/out"
row() { grep -q "^$1 [0-9]* - \[$2\] $3 loads and attaches" "$work/out"; }
if [ $rc -ne 0 ] && grep -q "^3 passed, 1 failed$" "$work/out"; then
	ok "make vm-check: 3 of 4 loads pass, exit status non-zero"
else
	nok "make vm-check: 3 of 4 loads pass, exit status non-zero (rc $rc)"
	sed 's/^/# /' "$work/err" | tail -20
fi
if row ok "$oldest" echo.bpf.o && row ok "$newest" echo.bpf.o; then
	ok "make vm-check: echo loads on both kernels"
else
	nok "make vm-check: echo loads on both kernels"
fi
if row "not ok" "$oldest" digits.bpf.o && row ok "$newest" digits.bpf.o; then
	ok "make vm-check: digits is refused by $oldest and loads on $newest"
else
	nok "make vm-check: digits is refused by $oldest and loads on $newest"
fi
if grep -q "unbounded min value" "$work/out" &&
	grep -q "fix: this kernel's verifier does not bound the result of %" "$work/out"; then
	ok "make vm-check: the refusal shows the verifier's message and its fix"
else
	nok "make vm-check: the refusal shows the verifier's message and its fix"
fi
