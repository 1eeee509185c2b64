// SPDX-License-Identifier: GPL-2.0-only
/*
 * datadir.c - find idlelab's installed data (kshim/, traces/) from where the running
 * program is: its build directory, its install prefix, or the paths compiled in
 * (IL_SRCDIR, IL_BUILDDIR, IL_DATADIR: the Makefile passes them to this file only).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datadir.h"

/* The directory of the running executable, resolved; false if /proc cannot say. */
static bool exe_dir(char *out, size_t cap)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return false;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return false;
	*slash = '\0';
	snprintf(out, cap, "%s", exe[0] ? exe : "/");
	return true;
}

#ifdef IL_BUILDDIR
/* Whether directory @dir is @top or below it (both resolved). */
static bool dir_under(const char *dir, const char *top)
{
	char rtop[PATH_MAX];
	size_t n;

	if (!realpath(top, rtop))
		return false;
	n = strlen(rtop);
	return !strncmp(dir, rtop, n) && (dir[n] == '\0' || dir[n] == '/');
}
#endif

/* @dir/@mid@sub, resolved (no "bin/.." in what the user is shown), into @out if it fits
 * and @ok accepts it. */
static bool data_at(char *out, size_t cap, const char *dir, const char *mid, const char *sub,
		    bool (*ok)(const char *dir))
{
	char path[PATH_MAX], real[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/%s%s", dir, mid, sub);

	if (n < 0 || (size_t)n >= sizeof(path) || !ok(path) || !realpath(path, real) ||
	    strlen(real) >= cap)
		return false;
	strcpy(out, real);
	return true;
}

const char *il_datadir_find(char *out, size_t cap, const char *sub, bool (*ok)(const char *dir))
{
	char self[PATH_MAX];
	bool have_self = exe_dir(self, sizeof(self));

#if defined(IL_SRCDIR) && defined(IL_BUILDDIR)
	if (have_self && dir_under(self, IL_BUILDDIR) && data_at(out, cap, IL_SRCDIR, "", sub, ok))
		return out;
#endif
	if (have_self && data_at(out, cap, self, "../share/idlelab/", sub, ok))
		return out;
#ifdef IL_DATADIR
	if (data_at(out, cap, IL_DATADIR, "idlelab/", sub, ok))
		return out;
#endif
#ifdef IL_SRCDIR
	if (data_at(out, cap, IL_SRCDIR, "", sub, ok))
		return out;
#endif
	return data_at(out, cap, ".", "", sub, ok) ? out : NULL;
}
