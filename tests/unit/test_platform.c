// SPDX-License-Identifier: GPL-2.0-only
/*
 * Platform files: every built-in parses and carries its sources; the i5-10600K table holds
 * the numbers its sources give; every class of bad input is rejected with FILE:LINE.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "platform/platform.h"
#include "util/array.h"

static int parse(const char *text, struct il_platform *p, struct il_error *err)
{
	return il_platform_parse(text, strlen(text), "t.plat", p, err);
}

static void test_builtins_parse(void **state)
{
	struct il_platform *p = malloc(sizeof(*p));
	struct il_error err;

	assert_non_null(p);
	assert_true(il_platform_builtin_count() >= 8);
	for (int i = 0; i < il_platform_builtin_count(); i++) {
		const char *name = il_platform_builtin_name(i);

		if (il_platform_load(name, p, &err))
			fail_msg("built-in %s: %s", name, err.msg);
		assert_string_equal(p->name, name);
		assert_true(p->drv.state_count >= 2);
		assert_true(p->power_known);
		assert_true(p->cpus_source[0] && p->hz_source[0]);
		/* Every built-in gives the busy power of the energy model, with its source. */
		assert_true(p->active_power_uw > 0);
		assert_true(p->active_power_source[0]);
		for (int s = 0; s < p->drv.state_count; s++) {
			assert_true(p->state_source[s][0]);
			/* Shallow to deep: target residencies never decrease. */
			if (s > 0)
				assert_true(p->drv.states[s].target_residency_ns >=
					    p->drv.states[s - 1].target_residency_ns);
		}
	}
	assert_null(il_platform_builtin_name(il_platform_builtin_count()));
	free(p);
}

static void test_i5_10600k_numbers(void **state)
{
	struct il_platform *p = malloc(sizeof(*p));
	struct il_error err;
	static const struct {
		const char *name;
		s64 exit_ns, residency_ns;
	} want[] = {
		{ "POLL", 0, 0 },
		{ "C1_ACPI", 1000, 1000 },
		{ "C2_ACPI", 120000, 360000 },
		{ "C3_ACPI", 1034000, 3102000 },
	};

	assert_int_equal(il_platform_load("i5-10600k", p, &err), 0);
	assert_int_equal(p->cpus, 12);
	assert_int_equal(p->hz, 1000);
	assert_string_equal(p->drv.name, "intel_idle");
	assert_string_equal(p->origin, "builtin:i5-10600k");
	assert_int_equal(p->drv.state_count, 4);
	for (int i = 0; i < 4; i++) {
		const struct il_state *s = &p->drv.states[i];

		assert_string_equal(s->name, want[i].name);
		assert_int_equal(s->exit_latency_ns, want[i].exit_ns);
		assert_int_equal(s->target_residency_ns, want[i].residency_ns);
		/* il_driver_init() derived the µs fields. */
		assert_int_equal(s->exit_latency, want[i].exit_ns / 1000);
		assert_int_equal(s->target_residency, want[i].residency_ns / 1000);
	}
	assert_int_equal(p->drv.states[0].flags, CPUIDLE_FLAG_POLLING);
	assert_string_equal(p->drv.states[2].desc, "ACPI FFH MWAIT 0x30");
	assert_int_equal(p->drv.states[0].power_uw, 3833333);
	/* The wake with the package up (core C6/C7): 85 µs for C2_ACPI and C3_ACPI, none else. */
	assert_int_equal(p->drv.states[1].core_exit_latency_ns, 0);
	assert_int_equal(p->drv.states[2].core_exit_latency_ns, 85000);
	assert_int_equal(p->drv.states[3].core_exit_latency_ns, 85000);
	/* Active power: the 46 W of the POLL-only measurement, / 12 CPUs, like POLL itself. */
	assert_int_equal(p->active_power_uw, 3833333);
	free(p);
}

static const char good_header[] = "platform   t\n"
				  "driver     test_idle\n"
				  "description \"a test platform\"\n"
				  "cpus 4\n"
				  "  source: made up\n"
				  "hz 250\n"
				  "  source: made up\n";

static void test_good_file_features(void **state)
{
	char text[2048];
	struct il_platform *p = malloc(sizeof(*p));
	struct il_error err;

	/* CRLF, quoted names, ns and ms units, several sources, comments, flags. */
	snprintf(text, sizeof(text),
		 "# comment\r\n%s"
		 "state \"wait state\" desc=\"a \\\"quoted\\\" desc\" exit_latency=1500ns target_residency=2us # c\r\n"
		 "  source: first\r\n"
		 "  source: second\r\n"
		 "state deep exit_latency=1ms target_residency=3ms flags=timer-stop,tlb-flushed power_uw=5 entry_exit_energy_nj=6\n"
		 "  source: x\n",
		 good_header);
	if (parse(text, p, &err))
		fail_msg("%s", err.msg);
	assert_string_equal(p->drv.states[0].name, "wait state");
	assert_string_equal(p->drv.states[0].desc, "a \"quoted\" desc");
	assert_int_equal(p->drv.states[0].exit_latency_ns, 1500);
	assert_int_equal(p->drv.states[0].exit_latency, 1);
	assert_int_equal(p->drv.states[1].target_residency_ns, 3000000);
	assert_int_equal(p->drv.states[1].flags, CPUIDLE_FLAG_TIMER_STOP | CPUIDLE_FLAG_TLB_FLUSHED);
	assert_string_equal(p->state_source[0], "first; second");
	assert_false(p->power_known); /* the first state has no power numbers */
	/* active_power_uw is optional: without the line it is 0 and has no source. */
	assert_int_equal(p->active_power_uw, 0);
	assert_string_equal(p->active_power_source, "");
	free(p);
}

/* actual_exit_latency: a fixed cost, or a range each wake draws from (docs/platforms.md). */
static void test_actual_exit(void **state)
{
	char text[2048];
	struct il_platform *p = malloc(sizeof(*p));
	struct il_error err;

	snprintf(text, sizeof(text),
		 "%sstate a exit_latency=1us target_residency=2us actual_exit_latency=85us..221us\n"
		 "  source: s\n"
		 "state b exit_latency=50us target_residency=100us actual_exit_latency=120us\n"
		 "  source: s\n"
		 "state c exit_latency=400us target_residency=800us\n  source: s\n",
		 good_header);
	if (parse(text, p, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(p->drv.states[0].exit_latency_ns, 1000);
	assert_int_equal(p->drv.states[0].actual_exit_min_ns, 85000);
	assert_int_equal(p->drv.states[0].actual_exit_max_ns, 221000);
	assert_int_equal(p->drv.states[1].actual_exit_min_ns, 120000);
	assert_int_equal(p->drv.states[1].actual_exit_max_ns, 120000);
	assert_int_equal(p->drv.states[2].actual_exit_max_ns, 0);
	free(p);
}

static void test_active_power(void **state)
{
	char text[2048];
	struct il_platform *p = malloc(sizeof(*p));
	struct il_error err;

	/* After the states, like any header line, with two notes joined. */
	snprintf(text, sizeof(text),
		 "%sstate a exit_latency=1us target_residency=1us power_uw=10 entry_exit_energy_nj=0\n"
		 "  source: s\n"
		 "active_power_uw 750000 # per CPU\n"
		 "  source: measured\n"
		 "  source: rounded\n",
		 good_header);
	if (parse(text, p, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(p->active_power_uw, 750000);
	assert_string_equal(p->active_power_source, "measured; rounded");
	assert_true(p->power_known);
	assert_int_equal(p->drv.state_count, 1);
	/* The largest accepted value. */
	snprintf(text, sizeof(text), "%sactive_power_uw 1000000000\n  source: s\n"
		 "state a exit_latency=1us target_residency=1us\n  source: s\n", good_header);
	if (parse(text, p, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(p->active_power_uw, 1000000000ULL);
	assert_int_equal(p->host_threads, 0); /* optional: hardware runs every CPU itself */
	snprintf(text, sizeof(text), "%shost_threads 1\n  source: thread=single\n"
		 "state a exit_latency=1us target_residency=1us\n  source: s\n", good_header);
	if (parse(text, p, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(p->host_threads, 1);
	assert_string_equal(p->host_threads_source, "thread=single");
	assert_int_equal(p->timer_late_max_ns, 0); /* optional: hardware's timers are on time */
	snprintf(text, sizeof(text), "%stimer_late 60us..330us\n  source: traces\n"
		 "state a exit_latency=1us target_residency=1us\n  source: s\n", good_header);
	if (parse(text, p, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(p->timer_late_min_ns, 60000);
	assert_int_equal(p->timer_late_max_ns, 330000);
	assert_string_equal(p->timer_late_source, "traces");
	assert_int_equal(p->timer_handler_max_ns, 0); /* optional: below hardware's scale */
	snprintf(text, sizeof(text), "%stimer_handler 40us\n  source: handler traces\n"
		 "state a exit_latency=1us target_residency=1us\n  source: s\n", good_header);
	if (parse(text, p, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(p->timer_handler_min_ns, 40000);
	assert_int_equal(p->timer_handler_max_ns, 40000);
	assert_string_equal(p->timer_handler_source, "handler traces");
	free(p);
}

struct bad_case {
	const char *body; /* appended to good_header unless it starts with '!' */
	const char *want; /* expected start of the message */
};

static const struct bad_case bad_cases[] = {
	{ "foo 1\n", "t.plat:8: unknown key 'foo'" },
	{ "cpus=4\n", "t.plat:8: unknown key 'cpus='" },
	{ "state a exit_latency=1us target_residency=1us\n  source: s\nstate a exit_latency=1us target_residency=1us\n",
	  "t.plat:10: duplicate state name 'a'" },
	{ "state a exit_latency=1 target_residency=1us\n", "t.plat:8: invalid exit_latency '1': a time needs a unit" },
	{ "state a exit_latency=-1us target_residency=1us\n", "t.plat:8: invalid exit_latency '-1us': negative" },
	{ "state a exit_latency=11000ms target_residency=1us\n", "t.plat:8: invalid exit_latency '11000ms': value out of range" },
	{ "state a exit_latency=1xus target_residency=1us\n", "t.plat:8: invalid exit_latency '1xus': not a number" },
	{ "state a target_residency=1us\n", "t.plat:8: state 'a' needs exit_latency= and target_residency=" },
	{ "state a exit_latency=1us target_residency=1us flags=fast\n", "t.plat:8: unknown state flag 'fast'" },
	{ "state a exit_latency=1us target_residency=1us flags=,\n", "t.plat:8: empty flags value ','" },
	{ "state a exit_latency=1us target_residency=1us\n  source: s\nstate b exit_latency=1us target_residency=1us flags=polling\n",
	  "t.plat:10: only the first state may be polling" },
	{ "state a exit_latency=1us target_residency=1us speed=3\n", "t.plat:8: unknown state field 'speed'" },
	{ "state a exit_latency=10us target_residency=10us core_exit_latency=11us\n",
	  "t.plat:8: state 'a': core_exit_latency must not exceed exit_latency" },
	{ "state a exit_latency=0us target_residency=0us flags=polling core_exit_latency=0us\n",
	  "t.plat:8: state 'a': core_exit_latency must not exceed exit_latency" },
	{ "state a exit_latency=1us target_residency=1us actual_exit_latency=5us..2us\n",
	  "t.plat:8: invalid actual_exit_latency '5us..2us': a range LO..HI needs" },
	{ "state a exit_latency=1us target_residency=1us actual_exit_latency=0us\n",
	  "t.plat:8: invalid actual_exit_latency '0us': a range LO..HI needs" },
	{ "state a exit_latency=1us target_residency=1us actual_exit_latency=5..9us\n",
	  "t.plat:8: invalid actual_exit_latency '5..9us' (T or LO..HI): a time needs a unit" },
	{ "state a exit_latency=1us target_residency=1us actual_exit_latency=5us..\n",
	  "t.plat:8: invalid actual_exit_latency '5us..' (T or LO..HI)" },
	{ "state a exit_latency=9us target_residency=9us core_exit_latency=1us actual_exit_latency=5us\n",
	  "t.plat:8: state 'a': actual_exit_latency replaces core_exit_latency (not both)" },
	{ "state a exit_latency=0us target_residency=0us flags=polling actual_exit_latency=5us\n",
	  "t.plat:8: state 'a': actual_exit_latency replaces core_exit_latency (not both) and a polling" },
	{ "state a exit_latency=1us target_residency=1us desc\n", "t.plat:8: state field 'desc' needs a value" },
	{ "state a exit_latency=1us exit_latency=2us target_residency=1us\n", "t.plat:8: duplicate state field 'exit_latency'" },
	{ "state a exit_latency=1us target_residency=1us power_uw=1000000001\n", "t.plat:8: invalid power_uw '1000000001'" },
	{ "state a exit_latency=1us target_residency=1us power_uw=12abc\n", "t.plat:8: invalid power_uw '12abc'" },
	{ "state 0123456789abcdef exit_latency=1us target_residency=1us\n", "t.plat:8: state name '0123456789abcdef' must have 1 to 15 characters" },
	{ "state a desc=\"0123456789012345678901234567890123\" exit_latency=1us target_residency=1us\n",
	  "t.plat:8: desc longer than 31 characters" },
	{ "state a desc=\"open exit_latency=1us\n", "t.plat:8: unterminated quote" },
	{ "state exit_latency=1us\n", "t.plat:8: a state line starts with the state's name" },
	{ "state a exit_latency=1us target_residency=1us\n", "t.plat:8: state a has no 'source:' note" },
	{ "state a exit_latency=1us target_residency=1us\nstate b exit_latency=1us target_residency=1us\n  source: s\n",
	  "t.plat:8: state a has no 'source:' note" },
	{ "  source:   \n", "t.plat:8: empty 'source:' note" },
	{ "active_power_uw 5000\nstate a exit_latency=1us target_residency=1us\n  source: s\n",
	  "t.plat:8: active_power_uw has no 'source:' note" },
	{ "state a exit_latency=1us target_residency=1us\n  source: s\nactive_power_uw 5000\n",
	  "t.plat:10: active_power_uw has no 'source:' note" },
	{ "active_power_uw 0\n", "t.plat:8: invalid active_power_uw '0' (a number from 1 to 1000000000)" },
	{ "active_power_uw 1000000001\n", "t.plat:8: invalid active_power_uw '1000000001'" },
	{ "active_power_uw 5mW\n", "t.plat:8: invalid active_power_uw '5mW'" },
	{ "active_power_uw -5\n", "t.plat:8: invalid active_power_uw '-5'" },
	{ "active_power_uw\n", "t.plat:8: 'active_power_uw' takes exactly one value" },
	{ "active_power_uw=5\n", "t.plat:8: unknown key 'active_power_uw='" },
	{ "active_power_uw 5\n  source: s\nactive_power_uw 6\n", "t.plat:10: duplicate 'active_power_uw' line (first on line 8)" },
	{ "!platform t\n  source: nothing to attach to\n", "t.plat:2: 'source:' must follow a cpus, hz, active_power_uw, host_threads, timer_late, timer_handler, state, table or domain line" },
	{ "timer_late 60\n", "t.plat:8: invalid timer_late '60'" },
	{ "timer_late 300us..60us\n", "t.plat:8: invalid timer_late '300us..60us': a range LO..HI needs 0 <= LO <= HI and HI > 0" },
	{ "timer_late 0us\n", "t.plat:8: invalid timer_late '0us': a range LO..HI needs" },
	{ "timer_late 1us 2us\n", "t.plat:8: 'timer_late' takes exactly one value" },
	{ "timer_late 1us\n  source: s\ntimer_late 2us\n", "t.plat:10: duplicate 'timer_late' line (first on line 8)" },
	{ "timer_late 60us..330us\nstate a exit_latency=1us target_residency=1us\n  source: s\n",
	  "t.plat:8: timer_late has no 'source:' note" },
	{ "timer_handler 200us..30us\n", "t.plat:8: invalid timer_handler '200us..30us': a range LO..HI needs 0 <= LO <= HI and HI > 0" },
	{ "timer_handler 30\n", "t.plat:8: invalid timer_handler '30'" },
	{ "timer_handler 1us 2us\n", "t.plat:8: 'timer_handler' takes exactly one value" },
	{ "timer_handler 1us\n  source: s\ntimer_handler 2us\n", "t.plat:10: duplicate 'timer_handler' line (first on line 8)" },
	{ "timer_handler 30us..200us\nstate a exit_latency=1us target_residency=1us\n  source: s\n",
	  "t.plat:8: timer_handler has no 'source:' note" },
	{ "host_threads 0\n", "t.plat:8: invalid host_threads '0' (a number from 1 to the cpus)" },
	{ "host_threads 1 2\n", "t.plat:8: 'host_threads' takes exactly one value" },
	{ "host_threads 1\nstate a exit_latency=1us target_residency=1us\n  source: s\n",
	  "t.plat:8: host_threads has no 'source:' note" },
	{ "host_threads 5\n  source: s\nstate a exit_latency=1us target_residency=1us\n  source: s\n",
	  "t.plat:8: host_threads 5 is more than the 4 cpus" },
	{ "host_threads 1\n  source: s\n  uncertain: class=assumed range=1..2\n",
	  "t.plat:10: 'uncertain:' starts with the field it is about" },
	{ "!platform t\ndriver d\ndescription x\ncpus 0\n", "t.plat:4: invalid cpus '0'" },
	{ "!platform t\ncpus 8193\n", "t.plat:2: invalid cpus '8193'" },
	{ "!platform t\ncpus 4 5\n", "t.plat:2: 'cpus' takes exactly one value" },
	{ "!platform t\nhz 123\n", "t.plat:2: invalid hz '123'" },
	{ "!platform t\nhz 250\n  source: s\nhz 250\n", "t.plat:4: duplicate 'hz' line (first on line 2)" },
	{ "!platform t.plat\n", "t.plat:1: invalid platform name 't.plat'" },
	{ "!platform a/b\n", "t.plat:1: invalid platform name 'a/b'" },
	{ "!platform=x\n", "t.plat:1: unknown key 'platform='" },
	{ "!platform x=y\n", "t.plat:1: 'platform' takes a plain value, not 'x=...'" },
	{ "!driver 0123456789abcdef\n", "t.plat:1: driver name longer than 15 characters" },
	{ "!", "t.plat: missing 'platform' line" },
	{ "!platform t\ndriver d\ndescription x\ncpus 1\n  source: s\n", "t.plat: missing 'hz' line" },
	{ "", "t.plat: no 'state' lines" },
	/* "uncertain:" lines (lib/platform/uncertain.h) */
	{ "state a exit_latency=10us target_residency=20us power_uw=1000 entry_exit_energy_nj=50\n  source: s\n  uncertain: power_uw class=assumed range=2x..4x why=\"w\"\n",
	  "t.plat:10: range 2x..4x of power_uw excludes its nominal value 1000" },
	{ "state a exit_latency=10us target_residency=20us power_uw=1000 entry_exit_energy_nj=50\n  source: s\n  uncertain: exit_latency class=measured range=1us..5us why=\"w\"\n",
	  "t.plat:10: range 1us..5us of exit_latency excludes its nominal value 10000" },
	{ "state a exit_latency=10us target_residency=20us power_uw=1000 entry_exit_energy_nj=50\n  source: s\n  uncertain: power_uw class=guessed range=0.5x..2x why=\"w\"\n",
	  "t.plat:10: unknown class 'guessed'" },
	{ "state a exit_latency=10us target_residency=20us power_uw=1000 entry_exit_energy_nj=50\n  source: s\n  uncertain: core_exit_latency class=assumed range=0.5x..2x why=\"w\"\n",
	  "t.plat:10: state a sets no 'core_exit_latency' to be uncertain about" },
	{ "active_power_uw 5000\n  source: s\n  uncertain: power_uw class=assumed range=0.5x..2x why=\"w\"\n",
	  "t.plat:10: active_power_uw sets no 'power_uw'" },
	{ "!platform t\ncpus 4\n  source: s\n  uncertain: cpus class=assumed range=0.5x..2x why=\"w\"\n",
	  "t.plat:4: cpus sets no 'cpus'" },
	{ "state a exit_latency=10us target_residency=20us power_uw=1000 entry_exit_energy_nj=50\n  source: s\n  uncertain: power_uw class=assumed why=\"w\"\n",
	  "t.plat:10: power_uw is assumed: it needs range=" },
	{ "state a exit_latency=10us target_residency=20us power_uw=1000 entry_exit_energy_nj=50\n  source: s\n  uncertain: power_uw class=fitted range=0.5x..2x why=\"w\"\n",
	  "t.plat:10: a fitted power_uw needs fitted_to=" },
	{ "state a exit_latency=10us target_residency=20us power_uw=1000 entry_exit_energy_nj=50\n  source: s\n  uncertain: power_uw class=assumed range=0.5x..2x why=\"w\" fitted_to=\"x\"\n",
	  "t.plat:10: fitted_to= on power_uw" },
	{ "state a exit_latency=10us target_residency=20us power_uw=1000 entry_exit_energy_nj=50\n  source: s\n  uncertain: power_uw class=assumed range=0.5x..2x\n",
	  "t.plat:10: range of power_uw without why=" },
	{ "state a exit_latency=10us target_residency=20us power_uw=1000 entry_exit_energy_nj=50\n  source: s\n  uncertain: power_uw class=assumed range=0.5..2 why=\"w\"\n",
	  "t.plat:10: invalid range '0.5..2' of power_uw: a count range" },
	{ "state a exit_latency=10us target_residency=20us power_uw=1000 entry_exit_energy_nj=50\n  source: s\n  uncertain: power_uw class=assumed range=2x..0.5x why=\"w\"\n",
	  "t.plat:10: invalid range '2x..0.5x' of power_uw: LO is above HI" },
	{ "state a exit_latency=10us target_residency=20us power_uw=1000 entry_exit_energy_nj=50\n  source: s\n  uncertain: exit_latency class=measured range=5..20 why=\"w\"\n",
	  "t.plat:10: invalid range '5..20' of exit_latency" },
	{ "state a exit_latency=10us target_residency=20us power_uw=1000 entry_exit_energy_nj=50\n  source: s\n  uncertain: power_uw class=assumed range=0.5x..2x why=\"w\"\n  uncertain: power_uw class=assumed range=0.5x..2x why=\"w\"\n",
	  "t.plat:11: power_uw of state a is annotated twice (first on line 10)" },
	{ "state a exit_latency=10us target_residency=20us power_uw=1000 entry_exit_energy_nj=50\n  source: s\n  uncertain: power_uw class=assumed range=0.5x..2x why=\"w\" speed=3\n",
	  "t.plat:10: 'uncertain:' takes class=" },
	{ "state a exit_latency=10us target_residency=20us power_uw=1000 entry_exit_energy_nj=50\n  source: s\n  uncertain: power_uw range=0.5x..2x why=\"w\"\n",
	  "t.plat:10: 'uncertain:' needs class=" },
	{ "!platform t\n  uncertain: power_uw class=assumed\n",
	  "t.plat:2: 'uncertain:' must follow" },
	/* hz: a set of CONFIG_HZ values that holds the file's own */
	{ "!platform t\nhz 250\n  source: s\n  uncertain: hz class=assumed range=100..1000 why=\"w\"\n",
	  "t.plat:4: range 100..1000 of hz is not a set of CONFIG_HZ values" },
	{ "!platform t\nhz 250\n  source: s\n  uncertain: hz class=assumed range=250,500 why=\"w\"\n",
	  "t.plat:4: range 250,500 of hz is not a set of CONFIG_HZ values" },
	{ "!platform t\nhz 250\n  source: s\n  uncertain: hz class=assumed range=300,1000 why=\"w\"\n",
	  "t.plat:4: range 300,1000 of hz excludes its nominal value 250" },
	{ "!platform t\nhz 250\n  source: s\n  uncertain: hz class=assumed range=250,250 why=\"w\"\n",
	  "t.plat:4: invalid range '250,250' of hz: a set is 2 to 4 plain integers, each once" },
	{ "!platform t\nhz 250\n  source: s\n  uncertain: hz class=assumed range=100,250,300,1000,1200 why=\"w\"\n",
	  "t.plat:4: invalid range '100,250,300,1000,1200' of hz" },
	{ "state a exit_latency=10us target_residency=20us power_uw=1000 entry_exit_energy_nj=50\n  source: s\n  uncertain: exit_latency class=measured range=5us,10us why=\"w\"\n",
	  "t.plat:10: invalid range '5us,10us' of exit_latency: a set is of counts, not times" },
};

static void test_bad_files(void **state)
{
	struct il_platform *p = malloc(sizeof(*p));

	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];
		char text[4096];
		struct il_error err;

		memset(&err, 0, sizeof(err));
		if (c->body[0] == '!')
			snprintf(text, sizeof(text), "%s", c->body + 1);
		else
			snprintf(text, sizeof(text), "%s%s", good_header, c->body);
		if (parse(text, p, &err) != -1)
			fail_msg("case %zu accepted: %s", i, c->body);
		if (strncmp(err.msg, c->want, strlen(c->want)))
			fail_msg("case %zu: got \"%s\", want \"%s...\"", i, err.msg, c->want);
	}
	free(p);
}

/* Classes and ranges are kept with their field and state; a bare lower bound takes the unit. */
static void test_uncertain_lines(void **state)
{
	static const char body[] =
		"active_power_uw 5000\n  source: s\n"
		"  uncertain: active_power_uw class=assumed range=2500..10000 why=\"guess\"\n"
		"state a exit_latency=10us target_residency=20us power_uw=1000 entry_exit_energy_nj=50\n"
		"  uncertain: exit_latency class=measured range=6..12us why=\"wult\"\n"
		"  source: s\n"
		"  uncertain: power_uw class=fitted range=0.5x..2x why=\"w\" fitted_to=\"a table\"\n";
	struct il_platform *p = malloc(sizeof(*p));
	char text[4096], name[64];
	struct il_error err;

	(void)state;
	snprintf(text, sizeof(text), "%s%s", good_header, body);
	assert_int_equal(parse(text, p, &err), 0);
	assert_int_equal(p->nunc, 3);
	assert_int_equal(p->unc[0].state, -1);
	assert_int_equal(p->unc[0].cls, IL_UNC_ASSUMED);
	assert_true(p->unc[1].range.kind == IL_UNC_ABS && p->unc[1].range.lo == 6000.0 &&
		    p->unc[1].range.hi == 12000.0);
	assert_string_equal(il_plat_unc_name(p, &p->unc[2], name, sizeof(name)), "a.power_uw");
	assert_string_equal(p->unc[2].fitted_to, "a table");
	assert_true(il_unc_range_at(&p->unc[2].range, 1000.0, 0.5) > 999.0 &&
		    il_unc_range_at(&p->unc[2].range, 1000.0, 0.5) < 1001.0); /* log-uniform */
	il_platform_param_set(p, &p->unc[1], 7000.0);
	assert_int_equal(p->drv.states[0].exit_latency_ns, 7000);
	assert_int_equal(p->drv.states[0].exit_latency, 7);
	free(p);
}

/* hz varies over a set of CONFIG_HZ values: each takes an equal share of [0, 1]. */
static void test_uncertain_hz_set(void **state)
{
	static const char text[] = "platform t\ndriver d\ndescription x\ncpus 4\n  source: s\n"
				   "hz 250\n  source: s\n"
				   "  uncertain: hz class=assumed range=1000,100,250 why=\"w\"\n"
				   "state a exit_latency=10us target_residency=20us\n  source: s\n";
	struct il_platform *p = malloc(sizeof(*p));
	struct il_error err;
	char buf[32];

	(void)state;
	assert_int_equal(parse(text, p, &err), 0);
	assert_int_equal(p->nunc, 1);
	assert_true(p->unc[0].range.kind == IL_UNC_SET && p->unc[0].range.nset == 3);
	assert_string_equal(il_unc_range_format(&p->unc[0].range, false, buf, sizeof(buf)),
			    "100,250,1000");
	assert_true(il_unc_range_lo(&p->unc[0].range, 250) == 100);
	assert_true(il_unc_range_hi(&p->unc[0].range, 250) == 1000);
	assert_true(il_unc_range_at(&p->unc[0].range, 250, 0.0) == 100);
	assert_true(il_unc_range_at(&p->unc[0].range, 250, 0.5) == 250);
	assert_true(il_unc_range_at(&p->unc[0].range, 250, 1.0) == 1000);
	assert_true(il_platform_param(p, &p->unc[0]) == 250);
	il_platform_param_set(p, &p->unc[0], 1000);
	assert_int_equal(p->hz, 1000);
	free(p);
}

static void test_too_many_states(void **state)
{
	char text[4096];
	size_t n = (size_t)snprintf(text, sizeof(text), "%s", good_header);
	struct il_platform *p = malloc(sizeof(*p));
	struct il_error err;

	for (int i = 0; i <= CPUIDLE_STATE_MAX; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "state s%d exit_latency=%dus target_residency=%dus\n  source: s\n", i,
				      i, i);
	assert_int_equal(parse(text, p, &err), -1);
	/* 7 header lines, then two lines per state: the 11th state is on line 28. */
	assert_string_equal(err.msg, "t.plat:28: more than 10 states (CPUIDLE_STATE_MAX)");
	assert_int_equal(err.line, 28);
	free(p);
}

static void test_nul_byte_and_long_line(void **state)
{
	static const char with_nul[] = "platform t\ndri\0ver d\n";
	struct il_platform *p = malloc(sizeof(*p));
	struct il_error err;
	char *long_line = malloc(5000);

	assert_int_equal(il_platform_parse(with_nul, sizeof(with_nul) - 1, "t.plat", p, &err), -1);
	assert_string_equal(err.msg, "t.plat:2: NUL byte in the input");
	memset(long_line, 'x', 4999);
	long_line[4999] = '\0';
	assert_int_equal(parse(long_line, p, &err), -1);
	assert_string_equal(err.msg, "t.plat:1: line longer than 4096 characters");
	free(long_line);
	free(p);
}

static void test_load_paths(void **state)
{
	char path[] = "/tmp/idlelab-test-XXXXXX.plat";
	struct il_platform *p = malloc(sizeof(*p));
	struct il_error err;
	int fd = mkstemps(path, 5);
	const char *text = il_platform_builtin_text("rk3588");

	assert_true(fd >= 0);
	assert_non_null(text);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_true(il_platform_is_path(path));
	assert_true(il_platform_is_path("x.plat"));
	assert_true(il_platform_is_path("./x"));
	assert_false(il_platform_is_path("rk3588"));
	assert_int_equal(il_platform_load(path, p, &err), 0);
	assert_string_equal(p->name, "rk3588");
	assert_string_equal(p->origin, path);
	unlink(path);

	assert_int_equal(il_platform_load(path, p, &err), -1);
	assert_non_null(strstr(err.msg, "cannot open"));
	assert_int_equal(il_platform_load("no-such-platform", p, &err), -1);
	assert_string_equal(err.msg, "no-such-platform: no such built-in platform (see 'idlelab platforms')");
	free(p);
}

static void test_device_init_disables(void **state)
{
	char text[2048];
	struct il_platform *p = malloc(sizeof(*p));
	struct il_device dev;
	struct il_error err;
	char flags[64];

	snprintf(text, sizeof(text),
		 "%sstate a exit_latency=0us target_residency=0us\n  source: s\n"
		 "state b exit_latency=1us target_residency=1us flags=unusable\n  source: s\n"
		 "state c exit_latency=2us target_residency=2us flags=off\n  source: s\n",
		 good_header);
	assert_int_equal(parse(text, p, &err), 0);
	memset(&dev, 0xff, sizeof(dev));
	il_platform_device_init(p, &dev);
	assert_int_equal(dev.states_usage[0].disable, 0);
	assert_int_equal(dev.states_usage[1].disable, CPUIDLE_STATE_DISABLED_BY_DRIVER);
	assert_int_equal(dev.states_usage[2].disable, CPUIDLE_STATE_DISABLED_BY_USER);
	assert_int_equal(dev.last_residency_ns, 0);
	assert_string_equal(il_flag_names(0, flags, sizeof(flags)), "none");
	assert_string_equal(il_flag_names(CPUIDLE_FLAG_POLLING | CPUIDLE_FLAG_OFF, flags, sizeof(flags)),
			    "polling,off");
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtins_parse),
		cmocka_unit_test(test_i5_10600k_numbers),
		cmocka_unit_test(test_good_file_features),
		cmocka_unit_test(test_active_power),
		cmocka_unit_test(test_actual_exit),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_too_many_states),
		cmocka_unit_test(test_nul_byte_and_long_line),
		cmocka_unit_test(test_load_paths),
		cmocka_unit_test(test_uncertain_lines),
		cmocka_unit_test(test_uncertain_hz_set),
		cmocka_unit_test(test_device_init_disables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
