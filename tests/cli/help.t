#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The global options, `idlelab help`, and the exit status of usage errors.
. "$(dirname "$0")/lib.sh"

expect 0 "--help exits 0" "$IDLELAB" --help
check "--help lists the commands" grep -q '^  step ' "$OUT"
check "--help documents the exit status" grep -q '2  usage error' "$OUT"
expect 0 "-h exits 0" "$IDLELAB" -h
expect 0 "--version exits 0" "$IDLELAB" --version
check "--version prints the version" grep -q '^idlelab [0-9]' "$OUT"

for cmd in governors platforms step help; do
	expect 0 "help $cmd" "$IDLELAB" help "$cmd"
	check "help $cmd prints a usage line" grep -q "^usage: idlelab $cmd" "$OUT"
	expect 0 "$cmd --help" "$IDLELAB" "$cmd" --help
done

expect 2 "no command: exit 2" "$IDLELAB"
check "no command: usage on stderr" grep -q '^usage: idlelab' "$ERR"
check "no command: nothing on stdout" test ! -s "$OUT"
expect 2 "unknown command: exit 2" "$IDLELAB" frobnicate
check "unknown command is named" grep -q "unknown command 'frobnicate'" "$ERR"
expect 2 "unknown global option: exit 2" "$IDLELAB" --frobnicate
expect 2 "help of an unknown command: exit 2" "$IDLELAB" help frobnicate
expect 2 "unknown option of a command: exit 2" "$IDLELAB" governors --frobnicate
check "the usage error names the command" grep -q "^idlelab governors: unknown option '--frobnicate'" "$ERR"

finish
