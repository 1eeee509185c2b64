#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `idlelab step` runs every preset on every built-in platform, alone and side by side, in
# every format; --print-input matches the demo documented in docs/step.md.
. "$(dirname "$0")/lib.sh"

expect 0 "print the built-in demo" "$IDLELAB" step --input builtin:demo --print-input
cp "$OUT" "$TMP/demo.step"
demo=$(entries "$TMP/demo.step")
check "the demo has idle entries" test "$demo" -gt 0
# The documented demo is the built-in one.
sed -n '/^## The built-in demo/,/^## /p' "$TOP/docs/step.md" |
	sed -n '/^```step/,/^```$/p' | sed '1d;$d' >"$TMP/doc-demo.step"
check "docs/step.md shows the built-in demo verbatim" cmp -s "$TMP/demo.step" "$TMP/doc-demo.step"

presets >"$TMP/presets"
platforms >"$TMP/platforms"
count=$(wc -l <"$TMP/presets")
echo "# presets found: $count, platforms: $(wc -l <"$TMP/platforms")"
# Every preset named in issue 2 plus the Debian stable ones and the oracle.
check "idlelab governors lists at least the 36 shipped presets" test "$count" -ge 36
check "idlelab platforms lists the 8 built-in platforms" test "$(wc -l <"$TMP/platforms")" -ge 8

# Rows of a one-governor table: lines that start with the step number.
rows() {
	grep -c '^ *[0-9][0-9]* ' "$1"
}

while read -r plat; do
	while read -r gov; do
		expect 0 "step -g $gov -p $plat" "$IDLELAB" step -g "$gov" -p "$plat" --input builtin:demo
		check "$gov on $plat: one row per idle entry" test "$(rows "$OUT")" -eq "$demo"
	done <"$TMP/presets"
	if [ "$count" -gt 0 ]; then
		all=$(paste -sd, "$TMP/presets")
		expect 0 "all presets side by side on $plat" \
			"$IDLELAB" step -g "$all" -p "$plat" --input builtin:demo
		check "side by side on $plat: one row per idle entry" test "$(rows "$OUT")" -eq "$demo"
		expect 0 "all presets on $plat, CSV" \
			"$IDLELAB" step -g "$all" -p "$plat" --input builtin:demo -f csv
		check "CSV on $plat: a row per entry and preset" \
			test "$(tail -n +2 "$OUT" | wc -l)" -eq $((demo * count))
	fi
done <"$TMP/platforms"

# Edge inputs (negative sleep lengths, QoS 0, an hour-long idle, ...) on every preset.
edges=$(entries "$TESTS_DIR/data/edges.step")
while read -r plat; do
	while read -r gov; do
		expect 0 "edge inputs: $gov on $plat" \
			"$IDLELAB" step -g "$gov" -p "$plat" --input "$TESTS_DIR/data/edges.step"
		check "edge inputs: $gov on $plat, every row" test "$(rows "$OUT")" -eq "$edges"
	done <"$TMP/presets"
done <"$TMP/platforms"

gov=$(head -n 1 "$TMP/presets")
if [ -z "$gov" ]; then
	for t in "JSON output" "--vars" "--detail" "stdin input" "-o FILE" "--hz"; do
		skip "$t" "no presets yet"
	done
	finish
	exit
fi

expect 0 "JSON output" "$IDLELAB" step -g "$gov,oracle" -p rk3399 --input builtin:demo -f json
check "JSON has a step object per idle entry" test "$(grep -c '"step":' "$OUT")" -eq "$demo"
check "JSON has a decision per entry and governor" \
	test "$(grep -c '"governor":' "$OUT")" -eq $((demo * 2))
expect 0 "--vars" "$IDLELAB" step -g menu -p i5-10600k --input builtin:demo --vars
check "--vars shows upstream field names" grep -q 'correction_factor\[' "$OUT"
expect 0 "--detail" "$IDLELAB" step -g menu,teo -p i5-10600k --input builtin:demo --detail
check "--detail adds one table per governor" test "$(grep -c '^# idlelab step: ' "$OUT")" -eq 3
printf 'sleep=10ms res=30us\nsleep=10ms res=1ms tick=1\n' >"$TMP/two.step"
expect 0 "stdin input" sh -c "'$IDLELAB' step -g '$gov' -p skx --input - <'$TMP/two.step'"
check "stdin input: two rows" test "$(rows "$OUT")" -eq 2
check "stdin input is named <stdin>" grep -q 'input <stdin>' "$OUT"
expect 0 "-o FILE" "$IDLELAB" step -g "$gov" -p skx --input "$TMP/two.step" -o "$TMP/out.txt"
check "-o writes the file and nothing to stdout" sh -c "test -s '$TMP/out.txt' && test ! -s '$OUT'"
expect 0 "--hz" "$IDLELAB" step -g "$gov" -p skx --input "$TMP/two.step" --hz 1000
check "--hz changes HZ" grep -q 'HZ=1000' "$OUT"
expect 0 "--param on haltpoll" "$IDLELAB" step -g haltpoll -p haltpoll-vm --input builtin:demo \
	--param guest_halt_poll_ns=0
check "guest_halt_poll_ns=0: haltpoll never polls" sh -c "! grep -q ' POLL ' '$OUT'"
expect 2 "--param no selected governor has" "$IDLELAB" step -g menu -p skx --input builtin:demo \
	--param guest_halt_poll_ns=0

# --diff: only the entries where the governors decide differently
expect 0 "menu-6.16,teo-6.17 side by side" "$IDLELAB" step -g menu-6.16,teo-6.17 -p i5-10600k --input builtin:demo
grep -E '^ *[0-9]+ ' "$OUT" >"$TMP/all"
expect 0 "... with --diff" "$IDLELAB" step -g menu-6.16,teo-6.17 -p i5-10600k --input builtin:demo --diff
grep -E '^ *[0-9]+ ' "$OUT" >"$TMP/diff"
check "--diff says so in the header" grep -q '^# --diff: only the entries where the governors decide differently' "$OUT"
check "--diff drops some lines, keeps some" sh -c "[ \$(wc -l <'$TMP/diff') -gt 0 ] && [ \$(wc -l <'$TMP/diff') -lt \$(wc -l <'$TMP/all') ]"
check "--diff keeps the lines as they were" sh -c "grep -Fxf '$TMP/diff' '$TMP/all' | cmp -s - '$TMP/diff'"
# a cell is "STATE TM" (tick, miss): dropped lines have the same state and tick on both sides
same='{ print ($(NF-3) == $(NF-1) && substr($(NF-2), 1, 1) == substr($NF, 1, 1)) ? "same" : "differ" }'
check "--diff drops only lines where both decide alike" sh -c "grep -Fvxf '$TMP/diff' '$TMP/all' | awk '$same' | sort -u | grep -qx same && ! grep -Fvxf '$TMP/diff' '$TMP/all' | awk '$same' | grep -q differ"
check "--diff keeps only lines where they differ" sh -c "! awk '$same' '$TMP/diff' | grep -q same"
expect 0 "menu-6.15,menu-5 (the same code) with --diff" "$IDLELAB" step -g menu-6.15,menu-5 -p i5-10600k --input builtin:demo --diff
check "... prints no entry" test "$(grep -cE '^ *[0-9]+ ' "$OUT")" -eq 0
expect 0 "--diff -f csv" "$IDLELAB" step -g menu-6.16,teo-6.17 -p i5-10600k --input builtin:demo --diff -f csv
check "... two rows (one per governor) per differing entry" test "$(($(wc -l <"$OUT") - 1))" -eq "$((2 * $(wc -l <"$TMP/diff")))"
expect 2 "--diff with one governor" "$IDLELAB" step -g menu -p skx --input builtin:demo --diff
check "... says it needs two" grep -q 'give two or more with -g A,B' "$ERR"

finish
