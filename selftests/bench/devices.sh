# SPDX-License-Identifier: GPL-2.0
# In the guest (sourced after selftests/guest/lib.sh): bring up the three echo
# implementations that make bench compares, each a fresh instance:
#   /dev/bpfdrv/$ECHO_BPFDRV  the bpfdrv echo driver (bpf-drivers/echo.bpf.c)
#   /dev/echo_native          selftests/kmods/echo_native.ko
#   /dev/$ECHO_CUSE           selftests/bench/cuse_echo on CUSE
# echo_devices_up prints one "# skip:" or error line and fails if one of them
# cannot be had; echo_devices_down removes what echo_devices_up made.
# CUSE_CPU=n pins the CUSE daemon to CPU n.

ECHO_BPFDRV=benchecho
ECHO_CUSE=cuse_echo
CUSE_ECHO=$B/selftests/bench/cuse_echo
cuse_pid=

echo_devices_up() {
	load_module || { echo "# error: insmod bpfdrv.ko failed"; return 1; }
	$BPFDRV load --pin --name $ECHO_BPFDRV $OBJ/echo.bpf.o >/dev/null ||
		{ echo "# error: bpfdrv load echo failed"; return 1; }
	insmod $KMODS/echo_native.ko ||
		{ echo "# error: insmod echo_native.ko failed"; return 1; }
	if ! modprobe cuse 2>/dev/null && [ ! -c /dev/cuse ]; then
		echo "# skip: CUSE implementation (this kernel has no cuse module)"
		return 1
	fi
	${CUSE_CPU:+taskset -c "$CUSE_CPU"} $CUSE_ECHO -f --name=$ECHO_CUSE \
		2>"$OUT/cuse.err" &
	cuse_pid=$!
	if ! wait_for 10 test -c /dev/$ECHO_CUSE; then
		echo "# error: /dev/$ECHO_CUSE did not appear"
		sed 's/^/# /' "$OUT/cuse.err"
		return 1
	fi
}

echo_devices_down() {
	[ -n "$cuse_pid" ] && kill "$cuse_pid" 2>/dev/null && wait "$cuse_pid" 2>/dev/null
	cuse_pid=
	[ -d /sys/module/echo_native ] && rmmod echo_native
	[ -e /dev/bpfdrv/$ECHO_BPFDRV ] && $BPFDRV unload $ECHO_BPFDRV >/dev/null
	return 0
}
