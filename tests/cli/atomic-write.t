#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# atomic-write.t - every output file is written through lib/util/atomic.c: a temporary made
# by mkostemp() next to the target (".NAME.XXXXXX"), renamed over it. A symlink planted at the
# old predictable name (FILE.tmp) -- which let a local user make `sudo idlelab ... -o
# /tmp/runs.csv` overwrite any file as root -- is never followed, a symlink at the target is
# replaced rather than written through, and nothing is left behind. With strace, every file
# a writer creates is checked to be one of those unpredictable temporaries.
. "$(dirname "$0")/lib.sh"

FIX=$TOP/tests/fixtures/traces
VICTIM=$TMP/victim
D=$TMP/out

# planted CMD-DESC OUTPUT CMD...: with OUTPUT.tmp -> $VICTIM planted, CMD succeeds, $VICTIM
# is untouched, OUTPUT exists, and $D holds only OUTPUT, the planted link and what CMD names.
planted() {
	what=$1 output=$2
	shift 2
	rm -rf "$D" && mkdir "$D"
	echo precious > "$VICTIM"
	ln -s "$VICTIM" "$output.tmp"
	expect 0 "$what: runs with $output.tmp planted" "$@"
	check "$what: the planted link's target is untouched" test "$(cat "$VICTIM")" = precious
	check "$what: the output is a regular file" test -f "$output" -a ! -L "$output"
	check "$what: no temporary left" sh -c "! ls -A '$D' | grep -q '^\\.'"
}

planted "run -o" "$D/run.csv" "$IDLELAB" run -g menu -p rk3588 -s fio --time 20ms -f csv -o "$D/run.csv"
planted "compare -o" "$D/cmp.tsv" "$IDLELAB" compare -g menu,teo -p rk3588 -s fio --time 20ms \
	--iter 2 -f tsv -o "$D/cmp.tsv"
planted "step -o" "$D/step.txt" "$IDLELAB" step -g menu -p skx --input builtin:demo -o "$D/step.txt"
planted "replay -o" "$D/rep.csv" "$IDLELAB" replay -p haltpoll-vm -g oracle -f csv -o "$D/rep.csv" \
	"$FIX/vm.trace"
planted "replay --periods -o" "$D/per.csv" "$IDLELAB" replay -p haltpoll-vm -g oracle --periods \
	-o "$D/per.csv" "$FIX/ladder-head.trace"
planted "stats -o" "$D/st.txt" "$IDLELAB" stats -p haltpoll-vm -o "$D/st.txt" "$FIX/vm.trace"
planted "run --perfetto" "$D/tl.json" "$IDLELAB" run -g menu -p rk3588 -s fio --time 20ms \
	--perfetto "$D/tl.json"
planted "states --export" "$D/x.plat" "$IDLELAB" states --root "$TOP/tests/fixtures/sysfs/haltpoll-vm" \
	--export "$D/x.plat"
planted "sweep --emit-jobs" "$D/jobs.txt" "$IDLELAB" sweep -g menu -p rk3588 -s fio \
	--param jobs=1..2:1 --time 10ms --emit-jobs "$D/jobs.txt" -o "$D/cases"
if "$IDLELAB" help battery 2>&1 | grep -q jansson || ! "$IDLELAB" run -g menu -p rk3588 -s fio \
	--time 1ms -f json > /dev/null 2>&1; then
	skip "battery -o, sweep -o" "built without jansson"
else
	planted "battery -o" "$D/b.json" "$IDLELAB" battery -g teo -p rk3588 --time 10ms -o "$D/b.json"
	rm -rf "$D" && mkdir -p "$D/sw"
	echo precious > "$VICTIM"
	ln -s "$VICTIM" "$D/sw/.sweep.csv.tmp"
	ln -s "$VICTIM" "$D/sw/.sweep.json.tmp"
	expect 0 "sweep -o DIR with .sweep.csv.tmp planted" "$IDLELAB" sweep -g menu -p rk3588 -s fio \
		--param jobs=1..2:1 --time 10ms -o "$D/sw"
	check "sweep -o DIR: the planted links' target is untouched" test "$(cat "$VICTIM")" = precious
	check "sweep -o DIR: both files written" test -f "$D/sw/sweep.csv" -a -f "$D/sw/sweep.json"
fi

FROOT=$TMP/root
cp -R "$TOP/tests/fixtures/sysfs/haltpoll-vm" "$FROOT"
planted "measure -o" "$D/m.txt" "$IDLELAB" measure --root "$FROOT" -g menu --settle 0 -o "$D/m.txt" \
	-- "$TESTS_DIR/live-bump.sh" "$FROOT" 0:1:usage:9

# measure's lock file: never opened through a symlink (its pid would truncate the target).
echo precious > "$VICTIM"
ln -sf "$VICTIM" "$TMP/planted.lock"
expect 1 "measure --lock onto a planted symlink: refused" "$IDLELAB" measure --root "$FROOT" -g menu \
	--settle 0 --lock "$TMP/planted.lock" -- true
check "the lock's symlink target is untouched" test "$(cat "$VICTIM")" = precious
check "the refusal names the symlink" grep -q 'a symlink: refused' "$ERR"
ln -f "$VICTIM" "$TMP/linked.lock"
expect 1 "measure --lock onto a hard link: refused" "$IDLELAB" measure --root "$FROOT" -g menu \
	--settle 0 --lock "$TMP/linked.lock" -- true
check "the hard-linked file is untouched" test "$(cat "$VICTIM")" = precious

# A symlink at the target itself is replaced, not written through.
rm -rf "$D" && mkdir "$D"
echo precious > "$VICTIM"
ln -s "$VICTIM" "$D/run.csv"
expect 0 "run -o onto a symlink" "$IDLELAB" run -g menu -p rk3588 -s fio --time 20ms -f csv -o "$D/run.csv"
check "the symlink's target is untouched" test "$(cat "$VICTIM")" = precious
check "the symlink was replaced by the output" test -f "$D/run.csv" -a ! -L "$D/run.csv"

# A failed write leaves neither the output nor a temporary.
rm -rf "$D" && mkdir "$D"
expect 1 "step -o after a bad platform" "$IDLELAB" step -g menu -p "$TMP/none.plat" \
	--input builtin:demo -o "$D/step.txt"
check "no output and no temporary after a failure" test -z "$(ls -A "$D")"

# The mode of a new output is 0666 minus the umask, as with a plain fopen().
rm -rf "$D" && mkdir "$D"
(umask 027 && "$IDLELAB" run -g menu -p rk3588 -s fio --time 20ms -o "$D/m.txt" > /dev/null)
check "mode 0640 under umask 027" test "$(stat -c %a "$D/m.txt")" = 640

# strace: the only files created with O_CREAT are the .NAME.XXXXXX temporaries, with O_EXCL.
if command -v strace > /dev/null 2>&1 && strace -f -o /dev/null true 2> /dev/null; then
	rm -rf "$D" && mkdir "$D"
	# (LeakSanitizer cannot run under ptrace: off for this one run of an ASan build.)
	expect 0 "run -o under strace" env ASAN_OPTIONS=detect_leaks=0 \
		strace -f -o "$TMP/strace" -e trace=open,openat,creat,rename "$IDLELAB" run -g menu -p rk3588 -s fio --time 20ms -f csv -o "$D/r.csv" --perfetto "$D/p.json"
	grep -E 'O_CREAT|creat\(' "$TMP/strace" | grep -F "$D/" > "$TMP/created"
	check "strace: two files created under the output directory" test "$(wc -l < "$TMP/created")" = 2
	check "strace: each one .NAME.XXXXXX with O_EXCL" sh -c "! grep -Ev '\"$D/\\.(r\\.csv|p\\.json)\\.[A-Za-z0-9]{6}\".*O_EXCL' '$TMP/created'"
	check "strace: no NAME.tmp anywhere" sh -c "! grep -E '\\.tmp[.\"]' '$TMP/strace'"
else
	skip "strace checks" "no usable strace"
fi
finish
