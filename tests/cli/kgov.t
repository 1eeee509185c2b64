#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `idlelab kgov` on a real kernel file: Debian's linux-source-6.12 (extracted here, at test
# time, into a temporary directory) is built, run under `step` and `run`, checked against its
# preset, recorded and verified; a mutated copy is rejected; usage errors exit 2, runtime
# errors 1. Nothing of the kernel tree outlives the test.
. "$(dirname "$0")/lib.sh"

TARBALL=/usr/src/linux-source-6.12.tar.xz
GOV=linux-source-6.12/drivers/cpuidle/governors

# ---- usage errors and missing files (no kernel source needed) ----
expect 2 "kgov without an action" "$IDLELAB" kgov
expect 2 "an unknown action" "$IDLELAB" kgov frobnicate x.c
check "... names the actions" grep -q 'build, check, record, verify or diff' "$ERR"
expect 2 "check without --against" "$IDLELAB" kgov check x.c
expect 2 "check with an unknown preset" "$IDLELAB" kgov check x.c --against nope-1.0
expect 2 "build of a .so" "$IDLELAB" kgov build x.so
expect 2 "build with --against" "$IDLELAB" kgov build x.c --against menu-7.1
expect 2 "--steps 0" "$IDLELAB" kgov check x.c --against menu-7.1 --steps 0
expect 2 "a negative seed" "$IDLELAB" kgov check x.c --against menu-7.1 --seed -1
expect 2 "-p with --random-platforms" "$IDLELAB" kgov check x.c --against menu-7.1 -p skx --random-platforms
expect 2 "record without -o" "$IDLELAB" kgov record x.c
expect 2 "record with --against" "$IDLELAB" kgov record x.c --against menu-7.1 -o v.kv
expect 2 "verify with --seed" "$IDLELAB" kgov verify v.kv --against menu-7.1 --seed 3
expect 2 "--as outside record" "$IDLELAB" kgov check x.c --against menu-7.1 --as menu-7.1
expect 2 "two source files" "$IDLELAB" kgov build a.c b.c
expect 0 "kgov --help" "$IDLELAB" kgov --help
check "... shows all four actions" sh -c "grep -q 'kgov record' '$OUT' && grep -q 'kgov verify' '$OUT'"
expect 1 "build of a missing file" "$IDLELAB" kgov build "$TMP/nonexistent/menu.c" -o "$TMP/x.so"
expect 1 "check of a missing file" "$IDLELAB" kgov check "$TMP/nonexistent/menu.c" --against menu-7.1
expect 1 "step with a missing object: an error naming it" "$IDLELAB" step -g "file:$TMP/nonexistent.so" -p skx --input builtin:demo
check "... with the path and the reason" grep -q "nonexistent.so: No such file or directory" "$ERR"
expect 1 "record of a missing object" "$IDLELAB" kgov record "$TMP/none.so" -o "$TMP/v.kv"
check "... writes no vector" test ! -e "$TMP/v.kv"

if [ ! -r "$TARBALL" ]; then
	skip "Debian linux-source-6.12 tests" "no $TARBALL (apt-get install linux-source-6.12)"
	finish
	exit
fi
tar -xJf "$TARBALL" -C "$TMP" --wildcards "$GOV/*"
SRC=$TMP/$GOV

# ---- build, and the object wherever a preset goes ----
expect 0 "kgov build menu.c from $TARBALL" "$IDLELAB" kgov build "$SRC/menu.c" -o "$TMP/menu.so" -v
check "... shows the compiler command" grep -q -- '-nostdinc' "$OUT"
check "... names the file's blob" grep -q 'menu governor, blob 0ce732345001' "$OUT"
check "... wrote the object" test -s "$TMP/menu.so"
check "... and says so, with the -g that runs it" grep -q "^kgov: wrote $TMP/menu.so (the menu governor of .*); run it with -g file:$TMP/menu.so" "$OUT"
expect 0 "step -g file:menu.so" "$IDLELAB" step -g "file:$TMP/menu.so" -p skx --input builtin:demo -f csv
cp "$OUT" "$TMP/step-file.csv"
expect 0 "step -g menu-6.12.117 (its preset)" "$IDLELAB" step -g menu-6.12.117 -p skx --input builtin:demo -f csv
# column 1 is the governor's name, the last its diagnostic vars (the port's only): the
# decisions in between must be the same
cut -d, -f2-22 "$TMP/step-file.csv" >"$TMP/step-file.cut"
cut -d, -f2-22 "$OUT" >"$TMP/step-port.cut"
check "the file decides like its preset under step ($(($(wc -l <"$TMP/step-port.cut") - 1)) steps)" \
	cmp -s "$TMP/step-file.cut" "$TMP/step-port.cut"
expect 0 "step -g file:menu.so@menu-7.1 (other framework rules)" \
	"$IDLELAB" step -g "file:$TMP/menu.so@menu-7.1" -p skx --input builtin:demo
expect 0 "run -g file:menu.so" "$IDLELAB" run -g "file:$TMP/menu.so" -p skx -s idle --time 200ms -f csv
cp "$OUT" "$TMP/run-file.csv"
expect 0 "run -g menu-6.12.117" "$IDLELAB" run -g menu-6.12.117 -p skx -s idle --time 200ms -f csv
check "the file's run has the same numbers as its preset's" \
	sh -c "[ \"\$(tail -n +2 '$TMP/run-file.csv' | cut -d, -f3-)\" = \"\$(tail -n +2 '$OUT' | cut -d, -f3-)\" ]"

# ---- check, record, verify ----
expect 0 "kgov check teo.c against teo-6.12.117" \
	"$IDLELAB" kgov check "$SRC/teo.c" --against teo-6.12.117 --steps 20000 --seed 9
check "... last line counts the decisions" \
	sh -c "tail -n 1 '$OUT' | grep -q 'vs teo-6.12.117: 20000 decisions compared (5 runs, .*), no mismatch\$'"
expect 0 "kgov check menu.so -p skx" "$IDLELAB" kgov check "$TMP/menu.so" --against menu-6.12.117 --steps 8000 -p skx
check "... last line" sh -c "tail -n 1 '$OUT' | grep -q ': 8000 decisions compared (2 runs, .*), no mismatch\$'"
# haltpoll.c 663b7f164d20 is also haltpoll-6.13's file: --as picks the Debian framework
expect 0 "kgov record haltpoll.c" "$IDLELAB" kgov record "$SRC/haltpoll.c" --as haltpoll-6.12.117 --steps 9000 --seed 4 -o "$TMP/h.kv.xz"
check "... says which preset it recorded as" grep -q 'as haltpoll-6.12.117: 9000 decisions recorded' "$OUT"
check "... wrote an xz file" sh -c "xz -t '$TMP/h.kv.xz'"
expect 0 "kgov verify it" "$IDLELAB" kgov verify "$TMP/h.kv.xz" --against haltpoll-6.12.117
check "... last line" sh -c "tail -n 1 '$OUT' | grep -q '9000 of 9000 decisions verified, no mismatch\$'"
expect 0 "kgov record menu.so uncompressed" "$IDLELAB" kgov record "$TMP/menu.so" --steps 5000 -p skx -o "$TMP/m.kv"
check "... header names the blob, seed and platform" \
	sh -c "grep -aq '^blob 0ce7323450011c3ebd0e46d81029968f87d791f8\$' '$TMP/m.kv' && grep -aq '^platform skx\$' '$TMP/m.kv' && grep -aq '^seed 1\$' '$TMP/m.kv'"
expect 0 "verify the uncompressed vector" "$IDLELAB" kgov verify "$TMP/m.kv" --against menu-6.12.117
expect 1 "verify it against menu-6.1.192" "$IDLELAB" kgov verify "$TMP/m.kv" --against menu-6.1.192
check "... reports the first differing decision" grep -q '^MISMATCH at decision #' "$OUT"
head -c 200 "$TMP/m.kv" >"$TMP/short.kv"
expect 1 "a truncated vector" "$IDLELAB" kgov verify "$TMP/short.kv" --against menu-6.12.117

# ---- the mutated file is caught ----
sed 's/if ((((u64)avg\*avg > variance\*36)/if ((((u64)avg*avg < variance*36)/' "$SRC/menu.c" >"$SRC/menu_mutant.c"
check "the mutation applied" sh -c "! cmp -s '$SRC/menu.c' '$SRC/menu_mutant.c'"
expect 1 "kgov check rejects the mutated menu.c" \
	"$IDLELAB" kgov check "$SRC/menu_mutant.c" --against menu-6.12.117 --steps 200000
check "... with a MISMATCH report" grep -q '^MISMATCH after ' "$OUT"
check "... last line says so" sh -c "tail -n 1 '$OUT' | grep -q 'first MISMATCH above\$'"
finish
