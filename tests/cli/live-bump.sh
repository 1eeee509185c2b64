#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# live-bump.sh - a fake workload for the `idlelab measure` tests: it plays the kernel by
# adding to the counters of a fixture tree, then prints a score like fio does.
#
#   live-bump.sh ROOT [CPU:STATE:FILE:DELTA ...] [--energy ZONE:DELTA] [--say TEXT]
#                [--mark FILE] [--sleep SECONDS] [--exit N] [--crash]
#
# ROOT is the fixture root; CPU:STATE:FILE:DELTA adds DELTA to
# ROOT/sys/devices/system/cpu/cpuCPU/cpuidle/stateSTATE/FILE. --energy adds DELTA to
# powercap ZONE's energy_uj, wrapping at its max_energy_range_uj as RAPL does. --mark
# writes this script's pid to FILE before sleeping; --say prints TEXT on stdout.
set -eu
root=$1
shift
say= mark= nap=0 code=0 crash=0
while [ $# -gt 0 ]; do
	case $1 in
	--energy)
		zone=${2%:*} delta=${2##*:}
		z=$root/sys/class/powercap/$zone
		now=$(cat "$z/energy_uj") max=$(cat "$z/max_energy_range_uj")
		new=$((now + delta))
		[ "$new" -le "$max" ] || new=$((new - max))
		echo "$new" > "$z/energy_uj"
		shift 2
		continue
		;;
	--say) say=$2; shift 2; continue ;;
	--mark) mark=$2; shift 2; continue ;;
	--sleep) nap=$2; shift 2; continue ;;
	--exit) code=$2; shift 2; continue ;;
	--crash) crash=1; shift; continue ;;
	esac
	cpu=${1%%:*} rest=${1#*:}
	state=${rest%%:*} rest=${rest#*:}
	file=${rest%%:*} delta=${rest#*:}
	f=$root/sys/devices/system/cpu/cpu$cpu/cpuidle/state$state/$file
	echo $(($(cat "$f") + delta)) > "$f"
	shift
done
[ -z "$say" ] || printf '%s\n' "$say"
[ -z "$mark" ] || echo $$ > "$mark"
[ "$nap" = 0 ] || sleep "$nap"
[ "$crash" = 0 ] || kill -SEGV $$
exit "$code"
