#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# atomic-write.t - every output file is written through lib/util/atomic.c: a temporary made
# by mkostemp() next to the target (".NAME.XXXXXX"), renamed over it. A symlink planted at the
# old predictable name (FILE.tmp) -- which let a local user make `sudo idlelab ... -o
# /tmp/runs.csv` overwrite any file as root -- is never followed, a symlink at the target is
# written through as shell redirection does (the kernel's protected_symlinks rule applied),
# /dev/stdout and FIFOs are written directly, and nothing is left behind. With strace, every file
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

# A symlink at the target is written through, as shell redirection does: the target gets
# the output (replaced atomically in its own directory), the link stays a link.
rm -rf "$D" && mkdir -p "$D" "$TMP/elsewhere"
echo old > "$TMP/elsewhere/target.csv"
ln -s "$TMP/elsewhere/target.csv" "$D/run.csv"
expect 0 "run -o onto a symlink" "$IDLELAB" run -g menu -p rk3588 -s fio --time 20ms -f csv -o "$D/run.csv"
check "the symlink is still a symlink" test -L "$D/run.csv"
check "its target holds the output" grep -q '^device,' "$TMP/elsewhere/target.csv"
check "no temporary left next to the link or the target" \
	test -z "$(ls -A "$D" "$TMP/elsewhere" | grep '^\.')"
# Two hops, the second relative to the first link's directory.
ln -s ../elsewhere/target.csv "$TMP/elsewhere/hop.csv"
ln -s "$TMP/elsewhere/hop.csv" "$D/two.csv"
expect 0 "run -o through two links" "$IDLELAB" run -g teo -p rk3588 -s fio --time 20ms -f csv -o "$D/two.csv"
check "two links: the final target holds the output" grep -q ',teo,' "$TMP/elsewhere/target.csv"
check "two links: both links kept" test -L "$D/two.csv" -a -L "$TMP/elsewhere/hop.csv"

# A dangling symlink creates its target, as '>' does.
rm -rf "$D" && mkdir "$D"
ln -s made.csv "$D/dangling.csv"
expect 0 "run -o onto a dangling symlink" "$IDLELAB" run -g menu -p rk3588 -s fio --time 20ms -f csv \
	-o "$D/dangling.csv"
check "dangling: the target was created" test -f "$D/made.csv" -a ! -L "$D/made.csv"
check "dangling: the link kept" test -L "$D/dangling.csv"
ln -s nodir/x.csv "$D/nowhere.csv"
expect 1 "a dangling link into a missing directory: refused before running" "$IDLELAB" run -g menu \
	-p rk3588 -s fio --time 20ms -o "$D/nowhere.csv"
check "the reason names the missing directory" grep -q "no directory $D/nodir" "$ERR"

# /dev/stdout and /dev/fd/N are this process's open files: written there, never replaced.
expect 0 "run -o /dev/stdout" "$IDLELAB" run -g menu -p rk3588 -s fio --time 20ms -f csv -o /dev/stdout
check "/dev/stdout: the table is on standard output" grep -q '^device,' "$OUT"
check "/dev/stdout is still a link" test -L /dev/stdout
expect 0 "run -o /dev/fd/1" "$IDLELAB" run -g menu -p rk3588 -s fio --time 20ms -f csv -o /dev/fd/1
check "/dev/fd/1: the table is on standard output" grep -q '^device,' "$OUT"
expect 0 "run -o /dev/stderr (a file)" "$IDLELAB" run -g menu -p rk3588 -s fio --time 20ms -f csv \
	-o /dev/stderr
check "/dev/stderr: the table is on standard error" grep -q '^device,' "$ERR"

# A FIFO is written directly: its reader gets the whole output (and no early end of file
# from the check before the run).
rm -rf "$D" && mkdir "$D"
mkfifo "$D/fifo"
cat "$D/fifo" > "$TMP/from-fifo" &
reader=$!
expect 0 "run -o FIFO" "$IDLELAB" run -g menu -p rk3588 -s fio --time 20ms -f csv -o "$D/fifo"
wait $reader
check "the FIFO's reader got the table" grep -q '^device,' "$TMP/from-fifo"
check "the FIFO is still a FIFO" test -p "$D/fifo"
ln -s fifo "$D/to-fifo"
cat "$D/fifo" > "$TMP/from-fifo2" &
reader=$!
expect 0 "run -o LINK-TO-FIFO" "$IDLELAB" run -g menu -p rk3588 -s fio --time 20ms -f csv -o "$D/to-fifo"
wait $reader
check "a link to a FIFO: its reader got the table" grep -q '^device,' "$TMP/from-fifo2"

# The kernel's protected_symlinks rule: in a sticky world-writable directory, a link owned by
# neither the caller nor the directory's owner is not followed. Building one needs chown.
if [ "$(id -u)" = 0 ]; then
	S=$TMP/sticky
	mkdir -m 1777 "$S"
	chown 4242:4242 "$S"
	echo precious > "$VICTIM"
	ln -s "$VICTIM" "$S/out.csv"
	chown -h 4343:4343 "$S/out.csv"
	expect 1 "protected link (another user's, in a sticky dir): refused" "$IDLELAB" run -g menu \
		-p rk3588 -s fio --time 20ms -o "$S/out.csv"
	check "the reason names protected_symlinks" grep -q 'protected_symlinks' "$ERR"
	check "the reason names the link's owner and the directory" grep -q "uid 4343 in $S" "$ERR"
	check "the protected link's target is untouched" test "$(cat "$VICTIM")" = precious
	chown -h 4242:4242 "$S/out.csv"
	expect 0 "the same link owned by the directory's owner: followed" "$IDLELAB" run -g menu \
		-p rk3588 -s fio --time 20ms -f csv -o "$S/out.csv"
	check "the directory owner's link: its target written" grep -q '^device,' "$VICTIM"
	chown -h 0:0 "$S/out.csv"
	expect 0 "a link of the caller's own: followed" "$IDLELAB" run -g menu -p rk3588 -s fio \
		--time 20ms -f csv -o "$S/out.csv"
else
	skip "protected link: refused" "not root (chown to another uid needed)"
fi

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
	# (each output twice: the check before the run makes and removes one temporary too)
	check "strace: four files created under the output directory" test "$(wc -l < "$TMP/created")" = 4
	check "strace: each one .NAME.XXXXXX with O_EXCL" sh -c "! grep -Ev '\"$D/\\.(r\\.csv|p\\.json)\\.[A-Za-z0-9]{6}\".*O_EXCL' '$TMP/created'"
	check "strace: no NAME.tmp anywhere" sh -c "! grep -E '\\.tmp[.\"]' '$TMP/strace'"
else
	skip "strace checks" "no usable strace"
fi
finish
