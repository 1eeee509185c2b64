# SPDX-License-Identifier: GPL-2.0-only
# tests/cli/lib.sh - a small TAP producer for the CLI tests; each *.t sources it.
#
#   expect RC DESC CMD...   run CMD; pass if its exit status is RC (stderr shown on failure)
#   check DESC CMD...       pass if CMD (a test such as grep -q) succeeds
#   skip DESC REASON        a skipped test
#   finish                  print the plan; exit 1 if anything failed
# After expect, $rc holds the status and $OUT / $ERR the files with stdout / stderr.

: "${IDLELAB:?set IDLELAB to the idlelab binary (make check-cli does)}"
TESTS_DIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$TESTS_DIR/../.." && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/idlelab-cli.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
OUT=$TMP/stdout
ERR=$TMP/stderr
n=0
failed=0

report() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

expect() {
	want=$1 desc=$2
	shift 2
	"$@" >"$OUT" 2>"$ERR"
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		report 0 "$desc"
	else
		report 1 "$desc (exit $rc, want $want)"
		sed 's/^/#   /' "$ERR" | head -n 20
	fi
}

check() {
	desc=$1
	shift
	if "$@"; then report 0 "$desc"; else report 1 "$desc"; fi
}

skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

finish() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
}

# need_cmd CMD WHAT WHY: end the file here, one skip for WHAT, when CMD is not installed.
need_cmd() {
	command -v "$1" >/dev/null 2>&1 && return 0
	skip "$2" "$3"
	finish
	exit $?
}

# need_rtapp PLATFORM RTAPP_FILE WHAT: end the file here, one skip for WHAT, when this build
# has no rt-app reader (idlelab was built without jansson).
need_rtapp() {
	"$IDLELAB" run -g menu -p "$1" -s "rtapp:$2" --time 1ms >/dev/null 2>"$TMP/need-rtapp" &&
		return 0
	grep -q jansson "$TMP/need-rtapp" || return 0
	skip "$3" "built without jansson (no rt-app reader)"
	finish
	exit $?
}

# The preset names, one per line (empty while no governor is ported).
presets() {
	"$IDLELAB" governors -f csv | tail -n +2 | cut -d, -f1
}

# The built-in platform names, one per line.
platforms() {
	"$IDLELAB" platforms -f csv | tail -n +2 | cut -d, -f1
}

# Number of idle entries in a script (lines with a field, outside comments).
entries() {
	sed -e 's/#.*//' "$1" | grep -c '='
}
