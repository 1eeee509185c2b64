#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `idlelab verdict`: the Done-when case (menu-5 better than menu-4 in fio iops on rk3588 and
# rk3399), the A/A honesty test (identical code under two names, and one preset against
# itself, --unpaired on the whole battery on every platform: no better/worse cell; paired
# by seed: identical runs), the same bytes for any -j and through --emit-jobs + merge,
# the n/a cells, --iter 1, --fail-on, the formats, and the bad inputs.
. "$(dirname "$0")/lib.sh"

# ---- docs/verdict.md: every verdict cell row of an example sits under its table's header -------
# (a row once strayed under the 6.17 run's summary line, where no table was)
cat >"$TMP/rows.pl" <<'EOF2'
my ($in, $hdr, $bad) = (0, 0, 0);
while (<>) {
	if (/^```/) { $in = !$in; $hdr = 0; next }
	next unless $in;
	$hdr = 1 if /^gov\s+platform\s/;
	if (!$hdr && /^\S+\s{2,}\S+\s{2,}\S+.*\s(better|worse|same|n\/a)\s/) { print "# $ARGV:$.: stray row\n"; $bad = 1 }
}
exit $bad;
EOF2
expect 0 "docs/verdict.md: no cell row outside a table" perl "$TMP/rows.pl" "$TOP/docs/verdict.md"
printf '```\n$ idlelab verdict\nsummary line\nmenu-6.17  pseries  wakeup  aboves  0.0  1.0  +1  0.0079  worse    -\n```\n' >"$TMP/stray.md"
expect 1 "... and a stray row is caught" perl "$TMP/rows.pl" "$TMP/stray.md"

# ---- Done when: menu-5 better than menu-4 in iops on both devices, with intervals ----------
expect 0 "verdict menu-4,menu-5 on rk3588,rk3399, fio nvme and sda, 5 seeds" \
	"$IDLELAB" verdict -g menu-4,menu-5 -p rk3588,rk3399 -s fio:device=nvme -s fio:device=sda --iter 5
cp "$OUT" "$TMP/done.txt"
sed 's/^/# /' "$TMP/done.txt" | grep -E ' iops |vs menu-4'
for p in rk3588 rk3399; do
	check "menu-5 better in iops on $p sda, with a CI" \
		grep -Eq "^menu-5 +$p +fio:device=sda +iops +[0-9.]+ +[0-9.]+ +\+[0-9.]+ % \[\+[0-9.]+, \+[0-9.]+\] +0\.0[0-4][0-9]* +better" \
		"$TMP/done.txt"
	# nvme's gain (+2.6 %, +5.0 %) shrinks within the 1 % minimum at the upper end of the
	# background's rate (bg_rate_pct, docs/verdict.md "The background's rate"): called under
	# the nominal model, sensitive to that one number
	check "menu-5 faster in iops on $p nvme, sensitive to the background's rate" \
		grep -Eq "^menu-5 +$p +fio:device=nvme +iops +[0-9.]+ +[0-9.]+ +\+[0-9.]+ % \[[-+][0-9.]+, \+[0-9.]+\] +0\.0[0-4][0-9]* +sensitive +flips with fio\.bg_rate_pct$" \
		"$TMP/done.txt"
done
check "the summary line names the design, the ensemble and the four classes" \
	grep -q '^menu-5 vs menu-4 on 2 platforms × 2 scenarios, 5 seeds, ensemble of [0-9]* model variants (pairs screened in: [0-9]*, scanned: [0-9]*): worse in [0-9]* cells*.*better in [0-9]*.*sensitive in [0-9]*.*same in [0-9]*' \
	"$TMP/done.txt"
check "the energy cells on rk3588's assumed power numbers say so" \
	grep -Eq '^menu-5 +rk3588 +fio:device=nvme +uj_per_request .*rests on assumed power numbers' "$TMP/done.txt"
check "the table is worst first: no better cell above a same, sensitive or worse one" awk '
	/^menu-5 / && !/ vs / { for (i = 9; i <= NF; i++) if ($i ~ /^(worse|sensitive|same|better|n\/a)$/) { v = $i; break }
		     r = v == "worse" ? 0 : v == "sensitive" ? 1 : v == "same" ? 2 : v == "better" ? 3 : 4
		     if (r < last) bad = 1; last = r }
	END { exit bad }' "$TMP/done.txt"

# ---- the parameters that flip a cell are listed whole (they were once cut at 128 bytes) -----
# Doug's ping-pong energy cell flips with seven parameters (170 bytes of names).
expect 0 "verdict menu-6.16,menu-6.17 on the i5's ping-pong, energy, as tsv" \
	"$IDLELAB" verdict -g menu-6.16,menu-6.17 -p i5-10600k -s pingpong:cpus=2 --iter 5 \
	--time 500ms -m energy -f tsv
check "every flipping parameter is named whole, the background's rate the last" awk -F'\t' '
	$1 == "menu-6.17" { n = split($NF, p, ", "); if (n > 0) seen = 1
		for (i = 1; i <= n; i++) if (p[i] !~ /^(i5-10600k:([A-Za-z0-9_]+\.)?[a-z_]+|pingpong\.[a-z_]+)$/) bad = 1
		if (p[n] != "pingpong.bg_rate_pct") bad = 1 }
	END { exit !seen || bad }' "$OUT"

# ---- A/A: identical code gives no better/worse cell ------------------------------------------
# Every platform in the plain pass; under the sanitizers (make SANITIZE=1 check) two, which
# still run every line of the verdict's code (the statistics are the plain pass's to judge).
AA_PLAT=all
[ "${IDLELAB_SANITIZED:-0}" = 1 ] && AA_PLAT=rk3588,i5-10600k
t0=$(date +%s)
expect 0 "A/A --unpaired: menu-5 vs menu-6.15 and menu-5 vs itself, battery, $AA_PLAT platforms" \
	"$IDLELAB" verdict --unpaired -g menu-5,menu-6.15,menu-5 -p $AA_PLAT --battery --time 500ms -f csv
cp "$OUT" "$TMP/aa-menu.csv"
if [ "$AA_PLAT" = all ]; then
	NPLAT=$("$IDLELAB" platforms | tail -n +2 | wc -l)
else
	NPLAT=2
fi
NSCN=$("$IDLELAB" battery --list | wc -l)
check "A/A menu: every cell of both governors judged (2 x $NPLAT platforms x $NSCN scenarios x 8 metrics)" \
	test "$(tail -n +2 "$TMP/aa-menu.csv" | wc -l)" -eq $((2 * NPLAT * NSCN * 8))
check "A/A menu: no better or worse cell" sh -c "! grep -Eq ',(better|worse),' '$TMP/aa-menu.csv'"
check "A/A menu: the runs differ (it is a test): most score cells moved" python3 -c "
import csv, sys
score = [r for r in csv.DictReader(open(sys.argv[1])) if r['metric_key'] == 'score']
rows = [r for r in score if r['verdict'] != 'n/a']
assert len(score) == 2 * int(sys.argv[2]) * int(sys.argv[3])
assert len(rows) > len(score) * 3 // 4 and sum(r['delta_pct'] not in ('0.000', '-') for r in rows) > len(rows) // 2
" "$TMP/aa-menu.csv" "$NPLAT" "$NSCN"
expect 0 "A/A --unpaired: teo-6.14 vs teo-6.17, battery, $AA_PLAT platforms" \
	"$IDLELAB" verdict --unpaired -g teo-6.14,teo-6.17 -p $AA_PLAT --battery --time 500ms -f csv
check "A/A teo: no better or worse cell" sh -c "! grep -Eq ',(better|worse),' '$OUT'"
echo "# A/A (3 unpaired families, $NPLAT x $NSCN cases x 8 metrics each, 500 ms runs): $(($(date +%s) - t0)) s wall"

expect 0 "paired by seed: a preset against itself" \
	"$IDLELAB" verdict -g menu,menu -p rk3588,i5-10600k --battery --time 200ms -f csv
check "paired A/A: every difference exactly 0, every cell same or n/a" python3 -c "
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r['verdict'] == 'n/a':
        continue
    assert float(r['diff']) == 0 and r['delta_pct'] in ('0.000', '-') and r['verdict'] == 'same', r
" "$OUT"
check "paired A/A: n/a only where the scenario needs more CPUs (pingpong:cpus=12 on rk3588)" \
	sh -c "test \$(grep -c ',n/a,' '$OUT') -eq 8 && ! grep ',n/a,' '$OUT' | grep -vq 'needs 12 CPUs, rk3588 has 8'"

# ---- the same bytes for any -j, through --emit-jobs and merge -----------------------------------
small="-g menu-4,menu-5 -p rk3588,haltpoll-vm -s fio:device=nvme -s pingpong:cpus=6 --iter 4 --time 300ms --ensemble 0"
expect 0 "verdict -j 1" "$IDLELAB" verdict $small -j 1 -o "$TMP/j1.txt"
expect 0 "verdict -j 2" "$IDLELAB" verdict $small -j 2 -o "$TMP/j2.txt"
check "the same bytes on one thread and two" cmp -s "$TMP/j1.txt" "$TMP/j2.txt"
check "-o: no temporary file left" test ! -e "$TMP/j1.txt.tmp"
check "n/a with the reason where the scenario needs more CPUs" \
	grep -Eq '^menu-5 +haltpoll-vm +pingpong:cpus=6 +us_per_loop .* n/a +needs 6 CPUs, haltpoll-vm has 2' "$TMP/j1.txt"
expect 0 "verdict -f json, -j 2" "$IDLELAB" verdict $small -j 2 -f json -o "$TMP/local.json"
mkdir "$TMP/cases"
expect 0 "verdict --emit-jobs" "$IDLELAB" verdict $small -f json --emit-jobs "$TMP/cases/jobs.txt"
check "one command line per run that is not n/a (2 x 2 x 2 x 4 - 8)" test "$(wc -l <"$TMP/cases/jobs.txt")" -eq 24
check "the lines are self-contained verdict --case commands" \
	grep -q -- "^\${IDLELAB:-idlelab} verdict -g menu-4,menu-5 -p rk3588,haltpoll-vm .* --case 23 -o $TMP/cases/case-000023.csv\$" \
	"$TMP/cases/jobs.txt"
expect 0 "the command lines run" env IDLELAB="$IDLELAB" sh "$TMP/cases/jobs.txt"
expect 0 "merge the case files" sh -c "'$IDLELAB' merge '$TMP'/cases/case-*.csv -o '$TMP/merged.json'"
check "merged: the same bytes as the local verdict" cmp -s "$TMP/local.json" "$TMP/merged.json"
expect 0 "merge in reverse order, to stdout" sh -c "ls '$TMP'/cases/case-*.csv | sort -r | xargs '$IDLELAB' merge"
check "reverse order: the same bytes" cmp -s "$TMP/local.json" "$OUT"
rm "$TMP/cases/case-000023.csv"
expect 1 "merge: a case missing" sh -c "'$IDLELAB' merge '$TMP'/cases/case-*.csv -o '$TMP/partial.json'"
check "the message names the missing case" grep -q 'case 23 (menu-5 on haltpoll-vm, fio:device=nvme, seed 4) is missing' "$ERR"
check "merge: nothing written on error" test ! -e "$TMP/partial.json"
expect 1 "merge: a case twice" "$IDLELAB" merge "$TMP/cases/case-000001.csv" "$TMP/cases/case-000001.csv"
expect 0 "a case by hand" "$IDLELAB" verdict $small -f json --case 3 -o "$TMP/c3.csv"
check "its file is that of the command line" cmp -s "$TMP/c3.csv" "$TMP/cases/case-000003.csv"
expect 2 "--case of an n/a run" "$IDLELAB" verdict $small --case 31 -o "$TMP/c31.csv"
check "--ensemble 0: the summary line says the model is the nominal one" \
	grep -q 'menu-5 vs menu-4 on 2 platforms × 2 scenarios, 4 seeds, nominal model only (--ensemble 0): ' "$TMP/j1.txt"

# ---- the background's burst share is an uncertain number (docs/lab.md "The burst share gets a
# range"): teo-6.14's too-shallow periods on the idle i5-10600K rest on it -----------------------
expect 0 "verdict of teo-6.14 against menu-6.13 on the idle i5-10600k" \
	"$IDLELAB" verdict -g menu-6.13,teo-6.14 -p i5-10600k -s idle --iter 5 --time 10s
check "its belows cell is sensitive and names idle.burst_pct" \
	grep -Eq "^teo-6.14 +i5-10600k +idle +belows .* sensitive +flips with idle\.burst_pct$" "$OUT"
expect 0 "scenarios -v" "$IDLELAB" scenarios -v
check "bg_burst_pct shows its class and range" \
	sh -c "grep -A2 '^    bg_burst_pct ' '$OUT' | grep -q 'class: assumed, range 0..30'"
check "bg_irq_hz and bg_pair_pct show theirs (the guest's idle trace)" \
	sh -c "grep -A2 '^    bg_irq_hz ' '$OUT' | grep -q 'class: assumed, range 0.35x..1.65x' &&
	       grep -A2 '^    bg_pair_pct ' '$OUT' | grep -q 'class: assumed, range 0..10'"

# ---- the ensemble through --emit-jobs and merge: a job names its model variant ------------------
ens="-g menu-6.16,menu-6.17 -p i5-10600k -s pingpong:cpus=2 --iter 3 --time 300ms --ensemble 2 -m score,energy"
expect 0 "verdict with an ensemble of 2, json" "$IDLELAB" verdict $ens -f json -o "$TMP/ens-local.json"
mkdir "$TMP/ens"
expect 0 "--emit-jobs with the ensemble" "$IDLELAB" verdict $ens -f json --emit-jobs "$TMP/ens/jobs.txt"
# i5-10600k pingpong: 8 power numbers (their range ends are computed, not run) and
# overhead_ns, overhead_sigma, bg_rate_pct, bg_irq_hz: variants 0, 2 of the hypercube, 4 x 2
# ends, and the low ends of bg_burst_pct and bg_pair_pct (their high ends, 30 and 10, are the
# nominal model's: not run twice) = 13, x 2 x 3
check "one line per governor, seed and run variant (13 x 2 x 3)" test "$(wc -l <"$TMP/ens/jobs.txt")" -eq 78
check "the lines carry --ensemble" grep -q -- '--ensemble 2 -m score,energy -f json --case' "$TMP/ens/jobs.txt"
expect 0 "the ensemble's command lines run" env IDLELAB="$IDLELAB" sh "$TMP/ens/jobs.txt"
check "a case file names its variant" sh -c "head -1 '$TMP/ens/case-000006.csv' | grep -q ',seed,variant,' && \
	sed -n 2p '$TMP/ens/case-000006.csv' | grep -q ',1,1,[0-9]'"
expect 0 "merge the ensemble's case files" sh -c "'$IDLELAB' merge '$TMP'/ens/case-*.csv -o '$TMP/ens-merged.json'"
check "merged ensemble: the same bytes as the local verdict" cmp -s "$TMP/ens-local.json" "$TMP/ens-merged.json"
if python3 -c 'import json' 2>/dev/null; then
	check "json: the ensemble in the settings, the variants and model spread per cell" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
kv = {r['key']: r['value'] for r in d['verdict']}
assert kv['ensemble'].startswith('2-member Latin hypercube'), kv
for c in d['verdict_cells']:
    assert c['variants'] in (1, 3, 25), c
    assert c['ci_lo_pct'] <= c['model_lo_pct'] <= c['delta_pct'] <= c['model_hi_pct'] <= c['ci_hi_pct'], c
assert 'sensitive' in d['verdict_summary'][0]
" "$TMP/ens-local.json"
else
	skip "json ensemble checks" "python3 is not installed"
fi

# ---- --ensemble on a platform that declares no uncertain number -----------------------------------
sed '/uncertain:/d' "$(dirname "$0")/../../platforms/rk3588.plat" >"$TMP/certain.plat"
expect 0 "--ensemble with a platform and scenario without uncertain numbers" \
	"$IDLELAB" verdict -g menu-4,menu-5 -p "$TMP/certain.plat" -s wakeup --time 300ms -m score
check "it says so and runs the nominal model" \
	grep -q "declares no uncertain parameter: its cells run the nominal model" "$ERR"
check "... and so does the summary line, beside the ensemble's size" \
	grep -q "ensemble of 6 model variants (pairs screened in: 0, scanned: 0; no pair declares an uncertain number: the nominal model)" "$OUT"
expect 0 "--ensemble where the platform declares uncertain numbers" \
	"$IDLELAB" verdict -g menu-4,menu-5 -p rk3588 -s wakeup --time 300ms -m score
check "the summary line does not say the nominal model" sh -c "! grep -q 'no pair declares' '$OUT'"
expect 0 "--ensemble 0" "$IDLELAB" verdict -g menu-4,menu-5 -p rk3588 -s idle --time 300ms -m score --ensemble 0
check "--ensemble 0 says so" grep -q -- "--ensemble 0: the nominal model only" "$ERR"
expect 2 "--ensemble 1: no ensemble of one" "$IDLELAB" verdict -g menu-4,menu-5 -p rk3588 -s idle --ensemble 1
expect 2 "--ensemble beyond the most" "$IDLELAB" verdict -g menu-4,menu-5 -p rk3588 -s idle --ensemble 65
expect 2 "--ensemble not a number" "$IDLELAB" verdict -g menu-4,menu-5 -p rk3588 -s idle --ensemble many

if python3 -c 'import json' 2>/dev/null; then
	check "json: settings, long cells and summary" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert set(d) == {'verdict', 'verdict_cells', 'verdict_summary'}, d.keys()
cells = d['verdict_cells']
assert len(cells) == 32 and all(c['baseline'] == 'menu-4' for c in cells)
iops = [c for c in cells if c['metric'] == 'iops' and c['platform'] == 'rk3588'][0]
assert iops['ci_lo_pct'] <= iops['delta_pct'] <= iops['ci_hi_pct'] and iops['design'] == 'paired'
assert d['verdict_summary'][0]['line'].startswith('menu-5 vs menu-4 on 2 platforms')
" "$TMP/local.json"
	expect 0 "verdict -f csv" "$IDLELAB" verdict $small -f csv
	check "csv: one header and rows of equal length" python3 -c "
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0][:5] == ['gov', 'baseline', 'platform', 'scenario', 'metric'], rows[0]
assert len(rows) == 33 and all(len(r) == len(rows[0]) for r in rows)
" "$OUT"
	check "csv: the summary line on stderr" grep -q '^idlelab verdict: menu-5 vs menu-4 on 2 platforms' "$ERR"
else
	skip "json and csv checks" "python3 is not installed"
fi

# ---- the report's heat maps -------------------------------------------------------------------------
expect 0 "report of a verdict JSON" "$IDLELAB" report "$TMP/local.json" -o "$TMP/rep"
check "the input is a verdict" grep -q '<td>local.json</td><td>verdict</td>' "$TMP/rep/index.html"
check "the page has the heat-map section" grep -q '<section id="verdict">' "$TMP/rep/index.html"
check "a heat map per metric: 8 for menu-5" test "$(grep -c '<svg ' "$TMP/rep/index.html")" -eq 8
check "a cell's tooltip has the change, its interval, p and the verdict" grep -Eq \
	'<title>rk3588 fio:device=nvme iops: [+-][0-9.]+ % \[[+-][0-9.]+, [+-][0-9.]+\], adjusted p 0\.[0-9]+, (better|same|worse)</title>' \
	"$TMP/rep/index.html"
check "n/a cells say why" grep -q '<title>haltpoll-vm pingpong:cpus=6 us_per_loop: n/a (needs 6 CPUs, haltpoll-vm has 2)</title>' \
	"$TMP/rep/index.html"
if command -v xmllint >/dev/null 2>&1; then
	check "the page is well-formed XML" xmllint --noout "$TMP/rep/index.html"
else
	skip "the page is well-formed XML" "xmllint is not installed"
fi

# ---- --iter 1, --fail-on --------------------------------------------------------------------------
expect 0 "--iter 1: means, no verdict" "$IDLELAB" verdict -g menu-4,menu-5 -p rk3588 -s fio:device=sda --iter 1
check "--iter 1: the message says why" grep -q 'no spread to measure a difference against; the means are printed, no verdict is claimed' "$ERR"
check "--iter 1: the means are printed, no cell called" sh -c \
	"grep -Eq '^menu-5 +rk3588 +fio:device=sda +iops +[0-9.]+ +[0-9.]+ +\+[0-9.]+ % +- +-' '$OUT' && ! grep -Eq ' (better|worse) ' '$OUT'"
expect 3 "--fail-on any: a better cell fails" "$IDLELAB" verdict -g menu-4,menu-5 -p rk3588 -s fio:device=sda \
	--time 1s --fail-on any -m score
expect 0 "--fail-on worse: only better cells pass" "$IDLELAB" verdict -g menu-4,menu-5 -p rk3588 -s fio:device=sda \
	--time 1s --fail-on worse -m score
expect 3 "--fail-on worse, --baseline: the other way round fails" "$IDLELAB" verdict -g menu-4,menu-5 \
	--baseline menu-5 -p rk3588 -s fio:device=sda --time 1s --fail-on worse -m score
check "--baseline: menu-4 judged against menu-5" grep -q '^menu-4 vs menu-5 ' "$OUT"

# ---- the battery's nohz_full rows call a change to the stopped-tick path -----------------------
# menu-7.1 keeps its recent-interval prediction with the tick stopped, menu-6.19 takes the next
# timer (docs/lab.md "Scenarios"): on the battery's nohz_full request/response row of the
# server platforms the transaction time is called better, in every one of them.
NOHZ=$("$IDLELAB" battery --list | awk '$1 ~ /nohz_full=/ { printf " -s %s", $1 }')
check "the battery has nohz_full rows" test -n "$NOHZ"
expect 0 "menu-6.19 -> menu-7.1 on the battery's nohz_full rows, spr, icx, skx" \
	"$IDLELAB" verdict -g menu-6.19,menu-7.1 -p spr,icx,skx $NOHZ -f csv
check "netrr:nohz_full=0-1 rtt_us better on spr, icx and skx" python3 -c "
import csv, sys
called = {r['platform'] for r in csv.DictReader(open(sys.argv[1]))
          if r['scenario'] == 'netrr:nohz_full=0-1' and r['metric'] == 'rtt_us'
          and r['verdict'] == 'better'}
assert called == {'spr', 'icx', 'skx'}, called
" "$OUT"
# The change's cost is allowed: trusting recent intervals with the tick stopped can leave a CPU
# in a shallow state longer (skx adrestia's too-shallow periods, 91 -> 1351 per run, p 0.048).
check "and no nohz_full score worse" python3 -c "
import csv, sys
worse = [(r['platform'], r['scenario']) for r in csv.DictReader(open(sys.argv[1]))
         if r['metric_key'] == 'score' and r['verdict'] == 'worse']
assert not worse, worse
" "$OUT"

# ---- bad input ------------------------------------------------------------------------------------
expect 2 "an unknown governor: a usage error, as in every command" "$IDLELAB" verdict -g menu-4,nosuch -p rk3588 -s idle -o "$TMP/bad.txt"
check "the message names it" grep -q "unknown governor 'nosuch'" "$ERR"
expect 2 "an unknown metric: a usage error" "$IDLELAB" verdict -g menu-4,menu-5 -p rk3588 -s idle -m score,nosuch -o "$TMP/bad.txt"
check "the message names it" grep -q "unknown metric 'nosuch'" "$ERR"
echo "not an object" >"$TMP/broken.so"
expect 1 "a file: object that does not load" "$IDLELAB" verdict -g menu-4,"file:$TMP/broken.so" -p rk3588 -s idle \
	-o "$TMP/bad.txt"
check "the message shows the path and dlerror()" grep -q "$TMP/broken.so: cannot load: .*$TMP/broken.so" "$ERR"
printf 'name = x\nthis is not a platform line\n' >"$TMP/broken.plat"
expect 1 "a platform file with errors" "$IDLELAB" verdict -g menu-4,menu-5 -p "$TMP/broken.plat" -s idle -o "$TMP/bad.txt"
check "the message names the file" grep -q "$TMP/broken.plat" "$ERR"
expect 2 "an unknown built-in platform: a usage error" "$IDLELAB" verdict -g menu-4,menu-5 -p nosuch -s idle -o "$TMP/bad.txt"
check "no output file after any error" test ! -e "$TMP/bad.txt" -a ! -e "$TMP/bad.txt.tmp"
expect 2 "no scenario" "$IDLELAB" verdict -g menu-4,menu-5 -p rk3588
expect 2 "one governor" "$IDLELAB" verdict -g menu-4 -p rk3588 -s idle
expect 2 "--alpha out of range" "$IDLELAB" verdict -g menu-4,menu-5 -p rk3588 -s idle --alpha 1.5
expect 2 "--fail-on nonsense" "$IDLELAB" verdict -g menu-4,menu-5 -p rk3588 -s idle --fail-on better
expect 2 "--baseline not among -g" "$IDLELAB" verdict -g menu-4,menu-5 -p rk3588 -s idle --baseline teo
expect 2 "an unknown scenario" "$IDLELAB" verdict -g menu-4,menu-5 -p rk3588 -s nosuch
expect 0 "help verdict" "$IDLELAB" help verdict
check "the help names the options" sh -c "grep -q -- '--min-effect' '$OUT' && grep -q -- '--emit-jobs' '$OUT'"

finish
