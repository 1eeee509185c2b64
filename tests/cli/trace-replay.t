#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `idlelab replay` on the small fixtures: the linux-pm table, usage, confusion and tick
# tables, per-period output, the recorded governor's port agreeing with the recorded
# states, tunables, and usage errors.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace-lib.sh"
FIX=$TOP/tests/fixtures/traces

expect 0 "replay ladder excerpt" "$IDLELAB" replay -p haltpoll-vm -r ladder-6.13 -g menu-6.18,teo \
	-f csv "$FIX/ladder-head.trace"
cp "$OUT" "$TMP/csv"
row() { cell "$TMP/csv" governor,idles "governor=$1" "$2"; }
check "the recorded row" test "$(row "recorded (cpu_idle_miss)" idles)" = 4
check "one row per governor" test "$(row menu-6.18 idles)$(row teo-7.1 idles)$(row ladder-6.13 idles)" = 444
check "ladder-6.13 agrees on every period" test "$(row ladder-6.13 agree_pct)" = 100.00
check "CPU 1 noted" test "$(kv "$TMP/csv" cpu1)" = "no idle periods in the trace: nothing replayed"
check "confusion of ladder-6.13" test "$(cell "$TMP/csv" recorded, "recorded=haltpoll idle" "haltpoll idle")" = 4
expect 0 "replay table" "$IDLELAB" replay -p haltpoll-vm -r ladder-6.13 "$FIX/ladder-head.trace"
check "titles" test "$(grep -c -E '^# (trace|replay|governors|usage|confusion ladder-6.13 .*|tick ladder-6.13)$' "$OUT")" -eq 6

expect 0 "replay --periods" "$IDLELAB" replay -p haltpoll-vm -g oracle --periods "$FIX/ladder-head.trace"
check "a header and 4 periods" test "$(wc -l <"$OUT")" -eq 5
check "the oracle's column (its preset name)" grep -q '^cpu,line,enter_ns,residency_ns,sleep_ns,delta_next_ns,tick_stopped,got_tick,recorded_state,recorded_stop,oracle-heuristic,oracle-heuristic_stop$' "$OUT"
check "the first period: 119 µs, entered on line 25" grep -q '^0,25,591171147000,119000,' "$OUT"
expect 0 "replay -f csv vm.trace" "$IDLELAB" replay -p haltpoll-vm -g oracle -f csv "$FIX/vm.trace"
check "CSV: 81 periods" test "$(cell "$OUT" governor,idles governor=oracle-heuristic idles)" = 81
if "$IDLELAB" stats -f json "$FIX/vm.trace" >/dev/null 2>&1; then
	expect 0 "replay -f json" "$IDLELAB" replay -p haltpoll-vm -r menu-6.18 -f json "$FIX/vm.trace"
	check "JSON: the confusion table of the recording governor" grep -q '"confusion menu-6.18' "$OUT"
else
	skip "replay -f json" "built without jansson"
fi
expect 0 "replay --cpu 1" "$IDLELAB" replay -p haltpoll-vm -g oracle --cpu 1 -f csv "$FIX/vm.trace"
check "nothing replayed on CPU 1" test "$(cell "$OUT" governor,idles governor=oracle-heuristic idles)" = 0
expect 0 "replay an idlestat file with its own header" "$IDLELAB" replay -g oracle "$FIX/ladder.idlestat"
expect 0 "--param for the traced kernel's tunable" "$IDLELAB" replay -p haltpoll-vm \
	-r haltpoll-6.13 --param guest_halt_poll_ns=0 -f csv "$FIX/ladder-head.trace"
check "haltpoll with guest_halt_poll_ns=0 always halts" test "$(cell "$OUT" governor,idles governor=haltpoll-6.13 agree_pct)" = 100.00

# A deferrable timer (flags=D) does not wake an idle CPU: haltpoll-deferrable.trace has a
# delayed work due at 701.072 s on CPU 0 that fired only at 701.104 s; queued, it made the
# rebuilt sleep length of the next periods 557 µs and then -4.4 to -9.4 ms (POLL picks).
expect 0 "replay a deferrable timer's excerpt" "$IDLELAB" replay -p haltpoll-vm -g teo-7.1 \
	--periods "$FIX/haltpoll-deferrable.trace"
check "five periods" test "$(wc -l <"$OUT")" -eq 6
check "every sleep length is the next hrtimer's, 2.37-2.41 ms" \
	awk -F, 'NR > 1 && ($5 < 2370000 || $5 > 2410000) { bad = 1 } END { exit bad }' "$OUT"
check "the third period: sleep 2387694 ns, delta_next the same" \
	grep -q '^0,79,701076433000,2421000,2387694,2387694,' "$OUT"
expect 0 "replay it as a table" "$IDLELAB" replay -p haltpoll-vm -g teo-7.1 -f csv \
	"$FIX/haltpoll-deferrable.trace"
check "no negative sleep length" test "$(kv "$OUT" negative_sleep_length)" = 0
check "no stale timer dropped" test "$(kv "$OUT" stale_timers_dropped)" = 0
check "teo-7.1 halts as recorded in 4 of the 5 periods" \
	test "$(cell "$OUT" governor,idles governor=teo-7.1 agree_pct)" = 80.00
# The same lines as trace-cmd report prints them: libtraceevent's flags= are not believed
# (it prints D|P|I for every timer), so the delayed work is queued and shortens the first two
# sleep lengths, and taken for deferrable once it is a tick (4 ms) past its expiry.
awk '!/^#/' "$FIX/haltpoll-deferrable.trace" >"$TMP/deferrable.body"
{ printf 'version = 6\ncpus=2\n'; sed -E 's/^ *([^ ]+-[0-9]+) +\[([0-9]+)\] [^ ]+ +/\1 [\2] /' \
	"$TMP/deferrable.body"; } >"$TMP/deferrable.tcreport"
expect 0 "replay it as trace-cmd report text" "$IDLELAB" replay -p haltpoll-vm -g teo-7.1 \
	--periods -F trace-cmd "$TMP/deferrable.tcreport"
check "trace-cmd report: the first sleep length ends at the delayed work (557 µs)" \
	grep -q '^0,33,701071443000,2432000,557000,' "$OUT"
check "trace-cmd report: 4.4 ms past it, the delayed work is dropped" \
	grep -q '^0,69,701076433000,2421000,2387694,2387694,' "$OUT"
check "trace-cmd report: no negative sleep length" \
	awk -F, 'NR > 1 && $5 < 0 { bad = 1 } END { exit bad }' "$OUT"

expect 2 "no governor" "$IDLELAB" replay -p haltpoll-vm "$FIX/vm.trace"
expect 2 "unknown governor" "$IDLELAB" replay -p haltpoll-vm -g nosuch "$FIX/vm.trace"
expect 2 "no state table" "$IDLELAB" replay -g oracle "$FIX/vm.trace"
check "says to give -p" grep -q 'give one with -p PLATFORM' "$ERR"
expect 2 "a parameter no governor has" "$IDLELAB" replay -p haltpoll-vm -g oracle --param x=1 "$FIX/vm.trace"
expect 2 "--param without =" "$IDLELAB" replay -p haltpoll-vm -g oracle --param x "$FIX/vm.trace"
expect 2 "bad --hz" "$IDLELAB" replay -p haltpoll-vm -g oracle --hz 0 "$FIX/vm.trace"
expect 1 "missing trace" "$IDLELAB" replay -p haltpoll-vm -g oracle "$TMP/missing"
expect 0 "help" "$IDLELAB" replay --help
finish
