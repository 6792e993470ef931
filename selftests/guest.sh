#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the test VM, from the source tree: runs the test parts in
# selftests/guest/ (all of them, or those named: "guest.sh core pci"), then
# checks the kernel log. Prints unnumbered TAP lines; the host numbers them.
set -u
cd "$(dirname "$0")/.."
. selftests/guest/lib.sh

echo "# kernel $(uname -r)"
mount -t bpf bpf /sys/fs/bpf 2>/dev/null

for part in selftests/guest/[0-9]*-*.sh; do
	name=${part##*/[0-9][0-9]-}
	name=${name%.sh}
	if [ $# -gt 0 ] && ! [[ " $* " == *" $name "* ]]; then
		continue
	fi
	echo "# part $name"
	bash "$part"
done

if [ -d /sys/module/bpfdrv ]; then
	check "rmmod bpfdrv after every part" wait_for 10 rmmod bpfdrv
fi

# --- the kernel log must be clean ---
if dmesg | grep -E "WARNING:|BUG:|Oops|Call Trace|general protection" >"$OUT/dmesg"; then
	nok "kernel log has no WARNING, BUG or Oops"
	sed 's/^/# /' "$OUT/dmesg" | head -40
else
	ok "kernel log has no WARNING, BUG or Oops"
fi
echo "# guest done"
