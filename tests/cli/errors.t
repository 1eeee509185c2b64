#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Bad input is reported as FILE:LINE with exit status 1 and no output (and no -o file);
# usage errors exit 2.
. "$(dirname "$0")/lib.sh"

gov=$(presets | head -n 1)

# ---- usage errors (exit 2) ----
expect 2 "step without -g" "$IDLELAB" step -p skx --input builtin:demo
check "the message says what is missing" grep -q 'no governor given' "$ERR"
expect 2 "step without -p" "$IDLELAB" step -g menu --input builtin:demo
expect 2 "step without --input" "$IDLELAB" step -g menu -p skx
expect 2 "unknown governor" "$IDLELAB" step -g no-such-gov -p skx --input builtin:demo
check "the unknown governor is named" grep -q "unknown governor 'no-such-gov'" "$ERR"
expect 2 "unknown built-in platform" "$IDLELAB" platforms no-such-platform
expect 2 "unknown built-in script" "$IDLELAB" step --input builtin:nope --print-input
expect 2 "bad --hz" "$IDLELAB" step -g menu -p skx --input builtin:demo --hz 64
expect 2 "bad option value" "$IDLELAB" step -g menu -p skx --input builtin:demo -f yaml
check "usage errors print nothing on stdout" test ! -s "$OUT"

# ---- input errors (exit 1) ----
cat >"$TMP/bad.step" <<'END'
# a script with a typo on line 4
sleep=2ms res=40us

sleep=2ms res=40us stoped=1
END
expect 1 "a bad script line" "$IDLELAB" step --input "$TMP/bad.step" --print-input
check "the error is FILE:LINE: message" grep -q "^idlelab step: $TMP/bad.step:4: unknown field 'stoped'" "$ERR"
check "no output for a bad script" test ! -s "$OUT"
expect 1 "missing script file" "$IDLELAB" step --input "$TMP/none.step" --print-input
check "the missing file is named" grep -q "$TMP/none.step" "$ERR"

cat >"$TMP/bad.plat" <<'END'
platform bad
driver x
description "a bad platform"
cpus 2
  source: test
hz 250
  source: test
state S0 exit_latency=1 target_residency=1us
END
expect 1 "a bad platform file" "$IDLELAB" platforms "$TMP/bad.plat"
check "the platform error is FILE:LINE: message" \
	grep -q "^$TMP/bad.plat:8: invalid exit_latency '1': a time needs a unit" "$ERR"
check "no output for a bad platform file" test ! -s "$OUT"
expect 1 "missing platform file" "$IDLELAB" platforms "$TMP/none.plat"

if [ -z "$gov" ]; then
	for t in "bad script with -o" "bad platform with -o" "empty script"; do
		skip "$t" "no presets yet"
	done
	finish
	exit
fi

expect 1 "step on a bad script with -o" "$IDLELAB" step -g "$gov" -p skx --input "$TMP/bad.step" \
	-o "$TMP/out.txt"
check "the error is FILE:LINE" grep -q "^idlelab step: $TMP/bad.step:4: " "$ERR"
check "no -o file after a bad script" test ! -e "$TMP/out.txt"
check "nothing on stdout after a bad script" test ! -s "$OUT"
expect 1 "step on a bad platform file with -o" "$IDLELAB" step -g "$gov" -p "$TMP/bad.plat" \
	--input builtin:demo -o "$TMP/out.txt"
check "no -o file after a bad platform" test ! -e "$TMP/out.txt"
printf '# nothing\n' >"$TMP/empty.step"
expect 1 "a script without entries" "$IDLELAB" step -g "$gov" -p skx --input "$TMP/empty.step"
check "the empty script is named" grep -q "^idlelab step: $TMP/empty.step: no idle entries" "$ERR"

# ---- one way to parse numbers (lib/util/parse.h) ----------------------------------------------------
R="run -g menu -p rk3588 -s fio"
expect 0 "--time 1.5s: a fraction" "$IDLELAB" $R --time 1.5s -f csv
cp "$OUT" "$TMP/t15"
expect 0 "--time 1500ms" "$IDLELAB" $R --time 1500ms -f csv
check "--time 1.5s is 1500ms, to the byte" cmp -s "$OUT" "$TMP/t15"
expect 0 "--time 0.02: a bare number is seconds" "$IDLELAB" $R --time 0.02
expect 0 "--time 1ms" "$IDLELAB" $R --time 1ms
expect 2 "--time 0: refused" "$IDLELAB" $R --time 0
check "--time 0: the range is said" grep -q "not a duration in (0, 24h]" "$ERR"
expect 2 "--time 25h: absurd, refused" "$IDLELAB" $R --time 25h
expect 2 "--time 1.5ns: finer than a nanosecond" "$IDLELAB" $R --time 1.5ns
expect 2 "--time -1s" "$IDLELAB" $R --time -1s
expect 2 "--time 99999999999999999999s: overflow refused" "$IDLELAB" $R --time 99999999999999999999s
expect 2 "--seed +1: no sign" "$IDLELAB" $R --time 1ms --seed +1
expect 2 "--seed 18446744073709551616: overflow refused" "$IDLELAB" $R --time 1ms --seed 18446744073709551616
expect 0 "--seed 18446744073709551615" "$IDLELAB" $R --time 1ms --seed 18446744073709551615
expect 2 "--iter 0x10: base 10 only" "$IDLELAB" compare -g menu -p rk3588 -s fio --time 1ms --iter 0x10
expect 2 "kgov --seed 0x10: base 10 like the others" "$IDLELAB" kgov check x.c --against menu --seed 0x10
expect 2 "kgov --steps 010 -n: both spellings, base 10" sh -c \
	"'$IDLELAB' kgov check x.c --against menu --steps 0 2>&1 | grep -q 'positive count' && exit 2"
expect 2 "measure --settle 5x" "$IDLELAB" measure -g menu --settle 5x -- true
# ---- scenario parameters ----------------------------------------------------------------------------
expect 2 "-s fio:tick_hz=7: not a CONFIG_HZ" "$IDLELAB" run -g menu -p rk3588 -s fio:tick_hz=7 --time 1ms
check "tick_hz=7: the allowed values are said" grep -q "'7' is not a CONFIG_HZ value (100, 250, 300 or 1000)" "$ERR"
expect 2 "-s fio:tick_hz=100000" "$IDLELAB" run -g menu -p rk3588 -s fio:tick_hz=100000 --time 1ms
expect 0 "-s fio:tick_hz=300" "$IDLELAB" run -g menu -p rk3588 -s fio:tick_hz=300 --time 1ms
expect 2 "-s fio:jobs=2,jobs=3: a key twice" "$IDLELAB" run -g menu -p rk3588 -s fio:jobs=2,jobs=3 --time 1ms
check "a key twice: named" grep -q "fio: 'jobs' given twice" "$ERR"
expect 2 "-s pingpong:cpus=1: impossible" "$IDLELAB" run -g menu -p rk3588 -s pingpong:cpus=1 --time 1ms
check "pingpong:cpus=1: the reason" grep -q 'cpus=1: the token needs a ring of at least 2 CPUs' "$ERR"
expect 2 "sweep --param of a key -s sets" "$IDLELAB" sweep -g menu -p rk3588 -s fio:jobs=2 \
	--param jobs=1..3:1 -o "$TMP/sw"
check "sweep --param over -s: said" grep -q -- "--param jobs: already set in -s fio:jobs=2; give it in one place" "$ERR"
# ---- exit statuses: a bad input file is 1 whatever its kind -------------------------------------------
printf '{"tasks": {"t": {"loop": "x"}}}\n' > "$TMP/bad-rt.json"
expect 1 "a bad rt-app file: exit 1, like a bad platform file" "$IDLELAB" run -g menu -p rk3588 \
	-s "rtapp:$TMP/bad-rt.json" --time 1ms
expect 1 "a missing rt-app file: exit 1" "$IDLELAB" run -g menu -p rk3588 -s "rtapp:$TMP/none.json" --time 1ms
expect 2 "rtapp without a file: usage, exit 2" "$IDLELAB" run -g menu -p rk3588 -s rtapp --time 1ms
expect 1 "a missing step file: prefixed" "$IDLELAB" step -g "$gov" -p skx --input "$TMP/none2.step"
check "a missing step file: 'idlelab step:' first" grep -q "^idlelab step: $TMP/none2.step: cannot read" "$ERR"

# ---- outputs: the message says the real problem ----
mkdir -p "$TMP/adir"
expect 1 "run -o DIR/: refused" "$IDLELAB" run -g menu -p rk3588 -s idle --time 10ms -o "$TMP/adir/"
check "-o DIR/: said to be a directory needing a file name (not 'Not a directory')" \
	grep -q "adir/: ends in '/', a directory: give the output a file name" "$ERR"
expect 1 "run -o DIR: refused" "$IDLELAB" run -g menu -p rk3588 -s idle --time 10ms -o "$TMP/adir"
check "-o DIR: said to be a directory" grep -q "adir is a directory: give the output a file name" "$ERR"
expect 1 "run -o /proc/version: refused" "$IDLELAB" run -g menu -p rk3588 -s idle --time 10ms \
	-o /proc/version
check "-o /proc/version: the directory takes no new files (not 'No such file or directory')" \
	grep -q "cannot write /proc/version: cannot create a file in /proc: it takes no new files" "$ERR"
# The commands that write a directory check it before reading anything too.
expect 1 "report -o /proc/x: refused" "$IDLELAB" report -o /proc/x "$TOP/tests/fixtures/report-fidelity.json"
check "report -o /proc/x: checked first, the reason said" \
	grep -q "report: cannot write /proc/x: cannot create a file in /proc: .*(checked before running anything)" "$ERR"
: >"$TMP/afile"
expect 1 "report -o FILE: refused" "$IDLELAB" report -o "$TMP/afile" "$TOP/tests/fixtures/report-fidelity.json"
check "report -o FILE: not a directory, checked first" \
	grep -q "cannot write $TMP/afile: Not a directory (checked before running anything)" "$ERR"
expect 1 "review --report /proc/x: refused" "$IDLELAB" review /dev/null --report /proc/x
check "review --report /proc/x: checked before the review" \
	grep -q "review --report: cannot write /proc/x: cannot create a file in /proc: .*(checked before running anything)" "$ERR"
expect 1 "review --keep FILE: refused" "$IDLELAB" review /dev/null --keep "$TMP/afile"
check "review --keep FILE: not a directory, checked first" \
	grep -q "cannot write $TMP/afile: Not a directory (checked before running anything)" "$ERR"
expect 1 "stats -o FILE/x: refused" "$IDLELAB" stats -o "$TMP/none.txt/x" "$TOP/tests/fixtures/traces/vm.trace"
check "-o under a missing directory: named" grep -q "no directory $TMP/none.txt" "$ERR"

# ---- an unknown built-in platform: a usage error with the hint, in every command ----
for c in "run -g menu -s idle" "battery" "verdict -g menu,teo -s idle" \
	"stats $TOP/tests/fixtures/traces/vm.trace" "replay -g menu $TOP/tests/fixtures/traces/vm.trace" \
	"step -g menu --input builtin:demo" "sweep -g menu -s fio --param jobs=1..2:1 -o $TMP/sw"; do
	cmd=${c%% *}
	# shellcheck disable=SC2086
	expect 2 "$cmd -p rk3589: usage error" "$IDLELAB" $c -p rk3589
	check "$cmd -p rk3589: named, with the hint" sh -c "grep -q 'rk3589: no such built-in platform' '$ERR' &&
		grep -q \"^Try 'idlelab help $cmd'.\" '$ERR'"
done
expect 2 "platforms rk3589: usage error" "$IDLELAB" platforms rk3589
check "platforms rk3589: with the hint" grep -q "^Try 'idlelab help platforms'." "$ERR"

finish
