// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary_cli.c - --baseline, the summary tables' note, and writing results with their
 * summaries (see summary_cli.h).
 */
#include <errno.h>
#include <string.h>

#include "summary_cli.h"

int summary_check_baseline(const char *baseline, const char *const *govs, int n,
			   struct cli_error *err)
{
	if (!baseline)
		return 0;
	for (int i = 0; i < n; i++)
		if (!strcmp(govs[i], baseline))
			return 0;
	cli_error_set(err, "--baseline %s is not one of the -g governors", baseline);
	return -1;
}

const char *summary_note(char *buf, size_t cap, const char *baseline, bool paired,
			 unsigned int ensemble)
{
	char design[256];

	if (!paired)
		snprintf(design, sizeof(design), "Welch");
	else if (!ensemble)
		snprintf(design, sizeof(design), "paired by seed");
	else
		snprintf(design, sizeof(design), "under an ensemble of %u model variants (iter k: "
			 "variant k %% %u), intervals the envelope of the variants' own, paired by "
			 "seed, and p the largest of theirs (where nothing is uncertain, paired by "
			 "seed over all rows)", ensemble, ensemble);
	snprintf(buf, cap, "± and [ ]: 95 %% confidence intervals of the mean and of the "
		 "difference from %s, in %% of its mean; %s; p: two-sided t-test", baseline,
		 design);
	return buf;
}

int summary_write(FILE *out, const struct il_output_format *fmt, const struct il_result_part *parts,
		  int n, const char *const *lead_names, int nlead, const char *note)
{
	struct il_result_out o;
	int ret;

	if (il_result_tables(&o, fmt->name, parts, n, lead_names, nlead, note))
		return -1;
	ret = fmt->write(out, o.tables, o.n);
	il_result_out_free(&o);
	return ret;
}
