#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `idlelab governors` lists every preset, the same set in every format, with its kernel,
# upstream file and change note, and every alias points at a preset.
. "$(dirname "$0")/lib.sh"

expect 0 "governors (table)" "$IDLELAB" governors
cp "$OUT" "$TMP/table"
expect 0 "governors -f csv" "$IDLELAB" governors -f csv
cp "$OUT" "$TMP/csv"
expect 0 "governors -f json" "$IDLELAB" governors -f json
cp "$OUT" "$TMP/json"

tail -n +2 "$TMP/csv" | cut -d, -f1 >"$TMP/names"
count=$(wc -l <"$TMP/names")
echo "# presets found: $count"
check "the CSV header is stable" \
	test "$(head -n 1 "$TMP/csv")" = "name,family,kernel,core,aliases,upstream,changes"
check "the JSON lists as many presets as the CSV" \
	test "$(grep -c '"family":' "$TMP/json")" -eq "$count"
check "the table lists as many presets as the CSV" \
	test "$(tail -n +2 "$TMP/table" | grep -vc -e '^note:' -e '^(no presets)')" -eq "$count"
check "preset names are unique" test "$(sort -u "$TMP/names" | wc -l)" -eq "$count"
check "every alias stands for a preset" sh -c "! grep -q '^note: alias' '$TMP/table'"
check "every preset names its kernel" sh -c "! grep -q '\"kernel\": \"\"' '$TMP/json'"
check "every preset names its upstream file" sh -c "! grep -q '\"upstream\": \"\"' '$TMP/json'"
check "every preset says what changed" sh -c "! grep -q '\"changes\": \"\"' '$TMP/json'"

while read -r name; do
	check "table row for $name" grep -q "^$name " "$TMP/table"
done <"$TMP/names"

# The preset names issue 2 promises to scripts, and the aliases.
for name in menu-4.16 menu-4.17 menu-6.13 menu-1 menu-2 menu-3 menu-4 menu-5 menu-6.15 \
	menu-6.16 menu-6.17 menu-6.18 menu-6.19 menu-7.0 menu-7.1 teo-6.13 teo-6.14 teo-6.17 \
	teo-6.19 teo-7.0 teo-7.1 oracle-heuristic menu-6.1.192 menu-6.12.117 teo-6.1.192 teo-6.12.117 \
	menu-6.18.35 teo-6.18.35 ladder-6.18.35 haltpoll-6.18.35; do
	check "promised preset $name is listed" grep -qx "$name" "$TMP/names"
done
check "ladder presets are listed" grep -q '^ladder-' "$TMP/names"
check "haltpoll presets are listed" grep -q '^haltpoll-' "$TMP/names"
# The 6.18 LTS presets name the blobs of the 6.18.35 tree and its framework.
for f in "menu-6.18.35 menu.c ca863ba03d45" "teo-6.18.35 teo.c 8078eca72ca5" \
	"ladder-6.18.35 ladder.c 6617eb494a11" "haltpoll-6.18.35 haltpoll.c 663b7f164d20"; do
	set -- $f
	check "$1 follows $2 $3 under the 6.18.35 core" \
		grep -q "^$1 .* v6\.18\.35 (LTS) *6\.18\.35 .*$2 $3" "$TMP/table"
done
for alias in menu teo ladder haltpoll idlelab oracle; do
	expect 0 "alias $alias resolves in step" "$IDLELAB" step -g "$alias" -p haltpoll-vm --input builtin:demo
done

expect 2 "an unknown format is a usage error" "$IDLELAB" governors -f xml
check "the format error says what is allowed" grep -q "table, csv or json" "$ERR"
expect 2 "a stray argument is a usage error" "$IDLELAB" governors menu

finish
