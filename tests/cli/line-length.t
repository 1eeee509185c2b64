#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# line-length.t - the library's and the CLI's C files keep to 100 columns (a tab advances to the
# next multiple of 8, a UTF-8 character is one column): scripts/check-line-length.py on lib/ and
# src/, and the script itself on planted files, so that a check that always passes would fail here.
. "$(dirname "$0")/lib.sh"
need_cmd python3 "line length" "python3 is not installed"
CHECK=$TOP/scripts/check-line-length.py

expect 0 "no line of lib/ is over 100 columns" python3 "$CHECK"
check "nothing listed" test ! -s "$OUT"
expect 0 "no line of src/ is over 100 columns" python3 "$CHECK" "$TOP/src"
check "nothing listed for src/" test ! -s "$OUT"

mkdir -p "$TMP/src"
tab=$(printf '\t')
# 2 tabs (16 columns) + 84 characters = 100: at the limit.
printf '%s%s%s\n' "$tab" "$tab" "$(printf '%084d' 0)" >"$TMP/src/ok.c"
# One UTF-8 character (2 bytes) in 100 columns: still 100.
printf '/* \302\265 %095d */\n' 0 | cut -c1-101 >"$TMP/src/utf8.h"
expect 0 "a line of exactly 100 columns, tabs and UTF-8 counted as columns" \
	python3 "$CHECK" "$TMP/src"

# A tab in the middle advances to the next stop: "x" + tab = 8 columns, + 93 = 101.
printf 'int a;\nx%s%s\n' "$tab" "$(printf '%093d' 0)" >"$TMP/src/long.c"
expect 1 "a line of 101 columns (a tab mid-line) fails" python3 "$CHECK" "$TMP/src"
check "it is named FILE:LINE with its width" grep -q 'src/long.c:2: 101 columns' "$OUT"
check "and only it" test "$(wc -l <"$OUT")" -eq 1
expect 0 "--max raises the limit" python3 "$CHECK" --max 101 "$TMP/src"
expect 2 "a bad --max is a usage error" python3 "$CHECK" --max x

finish
