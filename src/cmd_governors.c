// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_governors.c - `idlelab governors`: every preset, what kernel and upstream file it
 * follows, what changed against the previous one, and the aliases that point at it.
 */
#include <string.h>
#include "util/array.h"
#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

#include "cli.h"
#include "commands.h"
#include "gov/governors.h"
#include "output/output.h"

int governors_parse_args(int argc, char **argv, struct governors_args *args, struct cli_error *err)
{
	memset(args, 0, sizeof(*args));
	return cli_parse_listing_args(argc, argv, &args->format, NULL, NULL, err);
}

void cmd_governors_usage(FILE *out)
{
	fprintf(out, "usage: idlelab governors [-f table|csv|json]\n"
		     "\n"
		     "List every governor preset: its name (what -g takes), the governor family, "
		     "the\n"
		     "kernel it follows, the idle-loop/core rules around it, the upstream file "
		     "with its\n"
		     "blob and commit, one line on what changed against the previous preset, and "
		     "the\n"
		     "aliases that stand for it.\n"
		     "\n"
		     "  -f, --format FMT   table (default), csv (one row per preset) or json\n");
}

/* The aliases pointing at @preset, as "a, b", into @buf. */
static const char *aliases_of(const struct il_preset *preset, char *buf, size_t cap)
{
	static const char *const aliases[][2] = {
#define IL_ALIAS_PAIR(a, t) { a, t },
		IL_ALIASES(IL_ALIAS_PAIR)
#undef IL_ALIAS_PAIR
	};
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++) {
		if (strcmp(aliases[i][1], preset->name))
			continue;
		used += (size_t)snprintf(buf + used, used < cap ? cap - used : 0, "%s%s",
					 used ? " " : "", aliases[i][0]);
	}
	return buf;
}

static const char *str_or_dash(const char *s)
{
	return s && *s ? s : "-";
}

enum { COL_NAME, COL_FAMILY, COL_KERNEL, COL_CORE, COL_ALIASES, COL_UPSTREAM, COL_CHANGES, NCOLS };

static void preset_columns(const struct il_preset *p, const char *cols[NCOLS], char *aliases,
			   size_t cap)
{
	cols[COL_NAME] = p->name;
	cols[COL_FAMILY] = p->gov->name;
	cols[COL_KERNEL] = str_or_dash(p->kernel);
	cols[COL_CORE] = p->core ? p->core->name : "-";
	cols[COL_ALIASES] = str_or_dash(aliases_of(p, aliases, cap));
	cols[COL_UPSTREAM] = str_or_dash(p->upstream);
	cols[COL_CHANGES] = str_or_dash(p->changes);
}

static void print_row(FILE *out, const char *cols[NCOLS], const int width[NCOLS])
{
	for (int c = 0; c < NCOLS - 1; c++)
		fprintf(out, "%-*s  ", width[c], cols[c]);
	fprintf(out, "%s\n", cols[NCOLS - 1]);
}

static void print_table(FILE *out)
{
	const char *header[NCOLS] = { "NAME", "FAMILY", "KERNEL", "CORE", "ALIASES", "UPSTREAM",
				      "CHANGES" };
	const char *cols[NCOLS];
	int width[NCOLS];
	char aliases[128];
	int n = il_preset_count();

	for (int c = 0; c < NCOLS; c++)
		width[c] = (int)strlen(header[c]);
	for (int i = 0; i < n; i++) {
		preset_columns(il_preset_at(i), cols, aliases, sizeof(aliases));
		for (int c = 0; c < NCOLS; c++)
			if ((int)strlen(cols[c]) > width[c])
				width[c] = (int)strlen(cols[c]);
	}
	print_row(out, header, width);
	for (int i = 0; i < n; i++) {
		preset_columns(il_preset_at(i), cols, aliases, sizeof(aliases));
		print_row(out, cols, width);
	}
	if (!n)
		fprintf(out, "(no presets)\n");
}

/* An alias whose target is not a preset is a registry bug worth showing. */
static void print_dangling_aliases(FILE *out)
{
#define IL_ALIAS_CHECK(a, t)                                                                \
	if (!il_preset_find(t))                                                             \
		fprintf(out, "note: alias %s stands for %s, which is not a preset\n", a, t);
	IL_ALIASES(IL_ALIAS_CHECK)
#undef IL_ALIAS_CHECK
}

static void print_csv(FILE *out)
{
	char aliases[128];

	fprintf(out, "name,family,kernel,core,aliases,upstream,changes\n");
	for (int i = 0; i < il_preset_count(); i++) {
		const struct il_preset *p = il_preset_at(i);
		const char *fields[] = { p->name, p->gov->name, p->kernel ? p->kernel : "",
					 p->core ? p->core->name : "",
					 aliases_of(p, aliases, sizeof(aliases)),
					 p->upstream ? p->upstream : "",
					 	p->changes ? p->changes : "" };

		for (size_t f = 0; f < ARRAY_SIZE(fields); f++) {
			if (f)
				fputc(',', out);
			il_csv_field(out, fields[f]);
		}
		fputc('\n', out);
	}
}

#ifdef HAVE_JANSSON
static json_t *json_str(const char *s)
{
	return json_string(s ? s : "");
}

static int print_json(FILE *out)
{
	json_t *root = json_object(), *presets = json_array(), *aliases = json_object();
	char buf[128];
	int ret;

	for (int i = 0; i < il_preset_count(); i++) {
		const struct il_preset *p = il_preset_at(i);
		json_t *o = json_object();

		json_object_set_new(o, "name", json_str(p->name));
		json_object_set_new(o, "family", json_str(p->gov->name));
		json_object_set_new(o, "kernel", json_str(p->kernel));
		json_object_set_new(o, "core", json_str(p->core ? p->core->name : NULL));
		json_object_set_new(o, "aliases", json_str(aliases_of(p, buf, sizeof(buf))));
		json_object_set_new(o, "upstream", json_str(p->upstream));
		json_object_set_new(o, "changes", json_str(p->changes));
		json_array_append_new(presets, o);
	}
#define IL_ALIAS_JSON(a, t) json_object_set_new(aliases, a, json_string(t));
	IL_ALIASES(IL_ALIAS_JSON)
#undef IL_ALIAS_JSON
	json_object_set_new(root, "presets", presets);
	json_object_set_new(root, "aliases", aliases);
	ret = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	return ret;
}
#else
static int print_json(FILE *out)
{
	return -1;
}
#endif

static int governors_parse(int argc, char **argv, void *state, struct cli_error *err)
{
	return governors_parse_args(argc, argv, state, err);
}

static int governors_main(void *state)
{
	struct governors_args *args = state;

	switch (args->format) {
	case CLI_FORMAT_CSV:
		print_csv(stdout);
		break;
	case CLI_FORMAT_JSON:
		if (print_json(stdout)) {
			fprintf(stderr, "idlelab governors: JSON output needs libjansson "
					"(install libjansson-dev and rebuild)\n");
			return CLI_EXIT_RUNTIME;
		}
		break;
	default:
		print_table(stdout);
		print_dangling_aliases(stdout);
	}
	return CLI_EXIT_OK;
}

int cmd_governors(int argc, char **argv)
{
	static const struct cli_lifecycle lc = {
		.name = "governors", .size = sizeof(struct governors_args),
			.parse = governors_parse,
		.usage = cmd_governors_usage, .run = governors_main,
	};

	return cli_main(&lc, argc, argv);
}
