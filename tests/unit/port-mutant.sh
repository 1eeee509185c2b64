#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The mutants of tests/unit/port_mutants.list, for the Makefile and test_port_mutants.c.
#
#   port-mutant.sh ids LIST        the mutant ids, one a line
#   port-mutant.sh govs LIST       the governors whose port files have mutants (teo menu)
#   port-mutant.sh files LIST      those port files
#   port-mutant.sh source LIST ID  the port file with ID's sed applied, on stdout; fails unless
#                                  the sed changed exactly one line (a sed that matches nothing,
#                                  or more than the line meant, is a broken mutant)
#   port-mutant.sh table LIST      one PORT_MUTANT(id, gov, "preset", "what") line per mutant
#
# Lines starting with # and empty lines are comments; a line that is neither must have five
# tab-separated fields (id, port file, preset, what, sed), else this fails naming the line.
set -eu

die() {
	echo "port-mutant.sh: $*" >&2
	exit 1
}

[ $# -ge 2 ] || die "usage: port-mutant.sh ids|govs|files|table LIST, or source LIST ID"
mode=$1
list=$2
[ -r "$list" ] || die "$list: cannot read"

# The mutant lines, checked: "LINENO<tab>id<tab>file<tab>preset<tab>what<tab>sed".
rows() {
	awk -F '\t' -v list="$list" '
		/^#/ || /^[ \t]*$/ { next }
		NF != 5 { printf "%s:%d: %d fields, not 5 (tab-separated)\n", list, NR, NF > "/dev/stderr"
			  bad = 1; exit 1 }
		$1 !~ /^[A-Za-z_][A-Za-z0-9_]*$/ { printf "%s:%d: id \"%s\" is not a C identifier\n",
						      list, NR, $1 > "/dev/stderr"; bad = 1; exit 1 }
		$2 !~ /^lib\/gov\/[a-z]+\.c$/ { printf "%s:%d: \"%s\" is not a port file lib/gov/GOV.c\n",
						 list, NR, $2 > "/dev/stderr"; bad = 1; exit 1 }
		$3 $4 ~ /["\\]/ { printf "%s:%d: quote or backslash in the preset or what\n",
				  list, NR > "/dev/stderr"; bad = 1; exit 1 }
		seen[$1]++ { printf "%s:%d: id %s given twice\n", list, NR, $1 > "/dev/stderr"
			     bad = 1; exit 1 }
		{ print NR "\t" $0 }
	' "$list" || die "$list: bad mutant list"
}

# Read and check the whole list first: a bad line fails every mode.
all=$(rows)
[ -n "$all" ] || die "$list: no mutants"

gov_of() {
	basename "$1" .c
}

case $mode in
ids)
	printf '%s\n' "$all" | cut -f 2
	;;
files)
	printf '%s\n' "$all" | cut -f 3 | sort -u
	;;
govs)
	for f in $(printf '%s\n' "$all" | cut -f 3 | sort -u); do gov_of "$f"; done
	;;
table)
	printf '%s\n' "$all" | while IFS='	' read -r n id file preset what sed; do
		printf 'PORT_MUTANT(%s, %s, "%s", "%s")\n' "$id" "$(gov_of "$file")" "$preset" "$what"
	done
	;;
source)
	[ $# -eq 3 ] || die "usage: port-mutant.sh source LIST ID"
	row=$(printf '%s\n' "$all" | awk -F '\t' -v id="$3" '$2 == id')
	[ -n "$row" ] || die "$list: no mutant $3"
	n=$(printf '%s\n' "$row" | cut -f 1)
	file=$(printf '%s\n' "$row" | cut -f 3)
	sed=$(printf '%s\n' "$row" | cut -f 6)
	tmp=$(mktemp)
	trap 'rm -f "$tmp"' EXIT
	sed -e "$sed" "$file" > "$tmp" || die "$list:$n: sed failed on $file"
	# diff's normal format: one "NcN" change of one line, nothing added or deleted
	changes=$(diff "$file" "$tmp" | grep -c '^[0-9]' || true)
	changed=$(diff "$file" "$tmp" | grep -c '^<' || true)
	added=$(diff "$file" "$tmp" | grep -c '^>' || true)
	if [ "$changes" -ne 1 ] || [ "$changed" -ne 1 ] || [ "$added" -ne 1 ]; then
		die "$list:$n: mutant $3: the sed must change exactly one line of $file," \
		    "it changed $changed (added $added)"
	fi
	cat "$tmp"
	;;
*)
	die "unknown mode $mode"
	;;
esac
