#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `--perfetto FILE` of run and replay: the file is JSON in the Chrome trace-event format
# (python3 -m json.tool), its structure holds (perfetto-check.py: ph/ts/pid/tid on every
# event, X slices that do not overlap on a track, time that never goes back on a track,
# totals that are the sum of their CPUs), its counts are the run's metrics, the same seed
# gives the same bytes, the limit and window cut it as documented, errors leave no file.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace-lib.sh"
FIX=$TOP/tests/fixtures/traces
CHECK=$TESTS_DIR/perfetto-check.py

need_cmd python3 "perfetto" "no python3 to check the JSON"

# json FILE EXPR: print the Python expression EXPR of the JSON document d in FILE.
json() {
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($2)" "$1"
}

# checked FILE [--tile END_US]: parse and check FILE, keep its counts in FILE.counts.
checked() {
	python3 "$CHECK" "$@" >"$1.counts"
}

# n FILE PID KEY: a count of process PID in FILE.counts (0 when absent).
n() {
	json "$1.counts" "d['$2'].get('$3', 0)"
}

have_json=1
"$IDLELAB" run -g menu -p rk3588 -s idle --time 1ms -f json >/dev/null 2>&1 || have_json=0

# ---- run -------------------------------------------------------------------------------------
# pingpong on skx: IPIs, polling, tick stops and retains, misses both ways, on 2 CPUs. A
# fixed stop (overhead_sigma=0): the first stop ends at 0.900 us, and the ring polls in the
# window below.
run_args="-g menu -p skx -s pingpong:overhead_sigma=0 --time 20ms"
expect 0 "run --perfetto" "$IDLELAB" run $run_args --perfetto "$TMP/run.json" -f csv
check "the linux-pm row is still printed" grep -q '^device,gov,' "$OUT"
check "python3 -m json.tool reads it" sh -c "python3 -m json.tool '$TMP/run.json' >/dev/null"
check "sound structure, every CPU covered from 0 to 20 ms" checked "$TMP/run.json" --tile 20000
check "one process with 2 CPU tracks" test "$(json "$TMP/run.json.counts" "d['tracks']")" = 2
check "process and thread names" sh -c "grep -q '\"name\":\"process_name\",\"pid\":1,.*menu-7.1 on skx: pingpong' '$TMP/run.json' &&
	grep -q '\"args\":{\"name\":\"CPU 1\"}' '$TMP/run.json'"
check "displayTimeUnit ns, ts in us with ns digits" sh -c "grep -q '\"displayTimeUnit\":\"ns\"' '$TMP/run.json' &&
	grep -q '\"ts\":0.900,' '$TMP/run.json'"
check "not truncated" test "$(json "$TMP/run.json" "d['otherData']['truncated']")" = False

if [ "$have_json" = 1 ]; then
	"$IDLELAB" run $run_args -f json >"$TMP/run.metrics"
	metric() { json "$TMP/run.metrics" "$1"; }
	cpus_sum() { metric "sum(c['$1'] for c in d['cpus'])"; }
	check "idle slices = the run's idles" test "$(n "$TMP/run.json" 1 idle)" = "$(metric "d['summary'][0]['idles']")"
	check "miss instants = aboves and belows" \
		test "$(n "$TMP/run.json" 1 above)/$(n "$TMP/run.json" 1 below)" = \
		"$(metric "d['summary'][0]['aboves']")/$(metric "d['summary'][0]['belows']")"
	check "tick stops and retains = the run's" \
		test "$(n "$TMP/run.json" 1 tick_stops)/$(n "$TMP/run.json" 1 ticks_retained)" = \
		"$(cpus_sum tick_stops)/$(cpus_sum ticks_retained)"
	check "wakeups and poll limits = the run's" \
		test "$(n "$TMP/run.json" 1 wakeups)/$(n "$TMP/run.json" 1 poll_limits)" = \
		"$(cpus_sum wakeups)/$(cpus_sum poll_limits)"
else
	skip "counts against run --format json" "built without jansson"
fi
check "pingpong wakes by IPI, and polling CPUs by need_resched" \
	test "$(n "$TMP/run.json" 1 wake_ipi)" -gt 1000 -a "$(n "$TMP/run.json" 1 wake_resched)" -gt 0
check "power counters, totals equal to their CPUs' sum" test "$(n "$TMP/run.json" 1 counters)" -gt 1000

expect 0 "the same run again" "$IDLELAB" run $run_args --perfetto "$TMP/run2.json" -f csv
check "same seed, same bytes" cmp -s "$TMP/run.json" "$TMP/run2.json"
expect 0 "another seed" "$IDLELAB" run $run_args --seed 2 --perfetto "$TMP/seed2.json" -f csv
check "another seed, other bytes" sh -c "! cmp -s '$TMP/run.json' '$TMP/seed2.json'"

# Timers, the tick and device interrupts on 4 CPUs of a platform with no polling state.
expect 0 "run netrr on rk3399" "$IDLELAB" run -g teo -p rk3399 -s netrr:cpus=4 --time 20ms \
	--perfetto "$TMP/netrr.json" -f csv
check "netrr: valid, 4 tracks covering 0 to 20 ms" checked "$TMP/netrr.json" --tile 20000
check "netrr: 4 tracks" test "$(json "$TMP/netrr.json.counts" "d['tracks']")" = 4
check "netrr: woken by interrupts and timers" \
	test "$(n "$TMP/netrr.json" 1 wake_irq)" -gt 0 -a "$(n "$TMP/netrr.json" 1 wake_timer)" -gt 0

# The limit: a prefix complete on every track, and said so.
expect 0 "run --perfetto-limit 2000" "$IDLELAB" run $run_args --perfetto "$TMP/cut.json" \
	--perfetto-limit 2000 -f csv
check "truncated file: valid and sound" checked "$TMP/cut.json"
check "otherData says truncated, and up to when" \
	test "$(json "$TMP/cut.json" "d['otherData']['truncated'] and d['otherData']['complete_until_us'] > 0")" = True
check "a global instant marks the cut" test "$(n "$TMP/cut.json" 1 global)" = 1
check "about the limit's number of events" \
	test "$(json "$TMP/cut.json" "len(d['traceEvents'])")" -lt 2100
check "nothing after the cut" test "$(json "$TMP/cut.json" \
	"max(e['ts'] for e in d['traceEvents']) <= d['otherData']['complete_until_us']")" = True
check "stderr says where it was cut" grep -q 'perfetto-limit 2000 reached' "$ERR"
expect 0 "--perfetto-limit 0: everything" "$IDLELAB" run $run_args --perfetto "$TMP/all.json" \
	--perfetto-limit 0 -f csv
check "no limit: the same events as the default limit here" test "$(python3 -c "
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
print(a['traceEvents'] == b['traceEvents'] and a['otherData']['limit'] == 0)" "$TMP/all.json" "$TMP/run.json")" = True

# The window: only what overlaps [2 ms, 3 ms), the same slices as in the whole file.
expect 0 "run --perfetto-window 2ms..3ms" "$IDLELAB" run $run_args --perfetto "$TMP/win.json" \
	--perfetto-window 2ms..3ms -f csv
check "window: valid and sound" checked "$TMP/win.json"
check "window: every slice and instant overlaps [2000, 3000) us" test "$(json "$TMP/win.json" \
	"all(e['ph'] in 'MC' or (e['ts'] < 3000 and e['ts'] + e.get('dur', 0) > 2000 or e['ts'] >= 2000) for e in d['traceEvents'])")" = True
overlapping="sum(1 for e in d['traceEvents'] if e['ph'] == 'X' and e['cat'] == 'idle' and e['ts'] < 3000 and e['ts'] + e['dur'] > 2000)"
check "window: the idle slices of the whole file that overlap it" \
	test "$(n "$TMP/win.json" 1 idle)" = "$(json "$TMP/run.json" "$overlapping")" -a "$(n "$TMP/win.json" 1 idle)" -gt 100

# ---- replay ----------------------------------------------------------------------------------
expect 0 "replay --perfetto" "$IDLELAB" replay -p haltpoll-vm -r menu-6.18 -g teo,ladder \
	-f csv --perfetto "$TMP/replay.json" "$FIX/vm.trace"
periods=$(kv "$OUT" periods)
check "replay: valid and sound" checked "$TMP/replay.json"
check "replay: the trace and 3 governors as 4 processes" \
	test "$(json "$TMP/replay.json" "sorted({e['pid'] for e in d['traceEvents']})")" = "[1, 2, 3, 4]"
check "replay: process names" sh -c "grep -q 'recorded: .*vm.trace' '$TMP/replay.json' &&
	grep -q '\"name\":\"teo-7.1 (replayed)\"' '$TMP/replay.json' && grep -q 'menu-6.18 (replayed)' '$TMP/replay.json'"
check "replay: every process has one idle slice per replayed period ($periods)" \
	test "$(n "$TMP/replay.json" 1 idle) $(n "$TMP/replay.json" 2 idle) $(n "$TMP/replay.json" 3 idle) $(n "$TMP/replay.json" 4 idle)" \
	= "$periods $periods $periods $periods"
check "replay: the periods line up across processes" test "$(json "$TMP/replay.json" \
	"len({p: 1 for p in [tuple(sorted((e['ts'], e['dur']) for e in d['traceEvents'] if e['ph'] == 'X' and e['pid'] == q and e['cat'] == 'idle')) for q in (1, 2, 3, 4)]})")" = 1
check "replay: the trace's tick wakeups" test "$(n "$TMP/replay.json" 1 wake_tick)" -gt 0
expect 0 "replay again" "$IDLELAB" replay -p haltpoll-vm -r menu-6.18 -g teo,ladder \
	-f csv --perfetto "$TMP/replay2.json" "$FIX/vm.trace"
check "replay: same bytes" cmp -s "$TMP/replay.json" "$TMP/replay2.json"

expect 0 "replay ladder excerpt with --periods" "$IDLELAB" replay -p haltpoll-vm -r ladder-6.13 \
	-g menu-6.18 --periods --perfetto "$TMP/ladder.json" "$FIX/ladder-head.trace"
check "--periods still streams its lines" test "$(wc -l <"$OUT")" -eq 5
check "ladder: valid and sound" checked "$TMP/ladder.json"
check "ladder: the recorded process has the 4 periods" test "$(n "$TMP/ladder.json" 1 idle)" = 4
check "ladder: ladder-6.13's picks are the recorded states" test "$(json "$TMP/ladder.json" \
	"[e['name'] for e in d['traceEvents'] if e['ph'] == 'X' and e['pid'] == 1 and e['cat'] == 'idle'] == [e['name'] for e in d['traceEvents'] if e['ph'] == 'X' and e['pid'] == 3 and e['cat'] == 'idle']")" = True
expect 0 "replay --perfetto-window from the first period" "$IDLELAB" replay -p haltpoll-vm \
	-g teo --perfetto "$TMP/rwin.json" --perfetto-window 0..50ms -f csv "$FIX/vm.trace"
check "replay window: valid and sound" checked "$TMP/rwin.json"
check "replay window: fewer periods" test "$(n "$TMP/rwin.json" 1 idle)" -gt 0 \
	-a "$(n "$TMP/rwin.json" 1 idle)" -lt "$periods"

# ---- errors ----------------------------------------------------------------------------------
expect 2 "--perfetto-limit without --perfetto" "$IDLELAB" run $run_args --perfetto-limit 5
expect 2 "--perfetto-window without --perfetto" "$IDLELAB" replay -p haltpoll-vm -g teo \
	--perfetto-window 1ms..2ms "$FIX/vm.trace"
expect 2 "a bad window" "$IDLELAB" run $run_args --perfetto "$TMP/x.json" --perfetto-window 2ms..1ms
expect 2 "a window without .." "$IDLELAB" run $run_args --perfetto "$TMP/x.json" --perfetto-window 2ms
expect 2 "a bad limit" "$IDLELAB" run $run_args --perfetto "$TMP/x.json" --perfetto-limit -1
expect 2 "--perfetto -" "$IDLELAB" run $run_args --perfetto -
expect 2 "compare has no --perfetto" "$IDLELAB" compare $run_args --perfetto "$TMP/x.json"
check "no file from usage errors" test ! -e "$TMP/x.json"
expect 1 "a directory that does not exist" "$IDLELAB" run $run_args -f csv --perfetto "$TMP/none/x.json"
check "says why: no such directory" grep -q "no directory $TMP/none" "$ERR"
# The file is written whole to a temporary name, then renamed: renaming onto a directory fails.
mkdir "$TMP/out" "$TMP/out/dir"
expect 1 "FILE is a directory" "$IDLELAB" run $run_args -f csv --perfetto "$TMP/out/dir"
check "no partial or temporary file left" test "$(ls -A "$TMP/out")" = dir

finish
