# SPDX-License-Identifier: GPL-2.0-only
#
# live-lib.sh - TAP helpers shared by the live-mode CLI tests (tests/cli/live-*.t).
# Source it; $IDLELAB is the binary under test (make check-cli sets it).
#
#   plan N                       print the TAP plan
#   skip_all REASON              "1..0 # SKIP REASON" and exit
#   run_case DESC RC REGEX -- ARGS   run idlelab ARGS; pass when the exit code is RC and the
#                                output (stdout and stderr together) matches the
#                                extended REGEX ("" matches anything)
#   ok DESC COMMAND...           pass when COMMAND succeeds
#   fixture NAME                 a private copy of tests/fixtures/sysfs/NAME in $ROOT
#   sigexec IGNORE CMD...        replace the shell by CMD (use it as a background job or in a
#                                subshell, so that $! is CMD's pid), with SIGHUP, SIGINT, SIGTERM and SIGQUIT at
#                                their default dispositions and unblocked, except those named in
#                                the comma list IGNORE ("" for none), which are ignored: a test
#                                of signals must not depend on what its caller inherited (nohup
#                                ignores SIGHUP, a shell's background job SIGINT, a service may
#                                block signals)
#   need_sigexec                 skip the whole file when sigexec cannot work (no perl)
#
# After run_case, $OUT and $ERR name the files holding its stdout and stderr, $RC its exit code.

: "${IDLELAB:?set IDLELAB to the idlelab binary}"
# measure runs its command as the sudo user by default: the tests say who runs it themselves.
unset SUDO_UID SUDO_GID SUDO_USER SUDO_COMMAND
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
FIXTURES=$TOP/tests/fixtures/sysfs
BUMP=$HERE/live-bump.sh
TMP=$(mktemp -d /tmp/idlelab-cli-live.XXXXXX)
chmod 755 "$TMP"
trap 'rm -rf "$TMP"' EXIT
OUT=$TMP/out
ERR=$TMP/err
RC=0
n=0
failed=0

plan() { echo "1..$1"; }

skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

report() { # report STATUS DESC [DIAG...]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
		return 0
	fi
	echo "not ok $n - $2"
	failed=$((failed + 1))
	shift 2
	for line in "$@"; do echo "# $line"; done
	return 1
}

run_case() {
	desc=$1 want=$2 regex=$3
	shift 4
	RC=0
	"$IDLELAB" "$@" > "$OUT" 2> "$ERR" || RC=$?
	if [ "$RC" != "$want" ]; then
		report 1 "$desc" "exit code $RC, expected $want: idlelab $*" "$(cat "$OUT" "$ERR")"
	elif [ -n "$regex" ] && ! cat "$OUT" "$ERR" | grep -Eq -- "$regex"; then
		report 1 "$desc" "output does not match /$regex/: idlelab $*" "$(cat "$OUT" "$ERR")"
	else
		report 0 "$desc"
	fi
}

ok() {
	desc=$1
	shift
	if "$@"; then report 0 "$desc"; else report 1 "$desc" "failed: $*"; fi
}

fixture() {
	ROOT=$TMP/root-$1
	rm -rf "$ROOT"
	cp -R "$FIXTURES/$1" "$ROOT"
	chmod -R a+rX "$ROOT"
}

sigexec() {
	sigexec_ignore=$1
	shift
	SIGEXEC_IGNORE=$sigexec_ignore exec perl -MPOSIX -e '
		my %ign = map { $_ => 1 } split /,/, $ENV{SIGEXEC_IGNORE};
		delete $ENV{SIGEXEC_IGNORE};
		$SIG{$_} = $ign{$_} ? "IGNORE" : "DEFAULT" for qw(HUP INT TERM QUIT);
		sigprocmask(SIG_UNBLOCK, POSIX::SigSet->new(SIGHUP, SIGINT, SIGTERM, SIGQUIT))
			or die "sigprocmask: $!\n";
		exec { $ARGV[0] } @ARGV or die "cannot run $ARGV[0]: $!\n";
	' "$@"
}

need_sigexec() {
	perl -MPOSIX -e 1 2> /dev/null ||
		skip_all "perl (POSIX) is needed to give idlelab known signal dispositions"
}

# value FILE-under-root: the file's first line
value() { head -n 1 "$ROOT/$1"; }

done_testing() {
	[ "$failed" = 0 ]
}
