#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""validation-predict.py - the lab's calls for a guest record that is not made yet, and the
check of a record against them (docs/validation.md, "A validation that can fail").

    validation-predict.py predict --idlelab BIN --calls BIN --platform PLAT --runs OLD.tsv
                          [--files "A B ..."] [--govs a,b] [--seeds N] [--slow F] > PREDICTION.tsv
    validation-predict.py check --calls BIN --prediction PREDICTION.tsv --runs NEW.tsv
                          [--max-reversals N]

predict: every rt-app file (workloads/W.json, its own duration) runs in the lab with the two
governors' presets on PLAT (the guest's table with its measured wake costs), --seeds seeds
each, in the guest setting: no background, switch_ns from OLD.tsv's pingpong-2 runs (a record
made before, never the one checked); on a PLAT with host_threads (the vCPUs on one QEMU thread)
the hand-off is split at the IPI into switch_ns and block_ns (hand_off()); a PLAT with
timer_late (late timer interrupts) or timer_handler (a timer handler's run time) is also scanned
at a narrower and a wider spread. Each cell (file x CPU 0 metric, governor b against a) is
called by tests/validation/calls (the verdict's statistics over the seeds): lab_call(). Then a
one-at-a-time scan over the uncertain inputs (SCAN: each at an end of its range) calls the cell
again; a call whose sign a scanned input flips (or that one input reverses) is `sensitive`,
with the inputs that flip it. --slow F adds one joint scan, the emulator at its slower speed:
every measured emulator cost of PLAT (actual_exit_latency, timer_late, timer_handler) and the
hand-off (switch_ns, block_ns) times F at once (docs/validation.md, "The emulator's two
speeds"). Output: the prediction, one line per cell.

check: the real calls of NEW.tsv (the record; at least 2 runs a side, the same numbers in every
cell) by the same statistics, against the prediction: TAP, one line per cell where the real
runs show a difference ('not ok' when the lab calls the opposite direction), then the figures
(sign right where the real runs differ, false calls where they do not, missed calls, sensitive
cells) as `validation_*` lines. Exit 1 when more than --max-reversals (0) cells are reversed.
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
_spec = importlib.util.spec_from_file_location('validation_compare',
                                               os.path.join(TOP, 'tests', 'cli', 'validation-compare.py'))
vc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(vc)

PRESETS = {'menu': 'menu-6.12.117', 'ladder': 'ladder-6.12.117', 'teo': 'teo-6.12.117',
           'idlelab': 'idlelab-1'}
FILES = 'timer-1khz timer-200hz pingpong-2-work periodic-73hz periodic-211hz periodic-401hz pingpong-2 ' \
        'pingpong-2-sync'
# CPU 0 carries the workload; CPU 1 and the whole machine add the guest's nohz idle-balance
# kicks and its background, which the rtapp scenario does not model (docs/validation.md).
METRICS = ['cpu0.idles_per_s', 'cpu0.belows_per_s', 'cpu0.aboves_per_s'] + \
    ['cpu0.time_share_' + s for s in vc.STATES] + ['cpu0.usage_share_' + s for s in vc.STATES]
HEAD = ['cell', 'workload', 'metric', 'a', 'b', 'lab_a', 'lab_b', 'lab_diff_pct', 'lab_p_adj', 'lab_call',
        'robust_call', 'flipped_by']


def seed_metrics(idlelab, plat, wfile, preset, seconds, params, seed):
    """CPU 0's numbers of one simulated run (as validation-compare.py's lab_metrics)."""
    spec = 'rtapp:%s%s' % (wfile, ''.join(',%s=%s' % kv for kv in params))
    with tempfile.TemporaryDirectory() as tmp:
        tl = os.path.join(tmp, 'tl.json')
        out = subprocess.run([idlelab, 'run', '-g', preset, '-p', plat, '-s', spec, '--time', '%ds' % seconds,
                              '--seed', str(seed), '-f', 'json', '--perfetto', tl],
                             check=True, capture_output=True, text=True).stdout
        with open(tl) as f:
            events = json.load(f)['traceEvents']
    d = json.loads(out)
    m = {}
    for c in d['cpus']:
        if c['cpu'] == 0:
            m['cpu0.idles_per_s'] = c['idles'] / seconds
            m['cpu0.belows_per_s'] = c['belows'] / seconds
            m['cpu0.aboves_per_s'] = c['aboves'] / seconds
    usage, time_ns = {}, {}
    for e in events:
        if e.get('ph') != 'X' or e.get('cat') != 'idle' or e.get('args', {}).get('open'):
            continue
        if e['tid'] % 100000 != 0:
            continue
        usage[e['name']] = usage.get(e['name'], 0) + 1
        time_ns[e['name']] = time_ns.get(e['name'], 0) + int(round(e['dur'] * 1000))
    vc.share_metrics(m, 'cpu0.', usage, time_ns)
    return m


def judge(calls, samples):
    """tests/validation/calls on {cell: ([a values], [b values])}: {cell: row dict}."""
    text = ''.join('%s\t%s\t%.17g\n' % (cell, side, v) for cell, (a, b) in samples.items()
                   for side, vals in (('a', a), ('b', b)) for v in vals)
    out = subprocess.run([calls, '-'], input=text, check=True, capture_output=True, text=True).stdout
    lines = [l.split('\t') for l in out.splitlines() if l and not l.startswith('#')]
    return {r[0]: dict(zip(lines[0], r)) for r in lines[1:]}


def lab_call(calls, samples):
    """The lab's call per cell: the verdict's statistics over the lab's seeds. The one place to
    switch to the ensemble's robust call (`idlelab verdict --ensemble`, issue 23 item 2)."""
    return judge(calls, samples)


def sign(call):
    return {'higher': 1, 'lower': -1}.get(call, 0)


def median_range(values):
    """Median (the lower one of an even count) and ends of VALUES in us, as ns."""
    v = sorted(values)
    return int(v[(len(v) - 1) // 2] * 1000), int(v[0] * 1000), int(v[-1] * 1000)


def pingpong_runs(runs, column):
    vals = [r[column] for (w, g, i), r in runs.items() if w == 'pingpong-2' and column in r]
    if not vals:
        raise SystemExit('validation-predict.py: no pingpong-2 %s in the older record' % column)
    return vals


def switch_range(runs):
    """switch_ns: median and range of the older record's pingpong-2 busy stretches (p50 per run)."""
    return median_range(pingpong_runs(runs, 'busy_us.p50'))


def hand_off(runs):
    """On a platform with host_threads: a hand-off's busy stretch split at the IPI, per
    pingpong-2 run of the older record: block_ns is what the sender still ran after it
    (ipi_sender_busy_us.p50), switch_ns the rest of the stretch (busy_us.p50 - that).
    Return: (switch median, lo, hi), (block median, lo, hi)."""
    block = pingpong_runs(runs, 'ipi_sender_busy_us.p50')
    switch = [r['busy_us.p50'] - r['ipi_sender_busy_us.p50'] for (w, g, i), r in runs.items()
              if w == 'pingpong-2' and 'ipi_sender_busy_us.p50' in r and 'busy_us.p50' in r]
    return median_range(switch), median_range(block)


def host_threads(plat):
    with open(plat) as f:
        return any(line.split()[:1] == ['host_threads'] for line in f)


def actual_range(plat):
    """The platform's actual_exit_latency range (the same on every state that has one)."""
    with open(plat) as f:
        for line in f:
            for tok in line.split():
                if tok.startswith('actual_exit_latency='):
                    return tok.split('=', 1)[1].split('..')
    return None


# The platform lines with a measured spread of their own (docs/platforms.md), scanned alike.
SPREAD_LINES = ('timer_late', 'timer_handler')


def spread_range(plat, key):
    """The platform's KEY LO..HI line (timer_late, timer_handler) in us (ints), or None."""
    with open(plat) as f:
        for line in f:
            w = line.split()
            if w[:1] == [key] and len(w) == 2:
                lo, _, hi = w[1].partition('..')
                return int(lo.rstrip('us')), int((hi or lo).rstrip('us'))
    return None


def spread_scans(spread):
    """Spreads with the same floor and half or twice the width: their means span the
    measured per-run means or medians (docs/platforms.md)."""
    lo, hi = spread
    return ['%dus..%dus' % (lo, lo + (hi - lo) * k // 2) for k in (1, 4)]


def with_spread(plat, key, value, tmp):
    """A copy of PLAT whose KEY line is VALUE."""
    out = os.path.join(tmp, 'scan-%s-%s.plat' % (key, value))
    with open(plat) as f, open(out, 'w') as g:
        for line in f:
            g.write('%s %s\n' % (key, value) if line.split()[:1] == [key] else line)
    return out


def with_actual(plat, value, tmp):
    """A copy of PLAT whose actual_exit_latency is VALUE (None: the field removed)."""
    out = os.path.join(tmp, 'scan-%s.plat' % (value or 'declared'))
    with open(plat) as f, open(out, 'w') as g:
        for line in f:
            words = [w if not w.startswith('actual_exit_latency=') else
                     ('actual_exit_latency=' + value if value else '') for w in line.rstrip('\n').split(' ')]
            g.write(' '.join(w for w in words if w) + '\n' if line.startswith('state ') else line)
    return out


def scaled_us(value, factor):
    """A LO..HI (or one) time in us, times FACTOR, rounded to whole us."""
    return '..'.join('%dus' % round(int(v.rstrip('us')) * factor) for v in value.split('..'))


def with_slow(plat, factor, tmp):
    """A copy of PLAT with every measured emulator cost (actual_exit_latency, the
    SPREAD_LINES) FACTOR times as long: the emulator at its slower speed."""
    out = os.path.join(tmp, 'scan-slow-%g.plat' % factor)
    with open(plat) as f, open(out, 'w') as g:
        for line in f:
            w = line.split()
            if w[:1] and w[0] in SPREAD_LINES and len(w) == 2:
                line = '%s %s\n' % (w[0], scaled_us(w[1], factor))
            elif line.startswith('state '):
                line = ' '.join('actual_exit_latency=' + scaled_us(t.split('=', 1)[1], factor)
                                if t.startswith('actual_exit_latency=') else t for t in w) + '\n'
            g.write(line)
    return out


def lab_samples(a, plat, params, files, govs):
    samples = {}
    for w in files:
        wfile = os.path.join(a.workloads, w + '.json')
        secs = vc.duration_of(wfile)
        per_gov = []
        for g in govs:
            per_gov.append([seed_metrics(a.idlelab, plat, wfile, PRESETS[g], secs, params, s)
                            for s in range(1, a.seeds + 1)])
        for m in METRICS:
            samples['%s/%s' % (w, m)] = ([x[m] for x in per_gov[0]], [x[m] for x in per_gov[1]])
    return samples


def predict(a):
    runs, _ = vc.read_real(a.runs)
    govs = a.govs.split(',')
    files = a.files.split()
    if host_threads(a.platform):
        (sw, sw_lo, sw_hi), (bl, bl_lo, bl_hi) = hand_off(runs)
        inputs = {'switch_ns': (sw, sw_lo, sw_hi), 'block_ns': (bl, bl_lo, bl_hi)}
    else:
        inputs = {'switch_ns': switch_range(runs)}
    base = [('background', 0)] + [(k, v[0]) for k, v in inputs.items()]
    nominal = lab_call(a.calls, lab_samples(a, a.platform, base, files, govs))
    act = actual_range(a.platform)
    scans = []
    with tempfile.TemporaryDirectory() as tmp:
        if act:
            # The measured range's ends; not the declared latencies: they are the model
            # without the measurement, not a value the measurement allows.
            for v in act:
                scans.append(('actual_exit_latency=%s' % v, with_actual(a.platform, v, tmp), base))
        for key in SPREAD_LINES:
            spread = spread_range(a.platform, key)
            for v in spread_scans(spread) if spread else []:
                scans.append(('%s=%s' % (key, v), with_spread(a.platform, key, v, tmp), base))
        for key, (_, lo, hi) in inputs.items():
            for v in (lo, hi):
                scans.append(('%s=%d' % (key, v), a.platform, [(k, v if k == key else x) for k, x in base]))
        scans.append(('background=1', a.platform, [('background', 1)] + base[1:]))
        if a.slow:
            scans.append(('slow=%gx' % a.slow, with_slow(a.platform, a.slow, tmp),
                          [(k, round(v * a.slow) if k in inputs else v) for k, v in base]))
        scanned = [(name, lab_call(a.calls, lab_samples(a, plat, params, files, govs)))
                   for name, plat, params in scans]
    print('# The lab\'s calls for the guest record (docs/validation.md, "A validation that can fail"):')
    print('# written by scripts/vm/validation-predict.py predict before the record it is checked against.')
    print('# platform %s; rtapp setting %s; %d seeds a side; governors a=%s b=%s'
          % (os.path.relpath(a.platform, TOP), ','.join('%s=%s' % kv for kv in base), a.seeds, govs[0], govs[1]))
    print('# scan (one at a time, each at an end of its range%s): %s'
          % ('; slow: every emulator cost at once' if a.slow else '', '; '.join(n for n, _ in scanned)))
    print('\t'.join(HEAD))
    for cell, r in nominal.items():
        w, m = cell.split('/', 1)
        call = sign(r['call'])
        flips = []
        for name, res in scanned:
            s = res[cell]
            d = float(s['mean_b']) - float(s['mean_a'])
            nd = float(r['mean_b']) - float(r['mean_a'])
            # A scanned input flips a call when the cell's direction turns (the mean
            # difference's sign, or a call against it); an uncalled cell when it gets called.
            if call and (sign(s['call']) == -call or (d > 0) != (nd > 0)):
                flips.append(name)
            elif not call and sign(s['call']):
                flips.append(name)
        robust = r['call'] if not flips else 'sensitive'
        if not call and flips:
            robust = 'sensitive'
        print('\t'.join([cell, w, m, govs[0], govs[1], r['mean_a'], r['mean_b'], r['diff_pct'], r['p_adj'],
                         r['call'], robust, ','.join(flips) or '-']))
    return 0


def check(a):
    with open(a.prediction) as f:
        lines = [l.rstrip('\n') for l in f if not l.startswith('#')]
    rows = [dict(zip(lines[0].split('\t'), l.split('\t'))) for l in lines[1:] if l]
    runs, _ = vc.read_real(a.runs)
    ga, gb = rows[0]['a'], rows[0]['b']
    real = {}
    for (w, g, i), r in sorted(runs.items()):
        if g not in (ga, gb):
            continue
        m = vc.real_metrics(r)
        for p in rows:
            if p['workload'] == w and p['metric'] in m:
                real.setdefault(p['cell'], ([], []))[g == gb].append(m[p['metric']])
    # A workload the record lacks (the guest ran out of time, a file failed) is named, not
    # scored; a record without any predicted workload is an error.
    missing = sorted({p['workload'] for p in rows if p['cell'] not in real})
    rows = [p for p in rows if p['cell'] in real]
    if not rows:
        print('validation-predict.py: %s has no runs of the predicted workloads' % a.runs, file=sys.stderr)
        return 1
    if missing:
        print('# not in the record, not scored: %s' % ', '.join(missing))
    calls = judge(a.calls, real)
    n = reversed_ = 0
    fig = dict(diff=0, right=0, called=0, missed=0, sens_diff=0, same=0, false=0, sens_same=0)
    false_calls = []
    for p in rows:
        rc = calls[p['cell']]
        rs, ls = sign(rc['call']), sign(p['robust_call']) if p['robust_call'] != 'sensitive' else 0
        if rs:
            fig['diff'] += 1
            n += 1
            bad = ls == -rs
            reversed_ += bad
            fig['right'] += ls == rs
            fig['called'] += ls != 0
            fig['missed'] += ls == 0 and p['robust_call'] != 'sensitive'
            fig['sens_diff'] += p['robust_call'] == 'sensitive'
            print('%s %d - %s: real %s (%s -> %s, %s %%, p %s), lab %s%s' % (
                'not ok' if bad else 'ok', n, p['cell'], rc['call'], rc['mean_a'], rc['mean_b'], rc['diff_pct'],
                rc['p_adj'], p['robust_call'], ' (flipped by %s)' % p['flipped_by'] if p['flipped_by'] != '-' else ''))
        else:
            fig['same'] += 1
            fig['false'] += ls != 0
            fig['sens_same'] += p['robust_call'] == 'sensitive'
            if ls:
                false_calls.append('# false call: %s: real same (%s -> %s, %s %%, p %s), lab %s' % (
                    p['cell'], rc['mean_a'], rc['mean_b'], rc['diff_pct'], rc['p_adj'], p['robust_call']))
    print('1..%d' % n)
    for line in false_calls:
        print(line)
    pct = lambda x, y: 100.0 * x / y if y else 0.0
    print('# governors a=%s b=%s; %d cells; real spread (cv %%, median over cells): %s %.1f, %s %.1f' % (
        ga, gb, len(rows), ga, median(calls, 'cv_a'), gb, median(calls, 'cv_b')))
    print('validation_cells %d' % len(rows))
    print('validation_real_differences %d' % fig['diff'])
    print('validation_sign_right %d' % fig['right'])
    print('validation_sign_right_pct %.1f' % pct(fig['right'], fig['diff']))
    print('validation_reversed %d' % reversed_)
    print('validation_missed %d' % fig['missed'])
    print('validation_sensitive_where_different %d' % fig['sens_diff'])
    print('validation_real_same %d' % fig['same'])
    print('validation_false_calls %d' % fig['false'])
    print('validation_false_call_pct %.1f' % pct(fig['false'], fig['same']))
    print('validation_sensitive_where_same %d' % fig['sens_same'])
    return 1 if reversed_ > a.max_reversals else 0


def median(calls, key):
    v = sorted(float(r[key]) for r in calls.values() if r[key] not in ('nan', '-nan'))
    return v[len(v) // 2] if v else float('nan')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('predict')
    p.add_argument('--idlelab', required=True)
    p.add_argument('--calls', required=True)
    p.add_argument('--platform', required=True)
    p.add_argument('--runs', required=True, help='an older record (switch_ns)')
    p.add_argument('--files', default=FILES)
    p.add_argument('--govs', default='menu,teo')
    p.add_argument('--seeds', type=int, default=5)
    p.add_argument('--workloads', default=os.path.join(TOP, 'workloads'))
    p.add_argument('--slow', type=float, default=0,
                   help='scan the emulator at F times its costs, all at once (0: no such scan)')
    c = sub.add_parser('check')
    c.add_argument('--calls', required=True)
    c.add_argument('--prediction', required=True)
    c.add_argument('--runs', required=True)
    c.add_argument('--max-reversals', type=int, default=0)
    a = ap.parse_args()
    return predict(a) if a.cmd == 'predict' else check(a)


if __name__ == '__main__':
    sys.exit(main())
