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
# Each workload's files go back to the host as soon as its measure ends
# (scripts/vm/guest-send.sh), its measure.json last, so that a guest that stalls or dies later
# loses only the workload in progress. A measure that runs longer than VALIDATE_LIMIT_S gets
# SIGTERM (measure then kills the command, puts the governor back and exits), after a note of
# where every task of the guest was (NAME.stall.txt: state, CPU, wait channel and system call
# of each thread, from /proc); SIGKILL only 30 s later. A failed workload leaves NAME.failed
# (the reason, one line) and the next one runs.
#
# Settings (environment, set by record-validation.sh):
#   VALIDATE_FILES   rt-app files, names under /vm/workloads without .json
#   VALIDATE_GOVS    governors for measure -g (default menu,ladder)
#   VALIDATE_ITER    iterations per governor (default 1)
#   VALIDATE_IDLE_S  length of the idle baseline in s (default 5; 0: none)
#   VALIDATE_LIMIT_S time limit of one workload's measure in s (default 600)
#   VALIDATE_PLOAD   rt-app's ns per loop to use, skipping the calibration (a resumed record
#                    keeps the first boot's; VALIDATE_PLOADS: the three values measured then)
set -u
IDLELAB=${IDLELAB:-/bin/idlelab}
OUT=${IDLELAB_VM_OUT:?"run by run-guest.sh --out (no IDLELAB_VM_OUT)"}
W=/vm/workloads
FILES=${VALIDATE_FILES:-}
GOVS=${VALIDATE_GOVS:-menu,ladder}
ITER=${VALIDATE_ITER:-1}
IDLE_S=${VALIDATE_IDLE_S:-5}
LIMIT_S=${VALIDATE_LIMIT_S:-600}
RTAPP=/usr/bin/rt-app
WL=/tmp/workloads
SEND=/vm/scripts/vm/guest-send.sh
CPUIDLE=/sys/devices/system/cpu/cpuidle
failed=0

note() { echo "# $*"; }
uptime_s() { cut -d ' ' -f 1 /proc/uptime; }

# Where each thread of the guest is: pid/tid, command, state, the CPU it last ran on (field
# 39 of stat), its wait channel and system call (number and arguments; "running" if none).
task_report() {
	echo "uptime $(uptime_s) s; current_governor $(cat $CPUIDLE/current_governor)"
	echo "tid comm state cpu wchan syscall"
	for t in /proc/[0-9]*/task/[0-9]*; do
		[ -r "$t/stat" ] || continue
		# comm is in parentheses and may hold spaces: take what follows the last ')'.
		rest=$(sed 's/.*) //' "$t/stat" 2> /dev/null) || continue
		# shellcheck disable=SC2086
		set -- $rest
		[ $# -ge 37 ] || continue
		state=$1
		shift 36
		echo "${t##*/} $(cat "$t/comm" 2> /dev/null) $state cpu$1" \
			"$(cat "$t/wchan" 2> /dev/null || echo -)" "$(cat "$t/syscall" 2> /dev/null || echo -)"
	done
	echo "--- /proc/interrupts"
	cat /proc/interrupts
}

# limit_watch PID NAME: after LIMIT_S seconds, the task report and SIGTERM to PID (SIGKILL 30 s
# later), the first leaving NAME.limited; SIGTERM to the watch ends it and its sleep. It
# waits in one sleep: nothing of the record wakes while a measure runs (a wait that looked
# every second forked sed and sleep, long idle periods in the traces, docs/validation.md).
limit_watch() {
	trap 'kill $nap 2> /dev/null; exit 0' TERM
	sleep "$LIMIT_S" &
	nap=$!
	wait $nap
	task_report > "$OUT/$2.stall.txt" 2>&1
	: > "$OUT/$2.limited"
	kill -TERM "$1"
	sleep 30 &
	nap=$!
	wait $nap
	kill -KILL "$1" 2> /dev/null
}

# run_limited NAME CMD...: CMD in the background, stopped by limit_watch after LIMIT_S
# seconds; Return: its exit status, 124 when it was stopped.
run_limited() {
	name=$1
	shift
	"$@" &
	pid=$!
	limit_watch $pid "$name" &
	watch=$!
	wait $pid
	rc=$?
	kill -TERM $watch 2> /dev/null
	wait $watch
	if [ -e "$OUT/$name.limited" ]; then
		rm -f "$OUT/$name.limited"
		return 124
	fi
	return $rc
}

# measure_one NAME CMD...: one idlelab measure of CMD, its tables as JSON and a trace per run,
# sent back to the host at once.
measure_one() {
	name=$1
	shift
	scratch=$(mktemp -d /tmp/run.XXXXXX)
	start=$(uptime_s)
	# rt-app 1.0 writes a log file per thread into its working directory (docs/rtapp.md).
	cd "$scratch" || exit 1
	rc=0
	run_limited "$name" "$IDLELAB" measure -g "$GOVS" --iter "$ITER" --settle 1 --no-progress \
		--trace "$OUT/$name" -f json -o "$OUT/$name.measure.json" -- "$@" \
		> "$OUT/$name.stdout" 2> "$OUT/$name.stderr" || rc=$?
	cd / || exit 1
	took=$(awk -v a="$start" -v b="$(uptime_s)" 'BEGIN { printf "%.0f", b - a }')
	if [ $rc = 0 ]; then
		note "$name: done in $took s"
	else
		if [ $rc = 124 ]; then
			why="timed out after $LIMIT_S s (SIGTERM; governor then $(cat $CPUIDLE/current_governor))"
			grep -v '^--- /proc/interrupts' "$OUT/$name.stall.txt" |
				awk '($3 != "S" && $3 != "I") || /rt-app|idlelab/' | sed 's/^/#   /' | head -n 40
		else
			why="measure failed (exit $rc) after $took s"
		fi
		note "$name: $why"
		sed 's/^/#   /' "$OUT/$name.stderr" | tail -n 20
		echo "$why" > "$OUT/$name.failed"
		# A stopped measure's table is not a record of the workload.
		rm -f "$OUT/$name.measure.json"
		failed=$((failed + 1))
	fi
	for t in "$OUT/$name"-*.trace; do [ -f "$t" ] && gzip "$t"; done
	# The traces first, the measure table last: on the host, a workload is there when its
	# measure.json is.
	(cd "$OUT" && sh "$SEND" "$name"-*.trace.gz "$name.stdout" "$name.stderr" \
		"$name.stall.txt" "$name.failed" "$name.measure.json") || note "$name: sending failed"
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
mkdir -p "$WL"
if [ -n "${VALIDATE_PLOAD:-}" ]; then
	PLOAD=$VALIDATE_PLOAD
	echo "${VALIDATE_PLOADS:-$PLOAD}" | tr ' ' '\n' | grep . > "$WL/ploads"
	note "rt-app calibration of the first boot: $PLOAD ns per loop"
else
	# rt-app's calibration on this guest: the median of three, as ns per loop (a one-second
	# timer-200hz that asks rt-app to calibrate on CPU 0).
	sed -e 's/"calibration": *[0-9]*/"calibration": "CPU0"/' \
		-e 's/"duration": *[0-9]*/"duration": 1/' "$W/timer-200hz.json" > "$WL/calibrate.json"
	for _ in 1 2 3; do
		(cd /tmp && "$RTAPP" "$WL/calibrate.json" 2>&1) | sed -n 's/.*pLoad = \([0-9]*\)ns.*/\1/p'
	done | sort -n > "$WL/ploads"
	PLOAD=$(sed -n 2p "$WL/ploads")
	[ -n "$PLOAD" ] || { note "rt-app calibration failed"; exit 1; }
	note "rt-app calibration: $(tr '\n' ' ' < "$WL/ploads")ns per loop, using $PLOAD"
fi
echo "rtapp_ploads_ns $(tr '\n' ' ' < "$WL/ploads")" >> "$OUT/guest.txt"
echo "rtapp_calibration_ns $PLOAD" >> "$OUT/guest.txt"
# What describes the guest goes back first.
sh "$SEND" guest.txt states.txt guest.plat || note "sending failed"
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
