// SPDX-License-Identifier: GPL-2.0-only
/*
 * The field inputs of issue 25: replay's sleep length from wakeups (lib/replay/wakeup.c)
 * on hand-made event sequences, and the sysfs dump reader (lib/live/dump.c) on small dumps.
 *
 * Wakeups: a local-timer wakeup (inside the period, or just after its exit) gives the
 * measured duration; another interrupt waits for the CPU's next local-timer interrupt (the
 * upper bound), or takes the measured duration at the end of the trace; a switch away from
 * idle with no interrupt seen is "none"; delta_next is the next tick boundary when that is
 * sooner; the local-timer names of each architecture are recognised, and others are not.
 * Dumps: one line per file read into the same struct il_live_cpu as a tree; CRLF, "path:
 * value", relative paths; UINT_MAX kept; each refusal names its line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gov/governors.h"
#include "live/live.h"
#include "replay/replay.h"
#include "util/array.h"

#define US 1000ULL
#define MAX_SEEN 8

static struct il_platform plat;
static struct il_replay_inputs seen[MAX_SEEN];
static int nseen;

static void hook(void *ctx, const struct il_replay_inputs *in, const int *picks,
		 const bool *stops)
{
	if (nseen < MAX_SEEN)
		seen[nseen] = *in;
	nseen++;
}

static struct il_replay *wakeup_replay(void)
{
	struct il_replay_cfg cfg = { 0 };
	struct il_error err;
	struct il_replay *r;

	if (il_platform_load("rk3399", &plat, &err))
		fail_msg("%s", err.msg);
	cfg.plat = &plat;
	cfg.cpu = -1;
	cfg.presets[0] = il_preset_find("menu");
	assert_non_null(cfg.presets[0]);
	cfg.ngov = 1;
	cfg.sleep_source = IL_SLEEP_WAKEUPS;
	r = il_replay_new(&cfg, &err);
	if (!r)
		fail_msg("%s", err.msg);
	nseen = 0;
	il_replay_set_period_hook(r, hook, NULL);
	return r;
}

static void feed(struct il_replay *r, enum il_ev type, u64 ts_us, u32 state, const char *label)
{
	struct il_trace_event ev = { .type = type, .cpu = 0, .ts_ns = ts_us * US, .state = state,
				     .cpu_id = 0, .prev_pid = 0, .next_pid = 42 };

	snprintf(ev.label, sizeof(ev.label), "%s", label ? label : "");
	assert_int_equal(il_replay_event(r, &ev), 0);
}

static void enter(struct il_replay *r, u64 us, u32 state)
{
	feed(r, IL_EV_CPU_IDLE, us, state, NULL);
}

static void leave(struct il_replay *r, u64 us)
{
	feed(r, IL_EV_CPU_IDLE, us, IL_PWR_EVENT_EXIT, NULL);
}

static void test_timer_wakeup_exact(void **state)
{
	struct il_replay *r = wakeup_replay();
	const struct il_replay_notes *n = il_replay_notes(r);

	/* The arch_timer interrupt inside the period (a driver that enables interrupts). */
	enter(r, 1000, 2);
	feed(r, IL_EV_IRQ, 3500, 0, "arch_timer");
	leave(r, 3510);
	assert_int_equal(nseen, 1);
	assert_int_equal(seen[0].sleep_ns, 2510 * US);
	/* The tick boundary (HZ 250: 4 ms) is sooner than nothing: delta_next <= sleep. */
	assert_true(seen[0].delta_next_ns <= seen[0].sleep_ns);
	assert_int_equal(seen[0].delta_next_ns, 2510 * US);
	assert_int_equal(n->sleep_from[IL_WAKE_END_TIMER][IL_SLEEP_FROM_EXACT], 1);
	/* After the exit (psci: the handler runs once interrupts are on). */
	enter(r, 5000, 1);
	leave(r, 5900);
	assert_int_equal(nseen, 1); /* not yet known */
	feed(r, IL_EV_IRQ, 5902, 0, "arch_timer");
	assert_int_equal(nseen, 2);
	assert_int_equal(seen[1].sleep_ns, 900 * US);
	assert_int_equal(il_replay_finish(r), 0);
	il_replay_free(r);
}

static void test_other_wakeup_bounds(void **state)
{
	struct il_replay *r = wakeup_replay();
	const struct il_replay_notes *n = il_replay_notes(r);

	/* An IPI wakes the CPU: the sleep length waits for the next local timer (x86 LOC). */
	enter(r, 1000, 2);
	leave(r, 1200);
	feed(r, IL_EV_IPI_ENTRY, 1201, 0, "Rescheduling interrupts");
	assert_int_equal(nseen, 0);
	enter(r, 2000, 1);
	leave(r, 2300);
	feed(r, IL_EV_SCHED_SWITCH, 2301, 0, NULL); /* no interrupt: "none" */
	assert_int_equal(nseen, 0);
	feed(r, IL_EV_IRQ_VECTOR, 9000, 0, "local_timer");
	assert_int_equal(nseen, 2);
	assert_int_equal(seen[0].sleep_ns, 8000 * US); /* 9000 - 1000 */
	assert_int_equal(seen[1].sleep_ns, 7000 * US);
	/* delta_next: the next 4 ms tick boundary after 1000 us, and after 2000 us. */
	assert_int_equal(seen[0].delta_next_ns, 3000 * US);
	assert_int_equal(seen[1].delta_next_ns, 2000 * US);
	assert_int_equal(n->sleep_from[IL_WAKE_END_OTHER][IL_SLEEP_FROM_NEXT_TIMER], 1);
	assert_int_equal(n->sleep_from[IL_WAKE_END_NONE][IL_SLEEP_FROM_NEXT_TIMER], 1);
	/* No later local timer: the lower bound at the end. */
	enter(r, 10000, 2);
	feed(r, IL_EV_IRQ, 10400, 0, "virtio0-input.0");
	leave(r, 10410);
	assert_int_equal(nseen, 2);
	assert_int_equal(il_replay_finish(r), 0);
	assert_int_equal(nseen, 3);
	assert_int_equal(seen[2].sleep_ns, 410 * US);
	assert_int_equal(n->sleep_from[IL_WAKE_END_OTHER][IL_SLEEP_FROM_LOWER], 1);
	il_replay_free(r);
}

static void test_local_timer_names(void **state)
{
	static const struct {
		enum il_ev type;
		const char *label;
		bool timer;
	} cases[] = {
		{ IL_EV_IRQ, "arch_timer", true },     { IL_EV_IRQ, "riscv-timer", true },
		{ IL_EV_IRQ, "twd", true },            { IL_EV_IRQ, "mct_tick3", true },
		{ IL_EV_IRQ_VECTOR, "local_timer", true },
		{ IL_EV_IPI_ENTRY, "Timer broadcast interrupts", true },
		{ IL_EV_IRQ, "arch_mem_timer", false }, { IL_EV_IRQ, "virtio0-input.0", false },
		{ IL_EV_IRQ_VECTOR, "reschedule", false },
		{ IL_EV_IPI_ENTRY, "Rescheduling interrupts", false },
		{ IL_EV_HRTIMER_EXPIRE, "arch_timer", false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct il_trace_event ev = { .type = cases[i].type };

		snprintf(ev.label, sizeof(ev.label), "%s", cases[i].label);
		assert_int_equal(il_replay_local_timer(&ev), cases[i].timer);
	}
}

/* ---- dumps ------------------------------------------------------------------------------ */

static struct il_live_dump *parse(const char *text, struct il_error *err)
{
	return il_live_dump_parse(text, strlen(text), "t.dump", err);
}

#define STATE(cpu, k, name, res, usage)                                                        \
	"/sys/devices/system/cpu/cpu" cpu "/cpuidle/state" k "/name:" name "\n"                 \
	"/sys/devices/system/cpu/cpu" cpu "/cpuidle/state" k "/residency:" res "\n"             \
	"/sys/devices/system/cpu/cpu" cpu "/cpuidle/state" k "/latency:1\n"                     \
	"/sys/devices/system/cpu/cpu" cpu "/cpuidle/state" k "/usage:" usage "\n"               \
	"/sys/devices/system/cpu/cpu" cpu "/cpuidle/state" k "/time:5\n"

static void test_dump_reads_as_tree(void **state)
{
	static const char text[] =
		"$ grep -r . /sys/devices/system/cpu/cpu*/cpuidle\r\n"
		STATE("0", "0", "WFI", "1", "7")
		STATE("0", "1", "s2idle", "4294967295", "0")
		"./cpu1/cpuidle/state0/name: WFI\r\n"
		"./cpu1/cpuidle/state0/residency: 1\r\n"
		"./cpu1/cpuidle/state0/latency: 1\r\n"
		"./cpu1/cpuidle/state0/usage: 3\r\n"
		"./cpu1/cpuidle/state0/time: 5\r\n"
		"cpu1/cpuidle/state1/name:cpu off\n"
		"cpu1/cpuidle/state1/residency:900\n"
		"cpu1/cpuidle/state1/latency:1\n"
		"cpu1/cpuidle/state1/usage:2\n"
		"cpu1/cpuidle/state1/time:5\n"
		"cpu1/cpuidle/state1/s2idle/usage:2\n"
		"cpu0/cpuidle/driver/name:psci_idle\n"
		"cpu1/cpuidle/driver/name:psci_idle\n";
	struct il_live_cpuidle ci;
	struct il_live_cpu cpu;
	struct il_error err;
	struct il_live lv;
	unsigned int *cpus;
	struct il_live_dump *d = parse(text, &err);

	if (!d)
		fail_msg("%s", err.msg);
	assert_int_equal(il_live_init_dump(&lv, d, &err), 0);
	assert_int_equal(il_live_read_cpuidle(&lv, &ci, &err), 0);
	assert_string_equal(ci.driver, "psci_idle"); /* from driver/name: no global lines */
	assert_int_equal(il_live_list_cpus(&lv, &cpus, &err), 2);
	free(cpus);
	assert_int_equal(il_live_read_cpu(&lv, 0, IL_LIVE_READ_ALL, &cpu, &err), 0);
	assert_true(cpu.has_cpuidle);
	assert_int_equal(cpu.nstates, 2);
	assert_int_equal(cpu.st[1].residency_us, 4294967295ULL);
	assert_int_equal(il_live_read_cpu(&lv, 1, IL_LIVE_READ_ALL, &cpu, &err), 0);
	assert_string_equal(cpu.st[0].name, "WFI");
	assert_string_equal(cpu.st[1].name, "cpu off");
	assert_int_equal(cpu.st[0].usage, 3);
	assert_int_equal(cpu.st[1].have & (IL_LF_ABOVE | IL_LF_REJECTED), 0);
	/* Counters only: what a measurement's snapshots read. */
	assert_int_equal(il_live_read_cpu(&lv, 1, IL_LIVE_READ_COUNTERS, &cpu, &err), 0);
	assert_int_equal(cpu.st[1].residency_us, 0);
	assert_int_equal(cpu.st[1].usage, 2);
	assert_int_equal(il_live_dump_line(d, 1, 0, IL_LF_USAGE), 15);
	il_live_dump_free(d);
}

static void test_dump_refusals(void **state)
{
	static const struct {
		const char *text;
		const char *msg;
	} cases[] = {
		{ STATE("0", "0", "WFI", "1", "7") STATE("0", "0", "WFI", "1", "7"),
		  "t.dump:6: cpu0/cpuidle/state0/name is already on line 1" },
		{ STATE("0", "0", "WFI", "1", "7") STATE("2", "0", "WFI", "1", "7"),
		  "t.dump:6: cpu1 has no cpuidle lines, but cpu2 has" },
		{ STATE("0", "0", "WFI", "1", "7") STATE("0", "2", "off", "9", "7"),
		  "t.dump:6: cpu0/cpuidle/state1 has no lines, but state2 has" },
		{ "cpu0/cpuidle/state0/name:WFI\ncpu0/cpuidle/state0/time:1\n",
		  "t.dump:1: cpu0/cpuidle/state0 has no usage line" },
		{ STATE("0", "0", "WFI", "1", "x7"), "t.dump:4: usage is 'x7', not a number" },
		{ "cpu0/cpuidle/state10/name:X\n",
		  "t.dump:1: cpu0/cpuidle/state10/name: more states" },
		{ "cpu0/cpufreq/scaling_governor:schedutil\n", "t.dump:1: cpu0/cpufreq/"
		  "scaling_governor: not a cpuidle sysfs path" },
		{ "just text\n", "t.dump:1: not a PATH:VALUE line" },
		{ "cpu0/cpuidle/state0/name:\n", "t.dump:1: no value after the ':'" },
		{ "", "t.dump: no cpuN/cpuidle lines" },
		{ STATE("0", "0", "WFI", "1", "7") "CONFIG_HZ=123\n",
		  "t.dump:6: 'CONFIG_HZ=123' is not a CONFIG_HZ" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct il_error err = { 0 };
		struct il_live_dump *d = parse(cases[i].text, &err);

		if (d)
			fail_msg("case %zu accepted", i);
		if (strncmp(err.msg, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("case %zu: '%s', expected '%s...'", i, err.msg, cases[i].msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timer_wakeup_exact),
		cmocka_unit_test(test_other_wakeup_bounds),
		cmocka_unit_test(test_local_timer_names),
		cmocka_unit_test(test_dump_reads_as_tree),
		cmocka_unit_test(test_dump_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
