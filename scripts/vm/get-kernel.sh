#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# get-kernel.sh - fetch the Debian kernel the test guest boots (scripts/vm/run-guest.sh) and
# keep only its bzImage and config, in a cache directory outside the tree. The package is
# downloaded with `apt-get download` and unpacked with dpkg-deb: nothing is installed on
# this machine, and nothing built from kernel sources enters the repository.
#
#   scripts/vm/get-kernel.sh          print the kernel directory, downloading it if needed
#   scripts/vm/get-kernel.sh --check  print it if it is there, else exit 1 (no download)
#
# IDLELAB_VM_KERNEL_PKG picks another package (default: Debian 12's linux 6.12.117 cloud
# kernel, the release of the pinned linux-source-6.12 whose governors the *-6.12.117 presets
# follow); IDLELAB_VM_CACHE another cache (default ~/.cache/idlelab/vm).
set -eu

PKG=${IDLELAB_VM_KERNEL_PKG:-linux-image-6.12.117+deb12-cloud-amd64}
CACHE=${IDLELAB_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/idlelab/vm}
DIR=$CACHE/$PKG

have_kernel() { [ -s "$DIR/vmlinuz" ] && [ -s "$DIR/config" ] && [ -s "$DIR/release" ]; }

if have_kernel; then
	echo "$DIR"
	exit 0
fi
[ "${1:-}" = --check ] && exit 1

if ! command -v apt-get > /dev/null || ! command -v dpkg-deb > /dev/null; then
	echo "get-kernel.sh: apt-get and dpkg-deb are needed to fetch $PKG" >&2
	exit 1
fi
mkdir -p "$CACHE"
TMP=$(mktemp -d "$CACHE/.get.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# apt-get download writes into the current directory; as root it warns that the _apt user
# cannot write there, which is harmless.
(cd "$TMP" && apt-get download -qq "$PKG" 2>&1 | grep -v 'unsandboxed' >&2) || true
deb=''
for f in "$TMP"/*.deb; do [ -f "$f" ] && deb=$f; done
[ -n "$deb" ] || {
	echo "get-kernel.sh: could not download $PKG (apt-get update? another IDLELAB_VM_KERNEL_PKG?)" >&2
	exit 1
}
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$TMP" ./boot
mkdir -p "$TMP/out"
release=$(basename "$TMP"/boot/vmlinuz-*)
mv "$TMP"/boot/vmlinuz-* "$TMP/out/vmlinuz"
mv "$TMP"/boot/config-* "$TMP/out/config"
echo "${release#vmlinuz-}" > "$TMP/out/release"
{ dpkg-deb -f "$deb" Package Version; echo; } > "$TMP/out/package"
rm -rf "$DIR"
mv "$TMP/out" "$DIR"
echo "$DIR"
