#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The idlelab governor in a real kernel (docs/governor.md, "In a real kernel"): Debian's
# linux-source-6.12 with kgov-src/idlelab.c built in (scripts/vm/build-idlelab-kernel.sh),
# booted in the QEMU guest, ran the rt-app workloads under `idlelab measure -g menu,idlelab,teo
# --trace` (scripts/vm/record-validation.sh --name idlelab-real). This test does not boot
# anything: it checks the record in tests/fixtures/validation against the repository (the kernel
# file is the one the guest ran, the real figures are those of the runs, every lab figure is
# what this tree's lab predicts), with scripts/vm/real-vs-lab.py --check. No timing is checked.
. "$(dirname "$0")/lib.sh"

FIX=$TOP/tests/fixtures/validation
# Each lab run is simulated once, however many of the checks below ask for it.
export IDLELAB_LAB_CACHE="$TMP/lab-runs"
RVL=$TOP/scripts/vm/real-vs-lab.py
RUNS=$FIX/idlelab-real-runs.tsv
PLAT=$FIX/idlelab-real-guest.plat
TABLE=$FIX/idlelab-real.tsv

need_cmd python3 "idlelab-real" "no python3"
need_cmd "${CC:-cc}" "idlelab-real" "no C compiler for kgov (the kernel file's decisions)"
need_rtapp "$PLAT" "$TOP/workloads/timer-200hz.json" "idlelab-real"

expect 0 "the platform exported in the idlelab kernel's guest loads" "$IDLELAB" platforms "$PLAT"
check "the guest ran the kernel built with the governor" grep -q '^# guest: 6\.12\.[0-9]*-idlelab,' "$RUNS"
check "its available_governors listed idlelab" grep -q '^# guest cpuidle governors: .*\bidlelab\b' "$RUNS"
govs=$(awk -F'\t' '!/^#/ && seen++ { print $2 }' "$RUNS" | sort -u | tr '\n' ' ')
check "measure ran menu, idlelab and teo (runs: $govs)" test "$govs" = "idlelab menu teo "

# The whole set: every shipped rt-app file that fits the guest's 2 vCPUs (pingpong-6 and -12
# do not), and the idle baseline, each with 2 runs of each governor, or named as failed in
# the guest (scripts/vm/guest-validate.sh's time limit) with no run of it kept.
for f in "$TOP"/workloads/*.json idle; do
	w=$(basename "$f" .json)
	case $w in pingpong-6 | pingpong-12) continue ;; esac
	runs=$(awk -F'\t' -v w="$w" '!/^#/ && $1 == w' "$RUNS" | cut -f 2,3 | sort | tr '\n' ' ')
	if grep -q "^# failed in the guest: $w:" "$RUNS"; then
		check "$w: failed in the guest, and no run of it is in the record" test -z "$runs"
	else
		check "$w: 2 runs of each governor" test "$runs" = "$(printf 'idlelab\t0 idlelab\t1 menu\t0 menu\t1 teo\t0 teo\t1 ')"
	fi
done

rvl() {
	python3 "$RVL" --idlelab "$IDLELAB" --kernel-file "$TOP/kgov-src/idlelab.c" "$@"
}
expect 0 "the record matches the runs and this tree's lab" rvl --runs "$RUNS" --platform "$PLAT" --check "$TABLE"
sed 's/^/# /' "$OUT" | grep -v '^# ok '
grep '^ok 1 - ' "$OUT" | sed 's/^/# /'
# The file's code changed since the record (step 5's loops in one function), not its decisions.
recorded=$(sed -n 's/^# kernel file: .* blob \([0-9a-f]\{12\}\)[0-9a-f]*$/\1/p' "$TABLE")
check "the kernel file is the recorded one, or stands for it by its comments or its decisions" \
	grep -Eq "^ok 1 - .*(the one the guest ran: [^()]*\$|the comments differ, the code is the same|code differs from the recorded blob $recorded, decisions identical on 12 streams)" "$OUT"
check "every line of it was checked and passed" sh -c "! grep -q '^not ok' '$OUT' &&
	test \$(grep -c '^ok ' '$OUT') -eq \$((2 * \$(grep -vc '^#' '$TABLE')))"
check "the lab figure is there for every metric the lab has" sh -c "! awk -F'\t' '!/^#/ && \$9 == \"\"' '$TABLE' | grep -q ."

# The check can fail: on a small record (two workloads of the runs), a lab figure, a real
# figure and the kernel file changed one at a time are each caught, and nothing else is.
awk -F'\t' '/^#/ || !head++ || $1 == "timer-200hz" || $1 == "pingpong-2"' "$RUNS" >"$TMP/runs.tsv"
expect 0 "a table of two workloads is written" rvl --runs "$TMP/runs.tsv" --platform "$PLAT"
cp "$OUT" "$TMP/table.tsv"
awk -F'\t' -v OFS='\t' '!/^#/ && $1 == "timer-200hz" && $2 == "idlelab" && $4 == "cpu0.idles_per_s" {
	$9 = sprintf("%.2f", $9 + 1) } { print }' "$TMP/table.tsv" >"$TMP/lab.tsv"
expect 1 "a changed lab figure is caught" rvl --runs "$TMP/runs.tsv" --platform "$PLAT" --check "$TMP/lab.tsv"
check "as that one figure" sh -c "test \$(grep -c '^not ok' '$OUT') -eq 1 &&
	grep -q '^not ok .* timer-200hz idlelab cpu0.idles_per_s: lab' '$OUT'"
awk -F'\t' -v OFS='\t' '!/^#/ && $1 == "pingpong-2" && $2 == "menu" && $4 == "idles_per_s" {
	$6 = sprintf("%.2f", $6 * 2) } { print }' "$TMP/table.tsv" >"$TMP/real.tsv"
expect 1 "a changed real figure is caught" rvl --runs "$TMP/runs.tsv" --platform "$PLAT" --check "$TMP/real.tsv"
check "as that one figure" sh -c "test \$(grep -c '^not ok' '$OUT') -eq 1 &&
	grep -q '^not ok .* pingpong-2 menu idles_per_s: real' '$OUT'"

# The kernel file: the small table names the blob the guest ran, as the record does; a file
# stands for it when its decisions are those of that blob (kgov diff on the check's streams).
grep '^# kernel file: ' "$TABLE" >"$TMP/kernel-line"
awk 'NR == FNR { line = $0; next } /^# kernel file: / { $0 = line } { print }' \
	"$TMP/kernel-line" "$TMP/table.tsv" >"$TMP/recorded.tsv"
rvk() {
	file=$1
	shift
	python3 "$RVL" --idlelab "$IDLELAB" --kernel-file "$file" --runs "$TMP/runs.tsv" --platform "$PLAT" "$@"
}
{ cat "$TOP/kgov-src/idlelab.c"; echo 'static int idlelab_changed;'; } >"$TMP/idlelab.c"
expect 0 "a kernel file with other code but the same decisions stands for the recorded one" \
	rvk "$TMP/idlelab.c" --check "$TMP/recorded.tsv"
check "... said so: decisions identical on its 3 streams" \
	grep -q '^ok 1 - .*code differs from the recorded blob [0-9a-f]\{12\}, decisions identical on 3 streams' "$OUT"
# Without git's history (a tree from a tarball, a shallow clone) the recorded file is the copy
# kept beside the records, tests/fixtures/validation/idlelab-recorded.c, found by its blob.
mkdir "$TMP/nogit"
expect 0 "without git's history, the kept copy of the recorded file stands in" \
	env GIT_DIR="$TMP/nogit" python3 "$RVL" --idlelab "$IDLELAB" --kernel-file "$TMP/idlelab.c" \
	--runs "$TMP/runs.tsv" --platform "$PLAT" --check "$TMP/recorded.tsv"
check "... the same answer: decisions identical on its 3 streams" \
	grep -q '^ok 1 - .*code differs from the recorded blob [0-9a-f]\{12\}, decisions identical on 3 streams' "$OUT"
sed 's/^#define SHORT_IDLE_NS\t\t(15 \* NSEC_PER_USEC)$/#define SHORT_IDLE_NS\t\t(20 * NSEC_PER_USEC)/' \
	"$TOP/kgov-src/idlelab.c" >"$TMP/planted.c"
check "a threshold is planted (SHORT_IDLE_NS 15 to 20 us)" sh -c "! cmp -s '$TOP/kgov-src/idlelab.c' '$TMP/planted.c'"
expect 1 "a kernel file that decides otherwise is caught" rvk "$TMP/planted.c" --check "$TMP/recorded.tsv"
check "as the kernel file only, naming the stream and the first differing decision" sh -c "
	test \$(grep -c '^not ok' '$OUT') -eq 1 &&
	grep -q '^not ok 1 - .*decisions on [1-3] of 3 streams: .*: [0-9]* of [0-9]* decisions differ, the first: decision [0-9]*' '$OUT'"
awk '/^# kernel file: / { sub(/blob [0-9a-f]*$/, "blob 0000000000000000000000000000000000000001") } { print }' \
	"$TMP/recorded.tsv" >"$TMP/lost.tsv"
expect 1 "a recorded blob git does not have is not a pass" rvk "$TMP/idlelab.c" --check "$TMP/lost.tsv"
check "... said so (a shallow clone: fetch the history)" sh -c "test \$(grep -c '^not ok' '$OUT') -eq 1 &&
	grep -q '^not ok 1 - .*neither git nor tests/fixtures/validation/ has blob 000000000000 .*git fetch --unshallow' '$OUT'"

finish
