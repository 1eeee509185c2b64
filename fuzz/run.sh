#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run each libFuzzer target for a while on a seed corpus.
# Usage: fuzz/run.sh FUZZ_DIR SECONDS   (make fuzz-run FUZZ_SECONDS=N)
#   platform parser seeds: platforms/*.plat and the example in docs/platforms.md
#   step parser seeds: the ```step blocks of docs/step.md and tests/cli/data/*.step
#   trace reader seeds: the text fixtures of tests/fixtures/traces (first 8 KiB of each); the
#   systrace reader's own kept corpus holds small systrace pages (whole, cut) and TGID text
#   rt-app reader seeds: workloads/*.json and the ```json blocks of docs/rtapp.md
#   merge seeds: only the kept corpus (case files of sweep and verdict --emit-jobs)
#   seeds table seeds: slices of tests/fidelity/seeds.tsv (the header and rows of each kind)
#   sysfs dump seeds: tests/fixtures/dumps/*.txt (first 8 KiB of each)
#   review patch seeds: only the kept corpus (small synthetic patches and a Makefile head)
#   every target: also its kept corpus fuzz/corpus/TARGET/ (minimised from the campaigns of
#   docs/fuzzing.md)
# Crashes are written to FUZZ_DIR/crash-* (libFuzzer's -artifact_prefix).
set -eu
dir=${1:?usage: fuzz/run.sh FUZZ_DIR SECONDS}
seconds=${2:-10}
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/idlelab-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Write every fenced block of language $2 in markdown file $1 to $3/$4-N.
blocks() {
	awk -v lang="$2" -v out="$3/$4" '
		$0 == "```" lang { n++; file = out "-" n; inblock = 1; next }
		inblock && /^```/ { inblock = 0; close(file); next }
		inblock { print > file }' "$1"
}

mkdir -p "$work/platform" "$work/step"
cp "$top"/platforms/*.plat "$work/platform/"
blocks "$top/docs/platforms.md" "" "$work/platform" doc
blocks "$top/docs/step.md" step "$work/step" doc
for f in "$top"/tests/cli/data/*.step; do
	[ -e "$f" ] && cp "$f" "$work/step/"
done

# trace readers: the text fixtures of tests/fixtures/traces (each reader sees all of them)
mkdir -p "$work/trace"
for f in "$top"/tests/fixtures/traces/*.trace "$top"/tests/fixtures/traces/ladder.* \
	"$top"/tests/fixtures/traces/vm.perf "$top"/tests/fixtures/traces/vm.idlestat; do
	[ -e "$f" ] && head -c 8192 "$f" >"$work/trace/$(basename "$f")"
done

# rt-app reader: the shipped workloads and the documentation's examples (if the target was built)
mkdir -p "$work/rtapp"
cp "$top"/workloads/*.json "$work/rtapp/" 2>/dev/null || true
[ -f "$top/docs/rtapp.md" ] && blocks "$top/docs/rtapp.md" json "$work/rtapp" doc

# the corpora kept in the tree (docs/fuzzing.md): what the long campaigns found, minimised
# (each trace reader has its own, on top of the shared fixtures)
for reader in ftrace tracecmd perf idlestat detect systrace; do
	mkdir -p "$work/trace_$reader"
	cp "$work"/trace/* "$work/trace_$reader/"
done
mkdir -p "$work/compressed" "$work/verdict_case"
for target in platform step trace_ftrace trace_tracecmd trace_perf trace_idlestat trace_detect \
	trace_systrace compressed verdict_case merge scenario report rtapp seeds dump review_patch; do
	kept=$target
	[ "$target" = compressed ] && kept=trace_compressed
	mkdir -p "$work/$target"
	if [ -d "$top/fuzz/corpus/$kept" ]; then
		cp "$top"/fuzz/corpus/$kept/* "$work/$target/"
	fi
done

# the scoreboard's table: its comment and header lines with rows of each metric and group
mkdir -p "$work/seeds"
table="$top/tests/fidelity/seeds.tsv"
head -n 8 "$table" >"$work/seeds/head"
for metric in score idles col_belows watts above_pct poll_pct usage_state pn_s_state \
	throughput_rel irq_fall_pct timer_fall_pct jops_fall_pct sweep_avg_pct; do
	{ grep '^group' "$table"; grep -m 3 "	$metric" "$table"; } >"$work/seeds/$metric"
done

# sysfs dumps: the fixtures of tests/fixtures/dumps, cut to the fuzzer's length
for f in "$top"/tests/fixtures/dumps/*.txt; do
	[ -e "$f" ] && head -c 8192 "$f" >"$work/dump/$(basename "$f")"
done

status=0
for target in platform step dump; do
	echo "fuzz: $target for ${seconds}s on $(ls "$work/$target" | wc -l) seeds"
	"$dir/fuzz_$target" -max_total_time="$seconds" -max_len=8192 -print_final_stats=1 \
		-artifact_prefix="$dir/crash-$target-" "$work/$target" || status=1
done
for reader in ftrace tracecmd perf idlestat detect systrace; do
	echo "fuzz: trace_$reader for ${seconds}s on $(ls "$work/trace_$reader" | wc -l) seeds"
	"$dir/fuzz_trace_$reader" -max_total_time="$seconds" -max_len=8192 -print_final_stats=1 \
		-artifact_prefix="$dir/crash-trace_$reader-" "$work/trace_$reader" || status=1
done
# compressed traces: the same seeds, each compressed with every tool there is
for f in "$work"/trace/*; do
	for t in xz gzip zstd; do
		command -v $t >/dev/null 2>&1 && $t -c "$f" >"$work/compressed/$(basename "$f").$t"
	done
done
echo "fuzz: trace_compressed for ${seconds}s on $(ls "$work/compressed" | wc -l) seeds"
"$dir/fuzz_trace_compressed" -max_total_time="$seconds" -max_len=8192 -print_final_stats=1 \
	-artifact_prefix="$dir/crash-trace_compressed-" "$work/compressed" || status=1
# verdict case fields: a header and a row as `idlelab verdict --case` writes them
printf 'score,idles,aboves,belows,wake_p99_ns,joules,energy_known,duration_ns\n12834,6742,67,0,219136,0.17963275688000002,1,500000000\n' \
	>"$work/verdict_case/seed"
echo "fuzz: verdict_case for ${seconds}s on $(ls "$work/verdict_case" | wc -l) seeds"
"$dir/fuzz_verdict_case" -max_total_time="$seconds" -max_len=8192 -print_final_stats=1 \
	-artifact_prefix="$dir/crash-verdict_case-" "$work/verdict_case" || status=1
# merge's case files: the command writes its outputs, and prints every refusal (stderr closed)
echo "fuzz: merge for ${seconds}s on $(ls "$work/merge" | wc -l) seeds"
"$dir/fuzz_merge" -max_total_time="$seconds" -max_len=8192 -print_final_stats=1 -close_fd_mask=3 \
	-artifact_prefix="$dir/crash-merge-" "$work/merge" || status=1
if [ -x "$dir/fuzz_rtapp" ]; then
	echo "fuzz: rtapp for ${seconds}s on $(ls "$work/rtapp" | wc -l) seeds"
	"$dir/fuzz_rtapp" -max_total_time="$seconds" -max_len=8192 -print_final_stats=1 \
		-artifact_prefix="$dir/crash-rtapp-" "$work/rtapp" || status=1
fi
echo "fuzz: seeds for ${seconds}s on $(ls "$work/seeds" | wc -l) seeds"
"$dir/fuzz_seeds" -max_total_time="$seconds" -max_len=8192 -print_final_stats=1 \
	-artifact_prefix="$dir/crash-seeds-" "$work/seeds" || status=1
for target in scenario report review_patch; do
	[ -x "$dir/fuzz_$target" ] || continue
	echo "fuzz: $target for ${seconds}s on $(ls "$work/$target" | wc -l) seeds"
	"$dir/fuzz_$target" -max_total_time="$seconds" -max_len=65536 -print_final_stats=1 \
		-artifact_prefix="$dir/crash-$target-" "$work/$target" || status=1
done
exit $status
