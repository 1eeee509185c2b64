// SPDX-License-Identifier: GPL-2.0-only
/*
 * build.c - compile an upstream governor file with the kernel-API shim into a shared object.
 *
 * The command is (shown by `idlelab kgov build -v`):
 *
 *	cc -std=gnu11 -O2 -fPIC -shared -fno-strict-overflow -fwrapv -fvisibility=hidden
 *	   -ffreestanding -nostdinc -isystem <the compiler's own include dir>
 *	   -I<kshim>/include -I<tree> <errors for what would break silently>
 *	   -o OUT.so <tmp>/wrapper.c <kshim>/kshim.c
 *
 * -nostdinc keeps libc and the host's /usr/include/linux headers out, so a header the shim
 * does not provide is an error that names it, not a silent mix of kernel UAPI and libc.
 * The kernel's -fno-strict-overflow is kept, so signed overflow wraps as it does upstream.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kgov.h"
#include "../util/datadir.h"

#define MAX_ARGS 64

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool shim_dir_ok(const char *dir)
{
	char probe[PATH_MAX];

	if (snprintf(probe, sizeof(probe), "%s/include/linux/kshim.h", dir) >= (int)sizeof(probe))
		return false;
	return access(probe, R_OK) == 0;
}

/*
 * Where the shim is: $IDLELAB_KSHIM_DIR, else kshim/ where idlelab's data is
 * (il_datadir_find(): the source tree for a program running from its build directory, the
 * install prefix next to the executable, the datadir compiled in, the source tree, ./kshim).
 */
const char *il_kgov_shim_dir(void)
{
	static char dir[PATH_MAX];
	const char *env = getenv("IDLELAB_KSHIM_DIR");

	if (env && *env)
		return env;
	return il_datadir_find(dir, sizeof(dir), "kshim", shim_dir_ok);
}

/* The whole file at @path, NUL-terminated; NULL with errno set on failure. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap ? cap * 2 : 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap = cap ? cap * 2 : 65536;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);

		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Run @argv; its stdout and stderr go to *@log. Return: its exit status, or -1. */
static int run_capture(char *const argv[], char **log)
{
	int fds[2], status;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	pid_t pid;

	*log = NULL;
	if (!buf || pipe(fds)) {
		free(buf);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		free(buf);
		return -1;
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		ssize_t got;

		if (n + 1024 > cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		got = read(fds[0], buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	close(fds[0]);
	buf[n] = '\0';
	*log = buf;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The compiler's own header directory (stddef.h, stdint.h), or "" if it cannot say. */
static void compiler_include_dir(const char *cc, char *out, size_t cap)
{
	char *argv[] = { (char *)cc, "-print-file-name=include", NULL };
	char *log = NULL;
	char probe[PATH_MAX];

	out[0] = '\0';
	if (run_capture(argv, &log) == 0 && log) {
		log[strcspn(log, "\n")] = '\0';
		snprintf(probe, sizeof(probe), "%s/stddef.h", log);
		if (log[0] == '/' && access(probe, R_OK) == 0)
			snprintf(out, cap, "%s", log);
	}
	free(log);
}

static void quote_append(char *buf, size_t cap, const char *arg)
{
	size_t used = strlen(buf);
	bool plain = *arg && strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					"0123456789-_=./+,:@%") == strlen(arg);

	if (used && used + 1 < cap)
		buf[used++] = ' ', buf[used] = '\0';
	if (plain) {
		snprintf(buf + used, cap - used, "%s", arg);
		return;
	}
	snprintf(buf + used, cap - used, "'");
	for (const char *p = arg; *p; p++) {
		used = strlen(buf);
		if (*p == '\'')
			snprintf(buf + used, cap - used, "'\\''");
		else
			snprintf(buf + used, cap - used, "%c", *p);
	}
	used = strlen(buf);
	snprintf(buf + used, cap - used, "'");
}

struct argv_builder {
	char *argv[MAX_ARGS + 1];
	char store[MAX_ARGS][PATH_MAX + 32];
	int n;
};

static void add_arg(struct argv_builder *b, const char *fmt, const char *s)
{
	if (b->n >= MAX_ARGS)
		return;
	snprintf(b->store[b->n], sizeof(b->store[b->n]), fmt, s);
	b->argv[b->n] = b->store[b->n];
	b->argv[++b->n] = NULL;
}

static int write_wrapper_file(const char *path, const char *text, size_t len, const char *src,
			      const struct kgov_scan *scan, struct il_error *err)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return il_error_set(err, path, 0, "cannot create: %s", strerror(errno));
	ret = kgov_write_wrapper(f, text, len, src, scan, err);
	if (fclose(f) && !ret)
		ret = il_error_set(err, path, 0, "cannot write: %s", strerror(errno));
	return ret;
}

int il_kgov_build(const char *src, const char *out, const struct il_kgov_build_opts *opts,
		  struct il_kgov_build_result *res, struct il_error *err)
{
	static const struct il_kgov_build_opts defaults;
	char abs_src[PATH_MAX], tmpdir[] = "/tmp/idlelab-kgov-XXXXXX", wrapper[PATH_MAX];
	char up[PATH_MAX + 8], root[PATH_MAX], gcc_inc[PATH_MAX], shim[PATH_MAX];
	struct argv_builder *b = NULL;
	const char *cc, *shim_dir;
	char *text = NULL;
	size_t len = 0;
	int ret = -1, status;

	if (!opts)
		opts = &defaults;
	memset(res, 0, sizeof(*res));
	cc = opts->cc ? opts->cc : getenv("CC");
	if (!cc || !*cc)
		cc = "cc";
	shim_dir = opts->shim_dir ? opts->shim_dir : il_kgov_shim_dir();
	if (!shim_dir || !shim_dir_ok(shim_dir))
		return il_error_set(err, src, 0,
				    "kernel shim not found (not installed with idlelab "
				    "under share/idlelab/kshim; set IDLELAB_KSHIM_DIR to a kshim/ "
				    "directory)");
	if (!realpath(shim_dir, shim))
		return il_error_set(err, shim_dir, 0, "%s", strerror(errno));
	snprintf(up, sizeof(up), "%s/..", shim);
	if (!is_dir(up) || !realpath(up, root))
		return il_error_set(err, shim_dir, 0, "no idlelab headers above the shim (lib/)");
	if (!realpath(src, abs_src))
		return il_error_set(err, src, 0, "%s", strerror(errno));
	text = read_file(abs_src, &len);
	if (!text)
		return il_error_set(err, src, 0, "cannot read: %s", strerror(errno));
	if (kgov_scan_source(text, len, src, &res->scan, err))
		goto out_text;
	if (!mkdtemp(tmpdir)) {
		il_error_set(err, tmpdir, 0, "cannot create: %s", strerror(errno));
		goto out_text;
	}
	snprintf(wrapper, sizeof(wrapper), "%s/wrapper.c", tmpdir);
	if (write_wrapper_file(wrapper, text, len, abs_src, &res->scan, err))
		goto out_tmp;

	b = calloc(1, sizeof(*b));
	if (!b) {
		il_error_set(err, src, 0, "out of memory");
		goto out_tmp;
	}
	compiler_include_dir(cc, gcc_inc, sizeof(gcc_inc));
	add_arg(b, "%s", cc);
	add_arg(b, "%s", "-std=gnu11");
	add_arg(b, "%s", "-O2");
	add_arg(b, "%s", "-fPIC");
	add_arg(b, "%s", "-shared");
	add_arg(b, "%s", "-fno-strict-overflow");
	add_arg(b, "%s", "-fwrapv");
	add_arg(b, "%s", "-fvisibility=hidden");
	if (gcc_inc[0]) {
		add_arg(b, "%s", "-ffreestanding");
		add_arg(b, "%s", "-nostdinc");
		add_arg(b, "-isystem%s", gcc_inc);
	}
	add_arg(b, "-I%s/include", shim);
	add_arg(b, "-I%s", root);
	add_arg(b, "%s", "-Werror=implicit-function-declaration");
	add_arg(b, "%s", "-Werror=implicit-int");
	add_arg(b, "%s", "-Werror=incompatible-pointer-types");
	add_arg(b, "%s", "-Werror=int-conversion");
	if (opts->extra_cflags) {
		char *copy = strdup(opts->extra_cflags), *save = NULL;

		for (char *t = copy ? strtok_r(copy, " ", &save) : NULL; t;
		     t = strtok_r(NULL, " ", &save))
			add_arg(b, "%s", t);
		free(copy);
	}
	add_arg(b, "%s", "-o");
	add_arg(b, "%s", out);
	add_arg(b, "%s", wrapper);
	add_arg(b, "%s/kshim.c", shim);
	if (b->n >= MAX_ARGS) {
		il_error_set(err, src, 0, "too many compiler arguments");
		goto out_tmp;
	}
	for (int i = 0; i < b->n; i++)
		quote_append(res->command, sizeof(res->command), b->argv[i]);

	status = run_capture(b->argv, &res->log);
	if (status != 0) {
		il_error_set(err, src, 0, status < 0 ? "cannot run the compiler %s" :
				     "the compiler failed (%s); its output is above", cc);
		goto out_tmp;
	}
	ret = 0;
out_tmp:
	unlink(wrapper);
	rmdir(tmpdir);
	free(b);
out_text:
	free(text);
	return ret;
}
