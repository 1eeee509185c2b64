#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `idlelab scenarios`, `idlelab run` and `idlelab compare`: the listing, the linux-pm columns
# scripts rely on, every format, determinism, and the usage errors.
. "$(dirname "$0")/lib.sh"

expect 0 "scenarios" "$IDLELAB" scenarios
for s in fio pingpong wakeup consume idle idle-busy threads ebizzy adrestia pidpersec jbb netrr video; do
	check "scenarios lists $s" grep -q "^$s " "$OUT"
done
expect 0 "scenarios fio shows its parameters" "$IDLELAB" scenarios fio
check "fio: device choices" grep -q 'nvme|sda|mmcblk|nullb|mtdblock|dm-slow' "$OUT"
check "fio: score iops" grep -q 'score: iops' "$OUT"
expect 2 "scenarios: unknown name" "$IDLELAB" scenarios nosuch
expect 0 "scenarios -v" "$IDLELAB" scenarios -v
check "every scenario lists the common parameters" \
	test "$(grep -c 'rcu_pct=N' "$OUT")" -eq "$(grep -c '^  score:' "$OUT")"
check "the background's timer-wheel share on every scenario with the default background" \
	test "$(grep -c '^    bg_wheel_pct ' "$OUT")" -eq "$(grep -c '^    bg_burst_pct ' "$OUT")"
check "and the idle scenarios' wheel_pct" test "$(grep -c '^    wheel_pct ' "$OUT")" -eq 2
expect 2 "run: a wheel share over 100 %" "$IDLELAB" run -g menu -p rk3588 -s idle:wheel_pct=101
expect 0 "run: the background on the wheel" "$IDLELAB" run -g menu -p i5-10600k -s idle:wheel_pct=100 \
	--time 2s -f tsv
cp "$OUT" "$TMP/wheel"
expect 0 "run: the background without it" "$IDLELAB" run -g menu -p i5-10600k -s idle:wheel_pct=0 \
	--time 2s -f tsv
check "the wheel batches the timers: fewer idle periods" \
	awk -F'\t' 'NR == 2 { a = $5 } FNR == 2 && NR > 2 { exit !(a < $5) }' "$TMP/wheel" "$OUT"
expect 0 "run: fio's bg_hz timers on the wheel" "$IDLELAB" run -g menu -p rk3588 \
	-s fio:device=sda,bg_hz=300,bg_wheel_pct=100 --time 1s -f tsv
cp "$OUT" "$TMP/wheel"
expect 0 "run: fio's bg_hz timers without it" "$IDLELAB" run -g menu -p rk3588 \
	-s fio:device=sda,bg_hz=300 --time 1s -f tsv
check "bg_wheel_pct applies to bg_hz's timers" sh -c "! cmp -s '$TMP/wheel' '$OUT'"

run="$IDLELAB run -g menu -p rk3588 -s fio:device=nvme --time 1s"
expect 0 "run (table)" $run
check "run prints the summary, run, states and cpus tables" \
	sh -c "grep -q '^# summary' '$OUT' && grep -q '^# run' '$OUT' && grep -q '^# states' '$OUT' && grep -q '^# cpus' '$OUT'"
expect 0 "run -f tsv" $run -f tsv
check "tsv: one header line with the seeds' columns" \
	test "$(head -n 1 "$OUT")" = "$(printf 'device\tgov\titer\tiops\tidles\tidle_misses\tidle_miss_ratio\tbelows\taboves\trejected\tjoules\twatts\tnightmares\tnightmare_s\twakeup_p99_us\twakeup_p50_us\twakeup_mean_us\twakeup_max_us\tusage_WFI\tusage_cpu-sleep')"
check "tsv: one row" test "$(wc -l <"$OUT")" -eq 2
check "tsv: the device and the governor as typed" sh -c "tail -n 1 '$OUT' | grep -q '^nvme0n1	menu	0	'"
cp "$OUT" "$TMP/a"
expect 0 "run again, same seed" $run -f tsv
check "same seed, same bytes" cmp -s "$OUT" "$TMP/a"
expect 0 "run with another seed" $run -f tsv --seed 2
check "another seed, other numbers" sh -c "! cmp -s '$OUT' '$TMP/a'"
expect 0 "run -f csv" $run -f csv
check "csv header" sh -c "head -n 1 '$OUT' | grep -q '^device,gov,iter,iops,idles,idle_misses,idle_miss_ratio,belows,aboves,rejected,joules,watts,nightmares,nightmare_s,wakeup_p99_us,wakeup_p50_us,wakeup_mean_us,wakeup_max_us,usage_WFI,usage_cpu-sleep$'"
if "$IDLELAB" run -g menu -p rk3588 -s idle --time 1ms -f json >/dev/null 2>&1; then
	expect 0 "run -f json" $run -f json
	check "json: summary, states, cpus" \
		sh -c "grep -q '\"summary\"' '$OUT' && grep -q '\"states\"' '$OUT' && grep -q '\"cpus\"' '$OUT'"
	check "json: the score is a number" grep -q '"iops": [0-9]' "$OUT"
	check "json: the run table names the preset an alias stands for" grep -q '"value": "menu-7.1"' "$OUT"
else
	skip "run -f json" "built without jansson"
fi

expect 0 "energy on a platform with a polling state" "$IDLELAB" run -g teo -p i5-10600k -s idle --time 1s -f csv
check "joules and watts are numbers" sh -c "tail -n 1 '$OUT' | cut -d, -f11,12 | grep -Eq '^[0-9.]+,[0-9.]+$'"
expect 0 "energy on rk3588 from its active_power_uw" "$IDLELAB" run -g menu -p rk3588 -s fio --time 1s -f csv
check "rk3588 joules and watts are numbers" sh -c "tail -n 1 '$OUT' | cut -d, -f11,12 | grep -Eq '^[0-9.]+,[0-9.]+$'"
cp "$OUT" "$TMP/rk3588-energy"
expect 0 "--active-mw overrides it" "$IDLELAB" run -g menu -p rk3588 -s fio --time 1s -f csv --active-mw 800
check "rk3588: 800 mW busy costs more than the file's 500 mW" \
	sh -c "paste -d, '$TMP/rk3588-energy' '$OUT' | tail -n 1 | awk -F, '{ n = NF / 2; exit !(\$(n + 11) > \$11) }'"

expect 0 "compare two governors, two iterations, two devices" \
	"$IDLELAB" compare -g menu-6.13,teo -p rk3588 -s fio:device=sda -s fio:device=mmcblk --iter 2 --time 500ms -f tsv
check "compare: one header, 8 iteration rows" \
	sh -c "test \"\$(grep -c '^fio	iter	' '$OUT')\" -eq 8 && test \"\$(grep -c '^scenario	row	device	gov	iter	' '$OUT')\" -eq 1"
check "compare: iterations 0 and 1" sh -c "grep '^fio	iter	' '$OUT' | cut -f5 | sort -u | tr '\n' ' ' | grep -q '^0 1 $'"
expect 0 "compare: mixed scenarios, one iteration" \
	"$IDLELAB" compare -g teo -p i5-10600k -s pingpong -s wakeup:mode=timer --time 200ms -f tsv
check "compare: pingpong and wakeup score columns in one header" \
	sh -c "head -n 1 '$OUT' | grep -q '^scenario	device	gov	iter	us_per_loop	.*	wakeup_us$'"
check "compare --iter 1: no summary rows, no row column" sh -c "! grep -q summary '$OUT'"
if command -v python3 >/dev/null; then
	# One table, read in one call: one header, rows of equal length, a cell per scenario's column.
	longcsv() {
		python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
assert all(len(r) == len(h) for r in rows[1:]), "ragged rows"
assert h.count("scenario") == 1 and not any(r == h for r in rows[1:]), "two headers"
by = {r[0]: r for r in rows[1:]}
assert sorted(by) == sys.argv[2].split(","), sorted(by)
for s, col, other in zip(sys.argv[2].split(","), sys.argv[3].split(","), reversed(sys.argv[3].split(","))):
	assert by[s][h.index(col)] != "-" and by[s][h.index(other)] == "-", (s, col)
' "$@"
	}
	expect 0 "compare -f csv of two scenarios" \
		"$IDLELAB" compare -g teo,menu -p i5-10600k -s pingpong -s idle --time 200ms -f csv
	check "compare csv: one table, empty cells where a scenario lacks a column" \
		longcsv "$OUT" idle,pingpong wakeups_per_s,us_per_loop
	expect 0 "compare --iter 3, two scenarios, csv" "$IDLELAB" compare -g menu-6.16,menu-6.17 -p i5-10600k \
		-s pingpong -s fio:device=sda --iter 3 --time 200ms -f csv
	check "compare summary: mean, min, max, delta agree with the iteration rows; paired" \
		python3 "$TESTS_DIR/summary-check.py" "$OUT" --keys scenario,device --gov gov --n 3 \
		--baseline menu-6.16 --test paired
	cp "$OUT" "$TMP/c3.csv"
	expect 0 "compare --iter 3 --baseline menu-6.17" "$IDLELAB" compare -g menu-6.16,menu-6.17 -p i5-10600k \
		-s pingpong -s fio:device=sda --iter 3 --time 200ms -f csv --baseline menu-6.17
	check "--baseline: the deltas are against menu-6.17" \
		python3 "$TESTS_DIR/summary-check.py" "$OUT" --keys scenario,device --gov gov --n 3 \
		--baseline menu-6.17 --test paired
	grep ',iter,' "$TMP/c3.csv" >"$TMP/c3.iter"
	check "--baseline: the iteration rows are the same" sh -c "grep ',iter,' '$OUT' | cmp -s - '$TMP/c3.iter'"
else
	skip "compare csv in python" "no python3"
fi
expect 0 "compare --iter 3: the summary table" "$IDLELAB" compare -g menu-6.16,menu-6.17 -p i5-10600k -s pingpong \
	--iter 3 --time 200ms
check "summary: titled, says what ± means" grep -q '^# pingpong summary (± and \[ \]: 95 % confidence intervals' "$OUT"
check "summary: header" grep -Eq '^device +gov +metric +n +mean ± ci +sd +min +max +delta \[ci\] +p$' "$OUT"
check "summary: the baseline's row" grep -Eq '^pingpong +menu-6.16 +us_per_loop +3 +[0-9.]+ ± +[0-9.]+ % .* baseline ' "$OUT"
check "summary: the other governor's delta in % with its interval and p" \
	grep -Eq '^pingpong +menu-6.17 +us_per_loop +3 .* [-+][0-9.]+ % \[ *[-+][0-9.]+, +[-+][0-9.]+\] +(<0\.001|[01]\.[0-9]{3})$' "$OUT"
check "summary: after the per-iteration table" \
	sh -c "grep -n '^# pingpong' '$OUT' | cut -d: -f2 | tr '\n' '|' | grep -q '^# pingpong|# pingpong summary'"
expect 2 "compare: --baseline not among -g" "$IDLELAB" compare -g menu,teo -p rk3588 -s idle --iter 2 --baseline ladder
check "--baseline error names it" grep -q 'baseline ladder is not one of the -g governors' "$ERR"

expect 2 "run: no governor" "$IDLELAB" run -p rk3588 -s idle
expect 2 "run: two governors" "$IDLELAB" run -g menu,teo -p rk3588 -s idle
expect 2 "run: unknown governor" "$IDLELAB" run -g nosuch -p rk3588 -s idle
expect 2 "run: unknown platform" "$IDLELAB" run -g menu -p nosuch -s idle
expect 2 "run: a seed with a blank and a sign is refused, not wrapped" "$IDLELAB" run -g menu -p rk3588 -s idle --seed " -1"
expect 2 "run: a seed with a plus sign is refused" "$IDLELAB" run -g menu -p rk3588 -s idle --seed +5
expect 2 "run: unknown scenario" "$IDLELAB" run -g menu -p rk3588 -s nosuch
expect 2 "run: bad parameter" "$IDLELAB" run -g menu -p rk3588 -s fio:device=floppy
expect 2 "run: parameter out of range" "$IDLELAB" run -g menu -p rk3588 -s consume:load=200
expect 2 "run: bad --time" "$IDLELAB" run -g menu -p rk3588 -s idle --time soon
expect 2 "run: --iter is for compare" "$IDLELAB" run -g menu -p rk3588 -s idle --iter 2
expect 2 "run: bad format" "$IDLELAB" run -g menu -p rk3588 -s idle -f xml
expect 1 "run: unreadable platform file" "$IDLELAB" run -g menu -p /nonexistent.plat -s idle
expect 0 "run --help" "$IDLELAB" run --help
check "run --help names the options" grep -q -- '--seed' "$OUT"
expect 0 "compare --help" "$IDLELAB" compare --help

finish
