#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install the Debian packages idlelab needs that are missing.
#   scripts/install-deps.sh          build dependencies (make demo)
#   scripts/install-deps.sh --test   + everything `make check` and CI use
set -eu

BUILD_PKGS="make gcc pkg-config libjansson-dev"
TEST_PKGS="libcmocka-dev clang libclang-rt-14-dev xz-utils perl zlib1g-dev libtracefs-dev libtraceevent-dev libtracecmd-dev trace-cmd parallel"
# kgov's live differential compiles Debian's stable governor sources; pin the versions so the
# sources do not move under the presets that match them (menu-6.1.192, teo-6.12.117, ...).
PINNED_PKGS="linux-source-6.1=6.1.192-3 linux-source-6.12=6.12.117-1~deb12u1"

pkgs=$BUILD_PKGS
[ "${1:-}" = "--test" ] && pkgs="$BUILD_PKGS $TEST_PKGS $PINNED_PKGS"

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

[ -z "$missing" ] && exit 0
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
