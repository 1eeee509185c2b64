#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# live-real.t - `idlelab states` and `idlelab measure` on the machine running the tests, with
# no --root: governor switching, the table, idles against the sysfs usage deltas, and
# restoration after SIGINT in the middle of a run. It needs root, a registered cpuidle driver
# and two switchable governors (the CI VM: haltpoll driver, ladder menu haltpoll); anywhere
# else it skips and says exactly what is missing. Everything it changes is put back by
# idlelab itself, and checked.
#
# idles cannot be compared with one exact number here (the machine keeps idling between
# idlelab's snapshots and ours), so it is sandwiched: the usage delta the command sees
# inside its own run <= that run's idles, and the sum of all idles <= the usage delta
# around the whole measure.
. "$(dirname "$0")/live-lib.sh"

CPUIDLE=/sys/devices/system/cpu/cpuidle
[ "$(id -u)" = 0 ] || skip_all "not root: measure writes $CPUIDLE/current_governor"
[ -r $CPUIDLE/current_driver ] || skip_all "no $CPUIDLE (kernel without CONFIG_CPU_IDLE)"
driver=$(cat $CPUIDLE/current_driver)
[ "$driver" != none ] || skip_all "no cpuidle driver on this machine ($CPUIDLE/current_driver: none; no cpuN/cpuidle directories), so there are no counters to measure"
[ -w $CPUIDLE/current_governor ] || skip_all "no writable $CPUIDLE/current_governor (kernel before 5.8 without cpuidle_sysfs_switch)"
set -- $(cat $CPUIDLE/available_governors 2> /dev/null)
[ $# -ge 2 ] || skip_all "fewer than two governors in $CPUIDLE/available_governors ('$*')"
A=$1 B=$2
[ -d /sys/devices/system/cpu/cpu0/cpuidle ] || skip_all "cpu0 has no cpuidle directory"

plan 18

usage_sum() { cat /sys/devices/system/cpu/cpu*/cpuidle/state*/usage | awk '{ s += $1 } END { print s }'; }
disables() { cat /sys/devices/system/cpu/cpu*/cpuidle/state*/disable | tr -d '\n'; }
ORIG_GOV=$(cat $CPUIDLE/current_governor)
ORIG_DIS=$(disables)

run_case "states: this machine's driver" 0 "^driver +$driver\$" -- states
run_case "states --export: loads with -p" 0 '' -- states --export "$TMP/here.plat"
run_case "platforms reads the export" 0 "^driver: +$driver\$" -- platforms "$TMP/here.plat"

# The command logs "governor usage-before usage-after" as it sees them inside its run.
LOG=$TMP/inside
cat > "$TMP/work.sh" << EOF
#!/bin/sh
sum() { cat /sys/devices/system/cpu/cpu*/cpuidle/state*/usage | awk '{ s += \$1 } END { print s }'; }
a=\$(sum)
sleep 0.3
b=\$(sum)
echo "\$(cat $CPUIDLE/current_governor) \$a \$b" >> "$LOG"
echo "score=\$((b - a))"
EOF
chmod +x "$TMP/work.sh"

outer_a=$(usage_sum)
run_case "measure $A,$B x 2" 0 '' -- measure -g "$A,$B" --iter 2 --settle 0.2 -f csv -m 'seen=score=([0-9]+)' \
	-- "$TMP/work.sh"
outer_b=$(usage_sum)
# The runs table: the "runs" "iter" rows of the one long CSV table (gov iter seen idles).
awk -F, '$1 == "runs" && $2 == "iter" { print $3, $4, $5, $7 }' "$OUT" > "$TMP/rows"
ok "four rows, interleaved $A $B $A $B" test "$(awk '{ printf "%s%s ", $1, $2 }' "$TMP/rows")" = "${A}0 ${B}0 ${A}1 ${B}1 "
ok "the command saw the governor of its row" test "$(awk '{ printf "%s ", $1 }' "$LOG")" = "$A $B $A $B "
ok "each run's idles >= the usage delta inside the command" sh -c "paste -d ' ' '$TMP/rows' '$LOG' | awk '{ if (\$4 < \$7 - \$6) bad = 1 } END { exit bad }'"
ok "the metric column is the command's own delta" sh -c "paste -d ' ' '$TMP/rows' '$LOG' | awk '{ if (\$3 != \$7 - \$6) bad = 1 } END { exit bad }'"
ok "sum of idles <= the usage delta around the measure" test "$(awk '{ s += $4 } END { print s }' "$TMP/rows")" -le $((outer_b - outer_a))
ok "governor restored ($ORIG_GOV)" test "$(cat $CPUIDLE/current_governor)" = "$ORIG_GOV"

# --trace: a trace per run that stats reads, and no instance left behind.
instances() { ls /sys/kernel/tracing/instances 2> /dev/null | grep '^idlelab-' | tr '\n' ' '; }
if [ -d /sys/kernel/tracing/instances ] && ! "$IDLELAB" measure --trace x -g x -- true 2>&1 | grep -q 'without libtracefs'; then
	TRACE=--trace
	run_case "measure --trace" 0 '' -- measure -g "$A" --settle 0.2 --trace "$TMP/rec" -- sleep 0.3
	run_case "the trace has idle periods (idlelab stats)" 0 '^cpu_idle +[1-9]' -- stats "$TMP/rec-$A-0.trace"
	ok "no tracing instance left" test -z "$(instances)"
else
	TRACE=
	for d in "measure --trace" "the trace has idle periods" "no tracing instance left"; do
		echo "ok $((n += 1)) - $d # SKIP no tracefs at /sys/kernel/tracing, or built without libtracefs"
	done
fi

# SIGINT in the middle of a run, with state0 disabled on every CPU (and tracing, if possible).
MARK=$TMP/mark
"$IDLELAB" measure -g "$B,$A" --iter 3 --settle 0 -d 0 ${TRACE:+--trace "$TMP/int"} -- \
	sh -c "echo \$\$ > '$MARK'; exec sleep 60" > "$OUT" 2> "$ERR" &
PID=$!
i=0
while [ ! -s "$MARK" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
ok "during the run: $B and state0 disabled" test "$(cat $CPUIDLE/current_governor)" = "$B" -a \
	"$(cat /sys/devices/system/cpu/cpu0/cpuidle/state0/disable)" = 1
kill -INT "$PID"
rc=0
wait "$PID" || rc=$?
ok "SIGINT: idlelab died of it (130)" test "$rc" = 130
ok "SIGINT: governor restored ($ORIG_GOV)" test "$(cat $CPUIDLE/current_governor)" = "$ORIG_GOV"
ok "SIGINT: every disable file as before" test "$(disables)" = "$ORIG_DIS"
ok "SIGINT: no tracing instance left" test -z "$(instances)"

done_testing
