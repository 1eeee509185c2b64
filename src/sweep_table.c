// SPDX-License-Identifier: GPL-2.0-only
/*
 * sweep_table.c - DIR/sweep.{csv,json} and the summary of a sweep's rows (output/sweep_rows.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "output/output.h"
#include "sweep_table.h"
#include "util/atomic.h"
#include "util/parse.h"

static int write_one(struct il_atomic *out, const char *path, const struct il_output_format *fmt,
		     const struct il_table *t)
{
	const struct il_table *ptrs[1] = { t };

	if (il_atomic_open(out, path))
		return -1;
	if (fmt->write(out->f, ptrs, 1)) {
		il_atomic_abort(out);
		return -1;
	}
	return 0;
}

int sweep_write_dir(const char *dir, struct il_sweep_rec *recs, size_t n, int ensemble,
		    const char *cmd)
{
	static const char *const names[] = {
		"sweep.csv", "sweep.json", "summary.csv", "summary.json",
	};
	const struct il_output_format *fmts[] = { &il_output_csv, &il_output_json, &il_output_csv,
						  &il_output_json };
	struct il_atomic out[4];
	char final[4][4096];
	struct il_table t, sum = { 0 };
	bool made_dir = false, pending[4] = { false, false, false, false };
	int nfiles = 2;

	if (il_sweep_table(&t, recs, n)) {
		fprintf(stderr, "idlelab %s: %s\n", cmd, strerror(ENOMEM));
		il_table_free(&t);
		return CLI_EXIT_RUNTIME;
	}
	for (size_t r = 1; r < n; r++) {
		if (recs[r].case_no == recs[r - 1].case_no) {
			fprintf(stderr, "idlelab %s: case %lld appears twice\n", cmd,
				recs[r].case_no);
			il_table_free(&t);
			return CLI_EXIT_USAGE;
		}
	}
	if (il_sweep_has_iterations(&t) && (nfiles = 4, il_sweep_summary(&sum, &t, ensemble))) {
		fprintf(stderr, "idlelab %s: %s\n", cmd, strerror(ENOMEM));
		il_table_free(&t);
		il_table_free(&sum);
		return CLI_EXIT_RUNTIME;
	}
	if (mkdir(dir, 0777) == 0)
		made_dir = true;
	else if (errno != EEXIST)
		goto fail;
	for (int i = 0; i < nfiles; i++) {
		snprintf(final[i], sizeof(final[i]), "%s/%s", dir, names[i]);
		if (write_one(&out[i], final[i], fmts[i], i < 2 ? &t : &sum))
			goto fail;
		pending[i] = true;
	}
	for (int i = 0; i < nfiles; i++) {
		pending[i] = false;
		if (il_atomic_commit(&out[i]))
			goto fail;
	}
	il_table_free(&t);
	il_table_free(&sum);
	return CLI_EXIT_OK;
fail:
	fprintf(stderr, "idlelab %s: writing %s: %s\n", cmd, dir, strerror(errno));
	for (int i = 0; i < nfiles; i++)
		if (pending[i])
			il_atomic_abort(&out[i]);
	if (made_dir)
		rmdir(dir);
	il_table_free(&t);
	il_table_free(&sum);
	return CLI_EXIT_RUNTIME;
}
