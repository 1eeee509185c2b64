#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Bad input is reported as FILE:LINE with exit status 1 and no output (and no -o file);
# usage errors exit 2.
. "$(dirname "$0")/lib.sh"

gov=$(presets | head -n 1)

# ---- usage errors (exit 2) ----
expect 2 "step without -g" "$IDLELAB" step -p skx --input builtin:demo
check "the message says what is missing" grep -q 'no governor given' "$ERR"
expect 2 "step without -p" "$IDLELAB" step -g menu --input builtin:demo
expect 2 "step without --input" "$IDLELAB" step -g menu -p skx
expect 2 "unknown governor" "$IDLELAB" step -g no-such-gov -p skx --input builtin:demo
check "the unknown governor is named" grep -q "unknown governor 'no-such-gov'" "$ERR"
expect 2 "unknown built-in platform" "$IDLELAB" platforms no-such-platform
expect 2 "unknown built-in script" "$IDLELAB" step --input builtin:nope --print-input
expect 2 "bad --hz" "$IDLELAB" step -g menu -p skx --input builtin:demo --hz 64
expect 2 "bad option value" "$IDLELAB" step -g menu -p skx --input builtin:demo -f yaml
check "usage errors print nothing on stdout" test ! -s "$OUT"

# ---- input errors (exit 1) ----
cat >"$TMP/bad.step" <<'END'
# a script with a typo on line 4
sleep=2ms res=40us

sleep=2ms res=40us stoped=1
END
expect 1 "a bad script line" "$IDLELAB" step --input "$TMP/bad.step" --print-input
check "the error is FILE:LINE: message" grep -q "^$TMP/bad.step:4: unknown field 'stoped'" "$ERR"
check "no output for a bad script" test ! -s "$OUT"
expect 1 "missing script file" "$IDLELAB" step --input "$TMP/none.step" --print-input
check "the missing file is named" grep -q "$TMP/none.step" "$ERR"

cat >"$TMP/bad.plat" <<'END'
platform bad
driver x
description "a bad platform"
cpus 2
  source: test
hz 250
  source: test
state S0 exit_latency=1 target_residency=1us
END
expect 1 "a bad platform file" "$IDLELAB" platforms "$TMP/bad.plat"
check "the platform error is FILE:LINE: message" \
	grep -q "^$TMP/bad.plat:8: invalid exit_latency '1': a time needs a unit" "$ERR"
check "no output for a bad platform file" test ! -s "$OUT"
expect 1 "missing platform file" "$IDLELAB" platforms "$TMP/none.plat"

if [ -z "$gov" ]; then
	for t in "bad script with -o" "bad platform with -o" "empty script"; do
		skip "$t" "no presets yet"
	done
	finish
	exit
fi

expect 1 "step on a bad script with -o" "$IDLELAB" step -g "$gov" -p skx --input "$TMP/bad.step" \
	-o "$TMP/out.txt"
check "the error is FILE:LINE" grep -q "^$TMP/bad.step:4: " "$ERR"
check "no -o file after a bad script" test ! -e "$TMP/out.txt"
check "nothing on stdout after a bad script" test ! -s "$OUT"
expect 1 "step on a bad platform file with -o" "$IDLELAB" step -g "$gov" -p "$TMP/bad.plat" \
	--input builtin:demo -o "$TMP/out.txt"
check "no -o file after a bad platform" test ! -e "$TMP/out.txt"
printf '# nothing\n' >"$TMP/empty.step"
expect 1 "a script without entries" "$IDLELAB" step -g "$gov" -p skx --input "$TMP/empty.step"
check "the empty script is named" grep -q "^$TMP/empty.step: no idle entries" "$ERR"

finish
