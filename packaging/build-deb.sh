#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make deb, inside the Debian root (selftests/vm/run.sh deb): build the
# packages from a copy of the tree, since dpkg-buildpackage writes beside
# the source, then check them with lintian. Packages and the lintian report
# go to OUT (default build/deb).
#   build-deb.sh [OUT [VERSION [SOURCE]]]
# VERSION (default: the VERSION file) is the packages' and the tool's
# version, SOURCE what they were built from, for the changelog: run.sh
# gives VERSION+gitN.HASH, so that every commit's packages upgrade the last.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-build/deb}")
ver=${2:-$(cat VERSION)}
source=${3:-a source tree}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/bpfdrv" "$out"
tar --exclude=./build --exclude=./.git -cf - . | tar -C "$work/bpfdrv" -xf -
# this build's entry heads the changelog; the tool says the same version
abi=$(awk '$2 == "BPFDRV_ABI_VERSION" { print $3 }' include/bpfdrv_abi.h)
if [ "$ver" != "$(dpkg-parsechangelog -SVersion)" ]; then
	echo "$ver" >"$work/bpfdrv/VERSION"
	{
		printf 'bpfdrv (%s) unstable; urgency=medium\n\n' "$ver"
		printf '  * Built from %s (driver ABI %s).\n\n' "$source" "$abi"
		printf ' -- bpfdrv developers <bpfdrv@example.org>  %s\n\n' "$(date -R)"
		cat debian/changelog
	} >"$work/bpfdrv/debian/changelog"
fi
(cd "$work/bpfdrv" && dpkg-buildpackage -b -us -uc) >"$out/build.log" 2>&1 ||
	{ tail -40 "$out/build.log" >&2; echo "dpkg-buildpackage failed; see $out/build.log" >&2; exit 1; }
rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
cp "$work"/*.deb "$work"/*.changes "$work"/*.buildinfo "$out"/
# errors fail the build; warnings are reported (lintian.txt)
lintian --fail-on error --info "$out"/*.changes >"$out/lintian.txt" 2>&1 ||
	{ cat "$out/lintian.txt" >&2; echo "lintian found errors" >&2; exit 1; }
for deb in "$out"/*.deb; do
	echo "${deb##*/}: $(dpkg-deb -f "$deb" Installed-Size) kB installed"
done
echo "lintian: $(grep -c '^E:' "$out/lintian.txt") errors, $(grep -c '^W:' "$out/lintian.txt") warnings (build/deb/lintian.txt)"
