#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# build-idlelab-kernel.sh - Debian's linux-source-6.12 with idlelab's own governor added.
#
#   scripts/vm/build-idlelab-kernel.sh [--object-only] WORKDIR
#
# Unpacks /usr/src/linux-source-6.12.tar.xz into WORKDIR (once), copies kgov-src/idlelab.c to
# drivers/cpuidle/governors/idlelab.c, writes the Kconfig and Makefile lines for it (no
# kernel code is kept in this repository), configures x86_64_defconfig with
# CONFIG_CPU_IDLE_GOV_IDLELAB=y and builds, with W=1:
#   --object-only  only drivers/cpuidle/governors/idlelab.o (minutes: proves that the file
#                  compiles in a real tree against the real headers, warning-free);
#   otherwise      the bzImage, for the QEMU guest (docs/measure.md; hours on a small host).
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
cd "$TREE"
[ -f .config ] || make -s x86_64_defconfig
scripts/config -e CPU_IDLE -e CPU_IDLE_GOV_TEO -e CPU_IDLE_GOV_IDLELAB
make -s olddefconfig
grep -qx 'CONFIG_CPU_IDLE_GOV_IDLELAB=y' .config || { echo "$0: the option did not stick" >&2; exit 1; }
if [ "$ONLY" -eq 1 ]; then
	make -s -j"$JOBS" prepare
	rc=0
	make -j"$JOBS" W=1 drivers/cpuidle/governors/idlelab.o >"$WORK/idlelab-build.log" 2>&1 || rc=$?
	cat "$WORK/idlelab-build.log"
	[ "$rc" -eq 0 ] || { echo "$0: the build failed" >&2; exit 1; }
	if grep -q 'warning:' "$WORK/idlelab-build.log"; then
		echo "$0: warnings building idlelab.o" >&2
		exit 1
	fi
	echo "$0: $GOV/idlelab.o built without warnings"
else
	make -j"$JOBS" bzImage
	echo "$0: $TREE/arch/x86/boot/bzImage"
fi
