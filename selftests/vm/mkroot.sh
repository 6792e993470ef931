#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (once) a Debian root, cached under $BPFDRV_CACHE; packages added to
# its list are installed into it:
#   mkroot.sh           the trixie root: it builds the module for every kernel
#                       of the matrix but Debian 12's and is the guest's
#                       filesystem
#   mkroot.sh bookworm  the bookworm root: it builds the module for Debian
#                       12's kernels (+deb12) with their gcc-12 and pahole
set -euo pipefail
. "$(dirname "$0")/lib.sh"

suite=${1:-trixie}
case $suite in
trixie) root=$BPFDRV_ROOT pkgs=$BPFDRV_ROOT_PKGS;;
bookworm) root=$BPFDRV_ROOT12 pkgs=$BPFDRV_ROOT12_PKGS;;
*) die "usage: mkroot.sh [trixie|bookworm]";;
esac
stamp=$root/.bpfdrv-root
want=$(echo "$pkgs" | sha256sum | cut -c1-16)

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	exit 0
fi

[ "$(id -u)" = 0 ] || die "building the VM root needs root (debootstrap, chroot)"

# A root built from an older list gets the packages added since (apt keeps
# what is installed); a failure there builds the root afresh.
if [ -f "$stamp" ]; then
	log "installing the $suite root's new packages"
	if BPFDRV_ROOT=$root in_root /bin/bash -c '
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -q && apt-get install -y -q --no-install-recommends $1 &&
			apt-get clean
	' bash "${pkgs//,/ }" >>"$BPFDRV_CACHE/debootstrap-$suite.log" 2>&1; then
		echo "$want" >"$stamp"
		exit 0
	fi
	log "that failed (see $BPFDRV_CACHE/debootstrap-$suite.log): building the root afresh"
fi
if ! command -v debootstrap >/dev/null; then
	log "installing debootstrap on the host"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null ||
		{ apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null; } ||
		die "cannot install debootstrap"
fi

mirror=$(debian_mirror)
tmp=$root.new
rm -rf --one-file-system "$tmp"
mkdir -p "$BPFDRV_CACHE"
log "building the $suite root (once; cached in $BPFDRV_CACHE)"
# debootstrap's own resolver cannot pick providers of virtual packages (a
# package list with lintian needs perl-openssl-abi-3): it lays down the base
# system, and apt installs the rest
debootstrap --variant=minbase "$suite" "$tmp" "$mirror" \
	>"$BPFDRV_CACHE/debootstrap-$suite.log" 2>&1 ||
	die "debootstrap failed; see $BPFDRV_CACHE/debootstrap-$suite.log"

if [ "$suite" = trixie ]; then
	cat >"$tmp/etc/apt/sources.list" <<EOS
deb $mirror trixie main
deb $mirror trixie-backports main
EOS
else
	cat >"$tmp/etc/apt/sources.list" <<EOS
deb $mirror bookworm main
deb $(debian_security_mirror) bookworm-security main
EOS
fi
BPFDRV_ROOT=$tmp in_root /bin/bash -c '
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q && apt-get install -y -q --no-install-recommends $1 &&
		apt-get clean
' bash "${pkgs//,/ }" >>"$BPFDRV_CACHE/debootstrap-$suite.log" 2>&1 ||
	die "installing the $suite root's packages failed; see $BPFDRV_CACHE/debootstrap-$suite.log"
echo bpfdrv-vm >"$tmp/etc/hostname"
echo "$want" >"$tmp/.bpfdrv-root"
rm -rf --one-file-system "$root"
mv "$tmp" "$root"
log "$suite root ready"
