// SPDX-License-Identifier: GPL-2.0-only
/*
 * patch.c - read a governor patch (a unified diff, or one `git format-patch` / mbox message)
 * and apply its governor part with GNU patch to a temporary copy of the tree's governor
 * directory. The kernel tree itself is only read.
 */
#define _GNU_SOURCE /* pipe2() */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "review.h"

#define GOV_DIR "drivers/cpuidle/governors/"

extern char **environ;

/* ---- reading ---------------------------------------------------------------------------- */

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* The line at @s (up to, not including, its newline) as a length. */
static size_t line_len(const char *s, const char *end)
{
	const char *nl = memchr(s, '\n', (size_t)(end - s));

	return nl ? (size_t)(nl - s) : (size_t)(end - s);
}

static const char *next_line(const char *s, const char *end)
{
	const char *nl = memchr(s, '\n', (size_t)(end - s));

	return nl ? nl + 1 : end;
}

static bool mail_header(const char *s)
{
	return starts(s, "From: ") || starts(s, "Date: ") || starts(s, "Subject: ") ||
	       starts(s, "Return-Path: ") || starts(s, "Message-Id: ") ||
	       starts(s, "Message-ID: ");
}

/* How many messages an mbox holds: "From " lines followed by a mail header. */
static int count_messages(const char *text, const char *end)
{
	int n = 0;

	for (const char *s = text; s < end; s = next_line(s, end)) {
		const char *nx = next_line(s, end);

		if (starts(s, "From ") && nx < end && mail_header(nx))
			n++;
	}
	return n;
}

/* Subject (with its continuation lines) and the message up to "---" or the first diff. */
static int read_mail(const char *text, const char *end, struct il_review_patch *p)
{
	const char *s = text, *body = NULL;
	size_t n = 0, cap = 1;

	for (; s < end; s = next_line(s, end)) {
		size_t len = line_len(s, end);

		if (!len) {
			body = next_line(s, end);
			break;
		}
		if (starts(s, "Subject: ")) {
			snprintf(p->subject, sizeof(p->subject), "%.*s", (int)(len - 9), s + 9);
			const char *c = next_line(s, end);

			for (; c < end && (*c == ' ' || *c == '\t'); c = next_line(c, end)) {
				size_t used = strlen(p->subject);

				snprintf(p->subject + used, sizeof(p->subject) - used, "%.*s",
					 (int)line_len(c, end), c);
			}
		}
	}
	p->message = malloc(cap);
	if (!p->message)
		return -1;
	p->message[0] = '\0';
	for (s = body; s && s < end; s = next_line(s, end)) {
		size_t len = line_len(s, end);
		char *grown;

		if ((len == 3 && starts(s, "---")) || starts(s, "diff ") || starts(s, "--- ") ||
		    starts(s, "Index: "))
			break;
		grown = realloc(p->message, cap + len + 1);
		if (!grown)
			return -1;
		p->message = grown;
		cap += len + 1;
		memcpy(p->message + n, s, len);
		n += len;
		p->message[n++] = '\n';
		p->message[n] = '\0';
	}
	while (n && (p->message[n - 1] == '\n' || p->message[n - 1] == ' '))
		p->message[--n] = '\0';
	return 0;
}

/* "a/drivers/x.c\t2025-..." -> "drivers/x.c" with the strip level it needs. */
static void header_path(const char *s, size_t len, char *out, size_t cap, int *strip)
{
	size_t n = 0;

	while (n < len && s[n] != '\t')
		n++;
	while (n && s[n - 1] == ' ')
		n--;
	*strip = (n > 2 && (starts(s, "a/") || starts(s, "b/"))) ? 1 : 0;
	snprintf(out, cap, "%.*s", (int)(n - 2 * (size_t)*strip), s + 2 * *strip);
}

/* Why idlelab cannot judge a file outside the governor directory. */
static void refuse(struct il_review_file *f)
{
	const char *p = f->path;

	if (!strcmp(p, "kernel/sched/idle.c") || !strcmp(p, "drivers/cpuidle/cpuidle.c") ||
	    !strcmp(p, "drivers/cpuidle/governor.c") || !strcmp(p, "kernel/time/tick-sched.c"))
		snprintf(f->why, sizeof(f->why), "the framework around the governor: idlelab "
			 "models it (lib/core), it cannot build this file");
	else if (starts(p, "drivers/cpuidle/") || starts(p, "drivers/idle/") ||
		 starts(p, "arch/"))
		snprintf(f->why, sizeof(f->why), "a cpuidle driver or architecture code: the lab's "
			 "platforms are data files, it cannot run a driver");
	else if (starts(p, GOV_DIR))
		snprintf(f->why, sizeof(f->why), "not a C file or header of a governor");
	else
		snprintf(f->why, sizeof(f->why), "not a governor file: only %s*.c build against "
			 "the kernel-API shim", GOV_DIR);
}

static void classify(struct il_review_file *f)
{
	size_t n = strlen(f->path);
	bool in_dir = starts(f->path, GOV_DIR) && !strchr(f->path + strlen(GOV_DIR), '/');

	if (in_dir && n > 2 && !strcmp(f->path + n - 2, ".c"))
		f->kind = IL_REVIEW_GOVERNOR;
	else if (in_dir && n > 2 && !strcmp(f->path + n - 2, ".h"))
		f->kind = IL_REVIEW_SUPPORT;
	else
		f->kind = IL_REVIEW_REFUSED;
	if (f->kind == IL_REVIEW_REFUSED)
		refuse(f);
}

/* The start of the section whose "--- " line is @minus: its "diff " line if just before. */
static const char *section_start(const char *text, const char *minus, const char *prev_end)
{
	const char *best = minus;

	for (const char *s = prev_end; s < minus; s = next_line(s, minus))
		if (starts(s, "diff ") || starts(s, "Index: "))
			best = s;
	return best;
}

static int add_file(struct il_review_patch *p, const char *minus, const char *plus,
		    const char *end, const char *start, const char *name, struct il_error *err,
		    int lineno)
{
	struct il_review_file *f;
	char old_path[IL_REVIEW_PATH_LEN], new_path[IL_REVIEW_PATH_LEN];
	int s_old, s_new;

	if (p->nfiles == IL_REVIEW_MAX_FILES)
		return il_error_set(err, name, lineno, "more than %d files in one patch",
				    IL_REVIEW_MAX_FILES);
	f = &p->files[p->nfiles++];
	header_path(minus + 4, line_len(minus, end) - 4, old_path, sizeof(old_path), &s_old);
	header_path(plus + 4, line_len(plus, end) - 4, new_path, sizeof(new_path), &s_new);
	f->created = !strcmp(old_path, "/dev/null");
	f->deleted = !strcmp(new_path, "/dev/null");
	snprintf(f->path, sizeof(f->path), "%s", f->deleted ? old_path : new_path);
	p->strip = f->deleted ? s_old : s_new;
	f->start = (size_t)(start - p->text);
	classify(f);
	return 0;
}

int il_review_patch_parse(const char *text, size_t len, const char *name,
			  struct il_review_patch *p, struct il_error *err)
{
	const char *end, *prev_end;
	int messages, lineno = 1;

	memset(p, 0, sizeof(*p));
	p->text = malloc(len + 1);
	if (!p->text)
		return il_error_set(err, name, 0, "out of memory");
	memcpy(p->text, text, len);
	p->text[len] = '\0';
	p->len = len;
	end = p->text + len;
	messages = count_messages(p->text, end);
	if (messages > 1) {
		il_review_patch_free(p);
		return il_error_set(err, name, 0, "an mbox of %d patches: review one patch at a "
				    "time (git mailsplit, or the series applied and ORIG.c "
				    "PATCHED.c)", messages);
	}
	if ((messages == 1 || mail_header(p->text)) && read_mail(p->text, end, p)) {
		il_review_patch_free(p);
		return il_error_set(err, name, 0, "out of memory");
	}
	prev_end = p->text;
	for (const char *s = p->text; s < end; s = next_line(s, end), lineno++) {
		const char *nx = next_line(s, end);

		if (!starts(s, "--- ") || nx >= end || !starts(nx, "+++ "))
			continue;
		if (p->nfiles)
			p->files[p->nfiles - 1].end = (size_t)(section_start(p->text, s, prev_end) -
							       p->text);
		if (add_file(p, s, nx, end, section_start(p->text, s, prev_end), name, err,
			     lineno)) {
			il_review_patch_free(p);
			return -1;
		}
		prev_end = nx;
	}
	if (!p->nfiles) {
		il_review_patch_free(p);
		return il_error_set(err, name, 0, "no file in it: not a unified diff (no '--- ' "
				    "line followed by '+++ ')");
	}
	p->files[p->nfiles - 1].end = len;
	if (!p->message && !(p->message = calloc(1, 1))) {
		il_review_patch_free(p);
		return il_error_set(err, name, 0, "out of memory");
	}
	return 0;
}

void il_review_patch_free(struct il_review_patch *p)
{
	free(p->text);
	free(p->message);
	p->text = p->message = NULL;
}

/* ---- applying --------------------------------------------------------------------------- */

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out, ret = 0;
	ssize_t n;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			ret = -1;
			break;
		}
	if (n < 0)
		ret = -1;
	close(in);
	return close(out) || ret ? -1 : 0;
}

/* Copy the regular files of @tree/GOV_DIR into @dir/GOV_DIR. */
static int copy_governors(const char *tree, const char *dir, struct il_error *err)
{
	char from[4096], to[4096];
	struct dirent *e;
	DIR *d;

	snprintf(from, sizeof(from), "%s/%s", tree, GOV_DIR);
	d = opendir(from);
	if (!d) {
		il_error_set(err, from, 0, "%s", strerror(errno));
		return il_error_need(err, IL_NEED_TREE);
	}
	snprintf(to, sizeof(to), "%s/drivers", dir);
	mkdir(to, 0755);
	snprintf(to, sizeof(to), "%s/drivers/cpuidle", dir);
	mkdir(to, 0755);
	snprintf(to, sizeof(to), "%s/%s", dir, GOV_DIR);
	if (mkdir(to, 0755) && errno != EEXIST) {
		closedir(d);
		return il_error_set(err, to, 0, "%s", strerror(errno));
	}
	while ((e = readdir(d))) {
		struct stat st;

		snprintf(from, sizeof(from), "%s/%s%s", tree, GOV_DIR, e->d_name);
		if (stat(from, &st) || !S_ISREG(st.st_mode))
			continue;
		snprintf(to, sizeof(to), "%s/%s%s", dir, GOV_DIR, e->d_name);
		if (copy_file(from, to)) {
			closedir(d);
			return il_error_set(err, to, 0, "cannot copy %s: %s", from,
					    strerror(errno));
		}
	}
	closedir(d);
	return 0;
}

/* The sections of the files that are applied, as one patch file. */
static int write_filtered(const struct il_review_patch *p, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	for (int i = 0; i < p->nfiles; i++)
		if (p->files[i].kind != IL_REVIEW_REFUSED)
			fwrite(p->text + p->files[i].start, 1,
			       p->files[i].end - p->files[i].start, f);
	return fclose(f);
}

static void append(char **log, size_t *n, const char *s, size_t len)
{
	char *grown = realloc(*log, *n + len + 1);

	if (!grown)
		return;
	*log = grown;
	memcpy(*log + *n, s, len);
	*n += len;
	(*log)[*n] = '\0';
}

/* Run patch(1) in @dir on @file; its output goes to *@log. Return: its exit status, -1. */
static int run_patch(const char *dir, const char *file, int strip, char **log, size_t *n)
{
	char pflag[8], dflag[4200], iflag[4200];
	char *argv[] = { "patch", pflag, "--batch", "--forward", "--no-backup-if-mismatch",
			 dflag, iflag, NULL };
	posix_spawn_file_actions_t fa;
	int pipefd[2], status, ret;
	char buf[4096];
	ssize_t got;
	pid_t pid;

	snprintf(pflag, sizeof(pflag), "-p%d", strip);
	snprintf(dflag, sizeof(dflag), "--directory=%s", dir);
	snprintf(iflag, sizeof(iflag), "--input=%s", file);
	if (pipe2(pipefd, O_CLOEXEC))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDERR_FILENO);
	ret = posix_spawnp(&pid, "patch", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (ret) {
		close(pipefd[0]);
		errno = ret;
		return -1;
	}
	while ((got = read(pipefd[0], buf, sizeof(buf))) > 0 || (got < 0 && errno == EINTR))
		if (got > 0)
			append(log, n, buf, (size_t)got);
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* Add the rejected hunks (the .rej files patch left) to *@log. */
static void append_rejects(const struct il_review_patch *p, const char *dir, char **log,
			   size_t *n)
{
	for (int i = 0; i < p->nfiles; i++) {
		char path[4096], buf[4096];
		size_t got;
		FILE *f;

		if (p->files[i].kind == IL_REVIEW_REFUSED)
			continue;
		snprintf(path, sizeof(path), "%s/%s.rej", dir, p->files[i].path);
		f = fopen(path, "r");
		if (!f)
			continue;
		snprintf(buf, sizeof(buf), "rejected hunks of %s:\n", p->files[i].path);
		append(log, n, buf, strlen(buf));
		while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
			append(log, n, buf, got);
		fclose(f);
	}
}

int il_review_patch_apply(const struct il_review_patch *p, const char *tree, const char *dir,
			  char **log, struct il_error *err)
{
	char file[4096];
	size_t n = 0;
	int status;

	*log = NULL;
	if (copy_governors(tree, dir, err))
		return -1;
	for (int i = 0; i < p->nfiles; i++) {
		char path[4096];

		if (p->files[i].kind == IL_REVIEW_REFUSED || p->files[i].created)
			continue;
		snprintf(path, sizeof(path), "%s/%s", tree, p->files[i].path);
		if (access(path, R_OK))
			return il_error_set(err, path, 0, "%s: the patch changes a file the tree "
					    "does not have", strerror(errno));
	}
	snprintf(file, sizeof(file), "%s/review.patch", dir);
	if (write_filtered(p, file))
		return il_error_set(err, file, 0, "%s", strerror(errno));
	status = run_patch(dir, file, p->strip, log, &n);
	unlink(file);
	if (status < 0)
		return il_error_set(err, "patch", 0, "cannot run patch(1): %s (install GNU patch)",
				    strerror(errno));
	if (status) {
		append_rejects(p, dir, log, &n);
		return il_error_set(err, "patch", 0, "the patch does not apply to %s (patch(1) "
				    "exit status %d)", tree, status);
	}
	return 0;
}
