#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# trace-systrace.t - Android systrace HTML and the ftrace text with a TGID column in `stats`
# and `replay`, on a real third-party page: trappy's tests/trace_surfaceflinger.html
# (ARM-software/trappy, Apache-2.0; tests/fixtures/traces/README.md). The per-state entries
# idlelab counts are checked against this test's own count (awk over the page's text, no
# idlelab code); a page cut anywhere is an error with the file and line and no output.
. "$(dirname "$0")/live-lib.sh"
plan 14

SF=$TOP/tests/fixtures/traces/trace_surfaceflinger.html.xz
xz -dc "$SF" > "$TMP/sf.html"
# The ftrace text of the page's trace-data block: what systrace's text output holds.
sed -n '/<script class="trace-data"/,/<\/script>/p' "$TMP/sf.html" | sed '1d;/<\/script>/,$d' \
	> "$TMP/sf.txt"

# The independent count: per CPU, an idle period is a cpu_idle enter (state != 4294967295)
# followed by an exit on that CPU; "cpu state entries" for every pair seen.
awk '
	/ cpu_idle: state=/ {
		match($0, /state=[0-9]+/); st = substr($0, RSTART + 6, RLENGTH - 6)
		match($0, /cpu_id=[0-9]+/); cpu = substr($0, RSTART + 7, RLENGTH - 7)
		if (st == "4294967295") {
			if (cpu in open) { n[cpu " " open[cpu]]++; delete open[cpu] }
		} else {
			open[cpu] = st
		}
	}
	END { for (k in n) print k, n[k] }' "$TMP/sf.txt" | sort > "$TMP/expected"

# idlelab's entries per CPU and state (the non-empty rows of the states table).
entries() { # entries TRACE
	"$IDLELAB" stats "$1" -f tsv 2> /dev/null |
		awk -F '\t' '$1 == "cpu" && $4 == "entries" { t = 1; next } t && NF < 4 { t = 0 }
			t && $4 > 0 { print $1, $2, $4 }' | sort
}

ok "the page has idle periods (the check is not empty)" test "$(wc -l < "$TMP/expected")" -ge 10
run_case "stats: the page is detected as systrace"  0 '^format +systrace$' -- stats "$SF"
entries "$SF" > "$TMP/got"
ok "stats: per-state entries equal the independent count" cmp "$TMP/expected" "$TMP/got"
entries "$TMP/sf.txt" > "$TMP/got-text"
run_case "stats: its text with TGIDs is ftrace"     0 '^format +ftrace$' -- stats "$TMP/sf.txt"
ok "stats: the TGID text gives the same entries" cmp "$TMP/expected" "$TMP/got-text"
run_case "stats: 8 CPUs from the page's #P:8"       0 '^cpus +8$' -- stats "$SF"
run_case "replay: the page replays"                 0 '^teo-7.1 +305 ' -- replay "$SF" -p rk3399 -g menu,teo

# A cut page: inside the block, and after it without </html>.
head -n 2000 "$TMP/sf.html" > "$TMP/cut.html"
run_case "cut inside the trace data: file and line" 1 'cut.html:2000: the systrace page is cut: the file ends inside the trace data opened on line 588' -- stats "$TMP/cut.html"
ok "cut: nothing on stdout" test ! -s "$OUT"
run_case "cut: replay refuses it too"               1 'cut.html:2000: the systrace page is cut' -- replay "$TMP/cut.html" -p rk3399 -g menu
ok "cut: replay prints nothing" test ! -s "$OUT"
head -n 3107 "$TMP/sf.html" > "$TMP/cut2.html"
run_case "cut after the block: no </html>"          1 'cut2.html:3107: the systrace page is cut: no </html>' -- stats "$TMP/cut2.html"
printf '<!DOCTYPE html>\n<html><body>nothing</body></html>\n' > "$TMP/empty.html"
run_case "an HTML page without trace data"          1 'empty.html: an HTML page without systrace ftrace data' -- stats "$TMP/empty.html"
{ sed -n '1,3106p' "$TMP/sf.html"; sed -n '588,700p' "$TMP/sf.html"; echo '</script>'; echo '</html>'; } > "$TMP/two.html"
run_case "two ftrace blocks: refused"               1 'two.html:3107: a second block of ftrace text' -- stats "$TMP/two.html"

done_testing
