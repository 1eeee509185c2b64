#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# deps.t - the tree's layering (scripts/check-deps.py): no include cycle among the files of
# src/ nor among the parts of lib/, lib/gov includes nothing of lib/kgov, no call cycle among
# the CLI's objects, and the command files are leaves. Then the same check on small planted
# trees, each with one broken rule, so that it is shown to fail.
. "$(dirname "$0")/lib.sh"
need_cmd python3 "the layering checks" "python3 is not installed"
CHECK="python3 $TOP/scripts/check-deps.py"
OBJ=$(dirname "$IDLELAB")/src

expect 0 "this tree: no include cycle, lib/gov includes no lib/kgov" $CHECK --top "$TOP"
if [ -f "$OBJ/commands.o" ]; then
	expect 0 "this build: no call cycle among src/*.o, command files are leaves" \
		$CHECK --top "$TOP" --objects "$OBJ"
else
	skip "this build: no call cycle among src/*.o" "no objects next to $IDLELAB"
fi

# plant DIR FILE TEXT: a file of a planted tree.
plant() {
	mkdir -p "$(dirname "$1/$2")"
	printf '%b\n' "$3" >"$1/$2"
}

T=$TMP/cycle
plant $T src/a.c '#include "a.h"\n#include "b.h"'
plant $T src/a.h '/* a */'
plant $T src/b.c '#include "b.h"\n#include "a.h"'
plant $T src/b.h '/* b */'
expect 1 "planted: a.c includes b.h, b.c includes a.h" $CHECK --top $T
check "the cycle is named with its include lines" grep -q \
	'include cycle: src/a -> src/b -> src/a (src/a.c:2 includes b.h; src/b.c:2 includes a.h)' "$OUT"

T=$TMP/hcycle
plant $T src/x.h '#include "y.h"'
plant $T src/y.h '#include "z.h"'
plant $T src/z.h '#include "x.h"'
expect 1 "planted: three headers in a ring" $CHECK --top $T
check "the ring is named" grep -q 'include cycle: src/x -> src/y -> src/z -> src/x' "$OUT"

T=$TMP/acyclic
plant $T src/a.c '#include "a.h"\n#include "b.h"'
plant $T src/a.h '#include "b.h"'
plant $T src/b.c '#include "b.h"\n#include "gov/g.h"'
plant $T src/b.h '/* b */'
plant $T lib/gov/g.h '/* g */'
expect 0 "planted: a uses b, b uses the library: no cycle" $CHECK --top $T

T=$TMP/govkgov
plant $T lib/gov/menu.c '#include "../kgov/load.h"'
plant $T lib/kgov/load.h '/* load */'
expect 1 "planted: lib/gov includes lib/kgov (no cycle yet)" $CHECK --top $T
check "named as the gov/kgov rule" grep -q \
	'lib/gov/menu.c:1 includes ../kgov/load.h: lib/gov includes nothing of lib/kgov' "$OUT"

T=$TMP/libcycle
plant $T lib/kgov/load.c '#include "gov/governors.h"'
plant $T lib/gov/governors.h '/* governors */'
plant $T lib/gov/registry.c '#include "kgov/kgov.h"'
plant $T lib/kgov/kgov.h '/* kgov */'
expect 1 "planted: lib/gov <-> lib/kgov" $CHECK --top $T
check "the library cycle is named" grep -q 'library include cycle: lib/gov -> lib/kgov -> lib/gov' "$OUT"

T=$TMP/libsrc
plant $T lib/util/x.c '#include "../../src/cli.h"'
plant $T src/cli.h '/* cli */'
expect 1 "planted: the library includes src/" $CHECK --top $T
check "named" grep -q 'the library includes nothing of src/' "$OUT"

# Objects: the cycle run.c <-> lab_cli.c had (a helper calling a command's usage).
if command -v cc >/dev/null 2>&1 && command -v nm >/dev/null 2>&1; then
	T=$TMP/calls
	mkdir -p $T/top $T/obj
	plant $T c/cmd_run.c 'int lab_main(void);\nint cmd_run(void) { return lab_main(); }\nvoid cmd_run_usage(void) {}'
	plant $T c/lab_cli.c 'void cmd_run_usage(void);\nint lab_main(void) { cmd_run_usage(); return 0; }'
	plant $T c/commands.c 'int cmd_run(void);\nint run(void) { return cmd_run(); }'
	for f in cmd_run lab_cli commands; do cc -c -o $T/obj/$f.o $T/c/$f.c; done
	expect 1 "planted objects: lab_cli.o calls cmd_run.o and back" $CHECK --top $T/top --objects $T/obj
	check "the call cycle is named" grep -q \
		'call cycle: cmd_run -> lab_cli -> cmd_run (cmd_run.o calls lab_main of lab_cli.o; lab_cli.o calls cmd_run_usage of cmd_run.o)' "$OUT"
	check "and the command file is not a leaf" grep -q \
		'lab_cli.o calls cmd_run_usage of cmd_run.o: a command file is a leaf' "$OUT"
	plant $T c/lab_cli.c 'int lab_main(void) { return 0; }'
	cc -c -o $T/obj/lab_cli.o $T/c/lab_cli.c
	expect 0 "planted objects: the usage passed down instead: no cycle" $CHECK --top $T/top --objects $T/obj
else
	skip "planted objects" "cc or nm is not installed"
fi
finish
