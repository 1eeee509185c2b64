#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Transcribe the seeds' measurements into tests/fidelity/seeds.tsv.

Usage: transcribe.py SEEDS_DIR > tests/fidelity/seeds.tsv

Reads the linux-pm threads in SEEDS_DIR (the project's shared seeds, 000_ ... 003_) and
writes one line per number the seeds report, with its file and line. The tables with a
fixed layout (Loehle's fio/Joules tables, Aboorva's wakeup tables) are parsed at the line
numbers given below; the figures in prose (Doug Smythies' results, the cover letter's
interrupt rates) are listed by hand with their line. Every transcribed number is checked
to occur on its line, so a typo fails here rather than in the scoreboard.

Left out on purpose: the second copy of Doug's Feb-2025 report (seeds/000 lines 1287-1411 repeat
lines 981-1105: the thread carries it twice), and the per-CPU breakdowns and histograms of
seeds/003 (lines 1339-1400): they add up to the per-state summaries that are transcribed,
and the lab's CPUs are not Doug's CPUs.
"""
import glob
import os
import sys

SEEDS = sys.argv[1] if len(sys.argv) > 1 else "../shared/seeds"
FILES = {os.path.basename(p)[:3]: p for p in glob.glob(os.path.join(SEEDS, "0*.txt"))}
LINES = {k: open(p, encoding="utf-8").read().split("\n") for k, p in FILES.items()}

# The battery's fio specs (idlelab battery --list): the rk3588 request structure.
FIO = {
    "nvme0n1": "fio:device=nvme,lat_us=48,irq_remote_pct=85,irq_work_ns=3000",
    "sda": "fio:device=sda,lat_us=200,hops=1,hop_cpus=0,irq_extra=16",
    "mmcblk1": "fio:device=mmcblk,lat_us=700,irq_remote_pct=0,irq_extra=8,irq_extra_us=150,hops=2,hop_cpus=0",
    "mmcblk2": "fio:device=mmcblk,lat_us=700,irq_remote_pct=0,irq_extra=8,irq_extra_us=150,hops=2,hop_cpus=0",
    "nullb0": "fio:device=nullb",
    "mtdblock3": "fio:device=mtdblock",
    "mapper/dm-slow": "fio:device=dm-slow",
}
# rk3399's dm-slow row runs 24 jobs. The thread gives the command once, for rk3588 ("(8 CPUs)",
# --numjobs=16, dm-delay 51 ms: seeds/000 lines 304-305), where 16 jobs at 307 iops is one
# request per job every 52 ms (13 ticks at HZ 250; docs/lab.md, "dm-delay's timer path").
# rk3399 has 461 iops on 34 of its 35 runs and 460 on one. fio --minimal prints
# 1000 * requests / runtime in ms, truncated (fio's stat.c, its terse output): 24 jobs on
# the same 52 ms cycle complete 576 or 577 cycles in 30 s, 460.8 or 461.6 iops, so 460 and
# 461. With 16 jobs 461 iops is a 34.7 ms cycle, shorter than the 51 ms delay itself. The
# job count is inferred, not stated (docs/lab.md, "rk3399's dm-slow: 24 jobs").
# rk3399's SD card (mmcblk1) and eMMC (mmcblk2) are not rk3588's card: their rows run the
# request structure fitted, as rk3588's was, to their own teo and menu-5 rows (docs/lab.md,
# "rk3399's mmc rows: their own cards"). lat_us fits teo's iops (2023 and 5719); the hand-overs
# stay on one CPU (hop_cpus=1), the only structure in which menu-5 is as fast as teo (0.99 and
# 0.94 of its iops; on any CPU the lab's menu-5 has 0.41-0.51) with menu-5's few too-deep
# periods (196 per second on mmcblk1); irq_extra fits teo's idle periods per request (9.2 and
# 4.9). mmcblk1 keeps rk3588's dw_mmc stages (hops=2, 150 us transfer window), mmcblk2,
# sdhci's threaded interrupt, one (hops=1). menu-6.13 and menu-1..4 are the check.
FIO_PLATFORM = {
    ("rk3399", "mapper/dm-slow"): "fio:device=dm-slow,jobs=24",
    ("rk3399", "mmcblk1"): "fio:device=mmcblk,lat_us=420,irq_remote_pct=0,irq_extra=3,irq_extra_us=150,hops=2,hop_cpus=1",
    ("rk3399", "mmcblk2"): "fio:device=mmcblk,lat_us=116,irq_remote_pct=0,irq_extra=1,hops=1,hop_cpus=1",
}
# Loehle's labels (seeds/000 line 812ff: "menu-X is menu with patches [1-X/5]", "-m is just
# mainline", on 6.14-rc1): menu and menu-m are 6.14-rc1's menu (menu-6.13 = 6.12 = 6.14),
# teo 6.14-rc1's teo.
LOEHLE_GOV = {"menu": "menu-6.13", "menu-m": "menu-6.13", "teo": "teo-6.14",
              "menu-1": "menu-1", "menu-2": "menu-2", "menu-3": "menu-3", "menu-4": "menu-4",
              "menu-5": "menu-5"}
LOEHLE_COLS = ["score", "idles", "idle_misses", "idle_miss_ratio", "col_belows", "col_aboves"]
NOTE_COUNTERS = "col_belows is the kernel's above counter (too deep), col_aboves its below (docs/lab.md)"

out = []
HEADER = ("group", "source", "platform", "scenario", "gov", "seeds_label", "iter", "metric",
          "value", "seed_s", "lab_s", "magnitude")


def emit(group, src, plat, scn, gov, label, it, metric, value, seed_s, lab_s, magnitude="yes"):
    f, line = src
    text = LINES[f][line - 1]
    if str(value) not in text.replace(",", "") and metric.split("@")[0] not in ("throughput_rel",):
        sys.exit("transcribe: %s not on %s:%d: %r" % (value, f, line, text))
    out.append((group, "seeds/%s:%d" % (f, line), plat, scn, gov, label, str(it), metric,
                str(value), str(seed_s), str(lab_s), magnitude))


def loehle_table(f, first, last, plat, seed_s, lab_s, device=None, metric0="score",
                 magnitude="yes"):
    """Rows 'device gov iter v1 idles misses ratio belows aboves' (device optional)."""
    iters = {}
    for n in range(first, last + 1):
        cells = LINES[f][n - 1].split()
        if not cells:
            continue
        dev = device
        if device is None:
            dev, cells = cells[0], cells[1:]
        label, it = cells[0], cells[1]
        key = (dev, label)
        # a second block of the same device and label continues the iterations
        k = iters.get(key, -1) + 1
        if int(it) != k % 5 and int(it) != k:
            k = int(it)
        iters[key] = k
        group = "%s/%s" % (plat, dev.replace("mapper/", ""))
        scn = FIO_PLATFORM.get((plat, dev), FIO.get(dev, ""))
        if device is not None:
            scn = device
        gov = LOEHLE_GOV[label]
        for col, v in zip(LOEHLE_COLS, cells[2:8]):
            if col == "idle_miss_ratio":
                continue  # derived: idle_misses / idles
            metric = metric0 if col == "score" else col
            emit(group, (f, n), plat, scn, gov, label, k, metric, v, seed_s, lab_s, magnitude)


# seeds/000: rk3588 "full dump", 6.14-rc1, fio 30 s per run, 8 CPUs.
loehle_table("000", 310, 504, "rk3588", 30, 10)
# seeds/000: rk3399 (Feb 18), 6 CPUs, 30 s.
loehle_table("000", 2706, 2877, "rk3399", 30, 10)
# seeds/000: x86 idle (Feb 18), no header and no run length: the third column is Joules as
# in the playback table below it; only directions can be compared.
loehle_table("000", 2656, 2700, "i5-10600k", "-", 10, device="idle", metric0="joules",
             magnitude="no: neither the run length nor the machine of Loehle's x86 idle dump is given")
# seeds/000: firefox 4K playback, 10 min, x86 (machine not named): two blocks of menu and menu-5.
loehle_table("000", 2880, 2899, "i5-10600k", 600, 10, device="video",
             metric0="joules",
             magnitude="no: Loehle's x86 machine is not named; the i5-10600k stands in")

# seeds/001: Aboorva's cpuidle_wakeup on pseries: Above % and Below % tables, pipe and timer.
ABOORVA = ["menu-6.13", "menu-5", "teo-6.14"]
ABOORVA_LABEL = ["Menu No Patch", "Menu Patch", "Teo No Patch"]
# The test LPAR's housekeeping (docs/lab.md, "The pseries LPAR's background"): the background
# without its work chains and companion timers, the low ends of their ranges, which the
# counting sources support (lib/scenario/background.c), at a rate fitted to teo-6.14's mean
# Above % and Below % on the 150-500 us pipe rows (the seeds: 0.194 and 0.116; the lab at 15:
# 0.180 and 0.107, at 10: 0.117 and 0.073, at 20: 0.239 and 0.142). It gives an idle pseries
# 6.5 idle periods per second per CPU, near powertop's quiet servers (10) and the 6.18 guest (12).
ABOORVA_BG = "background=1,bg_rate_pct=15,bg_burst_pct=0,bg_pair_pct=0"


def aboorva(first, last, mode, metric):
    for n in range(first, last + 1):
        cells = [c.strip() for c in LINES["001"][n - 1].split("->")[0].strip("> ").split("|") if c.strip()]
        if len(cells) != 4 or not cells[0].isdigit():
            continue
        us = int(cells[0])
        for gov, label, v in zip(ABOORVA, ABOORVA_LABEL, cells[1:]):
            emit("pseries/wakeup-%s-%dus" % (mode, us), ("001", n), "pseries",
                 "wakeup:mode=%s,interval_us=%d,%s" % (mode, us, ABOORVA_BG), gov, label, "-",
                 metric, v.rstrip("%"), "-", 1)


aboorva(118, 130, "pipe", "above_pct")
aboorva(137, 147, "pipe", "below_pct")
aboorva(154, 164, "timer", "above_pct")
aboorva(171, 181, "timer", "below_pct")

# seeds/002: Doug Smythies, 6.17-rc1 against rc3 (779b1a1cb13a), i5-10600K, menu, the
# 2-CPU ping-pong where POLL is used a lot: "about a 11 % throughput regression", "idle
# state 0, polling, usage going from 20% to 0%". rc1's menu is menu-6.16, rc3's menu-6.17.
# Throughput is loops per second: rc3's loop time is 1/(1 - 0.11) = 1.12 of rc1's.
# The lab runs the ring for 10 s: Doug sampled every 20 s over a test of minutes (seeds/002
# line 50), and a 1 s ring still wanders between its POLL and C1 modes from seed to seed.
P = "pingpong"
RING_S = 10
out.append(("i5-10600k/pingpong-6.17", "seeds/002:37", "i5-10600k", P, "menu-6.16", "6.17-rc1",
            "-", "throughput_rel", "1", "-", str(RING_S), "yes"))
out.append(("i5-10600k/pingpong-6.17", "seeds/002:37", "i5-10600k", P, "menu-6.17", "6.17-rc3",
            "-", "throughput_rel", "0.89", "-", str(RING_S), "yes"))
emit("i5-10600k/pingpong-6.17", ("002", 38), "i5-10600k", P, "menu-6.16", "6.17-rc1", "-",
     "poll_pct", 20, "-", RING_S)
emit("i5-10600k/pingpong-6.17", ("002", 38), "i5-10600k", P, "menu-6.17", "6.17-rc3", "-",
     "poll_pct", 0, "-", RING_S)

# seeds/000 Doug Smythies Feb 14 2025, i5-10600K: test 1 idle power, the 2-CPU fast and
# medium dwell points, adrestia, and the Feb 16 corrections. teo-613/menu-613: 6.13;
# teo-614/menu-614: 6.14-rc1; menu-614-p: menu with the series (menu-5). teo-614-p (the
# dropped "Avoid selecting deepest idle state over-eagerly") has no preset.
DOUG = {"teo-613": "teo-6.13", "menu-613": "menu-6.13", "teo-614": "teo-6.14",
        "teo-614-2": "teo-6.14", "menu-614": "menu-6.13", "menu-614-p": "menu-5"}
# menu did not change between 6.13 and 6.14-rc1: menu-613 and menu-614 are both menu-6.13
for n, label, v in [(981, "teo-613", "1.752"), (982, "menu-613", "1.909"),
                    (984, "teo-614-2", "2.112"), (985, "menu-614", "1.873"),
                    (987, "menu-614-p", "1.820")]:
    emit("i5-10600k/idle-2025", ("000", n), "i5-10600k", "idle", DOUG[label], label, "-",
         "watts", v, "-", 30,
         "no: Doug's watts are the package's (RAPL), the model's the idle states' power sum")
out.append(("i5-10600k/idle-2025", "seeds/000:986", "i5-10600k", "idle", "-", "teo-614-p",
            "-", "watts", "9.401", "-", "30", "no: the dropped teo-614-p patch has no preset"))
for n, label, v in [(1012, "teo-613", "3.826"), (1013, "menu-613", "4.159"),
                    (1014, "teo-614", "3.751"), (1015, "menu-614", "4.076"),
                    (1016, "menu-614-p", "4.178")]:
    emit("i5-10600k/pingpong-fast-dwell", ("000", n), "i5-10600k", P, DOUG[label], label,
         "-", "score", v, "-", RING_S)
for n, label, v in [(1024, "teo-613", "12.241"), (1025, "menu-613", "12.251"),
                    (1026, "teo-614", "12.121"), (1027, "menu-614", "12.123"),
                    (1028, "menu-614-p", "12.236")]:
    emit("i5-10600k/pingpong-medium-dwell", ("000", n), "i5-10600k", P + ":work_us=8",
         DOUG[label], label, "-", "score", v, "-", 1,
         "no: the medium dwell's work per stop is not given (work_us=8 assumed)")
for n, label, v in [(1146, "teo-613", "3331"), (1147, "teo-614", "3375"),
                    (1148, "menu-613", "3207"), (1149, "menu-614", "3315"),
                    (1150, "menu-614-p", "3353")]:
    emit("i5-10600k/adrestia", ("000", n), "i5-10600k", "adrestia", DOUG[label], label, "-",
         "score", v, "-", 2,
         "no: adrestia's wakeup cost includes the scheduler path the model does not have")
# Feb 16: the 6-core dwell (corrected, lines 2341-2342) and its power (lines 1066-1067)
for n, label, v in [(2341, "teo-613", "20.55809"), (2342, "teo-614", "21.34068")]:
    emit("i5-10600k/pingpong6-dwell", ("000", n), "i5-10600k", P + ":cpus=6,work_us=10",
         DOUG[label], label, "-", "score", v, "-", 1,
         "no: the dwell point's work per stop is not given (work_us=10 assumed)")
for n, label, v in [(1066, "teo-613", "37.17577"), (1067, "teo-614", "38.06375")]:
    emit("i5-10600k/pingpong6-dwell", ("000", n), "i5-10600k", P + ":cpus=6,work_us=10",
         DOUG[label], label, "-", "watts", v, "-", 1,
         "no: package power (RAPL) against the model's idle-state power")
for n, label, v in [(2355, "menu-614", "807.896"), (2355, "menu-614-p", "772.376")]:
    emit("i5-10600k/pingpong6-dwell2", ("000", n), "i5-10600k", P + ":cpus=6,work_us=800",
         DOUG[label], label, "-", "score", v, "-", 1,
         "no: the dwell point's work per stop is not given (work_us=800 assumed)")
for n, label, v in [(2364, "menu-614", "28.056"), (2365, "menu-614-p", "28.863")]:
    emit("i5-10600k/pingpong6-dwell2", ("000", n), "i5-10600k", P + ":cpus=6,work_us=800",
         DOUG[label], label, "-", "watts", v, "-", 1,
         "no: package power (RAPL) against the model's idle-state power")
for n, label, v in [(2437, "menu-614", "8722.787"), (2438, "menu-614-p", "8683.387")]:
    emit("i5-10600k/ebizzy", ("000", n), "i5-10600k", "ebizzy", DOUG[label], label, "-",
         "score", v, "-", 1, "no: the dwell point's sleep interval is not given")

# seeds/000, tests 2-4: Doug's ping-pong sweeps, as statistics of each governor's loop time
# relative to teo-613 over a range of result indices ("negative is better"). The sweep's
# work per stop at each index is not given (only that it varies), so the lab cannot run
# them: shown, not computed. teo-614-p (the dropped patch) has no preset.
SWEEP = {"menu-613": "menu-6.13", "teo-614": "teo-6.14", "menu-614": "menu-6.13",
         "menu-614-p": "menu-5", "teo-614-p": "-"}
STAT = {"average": "sweep_avg_pct", "ave": "sweep_avg_pct", "max": "sweep_max_pct",
        "min": "sweep_min_pct"}
for group, scn, head, what in [
        ("i5-10600k/pingpong-sweep", P, 1003, "the 2-CPU sweep"),
        ("i5-10600k/pingpong6-sweep", P + ":cpus=6", 1055, "results 1-95 of the 6-CPU sweep"),
        ("i5-10600k/pingpong12-sweep", P + ":cpus=12", 1095, "results 1-60 of the 12-CPU sweep"),
        ("i5-10600k/pingpong12-sweep-late", P + ":cpus=12", 1102,
         "results 170-300 of the 12-CPU sweep")]:
    labels = LINES["000"][head - 1].split()
    for n in range(head + 1, head + 4):
        cells = LINES["000"][n - 1].split()
        for label, v in zip(labels, cells[1:]):
            why = ("no: %s, relative to teo-613: its work per stop at each point is not given"
                   % what)
            if SWEEP[label] == "-":
                why = "no: the dropped teo-614-p patch has no preset"
            emit(group, ("000", n), "i5-10600k", scn, SWEEP[label], label, "-",
                 STAT[cells[0]], v.rstrip("%"), "-", 1, why)

V2V3 = "no preset of the March-2018 series' v2/v3"

# seeds/003 lines 1051-1055: Mike Galbraith's package watts of a 5-minute video (three runs
# each) on 4.16 (menu-4.16), with v2, with v3 and with his own patches. His machine is not
# named; the video scenario on skx stands in, as for the 2018 idle figures.
for n, label, gov, why in [
        (1052, "virgin", "menu-4.16", "Mike Galbraith's machine is not named; package power (RAPL) against the model's idle-state power"),
        (1053, "+v2", "-", V2V3),
        (1054, "+v3", "-", V2V3),
        (1055, "+my patches", "-", "Mike Galbraith's local patches are not published")]:
    for it, v in enumerate(LINES["003"][n - 1].split()[1:4]):
        emit("2018/video-mike", ("003", n), "skx", "video", gov, label, it, "watts", v, "-", 30,
             "no: " + why)

# seeds/003: Doug Smythies, March 2018, 1 hour idle and 4 hours with one CPU 100 % busy, on
# his i7-2600K server (8 CPUs, 5 states; not a lab platform: skx stands in, as in the
# findings). 4.16-rc4 is menu-4.16; V2 and V3 of the series have no preset.
for block, scn, seed_s, lab_s in [((1118, 1121, "V2", "-"), "idle", 3600, 30),
                                  ((1124, 1127, "V3", "-"), "idle", 3600, 30),
                                  ((1130, 1133, "4.16-rc4", "menu-4.16"), "idle", 3600, 30),
                                  ((1136, 1139, "V3", "-"), "idle-busy", 14400, 30),
                                  ((1141, 1144, "4.16-rc4", "menu-4.16"), "idle-busy", 14400, 30)]:
    first, last, label, gov = block
    for n in range(first, last + 1):
        c = LINES["003"][n - 1].replace(":", " ").split()
        st = int(c[2])
        mag = "no: Doug's i7-2600K is not a lab platform (skx stands in)" if gov != "-" else "no: " + V2V3
        emit("2018/%s" % scn, ("003", n), "skx", scn, gov, label, "-", "usage_state%d" % st,
             c[5], seed_s, lab_s, mag)
        emit("2018/%s" % scn, ("003", n), "skx", scn, gov, label, "-", "pn_count_state%d" % st,
             c[7], seed_s, lab_s, mag)
        emit("2018/%s" % scn, ("003", n), "skx", scn, gov, label, "-", "pn_s_state%d" % st,
             c[15], seed_s, lab_s, mag)
for n, label, gov, scn, v in [(1123, "V3", "-", "idle", "3.78"),
                              (1128, "4.16-rc4", "menu-4.16", "idle", "3.70"),
                              (1135, "V3", "-", "idle-busy", "26.75"),
                              (1140, "4.16-rc4", "menu-4.16", "idle-busy", "27.41")]:
    emit("2018/%s" % scn, ("003", n), "skx", scn, gov, label, "-", "watts", v, "-", 30,
         "no: " + V2V3 if gov == "-" else "no: package power of an i7-2600K against skx's model")

# seeds/000 cover letter (Rafael, Feb 6 2025, lines 14-16): after commit 0611a640e60a the
# total interrupt rate of SPECjbb fell by 55 % and the local timer rate by almost 80 %;
# critical-jOPS fell by about 50 % with menu, not with teo; the series restores it and
# raises max-jOPS by about 3 %. The jbb scenario's timer_pct=100 is before, 20 after.
J = "i5-10600k/jbb-interrupts"
# The lab compares the run at timer_pct=20 with the same governor at timer_pct=100.
emit(J, ("000", 16), "i5-10600k", "jbb:timer_pct=20", "menu-6.13", "after 0611a640e60a", "-",
     "irq_fall_pct@jbb:timer_pct=100", 55, "-", 2)
emit(J, ("000", 17), "i5-10600k", "jbb:timer_pct=20", "menu-6.13", "after 0611a640e60a", "-",
     "timer_fall_pct", 80, "-", 2, "no: timer_pct=20 is the input that models this fall")
emit("i5-10600k/jbb-critical", ("000", 13), "i5-10600k", "jbb:timer_pct=20", "menu-6.13",
     "after 0611a640e60a", "-", "jops_fall_pct@jbb:timer_pct=100", 50, "-", 2,
     "no: critical-jOPS is a throughput under a response-time limit; the model has the mean response time")

w = sys.stdout.write
w("# The seeds' measurements, one number per line (tests/fidelity/transcribe.py wrote this\n")
w("# from /work/shared/seeds; docs/lab.md \"Fidelity scoreboard\" describes the columns).\n")
w("# " + NOTE_COUNTERS + ".\n")
w("\t".join(HEADER) + "\n")
for r in out:
    w("\t".join(r) + "\n")
