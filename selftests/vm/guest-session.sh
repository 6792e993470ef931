#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The guest side of a development session (make vm, make vm-start): load
# bpfdrv.ko and the test GPIO chip, put bpfdrv on PATH, then serve the
# commands that make vm-run drops into build/vm/session/ (one file each, run
# in order, output and exit status written back). With --shell (make vm),
# also open a shell; without (make vm-start), serve until make vm-stop.
cd /src || exit 1
dir=/src/build/vm/session
rel=$(uname -r)

insmod "build/kbuild/$rel/kmod/bpfdrv.ko" || echo "bpfdrv-vm: cannot load bpfdrv.ko" >&2
insmod "build/kbuild/$rel/selftests/kmods/gpio_loopback.ko" 2>/dev/null
export PATH=/src/build/user:$PATH
mount -t bpf bpf /sys/fs/bpf 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

serve() {
	local f id

	echo "$rel" >"$dir/ready"
	while [ ! -e "$dir/stop" ]; do
		for f in "$dir"/*.cmd; do
			[ -e "$f" ] || continue
			id=${f%.cmd}
			mv "$f" "$id.running"
			(cd /src && exec bash "$id.running") >"$id.out" 2>&1 </dev/null
			echo $? >"$id.rc.tmp"
			mv "$id.rc.tmp" "$id.rc"
			rm -f "$id.running"
		done
		sleep 0.2
	done
}

if [ "${1:-}" = --shell ]; then
	serve &
	echo "bpfdrv-vm: $rel; bpfdrv.ko loaded; the project is /src, your drivers /drivers"
	echo "bpfdrv-vm: make vm-run CMD=... runs commands here too; exit powers off"
	cd /drivers 2>/dev/null || cd /src
	bash -i
	touch "$dir/stop"
else
	serve
fi
rm -f "$dir/ready" "$dir/stop"
