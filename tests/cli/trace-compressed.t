#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Compressed traces: `stats` and `replay` read xz, gzip and zstd copies of the fixtures (made
# here with the command-line tools), from a file or a pipe, told by their magic bytes and
# not their names, with output identical to the uncompressed trace; truncated or damaged
# data is an error naming the file, with no output.
. "$(dirname "$0")/lib.sh"
FIX=$TOP/tests/fixtures/traces
SHARED=$TOP/../shared/traces/vm-haltpoll

# The tools that make the copies, and the library each needs in idlelab.
tools=""
for t in xz gzip zstd; do
	command -v $t >/dev/null 2>&1 && tools="$tools $t"
done
ext() { case $1 in xz) echo xz ;; gzip) echo gz ;; zstd) echo zst ;; esac; }
built_in() { ! "$IDLELAB" stats -p haltpoll-vm "$1" 2>&1 | grep -q 'built without'; }

# The path is the only line that may differ: it names the file read.
same_output() {
	sed -e "s|$2|TRACE|" "$1" >"$TMP/a"
	sed -e "s|$4|TRACE|" "$3" >"$TMP/b"
	cmp -s "$TMP/a" "$TMP/b"
}

for f in ladder.pipe ladder.perf ladder.idlestat ladder.tcreport vm.trace; do
	cp "$FIX/$f" "$TMP/$f"
	"$IDLELAB" stats -p haltpoll-vm -f json "$TMP/$f" >"$TMP/$f.ref" 2>&1
	for t in $tools; do
		z=$TMP/$f.$(ext $t)
		$t -c "$TMP/$f" >"$z"
		if ! built_in "$z"; then
			skip "stats $f.$(ext $t)" "idlelab built without the $t library"
			continue
		fi
		expect 0 "stats $f.$(ext $t)" "$IDLELAB" stats -p haltpoll-vm -f json "$z"
		cat "$ERR" >>"$OUT"
		check "$f.$(ext $t): the same output as $f" same_output "$OUT" "$z" "$TMP/$f.ref" "$TMP/$f"
	done
done

# Detected by content: a misleading name, and a pipe.
for t in $tools; do
	z=$TMP/vm.trace.$(ext $t)
	built_in "$z" || continue
	cp "$z" "$TMP/misnamed.txt"
	expect 0 "$t data named .txt" "$IDLELAB" stats -p haltpoll-vm -f json "$TMP/misnamed.txt"
	check "... read as $t" same_output "$OUT" "$TMP/misnamed.txt" "$TMP/vm.trace.ref" "$TMP/vm.trace"
	"$IDLELAB" stats -p haltpoll-vm -f csv - <"$TMP/vm.trace" >"$TMP/pipe.ref" 2>&1
	expect 0 "$t from a pipe" sh -c "$t -dc '$z' | $t -c | '$IDLELAB' stats -p haltpoll-vm -f csv -"
	cat "$ERR" >>"$OUT"
	check "... the same output as the plain pipe" cmp -s "$OUT" "$TMP/pipe.ref"

	# Replay: every governor's row and the agreement, identical.
	"$IDLELAB" replay -p haltpoll-vm -g ladder,menu,teo -f csv "$TMP/vm.trace" >"$TMP/replay.ref"
	expect 0 "replay vm.trace.$(ext $t)" "$IDLELAB" replay -p haltpoll-vm -g ladder,menu,teo -f csv "$z"
	check "... the same output as vm.trace" same_output "$OUT" "$z" "$TMP/replay.ref" "$TMP/vm.trace"
	expect 0 "replay --periods of vm.trace.$(ext $t)" "$IDLELAB" replay -p haltpoll-vm -g menu \
		--periods "$z"
	"$IDLELAB" replay -p haltpoll-vm -g menu --periods "$TMP/vm.trace" >"$TMP/periods.ref"
	check "... the same periods" cmp -s "$OUT" "$TMP/periods.ref"

	# Damage: a truncated file and flipped bytes are errors that name the file; no output.
	size=$(wc -c <"$z")
	head -c $((size / 2)) "$z" >"$TMP/cut.$(ext $t)"
	expect 1 "a truncated $t trace is an error" "$IDLELAB" stats -o "$TMP/cut.out" "$TMP/cut.$(ext $t)"
	check "... naming the file and the compression" grep -q "cut.$(ext $t): corrupt $t data" "$ERR"
	check "... and no output file" test ! -e "$TMP/cut.out"
done

if [ -n "$tools" ]; then
	printf 'not a trace\n' | xz -c >"$TMP/text.xz" 2>/dev/null || printf 'not a trace\n' | gzip -c >"$TMP/text.xz"
	expect 1 "a compressed file that is not a trace" "$IDLELAB" stats "$TMP/text.xz"
	check "... says so" grep -q 'not a trace in any known format' "$ERR"
fi
printf '\375''7zXZ\000garbage' >"$TMP/bad.xz"
if built_in "$TMP/bad.xz"; then
	expect 1 "xz magic then garbage" "$IDLELAB" replay -p haltpoll-vm -g menu "$TMP/bad.xz"
	check "... is damaged data, named" grep -q 'bad.xz: corrupt xz data' "$ERR"
fi

# The real traces of shared/ are xz files: replay reads them as they are.
if [ -d "$SHARED" ] && command -v xz >/dev/null 2>&1 && built_in "$SHARED/ladder_idle_5s.trace.xz"; then
	xz -dc "$SHARED/ladder_idle_5s.trace.xz" >"$TMP/ladder5.trace"
	"$IDLELAB" replay -p haltpoll-vm -g ladder,menu -f csv "$TMP/ladder5.trace" >"$TMP/l5.ref"
	expect 0 "replay the shared xz trace directly" "$IDLELAB" replay -p haltpoll-vm -g ladder,menu \
		-f csv "$SHARED/ladder_idle_5s.trace.xz"
	check "... the same output as its decompressed copy" same_output "$OUT" \
		"$SHARED/ladder_idle_5s.trace.xz" "$TMP/l5.ref" "$TMP/ladder5.trace"
else
	skip "the shared xz traces" "no $SHARED, xz or liblzma"
fi
finish
