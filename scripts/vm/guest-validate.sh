#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# guest-validate.sh - the real side of docs/validation.md, run inside the test guest by
# scripts/vm/record-validation.sh (through scripts/vm/run-guest.sh --out): export the guest's
# state table, calibrate rt-app on this guest, run rt-app workloads under `idlelab measure`
# with a trace per run, and an idle baseline (sleep). Everything goes to $IDLELAB_VM_OUT,
# which comes back to the host (traces gzipped); the host does the analysis
# (scripts/vm/validation-digest.py).
#
# The workloads give rt-app an integer "calibration" (ns per loop of its busy loop, measured
# on the machine they were written on) so that it does not calibrate for seconds at start.
# The emulated guest is about ten times slower, so each file runs here with the guest's own
# value instead, measured first as rt-app does it ("calibration": "CPU0"), as docs/rtapp.md
# says to do on another machine. Only the length of rt-app's 32 us busy chunks depends on it
# (every `runtime` is timed by the clock).
#
# Settings (environment, set by record-validation.sh):
#   VALIDATE_FILES   rt-app files, names under /vm/workloads without .json
#   VALIDATE_GOVS    governors for measure -g (default menu,ladder)
#   VALIDATE_ITER    iterations per governor (default 1)
#   VALIDATE_IDLE_S  length of the idle baseline in s (default 5; 0: none)
set -u
IDLELAB=${IDLELAB:-/bin/idlelab}
OUT=${IDLELAB_VM_OUT:?"run by run-guest.sh --out (no IDLELAB_VM_OUT)"}
W=/vm/workloads
FILES=${VALIDATE_FILES:-}
GOVS=${VALIDATE_GOVS:-menu,ladder}
ITER=${VALIDATE_ITER:-1}
IDLE_S=${VALIDATE_IDLE_S:-5}
RTAPP=/usr/bin/rt-app
WL=/tmp/workloads
failed=0

note() { echo "# $*"; }
# measure_one NAME CMD...: one idlelab measure of CMD, its tables as JSON and a trace per run.
measure_one() {
	name=$1
	shift
	scratch=$(mktemp -d /tmp/run.XXXXXX)
	# rt-app 1.0 writes a log file per thread into its working directory (docs/rtapp.md).
	if (cd "$scratch" && "$IDLELAB" measure -g "$GOVS" --iter "$ITER" --settle 1 \
		--trace "$OUT/$name" -f json -o "$OUT/$name.measure.json" -- "$@" \
		> "$OUT/$name.stdout" 2> "$OUT/$name.stderr"); then
		note "$name: done"
		for t in "$OUT/$name"-*.trace; do [ -f "$t" ] && gzip "$t"; done
	else
		note "$name: measure failed"
		sed 's/^/#   /' "$OUT/$name.stderr" | tail -n 20
		failed=$((failed + 1))
	fi
	rm -rf "$scratch"
}

{
	echo "kernel $(uname -r)"
	echo "cpus $(nproc)"
	echo "driver $(cat /sys/devices/system/cpu/cpuidle/current_driver)"
	echo "governors $(cat /sys/devices/system/cpu/cpuidle/available_governors)"
	echo "cmdline $(cat /proc/cmdline)"
	grep -m 1 'model name' /proc/cpuinfo
	grep -m 1 'bogomips' /proc/cpuinfo
	echo "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	grep -m 1 '^CONFIG_HZ=' /boot/config-* 2> /dev/null
} > "$OUT/guest.txt"
sed 's/^/# /' "$OUT/guest.txt"

"$IDLELAB" states > "$OUT/states.txt" 2>&1
"$IDLELAB" states --export "$OUT/guest.plat" --name validation-guest > /dev/null 2>&1 ||
	{ note "states --export failed"; failed=$((failed + 1)); }

[ -x "$RTAPP" ] || { note "no $RTAPP (run-guest.sh --add rt-app)"; exit 1; }
# rt-app's calibration on this guest: the median of three, as ns per loop (a one-second
# timer-200hz that asks rt-app to calibrate on CPU 0).
mkdir -p "$WL"
sed -e 's/"calibration": *[0-9]*/"calibration": "CPU0"/' -e 's/"duration": *[0-9]*/"duration": 1/' \
	"$W/timer-200hz.json" > "$WL/calibrate.json"
for _ in 1 2 3; do
	(cd /tmp && "$RTAPP" "$WL/calibrate.json" 2>&1) | sed -n 's/.*pLoad = \([0-9]*\)ns.*/\1/p'
done | sort -n > "$WL/ploads"
PLOAD=$(sed -n 2p "$WL/ploads")
[ -n "$PLOAD" ] || { note "rt-app calibration failed"; exit 1; }
echo "rtapp_ploads_ns $(tr '\n' ' ' < "$WL/ploads")" >> "$OUT/guest.txt"
echo "rtapp_calibration_ns $PLOAD" >> "$OUT/guest.txt"
note "rt-app calibration: $(tr '\n' ' ' < "$WL/ploads")ns per loop, using $PLOAD"
for f in $FILES; do
	[ -r "$W/$f.json" ] || { note "no workload $W/$f.json"; failed=$((failed + 1)); continue; }
	sed "s/\"calibration\": *[0-9]*/\"calibration\": $PLOAD/" "$W/$f.json" > "$WL/$f.json"
	measure_one "$f" "$RTAPP" "$WL/$f.json"
done
# The idle baseline: what the guest does on its own (kernel threads, timers), for as long
# as a workload runs.
[ "$IDLE_S" -gt 0 ] && measure_one idle /bin/sleep "$IDLE_S"
cat /proc/interrupts > "$OUT/interrupts.txt"
ls -l "$OUT" | sed 's/^/# /'
[ $failed = 0 ]
