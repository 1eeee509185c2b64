#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `idlelab sweep` and `idlelab merge`: one row per case in DIR/sweep.csv and sweep.json, the
# same bytes whatever -j is, the per-case command lines of --emit-jobs run for real by GNU
# parallel and merged into the same bytes as the local sweep, and the usage errors.
. "$(dirname "$0")/lib.sh"

if ! "$IDLELAB" run -g menu -p rk3588 -s idle --time 1ms -f json >/dev/null 2>&1; then
	skip "sweep" "built without jansson (sweep.json needs it)"
	finish
	exit 0
fi

# 2 platforms x 3 intervals x 2 modes x 2 governors x 2 iterations = 48 cases.
sweep_args="-g menu,teo -p rk3588,i5-10600k -s wakeup --param interval_us=10..50:20
	--param mode=pipe,timer --time 20ms --iter 2"
expect 0 "sweep on one thread" "$IDLELAB" sweep $sweep_args -j 1 -o "$TMP/j1"
check "sweep.csv: a header and 48 rows" test "$(wc -l <"$TMP/j1/sweep.csv")" -eq 49
check "sweep.csv: the case, label and linux-pm columns" \
	grep -q '^case,governor,platform,interval_us,mode,iter,seed,device,wakeup_us,idles,' "$TMP/j1/sweep.csv"
check "sweep.csv: the rk3588 and i5 states both have columns" \
	sh -c "head -1 '$TMP/j1/sweep.csv' | grep -q 'usage_WFI' && head -1 '$TMP/j1/sweep.csv' | grep -q 'usage_C1_ACPI'"
check "sweep.csv: case 47 is the last i5 timer case of teo, iteration 1, seed 2" \
	grep -q '^47,teo,i5-10600k,50,timer,1,2,' "$TMP/j1/sweep.csv"
check "sweep.csv: the range ends at 50" sh -c "! grep -q ',70,' '$TMP/j1/sweep.csv'"
check "stderr says how many cases" grep -q '48 cases on 1 threads' "$ERR"
check "no progress line when stderr is not a terminal" sh -c "! grep -q 'cases, ' '$ERR'"
check "sweep.json parses and has 48 rows" python3 -c "
import json, sys
rows = json.load(open(sys.argv[1]))['sweep']
assert len(rows) == 48 and rows[5]['case'] == 5 and isinstance(rows[0]['wakeup_us'], float)
assert rows[0]['interval_us'] == 10 and rows[0]['mode'] == 'pipe'
" "$TMP/j1/sweep.json"
check "no temporary files left: sweep and summary, csv and json" test "$(ls -A "$TMP/j1" | wc -l)" -eq 4
check "summary.csv: mean, min, max and paired deltas agree with sweep.csv's iterations" \
	python3 "$TESTS_DIR/summary-check.py" "$TMP/j1/sweep.csv" --summary "$TMP/j1/summary.csv" \
	--keys platform,interval_us,mode,device --gov governor --n 2 --baseline menu --test paired \
	--skip case,seed --iters 48
check "summary.csv: one row per platform, interval, mode, metric and governor" \
	test "$(grep -c ',wakeup_us,' "$TMP/j1/summary.csv")" -eq 24
check "summary.json: the summary rows" python3 -c "
import json, sys
rows = json.load(open(sys.argv[1]))['summary']
assert rows[1]['governor'] == 'teo' and rows[1]['baseline'] == 'menu' and rows[1]['test'] == 'paired', rows[1]
" "$TMP/j1/summary.json"

if command -v script >/dev/null 2>&1; then
	expect 0 "sweep with stderr on a terminal" script -qec \
		"'$IDLELAB' sweep -g menu -p rk3588 -s wakeup --param interval_us=10..90:10 --time 5ms -j 2 -o '$TMP/tty'" /dev/null
	check "a progress line on a terminal" grep -q '9/9 cases, ' "$OUT"
	check "the same rows with a progress line" test "$(wc -l <"$TMP/tty/sweep.csv")" -eq 10
	check "one iteration: no summary" test ! -e "$TMP/tty/summary.csv"
else
	skip "progress line on a terminal" "script (util-linux) is not installed"
fi

expect 0 "sweep on three threads" "$IDLELAB" sweep $sweep_args -j 3 -o "$TMP/j3"
check "sweep.csv: the same bytes on one thread and three" cmp -s "$TMP/j1/sweep.csv" "$TMP/j3/sweep.csv"
check "sweep.json: the same bytes on one thread and three" cmp -s "$TMP/j1/sweep.json" "$TMP/j3/sweep.json"
check "summary.csv: the same bytes on one thread and three" cmp -s "$TMP/j1/summary.csv" "$TMP/j3/summary.csv"

# A case is the run of its command line: case 5 (rk3588, 10 us, timer, menu, iteration 1).
expect 0 "run reproduces one case" "$IDLELAB" run -g menu -p rk3588 -s wakeup:interval_us=10,mode=timer \
	--time 20ms --seed 2 -f csv
check "the run's row is case 5's" sh -c "tail -1 '$OUT' | cut -d, -f1,4- >'$TMP/run5' &&
	grep '^5,' '$TMP/j1/sweep.csv' | cut -d, -f8-29 | sed 's/,-,-,-,-\$//' | cmp -s - '$TMP/run5'"

expect 0 "sweep --emit-jobs" "$IDLELAB" sweep $sweep_args --emit-jobs "$TMP/jobs.txt" -o "$TMP/cases"
check "one command line per case" test "$(wc -l <"$TMP/jobs.txt")" -eq 48
check "the lines are idlelab run with labels and a per-case file" \
	grep -q -- '^${IDLELAB:-idlelab} run -g teo -p i5-10600k -s wakeup:interval_us=50,mode=timer .*--label case=47 .*-f csv -o .*/case-000047.csv$' "$TMP/jobs.txt"
check "emitting runs nothing" test ! -e "$TMP/cases/sweep.csv"

if command -v parallel >/dev/null 2>&1; then
	expect 0 "GNU parallel runs the command lines" env IDLELAB="$IDLELAB" parallel -j2 --halt now,fail=1 \
		-a "$TMP/jobs.txt"
	check "48 case files" test "$(ls "$TMP"/cases/case-*.csv | wc -l)" -eq 48
	expect 0 "merge the case files" sh -c "'$IDLELAB' merge '$TMP'/cases/case-*.csv -o '$TMP/cases'"
	check "merged sweep.csv: the same bytes as the local sweep" cmp -s "$TMP/j1/sweep.csv" "$TMP/cases/sweep.csv"
	check "merged sweep.json: the same bytes as the local sweep" cmp -s "$TMP/j1/sweep.json" "$TMP/cases/sweep.json"
	check "merged summary.csv and .json: the same bytes as the local sweep" \
		sh -c "cmp -s '$TMP/j1/summary.csv' '$TMP/cases/summary.csv' && cmp -s '$TMP/j1/summary.json' '$TMP/cases/summary.json'"
	expect 0 "merge takes the files in any order" sh -c \
		"ls '$TMP'/cases/case-*.csv | sort -r | xargs '$IDLELAB' merge -o '$TMP/rev'"
	check "reverse order: the same bytes" cmp -s "$TMP/j1/sweep.csv" "$TMP/rev/sweep.csv"
	expect 2 "merge: a case twice" "$IDLELAB" merge "$TMP/cases/case-000001.csv" "$TMP/cases/case-000001.csv" \
		-o "$TMP/dup"
	check "merge: nothing written on error" test ! -e "$TMP/dup"
else
	skip "GNU parallel path" "parallel is not installed (apt-get install parallel)"
fi

# merge without parallel: run two command lines by hand.
sed -n '1p;48p' "$TMP/jobs.txt" | sed "s|^\${IDLELAB:-idlelab}|'$IDLELAB'|; s|$TMP/cases/|$TMP/two/|" >"$TMP/two.sh"
mkdir "$TMP/two"
expect 0 "two command lines by sh" sh "$TMP/two.sh"
expect 0 "merge two cases" "$IDLELAB" merge --partial "$TMP/two/case-000047.csv" "$TMP/two/case-000000.csv" -o "$TMP/two"
check "merged: cases 0 and 47 as in the local sweep" \
	sh -c "sed -n '1p;2p;49p' '$TMP/j1/sweep.csv' | cmp -s - '$TMP/two/sweep.csv'"

expect 1 "merge: not a case file" "$IDLELAB" merge "$TMP/j1/sweep.json" -o "$TMP/bad"
expect 1 "merge: a missing file" "$IDLELAB" merge "$TMP/nosuch.csv" -o "$TMP/bad"
expect 1 "merge: a run without labels" sh -c \
	"'$IDLELAB' run -g menu -p rk3588 -s idle --time 1ms -f csv -o '$TMP/plain.csv' && '$IDLELAB' merge '$TMP/plain.csv' -o '$TMP/bad'"
check "merge: no output directory on error" test ! -e "$TMP/bad"
expect 2 "merge: no files" "$IDLELAB" merge -o "$TMP/bad"
expect 2 "merge: no -o" "$IDLELAB" merge "$TMP/two/case-000000.csv"

# ---- --ensemble: each seed under E model variants, the same for every governor ------------
expect 0 "sweep --ensemble 3 --iter 2" "$IDLELAB" sweep -g menu-5,teo-6.14 -p rk3588 \
	-s pingpong --param work_us=5,10 --time 50ms --iter 2 --ensemble 3 -o "$TMP/ens"
check "sweep --ensemble: 6 rows per case (2 seeds x 3 variants), seeds 1 1 1 2 2 2" python3 -c "
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r['governor'] == 'teo-6.14'
        and r['work_us'] == '10']
assert [r['iter'] for r in rows] == [str(k) for k in range(6)], rows
assert [r['seed'] for r in rows] == ['1', '1', '1', '2', '2', '2'], rows
" "$TMP/ens/sweep.csv"
check "sweep --ensemble: the variants differ (the same seed, other model numbers)" python3 -c "
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r['governor'] == 'menu-5'
        and r['work_us'] == '5' and r['seed'] == '1']
assert len({r['us_per_loop'] for r in rows}) == 3, rows
" "$TMP/ens/sweep.csv"
check "sweep --ensemble: a summary of n 6" grep -q ",us_per_loop,6," "$TMP/ens/summary.csv"
expect 0 "sweep --ensemble 3 again, -j 1" "$IDLELAB" sweep -g menu-5,teo-6.14 -p rk3588 \
	-s pingpong --param work_us=5,10 --time 50ms --iter 2 --ensemble 3 -j 1 -o "$TMP/ens1"
check "sweep --ensemble: the same bytes" cmp "$TMP/ens/sweep.csv" "$TMP/ens1/sweep.csv"
sed '/uncertain:/d' "$(dirname "$0")/../../platforms/rk3588.plat" >"$TMP/certain.plat"
expect 0 "sweep --ensemble where nothing is uncertain" "$IDLELAB" sweep -g menu-5 \
	-p "$TMP/certain.plat" -s wakeup --param interval_us=50 --time 10ms --ensemble 2 \
	-o "$TMP/ens2"
check "it says so" grep -q "declares no uncertain parameter: the nominal model runs, on 2 seeds" "$ERR"
# Two runs of one seed under the one model would be one run counted twice: seeds 1 and 2
expect 0 "the same sweep with --iter 2 and no ensemble" "$IDLELAB" sweep -g menu-5 \
	-p "$TMP/certain.plat" -s wakeup --param interval_us=50 --time 10ms --iter 2 -o "$TMP/ens2n"
check "sweep --ensemble where nothing is uncertain: the rows of --iter 2, seeds 1 and 2" \
	cmp "$TMP/ens2/sweep.csv" "$TMP/ens2n/sweep.csv"
check "... and the summary of --iter 2: no envelope of variants that are all the nominal model" \
	cmp "$TMP/ens2/summary.csv" "$TMP/ens2n/summary.csv"
expect 2 "sweep: --ensemble with --emit-jobs" "$IDLELAB" sweep -g menu-5 -p rk3588 -s wakeup \
	--param interval_us=50 --ensemble 2 --emit-jobs "$TMP/ens.jobs" -o "$TMP/ens3"
check "the message says why" grep -q "'idlelab run' cannot" "$ERR"
expect 2 "sweep: --ensemble 1" "$IDLELAB" sweep -g menu-5 -p rk3588 -s wakeup \
	--param interval_us=50 --ensemble 1 -o "$TMP/ens3"
check "sweep: nothing written on --ensemble usage errors" test ! -e "$TMP/ens3"

base="$IDLELAB sweep -g menu -p rk3588 -s wakeup --time 1ms -o $TMP/err"
expect 2 "sweep: a range going down" $base --param interval_us=50..10:5
check "the message names the range" grep -q "range '50..10:5' is empty" "$ERR"
expect 2 "sweep: step 0" $base --param interval_us=0..400:0
check "the message names the step" grep -q "step of '0..400:0' must be a positive integer" "$ERR"
expect 2 "sweep: not a range" $base --param interval_us=a..b:1
expect 2 "sweep: a range without a step" $base --param interval_us=1..20
expect 2 "sweep: an empty list value" $base --param interval_us=5,,10
expect 2 "sweep: an unknown parameter" $base --param nosuch=1,2
check "the message names the parameter" grep -q "unknown parameter 'nosuch'" "$ERR"
expect 2 "sweep: a value out of range" $base --param interval_us=0,10
expect 2 "sweep: too many values" $base --param interval_us=1..100000:1
expect 2 "sweep: three parameters" $base --param interval_us=1 --param mode=pipe --param waker_ns=1
expect 2 "sweep: the same parameter twice" $base --param interval_us=1 --param interval_us=2
expect 2 "sweep: no --param" $base
expect 2 "sweep: unknown governor" "$IDLELAB" sweep -g nosuch -p rk3588 -s wakeup --param interval_us=1 -o "$TMP/err"
expect 2 "sweep: no -o" "$IDLELAB" sweep -g menu -p rk3588 -s wakeup --param interval_us=1
check "sweep: nothing written on usage errors" test ! -e "$TMP/err"
expect 1 "sweep: unwritable output" $base --param interval_us=10 -o /nonexistent/dir
expect 0 "sweep --help" "$IDLELAB" sweep --help
check "sweep --help names --param and --emit-jobs" sh -c "grep -q -- '--param' '$OUT' && grep -q -- '--emit-jobs' '$OUT'"
expect 0 "merge --help" "$IDLELAB" merge --help

finish
