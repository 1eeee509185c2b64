#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# build-idlelab-kernel.sh - Debian's linux-source-6.12 with idlelab's own governor added.
#
#   scripts/vm/build-idlelab-kernel.sh [--object-only] WORKDIR
#
# Unpacks /usr/src/linux-source-6.12.tar.xz into WORKDIR (once), copies kgov-src/idlelab.c to
# drivers/cpuidle/governors/idlelab.c, writes the Kconfig and Makefile lines for it (no
# kernel code is kept in this repository), configures a small kernel (allnoconfig plus the
# fragment below, everything built in, no modules) and builds, with W=1 for the governor:
#   --object-only  only drivers/cpuidle/governors/idlelab.o (minutes: proves that the file
#                  compiles in a real tree against the real headers, warning-free);
#   otherwise      the bzImage for the QEMU guest, copied with its config and release into
#                  WORKDIR/guest, the directory `scripts/vm/run-guest.sh --kernel` takes.
# The fragment has what the test guest needs and nothing else: the initramfs and serial
# console run-guest.sh boots with, proc/sys/devtmpfs/tmpfs for guest-init, ACPI's processor
# driver (acpi_idle reads the _CST run-guest.sh adds), cpuidle with the menu, teo, ladder and
# idlelab governors, tracefs with the power:cpu_idle events, and the KVM guest support and
# tick settings of the Debian cloud kernel the guest boots otherwise (get-kernel.sh: HZ 250,
# NO_HZ_FULL, voluntary preemption). Every line of it is checked in the resulting .config.
# Builds at `nice -n $NICE` (default 15) with `make -j$JOBS` (default 2).
# Needs the linux-source-6.12 package, gcc, make, flex, bison, bc and libelf-dev.
set -eu
ONLY=0
if [ "${1:-}" = "--object-only" ]; then
	ONLY=1
	shift
fi
[ $# -eq 1 ] || { echo "usage: $0 [--object-only] WORKDIR" >&2; exit 2; }
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TARBALL=/usr/src/linux-source-6.12.tar.xz
[ -r "$TARBALL" ] || { echo "$0: $TARBALL missing (apt-get install linux-source-6.12)" >&2; exit 1; }
mkdir -p "$1"
WORK=$(cd "$1" && pwd)
TREE=$WORK/linux-source-6.12
[ -f "$TREE/Makefile" ] || tar -xJf "$TARBALL" -C "$WORK"
GOV=$TREE/drivers/cpuidle/governors
cp "$TOP/kgov-src/idlelab.c" "$GOV/idlelab.c"
grep -q 'CPU_IDLE_GOV_IDLELAB' "$GOV/Makefile" ||
	echo 'obj-$(CONFIG_CPU_IDLE_GOV_IDLELAB) += idlelab.o' >>"$GOV/Makefile"
if ! grep -q 'CPU_IDLE_GOV_IDLELAB' "$TREE/drivers/cpuidle/Kconfig"; then
	# next to the teo entry, inside the CPU_IDLE menu
	awk '{ print } /^config CPU_IDLE_GOV_TEO$/ { teo = 1 }
	     teo && /^$/ { print "config CPU_IDLE_GOV_IDLELAB\n\tbool \"idlelab governor\"\n\thelp\n\t  The timer-events governor designed in idlelab (docs/governor.md).\n"; teo = 0 }' \
		"$TREE/drivers/cpuidle/Kconfig" >"$TREE/drivers/cpuidle/Kconfig.new"
	mv "$TREE/drivers/cpuidle/Kconfig.new" "$TREE/drivers/cpuidle/Kconfig"
fi
JOBS=${JOBS:-2}
NICE=${NICE:-15}
# No build time, user or host in the image: two builds of the same sources can be compared.
KBUILD_BUILD_TIMESTAMP='2026-01-01 00:00:00 UTC' KBUILD_BUILD_USER=idlelab KBUILD_BUILD_HOST=idlelab
export KBUILD_BUILD_TIMESTAMP KBUILD_BUILD_USER KBUILD_BUILD_HOST
FRAGMENT=$WORK/idlelab-guest.config
cat >"$FRAGMENT.new" <<'CONFIG'
CONFIG_64BIT=y
CONFIG_SMP=y
CONFIG_NR_CPUS=64
CONFIG_LOCALVERSION="-idlelab"
CONFIG_PRINTK=y
CONFIG_TTY=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_BLK_DEV_INITRD=y
CONFIG_RD_GZIP=y
CONFIG_BINFMT_ELF=y
CONFIG_BINFMT_SCRIPT=y
CONFIG_PROC_FS=y
CONFIG_PROC_SYSCTL=y
CONFIG_SYSFS=y
CONFIG_DEVTMPFS=y
CONFIG_TMPFS=y
CONFIG_FUTEX=y
CONFIG_FILE_LOCKING=y
CONFIG_MULTIUSER=y
CONFIG_POSIX_TIMERS=y
CONFIG_IKCONFIG=y
CONFIG_IKCONFIG_PROC=y
CONFIG_HIGH_RES_TIMERS=y
CONFIG_NO_HZ_FULL=y
CONFIG_HZ_250=y
CONFIG_PREEMPT_VOLUNTARY=y
CONFIG_HYPERVISOR_GUEST=y
CONFIG_PARAVIRT=y
CONFIG_KVM_GUEST=y
CONFIG_X86_X2APIC=y
CONFIG_PCI=y
CONFIG_ACPI=y
CONFIG_ACPI_PROCESSOR=y
CONFIG_CPU_IDLE=y
CONFIG_CPU_IDLE_GOV_LADDER=y
CONFIG_CPU_IDLE_GOV_MENU=y
CONFIG_CPU_IDLE_GOV_TEO=y
CONFIG_CPU_IDLE_GOV_IDLELAB=y
CONFIG_FTRACE=y
CONFIG_ENABLE_DEFAULT_TRACERS=y
CONFIG_TRACING=y
CONFIG_EVENT_TRACING=y
CONFIG_TRACEPOINTS=y
CONFIG_MODULES=n
CONFIG
cd "$TREE"
# A new fragment (this script changed) configures again; otherwise the tree's .config stays and
# make rebuilds only what changed.
if ! cmp -s "$FRAGMENT.new" "$FRAGMENT" || [ ! -f .config ]; then
	grep -v '=n$' "$FRAGMENT.new" >"$FRAGMENT.y"
	KCONFIG_ALLCONFIG=$FRAGMENT.y make -s allnoconfig
	rm -f "$FRAGMENT.y"
fi
mv "$FRAGMENT.new" "$FRAGMENT"
bad=0
while IFS= read -r line; do
	case $line in
	*=n) grep -q "^${line%=n}=" .config && { echo "$0: ${line%=n} is set" >&2; bad=1; } ;;
	*) grep -qxF "$line" .config || { echo "$0: $line did not stick" >&2; bad=1; } ;;
	esac
done <"$FRAGMENT"
[ "$bad" -eq 0 ] || { echo "$0: the configuration lacks what the guest needs" >&2; exit 1; }
if [ "$ONLY" -eq 1 ]; then
	nice -n "$NICE" make -s -j"$JOBS" prepare
	rc=0
	nice -n "$NICE" make -j"$JOBS" W=1 drivers/cpuidle/governors/idlelab.o \
		>"$WORK/idlelab-build.log" 2>&1 || rc=$?
	cat "$WORK/idlelab-build.log"
	[ "$rc" -eq 0 ] || { echo "$0: the build failed" >&2; exit 1; }
	if grep -q 'warning:' "$WORK/idlelab-build.log"; then
		echo "$0: warnings building idlelab.o" >&2
		exit 1
	fi
	echo "$0: $GOV/idlelab.o built without warnings"
	exit 0
fi
# The governor first, with W=1 and warnings refused, then the rest of the kernel.
rm -f drivers/cpuidle/governors/idlelab.o
nice -n "$NICE" make -s -j"$JOBS" prepare
nice -n "$NICE" make -j"$JOBS" W=1 drivers/cpuidle/governors/idlelab.o >"$WORK/idlelab-build.log" 2>&1 ||
	{ cat "$WORK/idlelab-build.log"; echo "$0: the governor failed to build" >&2; exit 1; }
if grep -q 'warning:' "$WORK/idlelab-build.log"; then
	cat "$WORK/idlelab-build.log"
	echo "$0: warnings building idlelab.o" >&2
	exit 1
fi
start=$(date +%s)
nice -n "$NICE" make -s -j"$JOBS" bzImage
mkdir -p "$WORK/guest"
cp arch/x86/boot/bzImage "$WORK/guest/vmlinuz"
cp .config "$WORK/guest/config"
make -s kernelrelease >"$WORK/guest/release"
# Which governor went in: the blob of the file as git names it.
git -C "$TOP" hash-object kgov-src/idlelab.c >"$WORK/guest/idlelab.c.blob"
echo "$0: bzImage in $(($(date +%s) - start)) s; boot it with scripts/vm/run-guest.sh --kernel $WORK/guest"
