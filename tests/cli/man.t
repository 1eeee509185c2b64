#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The man pages (man/*.1.scd, built by `make man` into $(O)/man/): idlelab(1) and one page
# per command the binary lists; each page formats without a warning under man --warnings;
# every option `idlelab help CMD` prints (long --foo and short -x) is on that command's
# page, set in bold as an option is.
. "$(dirname "$0")/lib.sh"
need_cmd man "man pages" "man-db is not installed (apt-get install man-db)"

# The pages built next to the binary, else built here from the sources (scdoc).
PAGES=$(dirname "$IDLELAB")/man
if [ ! -f "$PAGES/idlelab.1" ]; then
	need_cmd scdoc "man pages" "not built and no scdoc (apt-get install scdoc)"
	PAGES=$TMP/man
	mkdir -p "$PAGES"
	for f in "$TOP"/man/*.1.scd; do
		scdoc <"$f" >"$PAGES/$(basename "$f" .scd)" || echo "# scdoc failed on $f"
	done
fi

commands() {
	"$IDLELAB" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }'
}

# The options of CMD's help text: the option column of its option lines (two spaces, then
# -x, --foo or both), every -x and --foo in it, one per line.
help_options() {
	"$IDLELAB" help "$1" | awk '
		/^  (-[A-Za-z0-9],? |    --|--)/ || /^  -[A-Za-z0-9]$/ {
			spec = $0; sub(/^ +/, "", spec); sub(/  .*/, "", spec)
			n = split(spec, w, /[ ,]+/)
			for (i = 1; i <= n; i++) if (w[i] ~ /^--?[A-Za-z0-9]/) { sub(/=.*/, "", w[i]); print w[i] }
		}' | sort -u
}

# An option set in bold in the roff scdoc writes: \fB--foo\fR.
has_option() {
	grep -qF "\\fB$2\\fR" "$1"
}

clean_page() {
	w=$(MANWIDTH=80 man --warnings -l "$1" 2>&1 >/dev/null)
	[ -z "$w" ] || { echo "$w" | sed 's/^/#   /' | head -n 5; return 1; }
}

check "idlelab(1) exists" test -s "$PAGES/idlelab.1"
check "idlelab(1) formats without a warning" clean_page "$PAGES/idlelab.1"
check "idlelab(1) documents the exit statuses" sh -c "grep -q '128' '$PAGES/idlelab.1' && grep -q 'fail-on' '$PAGES/idlelab.1'"
ncmd=0
for cmd in $(commands); do
	ncmd=$((ncmd + 1))
	page=$PAGES/idlelab-$cmd.1
	if ! check "idlelab-$cmd(1) exists" test -s "$page"; then
		continue
	fi
	check "idlelab-$cmd(1) formats without a warning" clean_page "$page"
	check "idlelab(1) lists $cmd" grep -q "idlelab-$cmd" "$PAGES/idlelab.1"
	missing=""
	nopt=0
	for opt in $(help_options "$cmd"); do
		nopt=$((nopt + 1))
		has_option "$page" "$opt" || missing="$missing $opt"
	done
	[ -z "$missing" ] || echo "# idlelab-$cmd(1) lacks:$missing (man/options-from-help.py prints them as scdoc)"
	check "idlelab-$cmd(1) has all $nopt options of 'idlelab help $cmd'" test -z "$missing"
	for section in SYNOPSIS OPTIONS 'EXIT STATUS' FILES ENVIRONMENT EXAMPLES 'SEE ALSO'; do
		grep -q "^\.SH $section\$" "$page" || grep -q "^\.SH \"$section\"\$" "$page" || missing="$missing [$section]"
	done
	check "idlelab-$cmd(1) has every section" test -z "$missing"
done
check "the binary lists commands ($ncmd)" test "$ncmd" -ge 10
# The parser of the help text finds what it should, and a missing option is caught, or the
# checks above prove nothing.
opts=" $(help_options run | tr '\n' ' ')"
for o in -g --governor -o --perfetto-window --seed; do
	check "help_options run finds $o" sh -c "echo '$opts' | grep -q -- ' $o '"
done
sed 's/\\fB--seed\\fR/seed/g' "$PAGES/idlelab-run.1" >"$TMP/lacking.1"
check "a page without --seed is caught" sh -c "! grep -qF '\\fB--seed\\fR' '$TMP/lacking.1'"
check "... while the real page has it" has_option "$PAGES/idlelab-run.1" --seed

# whatis(1) and apropos read the NAME line through lexgrog: what they show must be the line
# as written ("sweep --emit-jobs" once came out as "sweep - emit-jobs").
if command -v lexgrog >/dev/null 2>&1; then
	bad=""
	for scd in "$TOP"/man/*.1.scd; do
		name=$(awk '/^# NAME/ { on = 1; next } on && NF { s = s (s ? " " : "") $0; next }
			on && s { exit } END { print s }' "$scd")
		page=$PAGES/$(basename "$scd" .scd)
		got=$(lexgrog "$page" | sed 's/^[^:]*: "\(.*\)"$/\1/')
		[ "$got" = "$name" ] || bad="$bad $(basename "$scd" .1.scd)"
		[ "$got" = "$name" ] || echo "# whatis of $(basename "$page"): '$got', NAME: '$name'"
	done
	check "every page's whatis line is its NAME line as written" test -z "$bad"
	check "idlelab-merge's whatis names sweep and verdict" sh -c \
		"lexgrog '$PAGES/idlelab-merge.1' | grep -q 'idlelab-merge - combine the case files of the jobs a sweep or verdict emitted'"
	printf '.TH X 1\n.SH NAME\nx - of sweep --emit-jobs\n' >"$TMP/dashes.1"
	check "lexgrog mangles ' --' in a NAME line (why the check above can fail)" sh -c \
		"lexgrog '$TMP/dashes.1' | grep -q 'sweep - emit-jobs'"
else
	skip "whatis lines" "lexgrog (man-db) is not installed"
fi
finish
