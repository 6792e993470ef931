#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# irq_hard (ABI 4): the irqtest driver on an edu function, over MSI and then
# INTx. Interrupts handled in hard-IRQ context, and handed to the sleepable
# irq callback; every handler call accounted for against /proc/interrupts,
# with interrupts raised from several processes at once and across a live
# update; and containment: an irq_hard that reports an error, returns what
# it may not, or overruns its time is stopped and its driver ejected, and
# the function serves the next driver. Declarations the module refuses.
# Several interrupt vectors (ABI 13): msixtest on igb's MSI-X vectors, each
# counted exactly, rung from several processes, unloaded while they ring,
# and the declarations and functions that cannot have them.
. "$(dirname "$0")/lib.sh"

IRQT=$TOBJ/irqtest.bpf.o
mapfile -t edus < <(lspci -Dn -d 1234:11e8 | awk '{ print $1 }')
if [ ${#edus[@]} -lt 1 ]; then
	echo "# skip: irq_hard tests (no edu device: run with -device edu)"
	exit 0
fi
EDU_BDF=${edus[-1]}
NODE=/dev/bpfdrv/irqtest0
load_module || { nok "insmod bpfdrv.ko for the irq_hard tests"; exit 0; }
# Under TCG a vCPU the host deschedules stretches a call past the default
# 10 ms (6.12: an irq_hard ran 10077 us, its driver ejected for that and
# not for what the check provoked). Only the overrun check tests the time
# budget: every other check runs under half a second's.
LAX_US=500000
lax_budget() { echo $LAX_US >/sys/module/bpfdrv/parameters/irq_hard_max_us; }
lax_budget

# irqt.py OP NODE ARGS: raise interrupts and read irqtest's counts
cat >"$OUT/irqt.py" <<'PY'
import fcntl, os, signal, struct, sys
signal.alarm(60)	# a read that is never woken fails the test, not the run
MODE, RAISE, COUNTS = 0x40045101, 0x5102, 0x80285103
MODES = {"handled": 0, "wake": 1, "slow": 2, "badret": 3, "eject": 4}
op, node = sys.argv[1], sys.argv[2]
fd = os.open(node, os.O_RDWR)
def counts():
    return struct.unpack("5Q", fcntl.ioctl(fd, COUNTS, bytes(40)))[:4]
if op == "mode":
    fcntl.ioctl(fd, MODE, struct.pack("I", MODES[sys.argv[3]]))
elif op == "raise":		# N interrupts, one at a time: each read blocks
    for i in range(int(sys.argv[3])):
        fcntl.ioctl(fd, RAISE)
        os.read(fd, 40)
elif op == "spam":		# N interrupts as fast as ioctl goes
    for i in range(int(sys.argv[3])):
        fcntl.ioctl(fd, RAISE)
elif op == "fire":		# one, not waited for
    fcntl.ioctl(fd, RAISE)
print(*counts())
PY
irqt() { python3 "$OUT/irqt.py" "$@"; }
# the counts as "hard thread slept none"
counts() { irqt counts $NODE; }
# calls of the Linux interrupt named NAME, on every CPU (/proc/interrupts)
proc_irqs() {
	awk -v n="$1" '$NF == n { s = 0
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i
		print s }' /proc/interrupts
}
stat_of() { awk -v k="$2" '$1 == k { print $2 }' "/sys/class/bpfdrv/$1/stats"; }
# ejected_with KIND MESSAGE: irqtest is gone, with that exit
ejected_with() {
	check "$how: irqtest goes away after its $1 in irq_hard" wait_gone irqtest0
	status_says irqtest "$how: bpfdrv status names irq_hard and says why: $2" \
		"last exit: $1 in irq_hard at .*: .*$2"
	$BPFDRV unload irqtest >/dev/null 2>&1
}
attach() {	# attach [OBJ]: irqtest on the edu function
	check "$how: load --pin irqtest on $EDU_BDF" \
		$BPFDRV load --pin --device "$EDU_BDF" "${1:-$IRQT}"
}

# lsm_in_hardirq CMD...: the lockdown judgements (the LSM hook
# security_locked_down, which may judge current) CMD's run made, all and
# in hard-IRQ context, from ftrace's function tracer; fails without one
lsm_in_hardirq() {
	grep -qx security_locked_down $TFS/available_filter_functions 2>/dev/null ||
		return 1
	local on

	on=$(cat $TFS/tracing_on)
	echo security_locked_down >$TFS/set_ftrace_filter
	echo function >$TFS/current_tracer
	echo >$TFS/trace
	echo 1 >$TFS/tracing_on
	"$@" >/dev/null
	echo "$on" >$TFS/tracing_on
	# "task-pid [cpu] flags ts: func": flags h or H, in hard-IRQ context
	awk '/ security_locked_down/ { n++
		for (i = 1; i < NF; i++) if ($i ~ /^\[[0-9]+\]$/) break
		if ($(i + 1) ~ /[hH]/) h++ }
		END { print n + 0, h + 0 }' $TFS/trace
	echo nop >$TFS/current_tracer	# (which clears the buffer)
	echo >$TFS/set_ftrace_filter
}

# irq_round HOW: everything on one kind of interrupt (the module's msi=)
irq_round() {
	local how=$1 kind c0 c1 p0 p1 i0 h0 n0 hard thread slept none

	attach
	grep -w irqtest0 /proc/interrupts | sed 's/^/# /'
	if [ "$how" = MSI ]; then kind=MSI; else kind=IO-APIC; fi
	check "$how: irqtest0's interrupt is $kind" \
		eval "grep -w irqtest0 /proc/interrupts | grep -q $kind"

	# handled in irq_hard, one at a time: the read each waits on is
	# woken from hard-IRQ context
	p0=$(proc_irqs irqtest0)
	c1=$(irqt raise $NODE 200)
	read -r hard thread slept none <<<"$c1"
	expect_eq "$how: irq_hard handled 200 raised interrupts, irq ran for none" \
		"$hard $thread" "200 0"
	expect_eq "$how: irq_count counts the 200" "$(cat /sys/class/bpfdrv/irqtest0/irq_count)" 200
	expect_eq "$how: stats count 200 irq_hard calls that found work, and $none that did not" \
		"$(stat_of irqtest0 irq_hard)" $((200 + none))
	expect_eq "$how: /proc/interrupts counts every irq_hard call" \
		$(($(proc_irqs irqtest0) - p0)) $((hard + none))

	# the deferred part: irq_hard says BPFDRV_IRQ_WAKE, irq sleeps
	irqt mode $NODE wake >/dev/null
	c1=$(irqt raise $NODE 50)
	read -r hard thread slept none <<<"$c1"
	expect_eq "$how: 50 handed on with BPFDRV_IRQ_WAKE ran irq, which called a sleeping kfunc" \
		"$hard $thread $slept" "250 50 50"
	expect_eq "$how: irq_count counts each of them once" \
		"$(cat /sys/class/bpfdrv/irqtest0/irq_count)" 250
	expect_eq "$how: stats count 50 irq calls" "$(stat_of irqtest0 irq)" 50
	irqt mode $NODE handled >/dev/null

	# several processes raise at once, beside their ioctls: edu merges
	# raises that meet a pending one, so only the sum is exact
	if [ "$how" = MSI ]; then
		read -r h0 thread slept n0 <<<"$(counts)"
		p0=$(proc_irqs irqtest0)
		i0=$(cat /sys/class/bpfdrv/irqtest0/irq_count)
		for i in 1 2 3 4; do irqt spam $NODE 250 >/dev/null & done
		wait
		# until the last interrupts were handled
		wait_for 5 eval 'c=$(counts); sleep 0.2; [ "$c" = "$(counts)" ]'
		read -r hard thread slept none <<<"$(counts)"
		echo "# 1000 raised by 4 processes: $((hard - h0)) handled, $((none - n0)) found nothing"
		if preempt_rt; then
			# its handler is a thread there: interrupts that come
			# while it is woken share one call
			check "$how: 4 processes x 250 raises: every handler call is an interrupt (/proc/interrupts, at least)" \
				test $(($(proc_irqs irqtest0) - p0)) -ge $((hard - h0 + none - n0))
		else
			expect_eq "$how: 4 processes x 250 raises: every handler call is counted (/proc/interrupts)" \
				$(($(proc_irqs irqtest0) - p0)) $((hard - h0 + none - n0))
		fi
		expect_eq "$how: and irq_count counts the handled ones" \
			$(($(cat /sys/class/bpfdrv/irqtest0/irq_count) - i0)) $((hard - h0))
		# (RT's threaded handler takes a burst in one call)
		preempt_rt && least=1 || least=250
		check "$how: at least $least handled interrupts for the 1000 raises" \
			test $((hard - h0)) -ge $least

		# a live update while interrupts come: none is lost or runs
		# old code on a freed map
		irqt spam $NODE 2000 >/dev/null &
		check "$how: bpfdrv update irqtest while interrupts come" \
			$BPFDRV update irqtest "$IRQT" --device "$EDU_BDF"
		wait
		c1=$(irqt raise $NODE 10)
		read -r hard thread slept none <<<"$c1"
		check "$how: after the update, irq_hard (the new code, same state) handles them" \
			test "$(cat /sys/class/bpfdrv/irqtest0/irq_count)" = "$hard"
		expect_err "$how: an update that drops irq_hard is refused" \
			"changes whether it has an irq_hard callback" \
			$BPFDRV update irqtest $TOBJ/irqtest_nohard.bpf.o --device "$EDU_BDF"
		expect_err "$how: an update that drops the irq callback is refused" \
			"changes whether it has an irq callback" \
			$BPFDRV update irqtest $TOBJ/irqtest_nothread.bpf.o --device "$EDU_BDF"
	fi

	# containment: each way of breaking ejects the driver
	irqt mode $NODE eject >/dev/null
	irqt fire $NODE >/dev/null
	ejected_with error "armed failure in irq_hard of instance 0"

	attach
	irqt mode $NODE badret >/dev/null
	irqt fire $NODE >/dev/null
	ejected_with protocol "irq_hard returned 7 (0, 1 or 2 allowed)"

	# the function serves the next driver: its interrupt comes back
	attach
	c1=$(irqt raise $NODE 5)
	expect_eq "$how: after the ejection, the next driver gets the function's interrupts" \
		"${c1%% *}" 5

	echo 1000 >/sys/module/bpfdrv/parameters/irq_hard_max_us
	irqt mode $NODE slow >/dev/null
	irqt fire $NODE >/dev/null
	sleep 1
	check "$how: one slow irq_hard is forgiven (a preempted thread, a stalled vCPU)" \
		test -e /dev/bpfdrv/irqtest0
	irqt fire $NODE >/dev/null
	ejected_with protocol "irq_hard ran for [0-9]* us, longer than the 1000 us allowed, twice in a row"
	lax_budget

	attach $TOBJ/irqtest_nothread.bpf.o
	irqt mode $NODE wake >/dev/null
	irqt fire $NODE >/dev/null
	ejected_with protocol "irq_hard returned 2 (0 or 1 allowed: the driver has no irq callback)"

	attach
	c1=$(irqt raise $NODE 5)
	expect_eq "$how: and after three more, the function still serves" "${c1%% *}" 5

	# irq_hard's register accesses check lockdown without asking the LSM
	# about whichever task it interrupted
	mount -t tracefs tracefs $TFS 2>/dev/null
	if read -r all hard < <(lsm_in_hardirq irqt raise $NODE 50); then
		check "$how: no lockdown judgement in hard-IRQ context ($hard of $all, 50 interrupts)" \
			test "$hard" = 0 -a "$all" -gt 0
	else
		echo "# skip: lockdown judgements in hard-IRQ context (no function tracer)"
	fi
	check "$how: unload irqtest" $BPFDRV unload irqtest
	$BPFDRV unbind "$EDU_BDF" >/dev/null
}

irq_round MSI
if wait_for 10 rmmod bpfdrv && insmod "$KO" msi=0; then
	ok "reload bpfdrv.ko with msi=0"
	lax_budget
	irq_round INTx
	# a level-triggered interrupt asserted during a slow init: masked at
	# the function until init succeeded, then handled; no storm
	klog=$(dmesg | wc -l)
	check "INTx: load irqtest whose init raises the interrupt, then takes 0.5 s" \
		$BPFDRV load --pin --device "$EDU_BDF" $TOBJ/irqtest_initraise.bpf.o
	sleep 1
	read -r hard thread slept none <<<"$(counts)"
	check "INTx: the interrupt raised during init reached irq_hard after it ($hard handled, $none without work)" \
		test "$hard" = 1
	check "INTx: and did not storm the line meanwhile (no 'nobody cared', the line not disabled)" \
		eval '! dmesg | tail -n +$((klog + 1)) | grep -Eq "nobody cared|Disabling IRQ"'
	check "INTx: unload irqtest" $BPFDRV unload irqtest
	$BPFDRV unbind "$EDU_BDF" >/dev/null
	wait_for 10 rmmod bpfdrv
	load_module
	lax_budget
else
	nok "reload bpfdrv.ko with msi=0"
fi

# ---------------- declarations the module refuses ----------------
expect_refused refused "$IRQT" "irq_hard needs a PCI driver (pci_ids or pci_slot)"
check "refused: no node left by the refused driver" node_gone irqtest

# ---------------- interrupt vectors (ABI 13): MSI-X on igb ----------------
# msixtest asks for 4..8 vectors of QEMU's igb (10 MSI-X vectors) and rings
# one with each EICS write (include/bpfdrv_msixtest.h). Each vector counted
# exactly: /proc/interrupts' line of it, the driver's count by the index
# irq_hard got, and sysfs irq_counts.
MSIXT=$TOBJ/msixtest.bpf.o
MNODE=/dev/bpfdrv/msixtest0
MSYS=/sys/class/bpfdrv/msixtest0
cat >"$OUT/msixt.py" <<'PY'
import fcntl, os, struct, sys, signal
signal.alarm(120)
MODE, RING, COUNTS = 0x40045801, 0x40085802, 0x80905803
op, node = sys.argv[1], sys.argv[2]
fd = os.open(node, os.O_RDWR)
def ring(v, n):
    fcntl.ioctl(fd, RING, struct.pack("II", v, n))
if op == "mode":
    fcntl.ioctl(fd, MODE, struct.pack("I", int(sys.argv[3])))
elif op == "ring":		# V:N...: N interrupts of V, each waited for
    for a in sys.argv[3:]:
        v, n = map(int, a.split(":"))
        for i in range(n):
            ring(v, 1)
            os.read(fd, 8)
elif op == "spam":		# V:N...: N EICS writes of V in one ioctl
    for a in sys.argv[3:]:
        v, n = map(int, a.split(":"))
        ring(v, n)
elif op == "flood":		# until the device goes away
    signal.alarm(0)
    try:
        while True:
            for v in range(int(sys.argv[3])):
                ring(v, 200)
    except OSError:
        pass
    sys.exit(0)
c = struct.unpack("16I16IQII", fcntl.ioctl(fd, COUNTS, bytes(144)))
# hard counts, thread counts, done bad
print(*c[:16], "|", *c[16:32], "|", *c[32:34])
PY
msixt() { python3 "$OUT/msixt.py" "$@"; }
# per vector 0..N-1 from a counts line: hard or thread
mcounts() {	# mcounts hard|thread N
	msixt counts $MNODE | awk -v w="$1" -v n="$2" -F'|' '{
		split(w == "hard" ? $1 : $2, a, " "); s = ""
		for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") a[i]; print s }'
}
# the /proc/interrupts count of each of msixtest0's N vectors
mproc() { local v s=; for ((v = 0; v < $1; v++)); do s+="${s:+ }$(proc_irqs msixtest0-$v)"; done; echo "$s"; }
# sysfs irq_counts, as "C0 C1 ..."
msysfs() { awk '{ printf "%s%s", (NR > 1 ? " " : ""), $2 } END { print "" }' $MSYS/irq_counts; }
# A - B, element-wise
vsub() { local -a a=($1) b=($2); local i s=; for i in "${!a[@]}"; do s+="${s:+ }$((a[i] - b[i]))"; done; echo "$s"; }

msix_tests() {
	local n want want_t p0 c0 s0 p1 c1 s1 i0 v line flood

	check "vectors: load msixtest (4..8 vectors) on igb $IGB_BDF" \
		$BPFDRV load --pin --device "$IGB_BDF" "$MSIXT" || return
	grep -E 'msixtest0-[0-9]+$' /proc/interrupts | sed 's/^/# /'
	n=$(cat $MSYS/irq_vectors)
	expect_eq "vectors: msixtest0 has 8 vectors (sysfs irq_vectors; igb has 10)" "$n" 8
	expect_eq "vectors: /proc/interrupts has a line per vector, msixtest0-0..7" \
		"$(grep -cE ' msixtest0-[0-7]$' /proc/interrupts)" 8
	check "vectors: they are MSI-X" \
		eval "[ \$(grep -E ' msixtest0-[0-7]$' /proc/interrupts | grep -c MSIX) = 8 ]"

	# vector v rung 10 * (v + 1) times, one at a time: exact everywhere
	p0=$(mproc $n) c0=$(mcounts hard $n) s0=$(msysfs)
	msixt ring $MNODE 0:10 1:20 2:30 3:40 4:50 5:60 6:70 7:80 >/dev/null
	want="10 20 30 40 50 60 70 80"
	expect_eq "vectors: irq_hard got each vector's index as often as it was rung" \
		"$(vsub "$(mcounts hard $n)" "$c0")" "$want"
	expect_eq "vectors: /proc/interrupts counts each vector's interrupts" \
		"$(vsub "$(mproc $n)" "$p0")" "$want"
	expect_eq "vectors: sysfs irq_counts counts each vector's" \
		"$(vsub "$(msysfs)" "$s0")" "$want"
	expect_eq "vectors: irq_count is their sum" "$(cat $MSYS/irq_count)" \
		"$(awk '{ s += $2 } END { print s }' $MSYS/irq_counts)"

	# odd vectors handed on to irq (BPFDRV_IRQ_WAKE): it gets their index
	msixt mode $MNODE 1 >/dev/null
	c0=$(mcounts thread $n) p0=$(mproc $n) i0=$(mcounts hard $n)
	msixt ring $MNODE 0:5 1:5 2:5 3:5 4:5 5:5 6:5 7:5 >/dev/null
	expect_eq "vectors: irq ran for the odd vectors only, with their index" \
		"$(vsub "$(mcounts thread $n)" "$c0")" "0 5 0 5 0 5 0 5"
	expect_eq "vectors: and irq_hard for all, as /proc/interrupts counts" \
		"$(vsub "$(mcounts hard $n)" "$i0") $(vsub "$(mproc $n)" "$p0")" \
		"5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5"
	msixt mode $MNODE 0 >/dev/null

	# four processes ring eight vectors at once, back to back: the
	# handlers run side by side on both CPUs. Every handler call is
	# counted the same three ways (the APIC may merge rings that meet).
	p0=$(mproc $n) c0=$(mcounts hard $n) s0=$(msysfs)
	for v in 0 1 2 3; do msixt spam $MNODE $v:500 $((v + 4)):500 >/dev/null & done
	wait
	wait_for 5 eval 'c=$(mcounts hard 8); sleep 0.3; [ "$c" = "$(mcounts hard 8)" ]'
	c1=$(vsub "$(mcounts hard $n)" "$c0")
	echo "# 500 rings of each vector from 4 processes: handled $c1"
	if preempt_rt; then
		# irq_hard runs in the vector's forced thread there: an
		# interrupt that comes while it is pending is served by the
		# same run, so the kernel counts at least as many
		check "vectors: rung at once, /proc/interrupts counts at least each irq_hard call per vector (PREEMPT_RT: $(vsub "$(mproc $n)" "$p0") for $c1)" \
			eval "paste -d' ' <(vsub '$(mproc $n)' '$p0' | tr ' ' '\n') <(echo $c1 | tr ' ' '\n') |
			      awk '\$1 < \$2 { e = 1 } END { exit e }'"
	else
		expect_eq "vectors: rung at once, /proc/interrupts counts every irq_hard call per vector" \
			"$(vsub "$(mproc $n)" "$p0")" "$c1"
	fi
	expect_eq "vectors: and sysfs irq_counts each one" "$(vsub "$(msysfs)" "$s0")" "$c1"
	check "vectors: every vector got between 1 and 500 of its 500 rings" \
		eval "echo $c1 | tr ' ' '\n' | awk '\$1 < 1 || \$1 > 500 { e = 1 } END { exit e }'"
	line=$(msixt counts $MNODE)
	expect_eq "vectors: no handler got an index past the vectors" "${line##* }" 0
	preempt_rt || grep -E ' msixtest0-[0-7]$' /proc/interrupts |
		awk '{ for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) if ($i > 0) c[i] = 1 }
		     END { print "# CPUs that took msixtest interrupts:", length(c) }'

	# the same code again while vectors ring: an update that keeps them
	msixt flood $MNODE 8 &
	flood=$!
	check "vectors: bpfdrv update msixtest (same vectors) while they ring" \
		$BPFDRV update msixtest "$MSIXT" --device "$IGB_BDF"
	expect_err "vectors: an update that changes the vectors (4..6) is refused" \
		"changes its interrupt vectors" \
		$BPFDRV update msixtest $TOBJ/msixtest_upd.bpf.o --device "$IGB_BDF"
	# and the instance goes while they still ring
	check "vectors: unload msixtest while 8 vectors ring" $BPFDRV unload msixtest
	wait $flood
	check "vectors: its node is gone" node_gone msixtest0
	check "vectors: and its vectors are freed (/proc/interrupts)" \
		eval "! grep -q msixtest0 /proc/interrupts"

	# the function serves the next driver with its vectors
	check "vectors: load msixtest again" \
		$BPFDRV load --pin --device "$IGB_BDF" "$MSIXT"
	c0=$(mcounts hard 8)
	msixt ring $MNODE 7:3 >/dev/null
	expect_eq "vectors: and its vector 7 is rung 3 times" \
		"$(vsub "$(mcounts hard 8)" "$c0")" "0 0 0 0 0 0 0 3"
	check "vectors: unload msixtest" $BPFDRV unload msixtest

	# refused: what cannot be, and what the function cannot give
	expect_refused vectors $TOBJ/msixtest_minmax.bpf.o \
		"invalid interrupt vectors 8..4" --device "$IGB_BDF"
	expect_refused vectors $TOBJ/msixtest_max33.bpf.o \
		"invalid interrupt vectors 1..33" --device "$IGB_BDF"
	expect_refused vectors $TOBJ/msixtest_min16.bpf.o \
		"cannot get 16 to 32 interrupt vectors (error -[0-9]*): its function has 10 MSI-X" \
		--device "$IGB_BDF"
	expect_refused vectors "$MSIXT" \
		"cannot get 4 to 8 interrupt vectors (error -[0-9]*): its function has 0 MSI-X, 1 MSI" \
		--device "$EDU_BDF"
	expect_refused vectors $TOBJ/msixtest_nohard.bpf.o \
		"irq_vectors_min/_max need a PCI driver"
	check "vectors: no node left by the refused drivers" node_gone msixtest0
	$BPFDRV unbind "$EDU_BDF" >/dev/null 2>&1
	if wait_for 10 rmmod bpfdrv && insmod "$KO" msi=0; then
		expect_refused vectors "$MSIXT" \
			"4 interrupt vectors need MSI-X or MSI: the module has msi=0" \
			--device "$IGB_BDF"
		wait_for 10 rmmod bpfdrv
		load_module
		lax_budget
	else
		nok "vectors: reload bpfdrv.ko with msi=0"
	fi
	# to a driver of the guest's, if one takes it (the test guests blacklist igb)
	$BPFDRV unbind "$IGB_BDF" >/dev/null 2>&1
	echo "$IGB_BDF" >/sys/bus/pci/drivers_probe 2>/dev/null
}

IGB_BDF=$(lspci -Dn -d 8086:10c9 | awk '{ print $1; exit }')
if [ -n "$IGB_BDF" ]; then
	msix_tests
else
	echo "# skip: interrupt vectors (no igb device: run with -device igb)"
fi
