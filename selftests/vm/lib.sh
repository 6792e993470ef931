# SPDX-License-Identifier: GPL-2.0
# Shared settings for the VM harness: where the cached trixie root lives, which
# Debian mirror to use and how to run a command inside the root.

BPFDRV_TOP=${BPFDRV_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BPFDRV_CACHE=${BPFDRV_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bpfdrv}
BPFDRV_ROOT=${BPFDRV_ROOT:-$BPFDRV_CACHE/root-trixie}
BPFDRV_BUILD=${BPFDRV_BUILD:-$BPFDRV_TOP/build}
# Debian 12's kernels (+deb12) are built with its gcc-12 and pahole, and so
# must bpfdrv.ko be: a second, smaller root builds the module for them.
BPFDRV_ROOT12=${BPFDRV_ROOT12:-$BPFDRV_CACHE/root-bookworm}

# Packages of the build-and-guest root. Packages added to the list are
# installed into a cached root; one removed stays there.
BPFDRV_ROOT_PKGS="gcc-14,gcc,make,libc6-dev,clang,llvm,libbpf-dev,bpftool,\
libelf-dev,zlib1g-dev,pkgconf,dwarves,kmod,busybox-static,qemu-system-x86,\
virtme-ng,python3,procps,iproute2,util-linux,xz-utils,ca-certificates,\
gpiod,pciutils,fuse3,libfuse3-dev,libselinux1-dev,libsepol-dev,libpcre2-dev,\
gnuplot-nox,libdrm-tests,libdrm-dev,bpftrace,build-essential,debhelper,dh-dkms,dkms,\
lintian,evtest,lm-sensors,i2c-tools,edid-decode,xxd,flashrom,jq,tmux"
# Packages of the bookworm root: the compiler and tools its kernels' headers
# need, and DKMS (the package test installs bpfdrv-dkms there).
BPFDRV_ROOT12_PKGS="gcc-12,make,libc6-dev,dwarves,kmod,dkms,libelf1,libssl3,\
zlib1g,xz-utils,python3"

log() { printf '%s\n' "bpfdrv-vm: $*" >&2; }
die() { log "error: $*"; exit 1; }

# The mirror comes from the host's own apt configuration.
debian_mirror() {
	local uri=""

	[ -n "${BPFDRV_MIRROR:-}" ] && { echo "$BPFDRV_MIRROR"; return; }
	uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null)
	if [ -z "$uri" ] && [ -r /etc/apt/sources.list ]; then
		uri=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }' \
			/etc/apt/sources.list)
	fi
	[ -n "$uri" ] || die "no Debian mirror found in the apt configuration; set BPFDRV_MIRROR"
	echo "${uri%/}"
}

# The security archive (Debian 12's 6.12 kernels are there), from the apt
# configuration too, else beside the main mirror as Debian lays them out.
debian_security_mirror() {
	local uri=""

	[ -n "${BPFDRV_SECURITY_MIRROR:-}" ] && { echo "$BPFDRV_SECURITY_MIRROR"; return; }
	uri=$(awk 'BEGIN { RS = "" } /Suites:[^\n]*-security/ {
			if (match($0, /URIs: *[^ \n]+/)) {
				split(substr($0, RSTART, RLENGTH), f, / +/); print f[2]; exit
			}
		}' /etc/apt/sources.list.d/*.sources 2>/dev/null)
	if [ -z "$uri" ] && [ -r /etc/apt/sources.list ]; then
		uri=$(awk '$1 == "deb" && / [a-z]+-security/ { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }' \
			/etc/apt/sources.list)
	fi
	[ -n "$uri" ] || uri=$(debian_mirror)-security
	echo "${uri%/}"
}

# kernel_root REL: the root that builds modules for kernel REL.
kernel_root() {
	case $1 in
	*+deb12-*) echo "$BPFDRV_ROOT12";;
	*) echo "$BPFDRV_ROOT";;
	esac
}

# kernel_image REL: the kernel image's path inside the root, empty if absent.
# Newer Debian kernels (linux-binary-*) keep it beside their modules.
kernel_image() {
	local p

	for p in "/boot/vmlinuz-$1" "/usr/lib/modules/$1/vmlinuz"; do
		[ -f "$BPFDRV_ROOT$p" ] || [ -f "${BPFDRV_ROOT_UPPER:-/nonexistent}/upper$p" ] &&
			{ echo "$p"; return; }
	done
}

# in_root CMD...: run CMD inside the root, in a private mount namespace so that
# no bind mount outlives the command. The source tree is at /src, and
# BPFDRV_DRIVERS, if set, at /drivers. With BPFDRV_ROOT_UPPER=DIR, the root
# is an overlay whose changes go to DIR (the root itself stays as it is:
# other guests boot it meanwhile).
in_root() {
	unshare --mount --propagation private -- /bin/bash -c '
		set -e
		root=$1; top=$2; drivers=$3; upper=$4; shift 4
		if [ -n "$upper" ]; then
			mkdir -p "$upper/upper" "$upper/work" "$upper/root"
			mount -t overlay overlay -o "lowerdir=$root,upperdir=$upper/upper,workdir=$upper/work" \
				"$upper/root"
			root=$upper/root
		fi
		mount --rbind /dev "$root/dev"
		mount -t proc proc "$root/proc"
		mount --rbind /sys "$root/sys"
		mkdir -p "$root/src" "$root/tmp"
		mount --bind "$top" "$root/src"
		mount -t tmpfs tmpfs "$root/tmp"
		if [ -n "$drivers" ]; then
			mkdir -p "$root/drivers"
			mount --bind "$drivers" "$root/drivers"
		fi
		exec chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			LANG=C.UTF-8 CI="${CI:-}" BPFDRV_ACCEL="${BPFDRV_ACCEL:-}" \
			/bin/bash -c "cd /src && \"\$@\"" bash "$@"
	' bash "$BPFDRV_ROOT" "$BPFDRV_TOP" "${BPFDRV_DRIVERS:-}" "${BPFDRV_ROOT_UPPER:-}" "$@"
}
