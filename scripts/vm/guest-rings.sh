#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# guest-rings.sh - run the 6- and 12-CPU rt-app rings for real, in a guest with 12 vCPUs:
#   scripts/vm/run-guest.sh --build build --add rt-app --smp 12 --mem 1024 scripts/vm/guest-rings.sh
# Prints `idlelab measure`'s tables for menu and ladder; rt-app's own chatter is kept in
# files in the guest. Under QEMU's TCG the vCPUs take turns on one host thread, so the
# numbers show that the files run, not how a 12-CPU ring behaves (docs/validation.md).
IDLELAB=${IDLELAB:-/bin/idlelab}
mkdir -p /tmp/rings && cd /tmp/rings || exit 1
status=0
for f in pingpong-6 pingpong-12; do
	echo "### $f"
	"$IDLELAB" measure -g menu,ladder --iter 1 --settle 0.5 -- /usr/bin/rt-app "/vm/workloads/$f.json" \
		>"out-$f.txt" 2>"err-$f.txt" || status=1
	grep -v '^\[rt-app\]' "out-$f.txt" | grep -v '^$'
	grep '^idlelab' "err-$f.txt"
	echo "rt-app threads started: $(grep -c 'starting thread' "err-$f.txt")"
done
exit $status
