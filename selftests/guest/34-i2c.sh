#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# I2C: drivers on i2c-stub's emulated chips, checked through i2c-dev with
# i2c-tools (i2cset, i2cget, i2cdetect) and, for the lm75 hwmon driver,
# with sensors(1); the edid driver on QEMU's i2c-ddc EEPROM behind the q35
# SMBus controller, checked with i2cdump and edid-decode; the probe driver
# on QEMU's i2c-echo there, checked with i2cset and i2cget; raw I2C
# transfers on the EEPROM of selftests/kmods/i2c_eeprom_sim.c, checked with
# i2ctransfer. Ends with every
# driver detached and i2c-stub removed.
. "$(dirname "$0")/lib.sh"

PROBE=/dev/bpfdrv/i2c_probe

load_module || { nok "insmod bpfdrv.ko (for the I2C tests)"; exit 0; }
for tool in i2cset i2cget i2cdetect sensors; do
	if ! command -v $tool >/dev/null; then
		echo "# skip: I2C tests ($tool is not installed)"
		exit 0
	fi
done
modprobe i2c-dev
# chips at 0x48 (the lm75) and 0x50; nothing answers at 0x51
if ! modprobe i2c-stub chip_addr=0x48,0x50 2>"$OUT/modprobe"; then
	nok "modprobe i2c-stub"
	sed 's/^/# /' "$OUT/modprobe"
	exit 0
fi
BUS=""
for d in /sys/bus/i2c/devices/i2c-*; do
	[ "$(cat "$d/name")" = "SMBus stub driver" ] && BUS=${d##*-}
done
if [ -z "$BUS" ]; then
	nok "i2c-stub's adapter 'SMBus stub driver' is there"
	exit 0
fi
ok "i2c-stub's adapter 'SMBus stub driver' is i2c-$BUS"

# probe OP CLIENT REG VALUE [BYTES...]: run one kfunc; prints its return
# value and, with -d, the 8 data bytes
probe() {
	python3 -S -c '
import os, struct, sys
a = sys.argv[1:]
dump = a[0] == "-d"
a = a[1:] if dump else a
data = bytes(int(x, 0) for x in a[5:]).ljust(8, b"\0")
fd = os.open(a[0], os.O_RDWR)
os.write(fd, struct.pack("<IIII", *(int(x, 0) for x in a[1:5])) + data)
r = os.read(fd, 40)
ret = struct.unpack("<i", r[:4])[0]
print(" ".join(["%d" % ret] + (["0x%02x" % b for b in r[4:12]] if dump else [])))
' "$@"
}
OP_READ_BYTE=1 OP_WRITE_BYTE=2 OP_READ_BYTE_DATA=3 OP_WRITE_BYTE_DATA=4
OP_READ_WORD_DATA=5 OP_WRITE_WORD_DATA=6 OP_READ_BLOCK=7 OP_WRITE_BLOCK=8
OP_READ_BLOCK_33=9 OP_TRANSFER=10
ENXIO=-6 EINVAL=-22 EOPNOTSUPP=-95

# --- the probe driver: each kfunc against i2c-tools ---
i2cset -y $BUS 0x50 0x10 0xab
i2cset -y $BUS 0x50 0x20 0x1234 w
check "i2c: load i2c_probe (0x50 and 0x51 on SMBus stub driver)" \
	$BPFDRV load --pin $TOBJ/i2c_probe.bpf.o
check "i2cdetect: 0x50 and 0x51 are in use (UU)" \
	eval 'i2cdetect -y $BUS 0x50 0x51 | grep -q "^50: UU UU"'
check "i2c: read_byte_data of 0x10 is what i2cset wrote (0xab = 171)" \
	test "$(probe $PROBE $OP_READ_BYTE_DATA 0 0x10 0)" = 171
check "i2c: read_word_data of 0x20 is what i2cset wrote (0x1234 = 4660)" \
	test "$(probe $PROBE $OP_READ_WORD_DATA 0 0x20 0)" = 4660
check "i2c: write_byte_data 0x11 = 0xcd, i2cget -f reads 0xcd" \
	eval '[ "$(probe $PROBE $OP_WRITE_BYTE_DATA 0 0x11 0xcd)" = 0 ] &&
	      [ "$(i2cget -f -y $BUS 0x50 0x11)" = 0xcd ]'
check "i2c: write_word_data 0x21 = 0xbeef, i2cget -f reads 0xbeef" \
	eval '[ "$(probe $PROBE $OP_WRITE_WORD_DATA 0 0x21 0xbeef)" = 0 ] &&
	      [ "$(i2cget -f -y $BUS 0x50 0x21 w)" = 0xbeef ]'
check "i2c: write_byte 0x30 sets the stub's pointer, read_byte reads 0x30's byte" \
	eval 'i2cset -f -y $BUS 0x50 0x30 0x5a &&
	      [ "$(probe $PROBE $OP_WRITE_BYTE 0 0 0x30)" = 0 ] &&
	      [ "$(probe $PROBE $OP_READ_BYTE 0 0 0)" = 90 ]'
check "i2c: write_block of 8 bytes to 0x40, i2cget -f reads each" \
	eval '[ "$(probe $PROBE $OP_WRITE_BLOCK 0 0x40 0 1 2 3 4 5 6 7 8)" = 0 ] &&
	      [ "$(for r in 0x40 0x41 0x47; do i2cget -f -y $BUS 0x50 $r; done | tr "\n" " ")" = "0x01 0x02 0x08 " ]'
check "i2c: read_block of 8 bytes from 0x40 returns 8 and the bytes" \
	test "$(probe -d $PROBE $OP_READ_BLOCK 0 0x40 0)" = "8 0x01 0x02 0x03 0x04 0x05 0x06 0x07 0x08"
check "i2c: a block of 33 bytes is refused (EINVAL)" \
	test "$(probe $PROBE $OP_READ_BLOCK_33 0 0x40 0)" = $EINVAL
check "i2c: raw transfer on an SMBus-only adapter: EOPNOTSUPP" \
	test "$(probe $PROBE $OP_TRANSFER 0 0x40 0)" = $EOPNOTSUPP
check "i2c: client 2 (not declared) is refused (EINVAL)" \
	test "$(probe $PROBE $OP_READ_BYTE_DATA 2 0x10 0)" = $EINVAL
r=$(probe $PROBE $OP_READ_BYTE_DATA 1 0x10 0)
check "i2c: no chip at 0x51: the bus's error reaches the driver ($r)" test "$r" -lt 0
klog=$(dmesg | wc -l)
check "i2c: a second driver on 0x50 is refused: address in use" \
	eval '! $BPFDRV load --pin --name i2c_probe2 $TOBJ/i2c_probe.bpf.o >$OUT/busy 2>&1 &&
	      dmesg | tail -n +$((klog + 1)) |
	      grep -q "cannot take I2C address 0x50 on .SMBus stub driver.: -16 (in use"'
check "i2c: rmmod i2c_stub is refused while a driver uses it" \
	eval '! rmmod i2c_stub 2>/dev/null && [ -d /sys/module/i2c_stub ]'
check "i2c: unload i2c_probe" $BPFDRV unload i2c_probe
check "i2cdetect: 0x50 answers again and 0x51 is free" \
	eval 'i2cdetect -y $BUS 0x50 0x51 | grep -q "^50: 50 -- "'

# --- lm75 in hwmon, through sensors(1) ---
i2cset -y $BUS 0x48 0x01 0x00		# running
i2cset -y $BUS 0x48 0x00 0x8019 w	# 25.5 degrees: 0x19 0x80, high byte first
check "lm75: load" $BPFDRV load --pin $OBJ/lm75.bpf.o
sensors lm75-virtual-0 >"$OUT/sensors" 2>&1
sed 's/^/# /' "$OUT/sensors"
check "lm75: sensors shows ambient: +25.5°C" grep -Eq '^ambient: +\+25\.5 ?(°)?C' "$OUT/sensors"
HW=""
for d in /sys/class/hwmon/hwmon*; do
	[ "$(cat $d/name 2>/dev/null)" = lm75 ] && HW=$d
done
i2cset -f -y $BUS 0x48 0x00 0x80f5 w	# -10.5 degrees: 0xf5 0x80
check "lm75: a negative temperature: temp1_input -10500" \
	test "$(cat $HW/temp1_input 2>&1)" = -10500
i2cset -f -y $BUS 0x48 0x01 0x01	# shut down
expect_err "lm75: a shut-down chip gives ENODATA" "No data available" cat $HW/temp1_input
i2cset -f -y $BUS 0x48 0x01 0x00
check "lm75: unload" $BPFDRV unload lm75
check "lm75: its hwmon device is gone" eval '[ -z "$HW" ] || [ ! -e "$HW" ]'

# --- declarations and adapters the module refuses ---
for case in "bad_i2c_addr:I2C address 0x3 is reserved or not 7-bit" \
	    "bad_i2c_noadapter:an I2C adapter needs addresses, and addresses an adapter" \
	    "bad_i2c_dup:I2C address 0x50 is declared twice" \
	    "i2c_missing:no I2C adapter named 'no such adapter'"; do
	expect_refused "i2c refused" "$TOBJ/${case%%:*}.bpf.o" "${case#*:}"
done
check "lm75 --i2c-addrs 0x49 (no chip there): init fails, nothing stays attached" \
	eval '! $BPFDRV load --pin --i2c-addrs 0x49 $OBJ/lm75.bpf.o >$OUT/out 2>&1 &&
	      node_gone lm75 && i2cdetect -y $BUS 0x49 0x49 | grep -q "^40: *--"'
sed 's/^/# /' "$OUT/out"
expect_err "bpfdrv load --i2c-addrs 0x80 is refused before loading" "invalid --i2c-addrs" \
	$BPFDRV load --pin --i2c-addrs 0x80 $OBJ/lm75.bpf.o
check "i2c: the refused drivers left no client (0x50 answers)" \
	eval 'i2cdetect -y $BUS 0x50 0x50 | grep -q "^50: 50"'
check "i2c: rmmod i2c_stub once no driver uses it" rmmod i2c_stub

# --- raw I2C: the EEPROM of i2c_eeprom_sim, checked with i2ctransfer ---
if insmod "$KMODS/i2c_eeprom_sim.ko" 2>"$OUT/insmod"; then
	RAW=""
	for d in /sys/bus/i2c/devices/i2c-*; do
		[ "$(cat "$d/name")" = bpfdrv-i2c-sim ] && RAW=${d##*-}
	done
	i2ctransfer -y "$RAW" w5@0x50 0x40 0x11 0x22 0x33 0x44
	PRAW=/dev/bpfdrv/i2c_raw
	check "raw i2c: load i2c_probe as i2c_raw on bpfdrv-i2c-sim (0x50 and 0x51)" \
		$BPFDRV load --pin --name i2c_raw --i2c-adapter bpfdrv-i2c-sim \
		--i2c-addrs 0x50,0x51 $TOBJ/i2c_probe.bpf.o
	r=$(probe -d $PRAW $OP_TRANSFER 0 0x40 0)
	check "raw i2c: bpfdrv_i2c_transfer (write 0x40, read) gets what i2ctransfer wrote ($r)" \
		test "$r" = "0 0x40 0x11 0x22 0x33 0x44 0xff 0xff 0xff"
	check "raw i2c: write_block of 8 bytes to 0x60 (SMBus over raw I2C), i2ctransfer reads them" \
		eval '[ "$(probe $PRAW $OP_WRITE_BLOCK 0 0x60 0 1 2 3 4 5 6 7 8)" = 0 ] &&
		      [ "$(i2ctransfer -f -y $RAW w1@0x50 0x60 r8)" = "0x01 0x02 0x03 0x04 0x05 0x06 0x07 0x08" ]'
	r=$(probe $PRAW $OP_TRANSFER 1 0x40 0)
	check "raw i2c: bpfdrv_i2c_transfer to 0x51, where nothing answers: ENXIO ($r)" \
		test "$r" = $ENXIO
	check "raw i2c: unload i2c_raw" $BPFDRV unload i2c_raw

	# the adapter deleted under I/O while its module stays (a DP-AUX
	# adapter's way): the deletion does not wait for the driver, the
	# transfers end with ENODEV, the driver is ejected, nothing is held
	check "raw i2c: load i2c_raw again" \
		$BPFDRV load --pin --name i2c_raw --i2c-adapter bpfdrv-i2c-sim \
		--i2c-addrs 0x50,0x51 $TOBJ/i2c_probe.bpf.o
	python3 -S - $PRAW >"$OUT/rawio" 2>&1 <<'EOF' &
import os, struct, sys
fd = os.open(sys.argv[1], os.O_RDWR)
req = struct.pack("<IIII", 10, 0, 0x40, 0) + bytes(8)	# OP_TRANSFER
calls, rets = 0, set()
try:
    while True:
        os.write(fd, req)
        rets.add(struct.unpack("<i", os.read(fd, 40)[:4])[0])
        calls += 1
except OSError as e:
    print("calls", calls, "returns", sorted(rets), "errno", e.errno)
EOF
	io=$!
	sleep 1
	check "raw i2c: delete the adapter under I/O (present=0): done in 20 s" \
		timeout 20 sh -c 'echo 0 >/sys/module/i2c_eeprom_sim/parameters/present'
	check "raw i2c: the I/O ends" wait_for 10 eval "! kill -0 $io"
	wait $io
	sed 's/^/# /' "$OUT/rawio"
	check "raw i2c: transfers gave data or ENODEV, then the node ENODEV" \
		grep -Eq "returns \[(-19, )?0\] errno 19|returns \[0\] errno 19" "$OUT/rawio"
	check "raw i2c: i2c_raw is ejected (node gone)" wait_gone i2c_raw
	check "raw i2c: bpfdrv status: removed, i2c_raw lost I2C adapter bpfdrv-i2c-sim" \
		wait_for 10 eval "$BPFDRV status i2c_raw 2>&1 |
			grep -q 'last exit: removed at .*i2c_raw lost I2C adapter bpfdrv-i2c-sim'"
	check "raw i2c: no reference to the module is left (refcnt 0)" \
		wait_for 10 eval '[ "$(cat /sys/module/i2c_eeprom_sim/refcnt)" = 0 ]'
	check "raw i2c: the adapter is added again (present=1)" \
		sh -c 'echo 1 >/sys/module/i2c_eeprom_sim/parameters/present'

	# a detach while the adapter's deletion unregisters the driver's
	# clients (each deletion stalled 1 s): one of the two unregisters each
	RAWP=/sys/module/i2c_eeprom_sim/parameters
	check "raw i2c: load i2c_raw on the adapter added again" \
		$BPFDRV load --pin --name i2c_raw --i2c-adapter bpfdrv-i2c-sim \
		--i2c-addrs 0x50,0x51 $TOBJ/i2c_probe.bpf.o
	echo 1000 >$RAWP/slow_delete_ms
	sh -c "echo 0 >$RAWP/present" &
	del=$!
	sleep 0.2
	t0=$(date +%s%N)
	check "raw i2c: unload i2c_raw while the adapter's deletion deletes its clients: done in 20 s" \
		eval "timeout 20 $BPFDRV unload i2c_raw >$OUT/unload 2>&1; [ \$? -ne 124 ]"
	echo "# the unload took $((($(date +%s%N) - t0) / 1000000)) ms (the deletion stalls 1 s a device)"
	sed 's/^/# /' "$OUT/unload"
	check "raw i2c: the deletion ends" wait_for 20 eval "! kill -0 $del"
	echo 0 >$RAWP/slow_delete_ms
	check "raw i2c: i2c_raw is gone" wait_gone i2c_raw
	check "raw i2c: no reference to the module is left after the race (refcnt 0)" \
		wait_for 10 eval '[ "$(cat /sys/module/i2c_eeprom_sim/refcnt)" = 0 ]'

	# the adapter goes with a GPIO expander on it whose line the same
	# instance holds: the expander's removal (first, under the lock the
	# teardown of the I2C clients needs) does not wait for that teardown
	echo 1 >$RAWP/present
	for d in /sys/bus/i2c/devices/i2c-*; do
		[ "$(cat "$d/name")" = bpfdrv-i2c-sim ] && RAW=${d##*-}
	done
	echo "bpfdrv-i2c-gpio-sim 0x20" >/sys/bus/i2c/devices/i2c-$RAW/new_device
	check "raw i2c: load i2c_gpio (0x50, 0x51, line 0 of the expander at 0x20)" \
		$BPFDRV load --pin $TOBJ/i2c_gpio.bpf.o
	r=$(dd if=/dev/bpfdrv/i2c_gpio bs=8 count=1 2>/dev/null | od -An -td4 | xargs)
	check "raw i2c: i2c_gpio reads the line (0) and the EEPROM ($r)" \
		eval "[ \"\${r%% *}\" = 0 ] && [ \"\${r##* }\" -ge 0 ]"
	# reads flood the GPIO and I2C kfuncs while the revocation drains them
	python3 -S - /dev/bpfdrv/i2c_gpio >"$OUT/gpioio" 2>&1 <<'EOF' &
import os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
reads, rets = 0, set()
try:
    while True:
        rets.update(struct.unpack("<ii", os.read(fd, 8)))
        reads += 1
except OSError as e:
    print("reads", reads, "returns", sorted(rets), "errno", e.errno)
EOF
	io=$!
	sleep 1
	check "raw i2c: delete the adapter under i2c_gpio's reads: done in 20 s" \
		timeout 20 sh -c "echo 0 >$RAWP/present"
	check "raw i2c: the reads end" wait_for 10 eval "! kill -0 $io"
	wait $io
	sed 's/^/# /' "$OUT/gpioio"
	# every kfunc result a level, a byte or ENODEV (-19); the node then ENODEV
	check "raw i2c: the kfuncs gave levels, bytes or ENODEV, then the node ENODEV" \
		python3 -S -c '
import sys
w = open(sys.argv[1]).read().split()
rets = [int(x.strip("[],")) for x in w[w.index("returns") + 1:w.index("errno")]]
sys.exit(not (int(w[1]) > 100 and w[-1] == "19" and all(r in (-19,) or r >= 0 for r in rets)))' "$OUT/gpioio"
	check "raw i2c: i2c_gpio is ejected (node gone)" wait_gone i2c_gpio
	check "raw i2c: bpfdrv status: removed, i2c_gpio lost GPIO chip bpfdrv-i2c-gpio-sim" \
		wait_for 10 eval "$BPFDRV status i2c_gpio 2>&1 |
			grep -q 'last exit: removed at .*i2c_gpio lost GPIO chip bpfdrv-i2c-gpio-sim'"
	$BPFDRV unload i2c_gpio >/dev/null 2>&1
	check "raw i2c: no reference to the module is left after i2c_gpio (refcnt 0)" \
		wait_for 10 eval '[ "$(cat /sys/module/i2c_eeprom_sim/refcnt)" = 0 ]'
	check "raw i2c: rmmod i2c_eeprom_sim" rmmod i2c_eeprom_sim
else
	nok "insmod i2c_eeprom_sim.ko"
	sed 's/^/# /' "$OUT/insmod"
fi

# --- edid: QEMU's i2c-ddc EEPROM on the q35 SMBus controller (i2c-i801) ---
modprobe i2c-i801 2>/dev/null
DDC=""
for d in /sys/bus/i2c/devices/i2c-*; do
	case "$(cat "$d/name")" in "SMBus I801 adapter"*) DDC=${d##*-};; esac
done
if [ -z "$DDC" ]; then
	echo "# skip: edid (no i801 SMBus adapter: the q35 machine has one)"
elif ! i2cget -y "$DDC" 0x58 0 >/dev/null 2>&1; then
	echo "# skip: edid (nothing answers at 0x58: run QEMU with -device i2c-ddc,address=0x58)"
else
	ok "edid: i2c-ddc answers at 0x58 on i2c-$DDC ($(cat /sys/bus/i2c/devices/i2c-$DDC/name))"
	# the raw EEPROM through i2c-dev, decoded by edid-decode
	i2cdump -y "$DDC" 0x58 i 2>/dev/null |
		awk '/^[0-7]0:/ { for (i = 2; i <= 17; i++) printf "%s", $i }' |
		xxd -r -p >"$OUT/edid.bin"
	check "edid: i2cdump read 128 bytes" test "$(stat -c %s "$OUT/edid.bin")" = 128
	edid-decode "$OUT/edid.bin" >"$OUT/edid-decode" 2>&1
	# q35's SPD EEPROMs hold 0x50-0x57: the DDC EEPROM is at 0x58 here
	check "edid: load edid --i2c-addrs 0x58 (adapter 'SMBus I801 adapter*')" \
		$BPFDRV load --pin --i2c-addrs 0x58 $OBJ/edid.bpf.o
	cat /dev/bpfdrv/edid >"$OUT/edid.txt" 2>&1
	sed 's/^/# /' "$OUT/edid.txt"
	name=$(sed -n "s/^ *Display Product Name: '\(.*\)'$/\1/p" "$OUT/edid-decode")
	check "edid: the name is edid-decode's ($name)" \
		grep -qx "name=$name" "$OUT/edid.txt"
	pref=$(sed -n 's/^ *DTD 1: *\([0-9]*x[0-9]*\) .*/\1/p' "$OUT/edid-decode" | head -1)
	check "edid: the preferred mode is edid-decode's first DTD ($pref)" \
		grep -qx "preferred=$pref" "$OUT/edid.txt"
	est=$(sed -n '/Established Timings I & II:/,/Standard Timings:/p' "$OUT/edid-decode" |
		grep -cE '[0-9]+x[0-9]+ +[0-9.]+ Hz')
	check "edid: as many established modes as edid-decode lists ($est)" \
		test "$(grep -c '^mode=' "$OUT/edid.txt")" = "$est"
	sum=valid
	grep -q "^Checksum: .*should be" "$OUT/edid-decode" && sum=invalid
	check "edid: the checksum is $sum, as edid-decode says" \
		grep -qx "checksum=$sum" "$OUT/edid.txt"
	check "edid: unload" $BPFDRV unload edid
	# QEMU's i2c-echo at 0x5a keeps the last 3 bytes written to it and reads
	# them back: the probe driver and i2cset/i2cget get the same answers
	if i2cdetect -y "$DDC" 0x5a 0x5a | grep -q "^50: .*5a"; then
		ECHO=/dev/bpfdrv/i2c_echo
		check "i2c-echo: load i2c_probe as i2c_echo on 0x5a and 0x5b of 'SMBus I801 adapter*'" \
			$BPFDRV load --pin --name i2c_echo --i2c-adapter "SMBus I801 adapter*" \
			--i2c-addrs 0x5a,0x5b $TOBJ/i2c_probe.bpf.o
		check "i2cdetect: 0x5a and 0x5b are in use (UU)" \
			eval 'i2cdetect -y $DDC 0x5a 0x5b | grep -q "^50: .*UU UU"'
		check "i2c-echo: write_byte_data 0x10 = 0x42, then read_byte echoes 0x10 (16)" \
			eval '[ "$(probe $ECHO $OP_WRITE_BYTE_DATA 0 0x10 0x42)" = 0 ] &&
			      [ "$(probe $ECHO $OP_READ_BYTE 0 0 0)" = 16 ]'
		check "i2c-echo: read_byte_data of 0x11 echoes 0x11 (17)" \
			test "$(probe $ECHO $OP_READ_BYTE_DATA 0 0x11 0)" = 17
		check "i2c-echo: read_word_data of 0x12 is 0x12, then the 0x42 kept (0x4212 = 16914)" \
			test "$(probe $ECHO $OP_READ_WORD_DATA 0 0x12 0)" = 16914
		r=$(probe $ECHO $OP_READ_BYTE_DATA 1 0x10 0)
		check "i2c-echo: nothing answers at 0x5b on i801: the error reaches the driver ($r)" \
			test "$r" -lt 0
		check "i2c-echo: unload i2c_echo" $BPFDRV unload i2c_echo
		check "i2c-echo: i2cset and i2cget -f get the same: 0x10, 0x11, 0x4212" \
			eval 'i2cset -f -y $DDC 0x5a 0x10 0x42 &&
			      [ "$(i2cget -f -y $DDC 0x5a)" = 0x10 ] &&
			      [ "$(i2cget -f -y $DDC 0x5a 0x11)" = 0x11 ] &&
			      [ "$(i2cget -f -y $DDC 0x5a 0x12 w)" = 0x4212 ]'
	else
		echo "# skip: i2c-echo (QEMU's i2c-echo does not answer at 0x5a)"
	fi
	# the controller goes while edid uses its adapter: edid goes first
	check "edid: load it again" $BPFDRV load --pin --i2c-addrs 0x58 $OBJ/edid.bpf.o
	# the adapter's parent: the controller's PCI function
	SMB=$(basename "$(dirname "$(readlink -f /sys/bus/i2c/devices/i2c-$DDC)")")
	SMBDRV=$(basename "$(readlink -f /sys/bus/pci/devices/$SMB/driver)")
	check "edid: unbind the SMBus controller $SMB from $SMBDRV" \
		sh -c "echo $SMB >/sys/bus/pci/drivers/$SMBDRV/unbind"
	check "edid: ejected as its adapter went (node gone)" wait_gone edid
	check "edid: bpfdrv status: removed, edid lost I2C adapter SMBus I801 adapter at ..." \
		wait_for 10 eval "$BPFDRV status edid 2>&1 |
			grep -q 'last exit: removed at .*edid lost I2C adapter SMBus I801 adapter at'"
	check "edid: the adapter is gone" test ! -e /sys/bus/i2c/devices/i2c-$DDC
	check "edid: bind the controller again" \
		sh -c "echo $SMB >/sys/bus/pci/drivers/$SMBDRV/bind"
	$BPFDRV unload edid >/dev/null 2>&1	# if the unbind failed
fi
