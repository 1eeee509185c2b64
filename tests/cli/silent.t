#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# silent.t - no silent wrong answer: each case here used to exit 0 with a misleading result
# and no word. replay: a state table that does not match the trace, --cpu beyond the trace,
# a platform with another CPU count; stats: the CPU count, a CPU whose only idle event is an
# exit; merge: an incomplete set of case files, files of different sweeps, files without a
# sweep id; sweep, battery, verdict, run, replay, stats: an output that cannot be written,
# found before any case runs; replay of a trace without idle periods; two platforms of one name.
# (measure's cases are in live-measure.t; an rt-app file naming CPUs the platform lacks in
# rtapp.t; stats without a state table in trace-stats.t.)
. "$(dirname "$0")/lib.sh"
FIX=$TOP/tests/fixtures/traces

# ---- replay ---------------------------------------------------------------------------------------
expect 0 "replay vm.trace with skx's table: still runs" "$IDLELAB" replay -p skx -g teo "$FIX/vm.trace"
check "the recorded and recomputed misses disagree: said, with the margin" grep -q \
	'recorded misses (cpu_idle_miss: 0) and misses recomputed from the state table (41) differ by 50.6% of 81 periods (more than 5%): the state table does not match the trace: use the exported platform' "$ERR"
check "skx has 40 CPUs, the trace 2: said" grep -q 'platform skx has 40 CPUs but the trace says 2' "$ERR"
expect 0 "replay vm.trace with its own platform" "$IDLELAB" replay -p haltpoll-vm -g teo "$FIX/vm.trace"
check "its own platform: no warning" test ! -s "$ERR"
expect 2 "replay --cpu 5 of a 2-CPU trace: a usage error" "$IDLELAB" replay -p haltpoll-vm -g teo \
	--cpu 5 "$FIX/vm.trace"
check "--cpu 5: the message names the CPUs" grep -q -- '--cpu 5: the trace has CPUs 0..1' "$ERR"
check "--cpu 5: no table printed" test ! -s "$OUT"
expect 2 "replay --cpu 2 --periods -o: usage error" "$IDLELAB" replay -p haltpoll-vm -g teo --cpu 2 \
	--periods -o "$TMP/periods.csv" "$FIX/vm.trace"
check "--cpu 2 --periods -o: no file" test ! -e "$TMP/periods.csv"
expect 0 "replay --cpu 1 of a 2-CPU trace: fine" "$IDLELAB" replay -p haltpoll-vm -g teo --cpu 1 "$FIX/vm.trace"

# ---- stats -----------------------------------------------------------------------------------------
expect 0 "stats with rk3588 (8 CPUs) on a 2-CPU trace" "$IDLELAB" stats -p rk3588 "$FIX/vm.trace"
check "the CPU count: said" grep -q 'platform rk3588 has 8 CPUs but the trace says 2' "$ERR"
expect 0 "stats with haltpoll-vm: no warning" "$IDLELAB" stats -p haltpoll-vm "$FIX/vm.trace"
check "no warning with the right platform" test ! -s "$ERR"
# CPU 1 of ladder-head.trace has no idle event; give it one exit without an enter.
awk '{ print } /591\.171147: cpu_idle/ && !done {
	print "          <idle>-0       [001] d..1.   591.171150: cpu_idle: state=4294967295 cpu_id=1"; done = 1 }' \
	"$FIX/ladder-head.trace" > "$TMP/exit-only.trace"
expect 0 "stats: a CPU whose only idle event is an exit" "$IDLELAB" stats -p haltpoll-vm "$TMP/exit-only.trace"
check "it is reported with that exit" grep -Eq '^ +1 +1 idle exit\(s\) without an enter' "$OUT"
check "not as 'idle state unknown'" sh -c "! grep -q '1  no idle events' '$OUT'"
check "its idle_events column says yes" grep -Eq '^ +1 +yes ' "$OUT"

# ---- merge -------------------------------------------------------------------------------------------
J="-g menu,teo -p rk3588 -s fio --param jobs=1..2:1 --time 5ms"
expect 0 "emit a sweep of 4 cases" "$IDLELAB" sweep $J --emit-jobs "$TMP/jobs.txt" -o "$TMP/cases"
check "each line carries the sweep id and the case count" \
	test "$(grep -c -- '--label case=[0-3] --label sweep_id=[0-9a-f]\{16\} --label sweep_cases=4 ' "$TMP/jobs.txt")" = 4
expect 0 "the same sweep emitted again: the same bytes" "$IDLELAB" sweep $J --emit-jobs "$TMP/jobs2.txt" -o "$TMP/cases"
check "the sweep id is deterministic" cmp -s "$TMP/jobs.txt" "$TMP/jobs2.txt"
sed "s|^\${IDLELAB:-idlelab}|'$IDLELAB'|" "$TMP/jobs.txt" > "$TMP/jobs.sh"
expect 0 "run the 4 jobs" sh "$TMP/jobs.sh"
expect 1 "merge of 2 of the 4 case files: refused" "$IDLELAB" merge "$TMP/cases/case-000000.csv" \
	"$TMP/cases/case-000002.csv" -o "$TMP/m2"
check "the missing cases are named" grep -q '2 of the 4 cases of sweep [0-9a-f]* (missing: case 1, 3): a job failed' "$ERR"
check "nothing written" test ! -e "$TMP/m2"
expect 0 "merge --partial of 2 of 4: on purpose" "$IDLELAB" merge --partial "$TMP/cases/case-000000.csv" \
	"$TMP/cases/case-000002.csv" -o "$TMP/m2"
expect 0 "merge of all 4" sh -c "'$IDLELAB' merge '$TMP'/cases/case-*.csv -o '$TMP/m4'"
expect 0 "the local sweep of the same cases" "$IDLELAB" sweep $J -o "$TMP/local"
check "merged: the same bytes as the local sweep (no sweep_id column)" cmp -s "$TMP/local/sweep.csv" "$TMP/m4/sweep.csv"
expect 0 "another sweep (jobs=1..3)" "$IDLELAB" sweep -g menu,teo -p rk3588 -s fio --param jobs=1..3:1 \
	--time 5ms --emit-jobs "$TMP/other.txt" -o "$TMP/other"
sed -n 1p "$TMP/other.txt" | sed "s|^\${IDLELAB:-idlelab}|'$IDLELAB'|" > "$TMP/other.sh"
mkdir -p "$TMP/other"
expect 0 "run its first job" sh "$TMP/other.sh"
expect 1 "merge of files of two sweeps: refused" "$IDLELAB" merge "$TMP/cases/case-000001.csv" \
	"$TMP/cases/case-000002.csv" "$TMP/cases/case-000003.csv" "$TMP/other/case-000000.csv" -o "$TMP/mx"
check "different sweeps: said" grep -q 'files of different sweeps' "$ERR"
# A case file emitted before sweep ids existed: merged, with a warning.
for i in 0 1 2 3; do
	cut -d, -f1,4- "$TMP/cases/case-00000$i.csv" > "$TMP/old-$i.csv"
done
expect 0 "old case files without a sweep id: merged" sh -c "'$IDLELAB' merge '$TMP'/old-*.csv -o '$TMP/mold'"
check "old case files: completeness not checked, said" grep -q 'carry no sweep_id' "$ERR"
check "old case files: the same bytes" cmp -s "$TMP/local/sweep.csv" "$TMP/mold/sweep.csv"
expect 1 "an old and a new case file: refused" "$IDLELAB" merge "$TMP/old-0.csv" "$TMP/cases/case-000001.csv" \
	-o "$TMP/mmix"

# ---- outputs checked before the first case ------------------------------------------------------------
expect 1 "sweep -o /proc/nope: refused" "$IDLELAB" sweep -g menu,teo,ladder -p rk3588,skx -s fio \
	--param jobs=1..8:1 --time 2s -o /proc/nope
check "sweep: said before running anything" grep -q 'cannot write /proc/nope: .*(checked before running anything)' "$ERR"
check "sweep: no case ran (no progress)" test "$(wc -l < "$ERR")" = 1
expect 1 "sweep --emit-jobs into a missing directory: refused" "$IDLELAB" sweep $J \
	--emit-jobs "$TMP/nodir/jobs.txt" -o "$TMP/c2"
expect 1 "battery -o into a missing directory: refused" "$IDLELAB" battery -g teo -p rk3588 --time 5s \
	-o "$TMP/nodir/b.json"
check "battery: said before running anything" grep -q 'cannot write .*nodir/b.json: no directory .*nodir (checked before running anything)' "$ERR"
check "battery: nothing printed" test ! -s "$OUT"
expect 1 "battery -o onto a directory: refused" "$IDLELAB" battery -g teo -p rk3588 --time 5s -o "$TMP"
expect 1 "verdict -o /proc/x: refused" "$IDLELAB" verdict -g menu,teo -p rk3588 -s fio --iter 3 \
	--time 1s -o /proc/x
check "verdict: said before running anything (no run, no progress)" grep -q \
	'^idlelab verdict: cannot write /proc/x: .*(checked before running anything)$' "$ERR"
check "verdict: the only line" test "$(wc -l < "$ERR")" = 1
for c in "run -g menu -p rk3588 -s fio" "replay -g teo -p haltpoll-vm $FIX/vm.trace" \
	"stats $FIX/vm.trace" "step -g menu -p skx --input builtin:demo"; do
	cmd=${c%% *}
	# shellcheck disable=SC2086
	expect 1 "$cmd -o /proc/x: refused" "$IDLELAB" $c -o /proc/x
	check "$cmd: said before running anything" grep -q 'checked before running anything' "$ERR"
done
expect 1 "run --perfetto /proc/x: refused before the run" "$IDLELAB" run -g menu -p rk3588 -s fio \
	--perfetto /proc/x
check "run --perfetto: said before running anything" grep -q 'checked before running anything' "$ERR"

# ---- replay of a trace without an idle period ------------------------------------------------------
printf '# tracer: nop\n#\n  <idle>-0 [000] d..2 100.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=1 next_prio=120\n' \
	> "$TMP/noidle.trace"
expect 1 "replay of a trace with no cpu_idle event: exit 1" "$IDLELAB" replay -g menu -p haltpoll-vm \
	"$TMP/noidle.trace"
check "it says why" grep -q 'noidle.trace: no idle period to replay (0 cpu_idle events): record power:cpu_idle' "$ERR"
check "no empty tables printed" test ! -s "$OUT"
expect 1 "replay --periods -o of it: exit 1" "$IDLELAB" replay -g menu -p haltpoll-vm --periods \
	-o "$TMP/noidle.csv" "$TMP/noidle.trace"
check "no periods file left" test ! -e "$TMP/noidle.csv"

# ---- two platforms of one name ------------------------------------------------------------------------
# Every output names a platform's rows by its name, so two of one name are refused rather than
# shown as two rows that cannot be told apart (or overlaid in the report).
sed 's/^\(cpus *\)8/\14/' "$TOP/platforms/rk3588.plat" > "$TMP/edited-copy.plat"
for c in "battery -g teo" "verdict -g menu,teo -s fio" "sweep -g menu -s fio --param jobs=1..2:1 -o $TMP/sw"; do
	cmd=${c%% *}
	# shellcheck disable=SC2086
	expect 2 "$cmd -p rk3588,./edited-copy.plat: refused" "$IDLELAB" $c -p "rk3588,$TMP/edited-copy.plat" \
		--time 10ms
	check "$cmd: the message names both and the name" grep -q \
		"'rk3588' and '.*edited-copy.plat' are both platform 'rk3588'" "$ERR"
	check "$cmd: nothing printed" test ! -s "$OUT"
done
expect 2 "verdict -p rk3588,rk3588: refused" "$IDLELAB" verdict -g menu,teo -s fio -p rk3588,rk3588
check "given twice: said" grep -q "'rk3588' given twice" "$ERR"
finish
