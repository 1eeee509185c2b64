#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# scripts/gov-judge.py --verdict (docs/governor.md 4.2): issue 14's goals from two verdict
# CSVs, the robust calls counted as losses and the `sensitive` ones apart.
. "$(dirname "$0")/lib.sh"

GJ=$TOP/scripts/gov-judge.py
need_cmd python3 "gov-judge" "no python3"

head='platform,scenario,metric,metric_key,verdict,delta_pct,diff'
# Two cells. idle: energy worse than menu-7.1 by 2.5 %. consume: score sensitive against
# teo-7.1, idle_misses worse than teo-7.1, energy sensitive against teo-7.1.
cat >"$TMP/teo.csv" <<CSV
$head
p1,idle,wakeups_per_s,score,same,0.1,0.1
p1,idle,idle_misses,idle_misses,same,0,0
p1,idle,uj_per_wakeup,energy,same,0.2,0.2
p1,consume,late_us,score,sensitive,3.0,3
p1,consume,idle_misses,idle_misses,worse,40,4
p1,consume,uj_per_work,energy,sensitive,1.5,1
CSV
cat >"$TMP/menu.csv" <<CSV
$head
p1,idle,wakeups_per_s,score,same,0.1,0.1
p1,idle,idle_misses,idle_misses,same,0,0
p1,idle,uj_per_wakeup,energy,worse,2.5,2
p1,consume,late_us,score,same,0.5,0.5
p1,consume,idle_misses,idle_misses,same,0,0
p1,consume,uj_per_work,energy,same,-1.0,-1
CSV

expect 0 "gov-judge reads two verdict CSVs" python3 "$GJ" --verdict "$TMP/teo.csv" "$TMP/menu.csv"
check "the robust losses" grep -q 'cells 2 (variants all): score worse than either 0; idle_misses worse than teo-7.1 1; energy/work worse than either 1 (50.0 % of cells at or below min), of them > 2 %: 1' "$OUT"
check "the sensitive cells apart, and the cells at or below min whatever the ranges" \
	grep -q 'sensitive (the sign rests on the model.s ranges): score 1, idle_misses against teo-7.1 0, energy/work 1 (0.0 % of cells' "$OUT"

sed 's/sensitive/same/' "$TMP/teo.csv" >"$TMP/teo-nominal.csv"
expect 0 "gov-judge on nominal calls" python3 "$GJ" --verdict "$TMP/teo-nominal.csv" "$TMP/menu.csv"
check "no sensitive count without sensitive calls" sh -c "! grep -q sensitive '$OUT'"

expect 0 "gov-judge --md" python3 "$GJ" --verdict "$TMP/teo.csv" "$TMP/menu.csv" --md
check "the table marks the sensitive call" grep -q '^| p1 | consume | late_us | +3.00 % \*\*sensitive\*\* |' "$OUT"

finish
