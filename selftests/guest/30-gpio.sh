#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# GPIO: the gpio_leds and gpio_button drivers on the gpio_loopback test chip,
# whose line k is wired to line k+8. Every level a driver sets is read back
# through the kernel's GPIO character device (libgpiod's gpioget/gpioinfo) on
# the partner line, and input edges are driven from the chip side (gpioset
# on the partner). Ends with every driver detached and the chip removed.
. "$(dirname "$0")/lib.sh"

LEDS=/dev/bpfdrv/gpio_leds
BUTTON=/dev/bpfdrv/gpio_button
LABEL=bpfdrv-loopback

if ! load_module; then
	nok "insmod bpfdrv.ko (for the GPIO tests)"
	exit 0
fi
if ! command -v gpioset >/dev/null; then
	echo "# skip: GPIO tests (libgpiod's tools are not installed)"
	exit 0
fi
if ! insmod "$KMODS/gpio_loopback.ko" 2>"$OUT/insmod"; then
	nok "insmod gpio_loopback.ko"
	sed 's/^/# /' "$OUT/insmod"
	exit 0
fi
ok "insmod gpio_loopback.ko"
CHIP=$(gpiodetect | awk -v l="[$LABEL]" '$2 == l { print $1 }')
if [ -z "$CHIP" ]; then
	nok "gpiodetect lists the chip labelled $LABEL"
	gpiodetect | sed 's/^/# /'
	rmmod gpio_loopback
	exit 0
fi
ok "gpiodetect lists the chip labelled $LABEL ($CHIP)"

# levels LINE...: the lines' levels as one word ("1010"), read as inputs
levels() { gpioget -c "$CHIP" --numeric "$@" | tr -d ' '; }
# drive LINE=V...: set lines from the chip side; the loopback chip keeps
# them driven after gpioset exits
drive() { gpioset -c "$CHIP" -t 0 "$@"; }
consumer() { gpioinfo --unquoted -c "$CHIP" "$1"; }
leds_write() { printf '%s' "$1" >$LEDS; }
gone() { ! kill -0 "$1" 2>/dev/null; }

# --- the loopback chip itself, through the uAPI only ---
drive 0=1
check "loopback: line 8 reads the 1 that line 0 drives" test "$(levels 8)" = 1
drive 0=0
check "loopback: line 8 reads the 0 that line 0 drives" test "$(levels 8)" = 0

# --- gpio_leds: four outputs on lines 0-3, observed on lines 8-11 ---
drive 0=1 1=1 2=1 3=1
check "before attach: lines 8-11 read the 1111 gpioset left on lines 0-3" \
	test "$(levels 8 9 10 11)" = 1111
check "load gpio_leds" $BPFDRV load --pin $OBJ/gpio_leds.bpf.o
check "gpioinfo: line 0 is an output used by bpfdrv:gpio_leds" \
	grep -q 'output consumer=bpfdrv:gpio_leds$' <(consumer 0)
check "gpioinfo: line 3 is used by bpfdrv:gpio_leds" \
	grep -q 'consumer=bpfdrv:gpio_leds$' <(consumer 3)
check "attach drives the lines low (OUT_LOW): lines 8-11 read 0000" test "$(levels 8 9 10 11)" = 0000
for pat in 1010 0110 1111 0001 1000 0000; do
	if leds_write "$pat"; then
		ok "leds: write $pat"
	else
		nok "leds: write $pat"
	fi
	check "leds: after $pat, lines 8-11 read $pat through gpioget" \
		test "$(levels 8 9 10 11)" = "$pat"
	check "leds: after $pat, read returns $pat" test "$(cat $LEDS)" = "$pat"
done
check "leds: echo (with newline) 0101 sets the lines" sh -c "echo 0101 >$LEDS"
check "leds: after echo 0101, lines 8-11 read 0101" test "$(levels 8 9 10 11)" = 0101
check "leds: read is one line then end-of-file" test "$(cat $LEDS $LEDS)" = "0101
0101"
expect_err "leds: write '10a1' gives EINVAL" "Invalid argument" leds_write 10a1
expect_err "leds: write '101' (too short) gives EINVAL" "Invalid argument" leds_write 101
expect_err "leds: write '10101' (too long) gives EINVAL" "Invalid argument" leds_write 10101
expect_err "leds: write '1010x' gives EINVAL" "Invalid argument" leds_write 1010x
check "leds: bad writes left the lines alone (0101)" test "$(levels 8 9 10 11)" = 0101

# --- claiming lines someone holds ---
expect_err "a second driver on the same lines fails: in use by bpfdrv:gpio_leds" \
	"GPIO line 0 of chip '$LABEL' is in use by 'bpfdrv:gpio_leds'" \
	$BPFDRV load --pin --name leds2 $OBJ/gpio_leds.bpf.o
check "the refused second driver has no node" test ! -e /dev/bpfdrv/leds2
check "unload gpio_leds" $BPFDRV unload gpio_leds
check "after detach: gpioinfo shows no consumer on line 0" \
	eval "! consumer 0 | grep -q consumer="
check "after detach: gpioset can take line 0" drive 0=1
check "after detach: the line 0 gpioset drove reads 1 on line 8" test "$(levels 8)" = 1

gpioset -c "$CHIP" 2=1 &
holder=$!
if wait_for 5 eval "consumer 2 | grep -q 'consumer=gpioset$'"; then
	expect_err "load while gpioset holds line 2: 'in use by gpioset'" \
		"GPIO line 2 of chip '$LABEL' is in use by 'gpioset'" \
		$BPFDRV load --pin $OBJ/gpio_leds.bpf.o
	check "kernel log names the busy line and chip" \
		grep -q "GPIO line 2 of chip '$LABEL' is in use" <(dmesg)
	check "the failed attach released the lines it had claimed (0, 1)" \
		eval "! consumer 0 | grep -q consumer= && ! consumer 1 | grep -q consumer="
else
	nok "gpioset holds line 2 (gpioinfo)"
fi
kill $holder
wait $holder 2>/dev/null

expect_err "load --gpio-chip with no such chip: clear error" \
	"no GPIO chip labelled 'nosuchchip'" \
	$BPFDRV load --pin --gpio-chip nosuchchip $OBJ/gpio_leds.bpf.o
expect_err "load --gpio-lines with a line past the chip's end: clear error" \
	"has no line 99" $BPFDRV load --pin --gpio-lines 0,1,2,99 $OBJ/gpio_leds.bpf.o
expect_err "load --gpio-lines with the wrong count: clear error" \
	"gives 2 lines, driver 'gpio_leds' declares 4" \
	$BPFDRV load --pin --gpio-lines 0,1 $OBJ/gpio_leds.bpf.o
expect_err "load --gpio-lines declaring a line twice: clear error" \
	"declares GPIO line 1 twice" \
	$BPFDRV load --pin --gpio-lines 0,1,1,2 $OBJ/gpio_leds.bpf.o
check "load gpio_leds on lines 8-11 (--gpio-lines, --gpio-chip)" \
	$BPFDRV load --pin --name leds_hi --gpio-chip $LABEL --gpio-lines 8,9,10,11 \
	$OBJ/gpio_leds.bpf.o
check "leds_hi: write 1101" sh -c "printf 1101 >/dev/bpfdrv/leds_hi"
check "leds_hi: lines 0-3 read 1101" test "$(levels 0 1 2 3)" = 1101
check "unload leds_hi" $BPFDRV unload leds_hi

# --- single-line kfuncs and their errors (test driver gpio_kfuncs) ---
KF=/dev/bpfdrv/gpio_kfuncs
kf() { printf '%s' "$1" >$KF; }
check "load gpio_kfuncs (test driver: line 6 output high, line 7 input)" \
	$BPFDRV load --pin $TOBJ/gpio_kfuncs.bpf.o
check "OUT_HIGH: line 14 reads 1 at attach" test "$(levels 14)" = 1
check "bpfdrv_gpio_set(0): line 14 reads 0" eval "kf 0 && test \"\$(levels 14)\" = 0"
check "bpfdrv_gpio_set(1): line 14 reads 1" eval "kf 1 && test \"\$(levels 14)\" = 1"
drive 15=1
check "bpfdrv_gpio_get: input line 7 reads the 1 driven on line 15" test "$(cat $KF)" = 1
drive 15=0
check "bpfdrv_gpio_get: input line 7 reads the 0 driven on line 15" test "$(cat $KF)" = 0
expect_err "bpfdrv_gpio_set on an input line: EPERM" "Operation not permitted" kf i
expect_err "bpfdrv_gpio_set on an undeclared index: EINVAL" "Invalid argument" kf u
expect_err "bpfdrv_gpio_get on index 16: EINVAL" "Invalid argument" kf g
expect_err "bpfdrv_gpio_set_array over an input: EPERM" "Operation not permitted" kf A
expect_err "bpfdrv_gpio_get_array past the declared lines: EINVAL" "Invalid argument" kf R
nolines_write() { printf x >/dev/bpfdrv/gpio_nolines; }
expect_err "GPIO kfunc on a device without lines: ENODEV" "No such device" nolines_write
check "unload gpio_kfuncs" $BPFDRV unload gpio_kfuncs
check "unload gpio_nolines" $BPFDRV unload gpio_nolines

# --- gpio_button: edges on lines 4 and 5 (active low), driven from 12, 13 ---
drive 12=0 13=0
check "load gpio_button" $BPFDRV load --pin $OBJ/gpio_button.bpf.o
check "gpioinfo: line 4 is an input used by bpfdrv:gpio_button" \
	grep -q 'input .*consumer=bpfdrv:gpio_button$' <(consumer 4)
check "edge lines 4 and 5 have interrupts named bpfdrv:gpio_button" \
	test "$(grep -c 'bpfdrv:gpio_button' /proc/interrupts)" = 2

# edge_wakes DESC LINE=V EXPECTED: a blocked reader wakes on the edge
edge_wakes() {
	local desc=$1 set=$2 want=$3 reader

	head -n 1 $BUTTON >"$OUT/event" 2>&1 &
	reader=$!
	if ! wait_for 5 opens gpio_button 1; then
		nok "$desc (the reader did not open)"
		kill $reader
		return
	fi
	sleep 0.3
	if gone $reader; then
		nok "$desc (the reader did not block)"
		sed 's/^/# /' "$OUT/event"
		return
	fi
	drive "$set"
	if wait_for 5 gone $reader; then
		if [ "$(cat "$OUT/event")" = "$want" ]; then
			ok "$desc"
		else
			nok "$desc"
			sed 's/^/# got: /' "$OUT/event"
		fi
	else
		nok "$desc (still blocked)"
		kill $reader
	fi
	wait $reader 2>/dev/null
	wait_for 2 opens gpio_button 0
}
edge_wakes "button: rising edge on line 4 wakes a blocked reader: seq=1 line=0 level=1" \
	12=1 "seq=1 line=0 level=1"
edge_wakes "button: falling edge on line 4 is reported: seq=2 line=0 level=0" \
	12=0 "seq=2 line=0 level=0"
edge_wakes "button: active-low line 5 going high reads level 0: seq=3 line=1 level=0" \
	13=1 "seq=3 line=1 level=0"
edge_wakes "button: active-low line 5 going low reads level 1: seq=4 line=1 level=1" \
	13=0 "seq=4 line=1 level=1"
head -n 1 $BUTTON >/dev/null 2>&1 &
reader=$!
if wait_for 5 opens gpio_button 1; then
	drive 12=0
	sleep 0.5
	check "button: driving line 12 to the level it has makes no edge" kill -0 $reader
else
	nok "button: the reader opened"
fi
kill $reader
wait $reader 2>/dev/null
wait_for 2 opens gpio_button 0

# poll and O_NONBLOCK, one open file throughout
CHIP=$CHIP BUTTON=$BUTTON python3 - <<'EOF'
import errno, os, select, subprocess

def tap(good, desc):
    print(("ok - " if good else "not ok - ") + desc, flush=True)

def drive(setting):
    subprocess.run(["gpioset", "-c", os.environ["CHIP"], "-t", "0", setting],
                   check=True)

fd = os.open(os.environ["BUTTON"], os.O_RDONLY | os.O_NONBLOCK)
p = select.poll()
p.register(fd, select.POLLIN)
try:
    os.read(fd, 64)
    tap(False, "button: O_NONBLOCK read with no event gives EAGAIN (got data)")
except OSError as e:
    tap(e.errno == errno.EAGAIN,
        "button: O_NONBLOCK read with no event gives EAGAIN (%s)" % e.strerror)
tap(p.poll(0) == [], "button: poll: not readable with no event pending")
drive("12=1")
ready = p.poll(5000)
tap(ready == [(fd, select.POLLIN)], "button: poll: readable after an edge (%r)" % ready)
try:
    os.read(fd, 8)
    tap(False, "button: read into a buffer shorter than the event gives EINVAL")
except OSError as e:
    tap(e.errno == errno.EINVAL,
        "button: read into a buffer shorter than the event gives EINVAL")
ev = os.read(fd, 64)
tap(ev == b"seq=5 line=0 level=1\n", "button: the pending event reads whole (%r)" % ev)
tap(p.poll(0) == [], "button: poll: not readable once the event is read")
drive("12=0")
drive("12=1")
evs = []
for _ in range(2):
    if not p.poll(5000):
        break
    evs.append(os.read(fd, 64))
tap(evs == [b"seq=6 line=0 level=0\n", b"seq=7 line=0 level=1\n"],
    "button: two edges in a row are two events, in order (%r)" % evs)
os.close(fd)
EOF
# every edge goes through bpfdrv_call(), which counts it
check "button: stats count the 7 gpio_edge calls the driver numbered" \
	grep -qx "gpio_edge 7" /sys/class/bpfdrv/gpio_button/stats

# detach while a reader blocks
cat $BUTTON >"$OUT/cat" 2>&1 &
reader=$!
if wait_for 5 opens gpio_button 1; then
	sleep 0.3
	check "button: a reader blocks before detach" kill -0 $reader
	check "unload gpio_button while a reader blocks" $BPFDRV unload gpio_button
	if wait_for 5 gone $reader; then
		wait $reader
		rc=$?
		if [ $rc -ne 0 ] && grep -q "No such device" "$OUT/cat"; then
			ok "detach wakes the blocked button reader with ENODEV"
		else
			nok "detach wakes the blocked button reader with ENODEV (rc $rc)"
			sed 's/^/# /' "$OUT/cat"
		fi
	else
		nok "detach wakes the blocked button reader with ENODEV (still blocked)"
		kill $reader
	fi
else
	nok "button: the reader opened"
	kill $reader
	$BPFDRV unload gpio_button
fi
check "after detach: gpioinfo shows no consumer on lines 4 and 5" \
	eval "! consumer 4 | grep -q consumer= && ! consumer 5 | grep -q consumer="
check "after detach: edges on line 4 are no longer requested (no interrupt)" \
	eval "! grep -q 'bpfdrv:gpio_button' /proc/interrupts"
check "after detach: gpioset can take line 4" drive 4=0

# the chip goes while a driver holds its lines (its platform device is
# unbound): the driver is detached first, as removed, and gpiolib never
# sees the chip removed with lines requested
LBDRV=/sys/bus/platform/drivers/gpio-loopback
check "load gpio_button again" $BPFDRV load --pin $OBJ/gpio_button.bpf.o
cat $BUTTON >"$OUT/cat" 2>&1 &
reader=$!
wait_for 5 opens gpio_button 1
check "unbind the chip's device while gpio_button holds lines 4 and 5" \
	eval "echo gpio-loopback >$LBDRV/unbind"
check "gpio_button is detached with it" wait_for 5 eval "! test -e $BUTTON"
check "... and its blocked reader woken" wait_for 5 gone $reader
check "its last exit says removed, and why" \
	eval "$BPFDRV status gpio_button | grep -q 'last exit: removed at .*gpio_button lost GPIO chip $LABEL'"
check "gpiolib saw no chip removed with lines held" \
	eval "! dmesg | grep -q 'STILL REQUESTED'"
check "rebind the chip" eval "echo gpio-loopback >$LBDRV/bind"
CHIP=$(gpiodetect | awk -v l="[$LABEL]" '$2 == l { print $1 }')
check "gpio_button attaches to the chip again" \
	$BPFDRV load --pin $OBJ/gpio_button.bpf.o
check "and is unloaded" $BPFDRV unload gpio_button

# a skeleton from bpfdrv new --gpio bpfdrv-loopback:0, built by its Makefile
check "load the GPIO skeleton" $BPFDRV load --pin $B/new/skelgpio/skelgpio.bpf.o
skeleton_test skelgpio '^# hw: (0|0x1)$' "its generated test passes and reads line 0's level"
check "unload the GPIO skeleton" $BPFDRV unload skelgpio

check "rmmod gpio_loopback (no driver holds a line)" rmmod gpio_loopback
