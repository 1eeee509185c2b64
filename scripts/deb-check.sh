#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build the Debian packages, check them with lintian, install them with apt-get, use what was
# installed, purge them and check that nothing is left (CI, .ci/run).
#   scripts/deb-check.sh [--keep DIR]
#  1. `dpkg-buildpackage -us -uc -b` in a copy of the tree's files (git ls-files: nothing of
#     build/ is reused, and the .deb files land in a temporary directory, or DIR);
#  2. lintian: no errors (warnings are printed);
#  3. apt-get install ./idlelab_*.deb ./libidlelab0_*.deb ./libidlelab-dev_*.deb;
#  4. from another directory, with no IDLELAB_KSHIM_DIR: idlelab battery -p rk3588 --time 1s;
#     idlelab kgov check of Debian's linux-source-6.12 menu.c against menu-6.12.117
#     ($IDLELAB_MENU_C, else extracted from /usr/src/linux-source-6.12.tar.xz); idlelab
#     review of that file against itself replays the shipped traces of /usr/share/idlelab;
#     examples/run-preset.c built with pkg-config against the installed library;
#  5. apt-get purge: the packages are gone and none of their files is left.
# Needs root (or sudo) for apt-get; scripts/install-deps.sh --test installs the tools.
set -eu
cd "$(dirname "$0")/.."
tree=$(pwd)
TARBALL=/usr/src/linux-source-6.12.tar.xz
GOV=linux-source-6.12/drivers/cpuidle/governors
PKGS="idlelab libidlelab0 libidlelab-dev"

keep=
if [ "${1:-}" = "--keep" ]; then
	keep=$2
	mkdir -p "$keep"
fi
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
tmp=$(mktemp -d /tmp/idlelab-deb-XXXXXX)
installed=0
cleanup() {
	if [ "$installed" = 1 ]; then
		# shellcheck disable=SC2086
		$SUDO apt-get purge -y -qq $PKGS >/dev/null 2>&1 || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
step() {
	echo "=== deb-check: $*"
}
fail() {
	echo "deb-check: $*" >&2
	exit 1
}

for p in $PKGS; do
	if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		fail "$p is installed already; purge it first (the check would remove it)"
	fi
done

step "dpkg-buildpackage -us -uc -b (in $tmp/src)"
mkdir "$tmp/src"
# (a tracked file deleted in the work tree is left out)
git ls-files -z --cached --others --exclude-standard |
	tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$tmp/src"
start=$(date +%s)
if ! (cd "$tmp/src" && DEB_BUILD_OPTIONS="parallel=2 noddebs ${DEB_BUILD_OPTIONS:-}" \
	dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1; then
	tail -60 "$tmp/build.log"
	fail "dpkg-buildpackage failed"
fi
echo "built in $(($(date +%s) - start)) s:"
for deb in "$tmp"/*.deb; do
	echo "  $(basename "$deb")"
done

step "lintian"
lintian --fail-on error --info --display-level '>=warning' "$tmp"/idlelab_*.changes ||
	fail "lintian reports errors"

for deb in "$tmp"/*.deb; do
	echo "--- $(basename "$deb")"
	dpkg-deb -c "$deb" | awk '{ $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); print "  " $0 }' |
		grep -v '/$' || true
done

step "apt-get install"
installed=1
(cd "$tmp" && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	./idlelab_*.deb ./libidlelab0_*.deb ./libidlelab-dev_*.deb) >"$tmp/apt.log" 2>&1 || {
	cat "$tmp/apt.log"
	fail "apt-get install failed"
}
for p in $PKGS; do
	dpkg -L "$p" >>"$tmp/files"
done

step "the installed idlelab, from $tmp, with no IDLELAB_KSHIM_DIR"
cd "$tmp"
unset IDLELAB_KSHIM_DIR
[ "$(command -v idlelab)" = /usr/bin/idlelab ] || fail "idlelab is not /usr/bin/idlelab"
idlelab battery -p rk3588 --time 1s >battery.out || fail "idlelab battery failed"
[ -s battery.out ] || fail "idlelab battery printed nothing"
head -5 battery.out
if [ -n "${IDLELAB_MENU_C:-}" ]; then
	menu=$IDLELAB_MENU_C
elif [ -r "$TARBALL" ]; then
	tar -xJf "$TARBALL" --wildcards "$GOV/*"
	menu=$tmp/$GOV/menu.c
else
	fail "no $TARBALL for the kgov check (apt-get install linux-source-6.12)"
fi
idlelab kgov check "$menu" --against menu-6.12.117 -v >kgov.out 2>&1 || {
	cat kgov.out
	fail "idlelab kgov check failed"
}
grep -q -- '-I/usr/share/idlelab/kshim/include -I/usr/share/idlelab ' kgov.out ||
	fail "kgov did not compile against /usr/share/idlelab/kshim"
tail -1 kgov.out
idlelab review "$menu" "$menu" -p rk3588 -s idle --ensemble 0 --iter 2 --time 50ms \
	--no-progress >review.out 2>&1 || { cat review.out; fail "idlelab review failed"; }
grep -qF 'D=/usr/share/idlelab/traces' review.out ||
	fail "idlelab review did not replay the shipped traces of /usr/share/idlelab/traces"
# shellcheck disable=SC2046
cc -o run-preset "$tree/examples/run-preset.c" $(pkg-config --cflags --libs idlelab) ||
	fail "the example does not build against the installed libidlelab-dev"
./run-preset teo rk3588 fio:jobs=2 || fail "the example does not run"

step "apt-get purge"
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $PKGS >"$tmp/apt.log" 2>&1 || {
	cat "$tmp/apt.log"
	fail "apt-get purge failed"
}
installed=0
for p in $PKGS; do
	if dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -qv 'not-installed'; then
		fail "$p is still known to dpkg: $(dpkg-query -W -f='${Status}' "$p")"
	fi
done
left=0
while read -r f; do
	[ -d "$f" ] && continue
	if [ -e "$f" ] || [ -L "$f" ]; then
		echo "left behind: $f"
		left=1
	fi
done <"$tmp/files"
for d in /usr/share/idlelab /usr/include/idlelab /usr/share/doc/idlelab; do
	[ ! -e "$d" ] || { echo "left behind: $d"; left=1; }
done
[ "$left" = 0 ] || fail "the purge left files behind"
echo "purged: none of the $(wc -l <"$tmp/files") installed paths is left"
[ -z "$keep" ] || cp "$tmp"/*.deb "$tmp"/*.changes "$tmp"/*.buildinfo "$keep"/
