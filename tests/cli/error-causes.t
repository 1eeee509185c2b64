#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Errors that name their cause: a `-g file:` object that is missing or not a governor shows
# its path and the loader's reason (dlerror()), exit 1 in every command that takes -g;
# `kgov build` into a path it cannot write names the path, a directory given as the source
# or the output says so; the exit statuses are documented in `idlelab --help`.
. "$(dirname "$0")/lib.sh"
FIX=$TOP/tests/fixtures/traces

# ---- -g file: ----
printf 'not an ELF object\n' >"$TMP/text.so"
for cmd in "run -p skx -s idle -t 10ms" "compare -p skx -s idle -t 10ms" "step -p skx --input builtin:demo" \
	"replay -p haltpoll-vm $FIX/vm.trace" "battery -p skx -t 10ms -j 1"; do
	name=${cmd%% *}
	# shellcheck disable=SC2086
	expect 1 "$name -g file:missing.so: exit 1" "$IDLELAB" $cmd -g "file:$TMP/missing.so"
	check "... names the path and the reason" grep -q "^idlelab $name: $TMP/missing.so: No such file or directory" "$ERR"
	check "... not 'unknown governor'" sh -c "! grep -q 'unknown governor' '$ERR'"
	# shellcheck disable=SC2086
	expect 1 "$name -g file:text.so: exit 1" "$IDLELAB" $cmd -g "file:$TMP/text.so"
	check "... shows dlerror()" grep -q "$TMP/text.so: cannot load: $TMP/text.so: .*file too short\|invalid ELF header" "$ERR"
done
if command -v cc >/dev/null 2>&1 && echo 'int not_a_governor;' | cc -shared -fPIC -x c - -o "$TMP/other.so" 2>/dev/null; then
	expect 1 "-g file: of a shared object that is not a kgov object" \
		"$IDLELAB" run -g "file:$TMP/other.so" -p skx -s idle -t 10ms
	check "... says what it lacks and how to make one" grep -q "other.so: not a kgov object.*idlelab kgov build" "$ERR"
else
	skip "-g file: of another shared object" "no C compiler"
fi
expect 1 "-g file:X.so@PRESET with an unknown preset" "$IDLELAB" run -g "file:$TMP/text.so@nope-1" -p skx -s idle
check "... names the preset" grep -q "unknown preset 'nope-1' after '@'" "$ERR"
expect 2 "an unknown built-in governor stays a usage error" "$IDLELAB" run -g nope-1.0 -p skx -s idle
check "... named as such" grep -q "unknown governor 'nope-1.0'" "$ERR"
check "a failed -g writes no output file" sh -c "'$IDLELAB' run -g 'file:$TMP/missing.so' -p skx -s idle -o '$TMP/run.out' 2>/dev/null; test ! -e '$TMP/run.out'"

# ---- kgov build: where it writes, what it reads ----
printf 'int x;\n' >"$TMP/gov.c"
touch "$TMP/plainfile"
expect 1 "kgov build -o into a missing directory" "$IDLELAB" kgov build "$TMP/gov.c" -o "$TMP/no/such/dir/x.so"
check "... names the path and the reason (the missing directory)" \
	grep -q "cannot write $TMP/no/such/dir/x.so: no directory $TMP/no/such/dir" "$ERR"
check "... before compiling (no compiler output)" sh -c "! grep -q 'compiler failed' '$ERR'"
expect 1 "kgov build -o under a plain file" "$IDLELAB" kgov build "$TMP/gov.c" -o "$TMP/plainfile/x.so"
check "... names the path and the reason (a file where a directory should be)" \
	grep -q "cannot write $TMP/plainfile/x.so: $TMP/plainfile is not a directory" "$ERR"
if [ "$(id -u)" -ne 0 ]; then
	mkdir "$TMP/ro" && chmod 555 "$TMP/ro"
	expect 1 "kgov build -o into a read-only directory" "$IDLELAB" kgov build "$TMP/gov.c" -o "$TMP/ro/x.so"
	check "... names the path and the reason" \
		grep -q "cannot write $TMP/ro/x.so: cannot create a file in .*/ro: Permission denied" "$ERR"
elif [ -d /sys/kernel ] && ! touch /sys/idlelab-probe 2>/dev/null; then
	expect 1 "kgov build -o into sysfs (unwritable even for root)" "$IDLELAB" kgov build "$TMP/gov.c" -o /sys/x.so
	check "... names the path" grep -q "cannot write /sys/x.so: " "$ERR"
else
	skip "kgov build into an unwritable directory" "root, and no unwritable directory"
fi
expect 1 "kgov build -o DIR" "$IDLELAB" kgov build "$TMP/gov.c" -o "$TMP"
check "... says it is a directory" grep -q "$TMP: is a directory; give the object's file name" "$ERR"
expect 1 "kgov record -o DIR, before recording" "$IDLELAB" kgov record "$TMP/gov.c" -o "$TMP"
check "... says it is a directory" grep -q "$TMP: is a directory; give the vector's file name" "$ERR"
expect 1 "kgov record -o into a missing directory" "$IDLELAB" kgov record "$TMP/gov.c" -o "$TMP/no/v.kv.xz"
check "... names the path and the reason (the missing directory)" \
	grep -q "cannot write $TMP/no/v.kv.xz: no directory $TMP/no" "$ERR"
mkdir -p "$TMP/linux"
expect 1 "kgov build DIR" "$IDLELAB" kgov build "$TMP/linux"
check "... says it is a directory, not a source file" grep -q "$TMP/linux: is a directory, not a governor source file" "$ERR"
check "... not an I/O error" sh -c "! grep -q 'Input/output error' '$ERR'"
expect 1 "kgov check DIR" "$IDLELAB" kgov check "$TMP/linux" --against menu
check "... says it is a directory" grep -q "$TMP/linux: is a directory" "$ERR"
expect 1 "kgov build of a file that is not a governor" "$IDLELAB" kgov build "$TMP/gov.c" -o "$TMP/gov.so"
check "... says what is missing" grep -q "struct cpuidle_governor" "$ERR"
check "... and leaves no object" test ! -e "$TMP/gov.so"

# ---- the exit statuses, the same everywhere ----
expect 0 "idlelab --help" "$IDLELAB" --help
for code in '0  success' '1  bad input or failure' '2  usage error' '3  a verdict or threshold failed (--fail-on)' \
	'128+N  killed by signal N'; do
	check "--help documents '$code'" grep -qF "  $code" "$OUT"
done
finish
