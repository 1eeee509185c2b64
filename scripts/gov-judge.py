#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""gov-judge.py - judge a candidate governor against menu-7.1 and teo-7.1 on battery JSONs.

An interim judge for docs/governor.md until `idlelab verdict` (issue 13) lands: it reads
`idlelab battery -f json` files (several may be given; their tables are merged, so the
baselines and the candidate may come from different runs with the same seeds and time).

Per cell (platform x scenario variant), over the selected seeds (iterations):
  score: mean of each governor; the candidate is 'worse' if its mean is worse than the better
         baseline's mean by more than 1 % AND a Welch t statistic beyond 2 says so (noise);
  misses: idle_misses mean <= teo's mean (+ noise);
  energy per unit of work: watts*time / work, work = score (throughput), 1/score (us_per_loop),
         or fixed (latency-type scores);
usage: gov-judge.py CAND FILE.json... [--seeds odd|even|all] [--half design|held|all]
                   [--bases A,B] [--md]
       gov-judge.py --verdict TEO.csv MENU.csv [--half design|held|all] [--md]
The second form reads two `idlelab verdict -f csv` outputs of the same seeds, the candidate
against teo-7.1 and against menu-7.1, and applies issue 14's goals to the verdict's own
calls (paired, max-T adjusted, --min-effect): score never `worse` than either, idle_misses
never `worse` than teo-7.1's, energy per unit of work not `worse` than either (at or below
min) in >= 90 % of cells and never above min by more than 2 % (a `worse` call with a point
estimate above +2 %). With the ensemble (the verdict's default) the calls are the robust ones,
and the cells whose sign the model's ranges flip (`sensitive`) are counted apart.
The halves: odd seeds (1, 3, ...) and the variants not in HELD_VARIANTS decided the design
of idlelab-1; even seeds and HELD_VARIANTS were only reported.
"""
import json, sys, math, statistics as st

THROUGHPUT = {"iops", "records_per_s", "pids_per_s", "loops_per_s"}
PER_LOOP = {"us_per_loop"}
HIGHER = THROUGHPUT
# each scenario's variants split in two halves: design (tuned on) and held (reported only)
HELD_VARIANTS = {"fio:device=sda", "fio:device=nullb", "fio:device=dm-slow", "pingpong:cpus=6",
                 "wakeup:mode=timer"}

def variant_half(scn):
    for h in HELD_VARIANTS:
        if scn.startswith(h):
            return "held"
    return "design"

def mean_sd(v):
    m = st.mean(v)
    return m, (st.stdev(v) if len(v) > 1 else 0.0)

def welch(a, b):
    ma, sa = mean_sd(a); mb, sb = mean_sd(b)
    se = math.sqrt(sa * sa / len(a) + sb * sb / len(b))
    return (ma - mb) / se if se > 0 else (0.0 if ma == mb else math.copysign(1e9, ma - mb))

def verdict_cells(path):
    """{(platform, scenario): {metric_key: row}} of one verdict CSV (n/a cells left out)."""
    import csv
    cells = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["verdict"] == "n/a":
                continue
            cells.setdefault((r["platform"], r["scenario"]), {})[r["metric_key"]] = r
    return cells

def pct(r):
    return float(r["delta_pct"]) if r["delta_pct"] not in ("-", "") else 0.0

def fmt(r):
    v = r["verdict"]
    s = "%+.2f %%" % pct(r) if r["delta_pct"] not in ("-", "") else "%+.3g" % float(r["diff"])
    return s + (" **%s**" % v if v != "same" else "")

def verdict_main(args):
    md = "--md" in args
    half = "all"
    if "--half" in args:
        half = args[args.index("--half") + 1]
    teo, menu = verdict_cells(args[0]), verdict_cells(args[1])
    n = sworse = mworse = eabove = efar = ppos = pfar = 0
    ssens = msens = esens = 0
    lines = []
    for key in sorted(teo, key=lambda k: (k[0], k[1])):
        if key not in menu or (half != "all" and variant_half(key[1]) != half):
            continue
        t, m = teo[key], menu[key]
        n += 1
        sw = t["score"]["verdict"] == "worse" or m["score"]["verdict"] == "worse"
        mw = t["idle_misses"]["verdict"] == "worse"
        ew = [r["energy"] for r in (t, m) if r["energy"]["verdict"] == "worse"]
        far = any(pct(r) > 2 for r in ew)
        sworse += sw; mworse += mw; eabove += bool(ew); efar += far
        # With the ensemble (the verdict's default) a call whose sign the model's ranges
        # flip is `sensitive`: neither a loss nor clean, counted apart.
        ssens += not sw and "sensitive" in (t["score"]["verdict"], m["score"]["verdict"])
        msens += t["idle_misses"]["verdict"] == "sensitive"
        esens += not ew and "sensitive" in (t["energy"]["verdict"], m["energy"]["verdict"])
        # the point estimates alone, whatever the test says (a bi-stable cell can be +20 %
        # and still `same` among some 1400 cells)
        pmax = max(pct(t["energy"]), pct(m["energy"]))
        ppos += pmax > 0; pfar += pmax > 2
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            key[0], key[1].split(",")[0], t["score"]["metric"], fmt(t["score"]), fmt(m["score"]),
            fmt(t["idle_misses"]), fmt(t["energy"]), fmt(m["energy"])))
    summary = ("cells %d (variants %s): score worse than either %d; idle_misses worse than teo-7.1 "
               "%d; energy/work worse than either %d (%.1f %% of cells at or below min), of them "
               "> 2 %%: %d; point estimates above min %d, > 2 %% above %d" % (
                   n, half, sworse, mworse, eabove, 100.0 * (n - eabove) / n if n else 0, efar,
                   ppos, pfar))
    if ssens or msens or esens:
        summary += ("; sensitive (the sign rests on the model's ranges): score %d, idle_misses "
                    "against teo-7.1 %d, energy/work %d (%.1f %% of cells at or below min with "
                    "neither call worse nor sensitive)" % (
                        ssens, msens, esens, 100.0 * (n - eabove - esens) / n if n else 0))
    if md:
        print("| platform | scenario | score | score vs teo-7.1 | score vs menu-7.1 | "
              "idle_misses vs teo-7.1 | energy/work vs teo-7.1 | energy/work vs menu-7.1 |")
        print("|---|---|---|---|---|---|---|---|")
        for l in lines:
            print(l)
        print()
    print(summary)

def main():
    if sys.argv[1] == "--verdict":
        return verdict_main(sys.argv[2:])
    cand = sys.argv[1]
    md = "--md" in sys.argv
    if md: sys.argv.remove("--md")
    seeds = "all"; half = "all"; bases = ["menu-7.1", "teo-7.1"]; paths = []
    args = sys.argv[2:]; i = 0
    while i < len(args):
        a = args[i]
        if a == "--seeds": seeds = args[i + 1]; i += 2; continue
        if a == "--half": half = args[i + 1]; i += 2; continue
        if a == "--bases": bases = args[i + 1].split(","); i += 2; continue
        paths.append(a); i += 1
    d = {}
    meta = {}
    for path in paths:
        dd = json.load(open(path))
        for kv in dd["battery"]:
            meta.setdefault(kv["key"], []).append(kv["value"])
        for k, rows in dd.items():
            if k != "battery":
                d.setdefault(k, []).extend(rows)
    d["battery"] = []
    T = float(meta["simulated_s_per_run"][0]); seed0 = int(meta["seed"][0])
    cells = []
    for key, rows in d.items():
        if key == "battery":
            continue
        plat, scn = key.split(" ", 1)
        if half != "all" and variant_half(scn) != half:
            continue
        scol = [c for c in rows[0] if c not in ("device", "gov", "iter")][0]
        g = {}
        for r in rows:
            seed = seed0 + r["iter"]
            if seeds == "odd" and seed % 2 == 0: continue
            if seeds == "even" and seed % 2 == 1: continue
            g.setdefault(r["gov"], []).append(r)
        if cand not in g: continue
        cells.append((plat, scn, scol, g))
    worse = miss_bad = en_bad = en_far = 0; n = 0; lines = []
    for plat, scn, scol, g in cells:
        if any(b not in g for b in bases):
            continue
        n += 1
        def score(gov): return [r[scol] for r in g[gov]]
        def misses(gov): return [r["idle_misses"] for r in g[gov]]
        def epw(gov):
            out = []
            for r in g[gov]:
                j = r["watts"] * T; s = r[scol]
                if scol in THROUGHPUT: out.append(j / s if s else float("inf"))
                elif scol in PER_LOOP: out.append(j * s)
                else: out.append(j)
            return out
        hib = scol in HIGHER
        # the better baseline on score
        bm = {b: st.mean(score(b)) for b in bases if b in g}
        best = max(bm, key=bm.get) if hib else min(bm, key=bm.get)
        cs, bs = score(cand), score(best)
        cm, bmv = st.mean(cs), st.mean(bs)
        rel = (cm - bmv) / abs(bmv) if bmv else (0.0 if cm == bmv else math.inf)
        t = welch(cs, bs)
        is_worse = ((rel < -0.01 and t < -2) if hib else (rel > 0.01 and t > 2))
        # absolute floor for near-zero scores (late_pct): a 1 % relative test is meaningless
        if is_worse and abs(cm - bmv) < 1e-3: is_worse = False
        worse += is_worse
        tm = misses("teo-7.1"); cmis = misses(cand)
        mbad = st.mean(cmis) > st.mean(tm) and welch(cmis, tm) > 2
        miss_bad += mbad
        e = {b: st.mean(epw(b)) for b in bases + [cand] if b in g}
        emin = min(e[b] for b in bases if b in e)
        erel = e[cand] / emin - 1 if emin else 0
        ebad = erel > 0 and welch(epw(cand), epw(min((b for b in bases if b in e), key=lambda b: e[b]))) > 2
        en_bad += ebad; en_far += ebad and erel > 0.02
        if md:
            trel = e["teo-7.1"] / emin - 1 if emin and "teo-7.1" in e else 0
            lines.append("| %s | %s | %s | %.4g | %.4g | %.4g | %+.2f %%%s | %.0f | %.0f | %.0f%s | %+.2f %% | %+.2f %%%s |" % (
                plat, scn.split(",")[0], scol, st.mean(score("menu-7.1")), st.mean(score("teo-7.1")), cm,
                100 * rel, " **worse**" if is_worse else "", st.mean(misses("menu-7.1")), st.mean(tm),
                st.mean(cmis), " **more**" if mbad else "", 100 * trel, 100 * erel,
                " **higher**" if ebad else ""))
            continue
        lines.append("%-11s %-44.44s %-13s %11.4g %11.4g %11.4g %+7.2f%% %-5s %9.0f %9.0f %9.0f %-4s %+7.2f%% %s" % (
            plat, scn, scol, st.mean(score("menu-7.1")), st.mean(score("teo-7.1")), cm, 100 * rel,
            "WORSE" if is_worse else "", st.mean(misses("menu-7.1")), st.mean(tm), st.mean(cmis),
            "MORE" if mbad else "", 100 * erel, "HIGHER" if ebad else ""))
    if md:
        print("| platform | scenario | score | menu-7.1 | teo-7.1 | %s | vs better | misses menu | misses teo | misses %s | E/work teo vs min | E/work %s vs min |" % (cand, cand, cand))
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    else:
      print("%-11s %-44s %-13s %11s %11s %11s %8s %-5s %9s %9s %9s %-4s %8s" % ("platform", "scenario", "score",
          "menu-7.1", "teo-7.1", cand, "vs_best", "", "miss_menu", "miss_teo", "miss_cand", "", "E/work"))
    for l in lines: print(l)
    if md: print()
    print("cells %d (seeds %s, variants %s): score worse %d; misses above teo %d; energy/work above min %d "
          "(%.1f %% of cells at or below), of them > 2 %%: %d" % (n, seeds, half, worse, miss_bad, en_bad,
          100.0 * (n - en_bad) / n if n else 0, en_far))

main()
