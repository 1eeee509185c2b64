/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace-local.h - what the trace readers share; not part of the library's interface.
 */
#ifndef IDLELAB_TRACE_LOCAL_H
#define IDLELAB_TRACE_LOCAL_H

#include <stdarg.h>

#include "trace.h"

/* How many bytes of the file the probes see. */
#define IL_TRACE_PROBE_LEN 4096
/* Longest line kept whole; longer ones are reported as bad and skipped to their end. */
#define IL_TRACE_MAX_LINE (64 * 1024)

/* Probe scores: how sure a reader is that the file is in its format. */
#define IL_PROBE_NO 0
#define IL_PROBE_MAYBE 10    /* the lines parse, nothing format-specific seen */
#define IL_PROBE_LIKELY 50   /* a format-specific line shape */
#define IL_PROBE_CERTAIN 100 /* a magic header */

struct il_trace_reader {
	const char *name;
	const char *desc;
	/* Score the first bytes of the file (NUL-terminated copy of at most PROBE_LEN). */
	int (*probe)(const char *head, size_t len);
	/* Read the header; 0, or -1 with the reason stored by il_trace_fail(). */
	int (*open)(struct il_trace *t);
	/* 1: event, 0: end, -1: read error. */
	int (*next_event)(struct il_trace *t, struct il_trace_event *ev);
	void (*close)(struct il_trace *t);
	/* Non-NULL when the reader is compiled out: why, and how to get it. */
	const char *unavailable;
};

struct il_trace {
	char *path;
	FILE *f;
	bool close_f;
	/* Line buffer: bytes [pos, len) of buf are not yet consumed. */
	char *buf;
	size_t cap, pos, len;
	bool eof;
	u64 lineno;
	size_t last_start; /* where the last line returned began, for il_trace_ungetline() */
	bool last_nl;      /* whether it ended with a newline */

	const struct il_trace_reader *reader;
	void *priv; /* the reader's state */
	struct il_trace_info info;
	struct il_trace_counts counts;

	/* Last timestamp seen per CPU, for the ordering check. Grows with the CPU count. */
	u64 *last_ts;
	unsigned int last_ts_n;

	il_trace_diag_fn diag;
	void *diag_ctx;
	u32 mask; /* event types to deliver */
};

/*
 * il_trace_getline - the next line, NUL-terminated without its newline
 * Return: 1 with the line in @line and @len, 0 at end of file, -1 on a read error.
 */
int il_trace_getline(struct il_trace *t, char **line, size_t *len);
/* Put the line just read back, so the next il_trace_getline() returns it again. */
void il_trace_ungetline(struct il_trace *t);
/* Explain why a reader's open() failed (il_trace_error() returns it). */
void il_trace_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Report a problem on @line (0: none) through the diagnostic hook. */
void il_trace_diag(struct il_trace *t, u64 line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Count and report a line that could not be parsed. */
void il_trace_bad_line(struct il_trace *t, const char *why);

/*
 * il_trace_accept - final checks on a decoded event: CPU within the trace's CPU count and
 * timestamps not going back on that CPU. Counts the event.
 * Return: true if the event is to be delivered.
 */
bool il_trace_accept(struct il_trace *t, struct il_trace_event *ev);

/* The head of a text line: everything before the event name. */
struct il_text_head {
	const char *prefix;     /* instance name, NULL if none */
	size_t prefix_len;
	int pid;
	int cpu;
	u64 ts_ns;
	int ts_digits;          /* digits of the fraction: 6 (µs) or 9 (ns) */
	bool bracket_cpu;       /* "[003]" rather than trace-cmd's latency "3d..1." */
	bool pid_token;         /* perf: the pid is a separate token, not "comm-pid" */
	char flags[8];
	const char *event;      /* the event name starts here */
};

/*
 * il_text_parse_head - split a text trace line into its head and event
 * Return: 0, or -1 with *@why set if the line does not have the shape
 * "[prefix: ]TASK-PID [CPU] [FLAGS] SEC.FRAC: EVENT".
 */
int il_text_parse_head(const char *line, size_t len, struct il_text_head *h, const char **why);

/*
 * il_text_next - the common loop of the text readers: read lines, skip comments via
 * @comment (return true if the line is a header/comment line the reader consumed),
 * parse heads with il_text_parse_head(), let @check veto a head (return a reason or NULL),
 * decode the event and run il_trace_accept().
 */
int il_text_next(struct il_trace *t, struct il_trace_event *ev,
		 bool (*comment)(struct il_trace *t, const char *line, size_t len),
		 const char *(*check)(struct il_trace *t, const struct il_text_head *h));

/*
 * il_trace_decode - decode "name: fields" (perf: "subsys:name: fields") at @s into @ev
 * Return: 1 for an event of interest, 0 for another event, -1 if the fields of a known
 * event are malformed (*@why set).
 */
int il_trace_decode(const char *s, const char *end, struct il_trace_event *ev, const char **why);
/*
 * il_trace_decode_masked - il_trace_decode() for the types in @mask only; a known event of
 * another type returns 0 with its type in *@skipped (if not NULL), else *@skipped is not
 * touched.
 */
int il_trace_decode_masked(const char *s, const char *end, u32 mask, struct il_trace_event *ev,
			   const char **why, enum il_ev *skipped);

/* Parse "SEC.FRAC" at *@p into ns; advance *@p. Return: digits of the fraction, or -1. */
int il_parse_timestamp(const char **p, const char *end, u64 *ns);

/* The probe score of one text line shape, shared by the text probes. */
bool il_text_line_parses(const char *line, size_t len, struct il_text_head *h);

/* Reader descriptors (one per file) and the explicit list, lib/trace/readers.h. */
#define IL_DECLARE_READER(name) extern const struct il_trace_reader il_reader_##name;

#endif /* IDLELAB_TRACE_LOCAL_H */
