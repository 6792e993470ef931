#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bpfdrv trace against real DRM clients: libdrm's modetest, proptest and
# vbltest on vgem and the virtio GPU, run under
# `bpfdrv trace -g drm -- CLIENT`. Every drm_ioctl row (per ioctl number)
# and every process's total must equal an independent count taken over the
# same run without BPF: an ftrace kprobe event on drm_ioctl that records its
# cmd argument, with a hist trigger keyed on the calling PID and cmd.
#
# The kprobe event counts every process; the tracer counts COMMAND and the
# processes it starts (no -p/-c filter). Filtering the ftrace side by PID
# would miss the children of `sh -c` and of forking clients, so both sides
# count everything they see instead, and the VM (no compositor, no display
# server) has nothing else that issues DRM ioctls: the counts must agree. A
# stray process would show up as a PID the tracer does not have.
. "$(dirname "$0")/lib.sh"

T=$B/selftests
TR=/sys/kernel/tracing
KPROBE=bpfdrv_ck/drm_ioctl
EV=$TR/events/$KPROBE
HIST='hist:keys=common_pid,cmd:size=4096'

# compare TRACE_JSON HIST_FILE: per ioctl number (cmd & 0xff) and per
# process, the tracer's counts against the hist trigger's; prints the
# differing rows and fails on any
cat >"$OUT/compare.py" <<'EOF'
import json, re, sys
trace, hist, what = sys.argv[1], sys.argv[2], sys.argv[3]
t, h = {}, {}
for line in open(trace):
    if not line.startswith("{"):
        continue
    o = json.loads(line)
    if o.get("hook") != "drm_ioctl":
        continue
    if what == "nr" and o["type"] == "stat":
        t[o["sub"]] = t.get(o["sub"], 0) + o["count"]
    elif what == "pid" and o["type"] == "proc":
        t[o["pid"]] = t.get(o["pid"], 0) + o["count"]
dropped = 0
for line in open(hist):
    m = re.match(r"\{ common_pid:\s*(\d+), cmd:\s*(\d+) \} hitcount:\s*(\d+)", line)
    if m:
        key = int(m[2]) & 0xff if what == "nr" else int(m[1])
        h[key] = h.get(key, 0) + int(m[3])
    m = re.match(r"\s*Dropped:\s*(\d+)", line)
    if m:
        dropped += int(m[1])
bad = [(k, t.get(k, 0), h.get(k, 0)) for k in sorted(set(t) | set(h))
       if t.get(k, 0) != h.get(k, 0)]
label = "ioctl nr" if what == "nr" else "pid"
print(f"# {len(h)} {label}s, {sum(h.values())} calls by ftrace, "
      f"{sum(t.values())} by bpfdrv trace")
for k, a, b in bad:
    print(f"# {label} {k:#04x}: bpfdrv trace {a}, ftrace {b}" if what == "nr"
          else f"# {label} {k}: bpfdrv trace {a}, ftrace {b}")
if dropped:
    print(f"# ftrace dropped {dropped} entries")
sys.exit(1 if bad or dropped or not h else 0)
EOF

cleanup() {
	[ -e "$EV/trigger" ] || return 0
	echo 0 >"$EV/enable"
	echo "!$HIST" >"$EV/trigger" 2>/dev/null
	echo "-:$KPROBE" >>"$TR/kprobe_events"
}

load_module || { nok "insmod bpfdrv.ko"; exit 0; }
modprobe vgem 2>/dev/null
modprobe virtio_gpu 2>/dev/null
vgem=$($T/test_trace_drm find vgem)
gpu=$(wait_for 10 $T/test_trace_drm find virtio_gpu >/dev/null && $T/test_trace_drm find virtio_gpu)
mountpoint -q $TR || mount -t tracefs tracefs $TR
if [ -z "$vgem" ] || [ -z "$gpu" ]; then
	echo "# skip: DRM clients (no vgem '$vgem' or virtio_gpu '$gpu' card)"
	exit 0
fi
if [ "$(uname -m)" != x86_64 ] || [ ! -w $TR/kprobe_events ]; then
	echo "# skip: DRM clients (the kprobe event takes cmd from x86_64's %si)"
	exit 0
fi
if ! command -v modetest >/dev/null; then
	nok "libdrm-tests (modetest, proptest, vbltest) is installed in the guest"
	exit 0
fi
echo "# vgem $vgem, virtio_gpu $gpu"
trap cleanup EXIT
cleanup
# drm_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
check "ftrace: a kprobe event on drm_ioctl records cmd" \
	eval "echo 'p:$KPROBE drm_ioctl cmd=%si:u32' >>$TR/kprobe_events"
[ -e "$EV/trigger" ] || exit 0

# client LABEL CMD...: run CMD under bpfdrv trace with the hist trigger
# counting, then compare; CMD's stdout is in $OUT/LABEL.out
client() {
	local label=$1 rc

	shift
	echo "$HIST" >"$EV/trigger"
	echo 1 >"$EV/enable"
	timeout 60 $BPFDRV trace -g drm -q --json -o "$OUT/$label.json" -- "$@" \
		>"$OUT/$label.out" 2>"$OUT/$label.err"
	rc=$?
	echo 0 >"$EV/enable"
	cat "$EV/hist" >"$OUT/$label.hist"
	echo "!$HIST" >"$EV/trigger"
	# a client may fail (no KMS on vgem, no vblanks): its counts still count
	echo "# $label: exit status $rc"
	[ $rc -eq 0 ] || { tail -n 2 "$OUT/$label.out"; grep -v '^bpfdrv: tracing' \
		"$OUT/$label.err" | head -3; } | sed 's/^/#   /'
	if ! grep -q '"type":"end"' "$OUT/$label.json" 2>/dev/null; then
		nok "$label: bpfdrv trace wrote its report"
		sed 's/^/# /' "$OUT/$label.err" | head -20
		return
	fi
	if python3 -S "$OUT/compare.py" "$OUT/$label.json" "$OUT/$label.hist" nr >"$OUT/cmp"; then
		ok "$label: every drm_ioctl count per ioctl number equals ftrace's"
	else
		nok "$label: every drm_ioctl count per ioctl number equals ftrace's"
	fi
	cat "$OUT/cmp"
	if python3 -S "$OUT/compare.py" "$OUT/$label.json" "$OUT/$label.hist" pid >"$OUT/cmp"; then
		ok "$label: every process's drm_ioctl count equals ftrace's"
	else
		nok "$label: every process's drm_ioctl count equals ftrace's"
		cat "$OUT/cmp"
	fi
}

client "modetest -c" modetest -M virtio_gpu -c
# the comparison is not vacuous: one call more on the ftrace side fails it
awk '!done && /^\{ .*hitcount:/ { $NF = $NF + 1; done = 1 } 1' "$OUT/modetest -c.hist" >"$OUT/plus1.hist"
check "a count that differs by one call fails the comparison" \
	eval "! python3 -S $OUT/compare.py '$OUT/modetest -c.json' $OUT/plus1.hist nr"
client "modetest -e -p -f" modetest -M virtio_gpu -e -p -f
# a mode set on the first connected connector, with its first mode; modetest
# waits for a key before it restores, and gets EOF
mode=$(awk '/^Connectors:/ { c = 1; next } c && $3 == "connected" { id = $1 }
	    id && /^  #0 / { print id ":" $2; exit }' "$OUT/modetest -c.out")
if [ -n "$mode" ]; then
	client "modetest -s $mode" modetest -M virtio_gpu -s "$mode" </dev/null
else
	echo "# skip: modetest -s (no connected connector with a mode)"
	sed 's/^/# /' "$OUT/modetest -c.out" | head -20
fi
client "modetest -M vgem" modetest -M vgem
client "proptest" proptest -M virtio_gpu
# vbltest waits for vblank events until stdin is readable: EOF after a second
client "vbltest" vbltest -M virtio_gpu < <(sleep 1)
client "sh -c modetest && proptest" sh -c \
	'modetest -M virtio_gpu -c >/dev/null && proptest -M virtio_gpu >/dev/null'
client "3 forked modetest" sh -c \
	'for i in 1 2 3; do modetest -M virtio_gpu -p >/dev/null & done; wait'

cleanup
trap - EXIT
check "ftrace: the kprobe event and its trigger are removed" \
	eval "! grep -q '$KPROBE' $TR/kprobe_events && [ ! -e $EV ]"
echo "# drm-clients: $SECONDS s"
