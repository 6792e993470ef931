#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bpfdrv-dkms against the kernels named (run.sh: the oldest and the newest
# of the matrix), at native speed: in a
# throwaway overlay of the Debian root that has each kernel's headers (the
# bookworm root for Debian 12's kernels, as a Debian 12 user installs it,
# else the trixie root), installing the package must build and install
# bpfdrv.ko for every kernel,
# the hook a kernel upgrade runs must build it for that kernel (and fail
# with bpfdrv's message when the kernel's build directory lacks vmlinux),
# and a purge must remove every build. (The guest's package part installs the
# packages in a booted system.) Beside them, the bookworm root gets Debian
# 12's default kernel's headers (6.1, which bpfdrv cannot run on: DKMS must
# skip it, and apt stay usable), and each root the cloud flavour of its
# newest kernel (no I2C, SPI, GPIO, hwmon, LEDs or DRM: the module must
# build without them). Prints unnumbered TAP lines. Needs root.
#   package-dkms.sh REL...
# With --tarball, it builds for trixie's kernel REL alone and leaves DKMS's
# tarball of that build (source and module) in build/deb for the guest's
# package part, which then installs without compiling under TCG.
#   package-dkms.sh --tarball REL
set -uo pipefail
. "$(dirname "$0")/lib.sh"
# the overlay lives in a private mount namespace: nothing outlives the run
[ -n "${BPFDRV_UNSHARED:-}" ] ||
	BPFDRV_UNSHARED=1 exec unshare --mount --propagation private -- "$0" "$@"

deb=$(ls "$BPFDRV_BUILD"/deb/bpfdrv-dkms_*_all.deb 2>/dev/null | head -1)
if [ -z "$deb" ]; then
	echo "not ok - the bpfdrv-dkms package was built"
	exit 0
fi
# dkms_in ROOT SUITE REL...: the test (or $script) in an overlay of ROOT
dkms_in() {
	local lower=$1 suite=$2 tmp

	shift 2
	tmp=$(mktemp -d)
	mkdir -p "$tmp/upper" "$tmp/work" "$tmp/root"
	if ! mount -t overlay overlay \
		-o "lowerdir=$lower,upperdir=$tmp/upper,workdir=$tmp/work" "$tmp/root"; then
		echo "not ok - an overlay of the $suite root for the DKMS test"
		rm -rf "$tmp"
		return
	fi
	BPFDRV_ROOT=$tmp/root in_root /bin/bash -c "$script" bash \
		"${deb#"$BPFDRV_TOP"/}" "$suite" "$@"
	umount "$tmp/root"
	rm -rf --one-file-system "$tmp"
}

# runs in the overlay: guest_script DEB SUITE REL...
read -r -d '' guest_script <<'GUEST'
deb=$1 suite=$2
shift 2
ver=$(dpkg-deb -f "$deb" Version)
ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; }
export DEBIAN_FRONTEND=noninteractive

# DKMS builds for every kernel whose headers the root has: the named ones
# (a build takes half a minute)
for d in /lib/modules/*/build; do
	r=${d#/lib/modules/}
	[[ " $* " == *" ${r%/build} "* ]] || rm "$d"
done
# the kernel bpfdrv cannot run on (bookworm), the one it builds for without
# its buses and classes (trixie): their headers, as a user installs them
old= cloud=${*: -1}
cloud=${cloud%%-*}-cloud-amd64
if [ "$suite" = bookworm ]; then
	old=$(apt-cache search --names-only '^linux-headers-6\.1\.0-[0-9]+-amd64$' |
		cut -d' ' -f1 | sort -V | tail -n 1)
	old=${old#linux-headers-}
fi
for rel in $old $cloud; do
	if apt-get install -y -q --no-install-recommends "linux-headers-$rel" >/tmp/hdr 2>&1; then
		echo "# installed linux-headers-$rel"
	else
		nok "apt-get install linux-headers-$rel"
		tail -3 /tmp/hdr | sed 's/^/# /'
	fi
done

start=$SECONDS
dpkg -i "$deb" >/tmp/install 2>&1
rc=$?
echo "# dpkg -i ${deb##*/}: exit $rc in $((SECONDS - start)) s"
sed 's/^/#   /' /tmp/install
dkms status bpfdrv >/tmp/status 2>&1
sed 's/^/# /' /tmp/status
if [ -n "$old" ]; then
	if [ $rc = 0 ] && dpkg -s bpfdrv-dkms 2>/dev/null | grep -q "^Status: install ok installed" &&
		! grep -q "^bpfdrv/$ver, $old, x86_64: installed" /tmp/status; then
		ok "$suite with its default kernel's headers ($old): dpkg -i exits 0, the package is configured, and DKMS skips that kernel"
	else
		nok "$suite with its default kernel's headers ($old): dpkg -i exits 0, the package is configured, and DKMS skips that kernel"
	fi
	grep -m1 -i "BUILD_EXCLUSIVE\|does not match" /tmp/install | sed 's/^/# DKMS said: /'
	if apt-get install -y -q --no-install-recommends hello >/tmp/hello 2>&1; then
		ok "$suite: apt-get install works after it (hello)"
	else
		nok "$suite: apt-get install works after it (hello)"
		tail -5 /tmp/hello | sed 's/^/# /'
	fi
fi
for rel in "$@" $cloud; do
	# (only the headers of the cloud kernel: no modules.dep for modinfo)
	if grep -q "^bpfdrv/$ver, $rel, x86_64: installed" /tmp/status &&
		ls /lib/modules/"$rel"/updates/dkms/bpfdrv.ko* >/dev/null 2>&1; then
		ok "$rel: installing bpfdrv-dkms builds and installs bpfdrv.ko"
	else
		nok "$rel: installing bpfdrv-dkms builds and installs bpfdrv.ko"
	fi
done

# A kernel upgrade: the new kernel's postinst runs DKMS's hook for its
# release. First with a build directory that lacks the kernel's BTF (the
# build must fail, naming it), then as it should be.
rel=${*: -1}
dkms remove "bpfdrv/$ver" -k "$rel" >/dev/null 2>&1
# Debian 12's dkms drops a module whose last kernel is removed: register it
# again, as it is when a new kernel arrives (trixie's keeps it: "already added")
dkms add "bpfdrv/$ver" >/dev/null 2>&1
hdr=$(readlink -f "/lib/modules/$rel/build")
mv "$hdr/vmlinux" /tmp/vmlinux
/etc/kernel/postinst.d/dkms "$rel" >/tmp/nobtf 2>&1
mv /tmp/vmlinux "$hdr/vmlinux"
log=/var/lib/dkms/bpfdrv/$ver/build/make.log
grep -h "bpfdrv needs" "$log" 2>/dev/null | head -1 | sed 's/^/# /'
if ! dkms status bpfdrv -k "$rel" | grep -q installed &&
	grep -q "bpfdrv needs the kernel's BTF to build: .*vmlinux is missing" "$log"; then
	ok "$rel: DKMS fails on a kernel without vmlinux, naming what is missing"
else
	nok "$rel: DKMS fails on a kernel without vmlinux, naming what is missing"
	tail -5 /tmp/nobtf | sed 's/^/# /'
fi
/etc/kernel/postinst.d/dkms "$rel" >/tmp/hook 2>&1
if dkms status bpfdrv -k "$rel" | grep -q installed; then
	ok "$rel: the kernel-install hook builds it for a newly installed kernel"
else
	nok "$rel: the kernel-install hook builds it for a newly installed kernel"
	tail -5 /tmp/hook | sed 's/^/# /'
fi

dpkg --purge bpfdrv-dkms >/tmp/purge 2>&1
if command -v dkms >/dev/null && ! dpkg -s bpfdrv-dkms >/dev/null 2>&1 &&
	[ -z "$(dkms status bpfdrv 2>/dev/null)" ] &&
	! ls /lib/modules/*/updates/dkms/bpfdrv.ko* >/dev/null 2>&1; then
	ok "$suite: dpkg --purge bpfdrv-dkms removes the module from every kernel"
else
	nok "$suite: dpkg --purge bpfdrv-dkms removes the module from every kernel"
	sed 's/^/# /' /tmp/purge
fi
GUEST

# runs in the overlay: tarball_script DEB SUITE REL
read -r -d '' tarball_script <<'TARBALL'
deb=$1 rel=$3
ver=$(dpkg-deb -f "$deb" Version)
for d in /lib/modules/*/build; do
	[ "$d" = "/lib/modules/$rel/build" ] || rm "$d"
done
start=$SECONDS
if DEBIAN_FRONTEND=noninteractive dpkg -i "$deb" >/tmp/install 2>&1 &&
	dkms mktarball -m bpfdrv -v "$ver" -k "$rel" \
		--archive "$PWD/${deb%/*}/bpfdrv-$ver.dkms.tar.gz" >/tmp/tarball 2>&1; then
	echo "ok - DKMS built bpfdrv/$ver for $rel and archived it in $((SECONDS - start)) s"
else
	echo "not ok - DKMS built bpfdrv/$ver for $rel and archived it"
	cat /tmp/install /tmp/tarball | tail -20 | sed 's/^/# /'
fi
TARBALL

script=$guest_script
if [ "${1:-}" = --tarball ]; then
	script=$tarball_script
	dkms_in "$BPFDRV_ROOT" trixie "$2"
	exit 0
fi
deb12=() deb13=()
for rel in "$@"; do
	if [ "$(kernel_root "$rel")" = "$BPFDRV_ROOT12" ]; then
		deb12+=("$rel")
	else
		deb13+=("$rel")
	fi
done
[ ${#deb12[@]} -gt 0 ] && dkms_in "$BPFDRV_ROOT12" bookworm "${deb12[@]}"
[ ${#deb13[@]} -gt 0 ] && dkms_in "$BPFDRV_ROOT" trixie "${deb13[@]}"
exit 0
