#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `-s rtapp:FILE.json`: every shipped workload under every governor alias on the haltpoll VM,
# the 2-CPU rings against the built-in pingpong, determinism, compare and sweep, bad files with
# their positions, and (when Debian's rt-app is installed) the upstream examples via workgen
# and a one-second real run of every shipped file that fits this machine.
. "$(dirname "$0")/lib.sh"

W=$TOP/workloads
GOVS="menu teo ladder haltpoll oracle"

expect 0 "scenarios lists rtapp" "$IDLELAB" scenarios
check "rtapp is listed" grep -q '^rtapp ' "$OUT"
expect 0 "scenarios rtapp" "$IDLELAB" scenarios rtapp
check "rtapp: its operand and score" sh -c "grep -q 'operand: -s rtapp:FILE.json' '$OUT' && grep -q 'score: wu_lat_us' '$OUT'"

need_rtapp "haltpoll-vm" "$W/pingpong-2.json" "rtapp workloads"

# Every workload, every governor alias: one row named after the file, a score, idle periods.
for f in "$W"/*.json; do
	name=$(basename "$f" .json)
	# (the 6- and 12-CPU rings on the 2-CPU platform: the larger machine asked for)
	case $name in pingpong-6 | pingpong-12) cpus=,cpus=${name#pingpong-} ;; *) cpus= ;; esac
	for g in $GOVS; do
		expect 0 "$name under $g" "$IDLELAB" run -g "$g" -p haltpoll-vm -s "rtapp:$f$cpus" --time 100ms -f csv
		check "$name/$g: one row, named after the file, with idle periods" \
			sh -c "test \$(wc -l <'$OUT') -eq 2 && tail -n 1 '$OUT' | grep -Eq '^$name,$g,0,[0-9.]+,[1-9][0-9]*,'"
	done
done

# A file naming CPUs the platform lacks is refused, naming the file, the thread and the CPU
# (not silently simulated on a larger machine); cpus=N asks for the larger machine, and a
# cpus=N too small for the file is refused too.
expect 1 "pingpong-12 on the 2-CPU platform: refused" "$IDLELAB" run -g menu -p haltpoll-vm \
	-s "rtapp:$W/pingpong-12.json" --time 50ms
check "the error names the file, the thread, the CPU and cpus=12" grep -q \
	"pingpong-12.json:[0-9]*:[0-9]*: tasks.ring11.cpus\[0\]: CPU 11 is beyond the 2 CPUs (0-1) of platform haltpoll-vm: give cpus=12" "$ERR"
check "nothing on stdout" test ! -s "$OUT"
cat > "$TMP/cpu99.json" <<'EOF2'
{ "tasks": { "far": { "cpus": [99], "run": 100, "sleep": 1000 } } }
EOF2
expect 1 "cpus: [99] on the 8-CPU rk3588: refused" "$IDLELAB" run -g menu -p rk3588 \
	-s "rtapp:$TMP/cpu99.json" --time 10ms
check "the error names the file, the thread far and CPU 99" grep -q \
	"cpu99.json:1:[0-9]*: tasks.far.cpus\[0\]: CPU 99 is beyond the 8 CPUs (0-7) of platform rk3588" "$ERR"
expect 1 "sweep of cpus: [99] on rk3588: refused before running" "$IDLELAB" sweep -g menu -p rk3588 \
	-s "rtapp:$TMP/cpu99.json" --param switch_ns=1..2:1 --time 10ms -o "$TMP/sw99"
check "sweep: the same error" grep -q "tasks.far.cpus\[0\]: CPU 99 is beyond" "$ERR"
expect 0 "pingpong-12 with cpus=12 on the 2-CPU platform" "$IDLELAB" run -g menu -p haltpoll-vm \
	-s "rtapp:$W/pingpong-12.json,cpus=12" --time 50ms
check "pingpong-12 simulates 12 CPUs" grep -Eq '^cpus +12' "$OUT"
expect 1 "pingpong-12 with cpus=4" "$IDLELAB" run -g menu -p haltpoll-vm -s "rtapp:$W/pingpong-12.json,cpus=4" --time 50ms
check "the error names the file, the position of CPU 11 and cpus=4" \
	grep -q "pingpong-12.json:[0-9]*:[0-9]*: tasks.ring11.cpus\[0\]: CPU 11 is not one of the cpus=4" "$ERR"

# The 2-CPU rings are the built-in pingpong with a fixed stop (overhead_sigma=0, as rtapp's
# switch_ns) and, like it, started on the tick (phase_us=0): same idle periods and state
# usage, and us_per_loop = 2 x wu_lat_us.
for ring in pingpong-2 pingpong-2-sync; do
	expect 0 "compare $ring with pingpong" "$IDLELAB" compare -g menu -p haltpoll-vm -s pingpong:overhead_sigma=0 -s "rtapp:$W/$ring.json,phase_us=0" \
		--time 300ms -f csv
	# One long table (scenario, then the union of both tables' columns): cells by name.
	check "$ring: same idle periods as pingpong, one trip = 2 wakeups" awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "pingpong" { loop = $c["us_per_loop"]; idles = $c["idles"]; poll = $c["usage_POLL"] }
		$1 != "pingpong" { lat = $c["wu_lat_us"]; ridles = $c["idles"]; rpoll = $c["usage_POLL"] }
		END {
			d = ridles - idles; if (d < 0) d = -d
			r = 2 * lat / loop
			exit !(idles > 10000 && d <= idles / 1000 && r > 0.999 && r < 1.001 && rpoll - poll < 10 && poll - rpoll < 10)
		}' "$OUT"
done

# Determinism: the same seed gives the same bytes, another seed (the background) others.
run="$IDLELAB run -g teo -p haltpoll-vm -s rtapp:$W/threads-500.json --time 200ms -f tsv"
expect 0 "threads-500, seed 1" $run
cp "$OUT" "$TMP/a"
expect 0 "threads-500, seed 1 again" $run
check "same seed, same bytes" cmp -s "$OUT" "$TMP/a"
expect 0 "threads-500, seed 2" $run --seed 2
check "another seed, other numbers" sh -c "! cmp -s '$OUT' '$TMP/a'"

expect 0 "run table: the operand in the run's args" "$IDLELAB" run -g menu -p haltpoll-vm -s "rtapp:$W/periodic-73hz.json" --time 100ms
check "args start with the file" grep -q "periodic-73hz.json,switch_ns=900" "$OUT"

expect 0 "compare: several files, several governors" "$IDLELAB" compare -g menu,ladder -p haltpoll-vm \
	-s "rtapp:$W/periodic-73hz.json" -s "rtapp:$W/periodic-401hz.json" --time 100ms -f tsv
check "one table, four rows" test "$(wc -l <"$OUT")" -eq 5

expect 0 "sweep a parameter of an rt-app file" "$IDLELAB" sweep -g menu -p haltpoll-vm -s "rtapp:$W/pingpong-2.json" \
	--param switch_ns=500,2000 --time 50ms -j 2 -o "$TMP/sweep"
check "sweep: two cases" test "$(wc -l <"$TMP/sweep/sweep.csv")" -eq 3

# Bad files and specs: exit 2 and FILE:LINE:COL: key.path: message.
printf '{\n  "tasks": {\n    "t": { "run": 100, "perod": 5 }\n  }\n}\n' >"$TMP/unknown.json"
printf '{ "tasks": { "t": { "run": 1,\n "run": 2 } } }\n' >"$TMP/dup.json"
printf '{ "tasks": { "t": { "run": 1 }\n' >"$TMP/syntax.json"
printf '{ "tasks": { "t": { "phases": { "p": {\n "timer": { "ref": "x", "period": "10" } } } } } }\n' >"$TMP/type.json"
printf '{ "tasks": { "t": { "mem": 4096 } } }\n' >"$TMP/mem.json"
expect 1 "unknown key" "$IDLELAB" run -g menu -p haltpoll-vm -s "rtapp:$TMP/unknown.json"
check "unknown key: its position and path" grep -q "unknown.json:3:24: tasks.t.perod: unknown key" "$ERR"
expect 1 "duplicate key" "$IDLELAB" run -g menu -p haltpoll-vm -s "rtapp:$TMP/dup.json"
check "duplicate key: line 2 and how to number events" grep -q 'dup.json:2:[0-9]*: duplicate object key.*"run0"' "$ERR"
expect 1 "syntax error" "$IDLELAB" run -g menu -p haltpoll-vm -s "rtapp:$TMP/syntax.json"
check "syntax error: jansson's position" grep -q "syntax.json:[12]:[0-9]*: " "$ERR"
expect 1 "wrong type" "$IDLELAB" run -g menu -p haltpoll-vm -s "rtapp:$TMP/type.json"
check "wrong type: the nested path" grep -q "type.json:2:[0-9]*: tasks.t.phases.p.timer.period: expected an integer" "$ERR"
expect 1 "unsupported event" "$IDLELAB" compare -g menu -p haltpoll-vm -s "rtapp:$TMP/mem.json"
check "unsupported event: named" grep -q 'tasks.t.mem: "mem" events are not supported' "$ERR"
expect 1 "missing file" "$IDLELAB" run -g menu -p haltpoll-vm -s "rtapp:$TMP/none.json"
check "missing file: cannot open" grep -q "none.json: cannot open" "$ERR"
expect 2 "no file" "$IDLELAB" run -g menu -p haltpoll-vm -s rtapp
check "no file: the usage" grep -q "no FILE.json given" "$ERR"
expect 2 "unknown parameter after the file" "$IDLELAB" run -g menu -p haltpoll-vm -s "rtapp:$W/pingpong-2.json,bogus=1"

# rt-app's own examples, made unique by its workgen (Debian's rt-app package).
if command -v workgen >/dev/null 2>&1 && [ -d /usr/share/doc/rt-app/examples ]; then
	for ex in browser-short mp3-short video-short; do
		src=/usr/share/doc/rt-app/examples/$ex.json
		[ -f "$src" ] || continue
		(cd "$TMP" && workgen -d -o "$ex.json" "$src" >/dev/null 2>&1)
		expect 0 "upstream $ex after workgen" "$IDLELAB" run -g teo -p haltpoll-vm -s "rtapp:$TMP/$ex.json" --time 200ms -f csv
	done
else
	skip "upstream examples" "rt-app's workgen is not installed"
fi

# The shipped files are valid for the real rt-app: one second each, where this machine has the CPUs.
if command -v rt-app >/dev/null 2>&1 && [ -n "$IDLELAB_RTAPP_REAL" ]; then
	ncpu=$(getconf _NPROCESSORS_ONLN)
	for f in "$W"/*.json; do
		name=$(basename "$f" .json)
		need=$(grep -o '"cpus": \[[0-9, ]*\]' "$f" | grep -o '[0-9]*' | sort -n | tail -n 1)
		if [ -n "$need" ] && [ "$need" -ge "$ncpu" ]; then
			skip "real rt-app $name" "needs CPU $need"
			continue
		fi
		sed 's/"duration": [0-9]*/"duration": 1/' "$f" >"$TMP/real-$name.json"
		# rt-app writes a log file per thread into its logdir ("./"), even with logging off
		expect 0 "real rt-app $name" sh -c "cd '$TMP' && exec timeout -s KILL 60 rt-app 'real-$name.json'"
	done
else
	skip "real rt-app runs" "set IDLELAB_RTAPP_REAL=1 with rt-app installed"
fi

finish
