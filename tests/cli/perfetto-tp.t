#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `--perfetto FILE` loaded by Perfetto's own trace processor, the code ui.perfetto.dev runs
# (as wasm) to open a JSON trace. Runs when TRACE_PROCESSOR is a trace_processor_shell
# (docs/perfetto.md says how to build one; none is fetched or built here), skips otherwise.
# perfetto-tp.sql counts what Perfetto loaded (processes, CPU threads, slices per track and
# per name, wakeup causes, counters and their values, import errors); perfetto-check.py --tp
# counts the same from the JSON and fails on any row that differs.
. "$(dirname "$0")/lib.sh"
FIX=$TOP/tests/fixtures/traces
CHECK=$TESTS_DIR/perfetto-check.py
TP=${TRACE_PROCESSOR:-trace_processor_shell}

need_cmd python3 "Perfetto's trace processor" "no python3 to compare its counts"
need_cmd "$TP" "Perfetto's trace processor" "set TRACE_PROCESSOR to a trace_processor_shell"

# loaded FILE: load FILE in the trace processor, its rows in FILE.tp, and compare them
# with the JSON (FILE.check: the differences).
loaded() {
	"$TP" -q "$TESTS_DIR/perfetto-tp.sql" "$1" >"$1.tp" 2>"$1.tp.err" &&
		python3 "$CHECK" "$1" --tp "$1.tp" >/dev/null 2>"$1.check" ||
		{ sed 's/^/#   /' "$1.tp.err" "$1.check" | head -n 20; return 1; }
}

# tp FILE PID WHAT NAME: the trace processor's value of a row (empty when absent).
tp() {
	python3 -c "import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
	if r['pid'] == sys.argv[2] and r['what'] == sys.argv[3] and r['name'] == sys.argv[4]:
		print(r['value'])" "$1.tp" "$2" "$3" "$4"
}

# rows FILE WHAT: how many rows of that kind the trace processor gave.
rows() {
	python3 -c "import csv, sys
print(sum(r['what'] == sys.argv[2] for r in csv.DictReader(open(sys.argv[1]))))" "$1.tp" "$2"
}

have_json=1
"$IDLELAB" run -g menu -p rk3588 -s idle --time 1ms -f json >/dev/null 2>&1 || have_json=0

# ---- run: pingpong on skx, IPIs, polling, misses both ways ----------------------------------
expect 0 "run --perfetto" "$IDLELAB" run -g menu -p skx -s pingpong --time 20ms \
	--perfetto "$TMP/run.json" -f json
cp "$OUT" "$TMP/run.metrics"
check "run: Perfetto loads what idlelab wrote, row for row" loaded "$TMP/run.json"
check "run: no import error or data loss" test "$(rows "$TMP/run.json" stats)" = 0
check "run: one process, 2 CPU threads" \
	test "$(rows "$TMP/run.json" process)/$(rows "$TMP/run.json" thread)" = 1/2
check "run: no idle or busy slice nested in another" test "$(tp "$TMP/run.json" 1 nested '')" = 0
if [ "$have_json" = 1 ]; then
	metric() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($1)" \
		"$TMP/run.metrics"; }
	idles=$(metric "d['summary'][0]['idles']")
	check "run: Perfetto's idle slices = the run's idles ($idles) + the periods cut open" \
		test "$(($(tp "$TMP/run.json" 1 category idle) - $(tp "$TMP/run.json" 1 open '')))" = "$idles"
	check "run: Perfetto's misses = the run's aboves/belows" \
		test "$(tp "$TMP/run.json" 1 slice 'miss above')/$(tp "$TMP/run.json" 1 slice 'miss below')" = \
		"$(metric "d['summary'][0]['aboves']")/$(metric "d['summary'][0]['belows']")"
	check "run: Perfetto's wakeups = the run's" test "$(tp "$TMP/run.json" 1 slice wakeup)" = \
		"$(metric "sum(c['wakeups'] for c in d['cpus'])")"
else
	skip "run: counts against run --format json" "built without jansson"
fi
check "run: 3 power counters" test "$(rows "$TMP/run.json" counter)" = 3 -a \
	-n "$(tp "$TMP/run.json" 1 counter 'total power mW')"

# ---- replay: the recorded trace and 3 governors ---------------------------------------------
expect 0 "replay --perfetto" "$IDLELAB" replay "$FIX/vm.trace" -p haltpoll-vm -r menu-6.18 \
	-g teo,ladder -f csv --perfetto "$TMP/replay.json"
check "replay: Perfetto loads what idlelab wrote, row for row" loaded "$TMP/replay.json"
check "replay: 4 processes" test "$(rows "$TMP/replay.json" process)" = 4
check "replay: no import error or data loss" test "$(rows "$TMP/replay.json" stats)" = 0

# ---- a bigger run: fio on the 8 CPUs of rk3588 for 1 s --------------------------------------
expect 0 "fio on rk3588, 1 s" "$IDLELAB" run -g menu -p rk3588 -s fio --time 1s \
	--perfetto "$TMP/fio.json" -f csv
check "fio: Perfetto loads what idlelab wrote, row for row" loaded "$TMP/fio.json"
check "fio: 8 CPU threads" test "$(rows "$TMP/fio.json" thread)" = 8
check "fio: no import error or data loss" test "$(rows "$TMP/fio.json" stats)" = 0

# ---- the limit and the window ----------------------------------------------------------------
expect 0 "run --perfetto-limit 2000" "$IDLELAB" run -g menu -p skx -s pingpong --time 20ms \
	--perfetto "$TMP/cut.json" --perfetto-limit 2000 -f csv
check "limit: Perfetto loads what idlelab wrote, row for row" loaded "$TMP/cut.json"
check "limit: the cut is one global instant" test "$(rows "$TMP/cut.json" global)" = 1
expect 0 "replay --perfetto-window" "$IDLELAB" replay -p haltpoll-vm -g teo -f csv \
	--perfetto "$TMP/win.json" --perfetto-window 0..50ms "$FIX/vm.trace"
check "window: Perfetto loads what idlelab wrote, row for row" loaded "$TMP/win.json"

# ---- the comparison can fail: a busy slice made 1 us longer overlaps the next period ---------
python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
x = next(e for e in d['traceEvents'] if e['ph'] == 'X' and e['cat'] == 'busy' and e['ts'] > 0)
x['dur'] = round(x['dur'] + 1, 3)
json.dump(d, open(sys.argv[2], 'w'))" "$TMP/run.json" "$TMP/bad.json"
"$TP" -q "$TESTS_DIR/perfetto-tp.sql" "$TMP/bad.json" >"$TMP/bad.json.tp" 2>/dev/null
check "overlap: the comparison fails" \
	sh -c '! python3 "$0" "$1" --tp "$1.tp" >/dev/null 2>"$1.check"' "$CHECK" "$TMP/bad.json"
check "overlap: Perfetto saw it (v33 nests the next period, v58 moves it to another track)" \
	grep -Eq "'nested'|slice_spill_overlapping_complete_event" "$TMP/bad.json.check"

finish
