#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# guest-send.sh NAME... - send files of $IDLELAB_VM_OUT back to the host now, not when the test
# ends (scripts/vm/run-guest.sh --out): one tar archive of NAMEs (paths under $IDLELAB_VM_OUT,
# in the order given) on the third serial port, after which they are removed here. The host
# reads the port as a series of archives (tar --ignore-zeros), so a guest that stalls or
# crashes later loses only what it had not sent. Give the file that says "complete" last: an
# archive cut short keeps the members before the cut.
set -u
OUT=${IDLELAB_VM_OUT:?"run by run-guest.sh --out (no IDLELAB_VM_OUT)"}
PORT=${IDLELAB_VM_SEND_PORT:-/dev/ttyS2}
names=
for n in "$@"; do
	[ -e "$OUT/$n" ] && names="$names $n"
done
[ -n "$names" ] || exit 0
# Word splitting on purpose: the names are ours (no spaces).
# shellcheck disable=SC2086
(cd "$OUT" && tar -c -f - $names) > "$PORT" || { echo "guest-send.sh: tar to $PORT failed" >&2; exit 1; }
# shellcheck disable=SC2086
(cd "$OUT" && rm -f $names)
