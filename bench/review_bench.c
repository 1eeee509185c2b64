// SPDX-License-Identifier: GPL-2.0-only
/*
 * review_bench.c - the time of `idlelab review` of a one-file patch at its defaults (every
 * platform, the battery, 5 seeds of 2 s) on Debian 6.12's menu.c with DECAY 8 -> 4, and of
 * `kgov build` of both sides, printed as "name value" lines with the load average around
 * them (the goal, issue 24: the review within 3 minutes of wall time on 2 cores, the builds
 * within 5 s; on a machine other work shares the CPU seconds say more than the wall).
 *
 * The kernel files come from /usr/src/linux-source-6.12.tar.xz at run time (never from the
 * tree); without it the bench says so and prints no figure. The binary is $IDLELAB, else
 * build/idlelab. An argument "-p LIST" etc. is passed on to review (to time a narrowed one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TARBALL "/usr/src/linux-source-6.12.tar.xz"
#define GOV "linux-source-6.12/drivers/cpuidle/governors"

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU seconds of the children waited for so far */
static double children_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static double load1(void)
{
	double l[1];

	return getloadavg(l, 1) == 1 ? l[0] : -1.0;
}

/* Run @cmd; print NAME_wall_s and NAME_cpu_s. Return: its status. */
static int timed(const char *name, const char *cmd)
{
	double w0, c0;
	int ret;

	fflush(stdout);
	w0 = wall();
	c0 = children_cpu();
	ret = system(cmd);

	printf("%s_wall_s %.1f\n%s_cpu_s %.1f\n", name, wall() - w0, name, children_cpu() - c0);
	return ret;
}

int main(int argc, char **argv)
{
	const char *idlelab = getenv("IDLELAB") ? getenv("IDLELAB") : "build/idlelab";
	char dir[] = "/tmp/idlelab-review-bench-XXXXXX", cmd[16384], extra[2048] = "";
	char cwd[4096], bin[4200];
	size_t n = 0;
	int ret;

	if (access(TARBALL, R_OK)) {
		printf("review_skipped no %s (apt-get install linux-source-6.12)\n", TARBALL);
		return 0;
	}
	for (int i = 1; i < argc; i++)
		n += (size_t)snprintf(extra + n, sizeof(extra) - n, " '%s'", argv[i]);
	if (!mkdtemp(dir))
		return 1;
	snprintf(cmd, sizeof(cmd),
		 "cd %s && tar -xJf " TARBALL " linux-source-6.12/Makefile --wildcards '" GOV "/*' &&"
		 " mkdir -p tree/drivers/cpuidle b && cp linux-source-6.12/Makefile tree/ &&"
		 " cp -r " GOV " tree/drivers/cpuidle/ && cp -r " GOV " b/ &&"
		 " sed -i 's/^#define DECAY 8$/#define DECAY 4/' b/governors/menu.c &&"
		 " mkdir -p x/drivers/cpuidle y/drivers/cpuidle &&"
		 " cp -r " GOV " x/drivers/cpuidle/ && cp -r b/governors y/drivers/cpuidle/ &&"
		 " (diff -u x/drivers/cpuidle/governors/menu.c y/drivers/cpuidle/governors/menu.c |"
		 " sed 's#^--- x/#--- a/#; s#^+++ y/#+++ b/#' > decay.patch; test -s decay.patch)",
		 dir);
	if (system(cmd)) {
		fprintf(stderr, "review_bench: could not prepare the patch in %s\n", dir);
		return 1;
	}
	printf("review_loadavg_1m_before %.2f\n", load1());
	snprintf(cmd, sizeof(cmd), "%s kgov build %s/tree/" "drivers/cpuidle/governors/menu.c -o "
		 "%s/base.so >/dev/null && %s kgov build %s/b/governors/menu.c -o %s/patched.so "
		 ">/dev/null", idlelab, dir, dir, idlelab, dir, dir);
	ret = timed("review_kgov_build_both", cmd);
	/* review runs in the tree: a relative binary path is made absolute first */
	if (idlelab[0] != '/' && getcwd(cwd, sizeof(cwd)))
		snprintf(bin, sizeof(bin), "%s/%s", cwd, idlelab);
	else
		snprintf(bin, sizeof(bin), "%s", idlelab);
	snprintf(cmd, sizeof(cmd), "cd %s/tree && %s review ../decay.patch --no-progress%s "
		 ">../review.txt", dir, bin, extra);
	ret = ret || timed("review", cmd);
	printf("review_loadavg_1m_after %.2f\n", load1());
	fflush(stdout);
	snprintf(cmd, sizeof(cmd), "grep -h -e '^  Time:' -A1 -e 'random inputs:' %s/review.txt | "
		 "sed 's/^ */# /'; rm -rf %s", dir, dir);
	if (system(cmd))
		ret = 1;
	return ret ? 1 : 0;
}
