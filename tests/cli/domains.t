#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Per-CPU state tables and power domains (docs/platforms.md): a platform with two CPU groups
# and a cluster domain each runs in run, compare, replay and stats; OS-initiated domains
# refuse entries and the rejected counter shows them; states --export keeps every distinct
# table; bad topology lines name their file and line.
. "$(dirname "$0")/lib.sh"

P=$TESTS_DIR/data/two-clusters.plat
TRACE=$TOP/tests/fixtures/traces/two-clusters.trace

expect 0 "platforms shows the tables and domains" "$IDLELAB" platforms "$P"
check "table little with its CPUs" grep -q '^table little (CPUs 0-1):' "$OUT"
check "table big with its CPUs" grep -q '^table big (CPUs 2-3):' "$OUT"
check "the big table's own latency" grep -Eq '^ +1 cpu-off +- +200 +600 ' "$OUT"
check "an OS-initiated domain" grep -Eq '^little-cluster +0-1 +osi +cluster-off +2$' "$OUT"

# run: the OS-initiated clusters refuse entries; the lab counts them per state.
expect 0 "run on two CPU groups with domains" "$IDLELAB" run -g teo -p "$P" -s fio --time 1s
awk '/^# summary/{getline; for (i = 1; i <= NF; i++) if ($i == "rejected") c = i;
	getline; print $c; exit}' "$OUT" >"$TMP/rej"
check "the summary has a rejected column, not 0" test "$(cat "$TMP/rej")" -gt 0
# the states table's rejected column, by name (the metric catalogue places it)
rej_col() { awk -v st="$1" '/^# states/{getline; for (i = 1; i <= NF; i++) if ($i == "rejected") c = i; s = 1; next}
	s && $1 == st {print $c; exit}' "$OUT"; }
rej_col cluster-off >"$TMP/rej_state"
check "rejected entries are cluster-off's" test "$(cat "$TMP/rej_state")" = "$(cat "$TMP/rej")"
rej_col cpu-off >"$TMP/rej_cpu"
check "cpu-off (no domain state) is never refused" test "$(cat "$TMP/rej_cpu")" = 0
expect 0 "run is deterministic" "$IDLELAB" run -g teo -p "$P" -s fio --time 1s
awk '/^# summary/{getline; for (i = 1; i <= NF; i++) if ($i == "rejected") c = i;
	getline; print $c; exit}' "$OUT" >"$TMP/rej2"
check "the same rejected count again" test "$(cat "$TMP/rej2")" = "$(cat "$TMP/rej")"

expect 0 "compare on two CPU groups" "$IDLELAB" compare -g menu,teo -p "$P" -s fio --time 500ms -f tsv
check "compare has the rejected column" sh -c "head -n 1 '$OUT' | tr '\t' '\n' | grep -qx rejected"
check "a row per governor" test "$(tail -n +2 "$OUT" | wc -l)" -eq 2

# Platform-coordinated domains never refuse: rejected is 0 (rk3399 has two).
expect 0 "run on rk3399 (platform-coordinated clusters)" "$IDLELAB" run -g menu -p rk3399 -s fio --time 500ms -f tsv
check "rejected 0 without an OS-initiated domain" sh -c "awk -F'\t' 'NR == 1 {for (i = 1; i <= NF; i++) if (\$i == \"rejected\") c = i} NR == 2 {print \$c}' '$OUT' | grep -qx 0"
expect 0 "platforms rk3399 shows its cluster domains" "$IDLELAB" platforms rk3399
check "cluster0 is CPUs 0-3, platform-coordinated" grep -Eq '^cluster0 +0-3 +pc +cluster-sleep' "$OUT"

# CPUs beyond the file's repeat its CPUs' tables (CPU 4 is CPU 0's), in no domain.
expect 0 "a run on more CPUs than the platform has" "$IDLELAB" run -g menu -p "$P" -s fio:cpus=8 --time 100ms

# stats: above/below of each CPU from its own table (700 us in cpu-off is above the little
# table's 800 us residency, not the big table's 600 us; 2500 us in cluster-off is above the
# big table's 3000 us, not the little's 2000 us).
expect 0 "stats with per-CPU tables" "$IDLELAB" stats "$TRACE" -p "$P" -f tsv
awk -F '\t' '$1 == "0" && $3 == "cpu-off" && NF == 14 {print $9}' "$OUT" >"$TMP/a"
check "cpu0 cpu-off: 5 above (little table)" test "$(cat "$TMP/a")" = 5
awk -F '\t' '$1 == "2" && $3 == "cpu-off" && NF == 14 {print $9}' "$OUT" >"$TMP/a"
check "cpu2 cpu-off: 0 above (big table)" test "$(cat "$TMP/a")" = 0
awk -F '\t' '$1 == "2" && $3 == "cluster-off" && NF == 14 {print $9}' "$OUT" >"$TMP/a"
check "cpu2 cluster-off: 5 above (big table)" test "$(cat "$TMP/a")" = 5

expect 0 "replay with per-CPU tables" "$IDLELAB" replay "$TRACE" -g menu,teo -p "$P" -f tsv
check "replay says the tables are per CPU" grep -q "^tables	per CPU" "$OUT"
check "every period replayed" grep -q "^periods	30$" "$OUT"
check "no period without a table" grep -q "^periods_of_cpus_without_table	0$" "$OUT"

# --perfetto and --bound with per-CPU tables: each CPU's slices, misses, power and frontier
# come from its own table (cpu2's 2500 us in cluster-off is above the big table's 3000 us;
# the big table's WFI draws 150 mW, the little one's 100 mW).
expect 0 "replay --perfetto with per-CPU tables" "$IDLELAB" replay "$TRACE" -g menu -p "$P" \
	--perfetto "$TMP/tl.json"
if command -v python3 >/dev/null 2>&1; then
	check "... cpu2's recorded misses and power are the big table's" python3 -c "
import json
ev = json.load(open('$TMP/tl.json'))['traceEvents']
def on(tid): return [e for e in ev if e.get('tid') == tid]
miss = lambda tid: sorted(e['args']['state'] for e in on(tid) if e.get('name') == 'miss above')
power = lambda tid: {e['args']['mW'] for e in on(tid) if e.get('ph') == 'C'}
assert miss(100002) == ['cluster-off'] * 5, miss(100002)  # process 1 (recorded), CPU 2
assert miss(100000) == ['cpu-off'] * 5, miss(100000)      # CPU 0: the little table
assert 150.0 in power(100002) and 100.0 not in power(100002), power(100002)
assert 100.0 in power(100000) and 150.0 not in power(100000), power(100000)
"
	expect 0 "run --perfetto with per-CPU tables" "$IDLELAB" run -g menu -p "$P" -s fio \
		--time 100ms --perfetto "$TMP/run.json"
	check "... each CPU's power from its own table (and 400 mW busy)" python3 -c "
import json
ev = json.load(open('$TMP/run.json'))['traceEvents']
little, big = {100.0, 20.0, 5.0, 400.0}, {150.0, 30.0, 5.0, 400.0}
seen = {id(little): set(), id(big): set()}
for cpu, table in ((0, little), (1, little), (2, big), (3, big)):
    pw = {e['args']['mW'] for e in ev if e.get('ph') == 'C' and e['name'] == 'CPU %d power' % cpu}
    assert pw and pw <= table, (cpu, pw)
    seen[id(table)] |= pw - {5.0, 400.0}  # what only that table has
assert all(seen.values()), seen
"
else
	skip "the timelines read" "no python3"
fi
# The same platform with the big table's powers doubled: the same periods (powers steer no
# governor), so only the big CPUs' energy changes, in the frontier and the governor's row.
awk '/^table big/ { big = 1 } big && /^state / { for (i = 1; i <= NF; i++) if ($i ~ /^power_uw=/) {
	split($i, kv, "="); $i = "power_uw=" 2 * kv[2] } } { print }' "$P" >"$TMP/big2.plat"
gap_mj() { awk '/^# gap to bound/ { getline; getline; print $3; exit }' "$1"; }
bound0_mj() { awk '$1 == "bound" && $2 == "0" { print $4; exit }' "$1"; }
expect 0 "run --bound with per-CPU tables" "$IDLELAB" run -g teo -p "$P" -s fio --time 200ms --bound
cp "$OUT" "$TMP/b1"
expect 0 "... and with the big table's powers doubled" "$IDLELAB" run -g teo -p "$TMP/big2.plat" \
	-s fio --time 200ms --bound
check "... the same periods" sh -c "grep -A3 '^# states' '$TMP/b1' | cut -c1-30 >'$TMP/s1'; grep -A3 '^# states' '$OUT' | cut -c1-30 | cmp -s - '$TMP/s1'"
check "... the governor's energy over the big CPUs' periods grows ($(gap_mj "$TMP/b1") -> $(gap_mj "$OUT") mJ)" \
	awk -v a="$(gap_mj "$TMP/b1")" -v b="$(gap_mj "$OUT")" 'BEGIN { exit !(b > a) }'
check "... and so does the energy-optimal bound ($(bound0_mj "$TMP/b1") -> $(bound0_mj "$OUT") mJ)" \
	awk -v a="$(bound0_mj "$TMP/b1")" -v b="$(bound0_mj "$OUT")" 'BEGIN { exit !(b > a) }'

# replay's frontier with per-CPU tables: each table's states disabled by its own flags. With
# the little table's cluster-off flagged off, the big CPUs may still use theirs (made cheap to
# enter, so that the energy-optimal choice wants it); it once took table 0's flags for all.
awk '/^table little/ { l = 1 } /^table big/ { l = 0 }
	{ sub(/entry_exit_energy_nj=147000/, "entry_exit_energy_nj=1000") }
	l && /^state cluster-off/ { sub(/flags=timer-stop/, "flags=timer-stop,off") } { print }' \
	"$P" >"$TMP/little-off.plat"
sed '/^state cluster-off/ s/flags=timer-stop /flags=timer-stop,off /' "$TMP/little-off.plat" \
	>"$TMP/both-off.plat"
replay_bound0() { awk -F, '$1 == "bound 0" { print $3 }' "$1"; }
expect 0 "replay with the little cluster-off off" "$IDLELAB" replay "$TRACE" -p "$TMP/little-off.plat" -g teo -f csv
cp "$OUT" "$TMP/r1"
expect 0 "... and with both off" "$IDLELAB" replay "$TRACE" -p "$TMP/both-off.plat" -g teo -f csv
check "the big CPUs keep their cluster-off in the bound ($(replay_bound0 "$TMP/r1") < $(replay_bound0 "$OUT") mJ)" \
	awk -v a="$(replay_bound0 "$TMP/r1")" -v b="$(replay_bound0 "$OUT")" 'BEGIN { exit !(a != "" && a < b) }'

# states --export of three per-cluster tables and a UINT_MAX residency.
expect 0 "export of a three-cluster machine" "$IDLELAB" states --root "$TOP/tests/fixtures/sysfs/psci-clusters" --export "$TMP/soc.plat"
check "three tables" test "$(grep -c '^table ' "$TMP/soc.plat")" -eq 3
check "the clusters' CPUs" sh -c "grep -q '^table cpu0 cpus=0-3$' '$TMP/soc.plat' && grep -q '^table cpu4 cpus=4-6$' '$TMP/soc.plat' && grep -q '^table cpu7 cpus=7$' '$TMP/soc.plat'"
check "the s2idle residency kept" grep -q 'target_residency=4294967295us' "$TMP/soc.plat"
expect 0 "the exported file loads" "$IDLELAB" platforms "$TMP/soc.plat"
check "cpu7's own cpu-off latency" sh -c "sed -n '/^table cpu7/,/^\$/p' '$OUT' | grep -Eq '^ +1 cpu-off +cpu-off +200 +800 '"
expect 0 "--cpu still exports one CPU's table" "$IDLELAB" states --root "$TOP/tests/fixtures/sysfs/psci-clusters" --cpu 4 --export "$TMP/one.plat"
check "one table, cpu4's" sh -c "! grep -q '^table ' '$TMP/one.plat' && grep -q 'exit_latency=120us' '$TMP/one.plat'"

# Bad input: file and line, exit 1.
bad() { # bad DESC PATTERN  (the platform in $TMP/bad.plat)
	expect 1 "bad: $1" "$IDLELAB" platforms "$TMP/bad.plat"
	check "bad: $1: file, line and reason" grep -q "bad.plat:$2" "$ERR"
}
sed 's/^domain big-cluster cpus=2-3/domain big-cluster cpus=2-4/' "$P" >"$TMP/bad.plat"
bad "a domain naming a CPU the platform lacks" "3[0-9]: domain 'big-cluster' names CPU 4; the platform has 4 CPUs"
sed 's/states=cluster-off mode=osi reject_latency=2us$/states=cluster-gone mode=osi reject_latency=2us/' "$P" >"$TMP/bad.plat"
bad "a state not in the CPU's table" "[0-9]*: domain 'little-cluster': state 'cluster-gone' is not in the table of any of its CPUs"
sed 's/^table big cpus=2-3/table big cpus=1-3/' "$P" >"$TMP/bad.plat"
bad "overlapping CPU groups" "2[0-9]: CPU 1 is in table 'little' already (line 13)"
sed 's/^table big cpus=2-3/table big cpus=2/' "$P" >"$TMP/bad.plat"
bad "a CPU with no table" "6: CPU 3 has no table"
sed 's/^domain big-cluster cpus=2-3/domain big-cluster cpus=1-2/' "$P" >"$TMP/bad.plat"
bad "domains that overlap without nesting" "3[0-9]: domain 'big-cluster' overlaps domain 'little-cluster'"
sed '/^state cluster-off exit_latency=1000us/,+1d' "$P" >"$TMP/bad.plat"
bad "tables with different state counts" "2[0-9]: table 'big' has 2 states, table 'little' 3"
sed 's/ mode=osi reject_latency=2us$//' "$P" >"$TMP/bad.plat"
bad "a domain without a mode" "3[0-9]: domain 'little-cluster' needs mode=pc"
sed 's/^table big cpus=2-3$/table big cpus=2-3\n  # no source/' "$P" | sed '/^table big/{n;n;d}' >"$TMP/bad.plat"
bad "a table line without a source" "2[0-9]: table has no 'source:' note"

finish
