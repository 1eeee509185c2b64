#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# fidelity-doc.sh write|check DOC SECTION - put SECTION (the output of `fidelity --markdown`)
# between the lines "<!-- fidelity:begin -->" and "<!-- fidelity:end -->" of DOC (write), or
# say whether DOC already holds exactly it (check: exit 1 and a diff when it does not).
set -eu
[ $# -eq 3 ] || { echo "usage: $0 write|check DOC SECTION" >&2; exit 2; }
mode=$1 doc=$2 section=$3
begin='<!-- fidelity:begin -->'
end='<!-- fidelity:end -->'
[ "$(grep -c -x -F "$begin" "$doc")" = 1 ] && [ "$(grep -c -x -F "$end" "$doc")" = 1 ] || {
	echo "$doc: needs one '$begin' line and one '$end' line" >&2; exit 1; }
tmp=$(mktemp "$(dirname "$doc")/.fidelity-doc.XXXXXX")
trap 'rm -f "$tmp"' EXIT
awk -v begin="$begin" -v end="$end" -v section="$section" '
	$0 == begin { print; while ((getline line < section) > 0) print line; skip = 1; next }
	$0 == end { skip = 0 }
	!skip { print }' "$doc" > "$tmp"
case $mode in
write)
	chmod --reference="$doc" "$tmp"
	mv "$tmp" "$doc"
	echo "$doc: findings section written from $section" ;;
check)
	if cmp -s "$doc" "$tmp"; then
		echo "$doc: findings section is current"
	else
		diff -u "$doc" "$tmp" >&2 || true
		echo "$doc: findings section is stale: run 'make fidelity-doc'" >&2
		exit 1
	fi ;;
*)
	echo "usage: $0 write|check DOC SECTION" >&2; exit 2 ;;
esac
