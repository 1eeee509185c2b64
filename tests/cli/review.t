#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `idlelab review`: a governor patch to a linux-pm reply (issue 24). The kernel files come from
# Debian's linux-source-6.12 at test time: a directory holding only its top Makefile and its
# drivers/cpuidle/governors/ (the done-when of the issue); the patches are made here with sed
# and diff. The review is narrowed (-p, -s, --time, --iter) to keep the test short.
. "$(dirname "$0")/lib.sh"

TARBALL=/usr/src/linux-source-6.12.tar.xz
SRC=linux-source-6.12
GOVDIR=drivers/cpuidle/governors
NARROW="-p rk3588 -s idle --time 100ms --iter 3 --no-progress"

# ---- usage errors (no kernel source needed) ----
expect 2 "no patch" "$IDLELAB" review
check "... says what to give" grep -q 'no patch given (PATCH, or ORIG.c PATCHED.c)' "$ERR"
expect 2 "three files" "$IDLELAB" review a b c
check "... names the one too many" grep -q "'c' is one too many" "$ERR"
expect 2 "--tree with ORIG.c PATCHED.c" "$IDLELAB" review a.c b.c --tree .
expect 2 "an unknown --fail-on" "$IDLELAB" review x.patch --fail-on never
expect 2 "an unknown format" "$IDLELAB" review x.patch -f xml
check "... names the formats" grep -q 'text or json' "$ERR"
expect 2 "--iter 1" "$IDLELAB" review x.patch --iter 1
expect 2 "an unknown platform, before anything is read" "$IDLELAB" review x.patch -p rk3589
check "... names it" grep -q 'rk3589: no such built-in platform' "$ERR"
expect 2 "an unknown scenario" "$IDLELAB" review x.patch -s nope
expect 0 "--help" "$IDLELAB" review --help
check "... shows both forms" sh -c "grep -q 'idlelab review PATCH' '$OUT' && grep -q 'ORIG.c PATCHED.c' '$OUT'"
expect 0 "idlelab help review" "$IDLELAB" help review
expect 1 "a missing patch file" "$IDLELAB" review "$TMP/none.patch" $NARROW
check "... names it" grep -q "none.patch: No such file" "$ERR"
printf 'just some text\n' >"$TMP/text.patch"
expect 1 "a file that is no diff" "$IDLELAB" review "$TMP/text.patch" $NARROW
check "... says so" grep -q 'not a unified diff' "$ERR"

if [ ! -r "$TARBALL" ]; then
	skip "reviews of Debian 6.12's governor files" "no $TARBALL (apt-get install linux-source-6.12)"
	finish
	exit
fi
need_cmd patch "reviews of patches" "no patch(1) (apt-get install patch)"

# A directory holding only a top Makefile and the governor files of Debian 6.12.
tar -xJf "$TARBALL" -C "$TMP" "$SRC/Makefile" --wildcards "$SRC/$GOVDIR/*"
TREE=$TMP/tree
mkdir -p "$TREE/drivers/cpuidle"
cp "$TMP/$SRC/Makefile" "$TREE/"
cp -r "$TMP/$SRC/$GOVDIR" "$TREE/drivers/cpuidle/"

# mkpatch NAME SED-SCRIPT [BASE]: a git-style diff of menu.c (BASE, default the tree's) edited
# by SED-SCRIPT; $TMP/a and $TMP/b hold both sides with the other governor files (gov.h)
mkpatch() {
	base=${3:-$TREE/$GOVDIR/menu.c}
	rm -rf "$TMP/a" "$TMP/b"
	mkdir -p "$TMP/a/drivers/cpuidle" "$TMP/b/drivers/cpuidle"
	cp -r "$TREE/$GOVDIR" "$TMP/a/drivers/cpuidle/"
	cp -r "$TREE/$GOVDIR" "$TMP/b/drivers/cpuidle/"
	cp "$base" "$TMP/a/$GOVDIR/menu.c"
	sed "$2" "$base" >"$TMP/b/$GOVDIR/menu.c"
	(cd "$TMP" && diff -u "a/$GOVDIR/menu.c" "b/$GOVDIR/menu.c") >"$TMP/$1"
	test -s "$TMP/$1"
}

check "a comment-only patch" mkpatch comment.patch '1a /* a comment */'
check "a DECAY 8 -> 4 patch" mkpatch decay.patch 's/^#define DECAY 8$/#define DECAY 4/'
cp "$TMP/b/$GOVDIR/menu.c" "$TMP/menu-decay.c"

# ---- done-when: comment-only and DECAY in a directory with only the Makefile and governors ----
expect 0 "review of a comment-only patch, from the tree" sh -c "cd '$TREE' && '$IDLELAB' review '$TMP/comment.patch' $NARROW"
check "... 0 differing decisions on random inputs" grep -q '^  random inputs: 0 of 100000 decisions differ' "$OUT"
check "... none on the lab's periods" grep -q '^    rk3588  *0 of ' "$OUT"
check "... no called cell" grep -q 'the verdict calls 0 cells' "$OUT"
check "... under menu-6.12.117's rules, from the blob" grep -q "framework rules of menu-6.12.117 (core debian-6.12): the base file's blob" "$OUT"
check "... says what the lab cannot know" grep -q 'What the lab cannot know' "$OUT"
check "... within 80 columns" sh -c "! awk 'length > 80' '$OUT' | grep -q ."
check "... the tree's version in the provenance" grep -q 'version 6.12.117' "$OUT"

"$IDLELAB" kgov build "$TMP/b/$GOVDIR/menu.c" -o "$TMP/decay.so" >"$TMP/kb" 2>&1
"$IDLELAB" kgov diff menu-6.12.117 "file:$TMP/decay.so@menu-6.12.117" --show 0 >"$TMP/kd" 2>&1
kgov_figure=$(sed -n 's/^index or stop_tick  *\([0-9]*\) .*/\1/p' "$TMP/kd")
expect 0 "review of the DECAY patch" "$IDLELAB" review "$TMP/decay.patch" --tree "$TREE" $NARROW
check "... the figure of kgov diff menu-6.12.117 file:X.so@menu-6.12.117 ($kgov_figure)" grep -q "^  random inputs: $kgov_figure of 100000 decisions differ" "$OUT"
check "... a non-zero figure" test "${kgov_figure:-0}" -gt 0
check "... and the verdict" grep -q '^Verdict (1 platform x 1 scenario, 3 seeds' "$OUT"
check "... with its rerun command" grep -q 'idlelab verdict -g' "$OUT"
check "... names the ensemble it ran" grep -q '^  Ensemble of 6 model variants: ' "$OUT"
check "... counts the sensitive cells" grep -q ': [0-9]* cells worse, [0-9]* better, [0-9]* sensitive, ' "$OUT"
check "... where the decisions differ" grep -q 'where they differ' "$OUT"
cp "$OUT" "$TMP/decay.txt"
expect 0 "the same review again" "$IDLELAB" review "$TMP/decay.patch" --tree "$TREE" $NARROW
check "... the same figures (times aside)" sh -c "grep -v -e '^  Time:' -e 'wall' -e '^  (caches' '$OUT' >'$TMP/a.txt'; grep -v -e '^  Time:' -e 'wall' -e '^  (caches' '$TMP/decay.txt' >'$TMP/b.txt'; cmp -s '$TMP/a.txt' '$TMP/b.txt'"
expect 0 "-f json" "$IDLELAB" review "$TMP/decay.patch" --tree "$TREE" $NARROW -f json
if command -v python3 >/dev/null 2>&1; then
	check "... carries the provenance, blobs, framework and figures" python3 -c "
import json
d = json.load(open('$OUT'))
f = d['files'][0]
p = d['provenance']
assert p['git_describe'] and p['idlelab_version'] and 'idlelab review' in p['command']
assert p['tree_version'] == '6.12.117' and p['seed'] == 1 and p['iter'] == 3
assert f['base_blob'].startswith('0ce732345001') and len(f['patched_blob']) == 40
assert f['framework']['preset'] == 'menu-6.12.117' and 'blob' in f['framework']['reason']
assert f['impact']['random']['any_differ'] == $kgov_figure
assert f['verdict']['cells'] and f['time']['verdict_s'] >= 0
"
else
	skip "JSON parses" "no python3"
fi

expect 0 "--ensemble 0" "$IDLELAB" review "$TMP/decay.patch" --tree "$TREE" $NARROW --ensemble 0
check "... says the nominal model ran" grep -q '^  The nominal model only (--ensemble 0): ' "$OUT"
check "... and its rerun verdict is the same" sh -c "tr -d '\\\\\n' <'$OUT' | grep -q -- '--time 0.1s *--ensemble 0'"
expect 2 "--ensemble -1" "$IDLELAB" review "$TMP/decay.patch" --ensemble -1

# ---- ORIG.c PATCHED.c ----
expect 0 "ORIG.c PATCHED.c" "$IDLELAB" review "$TMP/a/$GOVDIR/menu.c" "$TMP/b/$GOVDIR/menu.c" $NARROW
check "... the same random figure" grep -q "^  random inputs: $kgov_figure of 100000 decisions differ" "$OUT"
expect 0 "-o FILE" "$IDLELAB" review "$TMP/a/$GOVDIR/menu.c" "$TMP/b/$GOVDIR/menu.c" $NARROW -o "$TMP/review.txt"
check "... written, nothing on stdout" sh -c "test -s '$TMP/review.txt' && ! test -s '$OUT'"

# ---- the shipped real traces (traces/), replayed by default ----
# (a quick review: two seeds of 50 ms, the nominal model)
QUICK="-p rk3588 -s idle --ensemble 0 --iter 2 --time 50ms --no-progress"
ls "$TOP"/traces/*/* | sed "s|^$TOP/traces/||" >"$TMP/shipped"
nship=$(wc -l <"$TMP/shipped")
expect 0 "the defaults replay the shipped traces" "$IDLELAB" review "$TMP/a/$GOVDIR/menu.c" \
	"$TMP/b/$GOVDIR/menu.c" $QUICK
check "... a Real traces section" grep -q '^Real traces (open loop' "$OUT"
# the text with its lines joined (and the commands' continuation backslashes gone)
sed 's/ \\$//' "$OUT" | tr '\n' ' ' | tr -s ' ' >"$TMP/flat"
check "... counts them ($nship)" grep -qF "The $nship traces shipped with idlelab (in D below)" "$TMP/flat"
check "... names their directory" grep -qxF "    \$ D=$TOP/traces" "$OUT"
while read -r t; do
	check "... lists $t" grep -qxF "  $t (shipped)" "$OUT"
	check "... with its rerun command, on its own platform" \
		grep -qF "idlelab replay \$D/$t -p ${t%%/*} -g" "$TMP/flat"
done <"$TMP/shipped"
tables=$(grep -oE 'state table: platform ([a-z0-9-]+) \(builtin:\1\); sleep length from timers' "$TMP/flat" | wc -l)
check "... each replayed on a built-in table, with timers ($tables)" test "$tables" -eq "$nship"
check "... within 80 columns" sh -c "! awk 'length > 80' '$OUT' | grep -q ."
expect 0 "--no-shipped-traces" "$IDLELAB" review "$TMP/a/$GOVDIR/menu.c" "$TMP/b/$GOVDIR/menu.c" \
	$QUICK --no-shipped-traces
check "... no Real traces section" sh -c "! grep -q '^Real traces' '$OUT'"
expect 0 "the shipped traces in -f json" "$IDLELAB" review "$TMP/a/$GOVDIR/menu.c" \
	"$TMP/b/$GOVDIR/menu.c" $QUICK -f json
if command -v python3 >/dev/null 2>&1; then
	check "... each with its name, path and periods" python3 -c "
import json
ts = json.load(open('$OUT'))['files'][0]['traces']
names = open('$TMP/shipped').read().split()
assert [t['name'] for t in ts] == names, [t['name'] for t in ts]
for t in ts:
    assert t['shipped'] and t['path'] == '$TOP/traces/' + t['name'] and t['periods'] > 0
    plat = t['name'].split('/')[0]
    assert t['state_table'] == 'platform %s (builtin:%s)' % (plat, plat), t['state_table']
"
else
	skip "JSON parses" "no python3"
fi

# ---- --trace: a real trace of the user's through both sides (open loop, lib/replay) ----
FIX=$TOP/tests/fixtures/traces
expect 0 "--trace vm.trace --trace-platform skx" "$IDLELAB" review "$TMP/a/$GOVDIR/menu.c" \
	"$TMP/b/$GOVDIR/menu.c" $NARROW --trace "$FIX/vm.trace" --trace-platform skx --keep "$TMP/k" \
	--no-shipped-traces
check "... a section of its own" grep -q '^Real traces (open loop' "$OUT"
check "... the periods, the table and the sleep length" sh -c "tr '\\n' ' ' <'$OUT' | tr -s ' ' | \
	grep -q '81 idle periods, state table: platform skx (builtin:skx); sleep length from timers'"
check "... agreement, energy, misses and the gap to the bound" sh -c "grep -q 'Same state in' '$OUT' \
	&& grep -q 'Energy .* mJ' '$OUT' && grep -q 'gap to the open-loop bound' '$OUT'"
check "... the rerun command" grep -q 'idlelab replay' "$OUT"
cp "$OUT" "$TMP/tr.txt"
# the rerun: idlelab replay of the kept objects gives the same energy for both sides
"$IDLELAB" replay "$FIX/vm.trace" -p skx -g "file:$TMP/k/base.so@menu-6.12.117,file:$TMP/k/patched.so@menu-6.12.117" \
	-f csv >"$TMP/replay.csv" 2>/dev/null
mj=$(awk -F, '/^file:.*base.so/ && NF >= 10 { printf "%s", $7; exit }' "$TMP/replay.csv")
check "... idlelab replay of the kept objects: the base's energy ($mj mJ)" \
	sh -c "test -n '$mj' && tr -d '\n' <'$TMP/tr.txt' | grep -q 'Energy *$mj ->'"
expect 0 "--trace, -f json" "$IDLELAB" review "$TMP/a/$GOVDIR/menu.c" "$TMP/b/$GOVDIR/menu.c" $NARROW \
	--trace "$FIX/vm.trace" --trace-platform skx -f json
if command -v python3 >/dev/null 2>&1; then
	check "... the trace's figures" python3 -c "
import json
t = json.load(open('$OUT'))['files'][0]['traces'][-1]
assert not t['shipped'] and t['name'] == t['path'] == '$FIX/vm.trace'
assert t['periods'] == 81 and t['sleep_length'] == 'timers' and 0 <= t['same_state_pct'] <= 100
for side in ('base', 'patched'):
    s = t[side]
    assert s['energy_mj'] > 0 and s['idle_misses'] == s['aboves'] + s['belows']
    assert 'gap_to_bound_pct' in s
"
else
	skip "JSON parses" "no python3"
fi
expect 1 "--trace of a missing file" "$IDLELAB" review "$TMP/a/$GOVDIR/menu.c" "$TMP/b/$GOVDIR/menu.c" \
	$NARROW --trace "$TMP/none.trace" -o "$TMP/no.txt"
check "... names it, before anything is built" grep -q "none.trace: No such file" "$ERR"
check "... no output file" test ! -e "$TMP/no.txt"
expect 2 "--trace without a state table and no --trace-platform" "$IDLELAB" review \
	"$TMP/a/$GOVDIR/menu.c" "$TMP/b/$GOVDIR/menu.c" $NARROW --trace "$FIX/vm.trace"
check "... (the shipped traces keep their own)" grep -q 'give one with --trace-platform' "$ERR"
check "... asks for --trace-platform" grep -q 'give one with --trace-platform' "$ERR"

# ---- a format-patch with a subject and a refused file ----
{
	printf 'From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n'
	printf 'From: A Developer <dev@example.org>\nDate: Fri, 4 Dec 2026 10:00:00 +0000\n'
	printf 'Subject: [PATCH] cpuidle: menu: decay the correction factor faster\n\n'
	printf 'Halve DECAY so that the correction factor follows changes sooner.\n\n'
	printf 'Signed-off-by: A Developer <dev@example.org>\n---\n'
	cat "$TMP/decay.patch"
	printf -- '--- a/kernel/sched/idle.c\n+++ b/kernel/sched/idle.c\n@@ -1,1 +1,1 @@\n-x\n+y\n'
	printf -- '-- \n2.39.5\n'
} >"$TMP/fp.patch"
expect 0 "a format-patch touching menu.c and kernel/sched/idle.c" "$IDLELAB" review "$TMP/fp.patch" --tree "$TREE" $NARROW
check "... keeps the subject" grep -q 'decay the correction factor faster' "$OUT"
check "... refuses idle.c with the reason" grep -q 'Not reviewed: kernel/sched/idle.c: the framework around the governor' "$OUT"
check "... reviews menu.c" grep -q "^  random inputs: $kgov_figure of 100000" "$OUT"
expect 0 "... -f json keeps the message" "$IDLELAB" review "$TMP/fp.patch" --tree "$TREE" $NARROW -f json
check "... in the JSON" grep -q 'Halve DECAY so that' "$OUT"

# ---- bad input: exit 1, a clear message, no output file ----
sed 's/^-#define DECAY 8$/-#define DECAY 9/' "$TMP/decay.patch" >"$TMP/stale.patch"
check "a patch whose context is stale" sh -c "! cmp -s '$TMP/stale.patch' '$TMP/decay.patch'"
expect 1 "... does not apply" "$IDLELAB" review "$TMP/stale.patch" --tree "$TREE" $NARROW -o "$TMP/no.txt"
check "... says so" grep -q 'the patch does not apply' "$ERR"
check "... shows patch's output" grep -q 'FAILED' "$ERR"
check "... and the rejected hunk" sh -c "grep -q 'rejected hunks of drivers/cpuidle/governors/menu.c' '$ERR' && grep -q 'DECAY 4' '$ERR'"
check "... no output file" test ! -e "$TMP/no.txt"
check "... the tree untouched" cmp -s "$TREE/$GOVDIR/menu.c" "$TMP/$SRC/$GOVDIR/menu.c"

printf -- '--- a/kernel/sched/idle.c\n+++ b/kernel/sched/idle.c\n@@ -1,1 +1,1 @@\n-x\n+y\n' >"$TMP/idle.patch"
expect 1 "a patch touching no governor file" "$IDLELAB" review "$TMP/idle.patch" --tree "$TREE" $NARROW
check "... names the file and why" grep -q 'touches no governor file (kernel/sched/idle.c: the framework around' "$ERR"

cat "$TMP/fp.patch" "$TMP/fp.patch" >"$TMP/two.mbox"
expect 1 "an mbox of two patches" "$IDLELAB" review "$TMP/two.mbox" --tree "$TREE" $NARROW
check "... refused with the count" grep -q 'an mbox of 2 patches: review one patch at a time' "$ERR"

check "a patch using a field the shim lacks" mkpatch shim.patch '0,/^\(\tstruct menu_device \*data = this_cpu_ptr(&menu_devices);\)$/s//\1\n\tif (dev->use_deepest_state) return 0;/'
expect 1 "... does not compile" "$IDLELAB" review "$TMP/shim.patch" --tree "$TREE" $NARROW
check "... the compiler names the field" grep -q 'use_deepest_state' "$ERR"

# The tree's own menu.c already patched: no preset has its blob, and no Makefile says the version.
NOVER=$TMP/nover
mkdir -p "$NOVER/drivers/cpuidle"
cp -r "$TREE/$GOVDIR" "$NOVER/drivers/cpuidle/"
cp "$TMP/menu-decay.c" "$NOVER/$GOVDIR/menu.c"
check "a comment patch on top of the DECAY file" mkpatch nover.patch '1a /* a comment */' "$TMP/menu-decay.c"
expect 1 "a tree without a Makefile version and no --as, the blob unknown" "$IDLELAB" review "$TMP/nover.patch" --tree "$NOVER" $NARROW
check "... asks for --as" grep -q 'give --as PRESET' "$ERR"
check "... says the tree has no version" grep -q 'no top Makefile with VERSION and PATCHLEVEL' "$ERR"
expect 0 "... with --as menu-6.12.117" "$IDLELAB" review "$TMP/nover.patch" --tree "$NOVER" --as menu-6.12.117 $NARROW
check "... uses it, and says so" grep -q 'given with --as' "$OUT"
check "... 0 differing decisions (a comment)" grep -q '^  random inputs: 0 of 100000' "$OUT"

# ---- --fail-on: a patch that makes menu always poll-or-shallowest is worse on idle ----
check "a patch that always picks state 0" mkpatch zero.patch '0,/^\(\tstruct menu_device \*data = this_cpu_ptr(&menu_devices);\)$/s//\1\n\tif (data) { *stop_tick = false; return 0; }/'
# (five seeds: with three, no p-value of the permutation test can reach 0.05)
CALLS="-p rk3588 -s idle --time 200ms --iter 5 --no-progress"
expect 3 "... --fail-on worse exits 3" "$IDLELAB" review "$TMP/zero.patch" --tree "$TREE" $CALLS --fail-on worse
check "... with a called cell and its mechanism" sh -c "grep -q '^  worse rk3588 idle' '$OUT' && grep -q 'entries: WFI' '$OUT' && grep -q 'tick stops' '$OUT'"
check "... worst first" sh -c "grep '^  \(worse\|better\) ' '$OUT' | head -1 | grep -q '^  worse'"
expect 0 "... without --fail-on exits 0, --report DIR" "$IDLELAB" review "$TMP/zero.patch" --tree "$TREE" \
	$CALLS --report "$TMP/rep"
check "... the page and the JSON it is made of" test -s "$TMP/rep/index.html" -a -s "$TMP/rep/review.json"
check "... the rerun line" sh -c "sed 's/ \\\\\$//' '$OUT' | tr '\\n' ' ' | tr -s ' ' | \
	grep -q 'idlelab report $TMP/rep/review.json -o $TMP/rep '"
if command -v xmllint >/dev/null 2>&1; then
	check "... the page is well-formed XML (xmllint)" xmllint --noout "$TMP/rep/index.html"
	check "... a heat map of the cells (an svg figure of the verdict section)" sh -c \
		"xmllint --xpath 'count(//*[local-name()=\"section\"][@id=\"verdict\"]//*[local-name()=\"svg\"])' '$TMP/rep/index.html' | grep -qv '^0$'"
	check "... the mechanism of the called cell, as a table" sh -c \
		"xmllint --html --xpath '//table[@data-table=\"review mechanism\"]//td/text()' '$TMP/rep/index.html' 2>/dev/null | grep -q 'WFI entries %'"
else
	skip "the page read by xmllint" "xmllint not installed (apt-get install libxml2-utils)"
fi
"$IDLELAB" report "$TMP/rep/review.json" -o "$TMP/rep2" 2>/dev/null
check "... idlelab report of the JSON writes the same page" cmp -s "$TMP/rep/index.html" "$TMP/rep2/index.html"
expect 1 "--report into a directory that cannot be made" "$IDLELAB" review "$TMP/zero.patch" --tree "$TREE" \
	$NARROW --report /nonexistent/dir/rep -o "$TMP/no2.txt"
check "... says where, before the review" grep -q -- '--report: cannot write /nonexistent/dir/rep: no directory /nonexistent/dir (checked before' "$ERR"
check "... and writes no review" test ! -e "$TMP/no2.txt"
finish
