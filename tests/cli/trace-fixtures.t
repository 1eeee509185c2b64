#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The real 6.18 traces of shared/traces/vm-haltpoll/ (beside the repository, as CI lays it
# out): `stats` matches the entry and miss counts of that README, and replaying the
# recording kernel's menu agrees with the recorded decisions on at least 99 % of periods.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace-lib.sh"
SHARED=$TOP/../shared/traces/vm-haltpoll

if [ ! -d "$SHARED" ] || ! command -v xz >/dev/null; then
	skip "real traces" "no $SHARED or no xz"
	finish
	exit 0
fi
for f in "$SHARED"/*.xz; do
	xz -dc "$f" >"$TMP/$(basename "$f" .xz)"
done
T=$TMP

cpurow() { cell "$1" cpu,idle_events "cpu=$2" "$3"; }
field() { cell "$1" cpu,state,name "cpu=$2;state=$3" "$4"; }
# Idle entries = completed periods + the one open at the end, if any.
entries() { p=$(cpurow "$1" 0 periods); o=$(cpurow "$1" 0 open_at_end_line); [ "$o" = - ] && echo "$p" || echo $((p + 1)); }

stats() { "$IDLELAB" stats -p haltpoll-vm -f csv "$T/$1" >"$T/$1.csv" 2>"$ERR"; }

check "pingpong: stats" stats menu_pipe-pingpong_cpu0-cpu1_1s-window.trace
S=$T/menu_pipe-pingpong_cpu0-cpu1_1s-window.trace.csv
check "pingpong: 19285 idle entries" test "$(entries "$S")" -eq 19285
check "pingpong: 5 in POLL" test "$(field "$S" 0 0 entries)" -eq 5
check "pingpong: 5 cpu_idle_miss below in state0" test "$(field "$S" 0 0 miss_below)" -eq 5
check "pingpong: recomputed belows match" test "$(field "$S" 0 0 below)" -eq 5
check "pingpong: CPU 1 has no idle events" test "$(cpurow "$S" 1 idle_events)" = no

check "fio: stats" stats menu_fio-randread-odirect_cpu0_0.8s-window.trace
S=$T/menu_fio-randread-odirect_cpu0_0.8s-window.trace.csv
check "fio: 6123 idle entries" test "$(entries "$S")" -eq 6123
check "fio: 2 cpu_idle_miss below in state0" test "$(field "$S" 0 0 miss_below)" -eq 2

check "haltpoll: stats" stats haltpoll_periodic-73hz-401hz_cpu0_5s.trace
S=$T/haltpoll_periodic-73hz-401hz_cpu0_5s.trace.csv
check "haltpoll: 2478 idle entries" test "$(entries "$S")" -eq 2478
check "haltpoll: 2477 exits (periods)" test "$(cpurow "$S" 0 periods)" -eq 2477
check "haltpoll: no miss" test "$(field "$S" 0 1 miss_below)" -eq 0
check "haltpoll: 2304 tick stops" test "$(cpurow "$S" 0 tick_stops)" -eq 2304
check "haltpoll trace-cmd report: stats" stats haltpoll_periodic-73hz-401hz_cpu0_5s.trace-cmd-report-ns.txt
R=$T/haltpoll_periodic-73hz-401hz_cpu0_5s.trace-cmd-report-ns.txt.csv
check "trace-cmd report: the same 2477 periods" test "$(cpurow "$R" 0 periods)" -eq 2477
check "trace-cmd report: the same 2304 tick stops" test "$(cpurow "$R" 0 tick_stops)" -eq 2304

check "ladder: stats" stats ladder_idle_5s.trace
S=$T/ladder_idle_5s.trace.csv
check "ladder: 121 idle entries and exits" test "$(cpurow "$S" 0 periods)" -eq 121

# Agreement of the recording kernel's governor with the recorded decisions.
agreement() { cell "$OUT" governor,idles "governor=$1" agree_pct; }
for f in menu_pipe-pingpong_cpu0-cpu1_1s-window.trace menu_fio-randread-odirect_cpu0_0.8s-window.trace; do
	expect 0 "replay $f" "$IDLELAB" replay -p haltpoll-vm -r menu-6.18 -g teo,ladder -f csv "$T/$f"
	a=$(agreement menu-6.18)
	check "$f: menu-6.18 agrees on ${a:-?} % >= 99 %" awk -v a="${a:-0}" 'BEGIN { exit !(a >= 99) }'
done
expect 0 "replay haltpoll trace" "$IDLELAB" replay -p haltpoll-vm -r haltpoll-6.13 \
	--param guest_halt_poll_ns=0 -f csv "$T/haltpoll_periodic-73hz-401hz_cpu0_5s.trace"
a=$(agreement haltpoll-6.13)
check "haltpoll-6.13 (guest_halt_poll_ns=0) agrees on ${a:-?} %" awk -v a="${a:-0}" 'BEGIN { exit !(a >= 99) }'
expect 0 "replay ladder trace" "$IDLELAB" replay -p haltpoll-vm -r ladder-6.13 -f csv "$T/ladder_idle_5s.trace"
a=$(agreement ladder-6.13)
check "ladder-6.13 agrees on ${a:-?} %" awk -v a="${a:-0}" 'BEGIN { exit !(a >= 99) }'

# Every trace ends with the open-loop bound and each governor's gap to it; issue 14's goal
# for idlelab-1 is a gap within 3 % at equal added latency. Before deferrable timers were
# left out of the rebuilt wheel, the haltpoll traces came out at +8.5 % for every governor
# (sleep lengths negative by up to 10 ms, POLL picks).
gap() { cell "$OUT" governor,iter "governor=$1" gap_pct; }
for f in menu_pipe-pingpong_cpu0-cpu1_1s-window.trace menu_fio-randread-odirect_cpu0_0.8s-window.trace \
	 haltpoll_periodic-73hz-401hz_cpu0_5s.trace ladder_idle_5s.trace \
	 haltpoll_periodic-73hz-401hz_cpu0_5s.trace-cmd-report-ns.txt; do
	expect 0 "replay $f against the bound" "$IDLELAB" replay -p haltpoll-vm \
		-g menu-7.1,teo-7.1,idlelab -f csv "$T/$f"
	check "$f: a bound table" grep -q '^bound 0,0.0000,' "$OUT"
	for g in menu-7.1 teo-7.1 idlelab-1; do
		v=$(gap $g)
		check "$f: $g's gap ${v:-?} % <= 3 %" awk -v v="${v:-99}" 'BEGIN { exit !(v <= 3) }'
	done
	check "$f: at most 4 negative sleep lengths (enters late by µs)" awk -F, \
		'$1 == "negative_sleep_length" && $2 > 4 { bad = 1 } END { exit bad }' "$OUT"
done
finish
