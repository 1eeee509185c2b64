// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_live.c - live mode on fixture trees (lib/live/): reading the cpuidle sysfs files,
 * counter deltas, RAPL zones and wrap, saving/restoring changed settings, the governor
 * switch, the lock, and the platform export. Every test works on a private copy of a tree
 * from tests/fixtures/sysfs/ (run from the top of the source tree, as `make check` does), so
 * nothing needs root and nothing on the machine is touched.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixtree.h"
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "live/live.h"
#include "platform/platform.h"

#define CPU "/sys/devices/system/cpu"

static char root[PATH_MAX];

/* ---- fixture helpers ------------------------------------------------------------------------ */

/* A private copy of fixture @name (NULL: an empty tree) in a fresh temporary directory. */
static void copy_fixture(const char *name)
{
	fixtree_copy(root, "live", name);
}

static int remove_copy(void **state)
{
	(void)state;
	fixtree_remove(root);
	return 0;
}

static void path_of(char *buf, size_t cap, const char *rel)
{
	assert_true((size_t)snprintf(buf, cap, "%s%s", root, rel) < cap);
}

/* Write @value + "\n" to ROOT/@rel, creating the directories on the way. */
static void put(const char *rel, const char *value)
{
	fixtree_put(root, rel, value);
}

static void get(const char *rel, char *buf, size_t cap)
{
	char path[PATH_MAX];

	path_of(path, sizeof(path), rel);
	assert_int_equal(il_live_read_text(path, buf, cap), 0);
}

static void open_root(struct il_live *lv)
{
	struct il_error err;

	assert_int_equal(il_live_init(lv, root, &err), 0);
}

/*
 * Run @fn as an unprivileged user: in a child that drops to nobody when we are root, so
 * that a permission check really refuses. Return the child's exit status.
 */
static int as_nobody(int (*fn)(void))
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(99);
		_exit(fn());
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* ---- il_live_init, il_live_path ------------------------------------------------------------ */

static void test_root_slash_is_empty_prefix(void **state)
{
	struct il_live lv;
	struct il_error err;
	char p[64];

	assert_int_equal(il_live_init(&lv, "/", &err), 0);
	assert_string_equal(lv.root, "");
	assert_string_equal(il_live_root_name(&lv), "/");
	assert_int_equal(il_live_path(&lv, p, sizeof(p), CPU "/cpu%u", 3), 0);
	assert_string_equal(p, "/sys/devices/system/cpu/cpu3");
	assert_int_equal(il_live_init(&lv, NULL, &err), 0);
	assert_string_equal(lv.root, "");
}

static void test_root_trailing_slashes_and_errors(void **state)
{
	struct il_live lv;
	struct il_error err;
	char dir[PATH_MAX + 8], p[16];

	copy_fixture(NULL);
	snprintf(dir, sizeof(dir), "%s//", root);
	assert_int_equal(il_live_init(&lv, dir, &err), 0);
	assert_string_equal(lv.root, root);
	assert_int_equal(il_live_init(&lv, "/nonexistent-idlelab-root", &err), -1);
	assert_non_null(strstr(err.msg, "not a directory"));
	/* A path that does not fit is an error, not a cut path. */
	assert_int_equal(il_live_init(&lv, "/", &err), 0);
	assert_int_equal(il_live_path(&lv, p, sizeof(p), CPU), -1);
	assert_int_equal(errno, ENAMETOOLONG);
}

/* ---- reading files ----------------------------------------------------------------------------- */

static void test_read_text_and_u64(void **state)
{
	char path[PATH_MAX], buf[8];
	u64 v;

	copy_fixture(NULL);
	put("/a", "menu  ");
	path_of(path, sizeof(path), "/a");
	assert_int_equal(il_live_read_text(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "menu");
	assert_int_equal(il_live_read_u64(path, &v), -1);
	assert_int_equal(errno, EINVAL);
	put("/a", "18446744073709551615");
	assert_int_equal(il_live_read_u64(path, &v), 0);
	assert_true(v == UINT64_MAX);
	put("/a", "18446744073709551616");
	assert_int_equal(il_live_read_u64(path, &v), -1);
	put("/a", "1234567");
	assert_int_equal(il_live_read_text(path, buf, sizeof(buf)), 0);
	put("/a", "12345678");
	assert_int_equal(il_live_read_text(path, buf, sizeof(buf)), -1);
	assert_int_equal(errno, EOVERFLOW);
	put("/a", "");
	assert_int_equal(il_live_read_text(path, buf, sizeof(buf)), -1);
	assert_int_equal(errno, EINVAL);
	path_of(path, sizeof(path), "/missing");
	assert_int_equal(il_live_read_text(path, buf, sizeof(buf)), -1);
	assert_int_equal(errno, ENOENT);
}

/* ---- driver and governors ------------------------------------------------------------------------ */

static void test_cpuidle_haltpoll_vm(void **state)
{
	struct il_live_cpuidle ci;
	struct il_live lv;
	struct il_error err;

	copy_fixture("haltpoll-vm");
	open_root(&lv);
	assert_int_equal(il_live_read_cpuidle(&lv, &ci, &err), 0);
	assert_string_equal(ci.driver, "haltpoll");
	assert_string_equal(ci.governor, "haltpoll");
	assert_true(ci.can_switch);
	assert_int_equal(ci.ngov, 3);
	assert_string_equal(ci.available[0], "ladder");
	assert_string_equal(ci.available[2], "haltpoll");
	assert_true(il_live_has_driver(&ci));
	assert_true(il_live_governor_available(&ci, "menu"));
	assert_false(il_live_governor_available(&ci, "teo"));
	assert_false(il_live_governor_available(&ci, "men"));
}

static void test_cpuidle_old_kernel_and_no_driver(void **state)
{
	struct il_live_cpuidle ci;
	struct il_live lv;
	struct il_error err;

	copy_fixture("old-kernel");
	open_root(&lv);
	assert_int_equal(il_live_read_cpuidle(&lv, &ci, &err), 0);
	assert_string_equal(ci.governor, "menu");
	assert_false(ci.can_switch);
	assert_int_equal(ci.ngov, 0);
	remove_copy(NULL);

	copy_fixture("no-driver");
	open_root(&lv);
	assert_int_equal(il_live_read_cpuidle(&lv, &ci, &err), 0);
	assert_string_equal(ci.driver, "none");
	assert_false(il_live_has_driver(&ci));
	remove_copy(NULL);

	/* Not a sysfs tree at all. */
	copy_fixture(NULL);
	open_root(&lv);
	assert_int_equal(il_live_read_cpuidle(&lv, &ci, &err), -1);
	assert_non_null(strstr(err.msg, "current_driver"));
}

/* ---- CPUs and states ----------------------------------------------------------------------------- */

static void test_list_cpus_numeric_order(void **state)
{
	struct il_live lv;
	struct il_error err;
	unsigned int *cpus;
	static const unsigned int want[] = { 0, 1, 2, 3, 10 };

	copy_fixture("desktop-rapl");
	put(CPU "/cpu10/online", "0");
	put(CPU "/cpufreq/x", "0");     /* not a CPU */
	put(CPU "/cpu1x/online", "0");  /* not a CPU either */
	open_root(&lv);
	assert_int_equal(il_live_list_cpus(&lv, &cpus, &err), 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(cpus[i], want[i]);
	free(cpus);
}

static void test_read_cpu_all_fields(void **state)
{
	struct il_live_cpu cpu;
	struct il_live lv;
	struct il_error err;
	const struct il_live_state *s;

	copy_fixture("haltpoll-vm");
	open_root(&lv);
	assert_int_equal(il_live_read_cpu(&lv, 1, IL_LIVE_READ_ALL, &cpu, &err), 0);
	assert_true(cpu.has_cpuidle);
	assert_int_equal(cpu.cpu, 1);
	assert_int_equal(cpu.nstates, 2);
	s = &cpu.st[1];
	assert_string_equal(s->name, "haltpoll idle");
	assert_string_equal(s->desc, "default architecture idle");
	assert_string_equal(s->default_status, "enabled");
	assert_int_equal(s->latency_us, 1);
	assert_int_equal(s->residency_us, 1);
	assert_true(s->power == 4294967295ULL);
	assert_int_equal(s->disable, 0);
	assert_int_equal(s->usage, 882425);
	assert_int_equal(s->time_us, 97543211);
	assert_int_equal(s->above, 1);
	assert_int_equal(s->below, 0);
	assert_int_equal(s->rejected, 0);
	assert_int_equal(s->have, IL_LF_NAME | IL_LF_DESC | IL_LF_LATENCY | IL_LF_RESIDENCY |
			 IL_LF_POWER | IL_LF_DISABLE | IL_LF_DEFAULT_STATUS | IL_LF_COUNTERS);
	/* The counters-only read skips the settings. */
	assert_int_equal(il_live_read_cpu(&lv, 1, IL_LIVE_READ_COUNTERS, &cpu, &err), 0);
	assert_int_equal(cpu.st[1].have, IL_LF_NAME | IL_LF_COUNTERS);
	assert_int_equal(cpu.st[1].usage, 882425);
}

static void test_read_cpu_missing_files(void **state)
{
	struct il_live_cpu cpu;
	struct il_live lv;
	struct il_error err;

	/* A 4.x tree: no above/below/rejected/default_status, which is not an error. */
	copy_fixture("old-kernel");
	open_root(&lv);
	assert_int_equal(il_live_read_cpu(&lv, 0, IL_LIVE_READ_ALL, &cpu, &err), 0);
	assert_int_equal(cpu.nstates, 3);
	assert_int_equal(cpu.st[2].have & (IL_LF_ABOVE | IL_LF_BELOW | IL_LF_REJECTED |
					   IL_LF_DEFAULT_STATUS), 0);
	assert_true(cpu.st[2].have & IL_LF_USAGE);
	assert_int_equal(cpu.st[2].usage, 300);
	remove_copy(NULL);

	/* An offline CPU has no cpuidle directory: reported, not an error. */
	copy_fixture("desktop-rapl");
	open_root(&lv);
	assert_int_equal(il_live_read_cpu(&lv, 3, IL_LIVE_READ_ALL, &cpu, &err), 0);
	assert_false(cpu.has_cpuidle);
	assert_int_equal(cpu.nstates, 0);
}

/*
 * A CPU taken offline keeps its cpuidle directory on real kernels (seen on Debian 6.12 with
 * acpi_idle in the check-vm guest): cpuN/online = 0 tells it, and the states still read.
 */
static void test_read_cpu_offline(void **state)
{
	struct il_live_cpu cpu;
	struct il_live lv;
	struct il_error err;

	copy_fixture("haltpoll-vm");
	open_root(&lv);
	put(CPU "/cpu1/online", "0");
	assert_int_equal(il_live_read_cpu(&lv, 1, IL_LIVE_READ_ALL, &cpu, &err), 0);
	assert_true(cpu.offline);
	assert_true(cpu.has_cpuidle);
	assert_int_equal(cpu.nstates, 2);
	/* cpu0 has no online file, as on x86 where it cannot be unplugged: online. */
	assert_int_equal(il_live_read_cpu(&lv, 0, IL_LIVE_READ_ALL, &cpu, &err), 0);
	assert_false(cpu.offline);
	put(CPU "/cpu1/online", "1");
	assert_int_equal(il_live_read_cpu(&lv, 1, IL_LIVE_READ_COUNTERS, &cpu, &err), 0);
	assert_false(cpu.offline);
	put(CPU "/cpu1/online", "yes");
	assert_int_equal(il_live_read_cpu(&lv, 1, IL_LIVE_READ_ALL, &cpu, &err), -1);
	assert_non_null(strstr(err.msg, "cpu1/online: cannot read"));
}

static void test_read_cpu_errors(void **state)
{
	struct il_live_cpu cpu;
	struct il_live lv;
	struct il_error err;
	char path[PATH_MAX];

	copy_fixture("haltpoll-vm");
	open_root(&lv);
	put(CPU "/cpu0/cpuidle/state1/usage", "12x");
	assert_int_equal(il_live_read_cpu(&lv, 0, IL_LIVE_READ_COUNTERS, &cpu, &err), -1);
	assert_non_null(strstr(err.msg, "usage is '12x', not a number"));
	put(CPU "/cpu0/cpuidle/state1/usage", "5");
	path_of(path, sizeof(path), CPU "/cpu0/cpuidle/state1/name");
	assert_int_equal(unlink(path), 0);
	assert_int_equal(il_live_read_cpu(&lv, 0, IL_LIVE_READ_COUNTERS, &cpu, &err), -1);
	assert_non_null(strstr(err.msg, "without a name file"));
	put(CPU "/cpu0/cpuidle/state1/name", "C1");
	/* More states than the kernel allows means this is not a cpuidle tree. */
	for (int i = 2; i <= CPUIDLE_STATE_MAX; i++) {
		char rel[128];

		snprintf(rel, sizeof(rel), CPU "/cpu0/cpuidle/state%d/name", i);
		put(rel, "X");
	}
	assert_int_equal(il_live_read_cpu(&lv, 0, IL_LIVE_READ_COUNTERS, &cpu, &err), -1);
	assert_non_null(strstr(err.msg, "CPUIDLE_STATE_MAX"));
}

static void test_find_state(void **state)
{
	struct il_live_cpu cpu;
	struct il_live lv;
	struct il_error err;

	copy_fixture("desktop-rapl");
	open_root(&lv);
	assert_int_equal(il_live_read_cpu(&lv, 0, IL_LIVE_READ_ALL, &cpu, &err), 0);
	assert_int_equal(il_live_find_state(&cpu, "C2_ACPI"), 2);
	assert_int_equal(il_live_find_state(&cpu, "3"), 3);
	assert_int_equal(il_live_find_state(&cpu, "4"), -1);
	assert_int_equal(il_live_find_state(&cpu, "C6"), -1);
	assert_int_equal(il_live_find_state(&cpu, "c2_acpi"), -1);
}

/* ---- deltas ---------------------------------------------------------------------------------------- */

static void test_diff_counters(void **state)
{
	struct il_live_cpu a, b;
	struct il_live_delta d[CPUIDLE_STATE_MAX];
	struct il_live lv;
	struct il_error err;

	copy_fixture("desktop-rapl");
	open_root(&lv);
	assert_int_equal(il_live_read_cpu(&lv, 2, IL_LIVE_READ_COUNTERS, &a, &err), 0);
	/* cpu2/state3 had usage 70002, time 900000002, above 602, below 0. */
	put(CPU "/cpu2/cpuidle/state3/usage", "70012");
	put(CPU "/cpu2/cpuidle/state3/time", "900100002");
	put(CPU "/cpu2/cpuidle/state3/above", "605");
	put(CPU "/cpu2/cpuidle/state0/below", "40");  /* was 32 */
	put(CPU "/cpu2/cpuidle/state1/rejected", "2");
	assert_int_equal(il_live_read_cpu(&lv, 2, IL_LIVE_READ_COUNTERS, &b, &err), 0);
	assert_int_equal(il_live_diff(&a, &b, d, &err), 0);
	assert_int_equal(d[3].usage, 10);
	assert_int_equal(d[3].time_us, 100000);
	assert_int_equal(d[3].above, 3);
	assert_int_equal(d[3].below, 0);
	assert_int_equal(d[0].below, 8);
	assert_int_equal(d[0].usage, 0);
	assert_int_equal(d[1].rejected, 2);
	assert_int_equal(d[2].usage + d[2].time_us + d[2].above + d[2].below + d[2].rejected, 0);
	assert_int_equal(d[3].have, IL_LF_COUNTERS);
}

static void test_diff_missing_counter_and_errors(void **state)
{
	struct il_live_cpu a, b;
	struct il_live_delta d[CPUIDLE_STATE_MAX];
	struct il_live lv;
	struct il_error err;
	char path[PATH_MAX];

	copy_fixture("haltpoll-vm");
	open_root(&lv);
	assert_int_equal(il_live_read_cpu(&lv, 0, IL_LIVE_READ_COUNTERS, &a, &err), 0);
	/* A file missing in one snapshot leaves that counter out; the others still count. */
	path_of(path, sizeof(path), CPU "/cpu0/cpuidle/state1/above");
	assert_int_equal(unlink(path), 0);
	put(CPU "/cpu0/cpuidle/state1/usage", "881430");
	assert_int_equal(il_live_read_cpu(&lv, 0, IL_LIVE_READ_COUNTERS, &b, &err), 0);
	assert_int_equal(il_live_diff(&a, &b, d, &err), 0);
	assert_int_equal(d[1].have & IL_LF_ABOVE, 0);
	assert_true(d[1].have & IL_LF_USAGE);
	assert_int_equal(d[1].usage, 5);

	/* A counter that went back: the CPU was re-registered, the delta is meaningless. */
	put(CPU "/cpu0/cpuidle/state1/usage", "3");
	assert_int_equal(il_live_read_cpu(&lv, 0, IL_LIVE_READ_COUNTERS, &b, &err), 0);
	assert_int_equal(il_live_diff(&a, &b, d, &err), -1);
	assert_non_null(strstr(err.msg, "cpu0/cpuidle/state1/usage"));
	assert_non_null(strstr(err.msg, "went back from 881425 to 3"));

	/* Another state table, another CPU. */
	b = a;
	b.nstates = 1;
	assert_int_equal(il_live_diff(&a, &b, d, &err), -1);
	assert_non_null(strstr(err.msg, "states changed"));
	b = a;
	b.cpu = 1;
	assert_int_equal(il_live_diff(&a, &b, d, &err), -1);
	b = a;
	strcpy(b.st[0].name, "C1");
	assert_int_equal(il_live_diff(&a, &b, d, &err), -1);
	assert_non_null(strstr(err.msg, "changed name"));
}

/* ---- RAPL ----------------------------------------------------------------------------------------- */

static void test_rapl_zones(void **state)
{
	struct il_live_rapl rapl;
	struct il_live lv;
	struct il_error err;
	u64 uj[IL_LIVE_RAPL_MAX];

	/* Only intel-rapl:0 (package-0): not its subzones, not psys, not the MMIO twin. */
	copy_fixture("desktop-rapl");
	open_root(&lv);
	assert_int_equal(il_live_rapl_open(&lv, &rapl, &err), 0);
	assert_int_equal(rapl.status, IL_RAPL_OK);
	assert_int_equal(rapl.nzones, 1);
	assert_string_equal(rapl.zone[0].name, "package-0");
	assert_non_null(strstr(rapl.zone[0].dir, "/intel-rapl:0"));
	assert_true(rapl.zone[0].max_range_uj == 262143328850ULL);
	assert_int_equal(il_live_rapl_read(&rapl, uj, &err), 0);
	assert_true(uj[0] == 262143000000ULL);

	/* A second package is summed too, in name order. */
	put("/sys/class/powercap/intel-rapl:1/name", "package-1");
	put("/sys/class/powercap/intel-rapl:1/energy_uj", "5");
	assert_int_equal(il_live_rapl_open(&lv, &rapl, &err), 0);
	assert_int_equal(rapl.nzones, 2);
	assert_string_equal(rapl.zone[1].name, "package-1");
	assert_int_equal(rapl.zone[1].max_range_uj, 262143328850ULL);
}

static void test_rapl_absent(void **state)
{
	struct il_live_rapl rapl;
	struct il_live lv;
	struct il_error err;

	copy_fixture("haltpoll-vm");
	open_root(&lv);
	assert_int_equal(il_live_rapl_open(&lv, &rapl, &err), 0);
	assert_int_equal(rapl.status, IL_RAPL_ABSENT);
	assert_non_null(strstr(rapl.why, "powercap"));
	/* powercap without RAPL package zones (e.g. only psys) is absent too. */
	put("/sys/class/powercap/intel-rapl:1/name", "psys");
	assert_int_equal(il_live_rapl_open(&lv, &rapl, &err), 0);
	assert_int_equal(rapl.status, IL_RAPL_ABSENT);
	assert_non_null(strstr(rapl.why, "no RAPL package zone"));
}

static char nobody_root[PATH_MAX];

static int rapl_unreadable_as_nobody(void)
{
	struct il_live_rapl rapl;
	struct il_live lv;
	struct il_error err;

	if (il_live_init(&lv, nobody_root, &err) || il_live_rapl_open(&lv, &rapl, &err))
		return 1;
	if (rapl.status != IL_RAPL_UNREADABLE || !strstr(rapl.why, "readable by root only"))
		return 2;
	return 0;
}

static void test_rapl_unreadable(void **state)
{
	char path[PATH_MAX];

	copy_fixture("desktop-rapl");
	path_of(path, sizeof(path), "/sys/class/powercap/intel-rapl:0/energy_uj");
	/* Root-only, as on kernels with the Platypus fix (the owner is "root" for this test). */
	assert_int_equal(chmod(path, geteuid() == 0 ? 0400 : 0), 0);
	snprintf(nobody_root, sizeof(nobody_root), "%s", root);
	assert_int_equal(as_nobody(rapl_unreadable_as_nobody), 0);
}

static void test_energy_delta_wrap(void **state)
{
	u64 d;

	assert_true(il_live_energy_delta(100, 350, 1000, &d));
	assert_int_equal(d, 250);
	/* Wrapped once: from 900 up to the range (1000), then from 0 to 50. */
	assert_true(il_live_energy_delta(900, 50, 1000, &d));
	assert_int_equal(d, 150);
	assert_true(il_live_energy_delta(262143000000ULL, 71150, 262143328850ULL, &d));
	assert_int_equal(d, 400000);
	assert_true(il_live_energy_delta(5, 5, 0, &d));
	assert_int_equal(d, 0);
	/* A wrap cannot be undone without the range, or with a reading above it. */
	assert_false(il_live_energy_delta(900, 50, 0, &d));
	assert_false(il_live_energy_delta(2000, 50, 1000, &d));
}

/* ---- changes and restoration -------------------------------------------------------------------- */

static void test_write_saves_and_restores(void **state)
{
	struct il_live_changes ch;
	struct il_error err;
	char gov[PATH_MAX], dis[PATH_MAX], buf[64];

	copy_fixture("haltpoll-vm");
	path_of(gov, sizeof(gov), CPU "/cpuidle/current_governor");
	path_of(dis, sizeof(dis), CPU "/cpu1/cpuidle/state0/disable");
	assert_int_equal(il_live_changes_init(&ch, 2, &err), 0);
	assert_int_equal(il_live_write(&ch, gov, "menu", &err), 0);
	assert_int_equal(il_live_write(&ch, gov, "ladder", &err), 0); /* saved once */
	assert_int_equal(il_live_write(&ch, dis, "1", &err), 0);
	assert_int_equal(ch.n, 2);
	get(CPU "/cpuidle/current_governor", buf, sizeof(buf));
	assert_string_equal(buf, "ladder");
	get(CPU "/cpu1/cpuidle/state0/disable", buf, sizeof(buf));
	assert_string_equal(buf, "1");
	assert_int_equal(il_live_restore(&ch), 0);
	get(CPU "/cpuidle/current_governor", buf, sizeof(buf));
	assert_string_equal(buf, "haltpoll");
	get(CPU "/cpu1/cpuidle/state0/disable", buf, sizeof(buf));
	assert_string_equal(buf, "0");
	/* Twice is harmless (a signal may restore after the normal path did). */
	assert_int_equal(il_live_restore(&ch), 0);
	get(CPU "/cpuidle/current_governor", buf, sizeof(buf));
	assert_string_equal(buf, "haltpoll");
	assert_null(il_live_restore_failed(&ch, 0));
	/* The table is full: a third file is refused before it is written. */
	path_of(dis, sizeof(dis), CPU "/cpu0/cpuidle/state0/disable");
	assert_int_equal(il_live_write(&ch, dis, "1", &err), -1);
	get(CPU "/cpu0/cpuidle/state0/disable", buf, sizeof(buf));
	assert_string_equal(buf, "0");
	il_live_changes_free(&ch);
}

static void test_write_missing_file_creates_nothing(void **state)
{
	struct il_live_changes ch;
	struct il_error err;
	char path[PATH_MAX];

	copy_fixture("old-kernel");
	path_of(path, sizeof(path), CPU "/cpuidle/current_governor");
	assert_int_equal(il_live_changes_init(&ch, 4, &err), 0);
	assert_int_equal(il_live_write(&ch, path, "menu", &err), -1);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(ch.n, 0);
	il_live_changes_free(&ch);
}

static void test_restore_failure_is_reported(void **state)
{
	struct il_live_changes ch;
	struct il_error err;
	char gov[PATH_MAX];

	copy_fixture("haltpoll-vm");
	path_of(gov, sizeof(gov), CPU "/cpuidle/current_governor");
	assert_int_equal(il_live_changes_init(&ch, 2, &err), 0);
	assert_int_equal(il_live_write(&ch, gov, "menu", &err), 0);
	/* The file is gone (the driver was unloaded): restoring it fails and says which. */
	assert_int_equal(unlink(gov), 0);
	assert_int_equal(mkdir(gov, 0755), 0);
	assert_int_equal(il_live_restore(&ch), 1);
	assert_string_equal(il_live_restore_failed(&ch, 0), gov);
	assert_null(il_live_restore_failed(&ch, 1));
	il_live_changes_free(&ch);
}

static void test_switch_governor(void **state)
{
	struct il_live_changes ch;
	struct il_live_cpuidle ci;
	struct il_live lv;
	struct il_error err;
	char buf[64];

	copy_fixture("haltpoll-vm");
	open_root(&lv);
	assert_int_equal(il_live_read_cpuidle(&lv, &ci, &err), 0);
	assert_int_equal(il_live_changes_init(&ch, 1, &err), 0);
	assert_int_equal(il_live_switch_governor(&lv, &ch, &ci, "menu", &err), IL_SWITCH_OK);
	get(CPU "/cpuidle/current_governor", buf, sizeof(buf));
	assert_string_equal(buf, "menu");
	/* teo is not built into this kernel: reported, nothing written. */
	assert_int_equal(il_live_switch_governor(&lv, &ch, &ci, "teo", &err), IL_SWITCH_UNAVAILABLE);
	assert_non_null(strstr(err.msg, "teo: governor not available (available_governors: ladder "
					"menu haltpoll)"));
	get(CPU "/cpuidle/current_governor", buf, sizeof(buf));
	assert_string_equal(buf, "menu");
	assert_int_equal(il_live_restore(&ch), 0);
	get(CPU "/cpuidle/current_governor", buf, sizeof(buf));
	assert_string_equal(buf, "haltpoll");
	il_live_changes_free(&ch);
}

static void test_switch_governor_refused(void **state)
{
	struct il_live_changes ch;
	struct il_live_cpuidle ci;
	struct il_live lv;
	struct il_error err;
	char gov[PATH_MAX];

	/* No current_governor (before 5.8): cannot switch at all. */
	copy_fixture("old-kernel");
	open_root(&lv);
	assert_int_equal(il_live_read_cpuidle(&lv, &ci, &err), 0);
	assert_int_equal(il_live_changes_init(&ch, 1, &err), 0);
	assert_int_equal(il_live_switch_governor(&lv, &ch, &ci, "menu", &err), -1);
	assert_non_null(strstr(err.msg, "cannot switch governors"));
	il_live_changes_free(&ch);
	remove_copy(NULL);

	/*
	 * The kernel refuses the value with EINVAL, as current_governor does for a name it does
	 * not know: here /proc/self/oom_score_adj (readable, and refusing "menu") stands in for
	 * it. A refused write changes nothing, and nothing is restored afterwards.
	 */
	copy_fixture("haltpoll-vm");
	open_root(&lv);
	assert_int_equal(il_live_read_cpuidle(&lv, &ci, &err), 0);
	path_of(gov, sizeof(gov), CPU "/cpuidle/current_governor");
	assert_int_equal(unlink(gov), 0);
	assert_int_equal(symlink("/proc/self/oom_score_adj", gov), 0);
	assert_int_equal(il_live_changes_init(&ch, 1, &err), 0);
	assert_int_equal(il_live_switch_governor(&lv, &ch, &ci, "menu", &err), -1);
	assert_non_null(strstr(err.msg, "cannot write 'menu': Invalid argument"));
	il_live_changes_free(&ch);
}

static int write_refused_as_nobody(void)
{
	struct il_live_changes ch;
	struct il_error err;
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s" CPU "/cpuidle/current_governor", nobody_root);
	if (il_live_check_writable(path, &err) != -1 || !strstr(err.msg, "needs root"))
		return 1;
	if (il_live_changes_init(&ch, 1, &err))
		return 2;
	if (il_live_write(&ch, path, "menu", &err) != -1 || !strstr(err.msg, "needs root") ||
	    !strstr(err.msg, "Permission denied"))
		return 3;
	il_live_changes_free(&ch);
	return 0;
}

static void test_write_refused_without_root(void **state)
{
	struct il_error err;
	char path[PATH_MAX], buf[64];

	copy_fixture("haltpoll-vm");
	path_of(path, sizeof(path), CPU "/cpuidle/current_governor");
	assert_int_equal(chmod(path, 0644), 0);
	if (geteuid() != 0)
		assert_int_equal(chmod(path, 0444), 0);
	snprintf(nobody_root, sizeof(nobody_root), "%s", root);
	assert_int_equal(as_nobody(write_refused_as_nobody), 0);
	get(CPU "/cpuidle/current_governor", buf, sizeof(buf));
	assert_string_equal(buf, "haltpoll");
	assert_int_equal(il_live_check_writable("/nonexistent-idlelab/x", &err), -1);
}

/* ---- lock --------------------------------------------------------------------------------------------- */

static void test_lock_refuses_second(void **state)
{
	struct il_error err;
	char path[PATH_MAX], buf[32], pid[32];
	int fd, fd2;

	copy_fixture("haltpoll-vm");
	path_of(path, sizeof(path), "/run/idlelab.lock");
	fd = il_live_lock(path, &err);
	assert_true(fd >= 0);
	get("/run/idlelab.lock", buf, sizeof(buf));
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	assert_string_equal(buf, pid);
	/* flock locks belong to the open file: a second open is a second measure. */
	assert_int_equal(il_live_lock(path, &err), -1);
	assert_non_null(strstr(err.msg, "another idlelab measure is running"));
	assert_non_null(strstr(err.msg, pid));
	il_live_unlock(fd);
	fd2 = il_live_lock(path, &err);
	assert_true(fd2 >= 0);
	il_live_unlock(fd2);
	path_of(path, sizeof(path), "/no/such/dir/idlelab.lock");
	assert_int_equal(il_live_lock(path, &err), -1);
	assert_non_null(strstr(err.msg, "cannot open the lock file"));
}

/* ---- export ------------------------------------------------------------------------------------------- */

static char *export_ok(const struct il_live_export *opt, struct il_platform *plat, char *warning)
{
	struct il_live lv;
	struct il_error err;
	size_t len;
	char *text;

	open_root(&lv);
	text = il_live_export_platform(&lv, opt, &len, warning, 256, &err);
	if (!text)
		fail_msg("export failed: %s", err.msg);
	assert_int_equal(strlen(text), len);
	assert_int_equal(il_platform_parse(text, len, "test", plat, &err), 0);
	return text;
}

static void test_export_haltpoll_vm(void **state)
{
	struct il_live_export opt = { .cpu = -1 };
	struct il_platform plat;
	char warning[256];
	char *text;

	copy_fixture("haltpoll-vm");
	text = export_ok(&opt, &plat, warning);
	assert_string_equal(warning, "");
	assert_string_equal(plat.name, "live-haltpoll");
	assert_string_equal(plat.drv.name, "haltpoll");
	assert_int_equal(plat.cpus, 2);
	assert_int_equal(plat.hz, 250);
	assert_int_equal(plat.drv.state_count, 2);
	assert_string_equal(plat.drv.states[0].name, "POLL");
	assert_int_equal(plat.drv.states[0].flags, CPUIDLE_FLAG_POLLING);
	assert_string_equal(plat.drv.states[1].name, "haltpoll idle");
	assert_string_equal(plat.drv.states[1].desc, "default architecture idle");
	assert_int_equal(plat.drv.states[1].exit_latency_ns, 1000);
	assert_int_equal(plat.drv.states[1].target_residency_ns, 1000);
	assert_int_equal(plat.drv.states[1].flags, 0);
	assert_false(plat.power_known);
	/* sysfs knows no active power either: the optional line is left out. */
	assert_int_equal(plat.active_power_uw, 0);
	assert_null(strstr(text, "active_power_uw"));
	assert_non_null(strstr(plat.description, "Intel(R) Xeon(R) Processor"));
	assert_non_null(strstr(plat.hz_source, "CONFIG_HZ=250"));
	assert_non_null(strstr(text, "state \"haltpoll idle\""));
	free(text);
}

static void test_export_options_and_flags(void **state)
{
	struct il_live_export opt = { .name = "my-box", .hz = 300, .cpu = 1 };
	struct il_platform plat;
	char warning[256];
	char *text;

	copy_fixture("desktop-rapl");
	/* default_status "disabled" is CPUIDLE_FLAG_OFF; quotes and backslashes survive. */
	put(CPU "/cpu1/cpuidle/state3/default_status", "disabled");
	put(CPU "/cpu1/cpuidle/state2/desc", "say \"hi\" \\ #x");
	put(CPU "/cpu2/cpuidle/state2/latency", "100"); /* cpu2 differs from cpu1 */
	text = export_ok(&opt, &plat, warning);
	assert_string_equal(plat.name, "my-box");
	assert_int_equal(plat.hz, 300);
	assert_int_equal(plat.cpus, 4);
	assert_int_equal(plat.drv.state_count, 4);
	assert_int_equal(plat.drv.states[3].flags, CPUIDLE_FLAG_OFF);
	assert_int_equal(plat.drv.states[3].exit_latency_ns, 1034000);
	assert_int_equal(plat.drv.states[3].target_residency_ns, 3102000);
	assert_string_equal(plat.drv.states[2].desc, "say \"hi\" \\ #x");
	assert_non_null(strstr(plat.state_source[0], "cpu1/cpuidle/state0"));
	assert_non_null(strstr(warning, "cpu2's idle states differ from cpu1's"));
	assert_null(strstr(warning, "--cpu")); /* the library names no flag: the CLI adds it */
	free(text);
}

static void test_export_errors(void **state)
{
	struct il_live_export opt = { .cpu = -1 };
	struct il_live lv;
	struct il_error err;
	char path[PATH_MAX];
	size_t len;

	copy_fixture("no-driver");
	open_root(&lv);
	assert_null(il_live_export_platform(&lv, &opt, &len, NULL, 0, &err));
	assert_non_null(strstr(err.msg, "no cpuidle driver"));
	remove_copy(NULL);

	copy_fixture("haltpoll-vm");
	open_root(&lv);
	path_of(path, sizeof(path), "/boot/config-6.18.44-fc-v857");
	assert_int_equal(unlink(path), 0);
	assert_null(il_live_export_platform(&lv, &opt, &len, NULL, 0, &err));
	assert_non_null(strstr(err.msg, "not found (looked in "));
	assert_null(strstr(err.msg, "--hz"));
	assert_int_equal(err.need, IL_NEED_HZ);
	opt.hz = 1000;
	opt.cpu = 7;
	assert_null(il_live_export_platform(&lv, &opt, &len, NULL, 0, &err));
	assert_non_null(strstr(err.msg, "cpu7 has no cpuidle directory"));
	/* A name the platform format refuses is caught by the parse check. */
	opt.cpu = -1;
	opt.name = "bad name";
	assert_null(il_live_export_platform(&lv, &opt, &len, NULL, 0, &err));
	assert_non_null(strstr(err.msg, "does not parse"));
}

static void test_detect_hz(void **state)
{
	struct il_live lv;
	struct il_error err;
	char src[PATH_MAX * 2];
	unsigned int hz;

	copy_fixture("desktop-rapl");
	open_root(&lv);
	assert_int_equal(il_live_detect_hz(&lv, &hz, src, sizeof(src), &err), 0);
	assert_int_equal(hz, 1000);
	assert_non_null(strstr(src, "/boot/config-6.10.0-rc2"));
	/* A CONFIG_HZ that is not a Kconfig choice is not believed. */
	put("/boot/config-6.10.0-rc2", "CONFIG_HZ=123");
	assert_int_equal(il_live_detect_hz(&lv, &hz, src, sizeof(src), &err), -1);
#ifdef HAVE_ZLIB
	{
		char path[PATH_MAX];
		gzFile gz;

		path_of(path, sizeof(path), "/proc/config.gz");
		gz = gzopen(path, "wb");
		assert_non_null(gz);
		gzputs(gz, "# CONFIG_HZ_PERIODIC is not set\nCONFIG_HZ_250=y\nCONFIG_HZ=250\n");
		gzclose(gz);
		assert_int_equal(il_live_detect_hz(&lv, &hz, src, sizeof(src), &err), 0);
		assert_int_equal(hz, 250);
		assert_non_null(strstr(src, "/proc/config.gz"));
	}
#endif
}

#define T(f) cmocka_unit_test_teardown(f, remove_copy)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_root_slash_is_empty_prefix),
		T(test_root_trailing_slashes_and_errors),
		T(test_read_text_and_u64),
		T(test_cpuidle_haltpoll_vm),
		T(test_cpuidle_old_kernel_and_no_driver),
		T(test_list_cpus_numeric_order),
		T(test_read_cpu_all_fields),
		T(test_read_cpu_missing_files),
		T(test_read_cpu_offline),
		T(test_read_cpu_errors),
		T(test_find_state),
		T(test_diff_counters),
		T(test_diff_missing_counter_and_errors),
		T(test_rapl_zones),
		T(test_rapl_absent),
		T(test_rapl_unreadable),
		T(test_energy_delta_wrap),
		T(test_write_saves_and_restores),
		T(test_write_missing_file_creates_nothing),
		T(test_restore_failure_is_reported),
		T(test_switch_governor),
		T(test_switch_governor_refused),
		T(test_write_refused_without_root),
		T(test_lock_refuses_second),
		T(test_export_haltpoll_vm),
		T(test_export_options_and_flags),
		T(test_export_errors),
		T(test_detect_hz),
	};

	return cmocka_run_group_tests_name("live", tests, NULL, NULL);
}
