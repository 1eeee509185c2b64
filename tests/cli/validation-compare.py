#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""validation-compare.py - the lab side of docs/validation.md: simulate the rt-app files that
were run for real in the validation guest, on the platform exported there, and set the
lab's numbers beside the recorded real ones (tests/fixtures/validation/real.tsv, written by
scripts/vm/record-validation.sh).

    validation-compare.py --idlelab BIN [--fixtures DIR] [--workloads DIR]
                          [--markdown | --check] [WORKLOAD ...]

--markdown prints the tables of docs/validation.md (every file in real.tsv but `idle`);
--check prints one TAP line per number in CHECKS below (tests/cli/validation.t), "ok" when
the lab is inside its band around the real measurement (docs/validation.md justifies the
bands), and exits 1 if any is outside. WORKLOAD limits the files.

The lab runs the preset of the guest's kernel (menu-6.12.117, ladder-6.12.117) on the
exported platform, for the file's own duration, in three settings:

  default   the rtapp scenario's defaults: the background model on, 900 ns of work per
            wakeup (switch_ns), 1 us IPIs
  quiet     background=0: the guest runs nothing but the workload (its idle baseline has
            ~22 idle periods/s where the background model has ~230)
  emulated  quiet, plus the emulator's costs measured in the guest: switch_ns = the CPU time
            of one rt-app hand-off (busy stretch of pingpong-2, which has no work), ipi_ns =
            IPI send to idle exit (the same runs), medians over its runs and governors

Histograms use the log2 buckets of `idlelab stats` (a period of u us, u = floor(ns/1000),
falls in [2^(b-1), 2^b)), merged into the ranges of RANGES_US; the lab's periods come from
its --perfetto timeline (every idle slice, "open" ones left out as in the run's idles).
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile

PRESETS = {'menu': 'menu-6.12.117', 'ladder': 'ladder-6.12.117'}
RANGES_US = [0, 64, 256, 1024, 4096, 16384]
STATES = ['POLL', 'C1', 'C2', 'C3']
# Lab runs per number (seeds 1..N), as the real side has several runs per file.
LAB_SEEDS = 5

# What --check holds the lab (emulated setting) to: for each metric, the (workload, gov)
# pairs where docs/validation.md claims agreement, and the band around the mean of the
# recorded runs: |lab - real| <= max(rel * real, abs). Justified in docs/validation.md
# ("The test and its bands"); the other pairs are documented differences, not checked.
PAIRS_IDLES = [(w, g) for w in ('timer-200hz', 'pingpong-2-work', 'periodic-73hz', 'periodic-113hz')
               for g in ('menu', 'ladder')]
# Agreements that only held while every rt-app run started on the tick (rtapp's phase_us=0
# before it was drawn per run): documented differences since (docs/validation.md).
ON_TICK_ONLY = {('cpu0.idles_per_s', 'timer-200hz', 'menu'), ('cpu0.time_share_C3', 'timer-200hz', 'menu'),
                ('cpu0.time_share_C3', 'pingpong-2-work', 'menu')}


def claimed(key, pairs):
    """The pairs of a metric whose agreement docs/validation.md still claims."""
    return [(w, g) for w, g in pairs if (key, w, g) not in ON_TICK_ONLY]


CHECKS = [
    # idle periods per second on CPU0, the CPU that runs the workload (both CPUs for the ping-pong)
    ('cpu0.idles_per_s', 0.25, 5.0, claimed('cpu0.idles_per_s', PAIRS_IDLES)),
    # menu's share of CPU0's idle time in C3, the deepest state, in percentage points
    ('cpu0.time_share_C3', 0.0, 12.0,
     claimed('cpu0.time_share_C3', [(w, 'menu') for w, g in PAIRS_IDLES if g == 'menu'])),
]
CHECK_FILES = sorted({w for _, _, _, pairs in CHECKS for w, _ in pairs})


def read_real(path):
    """real.tsv: its comment lines, and per run (workload, gov, iter) its metrics."""
    runs = {}
    notes = []
    with open(path) as f:
        lines = [l.rstrip('\n') for l in f]
    notes = [l[1:].strip() for l in lines if l.startswith('#')]
    rows = [l.split('\t') for l in lines if l and not l.startswith('#')]
    head = rows[0]
    for r in rows[1:]:
        v = dict(zip(head, r))
        runs[(v['workload'], v['gov'], int(v['iter']))] = {k: float(x) for k, x in v.items()
                                                           if k not in ('workload', 'gov', 'iter') and x != ''}
    return runs, notes


def range_of(us):
    r = 0
    for i, lo in enumerate(RANGES_US):
        if us >= lo:
            r = i
    return r


def range_label(i):
    lo = RANGES_US[i]
    if i + 1 < len(RANGES_US):
        return '%s-%s' % (fmt_us(lo), fmt_us(RANGES_US[i + 1]))
    return '>=%s' % fmt_us(lo)


def fmt_us(us):
    return '%gms' % (us / 1000) if us >= 1000 else '%dus' % us


def stats_bucket_lower(us):
    """The lower edge of idlelab stats' log2 bucket holding a period of @us (integer) us."""
    return 0 if us == 0 else 1 << (us.bit_length() - 1)


def hist_shares(m, prefix, hist):
    n = sum(hist)
    for i, v in enumerate(hist):
        m['%shist_%d' % (prefix, i)] = 100 * v / n if n else 0


def share_metrics(m, prefix, usage, time_us):
    """usage and time shares per state (% of the idle periods, % of the idle time)."""
    n, t = sum(usage.values()), sum(time_us.values())
    for s in STATES:
        m[prefix + 'usage_share_' + s] = 100 * usage.get(s, 0) / n if n else 0
        m[prefix + 'time_share_' + s] = 100 * time_us.get(s, 0) / t if t else 0


def real_metrics(run):
    """The comparable numbers of one recorded run: the whole machine from sysfs (no
    prefix), each CPU from its trace (prefix cpuN.)."""
    m = {}
    wall = run['wall_s']
    m['idles_per_s'] = run['idles'] / wall
    m['belows_per_s'] = run['belows'] / wall
    m['aboves_per_s'] = run['aboves'] / wall
    share_metrics(m, '', {s: run.get('usage.' + s, 0) for s in STATES},
                  {s: run.get('time_us.' + s, 0) for s in STATES})
    span = run.get('span_s')
    for cpu in (0, 1):
        c = 'cpu%d.' % cpu
        if span is None or c + 'periods' not in run:
            continue
        m[c + 'idles_per_s'] = run[c + 'periods'] / span
        m[c + 'belows_per_s'] = run.get(c + 'below', 0) / span
        m[c + 'aboves_per_s'] = run.get(c + 'above', 0) / span
        share_metrics(m, c, {s: run.get(c + 'usage.' + s, 0) for s in STATES},
                      {s: run.get(c + 'time_us.' + s, 0) for s in STATES})
        hist = [0] * len(RANGES_US)
        for k, v in run.items():
            if k.startswith(c + 'hist.'):
                hist[range_of(int(k[len(c) + 5:]))] += v
        hist_shares(m, c, hist)
    return m


def lab_metrics(idlelab, plat, wfile, gov, seconds, params, shares=True):
    """The same numbers, each the mean over LAB_SEEDS simulated runs: a run draws rt-app's
    start against the tick from its seed, as each real run has its own."""
    per_seed = [lab_metrics_seed(idlelab, plat, wfile, gov, seconds, params, shares, seed)
                for seed in range(1, LAB_SEEDS + 1)]
    keys = set().union(*per_seed)
    return {k: mean([m.get(k, 0.0) for m in per_seed]) for k in keys}


def lab_metrics_seed(idlelab, plat, wfile, gov, seconds, params, shares, seed):
    """The numbers of one simulated run, kept in $IDLELAB_LAB_CACHE when that is set (a test
    that asks for the same run several times, idlelab-real.t, simulates it once)."""
    spec = 'rtapp:%s%s' % (wfile, ''.join(',%s=%s' % kv for kv in params))
    cmd = [idlelab, 'run', '-g', PRESETS[gov], '-p', plat, '-s', spec, '--time', '%ds' % seconds, '-f', 'json',
           '--seed', str(seed)]
    cache = os.environ.get('IDLELAB_LAB_CACHE')
    if not cache:
        return simulate_run(cmd, seconds, shares)
    path = os.path.join(cache, run_key(cmd, shares, (plat, wfile)) + '.json')
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    m = simulate_run(cmd, seconds, shares)
    os.makedirs(cache, exist_ok=True)
    with tempfile.NamedTemporaryFile('w', dir=cache, delete=False) as f:
        json.dump(m, f)
    os.replace(f.name, path)
    return m


def run_key(cmd, shares, files):
    """A run's identity: its command line, the binary it ran (path, size, mtime) and the
    contents of the files it read."""
    st = os.stat(cmd[0])
    h = hashlib.sha256(json.dumps([cmd, shares, st.st_size, st.st_mtime_ns]).encode())
    for name in files:
        with open(name, 'rb') as f:
            h.update(f.read())
    return h.hexdigest()


def simulate_run(cmd, seconds, shares):
    """Totals from the run's tables, per-CPU shares and histograms from its --perfetto
    timeline (a fast ping-pong has millions of periods; the default event limit keeps a
    complete prefix, enough for shares)."""
    events = []
    with tempfile.TemporaryDirectory() as tmp:
        tl = os.path.join(tmp, 'tl.json')
        out = subprocess.run(cmd + (['--perfetto', tl] if shares else []),
                             check=True, capture_output=True, text=True).stdout
        d = json.loads(out)
        if shares:
            with open(tl) as f:
                events = json.load(f)['traceEvents']
    row = d['summary'][0]
    m = {'idles_per_s': row['idles'] / seconds, 'belows_per_s': row['belows'] / seconds,
         'aboves_per_s': row['aboves'] / seconds}
    share_metrics(m, '', {s['state']: s['usage'] for s in d['states']},
                  {s['state']: s['time_s'] for s in d['states']})
    for c in d['cpus']:
        p = 'cpu%d.' % c['cpu']
        m[p + 'idles_per_s'] = c['idles'] / seconds
        m[p + 'belows_per_s'] = c['belows'] / seconds
        m[p + 'aboves_per_s'] = c['aboves'] / seconds
    per_cpu = {}
    for e in events:
        if e.get('ph') != 'X' or e.get('cat') != 'idle' or e.get('args', {}).get('open'):
            continue
        cpu = e['tid'] % 100000
        u, t, h = per_cpu.setdefault(cpu, ({}, {}, [0] * len(RANGES_US)))
        ns = int(round(e['dur'] * 1000))
        u[e['name']] = u.get(e['name'], 0) + 1
        t[e['name']] = t.get(e['name'], 0) + ns
        h[range_of(stats_bucket_lower(ns // 1000))] += 1
    for cpu, (u, t, h) in per_cpu.items():
        share_metrics(m, 'cpu%d.' % cpu, u, t)
        hist_shares(m, 'cpu%d.' % cpu, h)
    return m


def lab_metrics_scenario(idlelab, plat, scenario, gov, seconds):
    """Idle periods per second, in total and per CPU, of a built-in scenario."""
    out = subprocess.run([idlelab, 'run', '-g', PRESETS[gov], '-p', plat, '-s', scenario, '--time', '%ds' % seconds,
                          '-f', 'json'], check=True, capture_output=True, text=True).stdout
    d = json.loads(out)
    m = {'idles_per_s': d['summary'][0]['idles'] / seconds}
    for c in d['cpus']:
        m['cpu%d.idles_per_s' % c['cpu']] = c['idles'] / seconds
    return m


def mean(xs):
    return sum(xs) / len(xs) if xs else float('nan')


def emulation_params(runs):
    """switch_ns and ipi_ns for the emulated setting: medians of pingpong-2's runs."""
    busy = sorted(r['busy_us.p50'] for (w, g, i), r in runs.items() if w == 'pingpong-2' and 'busy_us.p50' in r)
    ipi = sorted(r['ipi_exit_us.p50'] for (w, g, i), r in runs.items() if w == 'pingpong-2' and 'ipi_exit_us.p50' in r)
    if not busy or not ipi:
        return None
    med = lambda v: v[(len(v) - 1) // 2]
    return [('background', 0), ('switch_ns', int(med(busy) * 1000)), ('ipi_ns', int(med(ipi) * 1000))]


def duration_of(wfile):
    with open(wfile) as f:
        return int(json.load(f).get('global', {}).get('duration', 10))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--idlelab', required=True)
    ap.add_argument('--fixtures', default=os.path.join(top, 'tests', 'fixtures', 'validation'))
    ap.add_argument('--workloads', default=os.path.join(top, 'workloads'))
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument('--markdown', action='store_true')
    mode.add_argument('--check', action='store_true')
    ap.add_argument('workload', nargs='*')
    a = ap.parse_args()

    runs, notes = read_real(os.path.join(a.fixtures, 'real.tsv'))
    plat = os.path.join(a.fixtures, 'guest.plat')
    emul = emulation_params(runs)
    settings = [('default', []), ('quiet', [('background', 0)])]
    if emul:
        settings.append(('emulated', emul))
    elif a.check:
        print('validation-compare.py: real.tsv has no pingpong-2 runs to take the emulation costs from',
              file=sys.stderr)
        return 1
    recorded = []
    for w, g, i in runs:
        if w != 'idle' and w not in recorded:
            recorded.append(w)
    files = a.workload or (CHECK_FILES if a.check else recorded)

    results = {}
    for w in files:
        wfile = os.path.join(a.workloads, w + '.json')
        secs = duration_of(wfile)
        for g in PRESETS:
            real = [real_metrics(r) for (rw, rg, i), r in sorted(runs.items()) if rw == w and rg == g]
            if not real:
                continue
            results[(w, g, 'real')] = real
            for name, params in settings:
                if a.check and name != 'emulated':
                    continue
                results[(w, g, name)] = [lab_metrics(a.idlelab, plat, wfile, g, secs, params)]
    if a.markdown:
        idle_lab = [(g, lab_metrics_scenario(a.idlelab, plat, 'idle', g, 10)) for g in PRESETS]
        print_markdown(results, runs, files, settings, emul, notes, idle_lab)
        return 0
    return check(results)


def cell(vals, key, digits=0):
    """The mean of @key over @vals, with the range when there are several."""
    xs = [v[key] for v in vals if key in v]
    if not xs:
        return '-'
    m = mean(xs)
    if len(xs) > 1:
        return '%.*f (%.*f-%.*f)' % (digits, m, digits, min(xs), digits, max(xs))
    return '%.*f' % (digits, m)


def table(head, rows):
    print('| %s |' % ' | '.join(head))
    print('|%s' % ('---|' * len(head)))
    for r in rows:
        print('| %s |' % ' | '.join(r))
    print()


def print_markdown(results, runs, files, settings, emul, notes, idle_lab):
    for n in notes:
        print('<!-- %s -->' % n)
    print('emulated: %s\n' % ', '.join('%s=%s' % kv for kv in emul or []))
    labs = [s for s, _ in settings]
    keys = [(w, g) for w in files for g in PRESETS if (w, g, 'real') in results]

    print('### Idle periods per second\n')
    table(['workload', 'gov', 'real', 'real CPU0', 'real CPU1'] + ['lab %s' % s for s in labs] + ['lab emulated CPU0'],
          [[w, g, cell(results[(w, g, 'real')], 'idles_per_s'), cell(results[(w, g, 'real')], 'cpu0.idles_per_s'),
            cell(results[(w, g, 'real')], 'cpu1.idles_per_s')] +
           [cell(results[(w, g, s)], 'idles_per_s') for s in labs] + [cell(results[(w, g, 'emulated')], 'cpu0.idles_per_s')]
           for w, g in keys])

    idle_real = [real_metrics(r) for (w, g, i), r in sorted(runs.items()) if w == 'idle']
    print('### Idle baseline (sleep, both governors)\n')
    table(['source', 'idle periods/s', 'CPU0', 'CPU1'],
          [['real (guest idle)', cell(idle_real, 'idles_per_s'), cell(idle_real, 'cpu0.idles_per_s'),
            cell(idle_real, 'cpu1.idles_per_s')]] +
          [['lab `-s idle` %s' % g, cell([m], 'idles_per_s'), cell([m], 'cpu0.idles_per_s'), cell([m], 'cpu1.idles_per_s')]
           for g, m in idle_lab])

    shown = ['real', 'default', 'emulated']
    for metric, title in (('cpu0.usage_share_', 'CPU0: state usage, % of its idle periods'),
                          ('cpu0.time_share_', 'CPU0: state residency, % of its idle time')):
        print('### %s\n' % title)
        table(['workload', 'gov', 'source'] + STATES,
              [[w, g, src] + [cell(results[(w, g, src)], metric + st) for st in STATES]
               for w, g in keys for src in shown if (w, g, src) in results])
    print('### CPU0: residency of its idle periods, % of them (idlelab stats log2 buckets, merged)\n')
    table(['workload', 'gov', 'source'] + [range_label(i) for i in range(len(RANGES_US))],
          [[w, g, src] + [cell(results[(w, g, src)], 'cpu0.hist_%d' % i) for i in range(len(RANGES_US))]
           for w, g in keys for src in shown if (w, g, src) in results])
    print('### CPU0: belows / aboves per second\n')
    table(['workload', 'gov'] + shown,
          [[w, g] + ['%s / %s' % (cell(results[(w, g, src)], 'cpu0.belows_per_s'),
                                  cell(results[(w, g, src)], 'cpu0.aboves_per_s')) for src in shown]
           for w, g in keys])

    print('### Emulation costs measured in the guest traces (us, median of the runs\' p50 / p90)\n')
    cols = [('timer_late_us', 'timer late'), ('timer_exit_us', 'timer to idle exit'),
            ('timer_exit_us.C1', 'same, C1'), ('timer_exit_us.C2', 'same, C2'), ('timer_exit_us.C3', 'same, C3'),
            ('ipi_exit_us', 'IPI to idle exit'), ('busy_us', 'busy stretch'), ('poll_us', 'POLL residency')]
    rows = []
    for w in files + ['idle']:
        for g in PRESETS:
            rs = [r for (rw, rg, i), r in sorted(runs.items()) if rw == w and rg == g]
            if not rs:
                continue
            row = [w, g]
            for k, _ in cols:
                p50 = sorted(r[k + '.p50'] for r in rs if k + '.p50' in r)
                p90 = sorted(r[k + '.p90'] for r in rs if k + '.p90' in r)
                row.append('%.0f / %.0f' % (p50[(len(p50) - 1) // 2], p90[(len(p90) - 1) // 2]) if p50 else '-')
            rows.append(row)
    table(['workload', 'gov'] + [t for _, t in cols], rows)


def check(results):
    n = bad = 0
    for key, rel, ab, pairs in CHECKS:
        for w, g in pairs:
            if (w, g, 'real') not in results:
                n += 1
                bad += 1
                print('not ok %d - %s %s %s: no recorded real runs' % (n, w, g, key))
                continue
            r = mean([v[key] for v in results[(w, g, 'real')]])
            lab = results[(w, g, 'emulated')][0][key]
            band = max(rel * r, ab)
            ok = abs(lab - r) <= band
            n += 1
            bad += not ok
            print('%s %d - %s %s %s: lab %.1f, real %.1f, band +-%.1f' % ('ok' if ok else 'not ok', n, w, g, key,
                                                                          lab, r, band))
    print('1..%d' % n)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
