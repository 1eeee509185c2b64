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

gov=$(presets | head -n 1)
if [ -n "$gov" ]; then
	expect 0 "step -p FILE" "$IDLELAB" step -g "$gov" -p "$TMP/board.plat" --input builtin:demo
	check "step names the file's platform" grep -q 'on my-board ' "$OUT"
else
	skip "step -p FILE" "no presets yet"
fi

finish
