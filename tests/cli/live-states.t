#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# live-states.t - `idlelab states` on the fixture trees of tests/fixtures/sysfs/: the listing,
# the formats, the CPUs without cpuidle, the files older kernels lack, and --export.
. "$(dirname "$0")/live-lib.sh"
plan 27

F=$FIXTURES
run_case "haltpoll-vm: driver"                  0 '^driver +haltpoll$' -- states --root "$F/haltpoll-vm"
run_case "haltpoll-vm: governors"               0 '^available_governors +ladder menu haltpoll$' -- states --root "$F/haltpoll-vm"
run_case "haltpoll-vm: cpu1 state1, every column" 0 \
	'^ +1 +1 +haltpoll idle +default architecture idle +1 +1 +0 +enabled +882425 +97543211 +1 +0 +0$' \
	-- states --root "$F/haltpoll-vm"
run_case "haltpoll-vm: no RAPL, said"           0 '^energy +none: no .*/sys/class/powercap' -- states --root "$F/haltpoll-vm"
run_case "desktop-rapl: the package zone only"  0 '^energy +package-0 \(RAPL\)$' -- states --root "$F/desktop-rapl"
run_case "desktop-rapl: offline cpu3 reported"  0 '^ +3 +- +\(no cpuidle directory\)' -- states --root "$F/desktop-rapl"
run_case "old-kernel: missing files shown as -" 0 '^ +0 +2 +C2 +ACPI IOPORT 0x414 +100 +200 +0 +- +300 +900000 +- +- +-$' -- states --root "$F/old-kernel"
run_case "old-kernel: no run-time switch"       0 '^governor_switch +no \(current_governor_ro only\)$' -- states --root "$F/old-kernel"
run_case "no-driver: driver none, CPUs listed"  0 '^ +1 +- +\(no cpuidle directory\)' -- states --root "$F/no-driver"
run_case "csv: header"                          0 '^cpu,state,name,desc,latency_us,residency_us,disable,default_status,usage,time_us,above,below,rejected$' -- states --root "$F/desktop-rapl" -f csv
run_case "csv: a row"                           0 '^2,3,C3_ACPI,ACPI FFH MWAIT 0x60,1034,3102,0,enabled,70002,900000002,602,0,0$' -- states --root "$F/desktop-rapl" -f csv

if "$IDLELAB" states --root "$F/haltpoll-vm" -f json > "$TMP/s.json" 2> /dev/null && command -v python3 > /dev/null; then
	ok "json: parses, has the state rows" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
info = {r["item"]: r["value"] for r in d["cpuidle"]}
assert info["driver"] == "haltpoll", info
row = [r for r in d["states"] if r["cpu"] == 0 and r["state"] == 0][0]
assert row["name"] == "POLL" and row["below"] == 11 and row["usage"] == 11, row
' "$TMP/s.json"
else
	echo "ok $((n += 1)) - json: parses # SKIP built without libjansson, or no python3"
fi

# --export: a platform file that -p loads.
run_case "export: written"                       0 'wrote .*vm.plat' -- states --root "$F/haltpoll-vm" --export "$TMP/vm.plat"
run_case "export: platforms loads it"            0 '^hz: +250$' -- platforms "$TMP/vm.plat"
run_case "export: states and polling flag"       0 '^ +0 POLL +CPUIDLE CORE POLL IDLE +0 +0 polling' -- platforms "$TMP/vm.plat"
run_case "export: the name with a space"         0 '^ +1 haltpoll idle +default architecture idle +1 +1 none' -- platforms "$TMP/vm.plat"
run_case "export: the simulator runs on it"      0 'usage_haltpoll idle' -- run -p "$TMP/vm.plat" -g menu -s idle --time 200ms
run_case "export: --name, --hz"                  0 '' -- states --root "$F/desktop-rapl" --export "$TMP/d.plat" --name box-1 --hz 300
run_case "export: name and hz taken"             0 '^platform: +box-1 .*[[:space:]]*' -- platforms "$TMP/d.plat"
ok "export: hz 300 in the file" grep -q '^hz 300$' "$TMP/d.plat"
run_case "export: no driver, refused"            1 'no cpuidle driver is registered' -- states --root "$F/no-driver" --export "$TMP/none.plat"
ok "export: no driver, no file" test ! -e "$TMP/none.plat"
run_case "export: unwritable place"              1 'cannot write' -- states --root "$F/haltpoll-vm" --export "$TMP/nodir/x.plat"
ok "export: no partial file left" sh -c "! ls '$TMP'/nodir* 2>/dev/null | grep -q ."

run_case "usage: --hz not a CONFIG_HZ"           2 'not a CONFIG_HZ' -- states --export "$TMP/x.plat" --hz 123
run_case "usage: --name without --export"        2 'go with --export' -- states --name x
run_case "--root that is not a directory"        1 'not a directory' -- states --root "$TMP/nowhere"

done_testing
