// SPDX-License-Identifier: GPL-2.0-only
/*
 * kgov_build_cli.c - `idlelab kgov build`, and the build-and-load step every other action
 * runs on a C file (kgov_build_file(), kgov_load_source()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "kgov_args.h"
#include "kgov_cli.h"
#include "kgov/kgov.h"
#include "util/atomic.h"

/* "drivers/.../menu.c" -> "menu.so" */
static void default_output(const char *src, char *out, size_t cap)
{
	const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
	size_t n = strlen(base);

	if (kgov_ends_with(base, ".c"))
		n -= 2;
	snprintf(out, cap, "%.*s.so", (int)n, base);
}

/* A directory given as the source file: say so, rather than the read error it gives. */
static int check_source(const char *src)
{
	struct stat st;

	if (stat(src, &st) || !S_ISDIR(st.st_mode))
		return 0;
	fprintf(stderr, "idlelab kgov: %s: is a directory, not a governor source file (e.g. "
		"%s/drivers/cpuidle/governors/menu.c)\n", src, src);
	return -1;
}

/*
 * Where the object goes must be a file we can write: try it before compiling, so the error
 * names the path and the reason (the compiler's would be buried in its output).
 */
int kgov_check_output(const char *out, const char *what, const char *example)
{
	struct stat st;

	if (!stat(out, &st) && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "idlelab kgov: %s: is a directory; give the %s's file name "
			"(-o %s/%s)\n", out, what, out, example);
		return -1;
	}
	/* A temporary made and removed in the target's directory: nothing is created at @out
	 * itself, and a symbolic link there is followed as the writer will. */
	if (il_atomic_probe(out)) {
		char why[CLI_WHY_LEN];

		fprintf(stderr, "idlelab kgov: cannot write %s: %s\n", out,
			il_atomic_strerror(out, errno, why, sizeof(why)));
		return -1;
	}
	return 0;
}

/* The governor family and blob of the last successful build(), for what cmd_build() says. */
static char built_family[64], built_blob[41];

int kgov_build_file(const char *src, const char *out, bool verbose)
{
	struct il_kgov_build_result res;
	struct il_error err = { 0 };
	int ret;

	if (check_source(src))
		return CLI_EXIT_RUNTIME;
	ret = il_kgov_build(src, out, NULL, &res, &err);
	if (verbose || ret)
		fprintf(ret ? stderr : stdout, "%s\n", res.command[0] ? res.command : "(not "
			"compiled)");
	if (res.log && *res.log && (verbose || ret))
		fputs(res.log, stderr);
	free(res.log);
	if (ret) {
		fprintf(stderr, "idlelab kgov: %s\n", err.msg);
		return CLI_EXIT_RUNTIME;
	}
	if (verbose)
		printf("%s: %s governor, blob %.12s, select(%s), per-CPU %s%s\n", out,
		       res.scan.family,
		       res.scan.blob, res.scan.stop_tick ? "drv, dev, &stop_tick" : "drv, dev",
		       res.scan.percpu_tag[0] ? "struct " : "(none)", res.scan.percpu_tag);
	snprintf(built_family, sizeof(built_family), "%s", res.scan.family);
	snprintf(built_blob, sizeof(built_blob), "%s", res.scan.blob);
	return CLI_EXIT_OK;
}

/*
 * What build says: the -g that runs the object, with the preset whose framework rules fit
 * (the one whose upstream blob it is); a patched file follows no preset, so the user names
 * the one the tree is based on, as a reply must say which rules it ran.
 */
static void print_built(const char *src, const char *out)
{
	struct il_kgov_framework_query q = { .family = built_family, .blob = built_blob };
	struct il_kgov_framework fw;

	printf("kgov: wrote %s (the %s governor of %s); run it with -g file:%s@", out,
	       built_family[0] ? built_family : "?", src, out);
	if (!il_kgov_framework_choose(&q, &fw, NULL))
		printf("%s (blob %.12s is %s's)\n", fw.preset->name, built_blob, fw.preset->name);
	else
		printf("PRESET, PRESET the version the file is based on (blob %.12s is no "
		       "preset's; "
		       "idlelab governors)\n", built_blob);
}

int kgov_cmd_build(const struct kgov_args *args)
{
	char out[4096];
	int ret;

	if (args->out)
		snprintf(out, sizeof(out), "%s", args->out);
	else
		default_output(args->src, out, sizeof(out));
	if (check_source(args->src) || kgov_check_output(out, "object", "NAME.so"))
		return CLI_EXIT_RUNTIME;
	ret = kgov_build_file(args->src, out, args->verbose);
	if (ret == CLI_EXIT_OK)
		print_built(args->src, out);
	return ret;
}


/* Load SRC.c (built into @tmpdir) or OBJ.so like @like (NULL: by its blob). */
const struct il_preset *kgov_load_source(const struct kgov_args *args, const struct il_preset *like,
					char *tmpdir, char *obj, size_t obj_cap, bool *built)
{
	struct il_kgov_load_opts lopts = { .like = like };
	struct il_error err = { 0 };
	const struct il_preset *up;

	*built = false;
	if (!kgov_ends_with(args->src, ".so")) {
		if (!mkdtemp(tmpdir)) {
			fprintf(stderr, "idlelab kgov: %s: %s\n", tmpdir, strerror(errno));
			return NULL;
		}
		snprintf(obj, obj_cap, "%s/gov.so", tmpdir);
		*built = true;
		if (kgov_build_file(args->src, obj, args->verbose))
			return NULL;
	}
	up = il_kgov_load(*built ? obj : args->src, &lopts, &err);
	if (!up)
		fprintf(stderr, "idlelab kgov: %s\n", err.msg);
	return up;
}
