#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The implementations make bench compares behave alike: the native echo
# module and the CUSE echo daemon give the same transcript as the bpfdrv
# echo driver for each scripted sequence (selftests/bench/echo_transcript.py).
. "$(dirname "$0")/lib.sh"
. selftests/bench/devices.sh

TRANSCRIPT=selftests/bench/echo_transcript.py

if ! echo_devices_up >"$OUT/up" 2>&1; then
	if grep -q "^# skip:" "$OUT/up"; then
		cat "$OUT/up"
	else
		nok "bench devices come up (bpfdrv echo, echo_native, cuse_echo)"
		cat "$OUT/up"
	fi
	echo_devices_down
	exit 0
fi
ok "bench devices come up (bpfdrv echo, echo_native, cuse_echo)"

for seq in small wrap full large ioctl poll shared; do
	ref=$OUT/ref-$seq
	if ! python3 $TRANSCRIPT $seq /dev/bpfdrv/$ECHO_BPFDRV >"$ref" 2>&1; then
		nok "transcript '$seq' runs on bpfdrv echo"
		sed 's/^/# /' "$ref"
		continue
	fi
	for dev in /dev/echo_native /dev/$ECHO_CUSE; do
		python3 $TRANSCRIPT $seq $dev >"$OUT/got" 2>&1
		if diff -u "$ref" "$OUT/got" >"$OUT/diff"; then
			ok "${dev#/dev/} behaves as bpfdrv echo: $seq ($(wc -l <"$ref") operations)"
		else
			nok "${dev#/dev/} behaves as bpfdrv echo: $seq"
			sed 's/^/# /' "$OUT/diff"
		fi
	done
done

echo_devices_down
check "cuse_echo exits on SIGTERM and its node goes away" wait_for 5 test ! -e /dev/$ECHO_CUSE
check "echo_native is unloaded" test ! -d /sys/module/echo_native
