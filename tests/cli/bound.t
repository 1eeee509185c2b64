#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The open-loop bound (lib/replay/bound.h) in replay, run --bound and compare --bound; the
# oracle heuristics' names; idlelab-1 as a preset and as the kernel file kgov builds.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace-lib.sh"
FIX=$TOP/tests/fixtures/traces

expect 0 "replay prints the bound" "$IDLELAB" replay -p haltpoll-vm -g idlelab,teo-7.1 -f csv "$FIX/vm.trace"
cp "$OUT" "$TMP/replay"
check "the energy-optimal point first, at lambda 0" \
	test "$(cell "$TMP/replay" bound,lambda "bound=bound 0" lambda_nj_per_us)" = 0.0000
check "a gap row per governor and the recorded one" \
	test "$(grep -c -E '^(recorded|idlelab-1|teo-7.1),0,.*gap to bound: \+[0-9.]+ % energy at equal added latency$' "$TMP/replay")" -eq 3
gap=$(cell "$TMP/replay" governor,iter "governor=idlelab-1" gap_pct)
check "no governor below the frontier (gap $gap)" awk -v g="$gap" 'BEGIN { exit !(g >= 0) }'
opt=$(cell "$TMP/replay" governor,iter "governor=idlelab-1" energy_optimal_mj)
e0=$(cell "$TMP/replay" bound,lambda "bound=bound 0" energy_mj)
check "energy_optimal_mj is the lambda 0 point" test "$opt" = "$e0"

expect 0 "run --bound" "$IDLELAB" run -g teo -p rk3588 -s fio --time 200ms --bound -f csv
check "run: the bound and the gap" sh -c "grep -q '^bound 0,' '$OUT' && grep -q '^teo,0,.*gap to bound' '$OUT'"
expect 0 "compare --bound" "$IDLELAB" compare -g menu,idlelab -p rk3588 -s fio -s video --iter 2 --time 200ms --bound
check "compare: one gap table per scenario" test "$(grep -c '^# gap to bound' "$OUT")" -eq 2
check "compare: one row per governor and iteration" test "$(grep -c 'gap to bound: ' "$OUT")" -eq 8
expect 0 "compare without --bound" "$IDLELAB" compare -g menu -p rk3588 -s fio --time 200ms
check "... prints no bound" sh -c "! grep -q 'bound' '$OUT'"
expect 2 "--bound with --perfetto" "$IDLELAB" run -g teo -p rk3588 -s fio --bound --perfetto "$TMP/x.json"
check "... says why" grep -q 'cannot be combined' "$ERR"

# Closed loop: the oracle is a heuristic, in its name; no output calls anything a lower bound.
expect 0 "governors" "$IDLELAB" governors
check "oracle-heuristic and oracle-heuristic-lat are listed" \
	sh -c "grep -q '^oracle-heuristic ' '$OUT' && grep -q '^oracle-heuristic-lat ' '$OUT'"
check "the idlelab family, alias idlelab" grep -q '^idlelab-1 .* idlelab ' "$OUT"
check "nothing is called a lower bound" sh -c "! grep -qi 'lower bound' '$OUT'"
expect 0 "oracle still works as an alias" "$IDLELAB" compare -g oracle,oracle-heuristic-lat -p rk3588 -s video --time 200ms
check "... with its name as typed" grep -q '^video-60fps *oracle ' "$OUT"

# The kernel file: compiled unmodified, and the port decides as it does.
need_cmd cc "kgov build of kgov-src/idlelab.c" "no C compiler"
expect 0 "kgov build kgov-src/idlelab.c" "$IDLELAB" kgov build "$TOP/kgov-src/idlelab.c" -o "$TMP/idlelab.so" -v
check "... an idlelab governor with its per-CPU struct" \
	grep -q 'idlelab governor, .* per-CPU struct idlelab_cpu' "$OUT" "$ERR"
expect 0 "kgov check against idlelab-1" "$IDLELAB" kgov check "$TMP/idlelab.so" --against idlelab-1 --steps 40000
check "... no mismatch" grep -q '40000 decisions compared .* no mismatch' "$OUT"
expect 0 "the built file runs in the lab" "$IDLELAB" run -g "file:$TMP/idlelab.so" -p pseries -s threads --time 200ms -f csv
cut -d, -f3- "$OUT" >"$TMP/file.csv"
expect 0 "the port on the same run" "$IDLELAB" run -g idlelab -p pseries -s threads --time 200ms -f csv
cut -d, -f3- "$OUT" >"$TMP/port.csv"
check "... the same numbers" cmp -s "$TMP/file.csv" "$TMP/port.csv"
finish
