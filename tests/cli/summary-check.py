#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""summary-check.py - check the long CSV/TSV of compare, battery or measure.

  summary-check.py FILE --keys COL,... --gov COL --n N --baseline GOV --test paired|welch
                   [--sep tab] [--skip COL,...] [--iters ROWS] [--summary SUMMARY-FILE]

Reads FILE with Python's csv module in one call and checks that it is one table (one header,
rows of equal length), then that its summary rows agree with its per-iteration rows: for each
group (the --keys columns), governor and metric column, exactly one summary row with n = N,
mean/min/max as computed here from the iteration rows, a confidence interval around the
mean, and against the baseline the test named, the difference of the means and p in [0, 1].
Nothing is hard-coded: every expected number comes from the iteration rows of the file.
Exit status 0 when every check holds; otherwise the first failure is printed.
"""
import argparse
import csv
import sys

STAT_COLS = {"metric", "n", "mean", "sd", "min", "max", "ci_lo", "ci_hi", "ci_pct", "baseline",
             "test", "delta", "delta_lo", "delta_hi", "delta_pct", "delta_pct_lo", "delta_pct_hi", "p"}


def number(s):
    try:
        return float(s)
    except ValueError:
        return None


def decimals(s):
    return len(s.split(".")[1]) if "." in s else 0


def fail(msg):
    print("# summary-check: " + msg)
    sys.exit(1)


def read_table(path, sep):
    with open(path, newline="") as f:
        rows = list(csv.reader(f, delimiter="\t" if sep == "tab" else ","))
    head, body = rows[0], rows[1:]
    if any(len(r) != len(head) for r in body):
        fail(path + ": rows of unequal length")
    if head.count(head[0]) != 1 or any(r == head for r in body):
        fail(path + ": more than one header")
    return head, body


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--keys", required=True)
    ap.add_argument("--gov", required=True)
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--test", required=True)
    ap.add_argument("--skip", default="")
    ap.add_argument("--sep", default=",")
    ap.add_argument("--iters", type=int, help="the number of iteration rows expected")
    ap.add_argument("--summary", help="the summary rows are in this file, FILE holds the iterations")
    a = ap.parse_args()
    head, body = read_table(a.file, a.sep)
    if a.summary:
        # Two files (a sweep's sweep.csv and summary.csv): one long table of both, "row" first.
        shead, sbody = read_table(a.summary, a.sep)
        cols = ["row"] + head + [c for c in shead if c not in head]
        body = [["iter"] + r + ["-"] * (len(cols) - 1 - len(r)) for r in body] + \
            [["summary"] + [r[shead.index(c)] if c in shead else "-" for c in cols[1:]] for r in sbody]
        head = cols
    col = {name: i for i, name in enumerate(head)}
    keys = a.keys.split(",")
    skip = set(filter(None, a.skip.split(","))) | {"row", "iter", a.gov} | set(keys)
    iters = [r for r in body if r[col["row"]] == "iter"]
    sums = [r for r in body if r[col["row"]] == "summary"]
    if not iters or not sums:
        fail("no iteration or no summary rows")
    if a.iters is not None and len(iters) != a.iters:
        fail("%d iteration rows, want %d" % (len(iters), a.iters))
    # The iteration rows by (group, governor), metric values as printed.
    groups = {}
    for r in iters:
        g = tuple(r[col[k]] for k in keys)
        groups.setdefault(g, {}).setdefault(r[col[a.gov]], []).append(r)
    metrics = [c for c in head if c not in skip and c not in STAT_COLS]
    seen = set()
    checked = 0
    for r in sums:
        g = tuple(r[col[k]] for k in keys)
        gov, metric = r[col[a.gov]], r[col["metric"]]
        where = "%s %s %s" % ("/".join(g), gov, metric)
        if (g, gov, metric) in seen:
            fail(where + ": two summary rows")
        seen.add((g, gov, metric))
        if metric not in metrics:
            fail(where + ": not a metric column")
        runs = groups.get(g, {}).get(gov)
        if not runs:
            fail(where + ": no iteration rows")
        texts = [x[col[metric]] for x in runs if number(x[col[metric]]) is not None]
        vals = [number(t) for t in texts]
        # The rows are rounded to their decimals (a real may have none), the mean to its own.
        din = max(decimals(t) for t in texts)
        tol = 0.5 * 10.0 ** -din + 0.5 * 10.0 ** -decimals(r[col["mean"]]) + 1e-9
        if int(r[col["n"]]) != a.n or len(vals) != a.n:
            fail(where + ": n is %s, want %d" % (r[col["n"]], a.n))
        mean = sum(vals) / len(vals)
        if abs(number(r[col["mean"]]) - mean) > tol:
            fail(where + ": mean %s, rows give %g" % (r[col["mean"]], mean))
        if number(r[col["min"]]) != min(vals) or number(r[col["max"]]) != max(vals):
            fail(where + ": min/max %s/%s, rows give %g/%g" % (r[col["min"]], r[col["max"]], min(vals), max(vals)))
        lo, hi = number(r[col["ci_lo"]]), number(r[col["ci_hi"]])
        if lo is None or hi is None or not lo - tol <= number(r[col["mean"]]) <= hi + tol:
            fail(where + ": the interval [%s, %s] misses the mean" % (r[col["ci_lo"]], r[col["ci_hi"]]))
        if gov == a.baseline:
            if r[col["baseline"]] not in ("", "-") or r[col["delta"]] not in ("", "-"):
                fail(where + ": the baseline has a delta")
        else:
            base = groups[g][a.baseline]
            bvals = [number(x[col[metric]]) for x in base if number(x[col[metric]]) is not None]
            if r[col["baseline"]] != a.baseline or r[col["test"]] != a.test:
                fail(where + ": baseline/test %s/%s" % (r[col["baseline"]], r[col["test"]]))
            diff = mean - sum(bvals) / len(bvals)
            dtol = 10.0 ** -din + 0.5 * 10.0 ** -decimals(r[col["delta"]]) + 1e-9
            if abs(number(r[col["delta"]]) - diff) > dtol:
                fail(where + ": delta %s, rows give %g" % (r[col["delta"]], diff))
            p = number(r[col["p"]])
            if p is None or not 0.0 <= p <= 1.0:
                fail(where + ": p %s" % r[col["p"]])
        checked += 1
    # Every (group, governor, metric) with numbers has its summary row.
    for g, govs in groups.items():
        for gov, runs in govs.items():
            for m in metrics:
                if any(number(x[col[m]]) is not None for x in runs) and (g, gov, m) not in seen:
                    fail("%s %s %s: no summary row" % ("/".join(g), gov, m))
    print("# summary-check: %d summary rows agree with %d iteration rows" % (checked, len(iters)))


if __name__ == "__main__":
    main()
