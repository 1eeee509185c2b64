#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""real-vs-lab.py - each real figure of a validation record with the lab's prediction beside it.

    real-vs-lab.py --idlelab BIN --runs RUNS.tsv --platform PLAT --kernel-file FILE
                   [--workloads DIR] [--check TABLE]
    real-vs-lab.py --markdown TABLE

RUNS.tsv is what validation-digest.py wrote from a guest run (one line per run), PLAT the
platform exported in that guest, FILE the governor source the guest's kernel was built with
(kgov-src/idlelab.c, built in by scripts/vm/build-idlelab-kernel.sh). Output (stdout): comment
lines naming the guest, the kernel file's git blob hash and the lab's settings, then a TSV with
one line per (workload, governor, metric):

  workload gov preset metric n real_mean real_min real_max lab

real_* over the n recorded runs (validation-compare.py's real_metrics: the whole guest from
sysfs, cpuN. from the trace of CPU N); lab: one simulated run of the same rt-app file (the
repository's workloads/W.json, for its own duration) with the preset in PRESETS on PLAT, in
validation-compare.py's "emulated" setting (no background, the emulator's hand-off and IPI
costs measured in the record's pingpong-2 runs).

--check TABLE recomputes everything from the repository and prints TAP: the kernel file is the
one recorded (its blob), or stands for it: the recorded blob, from git's history, has the same
code (comments aside), or, built with kgov, makes the same decisions as FILE on every stream
`idlelab kgov diff` is run on here (kgov check's random stream and the lab run of each recorded
workload); the real columns are those of RUNS.tsv, each lab figure is what this tree's lab gives
(deterministic: byte for byte), and the table is whole; exit 1 on a difference.
--markdown TABLE prints the tables of docs/governor.md ("In a real kernel") from a written table.
"""
import argparse
import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
_spec = importlib.util.spec_from_file_location('validation_compare',
                                               os.path.join(TOP, 'tests', 'cli', 'validation-compare.py'))
vc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(vc)

# The lab's preset for each governor the guest ran: the Debian 6.12.117 ports of the kernel's
# own files, and idlelab-1, the port of kgov-src/idlelab.c.
PRESETS = {'menu': 'menu-6.12.117', 'ladder': 'ladder-6.12.117', 'teo': 'teo-6.12.117', 'idlelab': 'idlelab-1'}
METRICS = ['idles_per_s', 'belows_per_s', 'aboves_per_s',
           'cpu0.idles_per_s', 'cpu0.belows_per_s', 'cpu0.aboves_per_s'] + \
    ['cpu0.usage_share_' + s for s in vc.STATES] + ['cpu0.time_share_' + s for s in vc.STATES] + \
    ['cpu1.idles_per_s']
HEAD = ['workload', 'gov', 'preset', 'metric', 'n', 'real_mean', 'real_min', 'real_max', 'lab']


def git_blob(path):
    """The hash git gives the file's contents (git hash-object), without git."""
    with open(path, 'rb') as f:
        data = f.read()
    return hashlib.sha1(b'blob %d\0' % len(data) + data).hexdigest()


def code_of(text):
    """C source without its comments and with white space folded: what the compiler reads."""
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    return ' '.join(text.split())


RECORDED_COPIES = os.path.join(TOP, 'tests', 'fixtures', 'validation')


def kept_copy(blob):
    """The text of the copy of a recorded kernel file kept beside the records
    (tests/fixtures/validation/*.c) whose blob is @blob, or None."""
    for name in sorted(os.listdir(RECORDED_COPIES)):
        path = os.path.join(RECORDED_COPIES, name)
        if name.endswith('.c') and git_blob(path) == blob:
            with open(path) as f:
                return f.read()
    return None


def blob_text(blob):
    """The text of git blob @blob: from the repository's history, else from the copy kept
    beside the records (a tree without its history, a shallow clone); None when neither has
    it."""
    try:
        return subprocess.run(['git', '-C', TOP, 'cat-file', 'blob', blob], check=True,
                              capture_output=True).stdout.decode()
    except (OSError, subprocess.CalledProcessError):
        return kept_copy(blob)


def workloads_of(runs):
    """The record's rt-app workloads (not the idle baseline), in the order of their runs."""
    out = []
    for w, g, i in sorted(runs, key=lambda k: k[2]):
        if w != 'idle' and w not in out:
            out.append(w)
    return out


def lab_spec(wfile, emul):
    """The scenario the lab runs a workload as: its rt-app file in the emulated setting."""
    return 'rtapp:%s%s' % (wfile, ''.join(',%s=%s' % kv for kv in emul))


def decision_streams(a, runs, emul):
    """(name, `idlelab kgov diff` options) of the streams a changed kernel file is compared on:
    kgov check's random stream (seed 1, random platforms, 100000 decisions), then each workload
    the check's lab runs, as that lab run's idle periods (the same file, platform, setting and
    duration, driven by the recorded file and replayed open loop)."""
    out = [("kgov check's random stream", [])]
    for w in workloads_of(runs):
        wfile = os.path.join(a.workloads, w + '.json')
        out.append((w, ['--scenario', '%s:%s' % (a.platform, lab_spec(wfile, emul)),
                        '--time', '%ds' % vc.duration_of(wfile)]))
    return out


def decision_diff(a, old, opts):
    """`idlelab kgov diff OLD the-kernel-file` under idlelab-1's rules on one stream: (decisions,
    differing, the first differing one described, or None), or a string saying why it failed."""
    cmd = [a.idlelab, 'kgov', 'diff', old, a.kernel_file, '--as', PRESETS['idlelab'],
           '--no-progress', '--show', '1', '-f', 'json'] + opts
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        return 'kgov diff failed (exit %d): %s' % (r.returncode, r.stderr.strip())
    d = json.loads(r.stdout)
    c = d['cases'][0] if d['cases'] else None
    first = c and 'decision %d (run %d, step %d): recorded index %d stop_tick %s, now index %d ' \
        'stop_tick %s' % (c['decision'], c['run'], c['step'], c['old']['index'],
                          json.dumps(c['old']['stop_tick']), c['new']['index'],
                          json.dumps(c['new']['stop_tick']))
    return d['decisions'], d['any_differ'], first


def decisions_check(a, recorded, have, want):
    """TAP (ok, description) for a kernel file whose code differs from the recorded blob: it
    stands for the record when it decides as the recorded file on every stream of
    decision_streams()."""
    runs, _ = vc.read_real(a.runs)
    streams = decision_streams(a, runs, vc.emulation_params(runs))
    total, bad = 0, []
    with tempfile.TemporaryDirectory() as tmp:
        old = os.path.join(tmp, 'idlelab.c')
        with open(old, 'w') as f:
            f.write(blob_text(recorded))
        for name, opts in streams:
            res = decision_diff(a, old, opts)
            if isinstance(res, str):
                bad.append('%s: %s' % (name, res))
                continue
            total += res[0]
            if res[1]:
                bad.append('%s: %d of %d decisions differ, the first: %s' % (name, res[1], res[0], res[2]))
    if not bad:
        return True, ('the kernel file decides as the one the guest ran: %s (now %s): code differs '
                      'from the recorded blob %s, decisions identical on %d streams (%d decisions)'
                      % (have, want, recorded[:12], len(streams), total))
    return False, ('the kernel file decides as the one the guest ran: %s (now %s): code differs from '
                   'the recorded blob %s and so do its decisions on %d of %d streams: %s; record again '
                   '(docs/governor.md, "In a real kernel")' % (have, want, recorded[:12], len(bad),
                                                               len(streams), '; '.join(bad)))


def build(a):
    """The table's lines (comments included), computed from the inputs."""
    runs, notes = vc.read_real(a.runs)
    emul = vc.emulation_params(runs)
    if emul is None:
        raise SystemExit('real-vs-lab.py: %s has no pingpong-2 runs to take the emulation costs from' % a.runs)
    vc.PRESETS.update(PRESETS)
    out = ['# The real figures of %s with the lab\'s prediction beside each: written by'
           % os.path.basename(a.runs),
           '# scripts/vm/record-validation.sh --name (real-vs-lab.py); do not edit.']
    out += ['# %s' % n for n in notes if 'do not edit' not in n]
    out.append('# kernel file: %s blob %s' % (os.path.relpath(a.kernel_file, TOP), git_blob(a.kernel_file)))
    out.append('# lab: idlelab run on %s, emulated setting: %s' % (os.path.basename(a.platform),
                                                                   ', '.join('%s=%s' % kv for kv in emul)))
    out.append('\t'.join(HEAD))
    workloads = workloads_of(runs)
    govs = []
    for w, g, i in runs:
        if g not in govs:
            govs.append(g)
    for w in workloads:
        wfile = os.path.join(a.workloads, w + '.json')
        secs = vc.duration_of(wfile)
        for g in govs:
            if g not in PRESETS:
                raise SystemExit('real-vs-lab.py: no lab preset for governor %s (PRESETS)' % g)
            real = [vc.real_metrics(r) for (rw, rg, i), r in sorted(runs.items()) if rw == w and rg == g]
            if not real:
                continue
            lab = vc.lab_metrics(a.idlelab, a.platform, wfile, g, secs, emul)
            for m in METRICS:
                xs = [r[m] for r in real if m in r]
                if not xs:
                    continue
                out.append('\t'.join([w, g, PRESETS[g], m, str(len(xs)), '%.2f' % vc.mean(xs), '%.2f' % min(xs),
                                      '%.2f' % max(xs), '%.2f' % lab[m] if m in lab else '']))
    return out


def kernel_file_check(a, have, want):
    """TAP (ok, description): the kernel file is the one the guest ran, differs from it in its
    comments only, or in code that decides the same (decisions_check()); the recorded file
    comes from git's history, by the blob the record names."""
    if have == want:
        return True, 'the kernel file is the one the guest ran: %s' % have
    recorded = (have or '').split(' blob ')[-1]
    if not re.fullmatch(r'[0-9a-f]{40}', recorded):
        return False, 'the record names no kernel file blob (a "# kernel file: ... blob" line); record again'
    old = blob_text(recorded)
    if old is None:
        return False, ('the kernel file is not the one the guest ran: %s (now %s), and neither '
                       'git nor tests/fixtures/validation/ has blob %s to compare its code and '
                       'decisions with (a tree without its history or a shallow clone: git fetch '
                       '--unshallow); record again (docs/governor.md, "In a real kernel")'
                       % (have, want, recorded[:12]))
    with open(a.kernel_file) as f:
        if code_of(old) == code_of(f.read()):
            return True, ('the kernel file has the code the guest ran: %s (now %s; the comments '
                          'differ, the code is the same)' % (have, want))
    return decisions_check(a, recorded, have, want)


def check(a, want):
    """TAP: the recorded table against the one recomputed here."""
    with open(a.check) as f:
        have = [l.rstrip('\n') for l in f]
    n = bad = 0

    def tap(ok, desc):
        nonlocal n, bad
        n += 1
        bad += not ok
        print('%s %d - %s' % ('ok' if ok else 'not ok', n, desc))

    def blob_line(lines):
        return next((l for l in lines if l.startswith('# kernel file: ')), None)

    tap(*kernel_file_check(a, blob_line(have), blob_line(want)))
    rows_have = [l.split('\t') for l in have if l and not l.startswith('#')]
    rows_want = [l.split('\t') for l in want if l and not l.startswith('#')]
    tap(rows_have[:1] == [HEAD], 'the header is %s' % ' '.join(HEAD))
    key = lambda r: tuple(r[:4])
    by_key = {key(r): r for r in rows_have[1:]}
    for r in rows_want[1:]:
        got = by_key.pop(key(r), None)
        if got is None:
            tap(False, '%s %s %s: missing' % (r[0], r[1], r[3]))
            continue
        real = got[4:8] == r[4:8]
        mid, lo, hi = (float(x) for x in got[5:8])
        tap(real and lo <= mid <= hi, '%s %s %s: real %s (%s-%s, n %s)%s' % (
            r[0], r[1], r[3], got[5], got[6], got[7], got[4], '' if real else ', the runs give %s' % ' '.join(r[4:8])))
        tap(got[8] == r[8], '%s %s %s: lab %s%s' % (r[0], r[1], r[3], got[8],
                                                    '' if got[8] == r[8] else ', this tree gives %s' % r[8]))
    for k in by_key:
        tap(False, '%s %s %s: not in the recomputed table' % (k[0], k[1], k[3]))
    print('1..%d' % n)
    return 1 if bad else 0


# What --markdown shows: (column title, metric); each cell "real (min-max) / lab".
SHOWN = [('CPU0 idles/s', 'cpu0.idles_per_s'), ('CPU0 belows/s', 'cpu0.belows_per_s'),
         ('CPU0 aboves/s', 'cpu0.aboves_per_s'), ('CPU0 POLL % of idle time', 'cpu0.time_share_POLL'),
         ('CPU0 C3 % of idle time', 'cpu0.time_share_C3')]


def markdown(path):
    with open(path) as f:
        lines = [l.rstrip('\n') for l in f]
    for l in lines:
        if l.startswith('#'):
            print('<!-- %s -->' % l[1:].strip())
    rows = [l.split('\t') for l in lines if l and not l.startswith('#')]
    head, rows = rows[0], [dict(zip(rows[0], r)) for r in rows[1:]]
    cells = {(r['workload'], r['gov'], r['metric']): r for r in rows}
    keys = []
    for r in rows:
        if (r['workload'], r['gov']) not in keys:
            keys.append((r['workload'], r['gov']))
    print('| workload | gov | %s |' % ' | '.join(t for t, _ in SHOWN))
    print('|%s' % ('---|' * (2 + len(SHOWN))))
    for w, g in keys:
        out = []
        for _, m in SHOWN:
            r = cells.get((w, g, m))
            if r is None:
                out.append('-')
                continue
            rng = ' (%s-%s)' % (fmt(r['real_min']), fmt(r['real_max'])) if r['n'] != '1' else ''
            out.append('%s%s / %s' % (fmt(r['real_mean']), rng, fmt(r['lab']) if r['lab'] else '-'))
        print('| %s | %s | %s |' % (w, g, ' | '.join(out)))
    return 0


def fmt(x):
    """Rates and shares at a precision that reads (the table keeps two decimals)."""
    v = float(x)
    return '%.0f' % v if abs(v) >= 10 else '%.1f' % v


def main():
    if len(sys.argv) == 3 and sys.argv[1] == '--markdown':
        return markdown(sys.argv[2])
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--idlelab', required=True)
    ap.add_argument('--runs', required=True)
    ap.add_argument('--platform', required=True)
    ap.add_argument('--kernel-file', required=True)
    ap.add_argument('--workloads', default=os.path.join(TOP, 'workloads'))
    ap.add_argument('--check', metavar='TABLE')
    a = ap.parse_args()
    lines = build(a)
    if a.check:
        return check(a, lines)
    sys.stdout.write('\n'.join(lines) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
