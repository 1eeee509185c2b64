#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check the structure of an idlelab --perfetto file and count what it holds.

usage: perfetto-check.py FILE [--tile END_US] [--tp TP_CSV]

Fails (exit 1, the reasons on stderr) unless:
  - the file is one JSON object with traceEvents and displayTimeUnit "ns";
  - every event has ph, ts, pid and tid, and ts >= 0;
  - every pid has a process_name and every tid used a thread_name ("M" events);
  - on each track (pid, tid) the timestamps never go back, and the X slices have
    dur >= 0 and do not overlap;
  - every "total power" counter equals the sum of its process's CPU counters;
  - with --tile END_US: the X slices of every track cover [0, END_US] without a gap.
Prints one JSON object of counts per pid: idle (closed periods), open, busy, wakeups by
cause, poll_limits, tick_stops, ticks_retained, above, below, counters; and otherData.

With --tp TP_CSV, also fails unless TP_CSV, the output of Perfetto's trace processor
(trace_processor_shell -q perfetto-tp.sql FILE), has exactly the rows that the same
counts taken from the JSON give (see perfetto-tp.sql): what Perfetto loaded is what
idlelab wrote, nothing dropped, no period nested in another, no import error.
"""
import csv
import json
import sys
from collections import defaultdict


def ns(us):
    """µs with three decimals -> integer ns."""
    return round(us * 1000)


def main():
    path = sys.argv[1]
    opts = dict(zip(sys.argv[2::2], sys.argv[3::2]))
    if len(sys.argv) % 2 or set(opts) - {"--tile", "--tp"}:
        print(__doc__, file=sys.stderr)
        return 2
    tile_end = ns(float(opts["--tile"])) if "--tile" in opts else None
    errors = []

    def bad(msg):
        if len(errors) < 20:
            errors.append(msg)

    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        print("not a JSON object with a traceEvents array", file=sys.stderr)
        return 1
    if doc.get("displayTimeUnit") != "ns":
        bad("displayTimeUnit is not ns")

    counts = defaultdict(lambda: defaultdict(int))
    procs, threads, used_pids, used_tids = set(), set(), set(), set()
    last_ts = {}
    slices = defaultdict(list)
    cpu_power = defaultdict(dict)

    for i, e in enumerate(doc["traceEvents"]):
        missing = [k for k in ("ph", "ts", "pid", "tid") if k not in e]
        if missing:
            bad(f"event {i} lacks {missing}: {e}")
            continue
        ph, ts, pid, tid = e["ph"], ns(e["ts"]), e["pid"], e["tid"]
        if ts < 0:
            bad(f"event {i}: ts < 0")
        track = (pid, tid)
        if ts < last_ts.get(track, 0):
            bad(f"event {i}: ts goes back on track {track}")
        last_ts[track] = ts
        if ph == "M":
            if e["name"] == "process_name":
                procs.add(pid)
            elif e["name"] == "thread_name":
                threads.add(track)
            continue
        used_pids.add(pid)
        used_tids.add(track)
        c = counts[pid]
        cat, name, args = e.get("cat"), e.get("name"), e.get("args", {})
        if ph == "X":
            dur = ns(e["dur"])
            if dur < 0:
                bad(f"event {i}: dur < 0")
            slices[track].append((ts, ts + dur, i))
            if cat == "busy":
                c["busy"] += 1
            elif args.get("open"):
                c["open"] += 1
            else:
                c["idle"] += 1
        elif ph == "i":
            if e.get("s") == "g":
                c["global"] += 1
            elif name == "wakeup":
                c["wakeups"] += 1
                c["wake_" + args["cause"]] += 1
            elif name == "poll limit":
                c["poll_limits"] += 1
            elif name == "tick stop":
                c["tick_stops"] += 1
            elif name == "tick retained":
                c["ticks_retained"] += 1
            elif cat == "miss":
                c[args["miss"]] += 1
            else:
                bad(f"event {i}: unknown instant {name}")
        elif ph == "C":
            c["counters"] += 1
            uw = ns(args["mW"])
            if name == "total power":
                if uw != sum(cpu_power[pid].values()):
                    bad(f"event {i}: total {uw} uW != sum of CPUs {sum(cpu_power[pid].values())}")
            else:
                cpu_power[pid][tid] = uw
        else:
            bad(f"event {i}: unexpected ph {ph}")

    for pid in used_pids - procs:
        bad(f"pid {pid} has no process_name")
    for track in used_tids - threads:
        bad(f"track {track} has no thread_name")
    for track, xs in slices.items():
        xs.sort()
        for (s0, e0, i0), (s1, e1, i1) in zip(xs, xs[1:]):
            if s1 < e0:
                bad(f"track {track}: slice {i1} starts before slice {i0} ends")
            elif tile_end is not None and s1 != e0:
                bad(f"track {track}: gap between slices {i0} and {i1}")
        if tile_end is not None and (xs[0][0] != 0 or xs[-1][1] != tile_end):
            bad(f"track {track}: slices cover {xs[0][0]}..{xs[-1][1]} ns, not 0..{tile_end}")
    if tile_end is not None and not slices:
        bad("no slices at all")

    if "--tp" in opts:
        compare_tp(tp_rows(doc), opts["--tp"], bad)

    for msg in errors:
        print(f"{path}: {msg}", file=sys.stderr)
    out = {str(pid): dict(sorted(c.items())) for pid, c in sorted(counts.items())}
    out["tracks"] = len(threads)
    out["otherData"] = doc.get("otherData", {})
    print(json.dumps(out, sort_keys=True))
    return 1 if errors else 0


def tp_rows(doc):
    """The rows of perfetto-tp.sql, counted from the JSON: {(pid, what, name): value}.
    dur_sum is a pair: the exact sum, and the sum Perfetto before v52 computes (it
    truncates dur * 1000 of a float dur; v52 rounds)."""
    rows = defaultdict(int)
    threads = {}
    for e in doc["traceEvents"]:
        if e["ph"] == "M" and e["name"] == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
    exact, truncated = defaultdict(int), defaultdict(int)
    for e in doc["traceEvents"]:
        ph, pid, name, args = e["ph"], e["pid"], e.get("name"), e.get("args", {})
        if ph == "M" and name == "process_name":
            rows[(pid, "process", args["name"])] = sum(1 for p, _ in threads if p == pid)
            rows[(pid, "nested", "")] = 0
        elif ph == "C":
            for key, value in args.items():
                rows[(pid, "counter", f"{name} {key}")] += 1
                rows[(pid, "counter_uw", f"{name} {key}")] += ns(value)
        elif ph == "i" and e.get("s") == "g":
            rows[(0, "global", name)] += 1
        elif ph in "Xi":
            thread = threads[(pid, e["tid"])]
            rows[(pid, "thread", thread)] += 1
            rows[(pid, "ts_sum", thread)] += ns(e["ts"])
            rows[(pid, "category", e["cat"])] += 1
            rows[(pid, "slice", name)] += 1
            if ph == "X":
                exact[(pid, thread)] += ns(e["dur"])
                truncated[(pid, thread)] += int(e["dur"] * 1000.0)
            if name == "wakeup":
                rows[(pid, "wake", args["cause"])] += 1
            if args.get("open"):
                rows[(pid, "open", "")] += 1
    for (pid, thread), dur in exact.items():
        rows[(pid, "dur_sum", thread)] = (dur, truncated[(pid, thread)])
    for (pid, _), thread in threads.items():
        rows.setdefault((pid, "thread", thread), 0)
    return rows


def compare_tp(want, tp_csv, bad):
    """Fail (through bad) on every row of the trace processor's output tp_csv that is not
    the one counted from the JSON, or missing."""
    got = {}
    with open(tp_csv, encoding="utf-8") as f:
        for r in csv.DictReader(f):
            key = (int(r["pid"]), r["what"], r["name"])
            if key in got:
                bad(f"trace processor: {key} twice (a second track of that name?)")
            got[key] = int(r["value"])
    for key in sorted(set(want) | set(got), key=str):
        w, g = want.get(key), got.get(key)
        if key[1] == "dur_sum" and w is not None and g in w:
            continue
        if w != g:
            bad(f"trace processor: {key}: {g}, the JSON: {w}")


if __name__ == "__main__":
    sys.exit(main())
