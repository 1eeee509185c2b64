#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The scoreboard's baseline check (tests/fidelity/fidelity --check, docs/lab.md): on a short
# run (pseries' rows), a baseline it meets passes, one figure better in the baseline fails
# with exit 3 naming it, an unknown figure is bad input. `make fidelity-check` (make check)
# runs the same check on the whole table against tests/fidelity/baseline.txt.
. "$(dirname "$0")/lib.sh"

FID=$(dirname "$IDLELAB")/tests/fidelity/fidelity
if [ ! -x "$FID" ]; then
	skip "fidelity-check" "no $FID (make check-cli builds it)"
	finish
	exit
fi
SEEDS=$TOP/tests/fidelity/seeds.tsv

expect 0 "a short scoreboard runs" "$FID" --rows pseries/ "$SEEDS"
grep -E '^fidelity_[a-z0-9_]+ [0-9.]+$' "$OUT" | grep -v -e '^fidelity_seeds_lines' -e '^fidelity_numbers' \
	>"$TMP/base.txt"
check "it prints its figures" test "$(wc -l <"$TMP/base.txt")" -ge 10
expect 0 "its own figures as the baseline pass" "$FID" --rows pseries/ --check "$TMP/base.txt" "$SEEDS"
check "every figure checked" grep -q "^fidelity: $(wc -l <"$TMP/base.txt") figures checked against .*, 0 worse" "$OUT"

awk '$1 == "fidelity_robust_right_pct" { $2 += 1 } $1 == "fidelity_robust_false_call_pct" { $2 = -1 } { print }' \
	"$TMP/base.txt" >"$TMP/better.txt"
expect 3 "a better baseline fails" "$FID" --rows pseries/ --check "$TMP/better.txt" "$SEEDS"
check "naming the two figures" sh -c "test \$(grep -c 'is worse than the baseline' '$OUT') -eq 2 &&
	grep -q '^fidelity: fidelity_robust_right_pct is worse' '$OUT' &&
	grep -q '^fidelity: fidelity_robust_false_call_pct is worse' '$OUT'"
awk '$1 == "fidelity_comparisons_raw" { $2 += 100 } { print }' "$TMP/base.txt" >"$TMP/count.txt"
expect 0 "a count without a direction is not a goal" "$FID" --rows pseries/ --check "$TMP/count.txt" "$SEEDS"
awk '$1 == "fidelity_ensemble_members" { $2 += 1 } { print }' "$TMP/base.txt" >"$TMP/ens.txt"
expect 1 "a baseline of another ensemble is bad input" "$FID" --rows pseries/ --check "$TMP/ens.txt" "$SEEDS"
check "saying so" grep -q "ens.txt:[0-9]*: the baseline's robust call used 7 ensemble members, this run 6" "$ERR"
check "the figures say which call they score" sh -c "grep -q '^fidelity: the robust call: every nominal call re-judged' '$OUT' &&
	grep -q '^fidelity_robust_right_pct ' '$OUT' && grep -q '^fidelity_nominal_right_pct ' '$OUT'"
# Progress (issue 26): a line on stderr with --progress, none with --no-progress (stderr is
# not a terminal here, so none by default either), and the same figures on stdout each way.
expect 0 "--progress: a progress line" "$FID" --progress --rows pseries/ "$SEEDS"
check "... on stderr, the lab's runs to 100 %" grep -Eq '^fidelity: lab runs: ([0-9]+)/\1 runs, 100 %' "$ERR"
cp "$OUT" "$TMP/progress.out"
# The comparisons' effect column is what the effect-size figure counts: the weighted share of
# its "ok" (against "smaller" and "larger") among the robust calls with the seeds' sign, and
# "-" on every other comparison (a lab ratio of 0 or inf, a lab mean of 0, is "larger").
awk -F'\t' '/^## comparisons/ { on = 1; next } /^## / { on = 0 }
	on && NF > 1 && $1 != "group" && $11 ~ / (ok|smaller|larger)$/ { n += $10; if ($11 ~ / ok$/) k += $10 }
	on && NF > 1 && $1 != "group" && $11 != "-" && $11 !~ /^([0-9.e+-]+|inf)\/[0-9.e+-]+ (ok|smaller|larger)$/ { bad++ }
	on && NF > 1 && $1 != "group" && $11 ~ /^(0|inf)\// && $11 !~ / larger$/ { bad++ }
	on && NF > 1 && $1 != "group" && $11 != "-" && ($5 != $7 || $5 == "=") { bad++ }
	END { if (bad || !n) exit 1; printf "fidelity_robust_effect_within_pct %.1f\n", 100 * k / n }' \
	"$TMP/progress.out" >"$TMP/effect.txt" 2>/dev/null || true
check "the effect column adds up to the effect-size figure" sh -c "test -s '$TMP/effect.txt' &&
	grep -qxF \"\$(cat '$TMP/effect.txt')\" '$TMP/progress.out'"
# The effects off, inside the seeds' own interval: a part of the off ones, no more.
check "the effects off inside the seeds' interval: at most the ones off" awk '
	/^fidelity_robust_effect_within_pct / { w = $2 }
	/^fidelity_robust_effect_off_in_seeds_ci_pct / { c = $2; seen = 1 }
	/^of the effects off \([0-9.]+\), [0-9.]+ \([0-9.]+ % of the called\) lie inside the seeds/ { line = 1 }
	END { exit !(seen && line && c >= 0 && w + c <= 100.05) }' "$TMP/progress.out"
# The rows above have no lab zero since the LPAR got its background: a fixture without it
# has one (teo-6.14's too-shallow share), which must be scored, and as the larger effect.
expect 0 "a lab zero against the seeds" "$FID" --no-progress "$TOP/tests/fixtures/fidelity-lab-zero.tsv"
check "... is scored as the larger effect" sh -c "grep -q '	0/[0-9.e+-]* larger	' '$OUT' &&
	! grep -q '	0/[0-9.e+-]* \(ok\|smaller\)	' '$OUT'"
expect 0 "--no-progress: none" "$FID" --no-progress --rows pseries/ "$SEEDS"
check "... and stdout is the same bytes" sh -c "! grep -q 'runs, [0-9]* %' '$ERR' && cmp -s '$OUT' '$TMP/progress.out'"
expect 2 "an ensemble beyond the verdict's largest is a usage error" "$FID" --ensemble 65 "$SEEDS"
# --first-seed: another draw of the same model (docs/lab.md, "The scoreboard's own noise").
expect 0 "--first-seed 1 is the default draw" "$FID" --no-progress --first-seed 1 --rows pseries/ "$SEEDS"
check "... the same bytes" cmp -s "$OUT" "$TMP/progress.out"
expect 0 "--first-seed 6: another draw" "$FID" --no-progress --first-seed 6 --rows pseries/ "$SEEDS"
check "... other lab numbers" sh -c "! cmp -s '$OUT' '$TMP/progress.out'"
expect 0 "the ping-pong goal names the draw's seeds" "$FID" --no-progress --ensemble 0 --first-seed 3 \
	--rows i5-10600k/pingpong "$SEEDS"
check "... 3 to 7" sh -c "grep -q '^3	menu-6.16	' '$OUT' && grep -q '^7	goal	' '$OUT' &&
	! grep -q '^[12]	menu-6.16	' '$OUT'"
expect 2 "--first-seed 0 is a usage error" "$FID" --first-seed 0 "$SEEDS"
check "... saying so" grep -q "^fidelity: --first-seed 0: a seed from 1 to 1000000" "$ERR"
expect 2 "--first-seed with --check: the baseline is the draw from seed 1" "$FID" --first-seed 6 \
	--check "$TMP/base.txt" "$SEEDS"
check "... saying so" grep -q "holds the draw of lab seeds from 1: not with --first-seed 6" "$ERR"
# --paired: the nominal call over the seed pairs' sign flips (docs/lab.md, "A paired test").
check "the default test is Welch's relabelling" grep -q \
	"^fidelity: the nominal call's test: the max-T over Welch's t, every relabelling of the 5 + 5" \
	"$TMP/progress.out"
expect 0 "--paired over 6 seeds" "$FID" --no-progress --paired --seeds 6 --ensemble 0 \
	--rows pseries/ "$SEEDS"
check "... says its test" grep -q "^fidelity: the nominal call's test: the max-T over the paired t of \
each comparison's 6 seed pairs, every one of the 2^6 sign flips (--paired)" "$OUT"
check "... and calls" grep -q "^fidelity_nominal_right_pct [1-9]" "$OUT"
expect 2 "--paired over 5 seeds cannot call: a usage error" "$FID" --paired --seeds 5 "$SEEDS"
check "... saying so" grep -q "5 pairs have 32 sign flips, whose smallest p-value 0.0625 is above \
0.05: use --seeds 6 or more" "$ERR"
expect 2 "--paired with --check: the baseline is Welch's" "$FID" --paired --seeds 6 \
	--check "$TMP/base.txt" "$SEEDS"
check "... saying so" grep -q "holds the figures of Welch's test: not with --paired" "$ERR"
echo 'fidelity_nosuch 1' >"$TMP/bad.txt"
expect 1 "an unknown figure is bad input" "$FID" --rows pseries/ --check "$TMP/bad.txt" "$SEEDS"
check "named with its line" grep -q "bad.txt:1: unknown figure fidelity_nosuch" "$ERR"

finish
