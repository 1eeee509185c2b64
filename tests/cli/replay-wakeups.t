#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# replay-wakeups.t - replay of a trace without timer events (docs/trace.md, "Traces without
# timer events"): the sleep length rebuilt from what ended each period. The error of that
# model is measured on a trace that has timer events (tests/fixtures/traces/vm.trace): its
# timer events are dropped (grep, here), the result is replayed and compared with the full
# replay, against the bounds docs/trace.md gives for this trace. Replay says which
# sleep-length source it used, with or without timer events.
. "$(dirname "$0")/live-lib.sh"
plan 16

T=$TOP/tests/fixtures/traces
cp "$T/vm.trace" "$TMP/full.trace"
grep -v -E ' (hrtimer_[a-z_]+|timer_(start|cancel|expire_entry|expire_exit|init|setup|base_idle)|tick_stop): ' \
	"$T/vm.trace" > "$TMP/strip.trace"
ok "the fixture has timer events and local-timer interrupts" \
	sh -c "grep -q ' hrtimer_expire_entry: ' '$TMP/full.trace' && grep -q ' local_timer_entry: ' '$TMP/strip.trace'"
ok "dropping them leaves every cpu_idle line" \
	sh -c "test \"\$(grep -c ' cpu_idle: ' '$TMP/full.trace')\" = \"\$(grep -c ' cpu_idle: ' '$TMP/strip.trace')\""

run_case "full: the sleep length from timer events"  0 '^sleep_length +timer events: ' -- replay "$TMP/full.trace" -p haltpoll-vm -g menu
run_case "full: no sleep length table"               0 '' -- replay "$TMP/full.trace" -p haltpoll-vm -g menu
ok "full: no sleep length table (checked)" sh -c "! grep -q '^# sleep length' '$OUT'"
run_case "dropped: wakeups, said"                    0 '^sleep_length +wakeups \(the trace has no timer events\)' -- replay "$TMP/strip.trace" -p haltpoll-vm -g menu
run_case "dropped: periods by what ended them"       0 '^local timer interrupt +measured duration \(exact\) +[0-9]+$' -- replay "$TMP/strip.trace" -p haltpoll-vm -g menu

# Dropping the timer events is what --sleep-length wakeups does to the full trace.
gov_table() { "$IDLELAB" replay "$@" -f tsv 2> /dev/null | sed -n '/^governor	idles/,/^$/p'; }
gov_table "$TMP/strip.trace" -p skx -g menu,teo,ladder > "$TMP/a"
gov_table "$TMP/full.trace" -p skx -g menu,teo,ladder --sleep-length wakeups > "$TMP/b"
ok "--sleep-length wakeups on the full trace = the trace without timer events" cmp "$TMP/a" "$TMP/b"

# The error on the recorded table (haltpoll-vm): agreement within 0.2 points, energy 1 %.
gov_table "$TMP/full.trace" -p haltpoll-vm -g menu,teo,haltpoll > "$TMP/full.tsv"
gov_table "$TMP/strip.trace" -p haltpoll-vm -g menu,teo,haltpoll > "$TMP/strip.tsv"
ok "haltpoll-vm: agreement and energy within the documented error of the full replay" \
	awk -F '\t' 'NR == FNR { if ($1 ~ /-[0-9]/) { agree[$1] = $8; energy[$1] = $7 } next }
		$1 ~ /-[0-9]/ { n++; d = $8 - agree[$1]; e = ($7 - energy[$1]) / energy[$1]
			if (d < -0.2 || d > 0.2 || e < -0.01 || e > 0.01) bad = 1 }
		END { exit !(n == 3 && !bad) }' "$TMP/full.tsv" "$TMP/strip.tsv"

# On a deeper table (skx) the sleep length decides: per-period picks against the full
# replay's, at least the figures docs/trace.md gives for vm.trace (menu 83.9 %, teo 98.8 %).
"$IDLELAB" replay "$TMP/full.trace" -p skx -g menu,teo --periods > "$TMP/full.csv" 2> /dev/null
"$IDLELAB" replay "$TMP/strip.trace" -p skx -g menu,teo --periods > "$TMP/strip.csv" 2> /dev/null
picks_agree() { # picks_agree COLUMN MIN_PERCENT
	awk -F , -v col="$1" -v min="$2" '
		FNR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
		NR == FNR { pick[$1 "," $3] = $c; next }
		($1 "," $3) in pick { n++; same += pick[$1 "," $3] == $c }
		END { exit !(n > 50 && 100 * same / n >= min) }' "$TMP/full.csv" "$TMP/strip.csv"
}
ok "skx: menu's picks agree with the full replay's (>= 83.9 %)" picks_agree menu-7.1 83.9
ok "skx: teo's picks agree with the full replay's (>= 98.7 %)" picks_agree teo-7.1 98.7

# A trace with no interrupt events at all: every period takes the lower bound, and says so.
run_case "no interrupts: lower bound for every period" 0 '^no interrupt seen +measured duration \(lower bound\) +305$' -- replay "$T/trace_surfaceflinger.html.xz" -p rk3399 -g menu
# powerpc's decrementer is no irq_handler_entry: powerpc:timer_interrupt_entry (a synthetic
# trace of pseries' two states, tests/fixtures/traces/README.md) ends 5 periods exactly; the
# other interrupt and the polling exit take the next decrementer interrupt as upper bound.
run_case "powerpc: the decrementer is the local timer" 0 '^local timer interrupt +measured duration \(exact\) +5$' -- replay "$T/ppc-decrementer.trace" -p pseries -g menu
ok "powerpc: the others bounded by the next decrementer interrupt" sh -c \
	"grep -Eq '^another interrupt +next local timer interrupt \(upper bound\) +1$' '$OUT' && grep -Eq '^no interrupt seen +next local timer interrupt \(upper bound\) +1$' '$OUT'"
run_case "powerpc: stats names it as the wake source" 0 '^ +1 +local_timer +2 ' -- stats "$T/ppc-decrementer.trace" -p pseries
run_case "usage: --sleep-length something"           2 'takes auto, timers or wakeups' -- replay "$TMP/full.trace" -p skx -g menu --sleep-length tick

done_testing
