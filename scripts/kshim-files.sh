#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The files `idlelab kgov` compiles against, relative to the source tree, one a line: every
# file under kshim/ and every header outside it that one of them includes (lib/cpuidle.h ...),
# as the compiler finds them. `make install` copies exactly these under $(datadir)/idlelab/,
# so the installed shim compiles an upstream file like the source tree's does.
#   scripts/kshim-files.sh [CC]
set -eu
cd "$(dirname "$0")/.."
CC=${1:-cc}
files=$(find kshim -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort)
# shellcheck disable=SC2086,SC1003,SC2020
deps=$($CC -MM -x c -Ikshim/include -I. $files | tr ' \\' '\n\n' | grep -v -e ':$' -e '^$')
for f in $files $deps; do
	realpath -m --relative-to=. "$f"
done | LC_ALL=C sort -u
