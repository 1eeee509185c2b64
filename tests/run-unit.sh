#!/bin/sh
# Run every cmocka unit-test binary given; print one summary line; fail if any failed.
passed=0 failed=0
for t in "$@"; do
	if "$t"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $t"; fi
done
echo "unit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
