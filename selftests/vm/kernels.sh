#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Resolve the kernel matrix and install each kernel (image, modules, headers)
# into the cached root. Prints the kernel releases, one a line.
#
# The matrix, every line of Debian's amd64 kernels a user can install: the
# newest 6.12 LTS kernel of Debian 12 (+deb12, from bookworm-security; its
# module builds in the bookworm root, it boots on the trixie root); the
# newest 6.12 LTS kernel of trixie; the newest kernel of each of the two
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
	# make demo, bench and vm boot the newest kernel only: without a cached
	# matrix, they resolve just that one (no bookworm root) and cache none
	only_newest=
	[ "$(echo $selectors)" = newest ] && only_newest=1
	log "resolving the kernel matrix${only_newest:+ (its newest kernel)}"
	: >"$want"
	if [ -z "$only_newest" ]; then
		"$(dirname "$0")/mkroot.sh" bookworm || exit 1
		BPFDRV_ROOT=$BPFDRV_ROOT12 in_root apt-get update -q >/dev/null ||
			die "apt-get update failed in the bookworm root"
		BPFDRV_ROOT=$BPFDRV_ROOT12 in_root /bin/bash -c '
			apt-cache search --names-only "^linux-headers-6\.12\.[0-9]+\+deb12-amd64$" |
				sed -n "s/^linux-headers-\([^ ]*\) .*/\1/p" | sort -V | tail -n 1
		' >"$want"
	fi
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
	' >>"$want"
	awk 'NF && !seen[$0]++' "$want" >"$want.sorted" && mv "$want.sorted" "$want"
	[ -s "$want" ] && [ -z "$only_newest" ] && cp "$want" "$matrix"
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

updated= updated12=
while read -r rel; do
	root=$(kernel_root "$rel")
	[ -n "$(kernel_image "$rel")" ] && [ -d "$root/usr/src/linux-headers-$rel" ] && continue
	if [ "$root" = "$BPFDRV_ROOT12" ]; then
		# headers and kbuild unpacked in the bookworm root (installing them
		# would pull in the image and an initramfs), image and modules in
		# the trixie root, which the guest boots on
		"$(dirname "$0")/mkroot.sh" bookworm || exit 1
		if [ -z "$updated12" ]; then
			BPFDRV_ROOT=$root in_root apt-get update -q >/dev/null ||
				die "apt-get update failed in the bookworm root"
			updated12=1
		fi
		log "installing kernel $rel (headers into the bookworm root)"
		debs=$root/var/cache/bpfdrv-kernel
		rm -rf "$debs"
		mkdir -p "$debs"
		BPFDRV_ROOT=$root in_root /bin/bash -c '
			set -e
			rel=$1
			cd /var/cache/bpfdrv-kernel
			deps=$(apt-cache show "linux-headers-$rel" | sed -n "s/^Depends: //p" |
				tr "," "\n" | grep -oE "linux-(headers-[^ ]*-common|kbuild-[^ ]*)" | sort -u)
			apt-get download -q -o APT::Sandbox::User=root \
				"linux-headers-$rel" $deps "linux-image-$rel" >/dev/null
		' bash "$rel" || die "cannot download kernel $rel"
		# (the roots have a merged /usr: /lib stays a link)
		for deb in "$debs"/*.deb; do
			case ${deb##*/} in
			linux-image-*) dest=$BPFDRV_ROOT;;
			*) dest=$root;;
			esac
			dpkg-deb --fsys-tarfile "$deb" | tar -x --keep-directory-symlink -C "$dest" ||
				die "cannot unpack ${deb##*/}"
		done
		rm -rf "$debs"
		in_root depmod "$rel" || die "depmod $rel failed"
		continue
	fi
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
