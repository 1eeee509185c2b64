#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# live-signal.t - `idlelab measure` interrupted in the middle of a run, on a fixture tree:
# after SIGINT, SIGTERM, SIGHUP (and a SIGSEGV of idlelab itself, restored from the signal
# handler) current_governor and every disable file are back, the command and its children
# are gone, the runs already done are printed. With SIGHUP ignored at start (nohup), a hangup
# changes nothing: the run completes and restores, and a signal that does arrive still
# restores. Also: the lock refuses a second measure, and without root nothing is changed.
# idlelab is always started through sigexec, so the dispositions it sees are the ones each
# check sets, not the ones this test inherited (nohup make check, setsid, CI services).
. "$(dirname "$0")/live-lib.sh"
need_sigexec
plan 39
ulimit -c 0

G=sys/devices/system/cpu/cpuidle/current_governor
D0=sys/devices/system/cpu/cpu0/cpuidle/state0/disable
D1=sys/devices/system/cpu/cpu1/cpuidle/state0/disable
MARK=$TMP/mark
COUNT=$TMP/count

# The workload: bumps a counter; from its second run on it writes its pid to $MARK and
# sleeps $SLEEP seconds, 60 by default (as the child of a shell, so that a grandchild must be
# killed too).
cat > "$TMP/work.sh" << EOF
#!/bin/sh
c=\$(cat "$COUNT" 2> /dev/null || echo 0)
echo \$((c + 1)) > "$COUNT"
"$BUMP" "\$1" 0:1:usage:10
[ "\$c" -ge 1 ] || exit 0
sleep \${SLEEP:-60} &
echo \$! > "$MARK"
wait
EOF
chmod +x "$TMP/work.sh"

wait_for_mark() {
	i=0
	while [ ! -s "$MARK" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$MARK" ] && return 0
	sed 's/^/# /' "$ERR"
	return 1
}

# gone PID: the process has ended (a zombie waiting for init to reap it counts as ended).
gone() {
	i=0
	while [ $i -lt 50 ]; do
		kill -0 "$1" 2> /dev/null || return 0
		case $(ps -o stat= -p "$1" 2> /dev/null) in Z*) return 0 ;; esac
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# start_measure [IGNORE]: a measure of menu,ladder x 2 with POLL disabled, in the background
# ($PID), with the signals in the comma list IGNORE ignored and the others at their defaults.
start_measure() {
	fixture haltpoll-vm
	rm -f "$MARK" "$COUNT"
	sigexec "${1:-}" "$IDLELAB" measure --root "$ROOT" -g menu,ladder --iter 2 --settle 0 -d POLL -- \
		"$TMP/work.sh" "$ROOT" > "$OUT" 2> "$ERR" &
	PID=$!
}

# interrupt SIGNAL EXIT-CODE: the checks after SIGNAL hits a measure in its second run.
interrupt() {
	start_measure
	ok "$1: the second run started" wait_for_mark
	ok "$1: during the run, ladder and POLL disabled" test "$(value $G)$(value $D0)$(value $D1)" = ladder11
	kill -s "$1" "$PID"
	rc=0
	wait "$PID" || rc=$?
	ok "$1: idlelab died of $1 (status $2)" test "$rc" = "$2"
	ok "$1: governor and both disable files restored" test "$(value $G)$(value $D0)$(value $D1)" = haltpoll00
	ok "$1: the command's child is gone" gone "$(cat "$MARK")"
}

interrupt INT 130
ok "INT: the finished run is printed" grep -Eq '^menu +0 +- +10 ' "$OUT"
ok "INT: the interrupted run is not" sh -c "! grep -Eq '^ladder ' '$OUT'"
ok "INT: said" grep -q 'interrupted by SIGINT after 1 of 4 runs; settings restored' "$ERR"

interrupt TERM 143
interrupt HUP 129
# A crash of idlelab itself: the handler restores with async-signal-safe writes and dies.
interrupt SEGV 139

# ---- SIGHUP ignored at start (nohup) -------------------------------------------------------------------
# It stays ignored: the measurement goes on, and completes and restores.
SLEEP=1
export SLEEP
start_measure HUP
ok "HUP ignored: the second run started" wait_for_mark
kill -s HUP "$PID"
rc=0
wait "$PID" || rc=$?
ok "HUP ignored: the measurement completed (status 0)" test "$rc" = 0
ok "HUP ignored: all 4 runs are printed" test "$(grep -Ec '^(menu|ladder) +[01] +- +[0-9]+ ' "$OUT")" = 4
ok "HUP ignored: governor and both disable files restored" test "$(value $G)$(value $D0)$(value $D1)" = haltpoll00
ok "HUP ignored: no interruption said" sh -c "! grep -q interrupted '$ERR'"
unset SLEEP
# A signal that does arrive still restores.
start_measure HUP
ok "HUP ignored, then TERM: the second run started" wait_for_mark
kill -s HUP "$PID"
sleep 0.3
ok "HUP ignored, then TERM: still measuring after the hangup" kill -0 "$PID"
kill -s TERM "$PID"
rc=0
wait "$PID" || rc=$?
ok "HUP ignored, then TERM: idlelab died of TERM (status 143)" test "$rc" = 143
ok "HUP ignored, then TERM: governor and both disable files restored" test "$(value $G)$(value $D0)$(value $D1)" = haltpoll00
ok "HUP ignored, then TERM: the command's child is gone" gone "$(cat "$MARK")"

# ---- the lock -------------------------------------------------------------------------------------------
start_measure
wait_for_mark
FIRST=$ROOT
run_case "a second measure is refused" 1 "another idlelab measure is running \(pid $PID holds the lock\)" -- \
	measure --root "$FIRST" -g menu --settle 0 -- true
ok "the refused measure changed nothing" test "$(value $G)" = ladder
kill -TERM "$PID"
wait "$PID" 2> /dev/null
run_case "after it, the lock is free" 0 '' -- measure --root "$FIRST" -g menu --settle 0 -- true

# ---- without root ----------------------------------------------------------------------------------------
fixture haltpoll-vm
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv > /dev/null; then
		AS_USER="setpriv --reuid=65534 --regid=65534 --clear-groups"
	else
		AS_USER=
	fi
else
	chmod a-w "$ROOT/$G"
	AS_USER=env
fi
if [ -n "$AS_USER" ]; then
	rc=0
	$AS_USER "$IDLELAB" measure --root "$ROOT" -g menu --settle 0 -- true > "$OUT" 2> "$ERR" || rc=$?
	ok "without root: refused (exit 1)" test "$rc" = 1
	ok "without root: the message says root is needed" grep -q 'current_governor: not writable: Permission denied (changing cpuidle settings needs root)' "$ERR"
	ok "without root: nothing changed, no lock taken" test "$(value $G)" = haltpoll -a ! -e "$ROOT/run/idlelab.lock"
else
	for d in "refused" "message" "nothing changed"; do
		echo "ok $((n += 1)) - without root: $d # SKIP running as root without setpriv"
	done
fi

done_testing
