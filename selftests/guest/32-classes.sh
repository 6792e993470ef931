#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Class devices: BPF drivers seen through the kernel's own interfaces.
# gpio_leds as LEDs (/sys/class/leds, checked on the loopback chip's partner
# lines with gpioget), gpio_button as an input device (evtest), and the
# classes test driver's LEDs, keys and sensors (sysfs, evtest, sensors).
# Ends with every driver detached, the class devices gone and the chip
# removed.
. "$(dirname "$0")/lib.sh"

LABEL=bpfdrv-loopback
LEDS=/sys/class/leds
CLASSES=/dev/bpfdrv/classes

load_module || { nok "insmod bpfdrv.ko (for the class tests)"; exit 0; }
for tool in gpioset evtest sensors; do
	if ! command -v $tool >/dev/null; then
		echo "# skip: class tests ($tool is not installed)"
		exit 0
	fi
done
modprobe evdev 2>/dev/null
modprobe ledtrig-timer 2>/dev/null

# input_node NAME: the evdev node of the input device called NAME
input_node() {
	local d

	for d in /sys/class/input/input*; do
		[ "$(cat "$d/name" 2>/dev/null)" = "$1" ] || continue
		ls -d "$d"/event* 2>/dev/null | sed 's|.*/|/dev/input/|'
		return 0
	done
	return 1
}
# evtest_start NODE LOG: record NODE's events in LOG (line-buffered)
evtest_start() {
	stdbuf -oL evtest "$1" >"$2" 2>&1 &
	EVTEST=$!
	wait_for 5 grep -q "Testing ... (interrupt to exit)" "$2"
}
# key_events LOG CODE VALUE: how many events of key CODE with VALUE
key_events() {
	grep -c "type 1 (EV_KEY), code $2 ([A-Z_0-9]*), value $3\$" "$1"
}
gone() { ! kill -0 "$1" 2>/dev/null; }

# ---------------- gpio_leds: LEDs on the loopback chip ----------------
if ! insmod "$KMODS/gpio_loopback.ko" 2>"$OUT/insmod"; then
	nok "insmod gpio_loopback.ko"
	sed 's/^/# /' "$OUT/insmod"
	exit 0
fi
CHIP=$(gpiodetect | awk -v l="[$LABEL]" '$2 == l { print $1 }')
levels() { gpioget -c "$CHIP" --numeric "$@" | tr -d ' '; }
drive() { gpioset -c "$CHIP" -t 0 "$@"; }

check "leds: load gpio_leds" $BPFDRV load --pin $OBJ/gpio_leds.bpf.o
check "leds: /sys/class/leds has gpio_leds:led0 to led3" \
	test -d $LEDS/gpio_leds:led0 -a -d $LEDS/gpio_leds:led3
check "leds: max_brightness of gpio_leds:led0 is 1" \
	test "$(cat $LEDS/gpio_leds:led0/max_brightness)" = 1
check "leds: echo 1 > gpio_leds:led2/brightness" \
	sh -c "echo 1 >$LEDS/gpio_leds:led2/brightness"
check "leds: gpioget reads line 2 high on its partner (lines 8-11: 0010)" \
	test "$(levels 8 9 10 11)" = 0010
check "leds: brightness of led2 reads 1 (led_get reads the line)" \
	test "$(cat $LEDS/gpio_leds:led2/brightness)" = 1
check "leds: node write 1001 shows in the LEDs' brightness (led_get)" \
	sh -c "printf 1001 >/dev/bpfdrv/gpio_leds &&
	       test \$(cat $LEDS/gpio_leds:led0/brightness)\$(cat $LEDS/gpio_leds:led2/brightness) = 10"
check "leds: echo 0 > gpio_leds:led0/brightness: lines 8-11 read 0001" \
	sh -c "echo 0 >$LEDS/gpio_leds:led0/brightness && test \$(gpioget -c $CHIP --numeric 8 9 10 11 | tr -d ' ') = 0001"

# the timer trigger blinks led1 in software, through led_set
if [ -d /sys/class/leds/gpio_leds:led1 ] && echo timer >$LEDS/gpio_leds:led1/trigger 2>"$OUT/trig"; then
	echo 50 >$LEDS/gpio_leds:led1/delay_on
	echo 50 >$LEDS/gpio_leds:led1/delay_off
	seen=""
	for ((i = 0; i < 40; i++)); do
		seen+=$(levels 9)
		sleep 0.03
	done
	check "leds: the timer trigger blinks led1: line 9 read both levels ($seen)" \
		eval '[[ $seen == *0* && $seen == *1* ]]'
	echo none >$LEDS/gpio_leds:led1/trigger
	check "leds: trigger none stops the blinking with led1 off" \
		wait_for 2 test "$(levels 9)" = 0
else
	nok "leds: echo timer > gpio_leds:led1/trigger"
	sed 's/^/# /' "$OUT/trig"
fi
echo 1 >$LEDS/gpio_leds:led0/brightness
check "leds: unload gpio_leds" $BPFDRV unload gpio_leds
check "leds: the LEDs are gone from /sys/class/leds" \
	eval '! ls $LEDS | grep -q "^gpio_leds:"'
check "leds: turned off before the lines were released (lines 8-11: 0000)" \
	test "$(levels 8 9 10 11)" = 0000

# ---------------- gpio_button: keys on the loopback chip ----------------
drive 12=0 13=1		# both released (line 1 is active-low)
check "keys: load gpio_button" $BPFDRV load --pin $OBJ/gpio_button.bpf.o
NODE=$(input_node "bpfdrv gpio_button")
if [ -z "$NODE" ] || [ ! -c "$NODE" ]; then
	nok "keys: an evdev node for the input device 'bpfdrv gpio_button'"
	cat /proc/bus/input/devices | sed 's/^/# /'
else
	ok "keys: an evdev node for the input device 'bpfdrv gpio_button' ($NODE)"
	evtest_start "$NODE" "$OUT/evtest"
	check "keys: evtest lists KEY_ENTER and KEY_POWER among the device's keys" \
		eval 'grep -q "Event code 28 (KEY_ENTER)" "$OUT/evtest" &&
		      grep -q "Event code 116 (KEY_POWER)" "$OUT/evtest"'
	for ((i = 0; i < 5; i++)); do
		drive 12=1
		wait_for 5 test "$(key_events "$OUT/evtest" 28 1)" -ge $((i + 1))
		drive 12=0
		wait_for 5 test "$(key_events "$OUT/evtest" 28 0)" -ge $((i + 1))
	done
	drive 13=0		# line 1 pressed: physical low
	wait_for 5 test "$(key_events "$OUT/evtest" 116 1)" -ge 1
	check "keys: evtest --query: KEY_POWER is down while line 1 is pressed" \
		eval 'evtest --query "$NODE" EV_KEY KEY_POWER; [ $? = 10 ]'
	drive 13=1
	wait_for 5 test "$(key_events "$OUT/evtest" 116 0)" -ge 1
	check "keys: evtest --query: KEY_POWER is up once released" \
		evtest --query "$NODE" EV_KEY KEY_POWER
	check "keys: evtest saw exactly 5 presses and 5 releases of KEY_ENTER" \
		test "$(key_events "$OUT/evtest" 28 1) $(key_events "$OUT/evtest" 28 0)" = "5 5"
	check "keys: evtest saw exactly 1 press and 1 release of KEY_POWER (active-low line)" \
		test "$(key_events "$OUT/evtest" 116 1) $(key_events "$OUT/evtest" 116 0)" = "1 1"
	check "keys: each key event came with a SYN_REPORT" \
		test "$(grep -c -- '-------------- SYN_REPORT ------------' "$OUT/evtest")" -ge 12
	check "keys: unload gpio_button while evtest reads" $BPFDRV unload gpio_button
	check "keys: evtest ends by itself once the device is gone" wait_for 5 gone $EVTEST
	check "keys: the evdev node is gone" test ! -e "$NODE"
	kill $EVTEST 2>/dev/null
	wait $EVTEST 2>/dev/null
fi
$BPFDRV unload gpio_button >/dev/null 2>&1
rmmod gpio_loopback
check "chip: rmmod gpio_loopback after the class tests" test ! -d /sys/module/gpio_loopback

# ---------------- classes: the test driver ----------------
# cmd OP ARG VALUE: one struct classes_cmd to the node
cmd() {
	python3 -S -c '
import os, struct, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
os.write(fd, struct.pack("<IIq", *map(int, sys.argv[2:5])))
' $CLASSES "$@"
}
# state FIELD INDEX: one value of struct classes_state
state() {
	python3 -S -c '
import os, struct, sys
fields = ["brightness", "led_sets", "blink_on", "blink_off", "blinks"]
v = struct.unpack("<11I", os.read(os.open(sys.argv[1], os.O_RDONLY), 44))
f, i = sys.argv[2], int(sys.argv[3])
print(v[10] if f == "sensor_reads" else v[fields.index(f) * 2 + i])
' $CLASSES "$@"
}
CMD_SENSOR_SET=1 CMD_SENSOR_ERR=2 CMD_SENSOR_SILENT=3 CMD_KEY=4 CMD_LED_GET=5

check "classes: load" $BPFDRV load --pin $TOBJ/classes.bpf.o
A=$LEDS/classes:a
B=$LEDS/classes:b
check "classes: LEDs classes:a (max 255) and classes:b (max 1)" \
	test "$(cat $A/max_brightness) $(cat $B/max_brightness)" = "255 1"
check "classes: echo 128 > classes:a/brightness reaches led_set" \
	eval 'echo 128 >$A/brightness && [ "$(state brightness 0)" = 128 ]'
check "classes: brightness reads what led_get returns (77)" \
	eval 'cmd $CMD_LED_GET 0 77 && [ "$(cat $A/brightness)" = 77 ]'
cmd $CMD_LED_GET 0 300
check "classes: a led_get over max_brightness is not shown (300 > 255)" \
	test "$(cat $A/brightness)" != 300
cmd $CMD_LED_GET 0 -1
check "classes: timer trigger on classes:a blinks in hardware (led_blink 500/500)" \
	eval 'echo timer >$A/trigger &&
	      [ "$(state blink_on 0) $(state blink_off 0)" = "500 500" ]'
check "classes: delay_on 100 asks led_blink again (100/500)" \
	eval 'echo 100 >$A/delay_on &&
	      [ "$(state blink_on 0) $(state blink_off 0)" = "100 500" ]'
sets=$(state led_sets 0)
sleep 0.5
check "classes: no software blink of classes:a (led_set not called: $sets)" \
	test "$(state led_sets 0)" = "$sets"
check "classes: timer trigger on classes:b, whose led_blink refuses" \
	sh -c "echo timer >$B/trigger && echo 20 >$B/delay_on && echo 20 >$B/delay_off"
sets=$(state led_sets 1)
sleep 0.5
check "classes: the LED core blinks classes:b in software, through led_set ($sets -> $(state led_sets 1))" \
	test "$(state led_sets 1)" -gt $((sets + 4))

# sensors
HW=""
for d in /sys/class/hwmon/hwmon*; do
	[ "$(cat $d/name 2>/dev/null)" = classes ] && HW=$d
done
if [ -z "$HW" ]; then
	nok "sensors: a hwmon device named classes"
else
	ok "sensors: a hwmon device named classes (${HW##*/})"
	cmd $CMD_SENSOR_SET 0 42000
	cmd $CMD_SENSOR_SET 1 -2500
	cmd $CMD_SENSOR_SET 2 1200
	check "sensors: temp1_input 42000, temp2_input -2500, in0_input 1200" \
		test "$(cat $HW/temp1_input) $(cat $HW/temp2_input) $(cat $HW/in0_input)" = "42000 -2500 1200"
	check "sensors: labels board and vcore; temp2 has none" \
		eval '[ "$(cat $HW/temp1_label) $(cat $HW/in0_label)" = "board vcore" ] &&
		      [ ! -e $HW/temp2_label ]'
	sensors classes-virtual-0 >"$OUT/sensors" 2>&1
	sed 's/^/# /' "$OUT/sensors"
	# without a UTF-8 locale, sensors writes "C" for "°C"
	check "sensors(1): board: +42.0°C" grep -Eq '^board: +\+42\.0 ?(°)?C' "$OUT/sensors"
	check "sensors(1): temp2: -2.5°C" grep -Eq '^temp2: +-2\.5 ?(°)?C' "$OUT/sensors"
	check "sensors(1): vcore: 1.20 V" grep -Eq '^vcore: +1\.20 V' "$OUT/sensors"
	cmd $CMD_SENSOR_ERR 0 5
	expect_err "sensors: sensor_read's -EIO reaches the reader" \
		"Input/output error" cat $HW/temp1_input
	cmd $CMD_SENSOR_ERR 0 0
	cmd $CMD_SENSOR_SILENT 1 1
	expect_err "sensors: sensor_read without a value gives ENODATA" \
		"No data available" cat $HW/temp2_input
	cmd $CMD_SENSOR_SILENT 1 0
	check "sensors: readings work again (temp1_input 42000)" \
		test "$(cat $HW/temp1_input)" = 42000
fi

stat() { awk -v k="$1" '$1 == k { print $2 }' /sys/class/bpfdrv/classes/stats; }
check "classes: stats counts the sensor_read calls the driver counted ($(state sensor_reads 0))" \
	test "$(stat sensor_read)" = "$(state sensor_reads 0)"
check "classes: stats counts led_blink calls ($(stat led_blink))" test "$(stat led_blink)" -ge 3

# keys
NODE=$(input_node "bpfdrv classes")
if [ -z "$NODE" ] || [ ! -c "$NODE" ]; then
	nok "classes: an evdev node for 'bpfdrv classes'"
else
	evtest_start "$NODE" "$OUT/evtest2"
	cmd $CMD_KEY 30 1 && cmd $CMD_KEY 30 0 && cmd $CMD_KEY 256 1
	check "classes: evtest sees KEY_A down, up and BTN_0 down" \
		wait_for 5 eval '[ "$(key_events $OUT/evtest2 30 1)$(key_events $OUT/evtest2 30 0)$(key_events $OUT/evtest2 256 1)" = 111 ]'
	expect_err "classes: an undeclared key (KEY_B) is refused: EINVAL" \
		"Invalid argument" cmd $CMD_KEY 48 1
	expect_err "classes: a key value over 2 is refused: EINVAL" \
		"Invalid argument" cmd $CMD_KEY 30 3
	check "classes: evtest saw no KEY_B" test "$(key_events "$OUT/evtest2" 48 1)" = 0
fi

# detach with every class device busy: a reader of each, a blinking LED
(while cat $HW/temp1_input >/dev/null 2>&1; do :; done) &
READER=$!
check "classes: unload while evtest, a hwmon reader and a blinking LED run" \
	$BPFDRV unload classes
check "classes: the LEDs are gone" eval '! ls $LEDS | grep -q "^classes:"'
check "classes: the hwmon device is gone" test ! -e "$HW"
check "classes: the input device is gone" eval '! input_node "bpfdrv classes"'
check "classes: evtest ends by itself" wait_for 5 gone $EVTEST
check "classes: the hwmon reader ends by itself" wait_for 5 gone $READER
kill $EVTEST $READER 2>/dev/null
wait 2>/dev/null

# ---------------- a class device that cannot be registered ----------------
# led_taker holds classes:b, so the attach fails at that LED, after the
# hwmon and input devices and LED classes:a were registered: all go again.
# uevents show that they came and went.
uevents() { grep -c "KERNEL.* $1 .*($2)\$" "$OUT/uevents"; }
if ! insmod "$KMODS/led_taker.ko" name=classes:b 2>"$OUT/insmod"; then
	nok "taken LED: insmod led_taker.ko name=classes:b"
	sed 's/^/# /' "$OUT/insmod"
else
	udevadm monitor --kernel --subsystem-match=hwmon \
		--subsystem-match=input --subsystem-match=leds >"$OUT/uevents" 2>&1 &
	MON=$!
	sleep 1
	expect_refused "taken LED" $TOBJ/classes.bpf.o \
		"LED name classes:b is taken by another LED"
	sleep 1
	kill $MON
	wait $MON 2>/dev/null
	check "taken LED: the hwmon device came and went ($(uevents add hwmon) add, $(uevents remove hwmon) remove)" \
		test "$(uevents add hwmon) $(uevents remove hwmon)" = "1 1"
	check "taken LED: the input device and its evdev node came and went ($(uevents add input) add, $(uevents remove input) remove)" \
		test "$(uevents add input) $(uevents remove input)" = "2 2"
	check "taken LED: LED classes:a came and went" \
		eval 'grep -q "add .*/classes:a (leds)" $OUT/uevents &&
		      grep -q "remove .*/classes:a (leds)" $OUT/uevents ||
		      { cat $OUT/uevents; false; }'
	check "taken LED: nothing of classes is left (LED, hwmon, input, node)" \
		eval '[ ! -e $A ] && [ ! -e $CLASSES ] && [ ! -e /sys/class/bpfdrv/classes ] &&
		      ! grep -qx classes /sys/class/hwmon/*/name && ! input_node "bpfdrv classes"'
	check "taken LED: classes:b is led_taker's, and no classes:b_1 appeared" \
		eval '[ -e $B ] && [ ! -e $B/device ] && [ ! -e ${B}_1 ]'
	rmmod led_taker
	check "taken LED: classes loads once the name is free" \
		eval '$BPFDRV load --pin $TOBJ/classes.bpf.o && [ -e $B ] && [ -e $A ]'
	check "taken LED: and unloads" $BPFDRV unload classes
fi

# ---------------- declarations the module refuses ----------------
for case in "led_name:invalid name for LED 0" \
	    "led_noset:declares LEDs but has no led_set callback" \
	    "led_dup:LED a is declared twice" \
	    "led_max:max_brightness 65536 is over 65535" \
	    "sensor_type:sensor 0 has unknown type 99" \
	    "sensor_noread:declares sensors but has no sensor_read callback" \
	    "input_key:invalid input_keys"; do
	expect_refused refused "$TOBJ/bad_${case%%:*}.bpf.o" "${case#*:}"
done
check "refused: no class device left by the refused drivers" \
	eval '! ls $LEDS /sys/class/bpfdrv 2>/dev/null | grep -q "bad_"'
