#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make installcheck: install into a temporary DESTDIR and use only what was installed.
#   scripts/installcheck.sh PREFIX BINDIR LIBDIR INCLUDEDIR DATADIR PKGCONFIGDIR
# (the Makefile passes its install directories; $MAKE, $CC and $EXTRA_CFLAGS come from it).
#  1. the layout: binary, shared library with its soname and only il_ symbols exported,
#     static library, headers, idlelab.pc, the shim with every header it includes;
#  2. the installed binary, run from another directory with no IDLELAB_KSHIM_DIR, finds the
#     installed shim: `kgov check` of Debian's linux-source-6.12 menu.c against menu-6.12.117
#     ($IDLELAB_MENU_C names an extracted menu.c; else it is extracted from
#     /usr/src/linux-source-6.12.tar.xz, and skipped when that is missing);
#  3. examples/run-preset.c built with `pkg-config --cflags --libs idlelab` against the
#     installed library and run: its idles and misses are the installed binary's;
#  4. `make uninstall` leaves no file behind.
# Output is TAP; the exit status is non-zero when a check failed.
set -eu
cd "$(dirname "$0")/.."
[ $# -eq 6 ] || { echo "usage: $0 PREFIX BINDIR LIBDIR INCLUDEDIR DATADIR PKGCONFIGDIR" >&2; exit 2; }
prefix=$1 bindir=$2 libdir=$3 includedir=$4 datadir=$5 pkgconfigdir=$6
MAKE=${MAKE:-make}
CC=${CC:-cc}
EXTRA_CFLAGS=${EXTRA_CFLAGS:-}
TARBALL=/usr/src/linux-source-6.12.tar.xz
GOV=linux-source-6.12/drivers/cpuidle/governors

tmp=$(mktemp -d /tmp/idlelab-installcheck-XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
stage=$tmp/stage
n=0
failed=0

ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}

not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $1"
	[ -s "$tmp/out" ] && sed 's/^/# /' "$tmp/out"
	return 0
}

# check DESCRIPTION CMD...: CMD's output goes to $tmp/out, shown when it fails
check() {
	desc=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then ok "$desc"; else not_ok "$desc"; fi
}

echo "# make install DESTDIR=$stage (prefix $prefix)"
if ! "$MAKE" --no-print-directory install DESTDIR="$stage" >"$tmp/install.log" 2>&1; then
	cat "$tmp/install.log"
	echo "not ok 1 - make install"
	exit 1
fi
ok "make install DESTDIR=..."

# ---- 1. the layout ----
bin=$stage$bindir/idlelab
lib=$stage$libdir
share=$stage$datadir/idlelab
check "the binary is in bindir" test -x "$bin"
check "libidlelab.so.0 -> the versioned library" test -f "$lib/libidlelab.so.0" -a -L "$lib/libidlelab.so.0"
check "libidlelab.so (the link for -lidlelab) and libidlelab.a" test -L "$lib/libidlelab.so" -a -f "$lib/libidlelab.a"
check "the soname is libidlelab.so.0" sh -c "readelf -d '$lib/libidlelab.so.0' | grep -q 'SONAME.*\[libidlelab.so.0\]'"
nm -D --defined-only "$lib/libidlelab.so.0" | awk '{ print $NF }' >"$tmp/exports"
# (ASan adds an __odr_asan.NAME for every exported variable, and an ASan build of the trace.dat
# reader exports the __lsan_default_suppressions hook the runtime looks up by name)
grep -v -e '^il_' -e '^__odr_asan\.il_' -e '^__lsan_default_suppressions$' "$tmp/exports" \
	>"$tmp/out" || true
if [ -s "$tmp/out" ]; then not_ok "only il_ symbols are exported"; else ok "only il_ symbols are exported ($(wc -l <"$tmp/exports"))"; fi
for sym in il_platform_open il_preset_find il_preset_make il_lab_simulate il_run_idles il_gov_bind; do
	grep -qx "$sym" "$tmp/exports" || echo "$sym missing" >>"$tmp/missing"
done
cp "$tmp/missing" "$tmp/out" 2>/dev/null || : >"$tmp/out"
if [ -s "$tmp/out" ]; then not_ok "the public API is exported"; else ok "the public API is exported"; fi
grep '^il_sim_\|^il_scn_parse$\|^il_lab_run$' "$tmp/exports" >"$tmp/out" || true
if [ -s "$tmp/out" ]; then not_ok "internal functions stay hidden"; else ok "internal functions stay hidden"; fi
check "idlelab.pc is in pkgconfigdir" test -f "$stage$pkgconfigdir/idlelab.pc"
for h in idlelab.h governor.h cpuidle.h env.h; do
	check "include/idlelab/$h is a file" test -f "$stage$includedir/idlelab/$h" -a ! -L "$stage$includedir/idlelab/$h"
done
scripts/kshim-files.sh "$CC" >"$tmp/kshim-files"
: >"$tmp/out"
while read -r f; do
	cmp -s "$f" "$share/$f" || echo "$f: not installed as $share/$f" >>"$tmp/out"
done <"$tmp/kshim-files"
if [ -s "$tmp/out" ]; then not_ok "the shim and the headers it includes"; else
	ok "the shim and the headers it includes ($(wc -l <"$tmp/kshim-files") files)"; fi

: >"$tmp/out"
for f in traces/README.md traces/*/*; do
	cmp -s "$f" "$share/$f" || echo "$f: not installed as $share/$f" >>"$tmp/out"
done
if [ -s "$tmp/out" ]; then not_ok "the shipped real traces"; else
	ok "the shipped real traces ($(ls traces/*/* | wc -l) files and their README)"; fi

# ---- 2. the installed binary, away from the tree ----
run_away() {
	(cd "$tmp" && env -u IDLELAB_KSHIM_DIR "$@")
}
check "idlelab --version from another directory" run_away "$bin" --version
if [ -n "${IDLELAB_MENU_C:-}" ]; then
	menu=$IDLELAB_MENU_C
elif [ -r "$TARBALL" ]; then
	tar -xJf "$TARBALL" -C "$tmp" --wildcards "$GOV/*"
	menu=$tmp/$GOV/menu.c
else
	menu=
fi
if [ -n "$menu" ]; then
	check "kgov check menu.c --against menu-6.12.117 with the installed shim" \
		run_away "$bin" kgov check "$menu" --against menu-6.12.117 -v
	cp "$tmp/out" "$tmp/kgov"
	check "... compiled against the installed shim and headers" \
		grep -q -- "-I$share/kshim/include -I$share " "$tmp/kgov"
	echo "# $(tail -1 "$tmp/kgov")"
	check "review replays the installed shipped traces" run_away "$bin" review "$menu" "$menu" \
		-p rk3588 -s idle --ensemble 0 --iter 2 --time 50ms --no-progress
	cp "$tmp/out" "$tmp/review"
	check "... found next to the binary" grep -qF "D=$share/traces" "$tmp/review"
else
	n=$((n + 1))
	echo "ok $n # skip kgov check: no $TARBALL (apt-get install linux-source-6.12)"
fi

# ---- 3. the example, against the installed library ----
pc() {
	PKG_CONFIG_PATH=$stage$pkgconfigdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} \
		pkg-config --define-variable=prefix="$stage$prefix" "$@" idlelab
}
check "pkg-config --cflags --libs idlelab" pc --cflags --libs
flags=$(pc --cflags --libs)
# shellcheck disable=SC2086
check "examples/run-preset.c builds against the installed library" \
	$CC -std=gnu11 -Wall -Wextra -Werror $EXTRA_CFLAGS -o "$tmp/run-preset" examples/run-preset.c $flags
check "... and is linked to libidlelab.so.0" \
	sh -c "readelf -d '$tmp/run-preset' | grep -q 'NEEDED.*\[libidlelab.so.0\]'"
LD_LIBRARY_PATH=$lib "$tmp/run-preset" teo rk3588 fio:jobs=2 1 7 >"$tmp/example" 2>&1 || true
cp "$tmp/example" "$tmp/out"
check "... runs" grep -q '^teo-[0-9.]* on rk3588, fio:jobs=2: [0-9]* idles' "$tmp/example"
run_away "$bin" run -g teo -p rk3588 -s fio:jobs=2 --time 1s --seed 7 -f csv >"$tmp/cli.csv"
# the CSV's columns: device,gov,iter,SCORE,idles,idle_misses,ratio,belows,aboves,...
want=$(awk -F, 'NR == 2 { printf "%s idles, %s idle misses (%s above, %s below)", $5, $6, $9, $8 }' "$tmp/cli.csv")
cp "$tmp/example" "$tmp/out"
echo "# want: ... $want" >>"$tmp/out"
check "... prints the binary's idles and misses ($want)" grep -qF ": $want" "$tmp/example"

# ---- 4. uninstall ----
check "make uninstall DESTDIR=..." "$MAKE" --no-print-directory uninstall DESTDIR="$stage"
find "$stage" ! -type d >"$tmp/out"
if [ -s "$tmp/out" ]; then not_ok "uninstall leaves no file behind"; else ok "uninstall leaves no file behind"; fi

echo "1..$n"
[ "$failed" -eq 0 ] || { echo "# installcheck: $failed of $n checks failed"; exit 1; }
