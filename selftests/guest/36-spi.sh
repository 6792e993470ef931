#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# SPI: the spiflash driver on the emulated W25Q80 of the test controller
# (selftests/kmods/spi_flash_sim.c), checked through spidev with flashrom:
# what the driver wrote, flashrom reads; what flashrom wrote, the driver
# reads. Then mode, clock and chip select as the controller saw them, the
# refusals, the kfuncs' checks, and the controller's removal under the
# driver. Ends with every driver detached and the controller removed.
. "$(dirname "$0")/lib.sh"

SIM=/sys/devices/platform/bpfdrv-spi-sim
NODE=/dev/bpfdrv/spiflash
ENODEV=-19 EINVAL=-22

load_module || { nok "insmod bpfdrv.ko (for the SPI tests)"; exit 0; }
if ! command -v flashrom >/dev/null; then
	echo "# skip: SPI tests (flashrom is not installed)"
	exit 0
fi
if ! insmod "$KMODS/spi_flash_sim.ko" 2>"$OUT/insmod"; then
	nok "insmod spi_flash_sim.ko"
	sed 's/^/# /' "$OUT/insmod"
	exit 0
fi
CTL=$(basename "$(ls -d $SIM/spi_master/spi* 2>/dev/null)")
check "spi: the test controller is $CTL in /sys/class/spi_master" \
	test -e "/sys/class/spi_master/$CTL"

# flash OP ARGS...: info (prints "ID SIZE"), erase OFFSET, write OFFSET
# FILE (all of it, as many writes as it takes), on NODE
flash() {
	python3 -S -c '
import fcntl, os, struct, sys
node, op, a = sys.argv[1], sys.argv[2], sys.argv[3:]
fd = os.open(node, os.O_RDWR)
if op == "info":
	b = bytearray(8)
	fcntl.ioctl(fd, 0x80084601, b)
	print(b[:3].hex(), struct.unpack("<I", b[4:])[0])
elif op == "erase":
	fcntl.ioctl(fd, 0x4602, int(a[0], 0))
elif op == "write":
	data = open(a[1], "rb").read()
	os.lseek(fd, int(a[0], 0), 0)
	while data:
		data = data[os.write(fd, data):]
' "$@"
}
# probe NODE CMD LEN: one kfunc of spi_probe; prints what it returned
probe() {
	python3 -S -c '
import errno, fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
try:
	print(fcntl.ioctl(fd, int(sys.argv[2], 0), int(sys.argv[3])))
except OSError as e:
	print(-e.errno)
' "$@"
}
last() { cat $SIM/last_message; }

# --- the driver: identify, erase, program, read ---
check "spi: load spiflash (chip select 0 of bpfdrv-spi-sim, mode 0, 1 MHz)" \
	$BPFDRV load --pin "$OBJ/spiflash.bpf.o"
info=$(flash $NODE info 2>&1)
check "spi: spiflash read JEDEC ID ef4014 and 1 MiB ($info)" \
	test "$info" = "ef4014 1048576"
check "spi: the controller saw chip select 0, mode 0, 1 MHz, 8-bit words ($(last))" \
	grep -q "^cs=0 mode=0x0 speed=1000000 bits=8 " $SIM/last_message
check "spi: bpfdrv's SPI device $CTL.0 is there, for no driver (spi:bpfdrv)" \
	grep -qx "spi:bpfdrv" "/sys/bus/spi/devices/$CTL.0/modalias"
head -c 8192 /dev/urandom >"$OUT/data"
program() {
	flash $NODE erase 0x10000 && flash $NODE erase 0x11000 &&
		flash $NODE write 0x10000 "$OUT/data"
}
check "spi: erase two sectors at 64 KiB and program 8 KiB there" program
check "spi: the driver reads the 8 KiB back" \
	cmp <(dd if=$NODE bs=4096 skip=16 count=2 status=none) "$OUT/data"
printf '\0' >"$OUT/zero"
flash $NODE write 0x10000 "$OUT/zero"
printf '\377' >"$OUT/ones"
flash $NODE write 0x10000 "$OUT/ones"
check "spi: programming 0xff over 0x00 leaves 0x00, as on NOR flash" \
	test "$(dd if=$NODE bs=1 skip=65536 count=1 status=none | od -An -tx1)" = " 00"
check "spi: a write past the end fails with ENOSPC" \
	sh -c "! dd if=$OUT/ones of=$NODE bs=1 seek=1048576 status=none 2>$OUT/dd &&
		grep -q 'No space left' $OUT/dd"
cat $NODE >"$OUT/bpfdrv.img"
check "spi: the node reads the whole 1 MiB" \
	test "$(stat -c %s "$OUT/bpfdrv.img")" = 1048576
check "spi: unload spiflash" $BPFDRV unload spiflash
check "spi: its node and its SPI device are gone" \
	sh -c "[ ! -e $NODE ] && [ ! -e /sys/bus/spi/devices/$CTL.0 ]"

# --- flashrom through spidev, on the same chip select ---
spidev_on() {
	modprobe spidev 2>/dev/null	# a module where nothing loaded it yet
	echo 0 >$SIM/new_device &&
		echo spidev >"/sys/bus/spi/devices/$CTL.0/driver_override" &&
		echo "$CTL.0" >/sys/bus/spi/drivers/spidev/bind &&
		wait_for 10 test -c "/dev/spidev${CTL#spi}.0"
}
check "spi: spidev takes chip select 0 (driver_override)" spidev_on
FLASHROM="flashrom -p linux_spi:dev=/dev/spidev${CTL#spi}.0,spispeed=1000"
$FLASHROM -r "$OUT/flashrom.img" >"$OUT/flashrom" 2>&1
check "spi: flashrom finds a W25Q80 and reads it" \
	grep -q 'Found Winbond flash chip "W25Q80.V"' "$OUT/flashrom"
check "spi: flashrom reads what spiflash wrote (all 1 MiB)" \
	cmp "$OUT/flashrom.img" "$OUT/bpfdrv.img"
cp "$OUT/flashrom.img" "$OUT/new.img"
dd if=/dev/urandom of="$OUT/new.img" bs=4096 seek=32 count=1 conv=notrunc status=none
check "spi: flashrom writes a new sector at 128 KiB (erase, program, verify)" \
	sh -c "$FLASHROM -w $OUT/new.img >$OUT/flashrom 2>&1 ||
		{ sed 's/^/# /' $OUT/flashrom; false; }"
expect_refused "spi: chip select in use" "$OBJ/spiflash.bpf.o" \
	"cannot add SPI device at chip select 0 of $CTL: -16 (in use)"
check "spi: spidev lets go of chip select 0" \
	sh -c "echo 0 >$SIM/delete_device"
check "spi: load spiflash again" $BPFDRV load --pin "$OBJ/spiflash.bpf.o"
check "spi: spiflash reads what flashrom wrote (all 1 MiB)" cmp $NODE "$OUT/new.img"
$BPFDRV unload spiflash >/dev/null 2>&1

# --- mode, clock and chip select, from the command line ---
check "spi: load spiflash as flash3 in mode 3 at 2 MHz" \
	$BPFDRV load --pin --name flash3 --spi-mode 3 --spi-speed 2000000 \
	"$OBJ/spiflash.bpf.o"
info=$(flash /dev/bpfdrv/flash3 info 2>&1)
check "spi: the flash answers in mode 3 ($info)" test "$info" = "ef4014 1048576"
check "spi: the controller saw mode 3 at 2 MHz ($(last))" \
	grep -q "^cs=0 mode=0x3 speed=2000000 bits=8 " $SIM/last_message
$BPFDRV unload flash3 >/dev/null 2>&1
expect_refused "spi: in mode 1 the flash does not answer" \
	"$OBJ/spiflash.bpf.o" "driver init failed: $ENODEV" --spi-mode 1
check "spi: ... though the controller clocked mode 1 ($(last))" \
	grep -q "^cs=0 mode=0x1 " $SIM/last_message
expect_refused "spi: nothing on chip select 1" "$OBJ/spiflash.bpf.o" \
	"driver init failed: $ENODEV" --spi-cs 1
expect_refused "spi refused" "$OBJ/spiflash.bpf.o" \
	"SPI controller $CTL has chip selects 0-1, not 2" --spi-cs 2
expect_refused "spi refused" "$OBJ/spiflash.bpf.o" \
	"no SPI controller under a device named 'nosuch'" --spi-controller nosuch
expect_refused "spi refused" "$OBJ/spiflash.bpf.o" \
	"SPI controller $CTL clocks at 100000 Hz at least, not 50000" \
	--spi-speed 50000
expect_refused "spi refused" "$TOBJ/bad_spi_mode.bpf.o" \
	"SPI mode 0x10 has unknown bits"
expect_refused "spi refused" "$TOBJ/bad_spi_nocontroller.bpf.o" \
	"a SPI chip select, mode or clock needs spi_controller"
check "spi: the tool refuses --spi-cs 16" \
	sh -c "$BPFDRV load --pin --spi-cs 16 $OBJ/spiflash.bpf.o 2>&1 |
		grep -q 'invalid --spi-cs'"
check "spi: the tool refuses --spi-* for a driver without SPI" \
	sh -c "$BPFDRV load --pin --spi-cs 1 $OBJ/echo.bpf.o 2>&1 |
		grep -q 'no driver in it declares a SPI device'"

# --- the kfuncs' checks ---
check "spi: load spi_probe (chip select 1) and spi_none (no SPI)" \
	$BPFDRV load --pin "$TOBJ/spi_probe.bpf.o"
for op in 0x5001:transfer 0x5002:write_then_read; do	# _IO('P', 1), 2
	n=${op#*:}
	r=$(probe /dev/bpfdrv/spi_probe ${op%%:*} 4096)
	check "spi: bpfdrv_spi_$n of 4096 bytes on chip select 1 reads a floating bus, 0xff ($r)" \
		test "$r" = 255
	r=$(probe /dev/bpfdrv/spi_probe ${op%%:*} 4097)
	check "spi: bpfdrv_spi_$n of 4097 bytes: EINVAL ($r)" test "$r" = $EINVAL
	r=$(probe /dev/bpfdrv/spi_none ${op%%:*} 16)
	check "spi: bpfdrv_spi_$n without a SPI device: ENODEV ($r)" \
		test "$r" = $ENODEV
done
check "spi: the controller saw chip select 1 ($(last))" \
	grep -q "^cs=1 " $SIM/last_message
$BPFDRV unload spi_probe >/dev/null 2>&1
$BPFDRV unload spi_none >/dev/null 2>&1

# --- live update, then the controller goes while spiflash uses it ---
check "spi: load spiflash" $BPFDRV load --pin "$OBJ/spiflash.bpf.o"
check "spi: a live update onto chip select 1 is refused: its SPI device cannot change" \
	sh -c "! $BPFDRV update --spi-cs 1 spiflash $OBJ/spiflash.bpf.o >$OUT/upd 2>&1 &&
		grep -q 'changes its SPI device' $OUT/upd"
sed 's/^/# /' "$OUT/upd"
check "spi: a live update with the same SPI device is taken" \
	$BPFDRV update spiflash "$OBJ/spiflash.bpf.o"
info=$(flash $NODE info 2>&1)
check "spi: the new code serves the same flash ($info)" \
	test "$info" = "ef4014 1048576"
check "spi: rmmod spi_flash_sim under spiflash" rmmod spi_flash_sim
check "spi: spiflash is ejected (node gone)" wait_gone spiflash
check "spi: bpfdrv status: removed, spiflash lost SPI controller $CTL of bpfdrv-spi-sim" \
	wait_for 10 eval "$BPFDRV status spiflash 2>&1 |
		grep -q 'last exit: removed at .*spiflash lost SPI controller $CTL of bpfdrv-spi-sim'"
$BPFDRV unload spiflash >/dev/null 2>&1
rmmod spi_flash_sim 2>/dev/null

# --- the controller goes under I/O while its parent stays (driver unbound) ---
if insmod "$KMODS/spi_flash_sim.ko"; then
	check "spi: load spiflash on the new controller" \
		$BPFDRV load --pin "$OBJ/spiflash.bpf.o"
	python3 -S - $NODE >"$OUT/dd" 2>&1 <<'EOF' &
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
reads = 0
try:
    while True:
        os.pread(fd, 256, 0)
        reads += 1
except OSError as e:
    print("reads", reads, "then", os.strerror(e.errno))
EOF
	io=$!
	sleep 1
	check "spi: unbind the controller's driver under I/O: done in 20 s" \
		timeout 20 sh -c "echo bpfdrv-spi-sim >/sys/bus/platform/drivers/bpfdrv-spi-sim/unbind"
	check "spi: the reads end" wait_for 10 eval "! kill -0 $io"
	wait $io
	sed 's/^/# /' "$OUT/dd"
	check "spi: the reads ended with ENODEV" grep -q "No such device" "$OUT/dd"
	check "spi: spiflash is ejected (node gone)" wait_gone spiflash
	check "spi: bpfdrv status: removed, spiflash lost its SPI controller" \
		wait_for 10 eval "$BPFDRV status spiflash 2>&1 |
			grep -q 'last exit: removed at .*spiflash lost SPI controller'"
	check "spi: the platform device stays" test -e /sys/bus/platform/devices/bpfdrv-spi-sim
	check "spi: no reference to the module is left (refcnt 0)" \
		wait_for 10 eval '[ "$(cat /sys/module/spi_flash_sim/refcnt)" = 0 ]'

	# a detach while the controller's removal unregisters the driver's
	# device (each deletion stalled 1 s): one of the two unregisters it
	echo bpfdrv-spi-sim >/sys/bus/platform/drivers/bpfdrv-spi-sim/bind
	check "spi: load spiflash on the controller bound again" \
		$BPFDRV load --pin "$OBJ/spiflash.bpf.o"
	echo 1000 >/sys/module/spi_flash_sim/parameters/slow_delete_ms
	sh -c "echo bpfdrv-spi-sim >/sys/bus/platform/drivers/bpfdrv-spi-sim/unbind" &
	unbind=$!
	sleep 0.2
	t0=$(date +%s%N)
	check "spi: unload spiflash while the controller's removal deletes its device: done in 20 s" \
		eval "timeout 20 $BPFDRV unload spiflash >$OUT/unload 2>&1; [ \$? -ne 124 ]"
	echo "# the unload took $((($(date +%s%N) - t0) / 1000000)) ms (the deletion stalls 1 s a device)"
	sed 's/^/# /' "$OUT/unload"
	check "spi: the controller's removal ends" wait_for 20 eval "! kill -0 $unbind"
	echo 0 >/sys/module/spi_flash_sim/parameters/slow_delete_ms
	check "spi: spiflash is gone" wait_gone spiflash
	check "spi: no reference to the module is left after the race (refcnt 0)" \
		wait_for 10 eval '[ "$(cat /sys/module/spi_flash_sim/refcnt)" = 0 ]'
	check "spi: rmmod spi_flash_sim" rmmod spi_flash_sim
else
	nok "spi: insmod spi_flash_sim.ko again"
fi
true
