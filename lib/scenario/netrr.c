// SPDX-License-Identifier: GPL-2.0-only
/*
 * netrr.c - request/response over the network: short idles, every microsecond counts.
 *
 * DOC: netrr model
 *
 * The seeds' tbench and pgbench runs (seeds/003, seeds/001) and Chris Friesen's qperf
 * tcp_lat numbers (anchors.md §5: ~120 µs with C2 allowed, ~17 µs without). `pairs`
 * client/server pairs run on CPUs (2i, 2i+1). The client works client_us and sends a
 * request; net_us later the NIC interrupts the server's CPU, which works server_us and
 * answers; net_us later the NIC interrupts the client's CPU, and so on. The wakeups are
 * device interrupts: no governor sees them coming from timers, only from history.
 * Score: rtt_us, the mean time of one request/response transaction.
 */
#include <stdlib.h>

#include "background.h"
#include "scenario.h"

enum { P_PAIRS, P_NET, P_SERVER, P_CLIENT, P_BG, P_BG_SHAPE };

static const struct il_scn_param netrr_params[] = {
	[P_PAIRS] = { "pairs", IL_SCN_INT, 1, 1, IL_SIM_CPUS_MAX / 2, NULL, "",
		      "client/server pairs" },
	[P_NET] = { "net_us", IL_SCN_INT, 8, 0, 100000000, NULL, "us",
		    "one-way wire + NIC latency" },
	[P_SERVER] = { "server_us", IL_SCN_INT, 5, 1, 100000000, NULL, "us",
		       "server work per request (stack + app)" },
	[P_CLIENT] = { "client_us", IL_SCN_INT, 3, 1, 100000000, NULL, "us",
		       "client work per response" },
	[P_BG] = { "background", IL_SCN_INT, 1, 0, 1, NULL, "",
		   "housekeeping timers and interrupts" },
	IL_BG_PARAMS(P_BG_SHAPE),
	{ 0 }
};

struct netrr_ctx;

struct netrr_pair {
	struct netrr_ctx *n;
	unsigned int client, server;
};

struct netrr_ctx {
	u64 net_ns, server_ns, client_ns;
	struct netrr_pair *pairs;
	unsigned int npairs;
	u64 transactions;
	struct il_bg *bg;
};

static void netrr_client_sent(struct il_sim *sim, unsigned int cpu, void *arg);

static void netrr_response_irq(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct netrr_pair *p = arg;

	p->n->transactions++;
	il_sim_wake(sim, cpu, cpu, p->n->client_ns, netrr_client_sent, p, (int)p->server);
}

static void netrr_server_sent(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct netrr_pair *p = arg;

	/* The hint names the next CPU of the chain, so the oracle sees at least this much. */
	il_sim_irq(sim, p->client, il_sim_now(sim) + p->n->net_ns, netrr_response_irq, p,
		   (int)p->server);
}

static void netrr_request_irq(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct netrr_pair *p = arg;

	il_sim_wake(sim, cpu, cpu, p->n->server_ns, netrr_server_sent, p, (int)p->client);
}

static void netrr_client_sent(struct il_sim *sim, unsigned int cpu, void *arg)
{
	struct netrr_pair *p = arg;

	il_sim_irq(sim, p->server, il_sim_now(sim) + p->n->net_ns, netrr_request_irq, p,
		   (int)p->client);
}

static int netrr_setup(struct il_sim *sim, void *ctx, const struct il_scn_args *args)
{
	struct netrr_ctx *n = ctx;
	unsigned int ncpus = il_sim_ncpus(sim);

	n->net_ns = (u64)args->v[P_NET] * NSEC_PER_USEC;
	n->server_ns = (u64)args->v[P_SERVER] * NSEC_PER_USEC;
	n->client_ns = (u64)args->v[P_CLIENT] * NSEC_PER_USEC;
	n->npairs = (unsigned int)args->v[P_PAIRS];
	if (n->npairs > (ncpus + 1) / 2)
		n->npairs = (ncpus + 1) / 2;
	n->pairs = calloc(n->npairs, sizeof(*n->pairs));
	if (!n->pairs)
		return -1;
	for (unsigned int i = 0; i < n->npairs; i++) {
		struct netrr_pair *p = &n->pairs[i];

		p->n = n;
		p->client = (2 * i) % ncpus;
		p->server = (2 * i + 1) % ncpus;
		if (il_sim_wake(sim, p->client, p->client, n->client_ns, netrr_client_sent, p,
				(int)p->server))
			return -1;
	}
	return il_bg_start_default(sim, args->v[P_BG], &args->v[P_BG_SHAPE], 2, &n->bg);
}

static void netrr_cleanup(void *ctx)
{
	struct netrr_ctx *n = ctx;

	free(n->pairs);
	il_bg_free(n->bg);
}

static double netrr_score(const struct il_sim *sim, const void *ctx)
{
	const struct netrr_ctx *n = ctx;
	double per_pair = n->npairs ? (double)n->transactions / n->npairs : 0.0;

	return per_pair > 0 ? (double)il_sim_duration_ns(sim) / 1e3 / per_pair : 0.0;
}

const struct il_scenario il_scn_netrr = {
	.name = "netrr",
	.summary = "network request/response pairs woken by NIC interrupts (latency-sensitive)",
	.score = "rtt_us",
	.score_help = "mean µs per request/response transaction",
	.score_prec = 3,
	.higher_is_better = false,
	.default_cpus = 2,
	.sources = "tbench/pgbench in seeds/003 and seeds/001, qperf tcp_lat in anchors.md §5 "
		   "(amounts assumed)",
	.params = netrr_params,
	.ctx_size = sizeof(struct netrr_ctx),
	.setup = netrr_setup,
	.cleanup = netrr_cleanup,
	.score_fn = netrr_score,
};
