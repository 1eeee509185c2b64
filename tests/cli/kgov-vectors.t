#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Golden decision vectors (tests/vectors/, recorded from the exact upstream files, see its
# README.md): every preset replays its vector with no difference, every preset has one, and a
# vector replayed against the wrong preset is rejected at a decision.
. "$(dirname "$0")/lib.sh"

VEC=$TOP/tests/vectors
JOBS=$(nproc 2>/dev/null || echo 2)
start=$(date +%s)

# Verify all vectors, $JOBS at a time; each leaves PRESET.out and PRESET.rc in $TMP.
ls "$VEC"/*.kv.xz | xargs -P "$JOBS" -I{} sh -c '
	p=$(basename "$1" .kv.xz)
	"$2" kgov verify "$1" --against "$p" >"$3/$p.out" 2>&1
	echo $? >"$3/$p.rc"' sh {} "$IDLELAB" "$TMP"
echo "# verified $(ls "$VEC"/*.kv.xz | wc -l) vectors in $(($(date +%s) - start)) s ($JOBS jobs)"

for f in "$VEC"/*.kv.xz; do
	p=$(basename "$f" .kv.xz)
	if [ "$(cat "$TMP/$p.rc")" = 0 ] && tail -n 1 "$TMP/$p.out" | grep -q 'no mismatch$'; then
		report 0 "$p: $(tail -n 1 "$TMP/$p.out" | sed 's/.* vs //')"
	else
		report 1 "$p replays its vector"
		sed 's/^/#   /' "$TMP/$p.out" | head -n 30
	fi
	check "$p: at least 10^6 decisions" \
		test "$(tail -n 1 "$TMP/$p.out" | sed -n 's/.*: \([0-9]*\) of [0-9]* decisions.*/\1/p')" -ge 1000000
done

presets | grep -v '^oracle-heuristic' | while read -r p; do
	[ -f "$VEC/$p.kv.xz" ] || echo "$p"
done >"$TMP/missing"
check "every preset but the oracle heuristics has a vector (missing: $(tr '\n' ' ' <"$TMP/missing"))" \
	test ! -s "$TMP/missing"
check "README.md lists every vector" sh -c "for f in '$VEC'/*.kv.xz; do grep -q \"\$(basename \$f)\" '$VEC/README.md' || exit 1; done"

# The test can fail: menu-6.17's decisions are not menu-6.18's.
expect 1 "menu-6.17's vector against menu-6.18 is rejected" \
	"$IDLELAB" kgov verify "$VEC/menu-6.17.kv.xz" --against menu-6.18
check "... at a decision, with the port's state" grep -q '^MISMATCH at decision #[0-9]* (run' "$OUT"
check "... and the last line counts the verified decisions" \
	sh -c "tail -n 1 '$OUT' | grep -q 'vs menu-6.18: [0-9]* of 1000000 decisions verified, first MISMATCH above'"
expect 1 "a vector of another family is refused" \
	"$IDLELAB" kgov verify "$VEC/teo-7.1.kv.xz" --against menu-7.1
check "... naming both" grep -q 'records the teo governor, menu-7.1 is menu' "$ERR"
expect 2 "verify without --against is a usage error" "$IDLELAB" kgov verify "$VEC/teo-7.1.kv.xz"
expect 1 "a missing vector file" "$IDLELAB" kgov verify "$TMP/none.kv.xz" --against teo-7.1
finish
