#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# record-validation.sh - record the real side of docs/validation.md: boot the test guest
# (scripts/vm/run-guest.sh, with rt-app), run the rt-app workloads there under
# `idlelab measure -g menu,ladder --trace` (scripts/vm/guest-validate.sh), bring the tables,
# traces and the exported platform back, and digest them (scripts/vm/validation-digest.py)
# into the files tests/cli/validation.t compares the lab with:
#
#   tests/fixtures/validation/guest.plat   the guest's state table (idlelab states --export)
#   tests/fixtures/validation/real.tsv     the real numbers, one line per run
#
#   scripts/vm/record-validation.sh --build DIR [--iter N] [--raw DIR] [--files "A B ..."]
#                                   [--dest DIR] [--timeout S] [--limit S] [--digest-only]
#                                   [--resume] [--kernel DIR --govs LIST --name NAME] [--mem MB]
#
#   --build DIR   the build directory with idlelab (required)
#   --iter N      iterations per governor (default 2)
#   --raw DIR     keep what came back from the guest (traces, measure tables) in DIR
#                 (default: a temporary directory, removed)
#   --files LIST  workloads/NAME.json to run (default: every shipped file that fits the
#                 guest's 2 vCPUs; pingpong-6 and pingpong-12 need 6 and 12 CPUs)
#   --dest DIR    where the digested files go (default tests/fixtures/validation)
#   --timeout S   guest timeout (default: the limits of all workloads, plus 600 s)
#   --limit S     time limit of one workload's measure in the guest (default 150 s per run:
#                 150 x governors x iterations); past it, measure gets SIGTERM (it restores
#                 the governor), the tasks' states go to RAW/NAME.stall.txt, the workload
#                 counts as failed (RAW/NAME.failed) and the next one runs
#   --digest-only do not boot the guest: digest again what a run left in --raw DIR
#   --resume      with --raw DIR: keep what an earlier run left there and run only the
#                 workloads that have no NAME.measure.json yet (failed, stalled, not reached),
#                 with that run's rt-app calibration; then digest all of them together
#   --kernel DIR  boot this kernel (run-guest.sh --kernel), e.g. WORKDIR/guest of
#                 scripts/vm/build-idlelab-kernel.sh, instead of the Debian one
#   --govs LIST   the governors measure runs (default menu,ladder)
#   --name NAME   write DEST/NAME-runs.tsv and DEST/NAME-guest.plat instead of real.tsv and
#                 guest.plat, and DEST/NAME.tsv: each real figure with the lab's prediction
#                 beside it (scripts/vm/real-vs-lab.py). The idlelab kernel's record:
#                 --kernel WORKDIR/guest --govs menu,idlelab,teo --name idlelab-real
#   --mem MB      guest memory (default 1024). A workload's traces stay uncompressed in the
#                 guest's RAM until its last run ends: on a quiet host the ping-pong files
#                 give 50-100 MB per run, so 5 runs of 2 governors need --mem 3072
#
# One guest runs at a time, as one host thread (TCG) at nice 10. The default set is 48 runs
# of 5-10 s (and rt-app's start and exit, slow under emulation): 23.5 minutes on a loaded
# 2-CPU host, with the boot, the calibration, gzip and the copy back. Each workload's files
# come back as soon as it ends (scripts/vm/guest-send.sh); the guest's console, its output
# and the raw stream stay in RAW/vm (run-guest.sh --keep). Exit status 1 when a workload
# failed or is missing: what did run is digested all the same, and --resume runs the rest.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)

BUILD='' ITER=2 RAW='' DEST=$TOP/tests/fixtures/validation TIMEOUT='' LIMIT='' DIGEST_ONLY=''
KERNEL='' GOVS=menu,ladder NAME='' RESUME='' MEM=1024
# Validation files first (5 s each, made for the emulated guest), then the shipped ones.
FILES="timer-1khz timer-200hz pingpong-2-work periodic-73hz periodic-113hz periodic-211hz
	periodic-347hz periodic-401hz pingpong-2 pingpong-2-sync threads-500"
# The idle baseline: the guest on its own, as long as the longest workload.
IDLE_S=10

die() { echo "record-validation.sh: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
	case $1 in
	--build) BUILD=$2; shift 2 ;;
	--iter) ITER=$2; shift 2 ;;
	--raw) RAW=$2; shift 2 ;;
	--files) FILES=$2; shift 2 ;;
	--dest) DEST=$2; shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	--limit) LIMIT=$2; shift 2 ;;
	--resume) RESUME=1; shift ;;
	--digest-only) DIGEST_ONLY=1; shift ;;
	--kernel) KERNEL=$2; shift 2 ;;
	--govs) GOVS=$2; shift 2 ;;
	--name) NAME=$2; shift 2 ;;
	--mem) MEM=$2; shift 2 ;;
	-h | --help) sed -n '4,/^set -eu/p' "$0" | sed -e 's/^# \{0,1\}//' -e '/^set -eu/d'; exit 0 ;;
	*) die "unknown argument $1 (--help)" ;;
	esac
done
[ -n "$BUILD" ] || die "--build DIR is required"
[ -x "$BUILD/idlelab" ] || die "no $BUILD/idlelab"
command -v python3 > /dev/null || die "no python3"
case $ITER in '' | *[!0-9]*) die "--iter wants a number" ;; esac
case $LIMIT$TIMEOUT in *[!0-9]*) die "--limit and --timeout want seconds" ;; esac
case $MEM in '' | *[!0-9]*) die "--mem wants megabytes" ;; esac
case $GOVS in '' | *[!a-z0-9.,-]*) die "--govs wants governor names separated by commas" ;; esac
case $NAME in *[!a-z0-9-]*) die "--name wants letters, digits and -" ;; esac
if [ -n "$KERNEL" ]; then
	[ -r "$KERNEL/vmlinuz" ] || die "--kernel: no $KERNEL/vmlinuz"
	KERNEL=$(cd "$KERNEL" && pwd)
fi
# One line with single spaces (word splitting on purpose): it goes into the guest script.
FILES=$(echo $FILES)
NGOVS=$(echo "$GOVS" | tr ',' '\n' | grep -c .)
[ -n "$LIMIT" ] || LIMIT=$((150 * NGOVS * ITER))

# The workloads of FILES (and the idle baseline) that RAW/out has no measure table of.
missing() {
	for f in $FILES idle; do
		[ -f "$RAW/out/$f.measure.json" ] || echo "$f"
	done
}

run_guest() {
	command -v rt-app > /dev/null || die "no rt-app (Debian: rt-app)"
	todo=$FILES idle_s=$IDLE_S pload=''
	if [ -n "$RESUME" ] && [ -d "$RAW/out" ]; then
		# What a run whose host side was stopped had received: the stream kept in RAW/vm.
		[ ! -s "$RAW/vm/out.tar" ] || tar -x -i -f "$RAW/vm/out.tar" -C "$RAW/out" 2> /dev/null || true
		todo=$(missing | grep -vx idle | tr '\n' ' ')
		missing | grep -qx idle || idle_s=0
		# The runs of one record use one rt-app calibration.
		pload=$(sed -n 's/^rtapp_calibration_ns //p' "$RAW/out/guest.txt" 2> /dev/null || true)
		ploads=$(sed -n 's/^rtapp_ploads_ns //p' "$RAW/out/guest.txt" 2> /dev/null || true)
		if [ -z "$todo" ] && [ "$idle_s" = 0 ]; then
			echo "# --resume: every workload is there"
			return 0
		fi
		echo "# --resume: running $todo$([ "$idle_s" = 0 ] || echo idle)"
		# A file's traces are FILE-GOV-ITER.trace[.gz]: FILE-*.trace would also match the
		# traces of every file whose name starts with FILE- (pingpong-2-work for pingpong-2).
		for f in $todo $([ "$idle_s" = 0 ] || echo idle); do
			rm -f "$RAW/out/$f".*
			for g in $(echo "$GOVS" | tr ',' ' '); do
				rm -f "$RAW/out/$f-$g"-[0-9]*.trace "$RAW/out/$f-$g"-[0-9]*.trace.gz
			done
		done
	else
		rm -rf "$RAW/out"
	fi
	n=$(($(echo $todo | wc -w) + 1))
	[ -n "$TIMEOUT" ] || TIMEOUT=$((LIMIT * n + 600))
	# The guest runs /vm/test without arguments: a small script that sets the run's settings.
	{
		echo '#!/bin/sh'
		echo "VALIDATE_FILES='$(echo $todo)' VALIDATE_GOVS=$GOVS VALIDATE_ITER=$ITER VALIDATE_IDLE_S=$idle_s"
		echo "VALIDATE_LIMIT_S=$LIMIT VALIDATE_PLOAD='$pload' VALIDATE_PLOADS='${ploads:-}'"
		echo 'export VALIDATE_FILES VALIDATE_GOVS VALIDATE_ITER VALIDATE_IDLE_S VALIDATE_LIMIT_S'
		echo 'export VALIDATE_PLOAD VALIDATE_PLOADS'
		echo 'exec sh /vm/scripts/vm/guest-validate.sh'
	} > "$RAW/validate-test.sh"
	start=$(date +%s)
	# The emulated guest's speed depends on how busy the host is: keep a note of it.
	{
		[ -z "$RESUME" ] || [ ! -f "$RAW/host.txt" ] || { cat "$RAW/host.txt"; echo "resumed"; }
		echo "host $(uname -r), $(nproc) CPUs, $(qemu-system-x86_64 --version | head -n 1)"
		echo "loadavg before $(cut -d ' ' -f 1-3 /proc/loadavg)"
	} > "$RAW/host.txt.new"
	mv "$RAW/host.txt.new" "$RAW/host.txt"
	rc=0
	nice -n 10 "$HERE/run-guest.sh" --build "$BUILD" ${KERNEL:+--kernel "$KERNEL"} --add rt-app \
		--mem "$MEM" --timeout "$TIMEOUT" --keep "$RAW/vm" --out "$RAW/out" "$RAW/validate-test.sh" || rc=$?
	echo "loadavg after $(cut -d ' ' -f 1-3 /proc/loadavg); $(($(date +%s) - start)) s (guest exit $rc)" \
		>> "$RAW/host.txt"
	cp "$RAW/host.txt" "$RAW/out/host.txt"
	echo "# guest done in $(($(date +%s) - start)) s, exit $rc"
	return 0
}

if [ -z "$RAW" ]; then
	[ -z "$DIGEST_ONLY" ] || die "--digest-only needs --raw DIR"
	RAW=$(mktemp -d "${TMPDIR:-/tmp}/idlelab-validation.XXXXXX")
	trap 'rm -rf "$RAW"' EXIT
fi
mkdir -p "$RAW"
[ -n "$DIGEST_ONLY" ] || run_guest
[ -d "$RAW/out" ] || die "nothing came back from the guest (no $RAW/out)"
for t in "$RAW"/out/*.trace.gz; do
	[ -f "$t" ] && gzip -d -f "$t"
done
lacking=$(missing | tr '\n' ' ')
for f in $lacking; do
	echo "record-validation.sh: $f: $(cat "$RAW/out/$f.failed" 2> /dev/null || echo 'not run (the guest ended before it)')" >&2
done

mkdir -p "$DEST"
if [ -z "$NAME" ]; then
	RUNS=$DEST/real.tsv PLAT=$DEST/guest.plat
else
	RUNS=$DEST/$NAME-runs.tsv PLAT=$DEST/$NAME-guest.plat
fi
python3 "$HERE/validation-digest.py" --idlelab "$BUILD/idlelab" --files "$FILES" \
	--platform "$PLAT" "$RAW/out" > "$RUNS.tmp"
mv "$RUNS.tmp" "$RUNS"
echo "# wrote $PLAT and $RUNS"
finish() {
	[ -n "$lacking" ] || exit 0
	echo "record-validation.sh: missing: $lacking(--resume --raw $RAW runs them)" >&2
	exit 1
}
[ -n "$NAME" ] || finish
python3 "$HERE/real-vs-lab.py" --idlelab "$BUILD/idlelab" --runs "$RUNS" --platform "$PLAT" \
	--kernel-file "$TOP/kgov-src/idlelab.c" --workloads "$TOP/workloads" > "$DEST/$NAME.tsv.tmp"
mv "$DEST/$NAME.tsv.tmp" "$DEST/$NAME.tsv"
echo "# wrote $DEST/$NAME.tsv"
finish
