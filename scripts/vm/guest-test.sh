#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# guest-test.sh - what `make check-vm` runs inside the test guest (scripts/vm/run-guest.sh),
# as root, on a kernel with a real cpuidle driver: tests/cli/live-real.t, then issue 6's
# "done when" on this machine — `idlelab states`; `idlelab measure` over menu, ladder and
# haltpoll (a governor the kernel lacks is reported and skipped) with every run's idles
# checked against the sysfs usage deltas and against the run's own trace; and a SIGINT in
# the middle of a run with states disabled and tracing on, after which the governor, every
# disable file and the tracing instances must be as before. The output is TAP; the tables
# are shown as comments, so a log of `make check-vm` holds real numbers.
set -u
IDLELAB=${IDLELAB:-/bin/idlelab}
export IDLELAB
HERE=$(cd "$(dirname "$0")" && pwd)
CPUIDLE=/sys/devices/system/cpu/cpuidle
TMP=$(mktemp -d /tmp/guest-test.XXXXXX)
n=0
failed=0

ok() { # ok DESC COMMAND...: one TAP line, passing when COMMAND succeeds
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		failed=$((failed + 1))
	fi
}
show() { sed 's/^/#   /' "$@"; }
quiet() { "$@" > /dev/null 2>&1; }
usage_sum() { cat /sys/devices/system/cpu/cpu*/cpuidle/state*/usage | awk '{ s += $1 } END { print s + 0 }'; }
disables() { cat /sys/devices/system/cpu/cpu*/cpuidle/state*/disable | tr -d '\n'; }
instances() {
	for d in /sys/kernel/tracing/instances/idlelab-*; do [ -d "$d" ] && printf '%s ' "${d##*/}"; done
}
# col_of FILE SECTION NAME: the NAME column of the whitespace table under "# SECTION"
col_of() {
	awk -v sec="# $2" -v name="$3" '
		$0 == sec { on = 1; head = 1; next }
		on && NF == 0 { exit }
		on && head { for (i = 1; i <= NF; i++) if ($i == name) c = i; head = 0; next }
		on { print $c }' "$1"
}

echo "# kernel $(uname -r), $(nproc) vCPUs, driver $(cat $CPUIDLE/current_driver)," \
	"governors: $(cat $CPUIDLE/available_governors)"
ORIG_GOV=$(cat $CPUIDLE/current_governor)
ORIG_DIS=$(disables)

# ---- tests/cli/live-real.t, as a whole ------------------------------------------------------
"$HERE"/tests/cli/live-real.t > "$TMP/real.tap" 2>&1
rc=$?
show "$TMP/real.tap"
planned=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$TMP/real.tap")
passed=$(grep -c '^ok ' "$TMP/real.tap")
ok "tests/cli/live-real.t: exit 0, $passed of ${planned:-?} ok, none skipped" \
	test $rc = 0 -a "${planned:-0}" -gt 0 -a "$passed" = "${planned:-0}" -a \
	"$(grep -c '# SKIP' "$TMP/real.tap")" = 0

# ---- states -----------------------------------------------------------------------------------
"$IDLELAB" states > "$TMP/states" 2>&1
rc=$?
show "$TMP/states"
ok "states: exit 0, driver $(cat $CPUIDLE/current_driver)" test $rc = 0
"$IDLELAB" states --export "$TMP/vm.plat" > /dev/null 2>&1
ok "states --export: a platform file the lab reads" \
	quiet "$IDLELAB" platforms "$TMP/vm.plat"
ok "states: every CPU has at least two states" \
	test "$(col_of "$TMP/states" states cpu | sort -u | wc -l)" = "$(nproc)" -a \
	"$(col_of "$TMP/states" states state | sort -u | wc -l)" -ge 2

# ---- measure -g menu,ladder,haltpoll --allow-missing --iter 2 --trace -------------------------
GOVS="menu ladder haltpoll"
AVAIL=
for g in $GOVS; do
	grep -qw "$g" $CPUIDLE/available_governors && AVAIL="$AVAIL $g"
done
outer_a=$(usage_sum)
"$IDLELAB" measure -g menu,ladder,haltpoll --allow-missing --iter 2 --settle 0.3 --trace "$TMP/tr" \
	-m 'late_us=late_us=(-?[0-9]+)' -- sh "$HERE/scripts/vm/guest-workload.sh" 40 5000 \
	> "$TMP/ab.out" 2> "$TMP/ab.err"
rc=$?
outer_b=$(usage_sum)
show "$TMP/ab.out"
grep -v '^rounds=' "$TMP/ab.err" | show
ok "measure: exit 0" test $rc = 0
for g in $GOVS; do
	case " $AVAIL " in
	*" $g "*) ;;
	*) ok "measure: $g (not in available_governors) reported and skipped" \
		grep -q "governor '$g' is not available" "$TMP/ab.err" ;;
	esac
done
want=
for i in 0 1; do for g in $AVAIL; do want="$want$g$i "; done; done
col_of "$TMP/ab.out" runs gov > "$TMP/ab.gov"
col_of "$TMP/ab.out" runs iter > "$TMP/ab.iter"
col_of "$TMP/ab.out" runs idles > "$TMP/ab.idles"
ok "measure: rows interleaved ($want)" \
	test "$(paste -d ' ' "$TMP/ab.gov" "$TMP/ab.iter" | awk '{ printf "%s%s ", $1, $2 }')" = "$want"
# The per-state table summed over states, per run, in the runs table's order.
col_of "$TMP/ab.out" states gov > "$TMP/st.gov"
col_of "$TMP/ab.out" states iter > "$TMP/st.iter"
col_of "$TMP/ab.out" states usage > "$TMP/st.usage"
paste -d ' ' "$TMP/st.gov" "$TMP/st.iter" "$TMP/st.usage" |
	awk '{ k = $1 " " $2; if (!(k in s)) o[n++] = k; s[k] += $3 } END { for (i = 0; i < n; i++) print s[o[i]] }' \
	> "$TMP/st.sum"
ok "measure: each run's idles = the sum of its per-state sysfs usage deltas" \
	test "$(cat "$TMP/ab.idles")" = "$(cat "$TMP/st.sum")" -a -s "$TMP/ab.idles"
total=$(awk '{ s += $1 } END { print s + 0 }' "$TMP/ab.idles")
ok "measure: sum of idles ($total) <= the usage delta around the whole measure ($((outer_b - outer_a)))" \
	test "$total" -le $((outer_b - outer_a)) -a "$total" -gt 0
ok "measure: the governor is back ($ORIG_GOV)" test "$(cat $CPUIDLE/current_governor)" = "$ORIG_GOV"
# Every run's trace: the idle periods `idlelab stats` finds in it, against the run's idles.
# The trace is on only while the command runs, inside the two snapshots, and the kernel
# emits the exit event before it counts the usage: a period the trace closes is counted in
# sysfs too, so periods <= idles. Both count the same run, so most of it must be there.
col_of "$TMP/ab.out" runs trace > "$TMP/ab.trace"
paste -d ' ' "$TMP/ab.gov" "$TMP/ab.iter" "$TMP/ab.idles" "$TMP/ab.trace" > "$TMP/ab.runs"
while read -r g i idles tr; do
	"$IDLELAB" stats --no-hist -p "$TMP/vm.plat" "$tr" > "$TMP/stats" 2>&1
	periods=$(col_of "$TMP/stats" cpus periods | awk '{ s += $1 } END { print s + 0 }')
	cpus=$(col_of "$TMP/stats" cpus idle_events | grep -c yes)
	echo "# $g $i: sysfs idles $idles, trace idle periods $periods, CPUs with idle events $cpus"
	ok "trace $g $i: idle events on every CPU, idles/2 <= periods <= idles ($periods, $idles)" \
		test "$cpus" = "$(nproc)" -a "$periods" -le "$idles" -a $((2 * periods)) -ge "$idles"
done < "$TMP/ab.runs"
echo "# idlelab stats -p (the exported state table) of the first run's trace:"
"$IDLELAB" stats --no-hist -p "$TMP/vm.plat" "$(head -n 1 "$TMP/ab.trace")" | sed -n '/^# states/,/^$/p' | show

# ---- SIGINT in the middle of a run, state1 and the deepest state disabled, tracing on ---------
deep=0
while [ -d /sys/devices/system/cpu/cpu0/cpuidle/state$((deep + 1)) ]; do deep=$((deep + 1)); done
dis=1
[ $deep -gt 1 ] && dis="1,$deep"
# The governors, one that is not current first, so that the switch shows.
first=
for g in $AVAIL; do [ "$g" != "$ORIG_GOV" ] && [ -z "$first" ] && first=$g; done
list=$first
for g in $AVAIL; do [ "$g" != "$first" ] && list="$list,$g"; done
MARK=$TMP/mark
"$IDLELAB" measure -g "$list" --iter 3 --settle 0 -d "$dis" --trace "$TMP/int" -- \
	sh -c "echo \$\$ > '$MARK'; exec sleep 60" > "$TMP/int.out" 2> "$TMP/int.err" &
pid=$!
i=0
while [ ! -s "$MARK" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
during_gov=$(cat $CPUIDLE/current_governor)
during_dis=$(cat /sys/devices/system/cpu/cpu*/cpuidle/state1/disable /sys/devices/system/cpu/cpu*/cpuidle/state$deep/disable | sort -u | tr -d '\n')
during_inst=$(instances)
kill -INT $pid
rc=0
wait $pid || rc=$?
ok "SIGINT: during the run $first was current, state1 and state$deep disabled everywhere, one instance" \
	test "$during_gov" = "$first" -a "$during_dis" = 1 -a -n "$during_inst"
ok "SIGINT: idlelab died of it (exit $rc)" test $rc = 130
ok "SIGINT: the governor is back ($ORIG_GOV)" test "$(cat $CPUIDLE/current_governor)" = "$ORIG_GOV"
ok "SIGINT: every disable file is as before" test "$(disables)" = "$ORIG_DIS"
ok "SIGINT: no tracing instance left" test -z "$(instances)"

# ---- an offline CPU keeps its cpuidle directory: states says so, measure leaves it out --------
ONLINE=/sys/devices/system/cpu/cpu1/online
if [ -w $ONLINE ]; then
	echo 0 > $ONLINE
	"$IDLELAB" states > "$TMP/off" 2>&1
	ok "cpu1 offline: its cpuidle directory stays; states lists the CPU as offline" \
		test -d /sys/devices/system/cpu/cpu1/cpuidle -a "$(grep -Ec '^ +1 +- +\(offline\)' "$TMP/off")" = 1
	"$IDLELAB" measure -g "$ORIG_GOV" --settle 0 -- usleep 100000 > /dev/null 2> "$TMP/off.err"
	ok "cpu1 offline: measure leaves it out ($(nproc) CPUs measured)" \
		grep -q "driver on $(nproc) CPUs\{0,1\} (cpu0\.\." "$TMP/off.err"
	rc=0
	"$IDLELAB" measure -g "$ORIG_GOV" --settle 0 --cpus 1 -- true > /dev/null 2> "$TMP/off.err" || rc=$?
	ok "cpu1 offline: measure --cpus 1 refused (exit $rc)" \
		test $rc = 1 -a "$(grep -c 'cpu1 is offline' "$TMP/off.err")" = 1
	echo 1 > $ONLINE
	"$IDLELAB" states > "$TMP/off" 2>&1
	ok "cpu1 online again: states lists its states" test "$(grep -Ec '^ +1 +[0-9]+ ' "$TMP/off")" -ge 2
fi

echo "1..$n"
rm -rf "$TMP"
[ $failed = 0 ]
