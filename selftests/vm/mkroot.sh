#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (once) the Debian trixie root that builds the module for every kernel
# of the matrix and serves as the guest's filesystem. Cached under
# $BPFDRV_CACHE; rebuilt when the package list changes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

stamp=$BPFDRV_ROOT/.bpfdrv-root
want=$(echo "$BPFDRV_ROOT_PKGS" | sha256sum | cut -c1-16)

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	exit 0
fi

[ "$(id -u)" = 0 ] || die "building the VM root needs root (debootstrap, chroot)"
if ! command -v debootstrap >/dev/null; then
	log "installing debootstrap on the host"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null ||
		{ apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null; } ||
		die "cannot install debootstrap"
fi

mirror=$(debian_mirror)
tmp=$BPFDRV_ROOT.new
rm -rf --one-file-system "$tmp"
mkdir -p "$BPFDRV_CACHE"
log "building the trixie root (once; cached in $BPFDRV_CACHE)"
debootstrap --variant=minbase --include="$BPFDRV_ROOT_PKGS" trixie "$tmp" "$mirror" \
	>"$BPFDRV_CACHE/debootstrap.log" 2>&1 ||
	die "debootstrap failed; see $BPFDRV_CACHE/debootstrap.log"

cat >"$tmp/etc/apt/sources.list" <<EOS
deb $mirror trixie main
deb $mirror trixie-backports main
EOS
echo bpfdrv-vm >"$tmp/etc/hostname"
echo "$want" >"$tmp/.bpfdrv-root"
rm -rf --one-file-system "$BPFDRV_ROOT"
mv "$tmp" "$BPFDRV_ROOT"
log "root ready"
