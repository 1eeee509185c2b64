// SPDX-License-Identifier: GPL-2.0-only
/*
 * kgov_vector_cli.c - `idlelab kgov record` and `verify`: golden vectors, through xz(1) when
 * the name ends in .xz.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "kgov_args.h"
#include "kgov_cli.h"
#include "kgov/kgov.h"
#include "util/atomic.h"

/* ---- vector files ---------------------------------------------------------------------------- */

extern char **environ;

/* Run "xz ARG" with @in_fd as its stdin and @out_fd as its stdout. Return: its exit status. */
static int run_xz(const char *arg, int in_fd, int out_fd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = { "xz", (char *)arg, NULL };
	int ret;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in_fd, STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	ret = posix_spawnp(pid, "xz", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return ret;
}

static int wait_xz(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* A pipe neither end of which leaks into xz (it would never see the end of its input). */
static int cloexec_pipe(int p[2])
{
	if (pipe(p))
		return -1;
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

/* Write @b to @path, whole or not at all (lib/util/atomic.h); through "xz -9e" if the name ends
 * in .xz. */
static int write_vector(const char *path, const struct kgov_buf *b)
{
	struct il_atomic file;
	bool xz = kgov_ends_with(path, ".xz");
	int ret = 0, fd, out, p[2];
	pid_t pid;

	if (il_atomic_open(&file, path))
		return -1;
	fd = out = file.fd;
	if (xz) {
		if (cloexec_pipe(p) || run_xz("-9ec", p[0], fd, &pid)) {
			il_atomic_abort(&file);
			return -1;
		}
		close(p[0]);
		out = p[1];
	}
	for (size_t off = 0; off < b->len && !ret;) {
		ssize_t n = write(out, b->data + off, b->len - off);

		if (n < 0 && errno != EINTR)
			ret = -1;
		else if (n > 0)
			off += (size_t)n;
	}
	if (xz) {
		close(out);
		if (wait_xz(pid))
			ret = -1;
	}
	if (ret) {
		il_atomic_abort(&file);
		return -1;
	}
	return il_atomic_commit(&file);
}

static int read_all(int fd, struct kgov_buf *b)
{
	for (;;) {
		ssize_t n;

		if (b->cap - b->len < 65536) {
			unsigned char *nd = realloc(b->data, b->cap * 2 + 65536);

			if (!nd)
				return -1;
			b->data = nd;
			b->cap = b->cap * 2 + 65536;
		}
		n = read(fd, b->data + b->len, b->cap - b->len);
		if (n == 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -1;
		if (n > 0)
			b->len += (size_t)n;
	}
}

/* Read @path into @b, through "xz -dc" if it starts with the xz magic. */
static int read_vector(const char *path, struct kgov_buf *b)
{
	static const unsigned char xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	unsigned char magic[6];
	int fd = open(path, O_RDONLY | O_CLOEXEC), p[2], ret;
	pid_t pid;

	if (fd < 0)
		return -1;
	if (read(fd, magic, sizeof(magic)) != sizeof(magic) || memcmp(magic, xz_magic, 6)) {
		ret = lseek(fd, 0, SEEK_SET) || read_all(fd, b) ? -1 : 0;
		close(fd);
		return ret;
	}
	if (lseek(fd, 0, SEEK_SET) || cloexec_pipe(p) || run_xz("-dc", fd, p[1], &pid)) {
		close(fd);
		return -1;
	}
	close(p[1]);
	close(fd);
	ret = read_all(p[0], b);
	close(p[0]);
	return wait_xz(pid) || ret ? -1 : 0;
}

int kgov_cmd_record(const struct kgov_args *args)
{
	struct il_kgov_check_opts opts = { .seed = args->seed, .steps = args->steps,
					   .platform = args->platform };
	char tmpdir[] = "/tmp/idlelab-kgov-record-XXXXXX", obj[sizeof(tmpdir) + 16];
	const struct il_preset *as = NULL, *up;
	struct il_kgov_check_result res;
	struct il_error err = { 0 };
	struct kgov_buf buf = { 0 };
	struct il_kgov_counters counters = { 0 };
	struct progress prog;
	bool built;
	int ret = CLI_EXIT_RUNTIME;

	/* Before minutes of recording: a vector that cannot be written is said at once. */
	if (kgov_check_output(args->out, "vector", "NAME.kv.xz"))
		return CLI_EXIT_RUNTIME;
	if (args->as) {
		as = il_preset_find(args->as);
		if (!as || il_kgov_is_loaded(as))
			return cli_usage_error("kgov", "unknown preset for --as (see idlelab "
						       "governors)");
	}
	up = kgov_load_source(args, as, tmpdir, obj, sizeof(obj), &built);
	if (!up)
		goto out_tmp;
	if (!as)
		as = il_kgov_like(up);
	if (!as) {
		fprintf(stderr, "idlelab kgov: %s follows no built-in preset: give --as PRESET\n",
			args->src);
		goto out_tmp;
	}
	opts.progress = &kgov_watchdog_progress;
	progress_begin(&prog, args->progress, "idlelab kgov record", PROGRESS_COUNT, "decisions",
		       args->steps);
	progress_watch(&prog, &kgov_watchdog_progress.decisions);
	ret = il_kgov_record(up, as, &opts, &buf, &res, &err);
	progress_end(&prog);
	if (ret) {
		ret = CLI_EXIT_RUNTIME;
		fprintf(stderr, "idlelab kgov: %s\n", err.msg);
		goto out_buf;
	}
	ret = CLI_EXIT_RUNTIME;
	il_kgov_counters(up, &counters);
	if (counters.shim_errors) {
		fprintf(stderr, "idlelab kgov: %lu shim errors while recording: not written\n",
			counters.shim_errors);
		goto out_buf;
	}
	if (write_vector(args->out, &buf)) {
		fprintf(stderr, "idlelab kgov: %s: cannot write%s: %s\n", args->out,
			kgov_ends_with(args->out, ".xz") ? " through xz" : "", strerror(errno));
		goto out_buf;
	}
	if (res.invalid_index_runs)
		printf("note: %u run(s) ended early on an index outside the state table (first: "
		       "%s)\n",
		       res.invalid_index_runs, res.invalid_index);
	printf("kgov: %s (blob %.12s) as %s: %llu decisions recorded (%u runs, seed %llu, %s) "
	       "to %s\n", args->src, il_kgov_blob(up) ? il_kgov_blob(up) : "?", as->name,
	       res.decisions, res.runs, args->seed, args->platform ? args->platform : "random "
	       	"platforms",
	       args->out);
	ret = CLI_EXIT_OK;
out_buf:
	kgov_buf_free(&buf);
out_tmp:
	if (built) {
		unlink(obj);
		rmdir(tmpdir);
	}
	return ret;
}

int kgov_cmd_verify(const struct kgov_args *args)
{
	const struct il_preset *port = il_preset_find(args->against);
	struct il_kgov_verify_result vr;
	struct kgov_vec_header h;
	struct il_error err = { 0 };
	struct kgov_buf buf = { 0 };
	int ret;

	if (!port || il_kgov_is_loaded(port))
		return cli_usage_error("kgov", "unknown preset for --against (see idlelab "
					       "governors)");
	if (read_vector(args->src, &buf)) {
		fprintf(stderr, "idlelab kgov: %s: %s\n", args->src,
			errno ? strerror(errno) : "cannot read (xz failed)");
		kgov_buf_free(&buf);
		return CLI_EXIT_RUNTIME;
	}
	ret = il_kgov_verify(buf.data, buf.len, port, &h, &vr, &err);
	kgov_buf_free(&buf);
	if (ret < 0) {
		fprintf(stderr, "idlelab kgov: %s: %s\n", args->src, err.msg);
		return CLI_EXIT_RUNTIME;
	}
	if (ret > 0)
		fputs(vr.report, stdout);
	free(vr.report);
	printf("kgov: %s (recorded as %s, blob %.12s) vs %s: %llu of %llu decisions verified, %s\n",
	       args->src, h.preset, h.blob, port->name, vr.verified, h.steps,
	       ret ? "first MISMATCH above" : "no mismatch");
	return ret ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
}
