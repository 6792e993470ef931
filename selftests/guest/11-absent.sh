#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A kernel built without some of bpfdrv's parts (Debian's cloud kernel: no
# I2C, SPI, GPIO, hwmon, LEDs or DRM): a driver that declares one is
# refused at load, the tool saying which part and which kernel option
# (kmod/absent.c), and nothing of it stays; bpfdrv_accel.ko refuses to
# load, saying why. Which parts the kernel has is read from sysfs, not from
# the module: a part this kernel has is skipped, saying so.
. "$(dirname "$0")/lib.sh"

load_module || { nok "insmod bpfdrv.ko"; exit 0; }

# has PART: this kernel has it (bpfdrv.ko is loaded: what it needs is too)
has() {
	case $1 in
	gpio) [ -d /sys/bus/gpio ];;
	i2c) [ -d /sys/bus/i2c ];;
	spi) [ -d /sys/bus/spi ];;
	hwmon) [ -d /sys/class/hwmon ];;
	input) [ -d /sys/class/input ];;
	leds) [ -d /sys/class/leds ];;
	accel) accel_deps 2>/dev/null;;
	esac
}
why() {	# why PART: the refusal's words
	case $1 in
	gpio) echo "declares GPIO lines, which this kernel was built without (CONFIG_GPIOLIB)";;
	i2c) echo "declares I2C clients, which this kernel was built without (CONFIG_I2C)";;
	spi) echo "declares a SPI device, which this kernel was built without (CONFIG_SPI_MASTER)";;
	hwmon) echo "declares hwmon sensors, which this kernel was built without (CONFIG_HWMON)";;
	input) echo "declares input keys, which this kernel was built without (CONFIG_INPUT)";;
	leds) echo "declares LEDs, which this kernel was built without (CONFIG_LEDS_CLASS)";;
	accel) echo "is an accelerator, but bpfdrv_accel.ko (the DRM accel class) cannot be loaded";;
	esac
}

missing=
for part in gpio i2c spi hwmon input leds accel; do
	has $part || missing+="$part "
done
echo "# this kernel lacks: ${missing:-nothing}"

# OBJECT: the parts it declares, in the order bpfdrv checks them (parts.c);
# the bad_* ones declare one part alone (what else they get wrong is
# checked only where the part is there)
for decl in "$OBJ/edid.bpf.o:i2c" "$OBJ/lm75.bpf.o:i2c hwmon" \
	    "$OBJ/spiflash.bpf.o:spi" "$OBJ/gpio_leds.bpf.o:gpio leds" \
	    "$OBJ/gpio_button.bpf.o:gpio input" "$TOBJ/classes.bpf.o:hwmon input leds" \
	    "$TOBJ/bad_led_noset.bpf.o:leds" "$TOBJ/bad_sensor_noread.bpf.o:hwmon" \
	    "$TOBJ/bad_input_key.bpf.o:input" "$TOBJ/accel_probe.bpf.o:accel"; do
	obj=${decl%%:*} name=$(basename "${decl%%:*}" .bpf.o) first=
	for part in ${decl#*:}; do
		[[ " $missing " == *" $part "* ]] && { first=$part; break; }
	done
	if [ -z "$first" ]; then
		echo "# skip: $name (this kernel has what it declares: ${decl#*:})"
		continue
	fi
	expect_err "$name is refused: the tool says it $(why $first)" \
		"bpfdrv refused it: driver $name $(why $first)" $BPFDRV load "$obj"
	check "$name: nothing of it stays (no driver, no node)" \
		eval "! grep -qw $name /sys/kernel/bpfdrv/drivers && ! ls /dev/bpfdrv | grep -q '^$name'"
done

if [[ " $missing " == *" accel "* ]]; then
	if insmod "$B/kbuild/$(uname -r)/kmod/bpfdrv_accel.ko" 2>"$OUT/insmod"; then
		nok "bpfdrv_accel.ko refuses to load on a kernel without DRM"
		rmmod bpfdrv_accel
	else
		check "bpfdrv_accel.ko refuses to load on a kernel without DRM, saying why" \
			eval "grep -q 'No such device' '$OUT/insmod' &&
			      dmesg | grep -q 'bpfdrv_accel: this kernel was built without DRM accel devices'"
	fi
fi
# a driver that declares nothing this kernel lacks works beside the refusals
check "echo loads and serves after the refusals" \
	eval "$BPFDRV load --pin $OBJ/echo.bpf.o && printf hi >/dev/bpfdrv/echo &&
	      [ \"\$(cat /dev/bpfdrv/echo)\" = hi ] && $BPFDRV unload echo"
check "rmmod bpfdrv after the refusals" wait_for 10 rmmod bpfdrv
