// SPDX-License-Identifier: GPL-2.0-only
/*
 * shipped.c - the real traces installed with idlelab, which `idlelab review` replays by
 * default: <data>/traces/PLATFORM/FILE, where PLATFORM is the built-in platform whose state
 * table the trace was recorded on (traces/README.md says where each comes from). The
 * directory is part of the install, like the shim (lib/util/datadir.c); nothing of the host
 * is read.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../platform/platform.h"
#include "../util/datadir.h"
#include "review.h"

#define SHIPPED_README "README.md"

/* The traces directory holds its README: what each trace is and where it comes from. */
static bool traces_dir_ok(const char *dir)
{
	char probe[PATH_MAX];

	return snprintf(probe, sizeof(probe), "%s/" SHIPPED_README, dir) < (int)sizeof(probe) &&
	       access(probe, R_OK) == 0;
}

/* Bytewise, not alphasort()'s locale order: the same order on every machine. */
static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int not_dot(const struct dirent *e)
{
	return strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
}

/* The entries of @dir but . and .., sorted by name (free with free_entries()). */
static int sorted_entries(const char *dir, struct dirent ***names, int *n, struct il_error *err)
{
	*n = scandir(dir, names, not_dot, by_name);
	if (*n < 0) {
		*n = 0;
		return il_error_set(err, dir, 0, "%s", strerror(errno));
	}
	return 0;
}

static void free_entries(struct dirent **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static bool is_kind(const char *path, mode_t kind)
{
	struct stat st;

	return !stat(path, &st) && (st.st_mode & S_IFMT) == kind;
}

/* Every regular file of @top/@plat into @s (after @*n). */
static int add_platform(const char *top, const char *plat, struct il_review_shipped *s, int max,
			int *n, struct il_error *err)
{
	char dir[PATH_MAX];
	struct dirent **names;
	int count, ret = 0;

	if (snprintf(dir, sizeof(dir), "%s/%s", top, plat) >= (int)sizeof(dir))
		return il_error_set(err, top, 0, "%s: path too long", plat);
	if (!il_platform_builtin_text(plat))
		return il_error_set(err, dir, 0, "not a built-in platform: the directories of the "
				    "shipped traces are named after the state table they were "
				    "recorded on");
	if (sorted_entries(dir, &names, &count, err))
		return -1;
	for (int i = 0; i < count && !ret; i++) {
		struct il_review_shipped *t = &s[*n];

		if (*n == max) {
			ret = il_error_set(err, dir, 0, "more than %d shipped traces", max);
			break;
		}
		if (snprintf(t->path, sizeof(t->path), "%s/%s", dir, names[i]->d_name) >=
		    (int)sizeof(t->path) ||
		    snprintf(t->name, sizeof(t->name), "%s/%s", plat, names[i]->d_name) >=
		    (int)sizeof(t->name) ||
		    snprintf(t->platform, sizeof(t->platform), "%s", plat) >=
		    (int)sizeof(t->platform)) {
			ret = il_error_set(err, dir, 0, "%s: name too long", names[i]->d_name);
			break;
		}
		if (!is_kind(t->path, S_IFREG)) {
			ret = il_error_set(err, t->path, 0, "not a trace file (a regular file)");
			break;
		}
		(*n)++;
	}
	free_entries(names, count);
	return ret;
}

int il_review_shipped_traces(struct il_review_shipped *s, int max, int *n, char *top, size_t cap,
			     struct il_error *err)
{
	struct dirent **names;
	int count, ret = 0;

	*n = 0;
	if (!il_datadir_find(top, cap, "traces", traces_dir_ok))
		return il_error_set(err, "traces/" SHIPPED_README, 0,
				    "the shipped traces are not installed (looked in the source "
				    "tree of a build directory, share/idlelab/traces next to the "
				    "binary and the datadir it was built for)");
	if (sorted_entries(top, &names, &count, err))
		return -1;
	for (int i = 0; i < count && !ret; i++) {
		char sub[PATH_MAX];

		if (snprintf(sub, sizeof(sub), "%s/%s", top, names[i]->d_name) >= (int)sizeof(sub))
			ret = il_error_set(err, top, 0, "%s: path too long", names[i]->d_name);
		else if (is_kind(sub, S_IFDIR))
			ret = add_platform(top, names[i]->d_name, s, max, n, err);
	}
	free_entries(names, count);
	if (!ret && !*n)
		ret = il_error_set(err, top, 0, "no shipped trace in it");
	return ret;
}
