#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Ejection: a driver that reports a fatal error (bpfdrv_error) from any
# callback, or keeps returning bad lengths, is detached by the kernel; its
# nodes go, blocked callers wake, its hardware is released, and the reason
# is kept (bpfdrv status, bpfdrv list, /sys/kernel/bpfdrv/exits). The
# ejector test driver arms a failure in one callback through an ioctl.
. "$(dirname "$0")/lib.sh"

EJ=$TOBJ/ejector.bpf.o
LABEL=bpfdrv-loopback

load_module || { nok "insmod bpfdrv.ko for the ejection tests"; exit 0; }

# trigger DEV CB: arm callback CB (ejector.h numbering) and make it run
trigger() {
	python3 -S - "$@" <<'EOF'
import fcntl, os, select, struct, sys
dev, cb = sys.argv[1], int(sys.argv[2])
EJ_IOC_ARM = 0x40044a01
fd = os.open(dev, os.O_RDWR | os.O_NONBLOCK)
try:
    fcntl.ioctl(fd, EJ_IOC_ARM, struct.pack("I", cb))
except OSError:
    pass                                  # EJ_IOCTL fails at once
try:
    if cb == 1:
        os.close(os.open(dev, os.O_RDWR))   # open
    elif cb == 3:
        os.read(fd, 16)                     # read
    elif cb == 4:
        os.write(fd, b"x")                  # write
    elif cb == 6:
        select.select([fd], [], [], 0)      # poll
except OSError:
    pass
os.close(fd)                                # release
EOF
}

# ejected NAME CB [NODE [MSG]]: NODE goes away and NAME's last exit is an
# error in CB whose message matches MSG (default: ejector's, naming the
# instance by number: the formatting helpers format numbers only)
ejected() {
	local name=$1 cb=$2 node=${3:-$1} msg=${4:-of instance [0-9]}

	check "$name: the node goes away after the error in $cb" wait_gone "$node"
	$BPFDRV status "$name" >"$OUT/status" 2>&1
	sed 's/^/# /' "$OUT/status"
	check "$name: bpfdrv status reports the error in $cb with the driver's message" \
		grep -q "last exit: error in $cb at .*: .*$msg" "$OUT/status"
}

cbs=(none open release read write ioctl poll)
for n in 1 2 3 4 5 6; do
	cb=${cbs[$n]}
	name=ej_$cb
	check "load --pin $name" $BPFDRV load --pin --name "$name" "$EJ"
	trigger "/dev/bpfdrv/$name" "$n"
	ejected "$name" "$cb"
	check "$name: the name attaches again after the ejection" \
		$BPFDRV load --pin --name "$name" "$EJ"
	check "$name: and detaches" $BPFDRV unload "$name"
done

# the reason is kept before the node goes: read as soon as the node is
# gone, the exits say error, not the unload before it; and the name
# loads again at once
race=8
rounds=0 stale=0
while [ $rounds -lt $race ]; do
	$BPFDRV load --pin --name ej_race "$EJ" >"$OUT/race" 2>&1 &&
		$BPFDRV unload ej_race >>"$OUT/race" 2>&1 &&
		$BPFDRV load --pin --name ej_race "$EJ" >>"$OUT/race" 2>&1 || break
	trigger /dev/bpfdrv/ej_race 3
	wait_gone ej_race || break
	mapfile -t exits </sys/kernel/bpfdrv/exits	# no fork before the read
	printf '%s\n' "${exits[@]}" >"$OUT/race"
	grep -q "^ej_race error [0-9]* read .*armed failure" "$OUT/race" ||
		stale=$((stale + 1))
	rounds=$((rounds + 1))
done
grep "^ej_race " "$OUT/race" | sed 's/^/# /'
check "ej_race: $race ejections, each loaded again at once ($rounds done)" test $rounds -eq $race
check "ej_race: read as the node goes, the exit says error ($stale of $rounds said the unload before)" \
	test $rounds -gt 0 -a $stale -eq 0
$BPFDRV unload ej_race >/dev/null 2>&1

# init: the instance attaches, then the driver is ejected
$BPFDRV load --pin --name ej_init "$EJ" >/dev/null 2>&1
ejected ej_init init

# irq: on an edu function, the error comes from the interrupt thread
mapfile -t edus < <(lspci -Dn -d 1234:11e8 | awk '{ print $1 }')
if [ ${#edus[@]} -ge 1 ]; then
	check "load --pin ej_irq on an edu function" \
		$BPFDRV load --pin --name ej_irq --device "${edus[0]}" "$EJ"
	trigger /dev/bpfdrv/ej_irq0 7
	ejected ej_irq irq ej_irq0
	check "ej_irq: the ejected driver's interrupt is freed" \
		eval "! grep -q ej_irq /proc/interrupts"
	# unbind records that the driver lost its device
	check "load --pin ej_rm on an edu function" \
		$BPFDRV load --pin --name ej_rm --device "${edus[0]}" "$EJ"
	$BPFDRV unbind "${edus[0]}" >/dev/null
	check "unbinding the function records 'removed' for its driver" \
		eval "$BPFDRV status ej_rm | grep -q 'last exit: removed at .*lost PCI function ${edus[0]}'"
	$BPFDRV unload ej_rm >/dev/null
	# a driver that keeps another function: the lost one is no exit
	if [ ${#edus[@]} -ge 2 ]; then
		$BPFDRV load --pin --name ej_two $OBJ/edu.bpf.o >/dev/null
		wait_for 10 test -c /dev/bpfdrv/ej_two1
		$BPFDRV unbind "${edus[0]}" >/dev/null
		$BPFDRV status ej_two >"$OUT/status-two" 2>&1
		check "an attached driver that lost one of two functions: an instance was removed, not its last exit" \
			eval "grep -q 'ej_two: an instance was removed: removed at .*lost PCI function ${edus[0]}' '$OUT/status-two' &&
			      ! grep -q 'last exit' '$OUT/status-two'"
		$BPFDRV unload ej_two >/dev/null
	fi
else
	echo "# skip: ejection from irq (no edu device)"
fi

# gpio_edge: an edge on the driver's input line; the line is released
if insmod "$KMODS/gpio_loopback.ko" 2>/dev/null; then
	CHIP=$(gpiodetect | awk -v l="[$LABEL]" '$2 == l { print $1 }')
	check "load --pin ejector_gpio (input line 4 of the loopback chip)" \
		$BPFDRV load --pin $TOBJ/ejector_gpio.bpf.o
	gpioset -c "$CHIP" -t 0 12=1
	ejected ejector_gpio gpio_edge ejector_gpio "edge on line 0, level 1"
	check "ejector_gpio: its GPIO line is released" \
		wait_for 5 eval "gpioinfo -c $CHIP 4 | grep -qv consumer="
	check "rmmod gpio_loopback" wait_for 5 rmmod gpio_loopback
else
	echo "# skip: ejection from gpio_edge (gpio_loopback.ko did not load)"
fi

# a burst of bad return values is a protocol violation
check "load --pin ej_proto" $BPFDRV load --pin --name ej_proto "$EJ"
python3 -S - /dev/bpfdrv/ej_proto <<'EOF' >"$OUT/proto" 2>&1
import errno, fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.ioctl(fd, 0x4a02)                     # EJ_IOC_BADRET
eio = 0
for _ in range(32):
    try:
        os.read(fd, 16)
    except OSError as e:
        eio += e.errno in (errno.EIO, errno.ENODEV)
print("failed reads:", eio)
EOF
cat "$OUT/proto" | sed 's/^/# /'
check "ej_proto: bad returns fail with EIO" grep -q "failed reads: 32" "$OUT/proto"
check "ej_proto: the burst ejects the driver" wait_gone ej_proto
check "ej_proto: bpfdrv status names the protocol violation" \
	eval "$BPFDRV status ej_proto | grep -q 'last exit: protocol in read at .*returned 1048576'"

# bad returns racing an unload and the ejection they cause: the judge runs
# while the driver is pinned (once it ran after, on a driver detach freed)
race_fail=0
for round in $(seq 8); do
	if ! $BPFDRV load --pin --name ej_race "$EJ" >"$OUT/race" 2>&1; then
		echo "# round $round: load failed"
		sed 's/^/# /' "$OUT/race"
		race_fail=$((race_fail + 1))
		continue
	fi
	# four threads read, each until ENODEV (at most 300 reads); a fifth
	# unloads the driver after ROUND % 4 ms, as bpfdrv unload does
	python3 -S - $round <<'EOF' &
import errno, fcntl, os, sys, threading, time
dev = "/dev/bpfdrv/ej_race"
fcntl.ioctl(os.open(dev, os.O_RDWR), 0x4a02)	# EJ_IOC_BADRET
def unload():
    time.sleep(int(sys.argv[1]) % 4 / 1000)
    try:
        with open("/sys/kernel/bpfdrv/unload", "w") as f:
            f.write("ej_race")
    except OSError:
        pass	# the burst won
def reader():
    try:
        fd = os.open(dev, os.O_RDONLY)
    except OSError:
        return
    for _ in range(300):
        try:
            os.read(fd, 16)
        except OSError as e:
            if e.errno == errno.ENODEV:
                return
threads = [threading.Thread(target=reader) for _ in range(4)]
threads.append(threading.Thread(target=unload))
for t in threads:
    t.start()
for t in threads:
    t.join()
EOF
	p=$!
	if ! wait_for 20 eval "! kill -0 $p"; then
		echo "# round $round: the readers did not end:"
		for t in /proc/$p/task/*; do sed 's/^/#   /' $t/stack; done
		race_fail=$((race_fail + 1))
		kill -9 "$p"
	fi
	wait "$p" 2>/dev/null
	wait_gone ej_race || race_fail=$((race_fail + 1))
	$BPFDRV unload ej_race >/dev/null 2>&1	# its pin
done
check "bad returns racing unload and ejection, 8 rounds: every reader and unload ends, the driver goes (failures: $race_fail)" \
	test $race_fail -eq 0

# a foreground loader notices, prints why and fails
$BPFDRV load --name ej_fg "$EJ" >"$OUT/fg" 2>&1 &
fg=$!
check "foreground load of ej_fg attaches" wait_for 10 test -c /dev/bpfdrv/ej_fg
trigger /dev/bpfdrv/ej_fg 3
if wait_for 10 eval "! kill -0 $fg"; then
	wait $fg
	rc=$?
	sed 's/^/# /' "$OUT/fg"
	check "the foreground loader exits non-zero on ejection (rc $rc)" test "$rc" -ne 0
	check "the foreground loader prints the reason" \
		grep -q "'ej_fg' was detached by the kernel: error in read at .*armed failure" "$OUT/fg"
else
	nok "the foreground loader exits on ejection"
	kill -INT $fg
fi

# ejection while 8 processes do I/O: every one ends, none hangs
check "load --pin ej_busy" $BPFDRV load --pin --name ej_busy "$EJ"
pids=()
for i in 1 2 3 4; do
	# readers block on the empty FIFO; writers fill it
	python3 -S -c '
import os, sys
fd = os.open("/dev/bpfdrv/ej_busy", os.O_RDONLY)
try:
    while True:
        os.read(fd, 64)
except OSError as e:
    sys.exit(0 if e.errno in (19, 5) else 1)' &
	pids+=($!)
	python3 -S -c '
import os, sys
fd = os.open("/dev/bpfdrv/ej_busy", os.O_WRONLY)
try:
    while True:
        os.write(fd, b"y" * 100)
except OSError as e:
    sys.exit(0 if e.errno in (19, 5) else 1)' &
	pids+=($!)
done
sleep 1
trigger /dev/bpfdrv/ej_busy 4
check "ej_busy: ejected while 8 processes do I/O" wait_for 10 node_gone ej_busy
left=0 bad=0
for p in "${pids[@]}"; do
	if wait_for 10 eval "! kill -0 $p"; then
		wait "$p" || bad=$((bad + 1))
	else
		left=$((left + 1))
		kill -9 "$p"
	fi
done
check "ej_busy: all 8 processes end (left $left) with ENODEV or EIO (others $bad)" \
	test $left -eq 0 -a $bad -eq 0

# an unload is recorded too, and bpfdrv list shows every last exit
$BPFDRV load --pin --name ej_unload "$EJ" >/dev/null
$BPFDRV unload ej_unload
check "an unload is recorded as such, though the driver's exit reported an error" \
	eval "$BPFDRV status ej_unload | grep -q 'last exit: unload at .*detached'"
$BPFDRV list >"$OUT/list"
sed 's/^/# /' "$OUT/list"
check "bpfdrv list shows the last exits" grep -q "^ej_busy .*error in write" "$OUT/list"
check "/sys/kernel/bpfdrv/exits lists them" grep -q "^ej_proto protocol [0-9]* read " \
	/sys/kernel/bpfdrv/exits
expect_err "bpfdrv status of an unknown driver fails" "no driver named 'nosuch'" \
	$BPFDRV status nosuch
check "no ejector driver is left attached" \
	eval '! ls /sys/class/bpfdrv 2>/dev/null | grep -q "^ej"'
