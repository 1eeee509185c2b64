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
#                                   [--dest DIR] [--timeout S] [--digest-only]
#                                   [--kernel DIR --govs LIST --name NAME]
#
#   --build DIR   the build directory with idlelab (required)
#   --iter N      iterations per governor (default 2)
#   --raw DIR     keep what came back from the guest (traces, measure tables) in DIR
#                 (default: a temporary directory, removed)
#   --files LIST  workloads/NAME.json to run (default: every shipped file that fits the
#                 guest's 2 vCPUs; pingpong-6 and pingpong-12 need 6 and 12 CPUs)
#   --dest DIR    where the digested files go (default tests/fixtures/validation)
#   --timeout S   guest timeout (default 3600)
#   --digest-only do not boot the guest: digest again what a run left in --raw DIR
#   --kernel DIR  boot this kernel (run-guest.sh --kernel), e.g. WORKDIR/guest of
#                 scripts/vm/build-idlelab-kernel.sh, instead of the Debian one
#   --govs LIST   the governors measure runs (default menu,ladder)
#   --name NAME   write DEST/NAME-runs.tsv and DEST/NAME-guest.plat instead of real.tsv and
#                 guest.plat, and DEST/NAME.tsv: each real figure with the lab's prediction
#                 beside it (scripts/vm/real-vs-lab.py). The idlelab kernel's record:
#                 --kernel WORKDIR/guest --govs menu,idlelab,teo --name idlelab-real
#
# One guest runs at a time, as one host thread (TCG) at nice 10. The default set is 48 runs
# of 5-10 s (and rt-app's start and exit, slow under emulation): 23.5 minutes on a loaded
# 2-CPU host, with the boot, the calibration, gzip and the copy back.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)

BUILD='' ITER=2 RAW='' DEST=$TOP/tests/fixtures/validation TIMEOUT=3600 DIGEST_ONLY=''
KERNEL='' GOVS=menu,ladder NAME=''
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
	--digest-only) DIGEST_ONLY=1; shift ;;
	--kernel) KERNEL=$2; shift 2 ;;
	--govs) GOVS=$2; shift 2 ;;
	--name) NAME=$2; shift 2 ;;
	-h | --help) sed -n '4,/^set -eu/p' "$0" | sed -e 's/^# \{0,1\}//' -e '/^set -eu/d'; exit 0 ;;
	*) die "unknown argument $1 (--help)" ;;
	esac
done
[ -n "$BUILD" ] || die "--build DIR is required"
[ -x "$BUILD/idlelab" ] || die "no $BUILD/idlelab"
command -v python3 > /dev/null || die "no python3"
case $ITER in '' | *[!0-9]*) die "--iter wants a number" ;; esac
case $GOVS in '' | *[!a-z0-9.,-]*) die "--govs wants governor names separated by commas" ;; esac
case $NAME in *[!a-z0-9-]*) die "--name wants letters, digits and -" ;; esac
if [ -n "$KERNEL" ]; then
	[ -r "$KERNEL/vmlinuz" ] || die "--kernel: no $KERNEL/vmlinuz"
	KERNEL=$(cd "$KERNEL" && pwd)
fi
# One line with single spaces (word splitting on purpose): it goes into the guest script.
FILES=$(echo $FILES)

run_guest() {
	command -v rt-app > /dev/null || die "no rt-app (Debian: rt-app)"
	rm -rf "$RAW/out"
	# The guest runs /vm/test without arguments: a small script that sets the run's settings.
	{
		echo '#!/bin/sh'
		echo "VALIDATE_FILES='$FILES' VALIDATE_GOVS=$GOVS VALIDATE_ITER=$ITER VALIDATE_IDLE_S=$IDLE_S"
		echo 'export VALIDATE_FILES VALIDATE_GOVS VALIDATE_ITER VALIDATE_IDLE_S'
		echo 'exec sh /vm/scripts/vm/guest-validate.sh'
	} > "$RAW/validate-test.sh"
	start=$(date +%s)
	# The emulated guest's speed depends on how busy the host is: keep a note of it.
	{
		echo "host $(uname -r), $(nproc) CPUs, $(qemu-system-x86_64 --version | head -n 1)"
		echo "loadavg before $(cut -d ' ' -f 1-3 /proc/loadavg)"
	} > "$RAW/host.txt"
	nice -n 10 "$HERE/run-guest.sh" --build "$BUILD" ${KERNEL:+--kernel "$KERNEL"} --add rt-app \
		--mem 1024 --timeout "$TIMEOUT" --out "$RAW/out" "$RAW/validate-test.sh"
	echo "loadavg after $(cut -d ' ' -f 1-3 /proc/loadavg); $(($(date +%s) - start)) s" >> "$RAW/host.txt"
	cp "$RAW/host.txt" "$RAW/out/host.txt"
	echo "# guest done in $(($(date +%s) - start)) s"
	for t in "$RAW"/out/*.trace.gz; do
		[ -f "$t" ] && gzip -d -f "$t"
	done
	return 0
}

if [ -z "$RAW" ]; then
	[ -z "$DIGEST_ONLY" ] || die "--digest-only needs --raw DIR"
	RAW=$(mktemp -d "${TMPDIR:-/tmp}/idlelab-validation.XXXXXX")
	trap 'rm -rf "$RAW"' EXIT
fi
mkdir -p "$RAW"
[ -n "$DIGEST_ONLY" ] || run_guest

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
[ -n "$NAME" ] || exit 0
python3 "$HERE/real-vs-lab.py" --idlelab "$BUILD/idlelab" --runs "$RUNS" --platform "$PLAT" \
	--kernel-file "$TOP/kgov-src/idlelab.c" --workloads "$TOP/workloads" > "$DEST/$NAME.tsv.tmp"
mv "$DEST/$NAME.tsv.tmp" "$DEST/$NAME.tsv"
echo "# wrote $DEST/$NAME.tsv"
