// SPDX-License-Identifier: GPL-2.0-only
/*
 * haltpoll.c - port of the "haltpoll" cpuidle governor (drivers/cpuidle/governors/haltpoll.c).
 *
 * DOC: haltpoll
 *
 * haltpoll is meant for KVM guests driven by the cpuidle-haltpoll driver, whose table is
 * [0 = poll, 1 = halt]. Halting in a guest costs a VM exit, so the guest first spins for a
 * while in case the wakeup comes soon. The governor adapts that spin, the "poll window"
 * dev->poll_limit_ns, which the polling state reads through cpuidle_poll_time():
 *
 *  1. enable() closes the window (poll_limit_ns = 0).
 *  2. select(): a latency limit of 0 means poll with the tick kept. With a closed window,
 *     halt (and let the tick stop). After a halt, poll with the tick kept. After a poll, halt
 *     if the poll ended because the window ran out (dev->poll_time_limit), else poll again.
 *  3. reflect() records the entered state; after a halt it feeds the halt's length
 *     ("block_ns") to adjust_poll_limit():
 *  4. a halt longer than the window but within guest_halt_poll_ns grows the window: times
 *     guest_halt_poll_grow, at least guest_halt_poll_grow_start, at most guest_halt_poll_ns.
 *  5. a halt longer than guest_halt_poll_ns shrinks it (if guest_halt_poll_allow_shrink):
 *     divided by guest_halt_poll_shrink (closed when that is 0); since 6.9 a window that
 *     falls below guest_halt_poll_grow_start is closed altogether.
 *
 * The window arithmetic is done in unsigned int as upstream: the grown value is the u64
 * product truncated to 32 bits, and the shrunk value starts from the truncated window.
 * Note the core's side (kernel-governors.md §4): when the window is 0 and the poll state runs
 * anyway (latency limit 0), cpuidle_poll_time() stores its default window in poll_limit_ns, so
 * haltpoll afterwards works with a window it never set.
 *
 * The module parameters are the lab's tunables (lib/gov/param.c), one copy per device, with
 * the kernel's defaults: guest_halt_poll_ns 200000, guest_halt_poll_shrink 2,
 * guest_halt_poll_grow 2, guest_halt_poll_grow_start 50000 (ns, although upstream's comment
 * says us), guest_halt_poll_allow_shrink true.
 *
 * Versions (one `struct haltpoll_cfg` switch):
 *  - Debian 6.1.192 (blob 1dff3a52917d): no reset below grow_start.
 *  - v6.9 … v6.19 and Debian 6.12.117 (663b7f164d20, adds 496d0a648509 "do not shrink guest
 *    poll_limit_ns below grow_start"): the reset; select also tests !drv->state_count.
 *  - v7.0, v7.1 (b367d10279c8): the !drv->state_count test is gone, because the 7.0 idle loop
 *    no longer calls a governor for a single-state driver.
 * The trace points (guest_halt_poll_ns grow/shrink) are not ported; vars() shows the window.
 *
 * The upstream governor is by Marcelo Tosatti (Red Hat); the 6.9 change by Parshuram Sangle
 * and Rajendran Jaishankar (Intel). This port is our own code, GPL-2.0-only.
 */
#include <stddef.h>

#include "governors.h"
#include "kcompat.h"

struct haltpoll_cfg {
	bool no_states_test; /* select also returns 0 for !drv->state_count (up to 6.19) */
	bool shrink_reset;   /* 496d0a648509 (6.9): close a window shrunk below grow_start */
};

/* The module parameters, kept per device (the kernel has one global copy of each). */
struct haltpoll_params {
	unsigned int guest_halt_poll_ns;         /* largest window, and "long halt" bound, ns */
	unsigned int guest_halt_poll_shrink;     /* divisor on a long halt; 0 closes the window */
	unsigned int guest_halt_poll_grow;       /* factor on a halt that outlasted the window */
	unsigned int guest_halt_poll_grow_start; /* smallest open window, ns */
	bool guest_halt_poll_allow_shrink;
};

static const struct haltpoll_cfg *haltpoll_cfg(const struct il_device *dev)
{
	return dev->preset->cfg;
}

/**
 * haltpoll_select - poll or halt
 * @drv: the driver (poll state 0, halt state 1)
 * @dev: the CPU
 * @stop_tick: cleared whenever haltpoll polls
 */
static int haltpoll_select(struct il_driver *drv, struct il_device *dev, bool *stop_tick)
{
	s64 latency_req = cpuidle_governor_latency_req(dev);

	if ((haltpoll_cfg(dev)->no_states_test && !drv->state_count) || latency_req == 0) {
		*stop_tick = false;
		return 0;
	}

	/* Closed window: go straight to halt. */
	if (dev->poll_limit_ns == 0)
		return 1;

	if (dev->last_state_idx == 0) {
		/* The last poll saw no wakeup within the window: halt now. */
		if (dev->poll_time_limit)
			return 1;

		*stop_tick = false;
		return 0;
	}

	/* Back from a halt: poll first. */
	*stop_tick = false;
	return 0;
}

/* Grow the window after a halt it could have covered, shrink it after a long halt. */
static void adjust_poll_limit(struct il_device *dev, u64 block_ns)
{
	const struct haltpoll_params *hp = dev->governor_data;
	unsigned int val;

	if (block_ns > dev->poll_limit_ns && block_ns <= hp->guest_halt_poll_ns) {
		val = (unsigned int)(dev->poll_limit_ns * hp->guest_halt_poll_grow);

		if (val < hp->guest_halt_poll_grow_start)
			val = hp->guest_halt_poll_grow_start;
		if (val > hp->guest_halt_poll_ns)
			val = hp->guest_halt_poll_ns;

		dev->poll_limit_ns = val;
	} else if (block_ns > hp->guest_halt_poll_ns && hp->guest_halt_poll_allow_shrink) {
		unsigned int shrink = hp->guest_halt_poll_shrink;

		val = (unsigned int)dev->poll_limit_ns;
		if (shrink == 0) {
			val = 0;
		} else {
			val /= shrink;
			if (haltpoll_cfg(dev)->shrink_reset && val < hp->guest_halt_poll_grow_start)
				val = 0;
		}

		dev->poll_limit_ns = val;
	}
}

/**
 * haltpoll_reflect - record the entered state; after a halt, adapt the window
 */
static void haltpoll_reflect(struct il_device *dev, int index)
{
	dev->last_state_idx = index;

	if (index != 0)
		adjust_poll_limit(dev, dev->last_residency_ns);
}

/**
 * haltpoll_enable_device - start with a closed window
 */
static int haltpoll_enable_device(struct il_driver *drv, struct il_device *dev)
{
	dev->poll_limit_ns = 0;
	return 0;
}

/* haltpoll has no per-CPU struct upstream: the device fields it drives are its state. */
static int haltpoll_vars(const struct il_device *dev, struct il_var *vars, int max)
{
	int n = 0;

	if (n < max)
		vars[n++] = (struct il_var){ .name = "poll_limit_ns", .value = dev->poll_limit_ns };
	if (n < max)
		vars[n++] = (struct il_var){ .name = "last_state_idx",
					     .value = (u64)(s64)dev->last_state_idx,
					     .is_signed = true };
	return n;
}

static const struct il_param haltpoll_param_table[] = {
	{ "guest_halt_poll_ns", IL_PARAM_UINT, 200000,
	  offsetof(struct haltpoll_params, guest_halt_poll_ns),
	  "largest poll window; halts longer than this shrink the window (ns)" },
	{ "guest_halt_poll_shrink", IL_PARAM_UINT, 2,
	  offsetof(struct haltpoll_params, guest_halt_poll_shrink),
	  "divisor applied to the window after a long halt; 0 closes it" },
	{ "guest_halt_poll_grow", IL_PARAM_UINT, 2,
	  offsetof(struct haltpoll_params, guest_halt_poll_grow),
	  "factor applied to the window after a halt it could have covered" },
	{ "guest_halt_poll_grow_start", IL_PARAM_UINT, 50000,
	  offsetof(struct haltpoll_params, guest_halt_poll_grow_start),
	  "window a closed window grows to first (ns)" },
	{ "guest_halt_poll_allow_shrink", IL_PARAM_BOOL, 1,
	  offsetof(struct haltpoll_params, guest_halt_poll_allow_shrink),
	  "whether long halts shrink the window" },
	{ 0 }
};

static const struct il_governor haltpoll_governor = {
	.name = "haltpoll",
	.rating = 9,
	.data_size = sizeof(struct haltpoll_params),
	.enable = haltpoll_enable_device,
	.select = haltpoll_select,
	.reflect = haltpoll_reflect,
	.vars = haltpoll_vars,
	.params = haltpoll_param_table,
};

static const struct haltpoll_cfg haltpoll_cfg_6_13 = { .no_states_test = true,
						       .shrink_reset = true };
static const struct haltpoll_cfg haltpoll_cfg_7_0 = { .no_states_test = false,
						      .shrink_reset = true };
static const struct haltpoll_cfg haltpoll_cfg_6_1 = { .no_states_test = true,
						      .shrink_reset = false };

const struct il_preset il_presets_haltpoll[] = {
	{
		.name = "haltpoll-6.13",
		.gov = &haltpoll_governor,
		.kver = IL_KV(6, 13, 0),
		.core = &il_core_6_13,
		.kernel = "v6.13",
		.upstream = "haltpoll.c 663b7f164d20 (496d0a648509; same blob v6.9 ... v6.19)",
		.changes = "first haltpoll: window reset below grow_start, !drv->state_count test",
		.cfg = &haltpoll_cfg_6_13,
	},
	{
		.name = "haltpoll-7.0",
		.gov = &haltpoll_governor,
		.kver = IL_KV(7, 0, 0),
		.core = &il_core_7_0,
		.kernel = "v7.0",
		.upstream = "haltpoll.c b367d10279c8 (same blob v7.1)",
		.changes = "select() drops the !drv->state_count test (7.0 idle loop bypasses it)",
		.cfg = &haltpoll_cfg_7_0,
	},
	{
		.name = "haltpoll-6.1.192",
		.gov = &haltpoll_governor,
		.kver = IL_KV(6, 1, 192),
		.core = &il_core_debian_6_1,
		.kernel = "Debian 6.1.192-3",
		.upstream = "haltpoll.c 1dff3a52917d (Debian linux-source-6.1)",
		.changes = "without 496d0a648509: a window shrunk below grow_start stays open",
		.cfg = &haltpoll_cfg_6_1,
	},
	{
		.name = "haltpoll-6.12.117",
		.gov = &haltpoll_governor,
		.kver = IL_KV(6, 12, 117),
		.core = &il_core_debian_6_12,
		.kernel = "Debian 6.12.117-1~deb12u1",
		.upstream = "haltpoll.c 663b7f164d20 (Debian linux-source-6.12)",
		.changes =
			"the mainline 6.9 ... 6.19 file (reset below grow_start, state_count test)",
		.cfg = &haltpoll_cfg_6_13,
	},
	{
		.name = "haltpoll-6.18.35",
		.gov = &haltpoll_governor,
		.kver = IL_KV(6, 18, 35),
		.core = &il_core_6_18_35,
		.kernel = "v6.18.35 (LTS)",
		.upstream = "haltpoll.c 663b7f164d20 (6.18.26 ... 6.18.35)",
		.changes = "the mainline 6.9 ... 6.19 file, on 6.18.35's framework (7.0 idle loop)",
		.cfg = &haltpoll_cfg_6_13,
	},
	{ 0 }
};
