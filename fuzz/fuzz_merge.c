// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: `idlelab merge` (src/cmd_merge.c) on arbitrary case files, the whole
 * reader: the CSV split, the sweep_id/sweep_cases labels and the completeness checks of a
 * sweep's cases, and for verdict case files the options they carry and their run fields.
 * The input is up to MAX_FILES case files separated by lines "%%"; they are written to a
 * temporary directory and merged with --partial (sweep cases) or as they are (a verdict),
 * into an output directory there. The command must return one of its exit statuses.
 */
#define _GNU_SOURCE
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"

#define MAX_FILES 8

/* tmpfs: every output is fsync()ed (lib/util/atomic.c), a no-op there */
static char dir[] = "/dev/shm/idlelab-fuzz-merge.XXXXXX";

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* At exit: the temporary directory and what the merges wrote into it. */
static void remove_dir(void)
{
	nftw(dir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

static void write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
}

/* The next case file of @data (up to a line "%%" or the end); Return: its length. */
static size_t next_file(const uint8_t *data, size_t size, size_t *skip)
{
	for (size_t i = 0; i + 3 <= size; i++) {
		if ((i == 0 || data[i - 1] == '\n') && !memcmp(data + i, "%%\n", 3)) {
			*skip = i + 3;
			return i;
		}
	}
	*skip = size;
	return size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char paths[MAX_FILES][64], out[64], verdict_out[64];
	char *argv[MAX_FILES + 5];
	int argc = 0, files, ret;

	if (!out[0]) {
		if (!mkdtemp(dir))
			abort();
		atexit(remove_dir);
		snprintf(out, sizeof(out), "%s/out", dir);
		snprintf(verdict_out, sizeof(verdict_out), "%s/verdict.txt", dir);
	}
	argv[argc++] = "merge";
	for (int i = 0; i < MAX_FILES && (i == 0 || size); i++) {
		size_t skip, len = next_file(data, size, &skip);

		snprintf(paths[i], sizeof(paths[i]), "%s/case-%d.csv", dir, i);
		write_file(paths[i], data, len);
		argv[argc++] = paths[i];
		data += skip;
		size -= skip;
	}
	files = argc;
	argv[argc++] = "--partial";
	argv[argc++] = "-o";
	argv[argc++] = out;
	argv[argc] = NULL;
	ret = cmd_merge(argc, argv);
	/* A verdict refuses --partial (a usage error): merge its files again without. */
	if (ret == CLI_EXIT_USAGE) {
		argc = files;
		argv[argc++] = "-o";
		argv[argc++] = verdict_out;
		argv[argc] = NULL;
		ret = cmd_merge(argc, argv);
	}
	if (ret != CLI_EXIT_OK && ret != CLI_EXIT_RUNTIME && ret != CLI_EXIT_USAGE && ret != 3)
		abort();
	return 0;
}
