#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# run-guest.sh - boot a throw-away Linux guest that has a real cpuidle driver, run a test
# script in it as root, and exit with that script's status. `make check-vm` uses it to run
# `idlelab states` and `idlelab measure` for real (tests/cli/live-real.t and
# scripts/vm/guest-test.sh), on machines that have no cpuidle driver of their own.
#
#   scripts/vm/run-guest.sh --build DIR [options] [TEST]
#
#   --build DIR     the build directory holding the idlelab binary (required)
#   --kernel DIR    a directory with vmlinuz (+ config); default: scripts/vm/get-kernel.sh's
#                   Debian kernel, downloaded on first use
#   --smp N         vCPUs (default 2)
#   --mem MB        guest memory (default 256)
#   --accel A       tcg, kvm or auto (default): kvm when /dev/kvm is usable and is not PVM
#   --timeout S     kill the guest after S seconds (default 300); exit status 124
#   --append ARGS   more kernel command line
#   --keep DIR      keep the work files (initramfs, ACPI table, console log) in DIR
#   --add PROG      also put the host's executable PROG (a path, or a name on PATH) in the
#                   guest's /usr/bin, with the shared libraries it links (a workload: fio,
#                   rt-app, ...); repeatable. Where busybox has an applet of the same name
#                   (xz, ...), its shell runs the applet: call the program as /usr/bin/NAME
#   --out DIR       bring files back: the test finds a directory in $IDLELAB_VM_OUT, and what
#                   it leaves there is copied into DIR when it ends (a tar stream on a third
#                   serial port, so traces and exported platforms can be read on the host);
#                   files it sends earlier with scripts/vm/guest-send.sh come back even when
#                   the guest then stalls, crashes or times out (the stream, as it arrives,
#                   is out.tar of --keep DIR)
#   TEST            the script run in the guest as /vm/test (default scripts/vm/guest-test.sh)
#
# The guest: the Debian kernel, an initramfs with busybox (static), idlelab and the shared
# libraries it links, tests/cli/live-*, workloads/*.json (as /vm/workloads), the scripts of
# scripts/vm, and the test; /init is scripts/vm/guest-init (no systemd). Its cpuidle driver is acpi_idle, fed by an extra ACPI table (SSDT) that gives
# every vCPU a _CST with three C1-type states entered with HLT (see write_ssdt below);
# the kernel adds the POLL state. The test's output comes back on the second serial port;
# the kernel console goes to a log that is shown when the guest fails.
#
# Exit status: the test's, 124 on timeout, 77 when something needed is missing (qemu,
# iasl, busybox-static, cpio, the kernel), 1 when the guest did not report a status.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)

BUILD='' KERNEL='' SMP=2 MEM=256 ACCEL=auto TIMEOUT=300 APPEND='' KEEP='' ADD='' OUT='' TEST=$HERE/guest-test.sh

die() { echo "run-guest.sh: $*" >&2; exit 1; }
missing() { echo "run-guest.sh: SKIP: $*" >&2; exit 77; }

while [ $# -gt 0 ]; do
	case $1 in
	--build) BUILD=$2; shift 2 ;;
	--kernel) KERNEL=$2; shift 2 ;;
	--smp) SMP=$2; shift 2 ;;
	--mem) MEM=$2; shift 2 ;;
	--accel) ACCEL=$2; shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	--append) APPEND=$2; shift 2 ;;
	--keep) KEEP=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--add)
		prog=$(command -v "$2") || die "--add: no program $2"
		ADD="$ADD $prog"
		shift 2 ;;
	-h | --help) sed -n '4,/^set -eu/p' "$0" | sed -e 's/^# \{0,1\}//' -e '/^set -eu/d'; exit 0 ;;
	-*) die "unknown option $1 (--help)" ;;
	*) TEST=$1; shift ;;
	esac
done

[ -n "$BUILD" ] || die "--build DIR is required"
[ -x "$BUILD/idlelab" ] || die "no $BUILD/idlelab (make O=$BUILD first)"
[ -r "$TEST" ] || die "no test script $TEST"
case $SMP in '' | *[!0-9]*) die "--smp wants a number" ;; esac
if [ "$SMP" -lt 1 ] || [ "$SMP" -gt 64 ]; then die "--smp wants 1..64"; fi

QEMU=$(command -v qemu-system-x86_64) || missing "no qemu-system-x86_64 (Debian: qemu-system-x86)"
command -v iasl > /dev/null || missing "no iasl to build the ACPI idle-state table (Debian: acpica-tools)"
command -v cpio > /dev/null || missing "no cpio"
BUSYBOX=
for b in /bin/busybox /usr/bin/busybox; do
	if [ -x "$b" ] && ! ldd "$b" > /dev/null 2>&1; then BUSYBOX=$b; break; fi
done
[ -n "$BUSYBOX" ] || missing "no statically linked busybox (Debian: busybox-static)"
if [ -z "$KERNEL" ]; then
	KERNEL=$("$HERE/get-kernel.sh") || missing "no guest kernel (scripts/vm/get-kernel.sh failed)"
fi
[ -r "$KERNEL/vmlinuz" ] || die "no $KERNEL/vmlinuz"

case $ACCEL in
auto)
	# PVM (kvm_pvm, nested "KVM" in some cloud VMs) is made for guest kernels built for it:
	# a stock kernel seems to run under KVM's instruction emulator, slowly, and stops at the
	# first instruction that lacks (docs/measure.md). TCG it is, there.
	if [ -r /dev/kvm ] && [ -w /dev/kvm ] && [ ! -d /sys/module/kvm_pvm ]; then
		ACCEL=kvm
	else
		ACCEL=tcg
	fi ;;
tcg | kvm) ;;
*) die "--accel wants tcg, kvm or auto" ;;
esac
# No MONITOR/MWAIT in the guest's CPUID: acpi_idle then enters every C1-type _CST state with
# HLT, which both accelerators implement as a real wait (TCG's MWAIT does not wait when there
# is more than one vCPU).
# TCG runs the vCPUs in one host thread (thread=single): with a thread per vCPU, enabling a
# tracepoint (text_poke_bp: int3, then the new bytes) raced with the other vCPU running a stale
# translation of the int3, and the Debian 6.12 guest died of "Oops: int3" in
# cpuidle_enter_state() under `measure --trace`. One thread also leaves the host's other
# cores to other work.
if [ "$ACCEL" = kvm ]; then
	CPU=host,-monitor
	ACCEL_OPT=kvm
else
	CPU=max,-monitor
	ACCEL_OPT=tcg,thread=single
fi

if [ -n "$KEEP" ]; then
	mkdir -p "$KEEP"
	W=$(cd "$KEEP" && pwd)
else
	W=$(mktemp -d "${TMPDIR:-/tmp}/idlelab-vm.XXXXXX")
	trap 'rm -rf "$W"' EXIT
fi

# An SSDT giving each vCPU (QEMU's \_SB.CPUS.Cnnn processor objects) a _CST. The states are
# C1-type FIXED_HARDWARE entries, which Linux enters with HLT when the CPU has no MWAIT;
# latency (us) and power (mW) are ours to choose: acpi_idle sets the target residency to
# latency x processor.latency_factor (2). Three states with 1, 50 and 400 us give the
# governors something to choose between (a stock QEMU guest has no cpuidle driver at all).
write_ssdt() {
	{
		echo 'DefinitionBlock ("", "SSDT", 2, "IDLLAB", "IDLECST", 1)'
		echo '{'
		i=0
		while [ $i -lt "$SMP" ]; do
			printf '    External (\\_SB.CPUS.C%03X, ProcessorObj)\n' $i
			i=$((i + 1))
		done
		cat << 'ASL'
    Scope (\_SB)
    {
        Name (ICST, Package () {
            3,
            Package () { ResourceTemplate () { Register (FFixedHW, 0, 0, 0) }, 1, 1, 1000 },
            Package () { ResourceTemplate () { Register (FFixedHW, 0, 0, 0) }, 1, 50, 500 },
            Package () { ResourceTemplate () { Register (FFixedHW, 0, 0, 0) }, 1, 400, 100 }
        })
    }
ASL
		i=0
		while [ $i -lt "$SMP" ]; do
			printf '    Scope (\\_SB.CPUS.C%03X) { Method (_CST, 0) { Return (\\_SB.ICST) } }\n' $i
			i=$((i + 1))
		done
		echo '}'
	} > "$W/idle-states.asl"
	iasl -p "$W/idle-states" "$W/idle-states.asl" > "$W/iasl.log" 2>&1 ||
		{ cat "$W/iasl.log" >&2; die "iasl failed"; }
}

# PROG into the guest's DIR, and the shared libraries it links at the same paths as here
# (a static program has none), and next to glibc its libgcc_s, which glibc loads at
# run time to unwind a thread in pthread_exit() (rt-app aborts without it).
copy_program() {
	cp "$1" "$R$2/"
	{ ldd "$1" 2> /dev/null || true; } |
		awk '$2 == "=>" && $3 ~ /^\// { print $3; if ($1 ~ /^libc\.so/) { sub(/libc\.so.*/, "libgcc_s.so.1", $3); print $3 } }
			$1 ~ /^\// { print $1 }' |
		while read -r lib; do
			[ -e "$lib" ] || continue
			mkdir -p "$R$(dirname "$lib")"
			cp -L "$lib" "$R$lib"
		done
}

# The initramfs: busybox, idlelab and the --add programs with their libraries, the tests.
write_initramfs() {
	R=$W/root
	rm -rf "$R"
	mkdir -p "$R/bin" "$R/sbin" "$R/usr/bin" "$R/proc" "$R/sys" "$R/dev" "$R/tmp" "$R/run" \
		"$R/etc" "$R/vm/tests/cli" "$R/vm/scripts/vm" "$R/vm/workloads"
	# guest-init sends back what the test leaves in /vm/out (see --out).
	[ -z "$OUT" ] || mkdir -p "$R/vm/out"
	cp "$BUSYBOX" "$R/bin/busybox"
	ln -s busybox "$R/bin/sh"
	copy_program "$BUILD/idlelab" /bin
	for prog in $ADD; do
		copy_program "$prog" /usr/bin
	done
	echo 'root:x:0:0:root:/tmp:/bin/sh' > "$R/etc/passwd"
	echo 'root:x:0:' > "$R/etc/group"
	# As on an installed system, so that `states --export` finds CONFIG_HZ.
	if [ -r "$KERNEL/config" ] && [ -r "$KERNEL/release" ]; then
		mkdir -p "$R/boot"
		cp "$KERNEL/config" "$R/boot/config-$(cat "$KERNEL/release")"
	fi
	cp "$HERE/guest-init" "$R/init"
	cp "$TEST" "$R/vm/test"
	chmod +x "$R/init" "$R/vm/test"
	cp "$TOP"/tests/cli/live-*.t "$TOP"/tests/cli/live-*.sh "$R/vm/tests/cli/"
	cp "$HERE"/*.sh "$R/vm/scripts/vm/"
	cp "$TOP"/workloads/*.json "$R/vm/workloads/"
	(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) > "$W/initrd.gz"
}

write_ssdt
write_initramfs
: > "$W/console.log"
: > "$W/result.log"
: > "$W/out.tar"
rc=0
# The third serial port carries the tar of /vm/out (--out); without --out nothing writes to it.
timeout -k 10 "$TIMEOUT" "$QEMU" -machine pc -accel $ACCEL_OPT -cpu $CPU -smp "$SMP" -m "$MEM" \
	-nodefaults -no-user-config -display none -monitor none -no-reboot \
	-serial "file:$W/console.log" -serial "file:$W/result.log" -serial "file:$W/out.tar" \
	-acpitable "file=$W/idle-states.aml" \
	-kernel "$KERNEL/vmlinuz" -initrd "$W/initrd.gz" \
	-append "console=ttyS0 quiet panic=-1 $APPEND" > "$W/qemu.log" 2>&1 || rc=$?

status=$(sed -n 's/^IDLELAB-VM-STATUS \([0-9]*\)$/\1/p' "$W/result.log" | tail -n 1)
grep -v '^IDLELAB-VM-STATUS ' "$W/result.log" || true
if [ -n "$OUT" ]; then
	mkdir -p "$OUT"
	if [ -s "$W/out.tar" ]; then
		# A series of archives (guest-send.sh), the last one possibly cut short.
		tar -x -i -f "$W/out.tar" -C "$OUT" ||
			echo "run-guest.sh: --out: the guest's tar stream ends damaged (kept what came before)" >&2
	else
		echo "run-guest.sh: --out: the guest sent no files back" >&2
	fi
fi
if [ -n "$status" ]; then
	exit "$status"
fi
if [ $rc = 124 ] || [ $rc = 137 ]; then
	echo "run-guest.sh: the guest did not finish within ${TIMEOUT}s" >&2
	rc=124
else
	echo "run-guest.sh: the guest stopped without reporting a status (qemu exit $rc)" >&2
	rc=1
fi
echo "--- qemu" >&2
cat "$W/qemu.log" >&2
echo "--- guest console (last 40 lines)" >&2
tail -n 40 "$W/console.log" >&2
exit $rc
