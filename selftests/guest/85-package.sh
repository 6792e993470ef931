#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages (make deb) as a user installs them: dpkg -i on a
# system that has never seen bpfdrv, DKMS installing bpfdrv.ko for the
# running kernel (built by the host's DKMS in this same root, unless
# BPFDRV_PACKAGE_COMPILE=1 has it compile here), the packaged tool and
# drivers end to end, the -dev package's
# example built with pkg-config, drivers attaching themselves on PCI device
# match (remove and rescan of the edu functions, a coldplug trigger) and at
# boot (autoload.conf), and a purge. (selftests/vm/package-dkms.sh checks
# DKMS on every kernel of the matrix, and its error on a kernel without BTF.)
# /usr, /etc and /var get overlays in memory, so the guest's root (shared
# with the host) is never written. The host boots a guest for this part
# alone (selftests/vm/run.sh): DKMS takes minutes under TCG.
. "$(dirname "$0")/lib.sh"

rel=$(uname -r)
DEB=$B/deb
mapfile -t debs < <(ls $DEB/bpfdrv-dkms_*_all.deb $DEB/bpfdrv_*_amd64.deb \
	$DEB/bpfdrv-dev_*_all.deb 2>/dev/null)
if [ ${#debs[@]} -ne 3 ]; then
	nok "the three packages are in $DEB (make deb; run.sh builds them before booting)"
	exit 0
fi
ver=$(dpkg-deb -f "${debs[0]}" Version)
edu_bdfs() { lspci -Dn -d 1234:11e8 | awk '{ print $1 }'; }
attached() { grep -q "^$1 " /sys/kernel/bpfdrv/drivers 2>/dev/null; }
detached() { ! attached "$1"; }

# --- a fresh system: nothing of the tree's build is loaded ---
for d in $(awk '{ print $1 }' /sys/kernel/bpfdrv/drivers 2>/dev/null); do
	$BPFDRV unload "$d" >/dev/null 2>&1
done
for bdf in $(edu_bdfs); do
	[ "$(driver_of "$bdf")" = bpfdrv ] && $BPFDRV unbind "$bdf" >/dev/null
done
if [ -d /sys/module/bpfdrv ] && ! wait_for 30 rmmod bpfdrv; then
	nok "rmmod the tree's bpfdrv.ko before installing the packages"
	exit 0
fi
mem=/run/bpfdrv-package
mkdir -p $mem
mount -t tmpfs tmpfs $mem
for d in usr etc var; do
	mkdir -p $mem/$d/upper $mem/$d/work
	mount -t overlay overlay -o lowerdir=/$d,upperdir=$mem/$d/upper,workdir=$mem/$d/work /$d ||
		{ nok "an overlay on /$d for the package test"; exit 0; }
done
pidof systemd-udevd >/dev/null || /usr/lib/systemd/systemd-udevd --daemon
# a system with one kernel: DKMS builds for every kernel that has headers
for d in /lib/modules/*/build; do
	[ "$d" = "/lib/modules/$rel/build" ] || rm "$d"
done
# depmod, which DKMS runs at install and at removal, decompresses every
# one of the kernel's 4000 modules: over 2 minutes each time under TCG. The
# test's system keeps the modules loaded now and bpfdrv.ko's dependencies:
# copies of them in memory, mounted over the kernel's module tree (deleting
# the others in the overlay took 90 s).
kept=$mem/kernel
mkdir -p $kept
{
	for m in $(awk '{ print $1 }' /proc/modules); do
		modinfo -n "$m" 2>/dev/null
	done
	for m in $(modinfo -F depends "$KO" "${KO%/*}/bpfdrv_accel.ko" | tr , ' '); do
		modprobe -D "$m" 2>/dev/null | awk '$1 == "insmod" { print $2 }'
	done
} | sort -u | while read -r ko; do
	case $ko in */modules/$rel/kernel/*) ;; *) continue;; esac
	to=$kept/${ko#*/modules/$rel/kernel/}
	mkdir -p "${to%/*}" && cp "$ko" "$to"
done
mount --bind $kept /lib/modules/$rel/kernel ||
	{ nok "the kept modules mounted over the module tree"; exit 0; }
echo "# the test's system keeps $(find /lib/modules/$rel/kernel -name '*.ko*' | wc -l) of the kernel's modules"

# --- install: DKMS builds the module for this kernel ---
# The host's DKMS built it for this kernel in this very root (run.sh) and
# left its tarball: in the package's tarball directory, DKMS's postinst
# loads the build from it instead of compiling for 10 minutes under TCG.
tarball=$DEB/bpfdrv-$ver.dkms.tar.gz
if [ -f "$tarball" ]; then
	mkdir -p /usr/share/bpfdrv-dkms
	cp "$tarball" /usr/share/bpfdrv-dkms/
fi
# man-db's trigger re-indexes every manual page: minutes under TCG, and
# nothing this test reads (the pages themselves are checked below)
rm -f /var/lib/man-db/auto-update
# settle: udevadm settle, saying how long it waited when that was long
settle() {
	local t=$SECONDS

	udevadm settle -t 60
	[ $((SECONDS - t)) -lt 5 ] || echo "# udevadm settle waited $((SECONDS - t)) s"
}
start=$SECONDS
DEBIAN_FRONTEND=noninteractive dpkg -i "${debs[@]}" >"$OUT/install" 2>&1
rc=$?
echo "# dpkg -i ${debs[*]##*/} (exit $rc, $((SECONDS - start)) s):"
sed 's/^/#   /' "$OUT/install"
[ $rc -eq 0 ] && ok "dpkg -i installs bpfdrv-dkms, bpfdrv and bpfdrv-dev" ||
	nok "dpkg -i installs bpfdrv-dkms, bpfdrv and bpfdrv-dev (exit $rc)"
if [ -f "$tarball" ]; then
	check "DKMS's postinst loaded the host's build from its tarball, and compiled nothing" \
		eval "grep -q 'Loading tarball for bpfdrv/$ver' '$OUT/install' &&
		      ! grep -Eq 'Building (initial )?module' '$OUT/install'"
else
	echo "# DKMS compiled the module in the guest (no tarball from the host)"
fi
dkms status bpfdrv >"$OUT/dkms" 2>&1
sed 's/^/# /' "$OUT/dkms"
check "dkms status: bpfdrv/$ver installed for $rel" \
	grep -q "^bpfdrv/$ver, $rel, x86_64: installed" "$OUT/dkms"
check "modinfo finds DKMS's bpfdrv.ko under updates/dkms" \
	eval "modinfo -n bpfdrv | grep -q '/updates/dkms/bpfdrv.ko'"
abi=$(awk '$2 == "BPFDRV_ABI_VERSION" { print $3 }' include/bpfdrv_abi.h)
check "modprobe bpfdrv loads it (driver ABI $abi)" \
	eval "modprobe bpfdrv && grep -qx $abi /sys/module/bpfdrv/parameters/abi_version"
check "bpfdrv --version is the package's" \
	eval "bpfdrv --version | grep -q '^bpfdrv $ver (driver ABI $abi)'"
check "the man pages are installed" \
	test -f /usr/share/man/man8/bpfdrv.8.gz -a -f /usr/share/man/man5/bpfdrv-autoload.conf.5.gz

# --- the functions already present got their driver at install ---
if [ -n "$(edu_bdfs)" ]; then
	settle
	check "install: the edu functions already present got the edu driver (no reboot)" \
		wait_for 30 test -c /dev/bpfdrv/edu0 -a -c /dev/bpfdrv/edu1
	bpfdrv unload edu >/dev/null	# the checks below attach it their own ways
fi

# --- a packaged driver end to end ---
check "bpfdrv load --pin /usr/lib/bpfdrv/drivers/echo.bpf.o" \
	bpfdrv load --pin /usr/lib/bpfdrv/drivers/echo.bpf.o
printf 'packaged' >/dev/bpfdrv/echo 2>/dev/null
check "the packaged echo driver echoes" \
	eval "test \"\$(head -c 8 /dev/bpfdrv/echo)\" = packaged"
check "bpfdrv unload echo" bpfdrv unload echo

# --- the accelerator class: bpfdrv.ko loads bpfdrv_accel.ko on demand ---
check "modinfo finds DKMS's bpfdrv_accel.ko under updates/dkms" \
	eval "modinfo -n bpfdrv_accel | grep -q '/updates/dkms/bpfdrv_accel.ko'"
check "an accelerator driver attaches, bpfdrv_accel.ko loaded for it" \
	eval "bpfdrv load --pin $TOBJ/accel_probe.bpf.o && test -d /sys/module/bpfdrv_accel"
check "its accel node answers drmGetVersion" $TOBJ/test_accel find accel_probe
check "bpfdrv unload accel_probe" bpfdrv unload accel_probe

# --- bpfdrv-dev: headers through pkg-config, the example driver builds ---
check "pkg-config --cflags bpfdrv gives its include directory" \
	eval "pkg-config --cflags bpfdrv | grep -qx -- '-I/usr/include/bpfdrv *'"
rm -rf /tmp/hello && cp -r /usr/share/doc/bpfdrv-dev/examples/hello /tmp/hello
start=$SECONDS
check "the example driver builds with the installed headers" make -s -C /tmp/hello
echo "# the example built in $((SECONDS - start)) s"
check "the example driver loads" bpfdrv load --pin /tmp/hello/hello.bpf.o
/tmp/hello/test-hello >"$OUT/hello" 2>&1
sed 's/^/# /' "$OUT/hello"
check "the example passes its own test" grep -q '^[1-9][0-9]* passed, 0 failed' "$OUT/hello"
bpfdrv unload hello >/dev/null

# --- PCI device match: the edu driver attaches when edu appears ---
mapfile -t edus < <(edu_bdfs)
if [ ${#edus[@]} -lt 2 ]; then
	echo "# skip: autoload on device match (want two edu functions, found ${#edus[@]})"
else
	check "autoload match names the installed edu driver" \
		eval "bpfdrv autoload match ${edus[0]} | grep -qx BPFDRV_DRIVER=edu"
	check "autoload match is silent for a function nothing serves" \
		eval "test -z \"\$(bpfdrv autoload match $(lspci -Dn -d 1b36:0005 | awk '{ print $1; exit }'))\""
	# autoload runs objects as root unasked: only root's own files count
	mkdir -p /etc/bpfdrv/drivers
	cp /usr/lib/bpfdrv/drivers/edu.bpf.o /etc/bpfdrv/drivers/aaa.bpf.o
	chmod 666 /etc/bpfdrv/drivers/aaa.bpf.o
	check "a world-writable object is skipped, and autoload says why" \
		eval "bpfdrv autoload match ${edus[0]} 2>$OUT/untrusted | grep -qx BPFDRV_OBJECT=/usr/lib/bpfdrv/drivers/edu.bpf.o && grep -q 'aaa.bpf.o: not autoloaded' $OUT/untrusted"
	chmod 644 /etc/bpfdrv/drivers/aaa.bpf.o
	chown nobody /etc/bpfdrv/drivers/aaa.bpf.o
	check "an object root does not own is skipped" \
		eval "bpfdrv autoload match ${edus[0]} 2>/dev/null | grep -qx BPFDRV_OBJECT=/usr/lib/bpfdrv/drivers/edu.bpf.o"
	rm /etc/bpfdrv/drivers/aaa.bpf.o
	rmdir /etc/bpfdrv/drivers	# the administrator's directory: not the package's
	udevadm control --reload
	for bdf in "${edus[@]}"; do echo 1 >/sys/bus/pci/devices/$bdf/remove; done
	echo 1 >/sys/bus/pci/rescan
	settle
	check "rescan: edu attaches by itself, one node per function" \
		wait_for 30 test -c /dev/bpfdrv/edu0 -a -c /dev/bpfdrv/edu1
	bpfdrv list >"$OUT/list" 2>&1
	sed 's/^/# /' "$OUT/list"
	check "bpfdrv list: edu0 and edu1 were attached by udev" \
		eval "awk '\$2 == \"edu\" && \$NF == \"udev\"' $OUT/list | wc -l | grep -qx 2"
	check "bpfdrv status: attached by udev" \
		eval "bpfdrv status edu | grep -q 'attached by udev'"
	check "the autoloaded edu driver computes factorials" \
		eval "$B/selftests/test_edu fact /dev/bpfdrv/edu1 10 | grep -qx 3628800"
	echo 1 >/sys/bus/pci/devices/${edus[0]}/remove
	settle
	check "removing one function keeps the driver for the other" \
		eval "attached edu && test -c /dev/bpfdrv/edu1"
	echo 1 >/sys/bus/pci/devices/${edus[1]}/remove
	settle
	check "removing the last function detaches the driver and its pin" \
		eval "wait_for 30 detached edu && test ! -e /sys/fs/bpf/bpfdrv/edu"
	echo 1 >/sys/bus/pci/rescan
	settle
	check "rescan attaches it again" wait_for 30 test -c /dev/bpfdrv/edu1
	bpfdrv unload edu
	udevadm trigger --action=add --subsystem-match=pci
	settle
	check "a coldplug trigger (as at boot) attaches it" \
		wait_for 30 test -c /dev/bpfdrv/edu0 -a -c /dev/bpfdrv/edu1
	check "no other PCI function was taken (only edu is bound to bpfdrv)" \
		eval "test \$(ls /sys/bus/pci/drivers/bpfdrv | grep -c '^0000:') -eq 2"
	bpfdrv unload edu
fi

# --- boot: the drivers of autoload.conf ---
cat >/etc/bpfdrv/autoload.conf <<'EOF'
echo.bpf.o --name boot_echo   # a comment
/usr/lib/bpfdrv/drivers/fifo.bpf.o
missing.bpf.o
EOF
bpfdrv autoload boot >"$OUT/boot" 2>&1
rc=$?
sed 's/^/# /' "$OUT/boot"
check "autoload boot attaches the listed drivers" \
	test -c /dev/bpfdrv/boot_echo -a -c /dev/bpfdrv/fifo
check "autoload boot names the line it could not attach, and fails" \
	eval "test $rc -eq 1 && grep -q 'autoload.conf:3: no driver object .missing.bpf.o.' $OUT/boot"
check "bpfdrv list: attached at boot" \
	eval "bpfdrv list | awk '\$1 == \"boot_echo\" && \$NF == \"boot\"' | grep -q ."
check "autoload stop detaches them" \
	eval "bpfdrv autoload stop && detached boot_echo && detached fifo"
if command -v systemd-analyze >/dev/null; then
	check "systemd-analyze verify bpfdrv.service" \
		systemd-analyze verify /usr/lib/systemd/system/bpfdrv.service
fi

# --- remove with drivers attached: all detached, the module unloaded ---
bpfdrv load --pin /usr/lib/bpfdrv/drivers/echo.bpf.o >/dev/null
if [ -n "$(edu_bdfs)" ]; then
	udevadm trigger --action=add --subsystem-match=pci
	settle
	wait_for 30 test -c /dev/bpfdrv/edu0
fi
check "before removal: echo (pinned) and edu (udev) are attached" \
	eval "attached echo && { [ -z \"\$(edu_bdfs)\" ] || attached edu; }"
start=$SECONDS
dpkg -r bpfdrv bpfdrv-dkms >"$OUT/remove" 2>&1
rc=$?
echo "# dpkg -r (exit $rc, $((SECONDS - start)) s):"
sed 's/^/#   /' "$OUT/remove"
check "dpkg -r bpfdrv bpfdrv-dkms succeeds" test $rc -eq 0
check "after removal: bpfdrv.ko is unloaded" test ! -d /sys/module/bpfdrv
left=$(ls -d /dev/bpfdrv /sys/fs/bpf/bpfdrv /sys/module/bpfdrv 2>/dev/null)
check "after removal: no /dev/bpfdrv, no /sys/fs/bpf/bpfdrv (pins), no module" test -z "$left"
[ -n "$left" ] && echo "# left: $left"
bound=0
for bdf in $(edu_bdfs); do [ "$(driver_of "$bdf")" = bpfdrv ] && bound=$((bound + 1)); done
check "after removal: no PCI function is bound to bpfdrv" test $bound -eq 0
check "after removal: the configuration stays (removed, not purged)" \
	test -f /etc/bpfdrv/autoload.conf

# --- purge: nothing left ---
dpkg --purge bpfdrv-dev bpfdrv bpfdrv-dkms >"$OUT/purge" 2>&1
check "dpkg --purge removes the three packages" \
	eval "! dpkg -l 'bpfdrv*' 2>/dev/null | grep -q '^ii'"
check "the DKMS module and the udev rule are gone" \
	eval "! modinfo -n bpfdrv 2>/dev/null | grep -q dkms && test ! -e /usr/lib/udev/rules.d/60-bpfdrv.rules"
left=$(ls -d /etc/bpfdrv /usr/src/bpfdrv-$ver /var/lib/dkms/bpfdrv /run/bpfdrv 2>/dev/null)
check "purge: /etc/bpfdrv, the module's source and DKMS tree, /run/bpfdrv are gone" test -z "$left"
[ -n "$left" ] && echo "# left: $left"
udevadm control --reload
