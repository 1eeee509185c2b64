// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-CPU state tables and power domains (lib/platform/topology.c, lib/sim/domain.c):
 *
 *  1. the parser: each CPU's table, the domains' states and CPUs, a UINT_MAX residency, and
 *     every class of bad topology with its FILE:LINE;
 *  2. the engine, hand-checked with "pick", a governor of this file that selects the state
 *     the test gives each CPU: an OS-initiated domain refuses a cluster state until the other
 *     CPU is powered down (rejected counted, no reflect, the retry after reject_latency), and
 *     its first CPU out pays the cluster's exit; a platform-coordinated domain demotes the
 *     wake to the CPU state while the other CPU is not as deep.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"
#include "platform/platform.h"
#include "sim/sim.h"
#include "util/array.h"

#define US 1000ULL

/* CPU 0 and CPU 1 each with a table of their own; one cluster domain; %s: its mode. */
static const char two_cpu_fmt[] =
	"platform t\ndriver psci_idle\ndescription \"t\"\ncpus 2\n  source: t\nhz 1000\n"
	"  source: t\n"
	"table little cpus=0\n  source: t\n"
	"state WFI exit_latency=1us target_residency=1us\n  source: t\n"
	"state cpu-off exit_latency=300us target_residency=800us flags=timer-stop\n  source: t\n"
	"state cluster-off exit_latency=800us target_residency=2000us flags=timer-stop\n"
	"  source: t\n"
	"table big cpus=1\n  source: t\n"
	"state WFI exit_latency=1us target_residency=1us\n  source: t\n"
	"state cpu-off exit_latency=200us target_residency=600us flags=timer-stop\n  source: t\n"
	"state cluster-off exit_latency=1000us target_residency=4294967295us flags=timer-stop\n"
	"  source: t\n"
	"domain cluster cpus=0-1 states=cluster-off %s\n  source: t\n";

static struct il_platform *parse_two(const char *mode)
{
	struct il_platform *p = malloc(sizeof(*p));
	char text[2048];
	struct il_error err;

	assert_non_null(p);
	snprintf(text, sizeof(text), two_cpu_fmt, mode);
	if (il_platform_parse(text, strlen(text), "t.plat", p, &err))
		fail_msg("%s", err.msg);
	return p;
}

/*
 * An "uncertain:" line under a state of a table is about that table's copy of the state:
 * the same state name in two tables is two parameters, and a model variant changes the
 * table the lab's CPUs read (plat->tables[t].drv; plat->drv too for table 0).
 */
static void test_uncertain_in_tables(void **state)
{
	static const char text[] =
		"platform t\ndriver psci_idle\ndescription \"t\"\ncpus 2\n  source: t\nhz 1000\n"
		"  source: t\n"
		"table little cpus=0\n  source: t\n"
		"state WFI exit_latency=1us target_residency=1us power_uw=100 "
		"entry_exit_energy_nj=0\n  source: t\n"
		"  uncertain: power_uw class=assumed range=0.5x..2x why=\"w\"\n"
		"table big cpus=1\n  source: t\n"
		"state WFI exit_latency=1us target_residency=1us power_uw=200 "
		"entry_exit_energy_nj=0\n  source: t\n"
		"  uncertain: power_uw class=assumed range=0.5x..2x why=\"w\"\n";
	struct il_platform *p = malloc(sizeof(*p));
	struct il_error err;
	char name[64];

	(void)state;
	assert_non_null(p);
	if (il_platform_parse(text, strlen(text), "t.plat", p, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(p->nunc, 2);
	assert_string_equal(il_plat_unc_name(p, &p->unc[1], name, sizeof(name)),
			    "big.WFI.power_uw");
	assert_true(il_platform_param(p, &p->unc[1]) == 200.0);
	il_platform_param_set(p, &p->unc[1], 300.0);
	assert_int_equal(il_platform_cpu_drv(p, 1)->states[0].power_uw, 300);
	assert_int_equal(il_platform_cpu_drv(p, 0)->states[0].power_uw, 100);
	il_platform_param_set(p, &p->unc[0], 50.0);
	assert_int_equal(il_platform_cpu_drv(p, 0)->states[0].power_uw, 50);
	assert_int_equal(p->drv.states[0].power_uw, 50);
	assert_int_equal(il_platform_cpu_drv(p, 1)->states[0].power_uw, 300);
	free(p);
}

static void test_parse_tables_and_domain(void **state)
{
	struct il_platform *p = parse_two("mode=osi reject_latency=2us");

	assert_int_equal(p->ntables, 2);
	assert_int_equal(il_platform_cpu_table(p, 0), 0);
	assert_int_equal(il_platform_cpu_table(p, 1), 1);
	assert_ptr_equal(il_platform_cpu_drv(p, 0), &p->tables[0].drv);
	assert_ptr_equal(il_platform_cpu_drv(p, 1), &p->tables[1].drv);
	assert_int_equal(il_platform_cpu_drv(p, 1)->states[1].exit_latency_ns, 200 * US);
	assert_int_equal(p->drv.states[1].exit_latency_ns, 300 * US); /* table 0 */
	/* the kernel's UINT_MAX residency, kept */
	assert_int_equal(p->tables[1].drv.states[2].target_residency, 4294967295U);
	assert_int_equal(p->ndomains, 1);
	assert_int_equal(p->domains[0].states, 1u << 2);
	assert_int_equal(p->domains[0].mode, IL_DOMAIN_OSI);
	assert_int_equal(p->domains[0].reject_latency_ns, 2 * US);
	assert_true(il_domain_has_cpu(&p->domains[0], 1));
	assert_true(il_platform_can_reject(p));
	free(p);
	p = parse_two("mode=pc");
	assert_false(il_platform_can_reject(p));
	free(p);
}

struct bad_topology {
	const char *from, *to; /* the replacement in two_cpu_fmt's mode=osi text */
	const char *want;
};

static const struct bad_topology bad_cases[] = {
	{ "cpus=0-1 states", "cpus=0-2 states", "t.plat:24: domain 'cluster' names CPU 2" },
	{ "states=cluster-off", "states=nope", "t.plat:24: domain 'cluster': state 'nope' is not" },
	{ "states=cluster-off", "states=WFI", "t.plat:24: domain 'cluster': a domain state is" },
	{ "states=cluster-off", "states=cluster-off,cpu-x",
	  "t.plat:24: domain 'cluster': state 'cpu-x'" },
	{ "table big cpus=1", "table big cpus=0-1", "t.plat:16: CPU 0 is in table 'little'" },
	{ "table big cpus=1", "table big cpus=3", "t.plat:16: table 'big' names CPU 3" },
	{ "cpus 2\n", "cpus 3\n", "t.plat:4: CPU 2 has no table" },
	{ "cpus=0-1 states", "cpus=0 states", "t.plat:24: domain 'cluster' has one CPU" },
	{ "mode=osi reject_latency=2us", "mode=osi", "t.plat:24: reject_latency= is what" },
	{ "mode=osi reject_latency=2us", "mode=pc reject_latency=2us", "t.plat:24: reject_latency" },
	{ "mode=osi reject_latency=2us", "mode=x", "t.plat:24: domain 'cluster' needs mode=pc" },
	{ "table big cpus=1", "table little cpus=1", "t.plat:16: duplicate table name 'little'" },
	{ "table big cpus=1", "table big cpus=1-0", "t.plat:16: invalid cpus '1-0'" },
	{ "table big cpus=1", "table big", "t.plat:16: table 'big' needs cpus=LIST" },
	{ "state cluster-off exit_latency=1000us", "state cluster-x exit_latency=1000us",
	  "t.plat:24: domain 'cluster': none of its states (cluster-off) is in the table of CPU 1" },
	{ "target_residency=4294967295us", "target_residency=4294967296us",
	  "t.plat:22: invalid target_residency" },
};

static void test_bad_topology(void **state)
{
	struct il_platform *p = malloc(sizeof(*p));
	char base[2048];

	snprintf(base, sizeof(base), two_cpu_fmt, "mode=osi reject_latency=2us");
	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		const struct bad_topology *c = &bad_cases[i];
		char text[2048], *at = strstr(base, c->from);
		struct il_error err;

		assert_non_null(at);
		snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - base), base, c->to,
			 at + strlen(c->from));
		if (il_platform_parse(text, strlen(text), "t.plat", p, &err) != -1)
			fail_msg("case %zu accepted", i);
		if (strncmp(err.msg, c->want, strlen(c->want)))
			fail_msg("case %zu: got \"%s\", want \"%s...\"", i, err.msg, c->want);
	}
	free(p);
}

/* ---- the engine ------------------------------------------------------------------------- */

static struct {
	int idx[2];
	int selects[2];
	int reflects[2];
} pick;

static int pick_select(struct il_driver *drv, struct il_device *dev, bool *stop_tick)
{
	pick.selects[dev->cpu]++;
	*stop_tick = true;
	return pick.idx[dev->cpu];
}

static void pick_reflect(struct il_device *dev, int index)
{
	pick.reflects[dev->cpu]++;
}

static const struct il_governor pick_gov = {
	.name = "pick", .data_size = 8, .select = pick_select, .reflect = pick_reflect,
};
static const struct il_preset pick_6_13 = { .name = "pick", .gov = &pick_gov,
					    .core = &il_core_6_13 };

#define MAX_PERIODS 16
static struct {
	int n;
	struct il_sim_period p[MAX_PERIODS];
} rec;

static void record_period(void *ctx, const struct il_sim_period *p)
{
	if (rec.n < MAX_PERIODS)
		rec.p[rec.n] = *p;
	rec.n++;
}

static struct il_sim *new_sim(const struct il_platform *plat, int idx0, int idx1)
{
	struct il_sim_observer obs = { .period = record_period };
	struct il_sim_config cfg;
	struct il_sim *sim;

	memset(&pick, 0, sizeof(pick));
	memset(&rec, 0, sizeof(rec));
	pick.idx[0] = idx0;
	pick.idx[1] = idx1;
	il_sim_config_defaults(&cfg);
	cfg.drv = &plat->drv;
	cfg.topology = plat;
	cfg.preset = &pick_6_13;
	cfg.ncpus = 2;
	cfg.hz = 100; /* the tick (10 ms) stays out of the way */
	cfg.duration_ns = 5000 * US;
	/* power per table (µW): little 100/20/5 mW, big 150/30/5 mW */
	cfg.power.known = true;
	cfg.power.cpu_table = plat->cpu_table;
	cfg.power.cpu_table_len = plat->cpus;
	for (int i = 0; i < 3; i++) {
		static const u64 little[] = { 100000, 20000, 5000 }, big[] = { 150000, 30000, 5000 };

		cfg.power.table_uw[0][i] = little[i];
		cfg.power.table_uw[1][i] = big[i];
	}
	sim = il_sim_new(&cfg);
	assert_non_null(sim);
	il_sim_set_observer(sim, &obs);
	return sim;
}

static void wake_at(struct il_sim *sim, unsigned int cpu, u64 t)
{
	assert_int_equal(il_sim_irq(sim, cpu, t, NULL, NULL, -1), 0);
}

/*
 * OSI: CPU 0 works 50 µs, then sleeps in cpu-off; CPU 1 asks for cluster-off from 0 on. Its
 * entries at 0, 2, ..., 48 µs are refused (CPU 0 runs): 25 rejected, no reflect; the retry at
 * 50 µs finds CPU 0 powered down (its work ended first, scheduled earlier) and is granted.
 * An interrupt wakes CPU 0 at 1000 µs: the first CPU out of the cluster pays cluster-off's
 * exit in its own table (800 µs), not its cpu-off's (300 µs).
 */
static void test_osi_rejects_then_grants(void **state)
{
	struct il_platform *p = parse_two("mode=osi reject_latency=2us");
	struct il_sim *sim = new_sim(p, 1, 2);
	const struct il_device *dev1;

	assert_int_equal(il_sim_wake(sim, 0, 0, 50 * US, NULL, NULL, -1), 0);
	wake_at(sim, 0, 1000 * US);
	assert_int_equal(il_sim_run(sim), 0);
	dev1 = il_sim_device(sim, 1);
	assert_int_equal(dev1->states_usage[2].rejected, 25);
	assert_int_equal(pick.selects[1], 26);
	assert_int_equal(pick.reflects[1], 0); /* still asleep: nothing ended yet */
	assert_int_equal(rec.n, 1);
	assert_int_equal(rec.p[0].cpu, 0);
	assert_int_equal(rec.p[0].start_ns, 50 * US);
	assert_int_equal(rec.p[0].wake_ns, 1000 * US);
	assert_int_equal(rec.p[0].end_ns, 1800 * US);
	assert_int_equal(il_sim_metrics(sim)->cpu[1].st[2].rejected, 25);
	/*
	 * Energy: CPU 0 asked for cpu-off but slept with the cluster down from 50 µs until its
	 * wake at 1000 µs: cluster-off's 5 mW instead of cpu-off's 20 mW, 15 mW x 950 µs less.
	 */
	assert_float_equal(il_sim_metrics(sim)->cpu[0].domain_adjust_uj, -14.25, 1e-9);
	il_sim_free(sim);
	free(p);
}

/*
 * PC: never refused. CPU 1 asks for cluster-off while CPU 0 sleeps in cpu-off: woken at
 * 1000 µs it pays its own cpu-off exit (200 µs, demoted), and cluster-off is accounted. When
 * both ask for cluster-off, the first one out pays cluster-off's exit (1000 µs in CPU 1's
 * table); CPU 1 asks for it again at 2000 µs, so CPU 0, woken at 3000 µs, finds the cluster
 * down once more and pays cluster-off's exit in its table (800 µs).
 */
static void test_pc_demotes(void **state)
{
	struct il_platform *p = parse_two("mode=pc");
	struct il_sim *sim = new_sim(p, 1, 2);

	wake_at(sim, 1, 1000 * US);
	assert_int_equal(il_sim_run(sim), 0);
	assert_int_equal(rec.n, 1);
	assert_int_equal(rec.p[0].cpu, 1);
	assert_int_equal(rec.p[0].idx, 2);
	assert_int_equal(rec.p[0].end_ns, 1200 * US);
	assert_int_equal(il_sim_device(sim, 1)->states_usage[2].usage, 1);
	assert_int_equal(il_sim_device(sim, 1)->states_usage[2].rejected, 0);
	/*
	 * Energy: CPU 1 sleeps demoted, in cpu-off (30 mW) while cluster-off (5 mW) is
	 * accounted, 0-1000 µs and again from 1200 µs to the end: 25 mW x 4.8 ms = 120 µJ more.
	 * CPU 0 sleeps in what it asked for.
	 */
	assert_float_equal(il_sim_metrics(sim)->cpu[1].domain_adjust_uj, 120.0, 1e-9);
	assert_float_equal(il_sim_metrics(sim)->cpu[0].domain_adjust_uj, 0.0, 1e-9);
	il_sim_free(sim);

	sim = new_sim(p, 2, 2);
	pick.idx[1] = 2;
	wake_at(sim, 1, 1000 * US);
	wake_at(sim, 0, 3000 * US);
	assert_int_equal(il_sim_run(sim), 0);
	assert_int_equal(rec.n, 2);
	assert_int_equal(rec.p[0].cpu, 1);
	assert_int_equal(rec.p[0].end_ns, 2000 * US);
	assert_int_equal(rec.p[1].cpu, 0);
	/* CPU 1 went back to cluster-off at 2000 µs: both asleep again, the cluster is down */
	assert_int_equal(rec.p[1].end_ns, 3800 * US);
	il_sim_free(sim);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_tables_and_domain),
		cmocka_unit_test(test_uncertain_in_tables),
		cmocka_unit_test(test_bad_topology),
		cmocka_unit_test(test_osi_rejects_then_grants),
		cmocka_unit_test(test_pc_demotes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
