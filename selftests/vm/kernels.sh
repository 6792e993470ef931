#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Resolve the kernel matrix and install each kernel (image, modules, headers)
# into the cached root. Prints the kernel releases, one a line.
#
# The matrix: the newest 6.12 LTS kernel of trixie and the newest kernel of
# trixie-backports. BPFDRV_KERNELS="rel1 rel2" overrides it; the words
# newest and oldest stand for the matrix's newest and oldest kernel (the
# quick run: make test KERNELS=newest).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

matrix=$BPFDRV_CACHE/kernels
want=$(mktemp "$BPFDRV_CACHE/kernels.XXXXXX")
trap 'rm -f "$want"' EXIT
selectors=
case " ${BPFDRV_KERNELS:-} " in *" newest "*|*" oldest "*)
	selectors=$BPFDRV_KERNELS BPFDRV_KERNELS=;;
esac
if [ -n "${BPFDRV_KERNELS:-}" ]; then
	echo "$BPFDRV_KERNELS" | tr ' ' '\n' >"$want"
elif [ -f "$matrix" ] && [ -n "$(find "$matrix" -mmin -1440)" ]; then
	cp "$matrix" "$want"
else
	log "resolving the kernel matrix"
	in_root apt-get update -q >/dev/null || die "apt-get update failed in the root"
	in_root /bin/bash -c '
		newest() { apt-cache search --names-only "$1" | awk "{print \$1}" |
			sed -n "s/^linux-headers-\(.*-amd64\)$/\1/p" | sort -V | tail -n 1; }
		newest "^linux-headers-6\.12\.[0-9]+\+deb13-amd64$"
		# the newest of all suites: trixie-backports carries the newest stable
		newest "^linux-headers-[0-9]+\.[0-9]+\.[0-9]+\+deb13-amd64$"
	' | awk 'NF' | sort -u -V >"$want"
	[ -s "$want" ] && cp "$want" "$matrix"
fi
[ -s "$want" ] || die "no kernels found for the matrix"
if [ -n "$selectors" ]; then
	all=$(cat "$want")
	for sel in $selectors; do
		case $sel in
		newest) tail -n 1 <<<"$all";;
		oldest) head -n 1 <<<"$all";;
		*) echo "$sel";;
		esac
	done | awk '!seen[$0]++' >"$want"
fi

updated=
while read -r rel; do
	[ -n "$(kernel_image "$rel")" ] && [ -d "$BPFDRV_ROOT/usr/src/linux-headers-$rel" ] && continue
	if [ -z "$updated" ]; then	# a fresh root has no package lists
		in_root apt-get update -q >/dev/null || die "apt-get update failed in the root"
		updated=1
	fi
	log "installing kernel $rel into the root"
	in_root /bin/bash -c '
		set -e
		rel=$1
		export DEBIAN_FRONTEND=noninteractive
		apt-get install -y -q --no-install-recommends "linux-headers-$rel" >/dev/null
		cd /tmp
		if apt-get download -q "linux-binary-$rel" "linux-modules-$rel" >/dev/null 2>&1; then :
		else apt-get download -q "linux-image-$rel" >/dev/null; fi
		for deb in /tmp/linux-*.deb; do dpkg-deb -x "$deb" /; done
		depmod "$rel"
	' bash "$rel" || die "cannot install kernel $rel"
done <"$want"
cat "$want"
