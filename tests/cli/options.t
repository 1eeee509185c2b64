#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# options.t - option letters mean the same in every command (idlelab(1), COMMON CONVENTIONS):
# each "-X, --LONG" of every command's help has one LONG for X across the commands, the
# aliases kept for old scripts still work, and a list option given twice either adds to the
# list (-g, -p) or is refused (verdict's -g, -m), never silently replaced.
. "$(dirname "$0")/lib.sh"

for cmd in $("$IDLELAB" help --complete commands); do
	"$IDLELAB" help "$cmd" | sed -n "s/^ *\(-[A-Za-z]\), \(--[a-z-]*\).*/$cmd \1 \2/p"
done >"$TMP/letters"
check "the helps give letters to options" test "$(wc -l <"$TMP/letters")" -gt 40
awk '{ print $2, $3 }' "$TMP/letters" | sort -u | awk '{ n[$1]++; l[$1] = l[$1] " " $2 }
	END { for (k in n) if (n[k] > 1) print k ":" l[k] }' >"$TMP/clashes"
check "one long option per letter across the commands" test ! -s "$TMP/clashes"
sed 's/^/#   /' "$TMP/clashes"
for pair in "-g --governor" "-p --platform" "-s --scenario" "-t --time" "-n --iter" "-j --jobs" \
	"-f --format" "-o --output"; do
	check "${pair% *} is ${pair#* } wherever it is given" grep -q -- " $pair\$" "$TMP/letters"
done

# The aliases of kgov (docs/lab.md): -s is --seed and -n is --steps, as before.
if command -v cc >/dev/null 2>&1; then
	"$IDLELAB" kgov check "$TOP/kgov-src/idlelab.c" --against idlelab-1 --steps 2000 --seed 3 \
		>"$TMP/long" 2>&1
	expect 0 "kgov check -n 2000 -s 3: the old spellings still work" "$IDLELAB" kgov check \
		"$TOP/kgov-src/idlelab.c" --against idlelab-1 -n 2000 -s 3
	check "... and mean --steps and --seed" sh -c "sed 's|/tmp/[^ ]*||g' '$TMP/long' >'$TMP/l' &&
		cat '$OUT' '$ERR' | sed 's|/tmp/[^ ]*||g' | cmp -s - '$TMP/l'"
else
	skip "kgov -n/-s aliases" "no C compiler"
fi

# Lists given twice.
expect 0 "compare -g menu -g teo" "$IDLELAB" compare -g menu -g teo -p rk3588 -s idle -t 20ms -f csv
cp "$OUT" "$TMP/twice"
expect 0 "compare -g menu,teo" "$IDLELAB" compare -g menu,teo -p rk3588 -s idle -t 20ms -f csv
check "compare: -g repeated is -g LIST" cmp -s "$OUT" "$TMP/twice"
expect 0 "battery -g menu -g teo -p rk3588 -p skx" "$IDLELAB" battery -g menu -g teo -p rk3588 -p skx \
	-t 10ms -f csv -j 1
cp "$OUT" "$TMP/twice"
expect 0 "battery -g menu,teo -p rk3588,skx" "$IDLELAB" battery -g menu,teo -p rk3588,skx -t 10ms -f csv -j 1
check "battery: -g and -p repeated are their lists (not the last one alone)" cmp -s "$OUT" "$TMP/twice"
check "... both governors and platforms are there" sh -c "grep -q ',teo,' '$OUT' && grep -q ',menu,' '$OUT' &&
	grep -q '^skx,' '$OUT' && grep -q '^rk3588,' '$OUT'"
expect 0 "sweep -g menu -g teo" "$IDLELAB" sweep -g menu -g teo -p rk3588 -s idle --param cpus=2 -t 10ms \
	-j 1 -o "$TMP/sweep"
check "sweep: both governors swept" sh -c "grep -q ',teo,' '$TMP/sweep/sweep.csv' &&
	grep -q ',menu,' '$TMP/sweep/sweep.csv'"
expect 2 "verdict -g twice: refused (BASE comes first in one list)" "$IDLELAB" verdict -g menu-4 -g menu-5 \
	-p rk3588 -s idle
expect 2 "verdict -m twice: refused, not the last one alone" "$IDLELAB" verdict -g menu-4,menu-5 -p rk3588 \
	-s idle -m score -m energy
check "... saying so" grep -q -- "-m given twice" "$ERR"
expect 2 "report -m twice: refused" "$IDLELAB" report -o "$TMP/r" -m score -m joules "$TOP/tests/fixtures/report-fidelity.json"

# --seed: one parser for every command; the largest 64-bit seed is a seed everywhere (the seeds
# N, N+1, ... wrap), and one more is said to be too large, not "not an integer".
max=18446744073709551615
expect 0 "run --seed $max" "$IDLELAB" run -g menu -p rk3588 -s idle -t 10ms --seed $max
expect 0 "verdict --seed $max: accepted like run" "$IDLELAB" verdict -g menu,teo -p rk3588 -s idle \
	-t 10ms --iter 2 --seed $max
check "verdict --seed $max: the seed in its settings" sh -c "'$IDLELAB' verdict -g menu,teo -p rk3588 \
	-s idle -t 10ms --iter 2 --seed $max -f json | grep -q '$max'"
expect 2 "verdict --seed 2^64: refused" "$IDLELAB" verdict -g menu,teo -p rk3588 -s idle --seed 18446744073709551616
check "... as too large" grep -q -- "--seed: 18446744073709551616 is larger than the largest seed, $max" "$ERR"
expect 2 "run --seed 1x: refused" "$IDLELAB" run -g menu -p rk3588 -s idle --seed 1x
check "... as not an integer" grep -q -- "--seed: '1x' is not a non-negative integer" "$ERR"

# --time: a bare number is seconds (10 is 10 s), a step script's bare number ns: said where the
# option is, in each command's help and man page, and in docs/step.md.
for cmd in run compare battery sweep verdict; do
	check "help $cmd: --time's bare number is seconds" sh -c \
		"'$IDLELAB' help $cmd | grep -A1 -- '--time T' | grep -q 'a bare number is seconds'"
	check "idlelab-$cmd(1): the same" grep -q 'a bare number is seconds' "$TOP/man/idlelab-$cmd.1.scd"
done
check "help step: a script's bare number is ns" sh -c "'$IDLELAB' help step | grep -q 'a bare number'"
check "docs/step.md: a bare number is nanoseconds, unlike --time" grep -q 'A bare' "$TOP/docs/step.md"
expect 0 "run --time 0.01 (a bare number: seconds)" "$IDLELAB" run -g menu -p rk3588 -s idle --time 0.01
check "... 10 ms simulated" grep -Eq '^time_ns +10000000$' "$OUT"
finish
