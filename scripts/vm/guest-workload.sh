#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# guest-workload.sh [ROUNDS [SLEEP_US]] - a small timer-driven workload for the test guest,
# made of what busybox offers: ROUNDS (default 100) sleeps of SLEEP_US (default 2000) us,
# each a fork/exec of usleep, so the CPUs alternate between short bursts and idle periods
# of about SLEEP_US. It prints the mean time a round took beyond its sleep, in us
# ("late_us=N"), the score `idlelab measure --metric` picks up.
ROUNDS=${1:-100}
SLEEP_US=${2:-2000}

# CLOCK_MONOTONIC in ns, from the "now at N nsecs" line of /proc/timer_list.
now_ns() { awk '/^now at/ { print $3; exit }' /proc/timer_list; }

start=$(now_ns)
i=0
while [ $i -lt "$ROUNDS" ]; do
	usleep "$SLEEP_US"
	i=$((i + 1))
done
end=$(now_ns)
echo "rounds=$ROUNDS sleep_us=$SLEEP_US late_us=$(((end - start) / 1000 / ROUNDS - SLEEP_US))"
