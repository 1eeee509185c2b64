#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make-check.t - the README's two commands are the whole set-up: `make check` installs the test
# dependencies itself (scripts/install-deps.sh --test) before a second make detects the
# features again; NO_DEPS=1 (package builds: debian/rules) installs nothing; a test whose
# dependency is missing is skipped with the reason, never compiled; CI calls exactly the
# README's command. Dry runs (make -n) only: nothing is built or installed here.
. "$(dirname "$0")/lib.sh"
need_cmd make "make check's set-up" "make is not installed"
mk() {
	make --no-print-directory -C "$TOP" O="$TMP/build" "$@"
}

# (MAKE=true: a dry run still runs the recipe lines that use $(MAKE), the second make and
# installcheck; here they only print.)
expect 0 "make -n check" mk -n MAKE=true check
check "it installs the test dependencies first" sh -c "head -n 1 '$OUT' | grep -qx 'scripts/install-deps.sh --test'"
check "then runs the suite in a second make (features detected again)" \
	grep -qx 'true --no-print-directory check-all' "$OUT"
expect 0 "make -n NO_DEPS=1 check" mk -n MAKE=true NO_DEPS=1 check
check "NO_DEPS=1: nothing installed" sh -c "! grep -q 'install-deps' '$OUT'"
expect 0 "make -n SANITIZE=1 check-unit" mk -n SANITIZE=1 O="$TMP/asan" check-unit
check "SANITIZE=1: the unit tests get -fsanitize" grep -q 'fsanitize=address' "$OUT"

# Without cmocka: the unit tests are skipped with the reason, and not one of them compiled.
expect 0 "make -n check-unit without cmocka" mk -n FEATURE_CMOCKA=0 check-unit
check "the skip and its reason" grep -q 'check-unit: SKIPPED: cmocka >= 1.1 not found' "$OUT"
check "no unit test compiled or linked" sh -c "! grep -e 'tests/unit/test_' -e '-lcmocka' '$OUT'"
expect 0 "make -n check-unit with cmocka (the check above can fail)" mk -n check-unit
if pkg-config --exists cmocka 2>/dev/null; then
	check "with cmocka: the unit tests are built" grep -q 'tests/unit/test_api' "$OUT"
else
	skip "with cmocka: the unit tests are built" "cmocka is not installed"
fi

# The package build never installs anything; CI runs the README's command, not the installer.
check "debian/rules passes NO_DEPS=1" grep -q 'NO_DEPS=1' "$TOP/debian/rules"
check ".ci/run runs make check" grep -qE '^make( WERROR=1)? check$' "$TOP/.ci/run"
check ".ci/run no longer calls install-deps.sh" sh -c "! grep -q 'install-deps' '$TOP/.ci/run'"
check "the README: make check installs what the tests need" \
	grep -q 'make check    # installs missing test dependencies' "$TOP/README.md"
finish
