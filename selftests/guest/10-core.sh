#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The framework core: loader errors, attach, character-device I/O, detach
# and module removal.
. "$(dirname "$0")/lib.sh"

# --- the structure kmod/ promises, on its source: no call cycle between
# files, one way to call a driver, one way to hold a bus device; and no
# cycle between the tool's files either (user/ and user/trace/: by call,
# by name, by #include), nor a header of its own included where none of
# its names is used ---
python3 -S "$(dirname "$0")/../kmod-structure.py" "$(dirname "$0")/../../kmod"
python3 -S "$(dirname "$0")/../kmod-structure.py" "$(dirname "$0")/../../user"

# --- loader errors that need no module ---
expect_err "load: module not loaded is reported" "module bpfdrv is not loaded" \
	$BPFDRV load $OBJ/echo.bpf.o

if ! insmod "$KO" 2>"$OUT/insmod"; then
	nok "insmod bpfdrv.ko"
	sed 's/^/# /' "$OUT/insmod"
	dmesg | tail -20 | sed 's/^/# /'
	exit 0
fi
ok "insmod bpfdrv.ko"
check "module BTF is published (/sys/kernel/btf/bpfdrv)" test -e /sys/kernel/btf/bpfdrv

# --- loader errors ---
expect_err "load: missing file" "No such file or directory" $BPFDRV load $OBJ/nonexistent.bpf.o
expect_err "load: not a BPF object" "not a BPF object" $BPFDRV load "$KO"
expect_err "load: object without chr_ext_ops map" "no chr_ext_ops map" $BPFDRV load $TOBJ/nomap.bpf.o
expect_err "load: out-of-bounds buffer access rejected by the verifier" \
	"rejected program 'oob_read'" $BPFDRV load $TOBJ/bad_oob.bpf.o
check "load: the verifier log tail explains the out-of-bounds access" \
	grep -q "invalid access to memory" "$OUT/out"
check "load: the error names its source line and instruction" \
	eval 'grep -q "source: .*bad_oob.bpf.c:[0-9]" "$OUT/out" &&
		grep -q "instruction: [0-9]*: (" "$OUT/out" &&
		grep -q "reason: *[A-Za-z]" "$OUT/out"'
expect_err "load: unchecked kfunc result (KF_RET_NULL) rejected by the verifier" \
	"rejected program 'nocheck_write'" $BPFDRV load $TOBJ/bad_kfunc.bpf.o
check "load: the verifier log tail names the NULL pointer" \
	grep -q "mem_or_null\|_or_null\|NULL" "$OUT/out"
expect_err "load: a verifier log over 4 KiB still ends in its error" \
	"invalid access to memory, mem_size=8 off=8 size=1" $BPFDRV load $TOBJ/bad_longlog.bpf.o
$BPFDRV -v load $TOBJ/bad_longlog.bpf.o >"$OUT/longlog" 2>&1
echo "# the whole log of bad_longlog: $(wc -c <"$OUT/longlog") bytes"
check "load -v prints the whole log (over 4 KiB, through its end marker)" \
	eval 'test "$(wc -c <"$OUT/longlog")" -gt 4096 && grep -q "END PROG LOAD LOG" "$OUT/longlog"'
expect_err "load: invalid --name" "invalid driver name" $BPFDRV load --name "bad name" $OBJ/echo.bpf.o

# --- attach the drivers the I/O tests use ---
check "load --pin echo" $BPFDRV load --pin $OBJ/echo.bpf.o
check "load --pin a second echo as echo2" $BPFDRV load --pin --name echo2 $OBJ/echo.bpf.o
check "load --pin fifo" $BPFDRV load --pin $OBJ/fifo.bpf.o
check "load --pin filestate (test driver)" $BPFDRV load --pin $TOBJ/filestate.bpf.o
check "load --pin badret (test driver)" $BPFDRV load --pin $TOBJ/badret.bpf.o
check "load --pin directio (test driver)" $BPFDRV load --pin $TOBJ/directio.bpf.o
check "device node /dev/bpfdrv/echo appears" test -c /dev/bpfdrv/echo
check "node mode comes from the ops (0666)" \
	test "$(stat -c %a /dev/bpfdrv/echo)" = 666
expect_err "load: duplicate name gives EEXIST" "already in use" $BPFDRV load $OBJ/echo.bpf.o

$B/selftests/test_chrdev

# --- per-op call counts in bpfdrv list ---
$BPFDRV load --pin --name counted $OBJ/echo.bpf.o >/dev/null
exec 3<>/dev/bpfdrv/counted
printf abc >&3
head -c 3 <&3 >/dev/null
dd bs=16 count=1 <&3 2>/dev/null >/dev/null
exec 3>&-
$BPFDRV list >"$OUT/list"
sed 's/^/# /' "$OUT/list"
check "list: counts opens/reads/writes of a driver (open 0, release 0, read 2, write 1)" \
	awk '$1 == "counted" && $2 == "counted" && $4 == 0 && $6 == 0 && $7 == 0 && $8 == 2 && $9 == 1 { f = 1 } END { exit !f }' "$OUT/list"
# the same as JSON, and status --json before and after the unload
$BPFDRV list --json >"$OUT/list.json"
check "list --json: the same counts, one object per line" python3 -S -c 'import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
r = [o for o in rows if o["type"] == "instance" and o["name"] == "counted"][0]
sys.exit(not (r["driver"] == "counted" and r["pci"] is None and r["open"] == 0 and
              r["calls"]["read"] == 2 and r["calls"]["write"] == 1 and
              r["calls"]["release"] == 0 and r["attached_by"] == "pin"))' "$OUT/list.json"
check "status --json: attached, pinned, its one node" python3 -S -c 'import json, subprocess, sys
o = json.loads(subprocess.check_output(sys.argv[1:]))
sys.exit(not (o["attached"] and o["pinned"] and o["nr_instances"] == 1 and
              o["instances"][0]["node"] == "/dev/bpfdrv/counted"))' $BPFDRV status --json counted
$BPFDRV unload counted
check "status --json after the unload: not attached, its last exit an unload" \
	python3 -S -c 'import json, subprocess, sys
o = json.loads(subprocess.check_output(sys.argv[1:]))
sys.exit(not (not o["attached"] and o["nr_instances"] == 0 and
              o["last_exit"]["kind"] == "unload" and o["last_exit"]["driver"] == "counted"))' \
	$BPFDRV status --json counted
expect_err "status --json of a driver never seen: exit 1, says so" "no driver named" \
	$BPFDRV status --json never-seen

# --- a seekable register file: variable offset, variable length ---
check "load --pin regfile" $BPFDRV load --pin $TOBJ/regfile.bpf.o
if python3 - >"$OUT/regfile" 2>&1 <<'PY'
import errno, fcntl, os, random, sys
SIZE = 256
fd = os.open("/dev/bpfdrv/regfile", os.O_RDWR)
model = bytearray(SIZE)
rng = random.Random(7)
for i in range(300):
    pos = rng.randrange(0, SIZE + 8)
    n = rng.randrange(0, 80)
    if rng.random() < 0.5:
        data = bytes(rng.randrange(256) for _ in range(n))
        try:
            got = os.pwrite(fd, data, pos)
        except OSError as e:
            got = -e.errno
        want = -errno.ENOSPC if pos >= SIZE and n else min(n, max(SIZE - pos, 0))
        if n and pos < SIZE:
            model[pos:pos + want] = data[:want]
    else:
        got = os.pread(fd, n, pos)
        want = bytes(model[pos:pos + n])
    if got != want:
        print(f"op {i}: pos {pos} len {n}: got {got!r}, want {want!r}")
        sys.exit(1)
os.lseek(fd, 250, os.SEEK_SET)
if os.read(fd, 100) != bytes(model[250:]) or os.read(fd, 1) != b"":
    print("read from 250 after lseek: wrong")
    sys.exit(1)
for cmd, what in ((0x80105201, "past regs"), (0x80105202, "past the I/O buffer")):
    try:
        fcntl.ioctl(fd, cmd, bytes(16))
        print(f"a copy {what} was not refused")
        sys.exit(1)
    except OSError as e:
        if e.errno != errno.ERANGE:
            print(f"a copy {what}: {e}")
            sys.exit(1)
print("# 300 random preads/pwrites matched the model; both bad ranges gave ERANGE")
PY
then
	ok "regfile: random reads and writes at variable offsets match a model; bad ranges get ERANGE"
else
	nok "regfile: random reads and writes at variable offsets match a model; bad ranges get ERANGE"
fi
cat "$OUT/regfile"
check "unload regfile" $BPFDRV unload regfile

# --- a skeleton from bpfdrv new, built out of tree by its own Makefile ---
expect_err "new: a name that is no C identifier is refused" "C identifier" \
	$BPFDRV new bad-name -o "$OUT/x"
expect_err "new: never overwrites a driver" "never overwrites" \
	$BPFDRV new skel -o $B/new/skel
check "load the skeleton" $BPFDRV load --pin $B/new/skel/skel.bpf.o
skeleton_test skel '^4 passed, 0 failed' "the skeleton passes its generated test"
check "unload the skeleton" $BPFDRV unload skel

# --- the BPF helpers writing-a-driver.md lists ---
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
check "load --pin helpers (bpf_printk)" $BPFDRV load --pin $TOBJ/helpers.bpf.o
python3 -c 'import fcntl, os; fcntl.ioctl(os.open("/dev/bpfdrv/helpers", os.O_RDWR), 0x4801)'
check "bpf_printk with four arguments reaches the trace buffer" \
	grep -q "bpfdrv helpers: armed 1 2 3 4" /sys/kernel/tracing/trace
check "unload helpers" $BPFDRV unload helpers

# --- bpfdrv's timers (ABI 10), PREEMPT_RT included ---
cat >"$OUT/timers.py" <<'PY'
import fcntl, os, struct, sys, time
ARM, COUNT, MODE = 0x40105401, 0x40045402, 0x40045403
fd = os.open("/dev/bpfdrv/timers", os.O_RDWR)
def ioc(cmd, data):	# the ioctl's return value, or -errno
    try:
        return fcntl.ioctl(fd, cmd, bytearray(data), True)
    except OSError as e:
        return -e.errno
def arm(i, ns):
    return ioc(ARM, struct.pack("IIQ", i, 0, ns))
def count(i):
    return ioc(COUNT, struct.pack("I", i))
op = sys.argv[1]
if op == "once":	# armed at 1 ms: fires once, within 5 s
    r = arm(0, 1000000)
    end = time.monotonic() + 5
    while count(0) == 0 and time.monotonic() < end:
        time.sleep(0.01)
    time.sleep(0.3)
    print(r, count(0), arm(BPFDRV_TIMERS_MAX, 0), arm(1, 10**18))
elif op == "rearm":	# re-arms itself at 0 ns for a second
    ioc(MODE, struct.pack("I", 1))
    c0 = count(2)
    arm(2, 0)
    time.sleep(1)
    print(count(2) - c0)
elif op == "arm":	# timer 1, in 5 s (an update takes seconds on slow kernels)
    print(arm(1, 5000000000))
elif op == "count":	# timer 1's, once it fired (at most 15 s)
    end = time.monotonic() + 15
    while count(1) == 0 and time.monotonic() < end:
        time.sleep(0.1)
    print(count(1))
elif op == "flood":	# 20000 armings of every timer, 0 to 3 ms ahead
    ioc(MODE, struct.pack("I", 0))
    before = sum(count(i) for i in range(4))
    bad = sum(arm(i % 4, (i % 4) * 1000000) != 0 for i in range(20000))
    time.sleep(0.05)
    print(bad, sum(count(i) for i in range(4)) - before)
elif op == "loop":	# its callback loops without end
    ioc(MODE, struct.pack("I", 2))
    arm(3, 0)
PY
sed -i "s/BPFDRV_TIMERS_MAX/4/" "$OUT/timers.py"
check "load --pin timers" $BPFDRV load --pin $TOBJ/timers.bpf.o
read -r r fired bad_id bad_delay < <(python3 "$OUT/timers.py" once)
check "a timer armed at 1 ms fires once (start $r, fired $fired)" test "$r $fired" = "0 1"
check "a timer id past the last, and a delay over a day, give EINVAL ($bad_id, $bad_delay)" \
	test "$bad_id $bad_delay" = "-22 -22"
runs=$(python3 "$OUT/timers.py" rearm)
check "a timer re-armed at 0 ns from its own callback runs at most once a ms ($runs times in 1 s)" \
	test "${runs:-0}" -gt 10 -a "${runs:-0}" -le 1000
# still re-arming: once the detach returns, no callback runs
check "its callbacks show in the trace" grep -q "timers: fired 2" /sys/kernel/tracing/trace
check "unload timers while its timer re-arms itself" $BPFDRV unload timers
echo >/sys/kernel/tracing/trace
sleep 0.5
check "no timer callback ran after the detach returned" \
	eval '! grep -q "timers: fired" /sys/kernel/tracing/trace'
check "load --pin timers again" $BPFDRV load --pin $TOBJ/timers.bpf.o
# armed by the old code, fired into the new: the call primitive's order
check "arm timer 1 in 5 s" test "$(python3 "$OUT/timers.py" arm)" = 0
t0=$SECONDS
check "update timers to a version that counts 1000 a run, at once" \
	$BPFDRV update timers $TOBJ/update/timers_v2.bpf.o
took=$((SECONDS - t0))
if [ $took -lt 4 ]; then
	n=$(python3 "$OUT/timers.py" count)
	check "the timer armed before the update ran the new code once (count $n)" \
		test "$n" = 1000
else
	echo "# skip: the timer across the update (the update took $took s, the timer 5)"
fi
# a flood of armings, the timers still armed at the detach
read -r bad runs < <(python3 "$OUT/timers.py" flood)
check "20000 armings of the 4 timers all accepted ($bad refused; $runs runs meanwhile)" \
	test "$bad" = 0 -a "${runs:-0}" -gt 0
check "unload timers with its timers armed" $BPFDRV unload timers
check "load --pin timers a third time" $BPFDRV load --pin $TOBJ/timers.bpf.o
budget=$(cat /sys/module/bpfdrv/parameters/loop_max_ms)
python3 "$OUT/timers.py" loop
check "a timer callback that loops without end is ejected" wait_for 10 node_gone timers
status_says timers "bpfdrv status says why: timer looped for more than $budget ms" \
	"last exit: protocol in timer at .*: timer looped for more than $budget ms"
$BPFDRV unload timers >/dev/null 2>&1

# --- detach while a reader is blocked ---
$BPFDRV load --pin --name fifo2 $OBJ/fifo.bpf.o >/dev/null
cat /dev/bpfdrv/fifo2 >"$OUT/cat" 2>&1 &
reader=$!
sleep 0.5
check "blocked reader is still waiting before detach" kill -0 $reader
check "unload fifo2 while a reader is blocked" $BPFDRV unload fifo2
if wait_for 5 node_gone fifo2 && wait_for 5 eval "! kill -0 $reader"; then
	wait $reader
	rc=$?
	if [ $rc -ne 0 ] && grep -q "No such device" "$OUT/cat"; then
		ok "detach wakes the blocked reader with ENODEV"
	else
		nok "detach wakes the blocked reader with ENODEV (rc $rc)"
		sed 's/^/# /' "$OUT/cat"
	fi
else
	nok "detach wakes the blocked reader with ENODEV (still blocked)"
	kill $reader
fi

# --- detach while files are open ---
$BPFDRV load --pin --name held $OBJ/echo.bpf.o >/dev/null
exec 4<>/dev/bpfdrv/held
printf x >&4
check "unload held with an open file" $BPFDRV unload held
check "node is removed at detach" node_gone held
if ( printf y >&4 ) 2>"$OUT/w"; then nok "write to a detached device fails"; else
	check "write to a detached device gives ENODEV" grep -q "No such device" "$OUT/w"; fi
if ( head -c 1 <&4 ) >/dev/null 2>"$OUT/r"; then nok "read from a detached device fails"; else
	check "read from a detached device gives ENODEV" grep -q "No such device" "$OUT/r"; fi
exec 4>&-

# --- foreground load detaches on Ctrl-C ---
$BPFDRV load --name fg $OBJ/echo.bpf.o >"$OUT/fg" 2>&1 &
fg=$!
check "foreground load attaches" wait_for 10 test -c /dev/bpfdrv/fg
kill -INT $fg
wait $fg
check "SIGINT to the foreground loader detaches (exit 0, node gone)" \
	eval "[ $? -eq 0 ] && wait_for 5 node_gone fg"

# --- unload and module removal ---
check "rmmod is refused while drivers are attached" eval "! rmmod bpfdrv 2>/dev/null"
for d in echo echo2 fifo filestate badret directio; do
	check "unload $d" $BPFDRV unload $d
done

# --- bpftool works on the same objects ---
mkdir -p /sys/fs/bpf/bt
# bpftool 7.5 attaches and pins, then crashes printing module struct_ops
# (it looks their type up in vmlinux BTF only); judge by what it did.
bpftool struct_ops register $OBJ/echo.bpf.o /sys/fs/bpf/bt >"$OUT/bt" 2>&1
echo "# bpftool struct_ops register: exit $?"
check "bpftool struct_ops register attaches echo.bpf.o and pins its link as the driver's name" \
	eval 'test -c /dev/bpfdrv/echo && test -e /sys/fs/bpf/bt/echo'
check "the bpftool-attached driver carries data" \
	bash -c 'printf bt >/dev/bpfdrv/echo && test "$(cat /dev/bpfdrv/echo)" = bt'
check "bpfdrv unload detaches a bpftool-attached driver" $BPFDRV unload echo
check "... and removes bpftool's pin of its link" test ! -e /sys/fs/bpf/bt/echo
rm -f /sys/fs/bpf/bt/*

check "all nodes are gone after unload" eval '[ -z "$(ls /dev/bpfdrv 2>/dev/null)" ]'
check "rmmod works once every driver is detached" wait_for 10 rmmod bpfdrv
