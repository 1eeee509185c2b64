#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `idlelab stats` on the small fixtures of tests/fixtures/traces/: every format of one excerpt
# gives the same statistics, every output format works, bad input is reported with line
# numbers and counted, and usage errors exit 2.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace-lib.sh"
FIX=$TOP/tests/fixtures/traces

# The CSV tables that do not depend on the file's format (the trace table names it, line
# numbers depend on its header): states, histogram, wake sources, CPUs less the last column.
body() {
	"$IDLELAB" stats -p haltpoll-vm -f csv "$1" | awk -F, '
		/^$/ { hdr = 0; next }
		!hdr { hdr = 1; keep = /^cpu,(state|source|idle_events)/; cpus = /^cpu,idle_events/ }
		keep && cpus { NF--; print; next }
		keep { print }' OFS=,
}

body "$FIX/ladder-head.trace" >"$TMP/ref"
check "reference tables" test -s "$TMP/ref"
expect 0 "stats ladder-head.trace" "$IDLELAB" stats -p haltpoll-vm "$FIX/ladder-head.trace"
check "4 idle periods on CPU 0" grep -Eq '^ +0 +yes +[0-9]+ +4 ' "$OUT"
check "CPU 1 reported as having no idle events" grep -q '1  no idle events: idle state unknown' "$OUT"
check "the period open at the end is named with its line" grep -q 'entered at line 159' "$OUT"
check "state names come from the platform" grep -q 'haltpoll idle' "$OUT"
for f in ladder-flags4.trace ladder-noflags.trace ladder.pipe ladder.tcreport ladder.perf \
	ladder.idlestat; do
	expect 0 "stats $f" "$IDLELAB" stats -p haltpoll-vm "$FIX/$f"
	body "$FIX/$f" >"$TMP/got"
	check "$f: same statistics as the ftrace excerpt" cmp -s "$TMP/ref" "$TMP/got"
done
expect 0 "stats reads standard input" sh -c "'$IDLELAB' stats -p haltpoll-vm - <'$FIX/ladder.pipe'"
body - <"$FIX/ladder.pipe" >"$TMP/got"
check "stdin: same statistics" cmp -s "$TMP/ref" "$TMP/got"

# The idlestat header names the states: no -p needed for above/below.
expect 0 "stats ladder.idlestat without -p" "$IDLELAB" stats -f csv "$FIX/ladder.idlestat"
check "states from the idlestat header" grep -q "^states_from,\"the trace's idlestat header" "$OUT"
check "above recomputed" test "$(cell "$OUT" cpu,state,name "cpu=0;state=1" above)" = 0
expect 0 "stats without any state table" "$IDLELAB" stats -f csv "$FIX/ladder-head.trace"
check "no table: above/below are empty" test "$(cell "$OUT" cpu,state,name "cpu=0;state=1" above)" = -

expect 0 "stats -f csv" "$IDLELAB" stats -p haltpoll-vm -f csv "$FIX/ladder-head.trace"
cp "$OUT" "$TMP/csv"
check "CSV: state 1 of CPU 0 has 4 entries" test "$(cell "$TMP/csv" cpu,state,name "cpu=0;state=1" entries)" = 4
check "CSV: the shortest period, 119 µs" test "$(cell "$TMP/csv" cpu,state,name "cpu=0;state=1" min_us)" = 119.000
check "CSV: CPU 1 has no idle events" test "$(cell "$TMP/csv" cpu,idle_events "cpu=1" idle_events)" = no
check "CSV: the tick ended 3 periods" test "$(cell "$TMP/csv" cpu,source "cpu=0;source=tick" count)" = 3
check "CSV: 9 cpu_idle events read" test "$(kv "$TMP/csv" cpu_idle)" = 9
if "$IDLELAB" stats -f json "$FIX/vm.trace" >/dev/null 2>&1; then
	expect 0 "stats -f json" "$IDLELAB" stats -p haltpoll-vm -f json "$FIX/ladder-head.trace"
	check "JSON: entries" grep -q '"entries": 4' "$OUT"
	check "JSON: the open period" grep -q '"open_at_end_line": 159' "$OUT"
else
	skip "stats -f json" "built without jansson"
fi
expect 0 "stats -f tsv" "$IDLELAB" stats -p haltpoll-vm -f tsv "$FIX/ladder-head.trace"
expect 0 "stats -o FILE" "$IDLELAB" stats -p haltpoll-vm -f csv -o "$TMP/out.csv" "$FIX/ladder-head.trace"
check "-o wrote the same CSV" cmp -s "$TMP/out.csv" "$TMP/csv"
# Without a table no state is known to be the deepest, so state 1 can have nightmares.
expect 0 "stats --nightmare 10,20 --no-hist" "$IDLELAB" stats -p skx --nightmare 10,20 \
	--no-hist -f csv "$FIX/ladder-head.trace"
check "PowerNightmares past 20 µs in state 1 (skx: not its deepest)" \
	test "$(cell "$OUT" cpu,state,name "cpu=0;state=1" nightmares)" = 4
# Without a state table the deepest state is unknown (on a 2-state VM most periods sit in it,
# where none can be a PowerNightmare): none counted, and the output says so.
expect 0 "stats without -p" "$IDLELAB" stats --nightmare 10,20 --no-hist -f csv \
	"$FIX/ladder-head.trace"
check "without -p: no PowerNightmare count claimed" \
	test "$(cell "$OUT" cpu,state,name "cpu=0;state=1" nightmares)" = -
check "without -p: the output says why" grep -q 'no above/below, no PowerNightmares' "$OUT"
check "--no-hist leaves the histogram out" sh -c "! grep -q '^cpu,state,name,from_us' '$OUT'"

# Real recordings of this VM: ftrace, perf script (perf's clock) and idlestat.
expect 0 "stats vm.trace" "$IDLELAB" stats -p haltpoll-vm -f csv "$FIX/vm.trace"
check "vm.trace: 81 periods" test "$(cell "$OUT" cpu,idle_events "cpu=0" periods)" = 81
expect 0 "stats vm.perf" "$IDLELAB" stats -p haltpoll-vm -f csv "$FIX/vm.perf"
check "vm.perf read as perf script" test "$(kv "$OUT" format)" = perf
check "vm.perf: ns timestamps" test "$(kv "$OUT" timestamps)" = ns
expect 0 "stats vm.idlestat" "$IDLELAB" stats -p haltpoll-vm -f csv "$FIX/vm.idlestat"
check "vm.idlestat: 15 periods" test "$(cell "$OUT" cpu,idle_events "cpu=0" periods)" = 15
if "$IDLELAB" help stats | grep -q ' dat (not built in)'; then
	skip "stats vm.dat" "built without libtracecmd"
elif xz -dc "$FIX/vm.dat.xz" >"$TMP/vm.dat" 2>/dev/null; then
	expect 0 "stats vm.dat" "$IDLELAB" stats -p haltpoll-vm -f csv "$TMP/vm.dat"
	check "trace.dat: the same 81 periods as its text" test "$(cell "$OUT" cpu,idle_events "cpu=0" periods)" = 81
	check "trace.dat: the instance is named" test "$(kv "$OUT" instance)" = idlelab_fixture
else
	skip "stats vm.dat" "no xz"
fi

# Bad input: reported with line numbers, counted, never fatal.
expect 0 "stats bad.trace" "$IDLELAB" stats -p haltpoll-vm -f csv "$FIX/bad.trace"
check "garbage line reported" grep -q 'bad.trace:53: unparsable line: no timestamp' "$ERR"
check "truncated line reported" grep -q 'bad.trace:54: unparsable line' "$ERR"
check "unknown CPU reported" grep -q "bad.trace:55: CPU 7 outside the trace's 2 CPUs" "$ERR"
check "time going back reported" grep -q 'bad.trace:56: timestamp .* goes back' "$ERR"
check "malformed fields reported" grep -q 'bad.trace:57: unparsable line: malformed fields' "$ERR"
check "unparsable lines counted" test "$(kv "$OUT" unparsable_lines)" = 3
check "unknown CPUs counted" test "$(kv "$OUT" events_on_unknown_cpus)" = 1
check "time going back counted" test "$(kv "$OUT" events_out_of_order)" = 1
check "the idle period open at the end" grep -q 'entered at line 165 .* still open' "$OUT"
expect 0 "--max-warnings 2" "$IDLELAB" stats -p haltpoll-vm --max-warnings 2 "$FIX/bad.trace"
check "only 2 diagnostics printed" test "$(grep -c 'bad.trace:' "$ERR")" -eq 2
check "the rest counted" grep -q '3 more diagnostics not shown' "$ERR"

printf 'hello\nworld\n' >"$TMP/notatrace"
expect 1 "not a trace" "$IDLELAB" stats "$TMP/notatrace"
check "says so" grep -q 'not a trace in any known format' "$ERR"
expect 1 "missing file" "$IDLELAB" stats "$TMP/missing"
expect 2 "no trace" "$IDLELAB" stats
expect 2 "two traces" "$IDLELAB" stats "$FIX/vm.trace" "$FIX/vm.perf"
expect 2 "unknown reader" "$IDLELAB" stats -F nosuch "$FIX/vm.trace"
expect 2 "unknown platform" "$IDLELAB" stats -p nosuch "$FIX/vm.trace"
expect 2 "bad --nightmare" "$IDLELAB" stats --nightmare 1,x "$FIX/vm.trace"
expect 2 "bad format" "$IDLELAB" stats -f xml "$FIX/vm.trace"
expect 0 "forced reader" "$IDLELAB" stats -F ftrace "$FIX/ladder.pipe"
expect 0 "help" "$IDLELAB" stats --help
check "help lists the readers" grep -q 'idlestat' "$OUT"
finish
