// SPDX-License-Identifier: GPL-2.0-only
/*
 * dump.c - a cpuidle sysfs tree as users paste it into a bug report: the text that
 *
 *	grep -r . /sys/devices/system/cpu/cpu[0-9]+/cpuidle /sys/devices/system/cpu/cpuidle
 *
 * prints (the first path is the shell glob "cpu" star, which a C comment cannot hold), one
 * "PATH:VALUE" line per file. il_live_init_dump() makes a struct il_live read it instead of
 * a directory, so that `states --dump` shows, exports and diffs exactly what `states --root`
 * would for the tree the dump was taken from.
 *
 * DOC: sysfs dumps
 *
 *  - PATH is the file's path with or without its leading part: ".../cpuN/cpuidle/stateK/FILE",
 *    ".../cpuN/cpuidle/stateK/s2idle/FILE", ".../cpuN/cpuidle/driver/name" and
 *    ".../cpuidle/FILE" (the global directory). Whatever comes before cpuN/ or cpuidle/
 *    ("/sys/devices/system/cpu/", "./", nothing) is not looked at.
 *  - VALUE is everything after the first ':' (sysfs paths of cpuidle hold none), without
 *    the blanks some reports put after the ':' ("path: value"; sysfs values never start
 *    with one) and without trailing blanks and CR (CRLF files), as il_live_read_text()
 *    trims a file. Values may hold blanks ("ARM WFI", "menu teo ladder").
 *  - grep prints nothing for an empty file: a state without a desc line has an empty
 *    desc when other states have one (drivers may leave it blank).
 *  - Empty lines, lines starting with '#' or '$' (a pasted prompt) are comments. A
 *    "CONFIG_HZ=N" line (optionally after "FILE:") gives the export its HZ.
 *  - s2idle/usage and s2idle/time (suspend-to-idle counters) and cpuN's driver/name are
 *    read and checked (numbers, no duplicates) but have no place in the state table; the
 *    per-CPU driver name stands in for current_driver when the dump lacks the global
 *    directory, and must then be the same on every CPU.
 *  - Refused, naming the file and line: a line that is not PATH:VALUE or names a file
 *    cpuidle does not have, a grep error message, a path given twice, a counter that is not
 *    a number, a state without name/usage/time, a gap in the state or CPU numbering (a CPU
 *    without cpuidle), states whose files differ (two kernels' dumps mixed), and a CPU whose
 *    state names are another CPU's cut short (the same table, fewer states: mixed kernels
 *    or a cut dump). CPUs with different tables (per-cluster psci_idle) are fine.
 *  - A value of 4294967295 (UINT_MAX, "never") is kept as it is: a residency no governor
 *    reaches, a power_usage the driver does not know.
 *  - The two-line form some reports use instead of grep, a path and then the file's
 *    contents ("for F in $(find /sys/devices/system/cpu -type f); do echo $F; cat $F;
 *    done", as in the msm8998 dump of tests/fixtures/dumps/README.md), is read too: when the
 *    first line that is not a comment is a bare path (starting with '/' or "./", no ':'),
 *    every such line is a PATH and the line after it its VALUE. A path with no cpuidle/
 *    component is another sysfs file of the CPU (uevent, topology, cache): it is passed
 *    over with its value lines, which may be several, empty or cat's error messages. A
 *    cpuidle path followed straight by another path is an empty file, which grep would not
 *    have printed either. Everything else is checked as above, and a cat error in place of
 *    a cpuidle file's value is refused as grep's is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "live.h"
#include "../util/parse.h"
#include "util/array.h"

/* A sysfs dump of 8192 CPUs with 10 states of 14 files is ~100 MB; refuse more than that. */
#define DUMP_MAX_BYTES (128ULL * 1024 * 1024)

/* The files of a state directory, in the order their lines are remembered. */
enum dump_file {
	DF_NAME, DF_DESC, DF_LATENCY, DF_RESIDENCY, DF_POWER, DF_DISABLE, DF_DEFAULT_STATUS,
	DF_USAGE, DF_TIME, DF_ABOVE, DF_BELOW, DF_REJECTED, DF_S2IDLE_USAGE, DF_S2IDLE_TIME,
	DF__COUNT
};

enum dump_kind { DK_TEXT, DK_U64, DK_CHECK_U64 };

static const struct {
	const char *file;
	unsigned int bit;       /* enum il_live_field; 0 for the s2idle counters */
	enum dump_kind kind;
	size_t off;             /* into struct il_live_state */
	size_t cap;             /* text fields */
} dump_files[DF__COUNT] = {
	[DF_NAME] = { "name", IL_LF_NAME, DK_TEXT, offsetof(struct il_live_state, name),
		      IL_NAME_LEN },
	[DF_DESC] = { "desc", IL_LF_DESC, DK_TEXT, offsetof(struct il_live_state, desc),
		      IL_DESC_LEN },
	[DF_LATENCY] = { "latency", IL_LF_LATENCY, DK_U64,
			 offsetof(struct il_live_state, latency_us), 0 },
	[DF_RESIDENCY] = { "residency", IL_LF_RESIDENCY, DK_U64,
			   offsetof(struct il_live_state, residency_us), 0 },
	[DF_POWER] = { "power", IL_LF_POWER, DK_U64, offsetof(struct il_live_state, power), 0 },
	[DF_DISABLE] = { "disable", IL_LF_DISABLE, DK_U64,
			 offsetof(struct il_live_state, disable), 0 },
	[DF_DEFAULT_STATUS] = { "default_status", IL_LF_DEFAULT_STATUS, DK_TEXT,
				offsetof(struct il_live_state, default_status), 16 },
	[DF_USAGE] = { "usage", IL_LF_USAGE, DK_U64, offsetof(struct il_live_state, usage), 0 },
	[DF_TIME] = { "time", IL_LF_TIME, DK_U64, offsetof(struct il_live_state, time_us), 0 },
	[DF_ABOVE] = { "above", IL_LF_ABOVE, DK_U64, offsetof(struct il_live_state, above), 0 },
	[DF_BELOW] = { "below", IL_LF_BELOW, DK_U64, offsetof(struct il_live_state, below), 0 },
	[DF_REJECTED] = { "rejected", IL_LF_REJECTED, DK_U64,
			  offsetof(struct il_live_state, rejected), 0 },
	[DF_S2IDLE_USAGE] = { "s2idle/usage", 0, DK_CHECK_U64, 0, 0 },
	[DF_S2IDLE_TIME] = { "s2idle/time", 0, DK_CHECK_U64, 0, 0 },
};

struct dump_cpu {
	struct il_live_cpu c;
	int first_line;
	int driver_line;                           /* cpuN/cpuidle/driver/name */
	char driver[IL_LIVE_VALUE_MAX];
	int line[CPUIDLE_STATE_MAX][DF__COUNT];    /* 0: no such line */
};

/* The global directory's files. */
enum dump_global { DG_DRIVER, DG_GOVERNOR, DG_GOVERNOR_RO, DG_AVAILABLE, DG__COUNT };

static const char *const global_files[DG__COUNT] = {
	[DG_DRIVER] = "current_driver", [DG_GOVERNOR] = "current_governor",
	[DG_GOVERNOR_RO] = "current_governor_ro", [DG_AVAILABLE] = "available_governors",
};

struct il_live_dump {
	char name[IL_LIVE_PATH_MAX];
	struct dump_cpu **cpu;  /* by CPU number, NULL: no line of that CPU */
	unsigned int ncpu_slots;
	char global[DG__COUNT][IL_LIVE_VALUE_MAX];
	int global_line[DG__COUNT];
	unsigned int hz;
	int hz_line;
};

/* The two-line form (PATH, then VALUE on the next line): what the next value line is for. */
struct dump_pairs {
	bool on;                        /* the dump is in this form */
	bool decided;                   /* the form was chosen (first non-comment line) */
	bool skipping;                  /* the last path is not a cpuidle file: pass its values */
	int path_line;                  /* the pending cpuidle path's line, 0: none */
	char path[IL_LIVE_PATH_MAX];    /* the pending cpuidle path */
};

/* ---- one line -------------------------------------------------------------------------- */

static int parse_u64_value(const char *s, u64 *out)
{
	u64 v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - (u64)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (u64)(*s - '0');
	}
	*out = v;
	return 0;
}

/* @prefix followed by 1-@digits digits ("cpu17", "state3"): the number, else -1. */
static long numbered(const char *s, size_t len, const char *prefix, size_t digits)
{
	size_t plen = strlen(prefix);
	u64 v = 0;

	if (len <= plen || len > plen + digits || strncmp(s, prefix, plen))
		return -1;
	for (size_t i = plen; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (u64)(s[i] - '0');
	}
	return (long)v;
}

/* "cpu17" -> 17, else -1. */
static long cpu_number(const char *s, size_t len)
{
	long v = numbered(s, len, "cpu", 5);

	return v < IL_LIVE_CPUS_MAX ? v : -1;
}

/* "state3" -> 3; -2 for a number past CPUIDLE_STATE_MAX; else -1. */
static int state_number(const char *s, size_t len)
{
	long v = numbered(s, len, "state", 7);

	return v < 0 ? -1 : v < CPUIDLE_STATE_MAX ? (int)v : -2;
}

#define MAX_PARTS 64

struct path_parts {
	int n;
	const char *s[MAX_PARTS];
	size_t len[MAX_PARTS];
};

/* Split @path at '/', dropping empty and "." components. Return: 0, -1 if too many. */
static int split_path(const char *path, size_t plen, struct path_parts *pp)
{
	const char *p = path, *end = path + plen;

	pp->n = 0;
	while (p < end) {
		const char *slash = memchr(p, '/', (size_t)(end - p));
		size_t n = (size_t)((slash ? slash : end) - p);

		if (n && !(n == 1 && *p == '.')) {
			if (pp->n == MAX_PARTS)
				return -1;
			pp->s[pp->n] = p;
			pp->len[pp->n++] = n;
		}
		p += n + 1;
	}
	return 0;
}

static bool part_is(const struct path_parts *pp, int i, const char *word)
{
	return i >= 0 && i < pp->n && pp->len[i] == strlen(word) && !memcmp(pp->s[i], word,
									      pp->len[i]);
}

/* The index of @pp's last "cpuidle" component (cpuN/cpuidle/... or cpuidle/FILE), else -1. */
static int last_cpuidle_part(const struct path_parts *pp)
{
	for (int i = pp->n - 1; i >= 0; i--)
		if (part_is(pp, i, "cpuidle"))
			return i;
	return -1;
}

/* Where a line's value goes. */
struct dump_target {
	long cpu;          /* -1: the global directory */
	int state;         /* -1: not a state file (driver/name, global) */
	int file;          /* enum dump_file, enum dump_global, or -1 for driver/name */
};

static int find_file(const struct path_parts *pp, int from, struct dump_target *t)
{
	char name[32];
	size_t n = 0;

	/* The rest of the path after stateK/, joined back ("s2idle/usage"). */
	for (int i = from; i < pp->n; i++) {
		if (n + pp->len[i] + 2 > sizeof(name))
			return -1;
		if (i > from)
			name[n++] = '/';
		memcpy(name + n, pp->s[i], pp->len[i]);
		n += pp->len[i];
	}
	name[n] = '\0';
	for (int f = 0; f < DF__COUNT; f++)
		if (!strcmp(name, dump_files[f].file)) {
			t->file = f;
			return 0;
		}
	return -1;
}

/* What file of the tree @path names. Return: 0, or -1 with *@why set. */
static int classify_path(const char *path, size_t plen, struct dump_target *t, const char **why)
{
	struct path_parts pp;
	int c;

	if (split_path(path, plen, &pp)) {
		*why = "path with too many components";
		return -1;
	}
	c = last_cpuidle_part(&pp);
	if (c < 0) {
		*why = "not a cpuidle sysfs path (no cpuidle/ in it)";
		return -1;
	}
	t->cpu = c > 0 ? cpu_number(pp.s[c - 1], pp.len[c - 1]) : -1;
	t->state = -1;
	t->file = -1;
	if (t->cpu < 0) {
		if (c > 0 && !part_is(&pp, c - 1, "cpu")) {
			*why = "not a cpuidle sysfs path (neither cpuN/cpuidle/ nor cpu/cpuidle/)";
			return -1;
		}
		for (int g = 0; g < DG__COUNT && pp.n == c + 2; g++)
			if (part_is(&pp, c + 1, global_files[g]))
				t->file = g;
		if (t->file < 0) {
			*why = "not a file of the global cpuidle directory (current_driver, "
			       "current_governor, current_governor_ro, available_governors)";
			return -1;
		}
		return 0;
	}
	if (pp.n == c + 3 && part_is(&pp, c + 1, "driver") && part_is(&pp, c + 2, "name"))
		return 0;
	t->state = c + 1 < pp.n ? state_number(pp.s[c + 1], pp.len[c + 1]) : -1;
	if (t->state == -2) {
		*why = "more states than CPUIDLE_STATE_MAX (10)";
		return -1;
	}
	if (t->state < 0 || find_file(&pp, c + 2, t)) {
		*why = "not a file of a cpuidle state directory";
		return -1;
	}
	return 0;
}

static struct dump_cpu *cpu_slot(struct il_live_dump *d, unsigned int cpu, int line)
{
	if (cpu >= d->ncpu_slots) {
		unsigned int n = d->ncpu_slots ? d->ncpu_slots : 8;
		struct dump_cpu **bigger;

		while (n <= cpu)
			n *= 2;
		bigger = realloc(d->cpu, n * sizeof(*bigger));
		if (!bigger)
			return NULL;
		memset(bigger + d->ncpu_slots, 0, (n - d->ncpu_slots) * sizeof(*bigger));
		d->cpu = bigger;
		d->ncpu_slots = n;
	}
	if (!d->cpu[cpu]) {
		d->cpu[cpu] = calloc(1, sizeof(*d->cpu[cpu]));
		if (!d->cpu[cpu])
			return NULL;
		d->cpu[cpu]->c.cpu = cpu;
		d->cpu[cpu]->c.has_cpuidle = true;
		d->cpu[cpu]->first_line = line;
	}
	return d->cpu[cpu];
}

static int set_text(char *dst, size_t cap, const char *value, const char *file,
		    const struct il_live_dump *d, int line, struct il_error *err)
{
	if (strlen(value) >= cap)
		return il_error_set(err, d->name, line, "%s '%s' longer than %zu characters",
				    file, value, cap - 1);
	strcpy(dst, value);
	return 0;
}

static int store_state_value(struct il_live_dump *d, struct dump_cpu *dc,
			     const struct dump_target *t, const char *value, int line,
			     struct il_error *err)
{
	struct il_live_state *s = &dc->c.st[t->state];
	int *seen = &dc->line[t->state][t->file];
	u64 v;

	if (*seen)
		return il_error_set(err, d->name, line,
				    "cpu%ld/cpuidle/state%d/%s is already on line %d", t->cpu,
				    t->state, dump_files[t->file].file, *seen);
	*seen = line;
	if (dump_files[t->file].kind == DK_TEXT) {
		if (set_text((char *)s + dump_files[t->file].off, dump_files[t->file].cap, value,
			     dump_files[t->file].file, d, line, err))
			return -1;
	} else {
		if (parse_u64_value(value, &v))
			return il_error_set(err, d->name, line, "%s is '%s', not a number",
					    dump_files[t->file].file, value);
		if (dump_files[t->file].kind == DK_U64)
			*(u64 *)((char *)s + dump_files[t->file].off) = v;
	}
	s->have |= dump_files[t->file].bit;
	if (t->state >= dc->c.nstates)
		dc->c.nstates = t->state + 1;
	return 0;
}

static int store_value(struct il_live_dump *d, const struct dump_target *t, const char *value,
		       int line, struct il_error *err)
{
	struct dump_cpu *dc;

	if (t->cpu < 0) {
		if (d->global_line[t->file])
			return il_error_set(err, d->name, line, "cpuidle/%s is already on line %d",
					    global_files[t->file], d->global_line[t->file]);
		d->global_line[t->file] = line;
		return set_text(d->global[t->file], sizeof(d->global[t->file]), value,
				global_files[t->file], d, line, err);
	}
	dc = cpu_slot(d, (unsigned int)t->cpu, line);
	if (!dc)
		return il_error_set(err, d->name, line, "out of memory");
	if (t->state >= 0)
		return store_state_value(d, dc, t, value, line, err);
	if (dc->driver_line)
		return il_error_set(err, d->name, line,
				    "cpu%ld/cpuidle/driver/name is already on line %d", t->cpu,
				    dc->driver_line);
	dc->driver_line = line;
	return set_text(dc->driver, sizeof(dc->driver), value, "driver/name", d, line, err);
}

/* "CONFIG_HZ=N", alone or after "FILE:". Return: 1 taken, 0 not such a line, -1 error. */
static int config_hz_line(struct il_live_dump *d, const char *line, int lineno,
			  struct il_error *err)
{
	const char *key = strstr(line, "CONFIG_HZ=");
	u64 v;

	if (!key || (key != line && key[-1] != ':'))
		return 0;
	if (parse_u64_value(key + 10, &v) || !il_config_hz_valid(v))
		return il_error_set(err, d->name, lineno,
				    "'%s' is not a CONFIG_HZ (100, 250, 300, 1000)", key);
	if (d->hz_line && d->hz != v)
		return il_error_set(err, d->name, lineno,
				    "CONFIG_HZ=%llu, but line %d says CONFIG_HZ=%u",
				    (unsigned long long)v, d->hz_line, d->hz);
	d->hz = (unsigned int)v;
	d->hz_line = lineno;
	return 1;
}

/* An empty line, or a comment: '#', or '$' (a pasted prompt). */
static bool comment_or_blank(const char *line, size_t len)
{
	return !len || line[0] == '#' || line[0] == '$';
}

/* One PATH:VALUE line (or CONFIG_HZ, a comment), @len long, trimmed by dump_line(). */
static int parse_line(struct il_live_dump *d, char *line, size_t len, int lineno,
		      struct il_error *err)
{
	struct dump_target t;
	const char *why;
	char *colon, *value;
	int r;

	if (comment_or_blank(line, len))
		return 0;
	if (!strncmp(line, "grep: ", 6))
		return il_error_set(err, d->name, lineno,
				    "grep could not read a file (%s): the dump is incomplete",
				    line + 6);
	r = config_hz_line(d, line, lineno, err);
	if (r)
		return r < 0 ? -1 : 0;
	colon = strchr(line, ':');
	if (!colon)
		return il_error_set(err, d->name, lineno, "not a PATH:VALUE line");
	if (classify_path(line, (size_t)(colon - line), &t, &why))
		return il_error_set(err, d->name, lineno, "%.*s: %s", (int)(colon - line), line,
				    why);
	value = colon + 1;
	while (*value == ' ' || *value == '\t')
		value++;
	if (!*value)
		return il_error_set(err, d->name, lineno, "no value after the ':'");
	return store_value(d, &t, value, lineno, err);
}

/* ---- the two-line form ----------------------------------------------------------------- */

/* A bare path line of the two-line form: '/' or "./" first, no ':' (sysfs paths hold none). */
static bool bare_path(const char *line, size_t len)
{
	return (line[0] == '/' || !strncmp(line, "./", 2)) && !memchr(line, ':', len);
}

/* Whether @path has a cpuidle/ component (a file of cpuidle's, to be read and checked). */
static bool cpuidle_path(const char *path, size_t len)
{
	struct path_parts pp;

	if (split_path(path, len, &pp))
		return true; /* let classify_path() say what is wrong with it */
	return last_cpuidle_part(&pp) >= 0;
}

/* The pending path's @value (read on line @lineno; "" for an empty file, which is dropped). */
static int pair_value(struct il_live_dump *d, struct dump_pairs *pr, const char *value,
		      int lineno, struct il_error *err)
{
	char line[2 * IL_LIVE_PATH_MAX];
	int n;

	pr->path_line = 0;
	if (!*value)
		return 0;
	if (!strncmp(value, "cat: ", 5))
		return il_error_set(err, d->name, lineno,
				    "cat could not read %s (%s): the dump is incomplete", pr->path,
				    value + 5);
	n = snprintf(line, sizeof(line), "%s:%s", pr->path, value);
	if (n < 0 || (size_t)n >= sizeof(line))
		return il_error_set(err, d->name, lineno, "value longer than %zu characters",
				    sizeof(line) - strlen(pr->path) - 2);
	return parse_line(d, line, (size_t)n, lineno, err);
}

/* A path line of the two-line form: remember a cpuidle path, pass over any other. */
static int pair_path(struct il_live_dump *d, struct dump_pairs *pr, const char *line,
		     size_t len, int lineno, struct il_error *err)
{
	pr->path_line = 0; /* a pending path not followed by a value line was an empty file */
	pr->skipping = !cpuidle_path(line, len);
	if (pr->skipping)
		return 0;
	if (len >= sizeof(pr->path))
		return il_error_set(err, d->name, lineno, "path longer than %zu characters",
				    sizeof(pr->path) - 1);
	memcpy(pr->path, line, len);
	pr->path[len] = '\0';
	pr->path_line = lineno;
	return 0;
}

/*
 * One line of the dump, in whichever form the dump's first line chose: without trailing
 * blanks and CR (CRLF files), as il_live_read_text() trims a file.
 */
static int dump_line(struct il_live_dump *d, struct dump_pairs *pr, char *line, size_t len,
		     int lineno, struct il_error *err)
{
	size_t n = len;

	while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
		line[--n] = '\0';
	if (!comment_or_blank(line, n) && memchr(line, '\0', n))
		return il_error_set(err, d->name, lineno, "a NUL byte: not a text dump");
	if (!pr->decided && !comment_or_blank(line, n)) {
		pr->decided = true;
		pr->on = bare_path(line, n);
	}
	if (!pr->on)
		return parse_line(d, line, n, lineno, err);
	if (n && bare_path(line, n))
		return pair_path(d, pr, line, n, lineno, err);
	if (pr->path_line)
		return pair_value(d, pr, line, lineno, err);
	if (pr->skipping || comment_or_blank(line, n))
		return 0; /* another file's contents, a blank line, a comment */
	return parse_line(d, line, n, lineno, err); /* a CONFIG_HZ line or an error */
}

/* ---- the whole dump -------------------------------------------------------------------- */

static const char *file_of_bit(unsigned int bit)
{
	for (int f = 0; f < DF__COUNT; f++)
		if (dump_files[f].bit == bit)
			return dump_files[f].file;
	return "?";
}

/* The line of a state's first line (its name, else any). */
static int state_line(const struct dump_cpu *dc, int k)
{
	for (int f = 0; f < DF__COUNT; f++)
		if (dc->line[k][f])
			return dc->line[k][f];
	return dc->first_line;
}

static int check_cpu_states(const struct il_live_dump *d, const struct dump_cpu *dc,
			    struct il_error *err)
{
	static const int needed[] = { DF_NAME, DF_USAGE, DF_TIME };

	if (!dc->c.nstates)
		return il_error_set(err, d->name, dc->first_line,
				    "cpu%u/cpuidle has no stateN lines", dc->c.cpu);
	for (int k = 0; k < dc->c.nstates; k++) {
		if (!state_line(dc, k) || !dc->c.st[k].have) {
			int next = k + 1 < dc->c.nstates ? state_line(dc, k + 1) : dc->first_line;

			return il_error_set(err, d->name, next,
					    "cpu%u/cpuidle/state%d has no lines, but state%d has",
					    dc->c.cpu, k, dc->c.nstates - 1);
		}
		for (size_t i = 0; i < ARRAY_SIZE(needed); i++)
			if (!dc->line[k][needed[i]])
				return il_error_set(err, d->name, state_line(dc, k),
						    "cpu%u/cpuidle/state%d has no %s line",
						    dc->c.cpu, k, dump_files[needed[i]].file);
	}
	return 0;
}

/*
 * Every state of a kernel has the same files: compare each with the first state of the
 * dump. desc is exempt (grep prints nothing for an empty one), and is filled in as empty
 * when any state has one, as reading the tree would.
 */
static int check_same_files(struct il_live_dump *d, struct il_error *err)
{
	const struct dump_cpu *ref = NULL;
	unsigned int want = 0, desc = 0;

	for (unsigned int c = 0; c < d->ncpu_slots; c++)
		for (int k = 0; d->cpu[c] && k < d->cpu[c]->c.nstates; k++)
			desc |= d->cpu[c]->c.st[k].have & IL_LF_DESC;
	for (unsigned int c = 0; c < d->ncpu_slots; c++) {
		struct dump_cpu *dc = d->cpu[c];

		for (int k = 0; dc && k < dc->c.nstates; k++) {
			unsigned int have = (dc->c.st[k].have |= desc), diff;

			if (!ref) {
				ref = dc;
				want = have;
				continue;
			}
			diff = have ^ want;
			if (!diff)
				continue;
			diff &= -diff;
			return il_error_set(err, d->name, state_line(dc, k),
					    "cpu%u/cpuidle/state%d %s a %s line, cpu%u/cpuidle/"
					    "state0 (line %d) %s: dumps of two kernels mixed?",
					    dc->c.cpu, k, (have & diff) ? "has" : "lacks",
					    file_of_bit(diff), ref->c.cpu, state_line(ref, 0),
					    (want & diff) ? "has one" : "has none");
		}
	}
	return 0;
}

/* Whether @a's state names are @b's cut short (fewer states, the same names up to there). */
static bool names_cut_short(const struct il_live_cpu *a, const struct il_live_cpu *b)
{
	if (a->nstates >= b->nstates)
		return false;
	for (int k = 0; k < a->nstates; k++)
		if (strcmp(a->st[k].name, b->st[k].name))
			return false;
	return true;
}

static int check_cpus(struct il_live_dump *d, struct il_error *err)
{
	const struct dump_cpu *last = NULL;

	for (unsigned int c = 0; c < d->ncpu_slots; c++) {
		const struct dump_cpu *dc = d->cpu[c];

		if (dc)
			last = dc;
	}
	if (!last)
		return il_error_set(err, d->name, 0,
				    "no cpuN/cpuidle lines: not a dump of `grep -r . "
				    "/sys/devices/system/cpu/cpu*/cpuidle`");
	for (unsigned int c = 0; c <= last->c.cpu; c++) {
		const struct dump_cpu *dc = d->cpu[c];

		if (!dc) {
			unsigned int n = c + 1;

			while (!d->cpu[n])
				n++;
			return il_error_set(err, d->name, d->cpu[n]->first_line,
					    "cpu%u has no cpuidle lines, but cpu%u has (a CPU "
					    "without cpuidle, or a cut dump)", c, n);
		}
		if (check_cpu_states(d, dc, err))
			return -1;
	}
	for (unsigned int a = 0; a <= last->c.cpu; a++)
		for (unsigned int b = 0; b <= last->c.cpu; b++)
			if (names_cut_short(&d->cpu[a]->c, &d->cpu[b]->c))
				return il_error_set(err, d->name, d->cpu[a]->first_line,
						    "cpu%u has %d states, cpu%u (line %d) has the "
						    "same and %d more: dumps of two kernels mixed, "
						    "or a cut dump?", a, d->cpu[a]->c.nstates, b,
						    d->cpu[b]->first_line,
						    d->cpu[b]->c.nstates - d->cpu[a]->c.nstates);
	return check_same_files(d, err);
}

/* The driver: current_driver, else the per-CPU driver/name (one name on every CPU). */
static int check_driver(struct il_live_dump *d, struct il_error *err)
{
	const struct dump_cpu *first = NULL;

	for (unsigned int c = 0; c < d->ncpu_slots; c++) {
		const struct dump_cpu *dc = d->cpu[c];

		if (!dc || !dc->driver_line)
			continue;
		if (!first) {
			first = dc;
		} else if (strcmp(dc->driver, first->driver)) {
			return il_error_set(err, d->name, dc->driver_line,
					    "cpu%u's driver is '%s', cpu%u's (line %d) '%s'",
					    dc->c.cpu, dc->driver, first->c.cpu, first->driver_line,
					    first->driver);
		}
	}
	if (!d->global_line[DG_DRIVER] && first)
		strcpy(d->global[DG_DRIVER], first->driver);
	return 0;
}

void il_live_dump_free(struct il_live_dump *d)
{
	if (!d)
		return;
	for (unsigned int c = 0; c < d->ncpu_slots; c++)
		free(d->cpu[c]);
	free(d->cpu);
	free(d);
}

struct il_live_dump *il_live_dump_parse(const char *text, size_t len, const char *name,
					struct il_error *err)
{
	struct il_live_dump *d = calloc(1, sizeof(*d));
	char *copy = malloc(len + 1), *p, *end;
	struct dump_pairs pairs = { 0 };
	int lineno = 0;

	if (!d || !copy) {
		il_error_set(err, name, 0, "out of memory");
		goto fail;
	}
	snprintf(d->name, sizeof(d->name), "%s", name);
	memcpy(copy, text, len);
	copy[len] = '\0';
	for (p = copy, end = copy + len; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		p[n] = '\0';
		if (dump_line(d, &pairs, p, n, ++lineno, err))
			goto fail;
		p += n + 1;
	}
	if (check_cpus(d, err) || check_driver(d, err))
		goto fail;
	free(copy);
	return d;
fail:
	free(copy);
	il_live_dump_free(d);
	return NULL;
}

struct il_live_dump *il_live_dump_load(const char *path, struct il_error *err)
{
	struct il_live_dump *d = NULL;
	FILE *f = fopen(path, "rb");
	struct stat st;
	char *text = NULL;
	size_t len = 0;

	if (!f) {
		il_error_set(err, path, 0, "cannot open: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		il_error_set(err, path, 0, "not a regular file (a dump is the text grep printed)");
		goto out;
	}
	if ((unsigned long long)st.st_size > DUMP_MAX_BYTES) {
		il_error_set(err, path, 0, "%lld bytes: larger than any cpuidle sysfs dump",
			     (long long)st.st_size);
		goto out;
	}
	text = malloc((size_t)st.st_size + 1);
	if (!text) {
		il_error_set(err, path, 0, "out of memory");
		goto out;
	}
	len = fread(text, 1, (size_t)st.st_size, f);
	if (ferror(f)) {
		il_error_set(err, path, 0, "cannot read: %s", strerror(errno));
		goto out;
	}
	d = il_live_dump_parse(text, len, path, err);
out:
	free(text);
	fclose(f);
	return d;
}

/* ---- reading it through struct il_live ----------------------------------------------- */

int il_live_init_dump(struct il_live *lv, const struct il_live_dump *d, struct il_error *err)
{
	size_t len = strlen(d->name);

	/*
	 * The dump's name is the root: every path built from it lies under a regular file, so
	 * a reader that still opens files by path (the export's /proc/cpuinfo) finds nothing
	 * (ENOTDIR) rather than this machine's.
	 */
	if (len >= sizeof(lv->root))
		return il_error_set(err, d->name, 0, "file name too long");
	memcpy(lv->root, d->name, len + 1);
	lv->dump = d;
	return 0;
}

int il_live_dump_read_cpuidle(const struct il_live_dump *d, struct il_live_cpuidle *ci,
			      struct il_error *err)
{
	memset(ci, 0, sizeof(*ci));
	if (!d->global[DG_DRIVER][0])
		return il_error_set(err, d->name, 0,
				    "no cpuidle/current_driver line and no cpuN/cpuidle/driver/"
				    "name line: the dump should come from `grep -r . "
				    "/sys/devices/system/cpu/cpu*/cpuidle "
				    "/sys/devices/system/cpu/cpuidle`");
	strcpy(ci->driver, d->global[DG_DRIVER]);
	if (d->global_line[DG_GOVERNOR]) {
		strcpy(ci->governor, d->global[DG_GOVERNOR]);
		ci->can_switch = true;
	} else if (d->global_line[DG_GOVERNOR_RO]) {
		strcpy(ci->governor, d->global[DG_GOVERNOR_RO]);
	} else {
		strcpy(ci->governor, "-");
	}
	if (d->global_line[DG_AVAILABLE])
		il_live_split_governors(d->global[DG_AVAILABLE], ci);
	return 0;
}

int il_live_dump_list_cpus(const struct il_live_dump *d, unsigned int **cpus,
			   struct il_error *err)
{
	unsigned int n = 0;

	for (unsigned int c = 0; c < d->ncpu_slots; c++)
		n += d->cpu[c] != NULL;
	*cpus = malloc(n * sizeof(**cpus));
	if (!*cpus)
		return il_error_set(err, d->name, 0, "out of memory");
	n = 0;
	for (unsigned int c = 0; c < d->ncpu_slots; c++)
		if (d->cpu[c])
			(*cpus)[n++] = c;
	return (int)n;
}

/* What il_live_read_cpu(IL_LIVE_READ_COUNTERS) reads of a state: its name and counters. */
static void counters_only(struct il_live_state *s)
{
	struct il_live_state keep = { .have = s->have & (IL_LF_NAME | IL_LF_COUNTERS),
				      .usage = s->usage, .time_us = s->time_us,
				      .above = s->above, .below = s->below,
				      .rejected = s->rejected };

	memcpy(keep.name, s->name, sizeof(keep.name));
	*s = keep;
}

int il_live_dump_read_cpu(const struct il_live_dump *d, unsigned int cpu,
			  enum il_live_read_what what, struct il_live_cpu *out)
{
	memset(out, 0, sizeof(*out));
	out->cpu = cpu;
	if (cpu >= d->ncpu_slots || !d->cpu[cpu])
		return 0;
	*out = d->cpu[cpu]->c;
	if (what == IL_LIVE_READ_COUNTERS)
		for (int k = 0; k < out->nstates; k++)
			counters_only(&out->st[k]);
	return 0;
}

int il_live_dump_hz(const struct il_live_dump *d, unsigned int *hz, int *line)
{
	*hz = d->hz;
	*line = d->hz_line;
	return d->hz_line ? 0 : -1;
}

const char *il_live_dump_name(const struct il_live_dump *d)
{
	return d->name;
}

int il_live_dump_line(const struct il_live_dump *d, unsigned int cpu, int state,
		      unsigned int field)
{
	if (cpu >= d->ncpu_slots || !d->cpu[cpu] || state < 0 || state >= CPUIDLE_STATE_MAX)
		return 0;
	for (int f = 0; f < DF__COUNT; f++)
		if (dump_files[f].bit == field)
			return d->cpu[cpu]->line[state][f];
	return 0;
}

int il_live_open_source(struct il_live *lv, const char *path, struct il_live_dump **dump,
			struct il_error *err)
{
	struct stat st;

	*dump = NULL;
	if (stat(path, &st))
		return il_error_set(err, path, 0, "cannot open: %s", strerror(errno));
	if (S_ISDIR(st.st_mode))
		return il_live_init(lv, path, err);
	*dump = il_live_dump_load(path, err);
	if (!*dump)
		return -1;
	if (il_live_init_dump(lv, *dump, err)) {
		il_live_dump_free(*dump);
		*dump = NULL;
		return -1;
	}
	return 0;
}
