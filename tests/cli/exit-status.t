#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# exit-status.t - one table of exit statuses for every command (idlelab(1), EXIT STATUS):
# 0 success (and help); 1 bad input or a failure: what a file holds, what a run does; 2 usage:
# what the command line says, a bad option and any bad value on it (an unknown governor,
# built-in platform, scenario, metric or format name, a malformed number or duration);
# 3 verdict --fail-on (verdict.t). Each command is asked each kind of mistake it can be given.
. "$(dirname "$0")/lib.sh"
FIX=$TOP/tests/fixtures
printf 'name = x\nthis is not a platform line\n' >"$TMP/bad.plat"
printf 'nonsense here\n' >"$TMP/bad.txt"
printf '{"tasks": nonsense}\n' >"$TMP/bad.json"
TRACE=$FIX/traces/vm.trace
LAB="-p rk3588 -s idle -t 10ms"

# ---- every command: help 0, an unknown option 2 ----------------------------------------------
for cmd in $("$IDLELAB" help --complete commands); do
	expect 0 "$cmd --help: 0" "$IDLELAB" $cmd --help
	[ "$cmd" = help ] && continue
	expect 2 "$cmd --no-such-option: 2" "$IDLELAB" $cmd --no-such-option
	check "$cmd: the usage error ends with the hint" grep -q "^Try 'idlelab help $cmd'.$" "$ERR"
done
expect 2 "an unknown command: 2" "$IDLELAB" no-such-command

# ---- the lab commands: unknown names and malformed numbers are 2, bad files 1 ------------------
# usage_and_input CMD ARGS...: CMD's -g/-p/-s/-t mistakes.
lab_cases() {
	cmd=$1
	shift
	expect 2 "$cmd: an unknown governor: 2" "$IDLELAB" $cmd "$@" -g nosuch $LAB
	expect 2 "$cmd: an unknown built-in platform: 2" "$IDLELAB" $cmd "$@" -g menu -p nosuch -s idle -t 10ms
	expect 2 "$cmd: a malformed --time: 2" "$IDLELAB" $cmd "$@" -g menu $LAB -t 10x
	check "$cmd: ... with the one --time message" grep -q \
		"^idlelab $cmd: --time: '10x' is not a duration in (0, 24h] (30s, 1.5s, 500ms, 2m, 1h)$" "$ERR"
	expect 2 "$cmd: a malformed --seed: 2" "$IDLELAB" $cmd "$@" -g menu $LAB --seed -1
	expect 1 "$cmd: a platform file with an error: 1" "$IDLELAB" $cmd "$@" -g menu -p "$TMP/bad.plat" -s idle -t 10ms
	check "$cmd: ... named with its line" grep -q "$TMP/bad.plat:1: " "$ERR"
}
lab_cases run
expect 2 "run: an unknown scenario: 2" "$IDLELAB" run -g menu -p rk3588 -s nosuch
expect 1 "run: a bad rt-app file: 1" "$IDLELAB" run -g menu -p rk3588 -s "rtapp:$TMP/bad.json"
expect 2 "run: an unknown format: 2" "$IDLELAB" run -g menu $LAB -f nosuch
lab_cases compare --iter 1
expect 2 "compare: --iter 0: 2" "$IDLELAB" compare -g menu $LAB --iter 0
expect 2 "compare: --baseline not among -g: 2" "$IDLELAB" compare -g menu,teo $LAB --baseline ladder
expect 1 "compare: a bad rt-app file: 1" "$IDLELAB" compare -g menu -p rk3588 -s "rtapp:$TMP/bad.json"

expect 2 "battery: an unknown governor: 2" "$IDLELAB" battery -g nosuch -p rk3588 -t 10ms
expect 2 "battery: an unknown built-in platform: 2" "$IDLELAB" battery -g menu -p nosuch -t 10ms
expect 2 "battery: a malformed --time: 2" "$IDLELAB" battery -t 10x
expect 2 "battery: --jobs 0: 2" "$IDLELAB" battery -j 0
expect 1 "battery: a platform file with an error: 1" "$IDLELAB" battery -g menu -p "$TMP/bad.plat" -t 10ms
expect 1 "battery: an output that cannot be written: 1" "$IDLELAB" battery -g menu -p rk3588 -t 10ms \
	-o "$TMP/no/such/dir/b.json"

SW="-s idle --param cpus=2 -o $TMP/sweep"
expect 2 "sweep: an unknown governor: 2" "$IDLELAB" sweep -g nosuch -p rk3588 $SW
expect 2 "sweep: an unknown built-in platform: 2" "$IDLELAB" sweep -g menu -p nosuch $SW
expect 2 "sweep: an unknown scenario parameter: 2" "$IDLELAB" sweep -g menu -p rk3588 -s idle \
	--param nosuch=1 -o "$TMP/sweep"
expect 2 "sweep: a malformed --time: 2" "$IDLELAB" sweep -g menu -p rk3588 $SW -t 10x
expect 1 "sweep: a platform file with an error: 1" "$IDLELAB" sweep -g menu -p "$TMP/bad.plat" $SW
expect 1 "sweep: an output that cannot be written: 1" "$IDLELAB" sweep -g menu -p rk3588 -s idle \
	--param cpus=2 -o /proc/nosuch/dir

VD="-p rk3588 -s idle -t 10ms --iter 2"
expect 2 "verdict: an unknown governor: 2" "$IDLELAB" verdict -g menu-4,nosuch $VD
expect 2 "verdict: an unknown built-in platform: 2" "$IDLELAB" verdict -g menu-4,menu-5 -p nosuch -s idle
expect 2 "verdict: an unknown metric: 2" "$IDLELAB" verdict -g menu-4,menu-5 $VD -m nosuch
expect 2 "verdict: an empty metric list: 2" "$IDLELAB" verdict -g menu-4,menu-5 $VD -m ,
expect 2 "verdict: an unknown scenario: 2" "$IDLELAB" verdict -g menu-4,menu-5 -p rk3588 -s nosuch
expect 2 "verdict: a malformed --alpha: 2" "$IDLELAB" verdict -g menu-4,menu-5 $VD --alpha x
expect 2 "verdict: a malformed --time: 2" "$IDLELAB" verdict -g menu-4,menu-5 $VD -t 10x
expect 1 "verdict: a platform file with an error: 1" "$IDLELAB" verdict -g menu-4,menu-5 -p "$TMP/bad.plat" -s idle
expect 1 "verdict: a bad rt-app file: 1" "$IDLELAB" verdict -g menu-4,menu-5 -p rk3588 -s "rtapp:$TMP/bad.json"
expect 1 "verdict: a file: governor that does not load: 1" "$IDLELAB" verdict -g "menu-4,file:$TMP/bad.txt" $VD

# ---- the other commands ---------------------------------------------------------------------
expect 2 "step: an unknown governor: 2" "$IDLELAB" step -g nosuch -p rk3588 --input builtin:demo
expect 2 "step: an unknown built-in script: 2" "$IDLELAB" step -g menu -p rk3588 --input builtin:nosuch
expect 2 "step: a malformed --hz: 2" "$IDLELAB" step -g menu -p rk3588 --input builtin:demo --hz 7
expect 1 "step: a bad step script: 1" "$IDLELAB" step -g menu -p rk3588 --input "$TMP/bad.txt"
expect 1 "step: a platform file with an error: 1" "$IDLELAB" step -g menu -p "$TMP/bad.plat" --input builtin:demo

expect 2 "stats: an unknown input format: 2" "$IDLELAB" stats -F nosuch "$TRACE"
expect 2 "stats: a malformed --max-warnings: 2" "$IDLELAB" stats --max-warnings x "$TRACE"
expect 2 "stats: an unknown built-in platform: 2" "$IDLELAB" stats -p nosuch "$TRACE"
expect 1 "stats: not a trace: 1" "$IDLELAB" stats "$TMP/bad.txt"
expect 1 "stats: a missing trace: 1" "$IDLELAB" stats "$TMP/nosuch.trace"
expect 2 "replay: an unknown governor: 2" "$IDLELAB" replay -g nosuch "$TRACE"
expect 2 "replay: a malformed --cpu: 2" "$IDLELAB" replay -g teo --cpu x "$TRACE"
expect 2 "replay: --cpu beyond the trace: 2" "$IDLELAB" replay -p haltpoll-vm -g teo --cpu 5 "$TRACE"
expect 1 "replay: not a trace: 1" "$IDLELAB" replay -g teo "$TMP/bad.txt"

expect 2 "kgov: an unknown --against preset: 2" "$IDLELAB" kgov check --against nosuch "$TOP/kgov-src/idlelab.c"
expect 2 "kgov: an unknown built-in platform: 2" "$IDLELAB" kgov check -p nosuch --against idlelab-1 \
	"$TOP/kgov-src/idlelab.c"
expect 2 "kgov: a malformed --steps: 2" "$IDLELAB" kgov check --steps 10x --against idlelab-1 "$TOP/kgov-src/idlelab.c"
expect 2 "kgov diff: an unknown preset: 2" "$IDLELAB" kgov diff menu-4 nosuch
expect 1 "kgov verify: a missing vector file: 1" "$IDLELAB" kgov verify "$TMP/nosuch.vec" --against menu-4

expect 2 "merge: no case file: 2" "$IDLELAB" merge -o "$TMP/merged"
expect 1 "merge: not a case file: 1" "$IDLELAB" merge -o "$TMP/merged" "$TMP/bad.txt"
expect 2 "report: no output directory: 2" "$IDLELAB" report "$TMP/bad.json"
expect 1 "report: not a result: 1" "$IDLELAB" report -o "$TMP/report" "$TMP/bad.txt"
expect 2 "merge: an unknown option after a case file: 2, before the file is read" "$IDLELAB" merge \
	"$TMP/bad.txt" --no-such-option -o "$TMP/merged"
check "merge: ... the usage error alone" sh -c "! grep -q 'bad.txt' '$ERR'"
expect 2 "merge: no -o for sweep cases: 2, before the file is read" "$IDLELAB" merge "$TMP/bad.txt"
expect 0 "merge -h among case files: 0, nothing read" "$IDLELAB" merge "$TMP/bad.txt" -h
expect 0 "report: a lab result to draw" "$IDLELAB" run -g menu $LAB -f json -o "$TMP/run.json"
expect 2 "report -m without a sweep result: 2, not ignored" "$IDLELAB" report -o "$TMP/report" \
	-m nosuch "$TMP/run.json"
check "report -m: ... says why" grep -q "^idlelab report: --metric: no sweep result given" "$ERR"
check "report -m: ... no page written" test ! -e "$TMP/report"
expect 2 "report -x without a sweep result: 2, not ignored" "$IDLELAB" report -o "$TMP/report" \
	-x interval_us "$TMP/run.json"
expect 2 "governors: an unknown format: 2" "$IDLELAB" governors -f nosuch
expect 2 "platforms: an unknown built-in platform: 2" "$IDLELAB" platforms nosuch
check "platforms: ... said as idlelab platforms" grep -q "^idlelab platforms: nosuch: " "$ERR"
expect 1 "platforms: a platform file with an error: 1" "$IDLELAB" platforms "$TMP/bad.plat"
expect 2 "scenarios: an unknown scenario: 2" "$IDLELAB" scenarios nosuch
expect 2 "states: an unknown format: 2" "$IDLELAB" states --root "$FIX/sysfs/haltpoll-vm" -f nosuch
expect 1 "states: a root that is no directory: 1" "$IDLELAB" states --root "$TMP/nosuch"
expect 2 "measure: a malformed --settle: 2" "$IDLELAB" measure -g menu --settle 5x -- true
expect 1 "measure: a root that is no directory: 1" "$IDLELAB" measure --root "$TMP/nosuch" -g menu -- true
expect 2 "measure: an empty -g list: 2" "$IDLELAB" measure -g , -- true
expect 2 "measure: --iter 0: 2" "$IDLELAB" measure -g menu -n 0 -- true
check "measure: ... with the one --iter message" grep -q \
	"^idlelab measure: --iter: '0' is not in \[1, 1000\]$" "$ERR"
expect 2 "measure: an unknown format: 2" "$IDLELAB" measure -g menu -f nosuch -- true
expect 2 "measure: no command: 2" "$IDLELAB" measure -g menu
MROOT=$TMP/mroot
cp -R "$FIX/sysfs/haltpoll-vm" "$MROOT"
expect 0 "measure: the words after CMD are CMD's, not options" "$IDLELAB" measure --root "$MROOT" \
	-g menu --settle 0 "$TESTS_DIR/live-bump.sh" "$MROOT" 0:1:usage:9 --say --no-such-option
check "measure: ... CMD got them" grep -qx -- "--no-such-option" "$ERR"
expect 1 "measure: an -o that cannot be written: 1, before any run" "$IDLELAB" measure --root "$MROOT" \
	-g menu --settle 0 -o "$TMP/nosuch/m.txt" "$TESTS_DIR/live-bump.sh" "$MROOT" 0:1:usage:9
check "measure: ... said, and no run begun" sh -c \
	"grep -q 'cannot write .*checked before running anything' '$ERR' && ! grep -q 'run 1 of' '$ERR'"
expect 2 "help: an unknown command: 2" "$IDLELAB" help no-such-command
finish
