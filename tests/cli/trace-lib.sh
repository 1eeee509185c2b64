# SPDX-License-Identifier: GPL-2.0-only
# tests/cli/trace-lib.sh - reading the CSV output of `idlelab stats` and `replay` in tests.
#
#   cell FILE HEADER SELECT COLUMN
#
# prints COLUMN of the first row that matches SELECT ("key=value;key2=value2") in the table
# whose header line starts with HEADER (tables are separated by blank lines).

cell() {
	awk -F, -v pre="$2" -v sel="$3" -v want="$4" '
		BEGIN { n = split(sel, conds, ";") }
		/^$/ { hdr = 0; intable = 0; next }
		!hdr { hdr = 1; intable = index($0, pre) == 1
		       if (intable) for (i = 1; i <= NF; i++) col[$i] = i
		       next }
		intable { ok = 1
			  for (j = 1; j <= n; j++) { split(conds[j], kv, "="); if ($col[kv[1]] != kv[2]) ok = 0 }
			  if (ok) { print $col[want]; exit } }' "$1"
}

# The value of KEY in the key,value table of FILE that holds it.
kv() {
	cell "$1" key,value "key=$2" value
}
