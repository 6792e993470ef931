#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Resolve the kernel matrix and install each kernel (image, modules, headers)
# into the cached root. Prints the kernel releases, one a line.
#
# The matrix, every line of Debian's amd64 kernels a trixie user can install:
# the newest 6.12 LTS kernel of trixie; the newest kernel of each of the two
# newest lines of trixie-backports; the PREEMPT_RT flavour of the newest.
# The newest generic kernel comes last: make bench, make demo and
# KERNELS=newest use it. BPFDRV_KERNELS="rel1 rel2" overrides it; the words
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
		releases() {	# releases FLAVOUR: every +deb13 release, oldest first
			apt-cache search --names-only \
				"^linux-headers-[0-9]+\.[0-9]+\.[0-9]+\+deb13-$1$" |
				sed -n "s/^linux-headers-\([^ ]*-$1\) .*/\1/p" | sort -V
		}
		all=$(releases amd64)
		grep "^6\.12\." <<<"$all" | tail -n 1
		# the newest release of each of the two newest lines (major.minor):
		# trixie-backports carries the newest stable line and the one before
		lines=$(sed "s/^\([0-9]*\.[0-9]*\)\..*/\1/" <<<"$all" | sort -u -V | tail -n 2)
		picks=$(for line in $lines; do
			grep "^${line//./\\.}\." <<<"$all" | tail -n 1
		done)
		newest=$(tail -n 1 <<<"$picks")
		head -n -1 <<<"$picks"
		releases rt-amd64 | grep -x "${newest%-amd64}-rt-amd64"
		echo "$newest"
	' | awk 'NF && !seen[$0]++' >"$want"
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
