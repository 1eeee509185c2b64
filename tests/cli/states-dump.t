#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# states-dump.t - `idlelab states --dump` (a sysfs dump as users paste it: grep -r . of the
# cpuidle directories) and `states --diff BEFORE AFTER` on tests/fixtures/dumps/ and on dumps
# this test makes with grep from the fixture trees of tests/fixtures/sysfs/, against what
# `states --root` reads from the same trees; and every bad input (exit 1, FILE:LINE, no
# output).
. "$(dirname "$0")/live-lib.sh"
plan 58

F=$FIXTURES
D=$TOP/tests/fixtures/dumps
B=$D/soc3-before.txt
A=$D/soc3-after.txt

# The dump grep prints of a fixture tree, with the tree's full path in front of each line.
grep_dump() { # grep_dump TREE OUT
	grep -r . "$1"/sys/devices/system/cpu/cpu*/cpuidle "$1"/sys/devices/system/cpu/cpuidle > "$2"
}
# The states table of `states ARGS`, without the root and energy rows (which say where from).
states_table() {
	"$IDLELAB" states "$@" | grep -v -E '^(root|energy) '
}

# ---- the three-cluster SoC ---------------------------------------------------------------
run_case "soc3: driver from current_driver"       0 '^driver +psci_idle$' -- states --dump "$B"
run_case "soc3: governor, switchable"             0 '^governor_switch +current_governor' -- states --dump "$B"
run_case "soc3: no energy in a dump, said"        0 '^energy +none: a sysfs dump' -- states --dump "$B"
run_case "soc3: cluster 0's table on cpu3"        0 '^ +3 +2 +cluster-off-l +cluster0 off +5400 +5908 ' -- states --dump "$B"
run_case "soc3: cluster 2's table on cpu7 (CRLF)" 0 '^ +7 +1 +cpu-off-b +big cpu off +2100 +5100 +0 +enabled +5273 +12503000 +685 +114 +989$' -- states --dump "$B"
run_case "soc3: UINT_MAX residency kept"          0 '^ +5 +3 +s2idle +system sleep +7100 +4294967295 ' -- states --dump "$B"
run_case "soc3: rejected in the millions"         0 '^ +6 +2 +cluster-off-m .* 2580000$' -- states --dump "$B"
run_case "soc3 after: 'path: value', ./cpuN paths" 0 '^ +4 +0 +WFI +ARM WFI +1 +1 +0 +enabled +397800 ' -- states --dump "$A"
ok "soc3: 32 state rows" sh -c "'$IDLELAB' states --dump '$B' -f tsv | grep -c -E '^[0-7]\\s[0-3]\\s' | grep -qx 32"

# ---- the same as --root ------------------------------------------------------------------
for tree in haltpoll-vm old-kernel; do
	grep_dump "$F/$tree" "$TMP/$tree.txt"
	states_table --root "$F/$tree" > "$TMP/root.out"
	states_table --dump "$TMP/$tree.txt" > "$TMP/dump.out"
	ok "$tree: --dump of its grep equals --root" cmp "$TMP/root.out" "$TMP/dump.out"
done
states_table --root "$F/haltpoll-vm" > "$TMP/root.out"
sed 's/$/\r/' "$TMP/haltpoll-vm.txt" > "$TMP/crlf.txt"
states_table --dump "$TMP/crlf.txt" > "$TMP/dump.out"
ok "haltpoll-vm: its dump with CRLF equals --root" cmp "$TMP/root.out" "$TMP/dump.out"
grep -H -r . "$F/haltpoll-vm/sys/devices/system/cpu/cpu0/cpuidle" > "$TMP/h.txt"
run_case "no global directory, no driver/name: refused" 1 'h.txt: no cpuidle/current_driver line and no cpuN/cpuidle/driver/name line' -- states --dump "$TMP/h.txt"

# --export from a dump: the states the tree's export has
"$IDLELAB" states --root "$F/haltpoll-vm" --export "$TMP/root.plat" > /dev/null 2>&1
run_case "export from a dump (--hz)"              0 'wrote ' -- states --dump "$TMP/haltpoll-vm.txt" --export "$TMP/dump.plat" --hz 250
ok "export: the same states as --root's" sh -c "diff '$TMP/root.plat' '$TMP/dump.plat' | grep '^[<>] state' | grep -q . && exit 1 || exit 0"
run_case "export: the dump loads with -p"         0 '^hz: +250$' -- platforms "$TMP/dump.plat"
run_case "export: no CONFIG_HZ, no --hz: refused" 1 'no CONFIG_HZ=N line in the dump; give it with --hz' -- states --dump "$TMP/haltpoll-vm.txt" --export "$TMP/nohz.plat"
ok "export: refused, no file" test ! -e "$TMP/nohz.plat"
{ cat "$TMP/haltpoll-vm.txt"; echo "/proc/config.gz:CONFIG_HZ=300"; } > "$TMP/hz.txt"
run_case "export: HZ from the dump's CONFIG_HZ"   0 '' -- states --dump "$TMP/hz.txt" --export "$TMP/hz.plat"
ok "export: hz 300 and its source" sh -c "grep -q '^hz 300$' '$TMP/hz.plat' && grep -q 'CONFIG_HZ=300 on line 53 of' '$TMP/hz.plat'"

# ---- --diff --------------------------------------------------------------------------------
run_case "diff: per CPU and state"                0 '^ +7 +2 +cluster-off-b +155 +2580000 +19 +3 +27300 +0\.1419 +0\.2601$' -- states --diff "$B" "$A"
run_case "diff: per state over the CPUs"          0 '^ +2 +cluster-off-m +3 +435 +7500000 +51 +9 +76500 +0\.1379 +0\.1002$' -- states --diff "$B" "$A"
run_case "diff: all states"                       0 '^ +- +\(all states\) +- +136416 +74880000 +480 +2911 +210315 +0\.0249 +1\.0000$' -- states --diff "$B" "$A"
run_case "diff: csv header"                       0 '^cpu,state,name,usage,time_us,above,below,rejected,miss_ratio,time_share$' -- states --diff "$B" "$A" -f csv
run_case "diff: tsv row"                          0 '^0	1	cpu-off-l	290	1400000	41	9	3	0\.1724	0\.1591$' -- states --diff "$B" "$A" -f tsv
if "$IDLELAB" states --diff "$B" "$A" -f json > "$TMP/d.json" 2> /dev/null && command -v python3 > /dev/null; then
	ok "diff: json, the shares of a CPU add up to 1" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["states diff"] if r["cpu"] == 5]
assert abs(sum(r["time_share"] for r in rows) - 1) < 1e-3, rows
assert sum(r["rejected"] for r in rows) == 5700 + 25500, rows
' "$TMP/d.json"
else
	echo "ok $((n += 1)) - diff: json # SKIP built without libjansson, or no python3"
fi
# two trees, and a tree against its own dump
cp -R "$F/haltpoll-vm" "$TMP/later"
echo 881500 > "$TMP/later/sys/devices/system/cpu/cpu0/cpuidle/state1/usage"
run_case "diff: two trees"                        0 '^ +0 +1 +haltpoll idle +75 +0 ' -- states --diff "$F/haltpoll-vm" "$TMP/later"
run_case "diff: a tree and its dump: no change"   0 '^ +- +\(all states\) +- +0 +0 +0 +0 +0 ' -- states --diff "$F/haltpoll-vm" "$TMP/haltpoll-vm.txt"
# a reboot between the dumps: the counter and where it is
line=$(grep -n 'cpu0/cpuidle/state0/usage' "$B" | cut -d: -f1)
run_case "diff: a counter went back: file and line" 1 "soc3-before.txt:$line: cpu0/cpuidle/state0/usage went back from 144200 to 129000" -- states --diff "$A" "$B"
ok "diff: went back, nothing on stdout" test ! -s "$OUT"
run_case "diff: a tree's counter went back"       1 'haltpoll-vm/sys/devices/system/cpu/cpu0/cpuidle/state1/usage: cpu0/cpuidle/state1/usage went back from 881500 to 881425' -- states --diff "$TMP/later" "$F/haltpoll-vm"
run_case "diff: other machines"                   1 'has cpu2, .* has not' -- states --diff "$TMP/haltpoll-vm.txt" "$B"

# ---- bad dumps -----------------------------------------------------------------------------
bad() { # bad DESC REGEX: the dump in $TMP/bad.txt is refused with REGEX, nothing printed
	run_case "bad: $1" 1 "$2" -- states --dump "$TMP/bad.txt"
	[ -s "$OUT" ] && report 1 "bad: $1: no output" "stdout not empty"
}
grep -v 'cpu5/cpuidle/state2/rejected' "$B" > "$TMP/bad.txt"
bad "mixed kernels (a state without rejected)" 'bad.txt:[0-9]+: cpu5/cpuidle/state2 lacks a rejected line, cpu0/cpuidle/state0 \(line 14\) has one'
grep -v 'cpu6/cpuidle/state3/' "$B" > "$TMP/bad.txt"
bad "mixed kernels (a table cut short)"     'bad.txt:[0-9]+: cpu6 has 3 states, cpu4 \(line [0-9]+\) has the same and 1 more'
grep -v 'cpu2/cpuidle/state1/usage' "$B" > "$TMP/bad.txt"
bad "no usage line"                          'bad.txt:[0-9]+: cpu2/cpuidle/state1 has no usage line'
grep -v 'cpu3/cpuidle/state0/time:' "$B" > "$TMP/bad.txt"
bad "no time line"                           'cpu3/cpuidle/state0 has no time line'
grep -v '/cpu5/' "$B" > "$TMP/bad.txt"
bad "a CPU without cpuidle"                  'bad.txt:[0-9]+: cpu5 has no cpuidle lines, but cpu6 has'
{ cat "$B"; grep 'cpu1/cpuidle/state2/time' "$B"; } > "$TMP/bad.txt"
bad "a path twice"                           "bad.txt:463: cpu1/cpuidle/state2/time is already on line [0-9]+"
sed '5s/:/::/' "$B" > "$TMP/bad.txt"
bad "a counter that is not a number"         'bad.txt:5: time is .:41700000., not a number'
{ head -n 3 "$B"; echo "grep: /sys/devices/system/cpu/cpu1/cpuidle/state0/x: Permission denied"; } > "$TMP/bad.txt"
bad "grep's own error"                       'bad.txt:4: grep could not read a file'
printf 'cpu0/cpuidle/state0/name:WFI\ncpu0/cpuidle/state0/colour:red\n' > "$TMP/bad.txt"
bad "a file cpuidle does not have"           'bad.txt:2: cpu0/cpuidle/state0/colour: not a file of a cpuidle state directory'
printf 'hello\n' > "$TMP/bad.txt"
bad "not PATH:VALUE"                         'bad.txt:1: not a PATH:VALUE line'
printf '# nothing\n' > "$TMP/bad.txt"
bad "no cpuidle lines at all"                'bad.txt: no cpuN/cpuidle lines'
run_case "usage: --root and --dump"               2 'give one' -- states --root "$F/haltpoll-vm" --dump "$B"
run_case "usage: --diff with one snapshot"        2 'needs two snapshots' -- states --diff "$B"

# The three-cluster dump exports a platform that keeps its three tables and the s2idle state
run_case "export: three per-cluster tables"       0 'wrote ' -- states --dump "$B" --export "$TMP/soc3.plat" --hz 250
ok "export: three tables, CPUs 0-3, 4-6, 7" sh -c "grep -c '^table ' '$TMP/soc3.plat' | grep -qx 3 && grep -q '^table cpu4 cpus=4-6' '$TMP/soc3.plat' && grep -q '^table cpu7 cpus=7$' '$TMP/soc3.plat'"
ok "export: s2idle kept with residency 4294967295 us" sh -c "grep -c 'target_residency=4294967295us' '$TMP/soc3.plat' | grep -qx 3"
run_case "export: the platform runs in the lab"   0 'usage_cluster-off-l' -- run -g menu -p "$TMP/soc3.plat" -s idle --time 200ms

# ---- the published msm8998 dump: the two-line form (echo $F; cat $F), two clusters ----------
M=$D/msm8998-2019.txt
run_case "msm8998: read through the other sysfs files" 0 '^driver +arm_idle$' -- states --dump "$M"
run_case "msm8998: little table on cpu0"          0 '^ +0 +2 +cpu-sleep-0-1 +little-power-collapse +712 +1000 +0 +- +1661 +616567065 +189 +0 +-$' -- states --dump "$M"
run_case "msm8998: big table on cpu7"             0 '^ +7 +1 +cpu-sleep-1-0 +big-retention +123 +200 ' -- states --dump "$M"
run_case "msm8998: export keeps both tables"      0 'wrote ' -- states --dump "$M" --export "$TMP/msm.plat" --hz 250
ok "msm8998: export: table cpu0 cpus=0-3 and cpu4 cpus=4-7" sh -c "grep -c '^table ' '$TMP/msm.plat' | grep -qx 2 && grep -q '^table cpu0 cpus=0-3$' '$TMP/msm.plat' && grep -q '^table cpu4 cpus=4-7$' '$TMP/msm.plat'"
ok "msm8998: the built-in platform has the dump's latencies" sh -c "'$IDLELAB' platforms msm8998 | grep -E '^ +2 cpu-sleep-1-1 ' | grep -q ' 625 *1000 '"
awk '{ if (prev ~ /cpu3\/cpuidle\/state2\/usage$/) print "cat: read error: Input/output error"; else print; prev = $0 }' "$M" > "$TMP/bad.txt"
bad "two-line form: cat's error for a cpuidle file" 'bad.txt:[0-9]+: cat could not read /sys/devices/system/cpu/cpu3/cpuidle/state2/usage'
awk '{ if (prev ~ /cpu6\/cpuidle\/state1\/time$/) print "12x"; else print; prev = $0 }' "$M" > "$TMP/bad.txt"
bad "two-line form: a bad counter, its line"  'bad.txt:[0-9]+: time is .12x., not a number'
awk '{ if (prev ~ /cpu1\/cpuidle\/state0\/usage$/) printf "8%cx\n", 0; else print; prev = $0 }' "$M" > "$TMP/bad.txt"
bad "two-line form: a NUL byte in a value"    'bad.txt:[0-9]+: a NUL byte: not a text dump'

done_testing
