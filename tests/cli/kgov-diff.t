#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `idlelab kgov diff OLD NEW`: the decision-level impact of a patch. Presets against presets
# and against themselves, Debian 6.12's menu.c (extracted here, at test time, into a temporary
# directory) against itself (0 differing decisions) and against a copy with DECAY changed (made
# here with sed: some differ), the lab-run input (--scenario), the JSON format, and the errors:
# a missing file, an object that is not a governor (the path and dlerror()), usage errors.
. "$(dirname "$0")/lib.sh"

TARBALL=/usr/src/linux-source-6.12.tar.xz
GOV=linux-source-6.12/drivers/cpuidle/governors

# the count of a table row ("index", "stop_tick", "index or stop_tick")
row() {
	sed -n "s/^$1  *\([0-9][0-9]*\) .*/\1/p" "$OUT"
}

# ---- usage errors ----
expect 2 "diff without NEW" "$IDLELAB" kgov diff menu-4
check "... says it needs OLD and NEW" grep -q 'diff needs OLD and NEW' "$ERR"
expect 2 "diff with --against" "$IDLELAB" kgov diff menu-4 menu-5 --against menu-5
expect 2 "three governors" "$IDLELAB" kgov diff menu-4 menu-5 menu-6.15
expect 2 "an unknown format" "$IDLELAB" kgov diff menu-4 menu-5 -f xml
check "... names the formats" grep -q 'table or json' "$ERR"
expect 2 "--show outside diff" "$IDLELAB" kgov check x.c --against menu-7.1 --show 2
expect 2 "--show beyond 1000" "$IDLELAB" kgov diff menu-4 menu-5 --show 5000
expect 2 "--scenario without a platform" "$IDLELAB" kgov diff menu-4 menu-5 --scenario idle
expect 2 "--scenario with -p" "$IDLELAB" kgov diff menu-4 menu-5 --scenario rk3588:idle -p skx
expect 2 "--scenario with --steps" "$IDLELAB" kgov diff menu-4 menu-5 --scenario rk3588:idle --steps 10
expect 2 "--scenario with an unknown scenario" "$IDLELAB" kgov diff menu-4 menu-5 --scenario rk3588:nope
expect 2 "--scenario with an unknown platform" "$IDLELAB" kgov diff menu-4 menu-5 --scenario nope:idle
expect 2 "--time without --scenario" "$IDLELAB" kgov diff menu-4 menu-5 --time 1s
check "... says what it is for" grep -q "the length of --scenario's lab run" "$ERR"
expect 2 "--time outside diff" "$IDLELAB" kgov check x.c --against menu-7.1 --time 1s
expect 2 "an unknown preset" "$IDLELAB" kgov diff menu-4 menu-99
check "... names it as NEW" grep -q "NEW 'menu-99' is no preset" "$ERR"
expect 0 "kgov --help shows diff" "$IDLELAB" kgov --help
check "... with --scenario and --show" sh -c "grep -q 'kgov diff OLD NEW' '$OUT' && grep -q -- '--show K' '$OUT'"

# ---- runtime errors: missing file, not a governor ----
expect 1 "a missing C file" "$IDLELAB" kgov diff "$TMP/none/menu.c" menu-7.1
check "... names OLD and the path" grep -q "OLD $TMP/none/menu.c: No such file" "$ERR"
expect 1 "a missing object" "$IDLELAB" kgov diff menu-7.1 "$TMP/none.so"
check "... names NEW and the path" grep -q "NEW $TMP/none.so: No such file" "$ERR"
echo "not an ELF object" >"$TMP/junk.so"
expect 1 "an object dlopen() refuses" "$IDLELAB" kgov diff "$TMP/junk.so" menu-7.1
check "... shows the path and dlerror()" grep -q "junk.so: cannot load: .*junk.so: " "$ERR"
if command -v "${CC:-cc}" >/dev/null 2>&1 && echo 'int f(void) { return 1; }' >"$TMP/f.c" &&
	"${CC:-cc}" -shared -fPIC -o "$TMP/f.so" "$TMP/f.c" 2>/dev/null; then
	expect 1 "a shared object that is no governor" "$IDLELAB" kgov diff menu-7.1 "$TMP/f.so"
	check "... says it is not a kgov object" grep -q "f.so: not a kgov object" "$ERR"
else
	skip "a shared object that is no governor" "no C compiler"
fi

# ---- presets ----
expect 0 "menu-4 vs menu-5" "$IDLELAB" kgov diff menu-4 menu-5 --steps 50000 --show 2
check "... some index decisions differ" test "$(row index)" -gt 0
check "... some stop_tick decisions differ" test "$(row stop_tick)" -gt 0
check "... either is at least each" sh -c "[ $(row 'index or stop_tick') -ge $(row index) ] && [ $(row 'index or stop_tick') -ge $(row stop_tick) ]"
check "... counts in 50000 decisions" grep -q '; 50000 decisions in' "$OUT"
check "... shows two differing decisions" test "$(grep -c '^decision #' "$OUT")" -eq 2
check "... with inputs and both sides' vars" sh -c "grep -q '^  inputs: sleep_length=' '$OUT' && grep -q 'correction_factor\[0\]' '$OUT'"
cp "$OUT" "$TMP/m45"
expect 0 "the same again" "$IDLELAB" kgov diff menu-4 menu-5 --steps 50000 --show 2
check "... is byte-identical (deterministic)" cmp -s "$OUT" "$TMP/m45"
expect 0 "menu-4 vs menu-5, another seed" "$IDLELAB" kgov diff menu-4 menu-5 --steps 50000 --seed 7 --show 2
check "... differs from seed 1" sh -c "! cmp -s '$OUT' '$TMP/m45'"
expect 0 "menu-6.15 vs menu-5 (the same code)" "$IDLELAB" kgov diff menu-6.15 menu-5 --steps 50000
check "... 0 differing decisions" test "$(row 'index or stop_tick')" -eq 0
check "... and none shown" sh -c "! grep -q '^decision #' '$OUT'"
expect 0 "teo-6.17 vs teo-6.18.35 on rk3588" "$IDLELAB" kgov diff teo-6.17 teo-6.18.35 -p rk3588 --steps 50000 --show 0
check "... counts on rk3588" grep -q 'seed 1, rk3588' "$OUT"
expect 0 "JSON" "$IDLELAB" kgov diff menu-4 menu-5 --steps 50000 --show 2 -f json
if command -v python3 >/dev/null 2>&1; then
	check "... parses, and agrees with the table" python3 -c "
import json, sys
d = json.load(open('$OUT'))
t = open('$TMP/m45').read()
assert d['decisions'] == 50000 and len(d['cases']) == 2
assert '%d' % d['index_differ'] in t and d['any_differ'] >= d['index_differ']
c = d['cases'][0]
assert c['old']['index'] != c['new']['index'] or c['old']['stop_tick'] != c['new']['stop_tick']
assert 'correction_factor[0]' in c['old']['vars'] and 'sleep_length_ns' in c['inputs']
"
else
	skip "JSON parses" "no python3"
fi

# ---- a lab run's idle periods ----
expect 0 "--scenario: menu-6.16 vs itself on rk3588 idle" "$IDLELAB" kgov diff menu-6.16 menu-6.16 --scenario rk3588:idle
check "... 0 differing decisions" test "$(row 'index or stop_tick')" -eq 0
check "... over the lab run's periods" grep -q 'idle periods of a 10 s lab run of idle on rk3588' "$OUT"
expect 0 "--scenario: menu-6.16 vs menu-6.17 on i5-10600k ping-pong" "$IDLELAB" kgov diff menu-6.16 menu-6.17 --scenario i5-10600k:pingpong --show 1
check "... many decisions differ (POLL against C1, seeds/002)" test "$(row index)" -gt 1000
check "... one shown" test "$(grep -c '^decision #' "$OUT")" -eq 1
check "... where they differ: most with a polling state" sh -c "sed -n '/^where they differ/{n;p;}' '$OUT' | grep -q ', polling state$'"
expect 0 "--scenario with --time 200ms" "$IDLELAB" kgov diff menu-6.16 menu-6.17 --scenario rk3588:idle --time 200ms --show 0
check "... a 0.2 s lab run" grep -q 'idle periods of a 0.2 s lab run of idle on rk3588' "$OUT"

# ---- Debian 6.12's menu.c ----
if [ ! -r "$TARBALL" ]; then
	skip "Debian linux-source-6.12 diffs" "no $TARBALL (apt-get install linux-source-6.12)"
	finish
	exit
fi
tar -xJf "$TARBALL" -C "$TMP" --wildcards "$GOV/*"
MENU=$TMP/$GOV/menu.c
sed 's/^#define DECAY 8$/#define DECAY 4/' "$MENU" >"$TMP/$GOV/menu-decay.c"
check "the DECAY copy differs from menu.c" sh -c "! cmp -s '$MENU' '$TMP/$GOV/menu-decay.c'"
expect 0 "Debian 6.12 menu.c vs itself" "$IDLELAB" kgov diff "$MENU" "$MENU" --steps 100000
check "... 0 differing index decisions" test "$(row index)" -eq 0
check "... 0 differing stop_tick decisions" test "$(row stop_tick)" -eq 0
check "... 100000 decisions compared" grep -q '; 100000 decisions in' "$OUT"
expect 0 "menu.c vs the DECAY copy" "$IDLELAB" kgov diff "$MENU" "$TMP/$GOV/menu-decay.c" --steps 100000 --show 3
check "... a non-zero count" test "$(row 'index or stop_tick')" -gt 0
check "... the first shown decision has differing correction factors" grep -q '^\* correction_factor' "$OUT"
check "... where they differ, by features of the period" grep -q '^  *[0-9][0-9]*  *[0-9.]*%  tick \(running\|stopped\), sleep' "$OUT"
expect 0 "menu.c vs its preset menu-6.12.117" "$IDLELAB" kgov diff "$MENU" menu-6.12.117 --steps 100000
check "... 0 differing decisions" test "$(row 'index or stop_tick')" -eq 0
expect 0 "menu.c vs menu-6.12.117 on a lab run's periods" "$IDLELAB" kgov diff "$MENU" menu-6.12.117 --scenario rk3588:idle
check "... 0 differing decisions" test "$(row 'index or stop_tick')" -eq 0
check "... over some periods" sh -c "grep -q 'replayed open loop; [1-9][0-9]* decisions' '$OUT'"
"$IDLELAB" kgov build "$MENU" -o "$TMP/menu.so" >/dev/null 2>&1
expect 0 "a built object vs the C file" "$IDLELAB" kgov diff "$TMP/menu.so" "$MENU" --steps 20000
check "... 0 differing decisions" test "$(row 'index or stop_tick')" -eq 0

# ---- one framework for both sides (issue 24) ----
# A patched file follows no preset: it runs under the base file's rules, not under those of
# the newest preset of its family (which gave 2005 of 100000 for a comment before the fix).
expect 0 "menu.c vs the DECAY copy: one framework" "$IDLELAB" kgov diff "$MENU" "$TMP/$GOV/menu-decay.c" --steps 100000 --show 0
check "... both under menu-6.12.117's rules, from the blob" grep -q "^framework: the rules of menu-6.12.117 (core debian-6.12) for both sides: the base file's blob 0ce732345001 is menu-6.12.117's" "$OUT"
cp "$OUT" "$TMP/decay-c"
"$IDLELAB" kgov build "$TMP/$GOV/menu-decay.c" -o "$TMP/decay.so" >"$TMP/build-out" 2>&1
check "build's hint asks for the preset of an unknown blob" grep -q "run it with -g file:$TMP/decay.so@PRESET" "$TMP/build-out"
expect 0 "... the same count as the preset against file:X.so@menu-6.12.117" "$IDLELAB" kgov diff menu-6.12.117 "file:$TMP/decay.so@menu-6.12.117" --steps 100000 --show 0
check "... equal" test "$(row 'index or stop_tick')" -eq "$(sed -n 's/^index or stop_tick  *\([0-9]*\) .*/\1/p' "$TMP/decay-c")"
expect 0 "the DECAY copy as OLD: a guess, stated" "$IDLELAB" kgov diff "$TMP/$GOV/menu-decay.c" "$MENU" --steps 1000 --show 0
check "... says it guessed and how to choose" grep -q "^framework: .*guessed from OLD's era.*give --as PRESET" "$OUT"
expect 0 "... --as menu-6.12.117 chooses" "$IDLELAB" kgov diff "$TMP/$GOV/menu-decay.c" "$MENU" --steps 1000 --show 0 --as menu-6.12.117
check "... and says so" grep -q "^framework: the rules of menu-6.12.117 .*given with --as" "$OUT"
expect 2 "--as an unknown preset" "$IDLELAB" kgov diff "$MENU" "$MENU" --as menu-99

# A comment-only and a whitespace-only change decide nothing differently, for menu and teo
# of Debian's 6.1 and 6.12 (each tarball that is installed).
for ver in 6.1 6.12; do
	tarball=/usr/src/linux-source-$ver.tar.xz
	if [ ! -r "$tarball" ]; then
		skip "comment and whitespace changes of $ver" "no $tarball"
		continue
	fi
	gov=linux-source-$ver/drivers/cpuidle/governors
	mkdir -p "$TMP/v$ver"
	tar -xJf "$tarball" -C "$TMP/v$ver" --wildcards "$gov/*"
	for g in menu teo; do
		f=$TMP/v$ver/$gov/$g.c
		sed '1a /* a comment */' "$f" >"$TMP/v$ver/$gov/$g-comment.c"
		sed 's/;$/; /' "$f" >"$TMP/v$ver/$gov/$g-space.c"
		for change in comment space; do
			check "$ver $g.c: the $change copy differs" sh -c "! cmp -s '$f' '$TMP/v$ver/$gov/$g-$change.c'"
			expect 0 "$ver $g.c vs its $change-only change" "$IDLELAB" kgov diff "$f" "$TMP/v$ver/$gov/$g-$change.c" --steps 100000 --show 0
			check "... 0 differing decisions" test "$(row 'index or stop_tick')" -eq 0
			check "... under one framework, from the blob" grep -q "^framework: the rules of $g-$ver\.[0-9]* .*for both sides: the base file's blob" "$OUT"
		done
	done
done
finish
