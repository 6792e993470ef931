#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The packaged tool on the host (Debian 12 in CI): the binary runs, and apt
# accepts the package's dependencies. Never installs anything: the host
# must not load bpfdrv. Prints unnumbered TAP lines, like the guest parts.
. "$(dirname "$0")/lib.sh"

deb=$(ls "$BPFDRV_BUILD"/deb/bpfdrv_*_amd64.deb 2>/dev/null | head -1)
if [ -z "$deb" ]; then
	echo "not ok - the bpfdrv package was built"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. /etc/os-release
echo "# host: $PRETTY_NAME, glibc $(ldd --version | awk 'NR == 1 { print $NF }')"
dpkg-deb -x "$deb" "$tmp"
abi=$(awk '$2 == "BPFDRV_ABI_VERSION" { print $3 }' "$BPFDRV_TOP/include/bpfdrv_abi.h")
if out=$("$tmp/usr/bin/bpfdrv" --version 2>&1) &&
	[ "$out" = "bpfdrv $(dpkg-deb -f "$deb" Version) (driver ABI $abi)" ]; then
	echo "ok - the packaged bpfdrv runs on the host ($out)"
else
	echo "not ok - the packaged bpfdrv runs on the host"
	echo "$out" | sed 's/^/# /'
fi
# help: the overview and each command's options, exit 0; a wrong name, 2
b=$tmp/usr/bin/bpfdrv
bogus=$("$b" help bogus 2>&1)
rc=$?
if "$b" help | grep -q "^usage: bpfdrv" && "$b" help trace | grep -q "^usage: bpfdrv trace" &&
	[ $rc -eq 2 ] && grep -q "no command 'bogus'" <<<"$bogus"; then
	echo "ok - bpfdrv help, help trace (exit 0) and help bogus (exit 2, says why)"
else
	echo "not ok - bpfdrv help, help trace (exit 0) and help bogus (exit 2, says why)"
fi
# the manual names every option each command's --help has
man8=$tmp/usr/share/man/man8/bpfdrv.8.gz
missing=
for c in load unload update list status stats trace new autoload bind unbind; do
	for o in $("$b" "$c" --help 2>&1 | grep -oE "(^|[ ,[])--[a-zA-Z0-9][a-zA-Z0-9-]*" |
		   sed 's/^[ ,[]//' | sort -u); do
		zcat "$man8" | sed 's/\\-/-/g' | grep -q -- "$o\b" || missing+=" $c $o"
	done
done
if [ -z "$missing" ]; then
	echo "ok - the manual names every option of every command's --help"
else
	echo "not ok - the manual names every option of every command's --help (missing:$missing)"
fi
# ... and --help every option its parser takes (the getopt tables in
# user/*.c and the tracer's user/trace/cli.c): the completion and the
# manual come after it
missing=$(python3 - "$b" "$BPFDRV_TOP"/user/*.c "$BPFDRV_TOP"/user/trace/cli.c <<'EOF'
import os, re, subprocess, sys
tool, missing = sys.argv[1], []
header = open(os.path.join(os.path.dirname(sys.argv[2]), "bpfdrv.h")).read()
macros = dict(re.findall(r"#define ([A-Z_]+_OPTIONS) \\\n((?:.*\\\n)*.*)", header))
for path in sys.argv[2:]:
    # the command is the file's name; the tracer's is in trace/cli.c
    src, cmd = open(path).read(), os.path.basename(path)[:-2]
    cmd = "trace" if path.endswith("/trace/cli.c") else cmd
    tables = re.findall(r"struct option \w+\[\] = \{(.*?)\n\t\};", src, re.S)
    # tables shared through a macro (OVERRIDE_OPTIONS: bpfdrv.h)
    tables = [re.sub(r"\b([A-Z_]+_OPTIONS)\b", lambda m: macros.get(m.group(1), ""), t)
              for t in tables]
    if not tables or "int cmd_%s(" % cmd not in src:
        continue
    out = subprocess.run([tool, cmd, "--help"], capture_output=True, text=True)
    for opt in re.findall(r'\{ "([a-z0-9-]+)",', "".join(tables)):
        if not re.search(r"--%s\b" % re.escape(opt), out.stdout + out.stderr):
            missing.append("%s --%s" % (cmd, opt))
print(" ".join(missing))
EOF
)
if [ -z "$missing" ]; then
	echo "ok - each command's --help names every option its parser takes"
else
	echo "not ok - each command's --help names every option its parser takes (missing: $missing)"
fi
# bash completion: commands from help, options from the command's --help
comp=$tmp/usr/share/bash-completion/completions/bpfdrv
if [ -f "$comp" ] && out=$(PATH=$tmp/usr/bin:$PATH bash -c '. "$1"
	COMP_WORDS=(bpfdrv tr); COMP_CWORD=1; _bpfdrv; echo "${COMPREPLY[*]}"
	COMP_WORDS=(bpfdrv trace --kp); COMP_CWORD=2; _bpfdrv; echo "${COMPREPLY[*]}"' _ "$comp") &&
	[ "$out" = "trace
--kprobe-multi --kprobes" ]; then
	echo "ok - bash completion: bpfdrv tr<TAB> is trace, trace --kp<TAB> its two options"
else
	echo "not ok - bash completion: bpfdrv tr<TAB> is trace, trace --kp<TAB> its two options"
	echo "$out" | sed 's/^/# /'
fi
if ! command -v apt-get >/dev/null; then
	echo "# skip: apt on the host (not a Debian host)"
elif out=$(apt-get install --simulate -q "$deb" 2>&1); then
	echo "ok - apt on the host accepts the package's dependencies"
else
	echo "not ok - apt on the host accepts the package's dependencies"
	echo "$out" | tail -5 | sed 's/^/# /'
fi
