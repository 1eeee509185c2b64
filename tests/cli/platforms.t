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

# An emulator's host threads (docs/platforms.md): shown with their source, in the table and
# the JSON; a run on them waits for the thread (the engine's unit tests say how).
TCG=$TOP/tests/fixtures/validation/idlelab-tcg.plat
expect 0 "platform with host_threads" "$IDLELAB" platforms "$TCG"
check "host threads shown" grep -q '^host threads: 1 ' "$OUT"
check "host_threads has its source" grep -q '^  host_threads: .*thread=single' "$OUT"
expect 0 "platform with host_threads, JSON" "$IDLELAB" platforms "$TCG" -f json
check "JSON has host_threads" grep -q '"host_threads": 1' "$OUT"
sed 's/^host_threads 1/host_threads 3/' "$TCG" >"$TMP/threads3.plat"
expect 1 "host_threads above cpus" "$IDLELAB" platforms "$TMP/threads3.plat"
check "the error names the file and line" grep -q 'threads3.plat:[0-9]*: host_threads 3 is more than the 2 cpus' "$ERR"

# Late timer interrupts (timer_late): shown with their source, in the table and the JSON; a
# bad range names the file and line; a run on them is deterministic and differs from one on
# time (what it changes: the engine's unit tests, docs/platforms.md).
LATE=$TOP/tests/fixtures/validation/idlelab-late.plat
expect 0 "platform with timer_late" "$IDLELAB" platforms "$LATE"
check "timer lateness shown" grep -q '^timer late:  60\.\.330 us ' "$OUT"
check "timer_late has its source" grep -q '^  timer_late: .*timer_irq_late_us' "$OUT"
expect 0 "platform with timer_late, JSON" "$IDLELAB" platforms "$LATE" -f json
check "JSON has timer_late" grep -q '"timer_late_max_ns": 330000' "$OUT"
sed 's/^timer_late .*/timer_late 330us..60us/' "$LATE" >"$TMP/late-bad.plat"
expect 1 "timer_late range upside down" "$IDLELAB" platforms "$TMP/late-bad.plat"
check "the error names the file and line" grep -q 'late-bad.plat:[0-9]*: invalid timer_late .330us\.\.60us.' "$ERR"
PP=rtapp:$TOP/workloads/pingpong-2.json,background=0
expect 0 "a run with late timers" "$IDLELAB" run -g menu-6.12.117 -p "$LATE" -s "$PP" --time 1s -f json
cp "$OUT" "$TMP/late1.json"
expect 0 "the same run again" "$IDLELAB" run -g menu-6.12.117 -p "$LATE" -s "$PP" --time 1s -f json
check "late timers are deterministic" cmp -s "$OUT" "$TMP/late1.json"
expect 0 "the run with timers on time" "$IDLELAB" run -g menu-6.12.117 -p "$TCG" -s "$PP" --time 1s -f json
check "late timers change the run" sh -c "! cmp -s '$OUT' '$TMP/late1.json'"

gov=$(presets | head -n 1)
if [ -n "$gov" ]; then
	expect 0 "step -p FILE" "$IDLELAB" step -g "$gov" -p "$TMP/board.plat" --input builtin:demo
	check "step names the file's platform" grep -q 'on my-board ' "$OUT"
else
	skip "step -p FILE" "no presets yet"
fi

finish
