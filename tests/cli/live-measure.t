#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# live-measure.t - `idlelab measure` on fixture trees. The workload is live-bump.sh, which
# plays the kernel: it adds known amounts to the fixture's usage/above/below (and RAPL)
# files, so the table must show exactly those sums. Every run must leave current_governor
# and the disable files as they were.
. "$(dirname "$0")/live-lib.sh"
plan 84

G=sys/devices/system/cpu/cpuidle/current_governor
D0=sys/devices/system/cpu/cpu0/cpuidle/state0/disable
D1=sys/devices/system/cpu/cpu1/cpuidle/state0/disable

# ---- the table: idles = the sums of the usage deltas --------------------------------------------
fixture haltpoll-vm
run_case "fixture run" 0 '' -- measure --root "$ROOT" -g menu,teo,ladder --iter 2 --settle 0 --allow-missing \
	-m iops='IOPS=([0-9.]+[kM]?)' -- "$BUMP" "$ROOT" 0:1:usage:100 1:0:usage:3 1:0:below:3 \
	1:1:usage:20 1:1:above:2 --say "read: IOPS=12.4k, BW=48.4MiB/s"
ok "header: gov iter metric joules idles idle_misses idle_miss_ratio belows aboves rejected" \
	grep -Eq '^gov +iter +iops +joules +idles +idle_misses +idle_miss_ratio +belows +aboves +rejected +wall_s$' "$OUT"
ok "idles 123 = 100 + 3 + 20, misses 5 = 3 below + 2 above, ratio 5/123" \
	grep -Eq '^menu +0 +12400 +- +123 +5 +0\.041 +3 +2 ' "$OUT"
# The order of the runs table's rows (it ends at the first blank line), as "gov+iter ...".
run_order() { awk 'NF == 0 { exit } $1 != "gov" && $1 != "#" { printf "%s%s ", $1, $2 }' "$OUT"; }
ok "interleaved: menu ladder menu ladder" test "$(run_order)" = "menu0 ladder0 menu1 ladder1 "
ok "per-state deltas: ladder iter 1, cpu0+cpu1 state1" grep -Eq '^ladder +1 +1 +haltpoll idle +120 +0 +2 +0 +0$' "$OUT"
ok "per-state deltas: POLL" grep -Eq '^menu +0 +0 +POLL +3 +0 +0 +3 +0$' "$OUT"
ok "teo not available: reported and skipped" grep -q "governor 'teo' is not available here (available_governors: ladder menu haltpoll); skipped" "$ERR"
ok "absent RAPL said once" test "$(grep -c 'energy: not measured' "$ERR")" = 1
ok "the command's output is passed through (stderr)" test "$(grep -c 'read: IOPS=12.4k' "$ERR")" = 4
ok "governor restored" test "$(value $G)" = haltpoll
ok "restoration said" grep -q 'restored current_governor to haltpoll' "$ERR"

# ---- counters of selected CPUs only, formats, -o --------------------------------------------------
fixture haltpoll-vm
run_case "--cpus 1 counts cpu1 only" 0 '^menu +0 +- +7 +0 +0\.000 +0 +0 ' -- measure --root "$ROOT" -g menu \
	--settle 0 --cpus 1 -- "$BUMP" "$ROOT" 0:1:usage:100 1:1:usage:7
run_case "csv: one long table, runs rows first" 0 '^runs,menu,0,-,7,0,0\.000,0,0,' -- measure --root "$ROOT" -g menu --settle 0 -f csv -- \
	"$BUMP" "$ROOT" 0:1:usage:4 1:1:usage:3
if "$IDLELAB" measure --root "$ROOT" -g menu,ladder --settle 0 -f json -m 's=x=([0-9]+)' -- \
	"$BUMP" "$ROOT" 0:0:usage:5 0:0:below:1 --say x=42 > "$TMP/m.json" 2> /dev/null && command -v python3 > /dev/null; then
	ok "json: runs and states" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"]
assert [x["gov"] for x in r] == ["menu", "ladder"], r
assert r[0]["s"] == 42 and r[0]["idles"] == 5 and r[0]["belows"] == 1 and r[0]["joules"] is None, r[0]
assert abs(r[0]["idle_miss_ratio"] - 0.2) < 1e-9, r[0]
s = [x for x in d["states"] if x["gov"] == "ladder" and x["state"] == 0][0]
assert s["name"] == "POLL" and s["usage"] == 5 and s["below"] == 1, s
' "$TMP/m.json"
else
	echo "ok $((n += 1)) - json # SKIP built without libjansson, or no python3"
fi
run_case "-o FILE" 0 '' -- measure --root "$ROOT" -g menu --settle 0 -o "$TMP/res.txt" -- "$BUMP" "$ROOT" 0:1:usage:9
ok "-o: the table is in the file" grep -Eq '^menu +0 +- +9 ' "$TMP/res.txt"
ok "-o: nothing on stdout" test ! -s "$OUT"

# ---- --iter 2: summaries (Welch), one long csv ----------------------------------------------------------
# The command counts its runs in a file, so the metric n differs from run to run (menu: 0, 2;
# ladder: 1, 3) while the fixture's counters get known sums.
fixture haltpoll-vm
COUNT=$TMP/count
counting_run() {
	desc=$1
	shift
	echo 0 > "$COUNT"
	run_case "$desc" 0 '' -- measure --root "$ROOT" -g menu,ladder --iter 2 --settle 0 -m count='n=([0-9]+)' "$@" -- \
		sh -c 'c=$(cat "$0"); echo $((c + 1)) > "$0"; echo "n=$c"; exec "$@"' "$COUNT" \
		"$BUMP" "$ROOT" 0:1:usage:100 1:0:usage:3 1:0:below:3
}
counting_run "--iter 2 -f csv" -f csv
if command -v python3 > /dev/null; then
	ok "csv: one table; summaries of runs and states agree with their rows (Welch)" \
		python3 "$HERE/summary-check.py" "$OUT" --keys table,state,name --gov gov --n 2 --baseline menu \
		--test welch --iters 12
	ok "csv: the metric's mean differs by 1 (1 and 2 against 0 and 2... as counted)" python3 -c '
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["row"] == "summary" and r["metric"] == "count"]
assert [(r["gov"], r["mean"], r["delta"]) for r in rows] == [("menu", "1.0", "-"), ("ladder", "2.0", "1.0")], rows
' "$OUT"
else
	echo "ok $((n += 1)) - csv summaries # SKIP no python3"
	echo "ok $((n += 1)) - csv mean # SKIP no python3"
fi
counting_run "--iter 2: table" --baseline ladder
ok "table: runs summary after the runs, states summary after the states" \
	test "$(grep '^# ' "$OUT" | cut -c1-16 | tr '\n' '|')" = "# runs|# runs summary (|# states|# states summary|"
ok "table: --baseline ladder, Welch" grep -q '^# runs summary (.* difference from ladder, .*; Welch;' "$OUT"
ok "table: menu's n against ladder's" grep -Eq '^menu +count +2 +1\.0 ± +[0-9.]+ % .* -50\.0 % \[' "$OUT"
ok "table: per-state usage summary" grep -Eq '^ *1 +haltpoll idle +ladder +usage +2 +100\.0 ± +0\.0 % ' "$OUT"
counting_run "--iter 1 has no summary" --iter 1
ok "--iter 1: no summary table" sh -c "! grep -q summary '$OUT'"
run_case "a metric named like a summary column" 2 "'mean' is a column of the summaries" -- measure -g menu \
	-m mean='([0-9]+)' -- true
run_case "--baseline not among -g" 2 'baseline teo is not one of the -g governors' -- measure -g menu --baseline teo -- true

# ---- metrics -------------------------------------------------------------------------------------------
run_case "metric without a match: '-' and a warning" 0 'metric iops: no match in the output of menu iter 0' -- \
	measure --root "$ROOT" -g menu --settle 0 -m iops='IOPS=([0-9]+)' -- "$BUMP" "$ROOT" --say "nothing"
ok "metric without a match: the cell" grep -Eq '^menu +0 +- +- +0 ' "$OUT"
run_case "two metrics, whole match, decimals" 0 '^menu +0 +9800 +79\.87 ' -- measure --root "$ROOT" -g menu \
	--settle 0 -m iops='IOPS=([0-9.]+k)' -m clat='[0-9]+\.[0-9]+' -- "$BUMP" "$ROOT" --say "avg=79.87 IOPS=9.8k"

# ---- RAPL: the package zone only, across its wrap --------------------------------------------------------
fixture desktop-rapl
run_case "RAPL across the wrap: 0.40 J" 0 '^teo +0 +0\.40 +15 +2 +0\.133 +0 +2 ' -- measure --root "$ROOT" -g teo \
	--settle 0 -- "$BUMP" "$ROOT" 0:3:usage:10 2:3:usage:5 2:3:above:2 --energy intel-rapl:0:400000 \
	--energy intel-rapl-mmio:0:99 --energy intel-rapl:1:5000000
ok "RAPL: the counter did wrap" test "$(value sys/class/powercap/intel-rapl:0/energy_uj)" = 71150
ok "RAPL: named on the first line" grep -q 'energy RAPL package-0' "$ERR"
ok "offline cpu3 is not measured" grep -q 'intel_idle driver on 3 CPUs (cpu0..cpu2)' "$ERR"

# ---- --disable: applied during the run, restored after ---------------------------------------------------
fixture haltpoll-vm
run_case "--disable POLL: the command sees disable = 1" 0 '^menu +0 +1 ' -- measure --root "$ROOT" -g menu \
	--settle 0 --disable POLL -m d='([01])' -- cat "$ROOT/$D1"
ok "--disable: both CPUs back to 0" test "$(value $D0)$(value $D1)" = 00
ok "--disable: restoration said" grep -q 'restored current_governor to haltpoll and 2 disable files' "$ERR"
echo 1 > "$ROOT/$D0"
run_case "--disable 0 --cpus 1: cpu1 only; an already disabled state is left alone" 0 '' -- \
	measure --root "$ROOT" -g ladder --settle 0 --cpus 1 -d 0 -- "$BUMP" "$ROOT"
ok "--disable: cpu0 untouched (1), cpu1 back to 0" test "$(value $D0)$(value $D1)" = 10
run_case "--disable of a state that does not exist" 1 "cpu0 has no state 'C6'" -- measure --root "$ROOT" \
	-g menu --settle 0 -d C6 -- "$BUMP" "$ROOT"

# ---- the command fails: stop, restore, exit 1 --------------------------------------------------------------
fixture haltpoll-vm
run_case "command exits 3" 1 "exited with status 3 \(menu iter 0\); stopping" -- measure --root "$ROOT" \
	-g menu,ladder --settle 0 -d POLL -- "$BUMP" "$ROOT" --exit 3
ok "command exits 3: everything restored" test "$(value $G)$(value $D0)$(value $D1)" = haltpoll00
run_case "command crashes" 1 "was killed by SIGSEGV \(signal 11\) \(menu iter 0\); stopping" -- measure \
	--root "$ROOT" -g menu,ladder --settle 0 -d POLL -- "$BUMP" "$ROOT" --crash
ok "command crashes: everything restored" test "$(value $G)$(value $D0)$(value $D1)" = haltpoll00
run_case "command not found" 1 "cannot run '$TMP/no-such-command'" -- measure --root "$ROOT" -g menu --settle 0 \
	-- "$TMP/no-such-command"
run_case "a counter going back stops the run" 1 'went back from 881425 to 881415' -- measure --root "$ROOT" \
	-g menu --settle 0 -- "$BUMP" "$ROOT" 0:1:usage:-10

# ---- nothing to measure, nothing changed ----------------------------------------------------------------------
fixture no-driver
run_case "no driver" 1 'no cpuidle driver is registered \(current_driver: none\)' -- measure --root "$ROOT" \
	-g menu -- true
ok "no driver: governor untouched, no lock file" test "$(value $G)" = menu -a ! -e "$ROOT/run/idlelab.lock"
fixture old-kernel
run_case "no current_governor" 1 'cannot switch governors at run time' -- measure --root "$ROOT" -g menu -- true
fixture haltpoll-vm
run_case "no governor available" 1 'none of the governors given is available' -- measure --root "$ROOT" \
	--allow-missing -g teo,foo -- true
run_case "a missing governor refuses the A/B" 1 "governor 'teo' is not available here .*--allow-missing skips it" -- \
	measure --root "$ROOT" -g menu,teo --settle 0 -- "$BUMP" "$ROOT"
ok "a missing governor: nothing ran, nothing changed" sh -c "! grep -q 'run 1 of' '$ERR' && test \"\$(head -n 1 '$ROOT/$G')\" = haltpoll"
run_case "--cpus naming a missing CPU" 1 'cpu7 does not exist' -- measure --root "$ROOT" -g menu --cpus 7 -- true

# ---- --trace on a tree without tracefs: said before anything changes -------------------------------------
fixture haltpoll-vm
if "$IDLELAB" measure --trace x -g menu -- true 2>&1 | grep -q 'built without libtracefs'; then
	run_case "--trace without libtracefs: a usage error" 2 'install libtracefs-dev' -- measure --trace "$TMP/t" -g menu -- true
	echo "ok $((n += 1)) - --trace: nothing changed # SKIP built without libtracefs"
else
	run_case "--trace without tracefs under the root" 1 'no tracefs here \(mount it' -- measure --root "$ROOT" \
		-g menu --settle 0 -d POLL --trace "$TMP/t" -- "$BUMP" "$ROOT"
	ok "--trace failed: nothing changed" test "$(value $G)$(value $D0)$(value $D1)" = haltpoll00
fi

# ---- was the machine quiet? (ROOT/proc/loadavg, ROOT/proc/PID/stat) -----------------------------------
# proc_stat PID COMM TICKS CPU: a proc/PID/stat line with utime TICKS, last on CPU (field 39).
proc_stat_line() {
	printf '%s (%s) R 1 %s %s 0 -1 4194304 0 0 0 0 %s 0 0 0 20 0 1 0 100 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 17 %s 0 0 0 0 0\n' \
		"$1" "$2" "$1" "$1" "$3" "$4"
}
proc_stat() {
	mkdir -p "$ROOT/proc/$1"
	proc_stat_line "$@" > "$ROOT/proc/$1/stat"
}
fixture haltpoll-vm
run_case "no proc/loadavg: said, not silently skipped" 0 'quiet check: .*proc/loadavg: cannot read' -- \
	measure --root "$ROOT" -g menu --settle 0 -- "$BUMP" "$ROOT" 0:1:usage:5 1:1:usage:5
ok "a quiet fixture: no 'not quiet' warning" sh -c "! grep -q 'not quiet' '$ERR'"
ok "both CPUs went idle: no 0-idles warning" sh -c "! grep -q 'recorded 0 idles' '$ERR'"
echo "3.50 2.00 1.00 2/345 6789" > "$ROOT/proc/loadavg"
proc_stat 4242 "spin ner" 1000 1
proc_stat 4243 idler 1000 1
# The workload plays a foreign spinner: 4242 gains 50 ticks on cpu1 while the command runs.
{
	echo '#!/bin/sh'
	echo "cat '$TMP/spin.stat' > '$ROOT/proc/4242/stat'"
	echo "'$BUMP' '$ROOT' 0:1:usage:5"
	echo 'sleep 0.2'
} > "$TMP/spin.sh"
proc_stat_line 4242 "spin ner" 1050 1 > "$TMP/spin.stat"
chmod +x "$TMP/spin.sh"
run_case "load average 3.50: not quiet" 0 'not quiet: load average 3\.50 over the last minute \(more than 1\.0\)' -- \
	measure --root "$ROOT" -g menu --settle 0 -- "$TMP/spin.sh"
ok "a foreign process busy on a measured CPU is named" \
	grep -Eq 'not quiet: pid 4242 \(spin ner\) used [0-9]+% of a CPU during menu iter 0, last on measured cpu1' "$ERR"
ok "an idle foreign process is not" sh -c "! grep -q 'pid 4243' '$ERR'"
ok "cpu1 recorded 0 idles: said" grep -q 'cpu1 recorded 0 idles during menu iter 0' "$ERR"
ok "cpu0 went idle: not said" sh -c "! grep -q 'cpu0 recorded 0 idles' '$ERR'"
proc_stat 4242 "spin ner" 1000 1
run_case "--cpus 0: a process on cpu1 does not count" 0 '' -- measure --root "$ROOT" -g menu --settle 0 \
	--cpus 0 -- "$TMP/spin.sh"
ok "--cpus 0: not named" sh -c "! grep -q 'pid 4242' '$ERR'"

# ---- --user: the command drops root, idlelab keeps it --------------------------------------------------
fixture haltpoll-vm
if [ "$(id -u)" = 0 ] && getent passwd nobody > /dev/null; then
	NOBODY=$(id -u nobody)
	NOGID=$(id -g nobody)
	run_case "--user nobody: the command runs as nobody" 0 '' -- measure --root "$ROOT" -g menu,ladder \
		--settle 0 --user nobody -- sh -c 'echo "uid=$(id -u) groups=$(id -G)"'
	ok "--user nobody: uid and groups are nobody's only" \
		test "$(grep -c "^uid=$NOBODY groups=$(id -G nobody)\$" "$ERR")" = 2
	ok "--user nobody: idlelab still switched and restored as root" test "$(value $G)" = haltpoll
	ok "--user nobody: the table is there" grep -Eq '^ladder +0 ' "$OUT"
	SUDO_UID=$NOBODY SUDO_GID=$NOGID "$IDLELAB" measure --root "$ROOT" -g menu --settle 0 -- \
		sh -c 'echo "uid=$(id -u)"' > "$OUT" 2> "$ERR"
	ok "under sudo: SUDO_UID/SUDO_GID by default, said" \
		grep -Eq "running the command as nobody \(uid $NOBODY, gid $NOGID\), who ran sudo" "$ERR"
	ok "under sudo: the command ran as the invoking user" grep -q "^uid=$NOBODY\$" "$ERR"
	SUDO_UID=$NOBODY SUDO_GID=$NOGID "$IDLELAB" measure --root "$ROOT" -g menu --settle 0 \
		--user root -- sh -c 'echo "uid=$(id -u)"' > "$OUT" 2> "$ERR"
	ok "under sudo, --user root: the command stays root" grep -q '^uid=0$' "$ERR"
	SUDO_UID=x1 "$IDLELAB" measure --root "$ROOT" -g menu --settle 0 -- true > "$OUT" 2> "$ERR"
	ok "a SUDO_UID that is not a number: refused" grep -q "SUDO_UID='x1', SUDO_GID='': not user and group ids" "$ERR"
else
	for d in "runs as nobody" "uid and groups" "restored" "table" "sudo default" "sudo user" \
		"sudo --user root" "bad SUDO_UID"; do
		echo "ok $((n += 1)) - --user: $d # SKIP needs root and a user nobody"
	done
fi
run_case "--user of an unknown user" 1 "--user: no user 'no-such-user-x' in the password database" -- \
	measure --root "$ROOT" -g menu --settle 0 --user no-such-user-x -- true

# ---- usage errors --------------------------------------------------------------------------------------------------
run_case "usage: no governor"     2 'no governor given' -- measure --root "$ROOT" -- true
run_case "usage: no command"      2 'no command given' -- measure --root "$ROOT" -g menu
run_case "usage: --iter 0"        2 'not in \[1, 1000\]' -- measure -g menu --iter 0 -- true
run_case "usage: bad regex"       2 "--metric: '\(': " -- measure -g menu -m 'x=(' -- true
run_case "usage: bad --cpus"      2 'goes backwards' -- measure -g menu --cpus 3-1 -- true
run_case "usage: bad --settle"    2 "--settle: '5x' is not a time" -- measure -g menu --settle 5x -- true
run_case "usage: --settle beyond 1h" 2 "--settle: '2h' is not a time in \[0, 1h\]" -- measure -g menu --settle 2h -- true
run_case "usage: tiny trace buffer" 2 'not in \[64, ' -- measure -g menu --trace-buffer-kb 1 -- true

done_testing
