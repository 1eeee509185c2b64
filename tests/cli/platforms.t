#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `idlelab platforms` lists every file of platforms/, works from any directory (the files
# are built in), shows each platform's sources, and loads platform files by path.
. "$(dirname "$0")/lib.sh"

expect 0 "platforms (table)" "$IDLELAB" platforms
cp "$OUT" "$TMP/table"
platforms >"$TMP/names"
files=$(ls "$TOP"/platforms/*.plat | wc -l)
check "one built-in per platforms/*.plat file" test "$(wc -l <"$TMP/names")" -eq "$files"
for f in "$TOP"/platforms/*.plat; do
	name=$(basename "$f" .plat)
	check "$name is built in" grep -qx "$name" "$TMP/names"
done

expect 0 "platforms from another directory" sh -c "cd / && '$IDLELAB' platforms"
check "the same list from another directory" cmp -s "$OUT" "$TMP/table"

while read -r name; do
	expect 0 "platforms $name" "$IDLELAB" platforms "$name"
	check "$name shows its sources" grep -q '^sources:' "$OUT"
	check "$name has a complete power model" sh -c "! grep -q 'power model is incomplete' '$OUT'"
done <"$TMP/names"
expect 0 "platforms -f json" "$IDLELAB" platforms -f json
check "JSON lists every platform" test "$(grep -c '"driver":' "$OUT")" -eq "$files"
expect 0 "platforms skx -f csv" "$IDLELAB" platforms skx -f csv
check "CSV: a row per state" test "$(tail -n +2 "$OUT" | wc -l)" -eq 4

# A platform by path: absolute, relative with a '/', and a bare FILE.plat.
sed 's/^platform .*/platform my-board/' "$TOP/platforms/rk3399.plat" >"$TMP/board.plat"
expect 0 "platform file by absolute path" "$IDLELAB" platforms "$TMP/board.plat"
check "the file's platform is shown" grep -q '^platform: *my-board' "$OUT"
expect 0 "platform file by bare name" sh -c "cd '$TMP' && '$IDLELAB' platforms board.plat"
expect 0 "platform file by ./path" sh -c "cd '$TMP' && '$IDLELAB' platforms ./board.plat"

# An emulator's line (docs/platforms.md), shown with its source in the table and the JSON,
# and a bad value of it named with file and line: emulator_line FILE KEY TABLE_RE SOURCE_RE
# JSON_RE SED_EXPR ERROR_RE.
emulator_line() {
	file=$1 key=$2
	expect 0 "platform with $key" "$IDLELAB" platforms "$file"
	check "$key shown" grep -q "$3" "$OUT"
	check "$key has its source" grep -q "^  $key: .*$4" "$OUT"
	expect 0 "platform with $key, JSON" "$IDLELAB" platforms "$file" -f json
	check "JSON has $key" grep -q "$5" "$OUT"
	sed "$6" "$file" >"$TMP/bad-$key.plat"
	expect 1 "$key: a bad value" "$IDLELAB" platforms "$TMP/bad-$key.plat"
	check "the error names the file and line" grep -q "bad-$key.plat:[0-9]*: $7" "$ERR"
}

# Host threads: a run on them waits for the thread (the engine's unit tests say how).
TCG=$TOP/tests/fixtures/validation/idlelab-tcg.plat
emulator_line "$TCG" host_threads '^host threads: 1 ' 'thread=single' '"host_threads": 1' \
	's/^host_threads 1/host_threads 3/' 'host_threads 3 is more than the 2 cpus'

# Late timer interrupts (timer_late): a run on them is deterministic and differs from one on
# time (what it changes: the engine's unit tests, docs/platforms.md).
LATE=$TOP/tests/fixtures/validation/idlelab-late.plat
emulator_line "$LATE" timer_late '^timer late:  60\.\.330 us ' 'timer_irq_late_us' \
	'"timer_late_max_ns": 330000' 's/^timer_late .*/timer_late 330us..60us/' \
	'invalid timer_late .330us\.\.60us.'
PP=rtapp:$TOP/workloads/pingpong-2.json,background=0
expect 0 "a run with late timers" "$IDLELAB" run -g menu-6.12.117 -p "$LATE" -s "$PP" --time 1s -f json
cp "$OUT" "$TMP/late1.json"
expect 0 "the same run again" "$IDLELAB" run -g menu-6.12.117 -p "$LATE" -s "$PP" --time 1s -f json
check "late timers are deterministic" cmp -s "$OUT" "$TMP/late1.json"
expect 0 "the run with timers on time" "$IDLELAB" run -g menu-6.12.117 -p "$TCG" -s "$PP" --time 1s -f json
check "late timers change the run" sh -c "! cmp -s '$OUT' '$TMP/late1.json'"

# Timer handlers' run time (timer_handler): deterministic, and it changes a run.
HANDLER=$TOP/tests/fixtures/validation/idlelab-handler.plat
emulator_line "$HANDLER" timer_handler '^timer handler: 30\.\.200 us ' 'timer_handler_us' \
	'"timer_handler_max_ns": 200000' 's/^timer_handler .*/timer_handler 200us..30us/' \
	'invalid timer_handler .200us\.\.30us.'
expect 0 "a run with timed handlers" "$IDLELAB" run -g menu-6.12.117 -p "$HANDLER" -s "$PP" --time 1s -f json
cp "$OUT" "$TMP/handler1.json"
expect 0 "the same run again" "$IDLELAB" run -g menu-6.12.117 -p "$HANDLER" -s "$PP" --time 1s -f json
check "timed handlers are deterministic" cmp -s "$OUT" "$TMP/handler1.json"
check "timed handlers change the run" sh -c "! cmp -s '$OUT' '$TMP/late1.json'"

gov=$(presets | head -n 1)
if [ -n "$gov" ]; then
	expect 0 "step -p FILE" "$IDLELAB" step -g "$gov" -p "$TMP/board.plat" --input builtin:demo
	check "step names the file's platform" grep -q 'on my-board ' "$OUT"
else
	skip "step -p FILE" "no presets yet"
fi

finish
