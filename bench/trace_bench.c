// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_bench.c - `idlelab stats` and `replay` throughput on large traces, printed as
 * "name value" lines (`make bench`).
 *
 *  1. Build two big traces from a real fixture by replicating its lines with shifted
 *     timestamps (and shifted hrtimer expires/now, so that replay sees consistent timers):
 *     "mixed", every event of the fixture, at least 200 MB; and "idle", its cpu_idle lines
 *     only. Both carry an idlestat header (the VM's haltpoll states), so that idlestat 0.8
 *     (`idlestat --import -f FILE`) can read them too.
 *     The fixture is shared/traces/vm-haltpoll's ping-pong trace beside the repository,
 *     else tests/fixtures/traces/vm.trace.
 *  2. stats in this process: MB/s, lines/s, idle events/s (per CPU second) through the
 *     reader and the statistics.
 *  3. `idlelab stats` and, when installed, `idlestat --import` as child processes, run
 *     round-robin and best of 5 by CPU time (user + system; the machine may be shared): the
 *     speedups against the goal (2x on both traces), the peak RSS of idlelab on a 1x and an
 *     Nx trace through /usr/bin/time (flat memory: the difference stays near zero), and
 *     whether idlestat's per-state "hits" equal our entries. The idle-only trace has no
 *     cpu_idle_miss lines: idlestat 0.8 reads each of them as one more POLL entry, so on the
 *     mixed trace its state-0 hits exceed our entries by exactly the cpu_idle_miss lines.
 *  4. replay: reading the mixed trace and rebuilding every period's inputs (periods/s), then
 *     each governor alone over the rebuilt periods (il_replay_run_period(), periods/s, best
 *     of 3 by CPU time), and whether the slowest reaches the goal of 2 M periods/s.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gov/governors.h"
#include "platform/platform.h"
#include "replay/replay.h"
#include "stats/stats.h"
#include "trace/trace.h"
#include "util/array.h"

#define MIN_MIXED_BYTES (200ULL * 1000 * 1000)
#define SHARED_FIXTURE "../shared/traces/vm-haltpoll/menu_pipe-pingpong_cpu0-cpu1_1s-window.trace.xz"
#define LOCAL_FIXTURE "tests/fixtures/traces/vm.trace"
#define MAX_LINE 4096

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- building the big traces --------------------------------------------------------------- */

struct fixture {
	char **lines;
	size_t n, cap;
	u64 first_ns, last_ns;
};

static FILE *open_fixture(const char **name, bool *piped)
{
	if (access(SHARED_FIXTURE, R_OK) == 0) {
		FILE *f = popen("xz -dc " SHARED_FIXTURE, "r");

		if (f) {
			*name = SHARED_FIXTURE;
			*piped = true;
			return f;
		}
	}
	*name = LOCAL_FIXTURE;
	*piped = false;
	return fopen(LOCAL_FIXTURE, "r");
}

/* The "SEC.USEC:" timestamp of a line: where it starts and its value. */
static char *find_ts(char *line, u64 *ns)
{
	for (char *c = strchr(line, ':'); c; c = strchr(c + 1, ':')) {
		char *s = c, *dot = NULL;

		while (s > line && (s[-1] == '.' || (s[-1] >= '0' && s[-1] <= '9'))) {
			if (s[-1] == '.')
				dot = s - 1;
			s--;
		}
		if (dot && s < dot && c - dot == 7 && (s == line || s[-1] == ' ')) {
			*ns = strtoull(s, NULL, 10) * 1000000000ULL + strtoull(dot + 1, NULL, 10) * 1000;
			return s;
		}
	}
	return NULL;
}

static int load_fixture(struct fixture *fx, const char **name)
{
	char buf[MAX_LINE];
	bool piped;
	FILE *f = open_fixture(name, &piped);

	if (!f)
		return -1;
	memset(fx, 0, sizeof(*fx));
	while (fgets(buf, sizeof(buf), f)) {
		u64 ns;

		if (buf[0] == '#' || !find_ts(buf, &ns))
			continue;
		if (fx->n == fx->cap) {
			fx->cap = fx->cap ? fx->cap * 2 : 4096;
			fx->lines = realloc(fx->lines, fx->cap * sizeof(*fx->lines));
			if (!fx->lines)
				return -1;
		}
		fx->lines[fx->n++] = strdup(buf);
		if (!fx->first_ns)
			fx->first_ns = ns;
		fx->last_ns = ns;
	}
	if (piped)
		pclose(f);
	else
		fclose(f);
	return fx->n ? 0 : -1;
}

static void write_idlestat_header(FILE *out)
{
	fprintf(out, "idlestat version = 0.8\ncpus=2\nclusterA:\n\tcore0\n\t\tcpu0\n\tcore1\n\t\tcpu1\n");
	for (int cpu = 0; cpu < 2; cpu++) {
		fprintf(out, "cpuid %d:\n\tPOLL\n\t0\n\thaltpoll\n\t1\n", cpu);
		for (int i = 2; i < 16; i++)
			fprintf(out, "\t(null)\n\t-1\n");
	}
}

/* Copy @line with its timestamp and every "expires=/softexpires=/now=" ns value (> 1e9) moved. */
static void write_shifted(FILE *out, const char *line, u64 shift_ns)
{
	char buf[MAX_LINE];
	u64 ts;
	char *s, *colon;

	snprintf(buf, sizeof(buf), "%s", line);
	s = find_ts(buf, &ts);
	colon = strchr(s, ':');
	fwrite(buf, 1, (size_t)(s - buf), out);
	ts += shift_ns;
	fprintf(out, "%llu.%06llu", (unsigned long long)(ts / 1000000000ULL),
		(unsigned long long)(ts % 1000000000ULL / 1000));
	for (char *p = colon; *p;) {
		char *eq = strchr(p, '=');
		u64 v;
		char *end;

		if (!eq) {
			fputs(p, out);
			break;
		}
		fwrite(p, 1, (size_t)(eq + 1 - p), out);
		v = strtoull(eq + 1, &end, 10);
		if (end > eq + 1 && v > 1000000000ULL && (!strncmp(eq - 7, "expires", 7) || !strncmp(eq - 3, "now", 3)) &&
		    v > 100000000000ULL)
			fprintf(out, "%llu", (unsigned long long)(v + shift_ns));
		else
			fwrite(eq + 1, 1, (size_t)(end - eq - 1), out);
		p = end;
	}
}

/* @copies replicas of the fixture (idle lines only if @idle_only) into @path. */
static int build(const struct fixture *fx, const char *path, int copies, bool idle_only, u64 *bytes)
{
	/* Replicas follow each other with a gap, on a tick boundary (4 ms). */
	u64 period = (fx->last_ns - fx->first_ns + 8000000ULL) / 4000000ULL * 4000000ULL;
	FILE *out = fopen(path, "w");

	if (!out)
		return -1;
	write_idlestat_header(out);
	for (int k = 0; k < copies; k++)
		for (size_t i = 0; i < fx->n; i++)
			if (!idle_only || strstr(fx->lines[i], ": cpu_idle:"))
				write_shifted(out, fx->lines[i], (u64)k * period);
	*bytes = (u64)ftell(out);
	return fclose(out);
}

/* ---- idlelab stats ------------------------------------------------------------------------ */

struct stats_run {
	double wall_s, cpu_s;
	u64 lines, idle_events, entries[4];
};

static int run_stats(const char *path, struct stats_run *r)
{
	struct il_stats_cfg cfg;
	struct il_trace_event ev;
	struct il_stats *s;
	struct il_trace *t;
	double w0 = now_s(), c0 = cpu_s();

	memset(r, 0, sizeof(*r));
	t = il_trace_open(path, NULL, NULL);
	if (!t)
		return -1;
	il_trace_set_events(t, IL_STATS_EVENTS);
	il_stats_default_cfg(&cfg);
	s = il_stats_new(&cfg);
	while (il_trace_next(t, &ev) == 1)
		il_stats_event(s, &ev);
	il_stats_finish(s);
	r->wall_s = now_s() - w0;
	r->cpu_s = cpu_s() - c0;
	r->lines = il_trace_counts(t)->lines;
	r->idle_events = il_trace_counts(t)->events[IL_EV_CPU_IDLE];
	for (int st = 0; st < 4 && il_stats_ncpus(s); st++)
		r->entries[st] = il_stats_cpu(s, 0)->st[st].entries;
	il_stats_free(s);
	il_trace_close(t);
	return 0;
}

/* Rates are per CPU second: on a shared machine the wall time says more about the others. */
static void print_stats(const char *name, const struct stats_run *r, u64 bytes)
{
	printf("stats_%s_bytes %llu\n", name, (unsigned long long)bytes);
	printf("stats_%s_s %.3f\n", name, r->wall_s);
	printf("stats_%s_cpu_s %.3f\n", name, r->cpu_s);
	printf("stats_%s_mb_per_s %.1f\n", name, (double)bytes / 1e6 / r->cpu_s);
	printf("stats_%s_lines_per_s %.0f\n", name, (double)r->lines / r->cpu_s);
	printf("stats_%s_idle_events_per_s %.0f\n", name, (double)r->idle_events / r->cpu_s);
}

/* ---- child processes: idlelab stats and idlestat, interleaved, best of RUNS -------------- */

#define RUNS 5

struct child_run {
	double cpu_s;   /* user + system */
	double wall_s;
	long rss_kb;
};

/* One command measured as a child process: where its output goes and its best run. */
struct child {
	char *argv[8];
	const char *out;
	struct child_run best; /* the run with the least CPU time */
	int runs;
	bool failed;           /* a run exited with an error: the command is not usable */
	u64 hits[2];           /* idlestat: CPU 0's hits of states 0 and 1 */
};

/*
 * Run @argv with stdout and stderr into @out; Return: 0 if it exited with 0. posix_spawn()
 * (vfork-like) so that the child's peak RSS is its own, not this process's.
 */
static int run_child(char *const argv[], const char *out, struct child_run *r)
{
	posix_spawn_file_actions_t fa;
	struct rusage ru;
	double w0 = now_s();
	int status, err;
	pid_t pid;

	if (posix_spawn_file_actions_init(&fa))
		return -1;
	posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err || wait4(pid, &status, 0, &ru) < 0)
		return -1;
	r->wall_s = now_s() - w0;
	r->cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		   (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	r->rss_kb = ru.ru_maxrss;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* One more run of @c; keeps the best. Return: 0, or -1 if the command failed. */
static int run_again(struct child *c)
{
	struct child_run r;

	if (run_child(c->argv, c->out, &r))
		return -1;
	if (!c->runs++ || r.cpu_s < c->best.cpu_s)
		c->best = r;
	return 0;
}

/*
 * Run every child RUNS times, round-robin: the machine may be shared, and interleaving
 * gives each command the same share of whatever else runs meanwhile. A command that fails
 * (idlestat not installed) is marked and not run again.
 */
static void run_interleaved(struct child *const *c, int n)
{
	for (int run = 0; run < RUNS; run++)
		for (int i = 0; i < n; i++)
			if (!c[i]->failed && run_again(c[i]))
				c[i]->failed = true;
}

/*
 * CPU 0's state rows of idlestat's report, in state order:
 * "|          |   17us |   44us |   29us |   2.03ms |    70 |     0 |    70 |".
 */
static void parse_idlestat(struct child *c)
{
	FILE *f = fopen(c->out, "r");
	char line[512];
	int state = 0;
	bool cpu0 = false;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long hits;

		if (strstr(line, " cpu0 "))
			cpu0 = true;
		else if (strstr(line, " cpu1 ") || strstr(line, "P-state"))
			cpu0 = false;
		if (cpu0 && state < 2 &&
		    sscanf(line, "|%*[^|]|%*[^|]|%*[^|]|%*[^|]|%*[^|]| %llu |", &hits) == 1)
			c->hits[state++] = hits;
	}
	fclose(f);
}

/*
 * The peak RSS of @cmd, through GNU time: a spawned child's own ru_maxrss also counts the
 * memory of this process at the moment of its exec; time's child does not.
 * Return: KiB, or -1 without /usr/bin/time.
 */
static long rss_kb(char *const cmd[])
{
	char *argv[16] = { "/usr/bin/time", "-f", "%M", "-o", "/tmp/idlelab-bench-rss.out" };
	struct child_run r;
	long kb = -1;
	FILE *f;
	int n = 5;

	for (int i = 0; cmd[i] && n < 15; i++)
		argv[n++] = cmd[i];
	argv[n] = NULL;
	if (access(argv[0], X_OK) || run_child(argv, "/dev/null", &r))
		return -1;
	f = fopen("/tmp/idlelab-bench-rss.out", "r");
	if (f && fscanf(f, "%ld", &kb) != 1)
		kb = -1;
	if (f)
		fclose(f);
	unlink("/tmp/idlelab-bench-rss.out");
	return kb;
}

static void idlelab_child(struct child *c, const char *idlelab, char *trace, const char *out)
{
	char *const argv[] = { (char *)idlelab, "stats", "-p", "haltpoll-vm", "-f", "csv", trace, NULL };

	memset(c, 0, sizeof(*c));
	memcpy(c->argv, argv, sizeof(argv));
	c->out = out;
}

static void idlestat_child(struct child *c, char *trace, const char *out)
{
	char *const argv[] = { "idlestat", "--import", "-f", trace, NULL };

	memset(c, 0, sizeof(*c));
	memcpy(c->argv, argv, sizeof(argv));
	c->out = out;
}

/* The idlelab binary next to this one: $(O)/bench/trace_bench -> $(O)/idlelab. */
static const char *idlelab_path(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 16);
	char *slash;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	strcpy(slash, "/idlelab");
	return access(buf, X_OK) == 0 ? buf : NULL;
}

/* ---- replay ------------------------------------------------------------------------------- */

struct periods {
	struct il_replay_inputs *in;
	size_t n, cap;
};

static void keep_period(void *ctx, const struct il_replay_inputs *in, const int *picks,
			const bool *stops)
{
	struct periods *p = ctx;

	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 65536;
		p->in = realloc(p->in, p->cap * sizeof(*p->in));
		if (!p->in)
			abort();
	}
	p->in[p->n++] = *in;
}

static struct il_replay *new_replay(const struct il_platform *plat, const char *gov)
{
	struct il_replay_cfg cfg = { .plat = plat, .cpu = -1 };
	struct il_error err;

	if (gov) {
		cfg.presets[0] = il_preset_find(gov);
		cfg.ngov = 1;
	}
	return il_replay_new(&cfg, &err);
}

/* Pass 1: read the trace and rebuild the inputs of every period; CPU seconds. */
static double rebuild_inputs(const char *path, const struct il_platform *plat, struct periods *p)
{
	struct il_trace *t = il_trace_open(path, NULL, NULL);
	struct il_replay *r = new_replay(plat, NULL);
	struct il_trace_event ev;
	double c0 = cpu_s();

	if (!t || !r)
		return -1;
	il_trace_set_events(t, IL_REPLAY_EVENTS);
	il_replay_set_period_hook(r, keep_period, p);
	while (il_trace_next(t, &ev) == 1)
		il_replay_event(r, &ev);
	c0 = cpu_s() - c0;
	il_replay_free(r);
	il_trace_close(t);
	return c0;
}

/* Pass 2: one governor over the rebuilt periods, best of 3; CPU seconds. */
static double governor_time(const struct il_platform *plat, const char *gov, const struct periods *p)
{
	double best = -1;

	for (int run = 0; run < 3; run++) {
		struct il_replay *r = new_replay(plat, gov);
		double c0 = cpu_s();

		for (size_t i = 0; i < p->n; i++)
			il_replay_run_period(r, &p->in[i]);
		c0 = cpu_s() - c0;
		il_replay_free(r);
		if (best < 0 || c0 < best)
			best = c0;
	}
	return best;
}

/* Each governor must replay at least this many idle periods per second. */
#define REPLAY_GOAL_PERIODS_PER_S 2e6

static void bench_replay(const char *path, const struct il_platform *plat)
{
	static const char *const govs[] = { "menu-6.18", "teo-7.1", "ladder-6.13", "haltpoll-6.13",
					    "oracle" };
	struct periods p = { 0 };
	double rebuild = rebuild_inputs(path, plat, &p), slowest = -1;

	printf("replay_periods %zu\n", p.n);
	printf("replay_read_and_rebuild_cpu_s %.3f\n", rebuild);
	printf("replay_read_and_rebuild_periods_per_s %.0f\n", (double)p.n / rebuild);
	for (size_t i = 0; i < ARRAY_SIZE(govs); i++) {
		double t = governor_time(plat, govs[i], &p);
		double rate = t > 0 ? (double)p.n / t : 0.0;

		printf("replay_%s_periods_per_s %.0f\n", govs[i], rate);
		if (slowest < 0 || rate < slowest)
			slowest = rate;
	}
	printf("replay_slowest_governor_periods_per_s %.0f\n", slowest);
	printf("replay_goal_periods_per_s %.0f\n", REPLAY_GOAL_PERIODS_PER_S);
	printf("replay_goal_met %d\n", slowest >= REPLAY_GOAL_PERIODS_PER_S);
	free(p.in);
}

static void free_fixture(struct fixture *fx)
{
	for (size_t i = 0; i < fx->n; i++)
		free(fx->lines[i]);
	free(fx->lines);
}

/* idlestat's CPU time over ours must reach this on both traces. */
#define SPEEDUP_GOAL 2.0

static void compare_processes(const char *idlelab, char *mixed, char *idle, char *small, int copies,
			      const struct stats_run *sm, const struct stats_run *si, u64 misses)
{
	struct child lm, li, im, ii;
	struct child *const all[] = { &lm, &im, &li, &ii };
	double mixed_x, idle_x;
	long rss_1x, rss_nx;

	idlelab_child(&lm, idlelab, mixed, "/tmp/idlelab-bench-stats-mixed.out");
	idlelab_child(&li, idlelab, idle, "/tmp/idlelab-bench-stats-idle.out");
	idlestat_child(&im, mixed, "/tmp/idlelab-bench-idlestat-mixed.out");
	idlestat_child(&ii, idle, "/tmp/idlelab-bench-idlestat-idle.out");
	if (!idlelab) {
		printf("idlelab_process_available 0\n");
		return;
	}
	run_interleaved(all, 4);
	unlink(lm.out);
	unlink(li.out);
	if (lm.failed || li.failed) {
		printf("idlelab_process_available 0\n");
		return;
	}
	lm.argv[6] = small;
	rss_1x = rss_kb(lm.argv);
	lm.argv[6] = mixed;
	rss_nx = rss_kb(lm.argv);
	printf("process_runs %d\n", RUNS);
	printf("idlelab_stats_mixed_cpu_s %.3f\n", lm.best.cpu_s);
	printf("idlelab_stats_idle_cpu_s %.3f\n", li.best.cpu_s);
	printf("idlelab_stats_rss_1x_kb %ld\n", rss_1x);
	printf("idlelab_stats_rss_%dx_kb %ld\n", copies, rss_nx);
	printf("idlelab_stats_rss_growth_kb %ld\n", rss_nx - rss_1x);
	if (im.failed || ii.failed) {
		printf("idlestat_available 0\n");
		unlink(im.out);
		unlink(ii.out);
		return;
	}
	parse_idlestat(&im);
	parse_idlestat(&ii);
	unlink(im.out);
	unlink(ii.out);
	printf("idlestat_mixed_cpu_s %.3f\n", im.best.cpu_s);
	printf("idlestat_idle_cpu_s %.3f\n", ii.best.cpu_s);
	printf("idlestat_rss_mixed_kb %ld\n", rss_kb(im.argv));
	printf("idlestat_rss_idle_kb %ld\n", rss_kb(ii.argv));
	printf("idlestat_mixed_hits_state0 %llu\n", (unsigned long long)im.hits[0]);
	printf("idlestat_mixed_hits_state1 %llu\n", (unsigned long long)im.hits[1]);
	printf("idlestat_idle_hits_state0 %llu\n", (unsigned long long)ii.hits[0]);
	printf("idlestat_idle_hits_state1 %llu\n", (unsigned long long)ii.hits[1]);
	/* idlestat reads every "cpu_idle_miss" line as one more POLL entry (strstr + sscanf). */
	printf("idlestat_mixed_extra_state0_hits_from_cpu_idle_miss %lld\n",
	       (long long)im.hits[0] - (long long)sm->entries[0]);
	printf("cpu_idle_miss_lines %llu\n", (unsigned long long)misses);
	printf("hits_agree_idle %d\n", ii.hits[0] == si->entries[0] && ii.hits[1] == si->entries[1]);
	printf("hits_agree_mixed_state1 %d\n", im.hits[1] == sm->entries[1]);
	printf("hits_agree_mixed_state0_less_miss_lines %d\n", im.hits[0] - misses == sm->entries[0]);
	mixed_x = im.best.cpu_s / lm.best.cpu_s;
	idle_x = ii.best.cpu_s / li.best.cpu_s;
	printf("speedup_mixed_cpu %.2f\n", mixed_x);
	printf("speedup_idle_cpu %.2f\n", idle_x);
	printf("speedup_goal %.1f\n", SPEEDUP_GOAL);
	printf("speedup_goal_met %d\n", mixed_x >= SPEEDUP_GOAL && idle_x >= SPEEDUP_GOAL);
}

int main(void)
{
	char mixed[] = "/tmp/idlelab-bench-mixed.idlestat", idle[] = "/tmp/idlelab-bench-idle.idlestat",
	     small[] = "/tmp/idlelab-bench-1x.idlestat", self[4096];
	const char *fixture, *idlelab = idlelab_path(self, sizeof(self));
	struct stats_run sm, si;
	struct il_platform plat;
	struct il_error err;
	struct fixture fx;
	u64 mixed_bytes, idle_bytes, one_copy, misses = 0;
	int copies;

	if (load_fixture(&fx, &fixture) || il_platform_load("haltpoll-vm", &plat, &err)) {
		fprintf(stderr, "trace_bench: no fixture or platform\n");
		return 1;
	}
	printf("trace_bench_fixture %s\n", fixture);
	if (build(&fx, small, 1, false, &one_copy))
		return 1;
	copies = (int)(MIN_MIXED_BYTES / one_copy) + 1;
	printf("trace_bench_copies %d\n", copies);
	if (build(&fx, mixed, copies, false, &mixed_bytes) || build(&fx, idle, copies, true, &idle_bytes))
		return 1;
	for (size_t i = 0; i < fx.n; i++)
		misses += strstr(fx.lines[i], ": cpu_idle_miss:") != NULL;
	misses *= (u64)copies;
	free_fixture(&fx);

	run_stats(mixed, &sm);
	run_stats(idle, &si);
	print_stats("mixed", &sm, mixed_bytes);
	print_stats("idle", &si, idle_bytes);
	printf("stats_entries_state0 %llu\n", (unsigned long long)sm.entries[0]);
	printf("stats_entries_state1 %llu\n", (unsigned long long)sm.entries[1]);
	compare_processes(idlelab, mixed, idle, small, copies, &sm, &si, misses);
	bench_replay(mixed, &plat);
	/* IDLELAB_BENCH_KEEP=1 leaves the traces in /tmp for running other tools on them. */
	if (!getenv("IDLELAB_BENCH_KEEP")) {
		unlink(mixed);
		unlink(idle);
		unlink(small);
	}
	return 0;
}
