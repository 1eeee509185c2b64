// SPDX-License-Identifier: GPL-2.0-only
/*
 * domain.c - per-CPU state tables and power domains in the lab.
 *
 * DOC: power domains and their coordination
 *
 * A platform may give CPUs different state tables (each CPU's governor, accounting and exit
 * latencies come from its own) and may declare power domains: a set of CPUs sharing a power
 * rail, and the states of their tables that power it down (docs/platforms.md). A domain state
 * needs every CPU of the domain asleep. How the CPUs get there follows PSCI 1.0's two
 * CPU_SUSPEND modes, as Linux drives them (drivers/cpuidle/cpuidle-psci.c,
 * cpuidle-psci-domain.c and drivers/firmware/psci/psci.c of Linux 6.12):
 *
 *  1. Platform-coordinated (mode=pc; what cpuidle-psci uses on a flat DT state list such as
 *     rk3399-base.dtsi's, and whenever the firmware lacks OSI): each CPU asks for the state
 *     its governor picked; the firmware takes the domain down only to the shallowest state
 *     all its CPUs asked for. The entry never fails: psci_enter_idle_state() returns the
 *     index asked for, so cpuidle_enter_state() accounts the requested state, and the CPU
 *     physically sleeps in the demoted one. Here a woken CPU pays the exit latency of the
 *     deepest state at or above what it asked for that the domain allows at that moment:
 *     a domain state only while every other CPU of the domain is still asleep in a state at
 *     least that deep (the first CPU out wakes the domain; the later ones find it up).
 *  2. OS-initiated (mode=osi; psci_set_osi_mode()): the OS must ask for a domain state only
 *     from the domain's last running CPU; otherwise the firmware refuses (PSCI DENIED),
 *     psci_cpu_suspend_enter() fails, the enter callback returns -1 (__psci_enter_domain_
 *     idle_state(): "ret = psci_cpu_suspend_enter(state) ? -1 : idx"), cpuidle_enter_state()
 *     counts states_usage[idx].rejected and sets last_residency_ns = 0,
 *     cpuidle_reflect() skips the governor (index < 0; the same test in every version the
 *     presets follow) and do_idle() (kernel/sched/idle.c) goes round again while nothing
 *     needs the CPU. The firmware's round trip takes the domain's reject_latency, then the
 *     governor selects again. "Last running" means every other CPU of the domain is asleep
 *     in a power-down state (timer-stop: WFI never reaches the firmware, which sees such a
 *     CPU as running). A granted domain state holds until the first CPU of the domain
 *     wakes; that CPU pays the domain state's exit latency, whatever it asked for itself.
 *
 * CPUs of a domain that the run does not have (a run on fewer CPUs than the platform) are
 * offline: powered down, they never keep a domain up.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sim-local.h"
#include "../platform/platform.h"

static void table_latencies(const struct il_driver *drv, u64 *exit_ns, u64 *core_exit_ns,
			    u32 *polling)
{
	*polling = 0;
	for (int s = 0; s < drv->state_count; s++) {
		if (drv->states[s].flags & CPUIDLE_FLAG_POLLING)
			*polling |= 1u << s;
		exit_ns[s] = (u64)drv->states[s].exit_latency_ns;
		core_exit_ns[s] = drv->states[s].core_exit_latency_ns > 0 ?
			(u64)drv->states[s].core_exit_latency_ns : exit_ns[s];
	}
}

/* Every CPU on table 0 (sim->drv); then, with per-CPU tables, the others on their own. */
static int tables_init(struct il_sim *sim, const struct il_platform *plat)
{
	for (unsigned int i = 0; i < sim->cfg.ncpus; i++) {
		struct sim_cpu *c = &sim->cpu[i];

		c->drv = &sim->drv;
		c->exit_ns = sim->exit_ns;
		c->core_exit_ns = sim->core_exit_ns;
		c->polling_states = sim->polling_states;
	}
	if (!plat || plat->ntables <= 1)
		return 0;
	sim->tables = calloc((size_t)plat->ntables, sizeof(*sim->tables));
	if (!sim->tables)
		return -1;
	for (int t = 1; t < plat->ntables; t++) {
		struct sim_table *st = &sim->tables[t];

		st->drv = plat->tables[t].drv;
		table_latencies(&st->drv, st->exit_ns, st->core_exit_ns, &st->polling_states);
		for (int s = 0; s < st->drv.state_count; s++)
			if (!(st->polling_states >> s & 1) && st->core_exit_ns[s] != st->exit_ns[s])
				sim->package_wake = true;
	}
	for (unsigned int i = 0; i < sim->cfg.ncpus; i++) {
		int t = il_platform_cpu_table(plat, i);
		struct sim_cpu *c = &sim->cpu[i];

		if (!t)
			continue;
		c->drv = &sim->tables[t].drv;
		c->exit_ns = sim->tables[t].exit_ns;
		c->core_exit_ns = sim->tables[t].core_exit_ns;
		c->polling_states = sim->tables[t].polling_states;
	}
	return 0;
}

static int domain_init(struct il_sim *sim, struct sim_domain *sd, const struct il_domain *d,
		       int di)
{
	sd->d = d;
	sd->down_idx = -1;
	sd->reject_ns = (u64)d->reject_latency_ns;
	sd->cpus = calloc(d->ncpus, sizeof(*sd->cpus));
	if (!sd->cpus)
		return -1;
	for (unsigned int i = 0; i < sim->cfg.ncpus; i++) {
		struct sim_cpu *c = &sim->cpu[i];

		if (!il_domain_has_cpu(d, i))
			continue;
		sd->cpus[sd->ncpus++] = i;
		if (!c->dom) {
			c->dom = calloc(1, sizeof(*c->dom));
			if (!c->dom)
				return -1;
			memset(c->dom->dom_of_state, -1, sizeof(c->dom->dom_of_state));
			c->dom->phys = -1;
			c->dom->simple_level = -1;
		}
		c->dom->doms[c->dom->ndoms++] = (u8)di;
		for (int s = 0; s < CPUIDLE_STATE_MAX; s++)
			if (d->states >> s & 1)
				c->dom->dom_of_state[s] = (s8)di;
	}
	return 0;
}

/* See struct sim_domain: the domains whose sleeping CPUs' energy needs no scan per event. */
static void mark_simple(struct il_sim *sim, struct sim_domain *sd)
{
	unsigned int states = sd->d->states;

	sd->simple = sd->d->mode == IL_DOMAIN_PC && states && !(states & (states - 1));
	sd->level = states ? __builtin_ctz(states) : 0;
	for (unsigned int k = 0; k < sd->ncpus; k++)
		sd->simple &= sim->cpu[sd->cpus[k]].dom->ndoms == 1;
	for (unsigned int k = 0; sd->simple && k < sd->ncpus; k++)
		sim->cpu[sd->cpus[k]].dom->simple_level = (s8)sd->level;
}

int sim_topology_init(struct il_sim *sim)
{
	const struct il_platform *plat = sim->cfg.topology;

	if (tables_init(sim, plat))
		goto nomem;
	if (!plat || !plat->ndomains)
		return 0;
	sim->domains = calloc((size_t)plat->ndomains, sizeof(*sim->domains));
	if (!sim->domains)
		goto nomem;
	sim->ndomains = plat->ndomains;
	sim->dom_stamp = 1; /* the domains' mins (stamp 0) start stale */
	for (int di = 0; di < plat->ndomains; di++)
		if (domain_init(sim, &sim->domains[di], &plat->domains[di], di))
			goto nomem;
	for (int di = 0; di < plat->ndomains; di++)
		mark_simple(sim, &sim->domains[di]);
	return 0;
nomem:
	errno = ENOMEM;
	return -1;
}

void sim_topology_free(struct il_sim *sim)
{
	for (unsigned int i = 0; sim->cpu && i < sim->cfg.ncpus; i++)
		free(sim->cpu[i].dom);
	for (int di = 0; di < sim->ndomains; di++)
		free(sim->domains[di].cpus);
	free(sim->domains);
	free(sim->tables);
}

/* Asleep in a state the firmware knows about (it powers the core down: timer-stop). */
static bool cpu_powered_down(const struct sim_cpu *c)
{
	return c->mode == CPU_IDLE && !c->polling &&
	       (c->drv->states[c->idx].flags & CPUIDLE_FLAG_TIMER_STOP);
}

bool sim_domain_refuses(struct il_sim *sim, unsigned int cpu, int idx)
{
	const struct sim_cpu *c = &sim->cpu[cpu];
	struct sim_domain *sd;
	int di;

	if (!c->dom || (di = c->dom->dom_of_state[idx]) < 0)
		return false;
	sd = &sim->domains[di];
	if (sd->d->mode != IL_DOMAIN_OSI)
		return false;
	for (unsigned int k = 0; k < sd->ncpus; k++)
		if (sd->cpus[k] != cpu && !cpu_powered_down(&sim->cpu[sd->cpus[k]]))
			return true;
	sd->down_idx = idx; /* the last CPU: the domain goes down */
	return false;
}

/*
 * The two shallowest requests among @sd's CPUs (a CPU not asleep counts -1), computed once
 * per change of a domain CPU (dom_stamp): every CPU of the domain then reads them in O(1).
 */
static void domain_mins(const struct il_sim *sim, struct sim_domain *sd)
{
	if (sd->min_stamp == sim->dom_stamp)
		return;
	sd->min_stamp = sim->dom_stamp;
	sd->min1 = sd->min2 = INT_MAX;
	sd->min_cpu = UINT_MAX;
	for (unsigned int k = 0; k < sd->ncpus; k++) {
		const struct sim_cpu *o = &sim->cpu[sd->cpus[k]];
		int v = o->mode == CPU_IDLE ? o->idx : -1;

		if (v < sd->min1) {
			sd->min2 = sd->min1;
			sd->min1 = v;
			sd->min_cpu = sd->cpus[k];
		} else if (v < sd->min2) {
			sd->min2 = v;
		}
	}
}

/* Every other CPU of @sd still asleep in a state at least @idx deep (platform-coordinated). */
static bool domain_allows(const struct il_sim *sim, struct sim_domain *sd, unsigned int cpu,
			  int idx)
{
	domain_mins(sim, sd);
	return (sd->min_cpu == cpu ? sd->min2 : sd->min1) >= idx;
}

/* Platform-coordinated: the deepest state at or above the requested one the domains allow. */
static int pc_effective_state(struct il_sim *sim, unsigned int cpu)
{
	const struct sim_cpu *c = &sim->cpu[cpu];
	int e = c->idx;

	while (e > 0) {
		int di = c->dom->dom_of_state[e];
		struct sim_domain *sd;

		if (di < 0)
			break;
		sd = &sim->domains[di];
		if (sd->d->mode != IL_DOMAIN_PC || domain_allows(sim, sd, cpu, e))
			break;
		e--;
	}
	return e;
}

u64 sim_domain_wake_exit(struct il_sim *sim, unsigned int cpu)
{
	const struct sim_cpu *c = &sim->cpu[cpu];
	u64 cost;

	if (!c->dom)
		return c->exit_ns[c->idx];
	if (c->dom->ndoms == 1 && sim->domains[c->dom->doms[0]].simple) {
		const struct sim_domain *sd = &sim->domains[c->dom->doms[0]];

		/* still counted (sim_domain_changed() runs after): down iff all are deep */
		return c->exit_ns[c->dom->req && sd->ndeep != sd->ncpus ? c->idx - 1 : c->idx];
	}
	sim->dom_stamp++;
	cost = c->exit_ns[pc_effective_state(sim, cpu)];
	for (unsigned int k = 0; k < c->dom->ndoms; k++) {
		struct sim_domain *sd = &sim->domains[c->dom->doms[k]];

		if (sd->down_idx < 0)
			continue;
		/* the first CPU out of a down OS-initiated domain powers it up */
		if (c->exit_ns[sd->down_idx] > cost)
			cost = c->exit_ns[sd->down_idx];
		sd->down_idx = -1;
	}
	return cost;
}

/* ---- energy: the physical state of a sleeping CPU --------------------------------------- */

/*
 * The state @cpu sleeps in physically: what a platform-coordinated domain lets it have (its
 * request or a demotion), or deeper when an OS-initiated domain it belongs to is down.
 */
static int physical_state(struct il_sim *sim, unsigned int cpu)
{
	const struct sim_cpu *c = &sim->cpu[cpu];
	/* only a request for a domain state can be demoted (note_request()) */
	int e = c->dom->req ? pc_effective_state(sim, cpu) : c->idx;

	for (unsigned int k = 0; k < c->dom->ndoms; k++) {
		int down = sim->domains[c->dom->doms[k]].down_idx;

		e = down > e ? down : e;
	}
	return e;
}

static u64 state_uw(const struct il_power *pw, unsigned int cpu, int idx)
{
	if (pw->cpu_table && pw->cpu_table_len)
		return pw->table_uw[pw->cpu_table[cpu % pw->cpu_table_len] - 1][idx];
	return pw->state_uw[idx];
}

/* The energy of @dt ns in physical state @phys instead of accounted state @idx, µJ. */
static double skew_uj(const struct il_power *pw, unsigned int cpu, int phys, int idx, double dt)
{
	return ((double)state_uw(pw, cpu, phys) - (double)state_uw(pw, cpu, idx)) * dt / 1e9;
}

/*
 * Charge @cpu's segment since phys_since in its physical state, net of the accounted one,
 * under the run's energy model and each of cfg.reprice (the same operations, so that each
 * sum is that of a run with that model).
 */
static void segment_close(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	double dt = (double)(sim->head.now - c->dom->phys_since);

	if (c->dom->phys >= 0 && c->dom->phys != c->idx) {
		double *rep = sim->reprice_uj + (size_t)cpu * sim->cfg.nreprice;

		c->stats->domain_adjust_uj += skew_uj(&sim->cfg.power, cpu, c->dom->phys, c->idx,
						      dt);
		for (unsigned int k = 0; k < sim->cfg.nreprice; k++)
			rep[k] += skew_uj(&sim->cfg.reprice[k], cpu, c->dom->phys, c->idx, dt);
	}
	c->dom->phys_since = sim->head.now;
}

static bool skewed(const struct sim_cpu *c)
{
	return c->dom->phys >= 0 && c->dom->phys != c->idx;
}

/*
 * Asleep in a real (not polling) state: computed once per sim_domain_changed() and passed
 * down (stores to the domains' counters could alias the CPU's mode for the compiler).
 */
static bool cpu_sleeps(const struct sim_cpu *c)
{
	return c->mode == CPU_IDLE && !c->polling;
}

/* Note whether @c (@asleep: cpu_sleeps()) is asleep having asked for a domain state. */
static void note_request(struct il_sim *sim, struct sim_cpu *c, bool asleep)
{
	bool req = asleep && c->dom->dom_of_state[c->idx] >= 0;

	if (req == c->dom->req)
		return;
	c->dom->req = req;
	for (unsigned int k = 0; k < c->dom->ndoms; k++)
		sim->domains[c->dom->doms[k]].nreq += req ? 1 : -1u;
}

static void follow_change(struct il_sim *sim, unsigned int cpu, int phys);

/* @cpu's physical state is now @phys (-1: no longer followed); usually it is unchanged. */
static sim_hot void follow(struct il_sim *sim, unsigned int cpu, int phys)
{
	if (phys != sim->cpu[cpu].dom->phys)
		follow_change(sim, cpu, phys);
}

/*
 * A simple domain (struct sim_domain): count @cpu in ndeep or not. Return: whether the domain
 * went down or up, which changes every requester's physical state; otherwise only @cpu's
 * can have changed.
 */
static bool simple_domain_flipped(struct sim_domain *sd, struct sim_cpu *c, bool asleep)
{
	bool deep = asleep && c->idx >= sd->level;
	bool was_down = sd->ndeep == sd->ncpus;

	if (deep == c->dom->deep)
		return false;
	c->dom->deep = deep;
	sd->ndeep += deep ? 1 : -1u;
	return was_down != (sd->ndeep == sd->ncpus);
}

/*
 * Only @cpu of simple domain @sd changed: its physical state, from the domain's count. A CPU
 * that sleeps in what it asked for is not followed (-1): nothing to charge beyond the
 * accounting, and a later scan starts following it from then on.
 */
static void follow_simple(struct il_sim *sim, const struct sim_domain *sd, unsigned int cpu,
			  bool asleep)
{
	const struct sim_cpu *c = &sim->cpu[cpu];
	bool demoted = asleep && c->dom->req && sd->ndeep != sd->ncpus;

	follow(sim, cpu, demoted ? c->idx - 1 : -1);
}

/*
 * physical_state() of sleeping CPU @m of @sd, without a call in the usual case: a CPU of one
 * domain, none of it down, that asked for a CPU state (it has it) or for a platform-
 * coordinated domain state right above a CPU state (it has it or the one below).
 */
static int sole_domain_state(struct il_sim *sim, struct sim_domain *sd, unsigned int m)
{
	const struct sim_cpu *mc = &sim->cpu[m];

	if (mc->dom->ndoms != 1 || sd->down_idx >= 0)
		return physical_state(sim, m);
	if (!mc->dom->req)
		return mc->idx;
	if (sd->d->mode != IL_DOMAIN_PC || mc->dom->dom_of_state[mc->idx - 1] >= 0)
		return physical_state(sim, m);
	return domain_allows(sim, sd, m, mc->idx) ? mc->idx : mc->idx - 1;
}

/* @cpu's physical state changes to @phys (-1: no longer followed): charge the segment. */
static void follow_change(struct il_sim *sim, unsigned int cpu, int phys)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	bool was_skewed;

	was_skewed = skewed(c);
	segment_close(sim, cpu);
	c->dom->phys = (s8)phys;
	sim->dom_nskew += (unsigned int)skewed(c) - (unsigned int)was_skewed;
}

/*
 * Follow every sleeping CPU of @cpu's domains (and @cpu itself) to its physical state. A
 * domain where nobody asks for a domain state, none is down and no CPU anywhere sleeps off
 * its request is skipped: its CPUs sleep in what they asked for (the usual case: WFI and
 * CPU states), whose energy the accounting already charges.
 */
void sim_domain_changed(struct il_sim *sim, unsigned int cpu)
{
	struct sim_cpu *c = &sim->cpu[cpu];
	const struct sim_cpu_dom *dom = c->dom;
	bool asleep = cpu_sleeps(c);

	note_request(sim, c, asleep);
	if (c->mode != CPU_IDLE)
		follow(sim, cpu, -1); /* awake: its segment ends, even in a domain skipped below */
	sim->dom_stamp++;
	for (unsigned int k = 0; k < dom->ndoms; k++) {
		struct sim_domain *sd = &sim->domains[dom->doms[k]];

		if (sd->simple && !simple_domain_flipped(sd, c, asleep)) {
			follow_simple(sim, sd, cpu, asleep);
			continue;
		}
		if (!sd->nreq && sd->down_idx < 0 && !sim->dom_nskew)
			continue;
		for (unsigned int j = 0; j < sd->ncpus; j++) {
			unsigned int m = sd->cpus[j];
			struct sim_cpu *mc = &sim->cpu[m];
			int phys = -1;

			if (mc->mode == CPU_IDLE && !mc->polling)
				phys = sole_domain_state(sim, sd, m);
			if (phys != mc->dom->phys)
				follow(sim, m, phys);
		}
	}
}

void sim_domain_close(struct il_sim *sim)
{
	for (unsigned int i = 0; i < sim->cfg.ncpus; i++)
		if (sim->cpu[i].dom && sim->cpu[i].dom->phys >= 0)
			segment_close(sim, i);
}
