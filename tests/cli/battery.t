#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `idlelab battery`: the variant list, one linux-pm table per platform and variant, the same
# bytes whatever the number of threads, the JSON file, and the usage errors.
. "$(dirname "$0")/lib.sh"

expect 0 "battery --list" "$IDLELAB" battery --list
check "the battery has 23 variants" test "$(wc -l <"$OUT")" -eq 23
for v in fio:device=nvme,lat_us=48,irq_remote_pct=85,irq_work_ns=3000 fio:device=dm-slow pingpong:cpus=12 wakeup:mode=pipe idle-busy adrestia video netrr:nohz_full=0-1 adrestia:threads=2,nohz_full=0-1; do
	check "battery lists $v" grep -q "^$v " "$OUT"
done

small="$IDLELAB battery -g menu-6.13,teo -p rk3588,i5-10600k --time 20ms"
expect 0 "battery, two threads" $small -j 2 -f tsv
check "tsv: one table, one header" sh -c "test \"\$(grep -c 'gov	iter	' '$OUT')\" -eq 1 && ! grep -q '^$' '$OUT'"
check "tsv: platform and scenario lead" grep -q '^platform	scenario	device	gov	iter	' "$OUT"
check "two platforms x 23 variants, two rows each" test "$(grep -c '	menu-6.13	0	' "$OUT")" -eq 46
check "a row names its platform and variant" grep -q '^i5-10600k	pingpong:cpus=12	' "$OUT"
check "stderr says how many runs" grep -q '92 runs' "$ERR"
cp "$OUT" "$TMP/j2"
expect 0 "battery, one thread" $small -j 1 -f tsv
check "the same bytes on one thread and two" cmp -s "$OUT" "$TMP/j2"
expect 0 "battery, table" $small -j 2
check "tables are titled platform and variant" \
	sh -c "grep -q '^# rk3588 fio:device=nvme,lat_us=48,irq_remote_pct=85,irq_work_ns=3000$' '$OUT' && grep -q '^# i5-10600k video$' '$OUT'"
check "pingpong rows have the us_per_loop column" grep -q 'us_per_loop' "$OUT"
if "$IDLELAB" run -g menu -p rk3588 -s idle --time 1ms -f json >/dev/null 2>&1; then
	expect 0 "battery -o FILE.json" "$IDLELAB" battery -g teo -p rk3588 --time 20ms --iter 2 -o "$TMP/b.json"
	check "json: the settings table" grep -q '"battery"' "$TMP/b.json"
	check "json: a table per variant" grep -q '"rk3588 fio:device=mmcblk,[^"]*"' "$TMP/b.json"
	check "json: iterations 0 and 1" grep -q '"iter": 1' "$TMP/b.json"
	check "json: a summary per variant" grep -q '"rk3588 video summary": \[' "$TMP/b.json"
	expect 0 "report reads a battery with summaries" "$IDLELAB" report "$TMP/b.json" -o "$TMP/b-report"
else
	skip "battery -o FILE.json" "built without jansson"
fi
if command -v python3 >/dev/null; then
	expect 0 "battery --iter 2 -f csv" "$IDLELAB" battery --iter 2 -p rk3588 --time 200ms -g menu-6.16,menu-6.17 -f csv
	check "battery csv: one table, 23 x 2 x 2 iteration rows, summary rows agree with them" \
		python3 "$TESTS_DIR/summary-check.py" "$OUT" --keys platform,scenario,device --gov gov --n 2 \
		--baseline menu-6.16 --test paired --iters 92
	expect 0 "battery --iter 2 --baseline menu-6.17 -f tsv" "$IDLELAB" battery --iter 2 -p rk3588 --time 200ms \
		-g menu-6.16,menu-6.17 -f tsv --baseline menu-6.17
	check "battery tsv --baseline: deltas against menu-6.17" \
		python3 "$TESTS_DIR/summary-check.py" "$OUT" --keys platform,scenario,device --gov gov --n 2 \
		--baseline menu-6.17 --test paired --sep tab
else
	skip "battery csv in python" "no python3"
fi
expect 0 "battery --iter 2: a summary after each table" $small --iter 2 -j 2
check "summary titled after its table" grep -q '^# rk3588 video summary (± and' "$OUT"
expect 0 "battery --iter 1: no summary" $small -j 2
check "battery --iter 1: no summary table" sh -c "! grep -q ' summary' '$OUT'"
expect 2 "battery: --baseline not among -g" "$IDLELAB" battery -g menu,teo --baseline ladder --time 1ms

expect 2 "battery: unknown governor" "$IDLELAB" battery -g nosuch --time 1ms
expect 2 "battery: unknown platform" "$IDLELAB" battery -p nosuch --time 1ms
expect 2 "battery: bad --jobs" "$IDLELAB" battery -j 0
expect 2 "battery: bad --time" "$IDLELAB" battery --time soon
expect 2 "battery: bad format" "$IDLELAB" battery -f xml
expect 1 "battery: unwritable output" "$IDLELAB" battery -g teo -p rk3588 --time 1ms -o /nonexistent/dir/b.json
expect 0 "battery --help" "$IDLELAB" battery --help
check "battery --help names -o and --jobs" sh -c "grep -q -- '--output' '$OUT' && grep -q -- '--jobs' '$OUT'"

# ---- --ensemble: each seed under E model variants, the same for every governor --------------
expect 0 "battery --ensemble 2" "$IDLELAB" battery -g menu-5,teo-6.14 -p rk3588 --time 100ms --ensemble 2 -f csv
cp "$OUT" "$TMP/ens.csv"
check "two rows (iter 0, 1) per governor and case" python3 -c "
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r['row'] == 'iter']
cases = {(r['scenario'], r['gov']) for r in rows}
assert all(sorted(r['iter'] for r in rows if (r['scenario'], r['gov']) == c) == ['0', '1'] for c in cases)
pp = [r for r in rows if r['scenario'] == 'pingpong:cpus=2' and r['gov'] == 'menu-5']
assert pp[0]['us_per_loop'] != pp[1]['us_per_loop'], pp  # overhead_ns differs between the variants
" "$TMP/ens.csv"
expect 0 "battery --ensemble 2 again" "$IDLELAB" battery -g menu-5,teo-6.14 -p rk3588 --time 100ms --ensemble 2 -f csv
check "the variants are the same in every run" cmp -s "$OUT" "$TMP/ens.csv"
expect 0 "compare --ensemble 3 --iter 2" "$IDLELAB" compare -g menu-6.16,menu-6.17 -p i5-10600k -s pingpong:cpus=2 \
	--iter 2 --ensemble 3 --time 100ms -f csv
check "compare: 6 rows per governor (2 seeds x 3 variants) and a summary of n 6" python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
it = [r for r in rows if r['row'] == 'iter' and r['gov'] == 'menu-6.17']
assert [r['iter'] for r in it] == [str(k) for k in range(6)], it
assert any(r['row'] == 'summary' and r.get('n') == '6' for r in rows)
" "$OUT"
expect 0 "compare --ensemble 3 --iter 2, a table" "$IDLELAB" compare -g menu-6.16,menu-6.17 -p i5-10600k \
	-s pingpong:cpus=2 --iter 2 --ensemble 3 --time 100ms
check "the summary says how its intervals combine the seeds and the model variants" \
	grep -q "under an ensemble of 3 model variants (iter k: variant k % 3), intervals the envelope of the variants' own, paired by seed, and p the largest of theirs" "$OUT"
sed '/uncertain:/d' "$(dirname "$0")/../../platforms/rk3588.plat" >"$TMP/certain.plat"
# wakeup runs no background by default: its bg_rate_pct is out of play (background=0)
expect 0 "compare --ensemble on a platform and scenario without uncertain numbers" \
	"$IDLELAB" compare -g menu-5 -p "$TMP/certain.plat" -s wakeup --ensemble 2 --time 100ms
check "it says so" grep -q "declares no uncertain parameter: the nominal model runs, on 2 seeds" "$ERR"
# ... on distinct seeds: two runs of one seed under the one model would be one run counted twice,
# and the summary's interval too narrow
expect 0 "compare --ensemble 2 --iter 3 where nothing is uncertain" \
	"$IDLELAB" compare -g menu-5,teo-6.14 -p "$TMP/certain.plat" -s wakeup --ensemble 2 --iter 3 \
	--time 100ms -f csv
grep ',iter,' "$OUT" | cut -d, -f5 --complement | sort >"$TMP/nominal-ens.csv"
grep ',summary,' "$OUT" >"$TMP/nominal-ens-sum.csv"
check "it runs 6 seeds" grep -q "the nominal model runs, on 6 seeds" "$ERR"
expect 0 "compare --iter 6, no ensemble" "$IDLELAB" compare -g menu-5,teo-6.14 -p "$TMP/certain.plat" \
	-s wakeup --iter 6 --time 100ms -f csv
check "the runs of --iter 6: seeds 1 to 6, none twice" \
	sh -c "grep ',iter,' '$OUT' | cut -d, -f5 --complement | sort | cmp -s - '$TMP/nominal-ens.csv'"
check "and its summary is theirs: one interval over the 6 seeds, no envelope" \
	sh -c "test -s '$TMP/nominal-ens-sum.csv' && grep ',summary,' '$OUT' | cmp -s - '$TMP/nominal-ens-sum.csv'"
# pseries declares power numbers only, which change no simulation: its 12 rows are 12 seeds
expect 0 "compare --ensemble 4 --iter 3 on pseries (power numbers only)" "$IDLELAB" compare -g menu-5 \
	-p pseries -s wakeup:mode=timer,interval_us=120 --ensemble 4 --iter 3 --time 100ms -f csv
cp "$OUT" "$TMP/power-ens.csv"
expect 0 "compare --iter 12 on pseries, no ensemble" "$IDLELAB" compare -g menu-5 -p pseries \
	-s wakeup:mode=timer,interval_us=120 --iter 12 --time 100ms -f csv
check "pseries: the rows' idle periods are those of seeds 1 to 12, their energy the variants'" python3 -c "
import csv, sys
ens, nom = ([r for r in csv.DictReader(open(f)) if r['row'] == 'iter'] for f in sys.argv[1:])
col = lambda rows, c: sorted(r[c] for r in rows)
assert col(ens, 'idles') == col(nom, 'idles'), (col(ens, 'idles'), col(nom, 'idles'))
assert col(ens, 'joules') != col(nom, 'joules')
" "$TMP/power-ens.csv" "$OUT"
expect 0 "battery --ensemble 2 on a platform without uncertain numbers" "$IDLELAB" battery -g menu-5 \
	-p "$TMP/certain.plat" --time 20ms --ensemble 2 -f csv
grep '^rk3588,wakeup:mode=pipe,iter,' "$OUT" >"$TMP/bnominal-ens.csv"
check "battery: the nominal cases say so once each" \
	test "$(grep -c 'with wakeup:mode=pipe declares no uncertain parameter: the nominal model runs, on 2 seeds' "$ERR")" -eq 1
expect 0 "battery --iter 2 on it, no ensemble" "$IDLELAB" battery -g menu-5 -p "$TMP/certain.plat" \
	--time 20ms --iter 2 -f csv
check "battery: those cases' rows are the rows of --iter 2" \
	sh -c "test -s '$TMP/bnominal-ens.csv' && grep '^rk3588,wakeup:mode=pipe,iter,' '$OUT' | cmp -s - '$TMP/bnominal-ens.csv'"
expect 0 "compare --ensemble with the background on: its rate is varied" \
	"$IDLELAB" compare -g menu-5 -p "$TMP/certain.plat" -s wakeup:background=1 --ensemble 2 \
	--time 100ms
check "it does not say so" sh -c "! grep -q 'declares no uncertain parameter' '$ERR'"
expect 2 "compare --ensemble 1" "$IDLELAB" compare -g menu-5 -p rk3588 -s idle --ensemble 1
expect 2 "run --ensemble: an option of compare" "$IDLELAB" run -g menu-5 -p rk3588 -s idle --ensemble 2

finish
