#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""validation-digest.py - turn what scripts/vm/guest-validate.sh brought back from the guest
into tests/fixtures/validation/real.tsv, the real numbers tests/cli/validation.t compares the
lab with (docs/validation.md), and copy the exported platform next to it.

    validation-digest.py --idlelab BIN --files "A B ..." --platform OUT.plat RAWDIR

RAWDIR holds, per workload W: W.measure.json (`idlelab measure -f json`) and one trace per
run, W-GOV-ITER.trace; `idle` is the baseline (sleep); guest.plat and guest.txt describe the
guest. Output (stdout): comment lines (#) on the guest and the host, then a TSV with one
line per run: `workload gov iter` and one column per metric (empty where a run has none):

  wall_s idles belows aboves            the measure table (sysfs deltas over the run)
  usage.S time_us.S above.S below.S     per state S (sysfs)
  span_s                                the trace's span (first to last event)
  cpuN.periods cpuN.usage.S             per CPU N, from the trace (`idlelab stats` with the
  cpuN.time_us.S cpuN.above cpuN.below  exported state table): idle periods, entries and
  cpuN.hist.LO                          residency per state, misses recomputed by the kernel's
                                        rules, and how many periods lasted LO..2*LO-1 us
  timer_late_us.pP                      an hrtimer (a sleep or the tick) that expired while its
                                        CPU was idle: from its hard expiry time to its handler
                                        (`now`), pP = p50/p90
  timer_exit_us.pP                      the same, from the expiry to the idle exit event;
  timer_exit_us.S.pP                    also per state S the CPU was in
  timer_irq_late_us.pP                  every hrtimer interrupt, whatever its CPU was doing: from
                                        the hard expiry to the handler, pP = p10/p50/p90, and its
                                        mean (.mean): what a platform's timer_late stands for
                                        (docs/platforms.md)
  timer_handler_us.pP                   a local timer interrupt that came while its CPU was idle:
                                        from its entry to the end of its softirqs (the last
                                        local_timer_exit or softirq_exit before the CPU's next
                                        other event), pP = p10/p50/p90, and its mean (.mean):
                                        what a platform's timer_handler stands for
                                        (docs/platforms.md)
  timer_busy_late_pct                   of the hrtimer interrupts whose expiry found their CPU
                                        busy, the share that came after it had gone idle (a
                                        due window: the governor saw the expiry in the past)
  ipi_exit_us.pP                        an IPI sent to a CPU that was idle (ipi_send_cpu, the
                                        remote wakeup of a task): from the send to that CPU's
                                        idle exit;
  ipi_exit_us.S.pP                      also per state S the CPU was in (the wake cost that
                                        actual_exit_latency stands for, docs/platforms.md)
  ipi_sender_busy_us.pP                 for the same IPIs: from the send to the sender's next idle
                                        entry (what the sender still had to run)
  ipi_after_sender_pct                  the share of those wakes that ended after the sender's
                                        next idle entry (QEMU TCG with thread=single runs every
                                        vCPU on one host thread: an IPI raised by the running
                                        vCPU is taken when that vCPU halts)
  ipi_resid_us.pP                       for those wakes: from the sender's idle entry to the
                                        woken CPU's idle exit (the wake's own cost once the
                                        host thread is free: the platform's host_threads,
                                        docs/platforms.md)
  cpuN.due.S                            idle entries into state S made while an hrtimer armed on
                                        that CPU had expired and its handler had not run yet (a
                                        late timer interrupt: the governor sees a next timer in
                                        the past; menu polls then, docs/validation.md)
  busy_us.pP                            a CPU's busy stretches, from an idle exit to the next
                                        idle entry
  poll_us.pP                            POLL residencies (trace)

Percentiles are nearest-rank. Trace timestamps are us (tracefs text), hrtimer times ns.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys

EXIT = 4294967295
LINE = re.compile(r'^\s*(.+)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d+):\s+(\w+):\s*(.*)$')


def pct(values, p):
    if not values:
        return None
    v = sorted(values)
    return v[max(0, math.ceil(p / 100 * len(v)) - 1)]


def fields(text):
    out = {}
    for part in text.split():
        if '=' in part:
            k, _, val = part.partition('=')
            out[k] = val
    return out


# The events of a timer interrupt's handler and its softirqs (timer_handler_us): they neither
# end it nor, but for the two that close a part, move its end.
HANDLER_PARTS = {'local_timer_entry', 'hrtimer_expire_entry', 'hrtimer_expire_exit', 'hrtimer_start',
                 'hrtimer_cancel', 'softirq_raise', 'softirq_entry', 'timer_start', 'timer_cancel',
                 'timer_expire_entry', 'timer_expire_exit', 'sched_wakeup', 'cpu_idle_miss'}
HANDLER_ENDS = {'local_timer_exit', 'softirq_exit'}
MEAN_COLUMNS = ('timer_irq_late_us', 'timer_handler_us')


def handler_step(handler, m, cpu, ev, ts, idle):
    """timer_handler_us: follow the open handler of @cpu (entry, end) through event @ev."""
    h = handler.get(cpu)
    if h is not None:
        if ev in HANDLER_ENDS:
            h[1] = ts
            return
        if ev in HANDLER_PARTS:
            return
        m['timer_handler_us'].append((h[1] - h[0]) / 1000)
        del handler[cpu]
    if ev == 'local_timer_entry' and cpu in idle:
        handler[cpu] = [ts, ts]


def trace_gaps(path):
    """The emulation and overhead measures of one trace (see the module comment)."""
    idle = {}        # cpu -> (state, enter ts ns) while idle
    last_exit = {}   # cpu -> ts of the last idle exit
    timers = {}      # hrtimer -> hard expiry time, ns
    timer_cpu = {}   # hrtimer -> the CPU that armed it
    clock_off = None  # trace clock minus the hrtimer clock (from hrtimer_expire_entry's now)
    due = {}         # (cpu, state) -> entries made with an expired timer's handler not run
    pending_timer = {}  # cpu -> [(expires, now)] timers that fired in the current idle period
    pending_ipi = {}    # cpu -> (send time, sender) of the first IPI to it in this idle period
    sender_idle = {}    # cpu -> the sender's first idle entry after that send
    handler = {}        # cpu -> [entry, end] of the timer handler it runs (timer_handler_us)
    m = {'timer_late_us': [], 'timer_irq_late_us': [], 'timer_handler_us': [], 'timer_exit_us': [], 'ipi_exit_us': [],
         'ipi_sender_busy_us': [], 'ipi_resid_us': [], 'busy_us': [], 'poll_us': []}
    after_sender = [0, 0]  # IPI wakes that ended after / before the sender's next idle entry
    busy_late = [0, 0]  # interrupts of timers that expired on a busy CPU: after / before its idle entry
    by_state = {}  # state index -> timer_exit_us values
    ipi_by_state = {}  # state index -> ipi_exit_us values
    with open(path, errors='replace') as f:
        for line in f:
            if line.startswith('#'):
                continue
            r = LINE.match(line)
            if not r:
                continue
            cpu, ev, rest = int(r.group(3)), r.group(6), r.group(7)
            ts = int(r.group(4)) * 1000000000 + int(r.group(5).ljust(9, '0')[:9])
            handler_step(handler, m, cpu, ev, ts, idle)
            if ev == 'cpu_idle':
                a = fields(rest)
                state = int(a['state'])
                if state != EXIT:
                    idle[cpu] = (state, ts)
                    if clock_off is not None and timer_due(timers, timer_cpu, cpu, ts - clock_off):
                        due[(cpu, state)] = due.get((cpu, state), 0) + 1
                    if cpu in last_exit:
                        m['busy_us'].append((ts - last_exit[cpu]) / 1000)
                    pending_timer[cpu] = []
                    pending_ipi.pop(cpu, None)
                    sender_idle.pop(cpu, None)
                    for target, (_, sender) in pending_ipi.items():
                        if sender == cpu and target not in sender_idle:
                            sender_idle[target] = ts
                elif cpu in idle:
                    state, t0 = idle.pop(cpu)
                    if state == 0:
                        m['poll_us'].append((ts - t0) / 1000)
                    for expires, now in pending_timer.get(cpu, []):
                        m['timer_late_us'].append((now - expires) / 1000)
                        m['timer_exit_us'].append((ts - expires) / 1000)
                        by_state.setdefault(state, []).append((ts - expires) / 1000)
                    if cpu in pending_ipi:
                        sent = pending_ipi.pop(cpu)[0]
                        us = (ts - sent) / 1000
                        m['ipi_exit_us'].append(us)
                        ipi_by_state.setdefault(state, []).append(us)
                        ipi_vs_sender(m, after_sender, sent, sender_idle.pop(cpu, None), ts)
                    pending_timer[cpu] = []
                    last_exit[cpu] = ts
                else:
                    last_exit[cpu] = ts
            elif ev == 'hrtimer_start':
                a = fields(rest)
                timers[a['hrtimer']] = int(a['expires'])
                timer_cpu[a['hrtimer']] = cpu
            elif ev == 'hrtimer_cancel':
                timers.pop(fields(rest).get('hrtimer'), None)
            elif ev == 'hrtimer_expire_entry':
                a = fields(rest)
                clock_off = ts - int(a['now'])
                expires = timers.pop(a.get('hrtimer'), None)
                if expires is not None:
                    m['timer_irq_late_us'].append((int(a['now']) - expires) / 1000)
                    busy_expiry(busy_late, idle.get(cpu), last_exit.get(cpu), expires + clock_off)
                if expires is not None and cpu in idle:
                    pending_timer.setdefault(cpu, []).append((expires, int(a['now'])))
            elif ev == 'ipi_send_cpu':
                target = int(fields(rest).get('cpu', '-1'))
                if target != cpu and target in idle and target not in pending_ipi:
                    pending_ipi[target] = (ts, cpu)
    m['ipi_after_sender_pct'] = first_share_pct(after_sender)
    m['timer_busy_late_pct'] = first_share_pct(busy_late)
    return m, by_state, ipi_by_state, due


def first_share_pct(pair):
    """pair[0] as a % of pair[0] + pair[1], or None when both are 0."""
    return 100.0 * pair[0] / sum(pair) if sum(pair) else None


def busy_expiry(busy_late, idle_now, last_exit, expiry):
    """An hrtimer interrupt handled now whose expiry (trace clock) found its CPU busy: count
    it in busy_late[0] when the CPU went idle before it came (idle_now: (state, entry) or
    None), else in busy_late[1]."""
    if idle_now is not None:
        if idle_now[1] > expiry and (last_exit is None or last_exit <= expiry):
            busy_late[0] += 1
    elif last_exit is None or last_exit <= expiry:
        busy_late[1] += 1


def timer_due(timers, timer_cpu, cpu, now):
    """Whether an hrtimer armed on @cpu has expired by @now (hrtimer clock) unhandled."""
    return any(e <= now for t, e in timers.items() if timer_cpu.get(t) == cpu)


def ipi_vs_sender(m, after_sender, sent, sender_idled, woke):
    """An IPI wake that ended at @woke, sent at @sent, against the sender's next idle entry."""
    if sender_idled is None or sender_idled > woke:
        after_sender[1] += 1
        return
    after_sender[0] += 1
    m['ipi_sender_busy_us'].append((sender_idled - sent) / 1000)
    m['ipi_resid_us'].append((woke - sender_idled) / 1000)


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def trace_stats(idlelab, plat, trace, row):
    """The per-CPU rows of `idlelab stats`; Return: the state names by index."""
    d = json.loads(run([idlelab, 'stats', '-p', plat, '-f', 'json', trace]))
    span = {x['key']: x['value'] for x in d['span']}
    row('span_s', '%.3f' % ((span['last_ns'] - span['first_ns']) / 1e9))
    names = {}
    for c in d['cpus']:
        row('cpu%d.periods' % c['cpu'], c['periods'])
    for st in d['states']:
        cpu = st['cpu']
        names[st['state']] = st['name']
        row('cpu%d.usage.%s' % (cpu, st['name']), st['entries'])
        row('cpu%d.time_us.%s' % (cpu, st['name']), '%.0f' % st['total_us'])
    for cpu in sorted({st['cpu'] for st in d['states']}):
        row('cpu%d.above' % cpu, sum(st['above'] for st in d['states'] if st['cpu'] == cpu))
        row('cpu%d.below' % cpu, sum(st['below'] for st in d['states'] if st['cpu'] == cpu))
        hist = {}
        for h in d['histogram']:
            if h['cpu'] == cpu:
                hist[h['from_us']] = hist.get(h['from_us'], 0) + h['entries']
        for lo in sorted(hist):
            row('cpu%d.hist.%d' % (cpu, lo), hist[lo])
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--idlelab', required=True)
    ap.add_argument('--files', required=True)
    ap.add_argument('--platform', required=True, help='where the exported platform goes')
    ap.add_argument('raw')
    a = ap.parse_args()

    guest = {}
    with open(os.path.join(a.raw, 'guest.txt')) as f:
        for line in f:
            k, _, v = line.rstrip('\n').partition(' ')
            if k == 'model':  # "model name\t: QEMU TCG CPU ..." from /proc/cpuinfo
                v = v.partition(':')[2]
            guest[k] = v.strip()
    plat = os.path.join(a.raw, 'guest.plat')
    with open(plat) as f:
        text = f.read()
    note = ('# Exported from the validation guest by scripts/vm/record-validation.sh (kernel %s, QEMU TCG,\n'
            '# scripts/vm/run-guest.sh\'s _CST); the lab side of docs/validation.md runs on it.\n'
            % guest.get('kernel', '?'))
    # Every number's source: says where it was read: the guest's sysfs and kernel config.
    origin = 'exported from the validation guest (%s under QEMU TCG, scripts/vm/record-validation.sh): ' % (
        guest.get('kernel', '?'))
    text = re.sub(r'(?m)^(\s*source: )', r'\g<1>' + origin.replace('\\', r'\\'), text)
    tmp = a.platform + '.tmp'
    with open(tmp, 'w') as f:
        f.write(note + text)
    os.replace(tmp, a.platform)

    out = sys.stdout
    out.write('# real.tsv - written by scripts/vm/record-validation.sh (validation-digest.py); do not edit.\n')
    out.write('# guest: %s, %s vCPUs, %s, %s; %s\n' % (guest.get('kernel'), guest.get('cpus'), guest.get('driver'),
                                                    guest.get('model', 'QEMU'), guest.get('clocksource', '')))
    out.write('# guest cpuidle governors: %s\n' % guest.get('governors', '?'))
    out.write('# rt-app calibration in the guest: %s ns per loop (runs used %s)\n'
              % (guest.get('rtapp_ploads_ns', '?'), guest.get('rtapp_calibration_ns', '?')))
    host = os.path.join(a.raw, 'host.txt')
    if os.path.exists(host):
        with open(host) as f:
            for line in f:
                out.write('# %s\n' % line.strip())
    # A workload that failed in the guest (guest-validate.sh: W.failed) is said, not left out.
    for w in a.files.split() + ['idle']:
        failed = os.path.join(a.raw, w + '.failed')
        if os.path.exists(failed) and not os.path.exists(os.path.join(a.raw, w + '.measure.json')):
            with open(failed) as f:
                out.write('# failed in the guest: %s: %s\n' % (w, f.read().strip()))
    table = []
    for w in a.files.split() + ['idle']:
        mj = os.path.join(a.raw, w + '.measure.json')
        if not os.path.exists(mj):
            print('validation-digest.py: no %s (the run failed?)' % mj, file=sys.stderr)
            continue
        with open(mj) as f:
            d = json.load(f)
        for r in d['runs']:
            gov, it = r['gov'], r['iter']
            values = {'workload': w, 'gov': gov, 'iter': it}
            table.append(values)
            row = values.__setitem__
            for k in ('wall_s', 'idles', 'belows', 'aboves'):
                row(k, r[k])
            for s in d['states']:
                if s['gov'] == gov and s['iter'] == it:
                    for k in ('usage', 'time_us'):
                        row('%s.%s' % (k, s['name']), s[k])
            trace = os.path.join(a.raw, '%s-%s-%d.trace' % (w, gov, it))
            if not os.path.exists(trace):
                continue
            names = trace_stats(a.idlelab, plat, trace, row)
            gaps, by_state, ipi_by_state, due = trace_gaps(trace)
            for (cpu, idx), n in sorted(due.items()):
                row('cpu%d.due.%s' % (cpu, names.get(idx, str(idx))), n)
            for idx in sorted(by_state):
                gaps['timer_exit_us.' + names.get(idx, str(idx))] = by_state[idx]
            for idx in sorted(ipi_by_state):
                gaps['ipi_exit_us.' + names.get(idx, str(idx))] = ipi_by_state[idx]
            for k in ('ipi_after_sender_pct', 'timer_busy_late_pct'):
                share = gaps.pop(k)
                if share is not None:
                    row(k, '%.1f' % share)
            for k, v in gaps.items():
                row(k + '.n', len(v))
                for p in (10, 50, 90) if k in MEAN_COLUMNS else (50, 90):
                    x = pct(v, p)
                    if x is not None:
                        row('%s.p%d' % (k, p), '%.0f' % x)
                if k in MEAN_COLUMNS and v:
                    row(k + '.mean', '%.0f' % (sum(v) / len(v)))
    fixed = ['workload', 'gov', 'iter']
    names = fixed + sorted({k for v in table for k in v} - set(fixed), key=column_order)
    out.write('\t'.join(names) + '\n')
    for v in table:
        out.write('\t'.join(str(v.get(k, '')) for k in names) + '\n')


def column_order(name):
    """Totals first, then per CPU, histogram buckets in numeric order."""
    parts = name.split('.')
    return (name.startswith('cpu'), [(0, int(x), '') if x.isdigit() else (1, 0, x) for x in parts])


if __name__ == '__main__':
    main()
