#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The main job on built-in defaults. Usage: scripts/demo.sh PATH/TO/idlelab [BATTERY.json]
#  1. the governor presets;
#  2. the built-in step script, presets side by side, on the i5-10600K;
#  3. the seeds' battery (docs/lab.md) for the default governors on the i5-10600K and rk3588,
#     printed as linux-pm tables and written as JSON (default: battery.json next to idlelab);
#  4. that JSON as an offline HTML report with charts, relative to teo-6.13 (report/ next to it).
set -eu
IDLELAB=${1:-build/idlelab}
JSON=${2:-$(dirname "$IDLELAB")/battery.json}
GOVS=menu-4.16,menu-6.13,menu-5,menu-6.17,menu-6.18,menu,teo-6.13,teo,ladder,haltpoll,oracle-heuristic
echo "== idlelab governors"
"$IDLELAB" governors
echo
echo "== idlelab step -g $GOVS -p i5-10600k --input builtin:demo"
"$IDLELAB" step -g "$GOVS" -p i5-10600k --input builtin:demo
echo
echo "== idlelab battery -o $JSON"
"$IDLELAB" battery -o "$JSON"
echo
echo "== the battery's tables are also in $JSON"
REPORT=$(dirname "$JSON")/report
echo
echo "== idlelab report $JSON --baseline teo-6.13 -o $REPORT"
"$IDLELAB" report "$JSON" --baseline teo-6.13 --title "idlelab battery" -o "$REPORT"
echo "== open $REPORT/index.html in a browser (offline, no script)"
