#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The progress line of long commands (src/progress.c: battery, sweep, verdict, stats, replay,
# kgov, measure): shown on a terminal (run under
# script(1), stderr a pseudo-terminal), not shown when stderr is a file or a pipe, forced
# either way by --progress / --no-progress; the data on stdout and in -o files is the same
# bytes with and without it.
. "$(dirname "$0")/lib.sh"
FIX=$TOP/tests/fixtures/traces
need_cmd script "progress on a terminal" "script (util-linux) is not installed"

# on_tty LOG CMD: run the shell command CMD with stdin, stdout and stderr on a pseudo-terminal;
# everything written to the terminal goes to LOG.
on_tty() {
	log=$1
	shift
	script -qec "$*" /dev/null </dev/null >"$log" 2>&1
}

BAT="'$IDLELAB' battery -p rk3588 -g menu,teo --time 200ms -j 2"

# Reference: stderr a file, no progress.
expect 0 "battery, stderr not a terminal" sh -c "$BAT -o '$TMP/ref.json' >'$TMP/ref.out'"
check "... no progress line" sh -c "! grep -q 'runs, ' '$ERR'"

check "battery on a terminal" on_tty "$TMP/tty.log" "$BAT -o '$TMP/tty.json' >'$TMP/tty.out'"
check "... the progress line appears on the terminal" grep -q 'idlelab battery: 46/46 runs, 100 %' "$TMP/tty.log"
check "... redrawn in place" grep -q "$(printf '\r')idlelab battery: 0/46 runs, 0 %" "$TMP/tty.log"
check "... stdout is the same bytes as without it" cmp -s "$TMP/ref.out" "$TMP/tty.out"
check "... and the -o file" cmp -s "$TMP/ref.json" "$TMP/tty.json"

check "battery --no-progress on a terminal" on_tty "$TMP/none.log" \
	"$BAT --no-progress -o '$TMP/none.json' >'$TMP/none.out'"
check "... no progress line" sh -c "! grep -q 'runs, ' '$TMP/none.log'"
check "... the same data" sh -c "cmp -s '$TMP/ref.out' '$TMP/none.out' && cmp -s '$TMP/ref.json' '$TMP/none.json'"

expect 0 "battery --progress into a pipe" sh -c "$BAT --progress -o '$TMP/forced.json' | cat >'$TMP/forced.out'"
check "... lines on stderr" grep -q '^idlelab battery: 46/46 runs, 100 %, [0-9]*:[0-9][0-9]$' "$ERR"
check "... no carriage return or escape in a log" sh -c "! grep -q \"\$(printf '\r\033')\" '$ERR'"
check "... stdout the same bytes" cmp -s "$TMP/ref.out" "$TMP/forced.out"
check "... and the -o file" cmp -s "$TMP/ref.json" "$TMP/forced.json"

# Replay counts the bytes of the trace read; its data on stdout is unchanged.
RP="'$IDLELAB' replay -p haltpoll-vm -g menu,teo,ladder -f csv '$FIX/vm.trace'"
sh -c "$RP" >"$TMP/replay.ref" 2>/dev/null
check "replay on a terminal, stdout to a file" on_tty "$TMP/replay.log" "$RP >'$TMP/replay.out'"
check "... the progress line, in MB" grep -q 'idlelab replay: 0.1/0.1 MB, 100 %' "$TMP/replay.log"
check "... the same output" cmp -s "$TMP/replay.ref" "$TMP/replay.out"
expect 0 "replay --progress from a pipe" sh -c "cat '$FIX/vm.trace' | $(echo "$RP" | sed "s|'$FIX/vm.trace'|-|") --progress"
check "... the bytes read, no total" grep -q '^idlelab replay: 0.1 MB, ' "$ERR"
check "... the same output (but for the path)" sh -c \
	"grep -v '^path,' '$TMP/replay.ref' >'$TMP/a' && grep -v '^path,' '$OUT' >'$TMP/b' && cmp -s '$TMP/a' '$TMP/b'"

# Sweep: the same files with and without the line.
SW="'$IDLELAB' sweep -g menu -p rk3588 -s wakeup --param interval_us=10..50:10 --time 5ms -j 2"
sh -c "$SW -o '$TMP/sw-ref'" 2>/dev/null
check "sweep on a terminal" on_tty "$TMP/sw.log" "$SW -o '$TMP/sw-tty'"
check "... the progress line" grep -q 'idlelab sweep: 5/5 cases, 100 %' "$TMP/sw.log"
check "... the same sweep.csv and sweep.json" sh -c \
	"cmp -s '$TMP/sw-ref/sweep.csv' '$TMP/sw-tty/sweep.csv' && cmp -s '$TMP/sw-ref/sweep.json' '$TMP/sw-tty/sweep.json'"

# Measure (on a fixture tree): the runs done, between the runs; never in the tables.
cp -r "$TOP/tests/fixtures/sysfs/haltpoll-vm" "$TMP/sysfs"
MS="'$IDLELAB' measure --root '$TMP/sysfs' -g menu,ladder --iter 2 --settle 0"
expect 0 "measure, stderr not a terminal" sh -c "$MS -- true"
check "... no progress line" sh -c "! grep -q 'runs, ' '$ERR'"
expect 0 "measure --progress" sh -c "$MS --progress -- true"
check "... a line per run and the last" grep -q '^idlelab measure: 4/4 runs, 100 %' "$ERR"
check "... not in the tables on stdout" sh -c "! grep -q 'runs, ' '$OUT'"
check "measure on a terminal" on_tty "$TMP/measure.log" "$MS -- true >'$TMP/measure.out'"
check "... the progress line" grep -q 'idlelab measure: 4/4 runs, 100 %' "$TMP/measure.log"
check "... erased before each run's own line" grep -q "$(printf '\r\033')\[Kidlelab measure: run 2 of 4" "$TMP/measure.log"

# Verdict: the runs of the grid (n/a cells not counted); the same verdict with and without.
VD="'$IDLELAB' verdict -g menu,teo -p rk3588,haltpoll-vm -s fio -s pingpong:cpus=4 --iter 2 --time 20ms -j 2"
expect 0 "verdict, stderr not a terminal" sh -c "$VD -o '$TMP/vd-ref.txt'"
check "... no progress line" sh -c "! grep -q 'runs, ' '$ERR'"
check "verdict on a terminal" on_tty "$TMP/vd.log" "$VD -o '$TMP/vd-tty.txt'"
check "... the progress line (12 runs: pingpong on haltpoll-vm is n/a)" \
	grep -q 'idlelab verdict: 12/12 runs, 100 %' "$TMP/vd.log"
check "... the same verdict" cmp -s "$TMP/vd-ref.txt" "$TMP/vd-tty.txt"
expect 0 "verdict --progress into a pipe" sh -c "$VD --progress | cat >'$TMP/vd-pipe.txt'"
check "... lines on stderr" grep -q '^idlelab verdict: 12/12 runs, 100 %' "$ERR"
check "... the same verdict on stdout" cmp -s "$TMP/vd-ref.txt" "$TMP/vd-pipe.txt"
check "verdict --no-progress on a terminal" on_tty "$TMP/vd-none.log" "$VD --no-progress -o '$TMP/vd-none.txt'"
check "... no progress line" sh -c "! grep -q 'runs, ' '$TMP/vd-none.log'"

# Every long command takes both options (a usage error would exit 2).
for cmd in battery sweep verdict stats replay kgov measure; do
	check "help $cmd lists --progress and --no-progress" sh -c \
		"'$IDLELAB' help $cmd | grep -q -- '--progress ' && '$IDLELAB' help $cmd | grep -q -- '--no-progress'"
done
expect 0 "stats --no-progress" "$IDLELAB" stats --no-progress -p haltpoll-vm "$FIX/vm.trace"
expect 2 "kgov check --progress still needs --against" "$IDLELAB" kgov check --progress x.c
finish
