#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install the Debian packages idlelab needs that are missing.
#   scripts/install-deps.sh          build dependencies (make demo)
#   scripts/install-deps.sh --test   + everything `make check` and CI use, and the test
#                                    guest's kernel (make check-vm; scripts/vm/get-kernel.sh)
set -eu

BUILD_PKGS="make gcc pkg-config libjansson-dev r-mathlib patch"
# scdoc: the man pages (man/*.scd -> $(O)/man/*.1); liblzma, libzstd: compressed traces.
BUILD_PKGS="$BUILD_PKGS scdoc liblzma-dev libzstd-dev"
# libxml2-utils (xmllint), chromium and a font: tests/cli/report.t parses and renders the report page.
# python3: tests/cli/sweep.t and perfetto.t (perfetto-check.py) parse the JSON they write.
TEST_PKGS="libcmocka-dev clang libclang-rt-14-dev xz-utils perl zlib1g-dev libtracefs-dev libtraceevent-dev libtracecmd-dev trace-cmd parallel libxml2-utils chromium fonts-dejavu-core python3"
# zstd, man-db: tests/cli/trace-compressed.t makes .zst copies; tests/cli/man.t runs man --warnings.
TEST_PKGS="$TEST_PKGS zstd man-db"
# rt-app: its workgen and real runs of workloads/*.json in tests/cli/rtapp.t (docs/rtapp.md).
TEST_PKGS="$TEST_PKGS rt-app"
# scripts/deb-check.sh (CI): build the Debian packages and check them with lintian.
TEST_PKGS="$TEST_PKGS debhelper dpkg-dev lintian"
# make check-vm: a QEMU guest with a real cpuidle driver (scripts/vm/run-guest.sh)
VM_PKGS="qemu-system-x86 busybox-static acpica-tools cpio"
# kgov's live differential compiles Debian's stable governor sources; pin the versions so the
# sources do not move under the presets that match them (menu-6.1.192, teo-6.12.117, ...).
PINNED_PKGS="linux-source-6.1=6.1.192-3 linux-source-6.12=6.12.117-1~deb12u1"

pkgs=$BUILD_PKGS
[ "${1:-}" = "--test" ] && pkgs="$BUILD_PKGS $TEST_PKGS $VM_PKGS $PINNED_PKGS"

# The guest's kernel is Debian's binary package, downloaded and unpacked into a cache, never
# installed on this machine (scripts/vm/get-kernel.sh).
vm_kernel() {
	[ "${1:-}" = "--test" ] || return 0
	"$(dirname "$0")/vm/get-kernel.sh" > /dev/null
}

missing=""
for spec in $pkgs; do
	name=${spec%%=*}
	want=${spec#*=}
	have=$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null || true)
	case "$have" in
	"install ok installed "*)
		[ "$want" = "$spec" ] || [ "${have##* }" = "$want" ] || missing="$missing $spec" ;;
	*) missing="$missing $spec" ;;
	esac
done

if [ -z "$missing" ]; then
	vm_kernel "$@"
	exit 0
fi
echo "idlelab: installing missing Debian packages:$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "idlelab: not root and no sudo; please install:$missing" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends --allow-downgrades $missing
vm_kernel "$@"
