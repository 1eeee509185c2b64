#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The main job on built-in defaults. Usage: scripts/demo.sh PATH/TO/idlelab
set -eu
IDLELAB=${1:-build/idlelab}
GOVS=menu-4.16,menu-6.13,menu-5,menu-6.17,menu-6.18,menu,teo-6.13,teo,ladder,haltpoll,oracle
echo "== idlelab governors"
"$IDLELAB" governors
for plat in i5-10600k rk3588; do
	echo
	echo "== idlelab step -g $GOVS -p $plat --input builtin:demo"
	"$IDLELAB" step -g "$GOVS" -p "$plat" --input builtin:demo
done
