// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace readers: timestamps as two integers, the line head of every text format
 * (flags of 4 or 5 characters or none, trace-cmd's fused CPU column, instance prefixes,
 * perf's pid token, awkward task names), the event decoder in ftrace and plugin shapes,
 * format detection, headers, every kind of bad input with its line number, and the small
 * fixtures of tests/fixtures/traces/: every format of the same excerpt yields the same
 * events, and the binary trace.dat the same events as the text of the same recording.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <errno.h>

#include "trace/trace-local.h"
#include "util/array.h"

#define FIXTURES "tests/fixtures/traces/"

/* ---- timestamps ---------------------------------------------------------------------------- */

static u64 ts(const char *s, int *digits)
{
	const char *p = s;
	u64 ns = 0;

	*digits = il_parse_timestamp(&p, s + strlen(s), &ns);
	return ns;
}

static void test_timestamps(void **state)
{
	int d;

	assert_int_equal(ts("553.500019", &d), 553500019000ULL);
	assert_int_equal(d, 6);
	assert_int_equal(ts("699.543116393", &d), 699543116393ULL);
	assert_int_equal(d, 9);
	/* More than 9 digits: extra digits dropped, never rounded through a double. */
	assert_int_equal(ts("1.0000000019", &d), 1000000001ULL);
	assert_int_equal(d, 10);
	assert_int_equal(ts("7.5", &d), 7500000000ULL);
	/* The 7-digit case idlestat's sscanf("%lf") turned into negative durations. */
	assert_int_equal(ts("99999.9999999", &d), 99999999999900ULL);
	ts("12", &d);
	assert_int_equal(d, -1);
	ts(".5", &d);
	assert_int_equal(d, -1);
	ts("12.", &d);
	assert_int_equal(d, -1);
	ts("12345678901.5", &d); /* would overflow u64 ns */
	assert_int_equal(d, -1);
}

/* ---- line heads --------------------------------------------------------------------------- */

static struct il_text_head head(const char *line)
{
	struct il_text_head h;
	const char *why = NULL;

	memset(&h, 0, sizeof(h));
	if (il_text_parse_head(line, strlen(line), &h, &why))
		fail_msg("'%s': %s", line, why);
	return h;
}

static void head_fails(const char *line)
{
	struct il_text_head h;
	const char *why = NULL;

	assert_int_not_equal(il_text_parse_head(line, strlen(line), &h, &why), 0);
	assert_non_null(why);
}

static void test_heads(void **state)
{
	struct il_text_head h;

	h = head("          <idle>-0       [000] d..1.   553.500019: cpu_idle: state=1 cpu_id=0");
	assert_int_equal(h.pid, 0);
	assert_int_equal(h.cpu, 0);
	assert_string_equal(h.flags, "d..1.");
	assert_true(h.bracket_cpu);
	assert_int_equal(h.ts_ns, 553500019000ULL);
	assert_memory_equal(h.event, "cpu_idle:", 9);

	h = head("   kworker/u4:1-123    [017] d.h1 12.000001: irq_handler_entry: irq=9 name=acpi");
	assert_int_equal(h.pid, 123);
	assert_int_equal(h.cpu, 17);
	assert_string_equal(h.flags, "d.h1");

	/* No flags column; a task name with blanks, dashes and brackets. */
	h = head("  Web Content-x [2]-4567  [003]  1.000002: sched_switch: prev_pid=1");
	assert_int_equal(h.pid, 4567);
	assert_int_equal(h.cpu, 3);
	assert_string_equal(h.flags, "");

	/* record-tgid adds "(TGID)" after the pid. */
	h = head("           bash-1977  (   1977) [001] ..... 7.000010: sched_wakeup: pid=5");
	assert_int_equal(h.pid, 1977);
	assert_int_equal(h.cpu, 1);

	/* trace-cmd report -l: instance prefix, CPU fused with the flags. */
	h = head("cpuidle_exp:   <idle>-0       0d..1.   699.544979475: cpu_idle:   state=1");
	assert_int_equal(h.cpu, 0);
	assert_false(h.bracket_cpu);
	assert_string_equal(h.flags, "d..1.");
	assert_non_null(h.prefix);
	assert_int_equal(h.prefix_len, 11);
	assert_memory_equal(h.prefix, "cpuidle_exp", 11);
	h = head("cpuidle_exp: run_one.-17064   12.....   699.543116393: hrtimer_setup: x=1");
	assert_int_equal(h.cpu, 12);
	assert_int_equal(h.pid, 17064);

	/* perf script: the pid is a token of its own, possibly pid/tid. */
	h = head("         swapper     0 [000]   959.436025038:      power:cpu_idle: state=1");
	assert_true(h.pid_token);
	assert_int_equal(h.pid, 0);
	assert_memory_equal(h.event, "power:cpu_idle:", 15);
	h = head("            perf 14808/14809 [001]   967.626135: timer:hrtimer_cancel: hrtimer=0x1");
	assert_int_equal(h.pid, 14808);
	assert_int_equal(h.cpu, 1);

	head_fails("this line is garbage");
	head_fails("           sleep-14527   [001] dNs4.   591.172050");
	head_fails("  <idle>-0 [0x1] d..1. 1.000000: cpu_idle: state=1 cpu_id=0");
	head_fails("  <idle> [000] d..1. 1.000000: cpu_idle: state=1 cpu_id=0");
	head_fails("  <idle>-0 [000] d..1.toolongflags 1.000000: cpu_idle: state=1 cpu_id=0");
}

/* ---- the event decoder -------------------------------------------------------------------- */

static struct il_trace_event decode(const char *s, int want)
{
	struct il_trace_event ev;
	const char *why = NULL;
	int r;

	memset(&ev, 0x5a, sizeof(ev));
	r = il_trace_decode(s, s + strlen(s), &ev, &why);
	if (r != want)
		fail_msg("'%s': got %d (%s), want %d", s, r, why ? why : "", want);
	return ev;
}

static void test_decode_power_and_timers(void **state)
{
	struct il_trace_event ev;

	ev = decode("cpu_idle: state=4294967295 cpu_id=3", 1);
	assert_int_equal(ev.type, IL_EV_CPU_IDLE);
	assert_int_equal(ev.state, IL_PWR_EVENT_EXIT);
	assert_int_equal(ev.cpu_id, 3);
	ev = decode("power:cpu_idle_miss: cpu_id=0 state=2 type=above", 1);
	assert_int_equal(ev.type, IL_EV_CPU_IDLE_MISS);
	assert_false(ev.below);
	assert_int_equal(ev.state, 2);
	ev = decode("cpu_idle_miss: cpu_id=0 state=0 type=below", 1);
	assert_true(ev.below);
	decode("cpu_idle_miss: cpu_id=0 state=0 type=sideways", -1);
	decode("cpu_idle: state=x cpu_id=0", -1);
	decode("cpu_idle: state=99999999999 cpu_id=0", -1);

	ev = decode("hrtimer_start: hrtimer=00000000ebf66ecb function=tick_nohz_handler "
		    "expires=553504000000 softexpires=553504000000 mode=ABS was_armed=0", 1);
	assert_int_equal(ev.type, IL_EV_HRTIMER_START);
	assert_int_equal(ev.timer, 0xebf66ecbULL);
	assert_int_equal(ev.expires, 553504000000ULL);
	assert_string_equal(ev.label, "tick_nohz_handler");
	/* trace-cmd's plugin: raw pointer, "/0x0" offset, no mode. */
	ev = decode("hrtimer_start:        hrtimer=0xffff888627d1c6f8 function=tick_nohz_handler/0x0 "
		    "expires=699548000000 softexpires=699548000000", 1);
	assert_int_equal(ev.timer, 0xffff888627d1c6f8ULL);
	assert_string_equal(ev.label, "tick_nohz_handler");
	ev = decode("hrtimer_expire_entry: hrtimer=0xffff888627d1c6f8 now=699544032413 "
		    "function=tick_nohz_handler/0x0", 1);
	assert_int_equal(ev.type, IL_EV_HRTIMER_EXPIRE);
	assert_int_equal(ev.now, 699544032413ULL);
	ev = decode("hrtimer_cancel: hrtimer=00000000d0b87696", 1);
	assert_int_equal(ev.type, IL_EV_HRTIMER_CANCEL);
	ev = decode("hrtimer_setup: hrtimer=00000000f57c1ce5 clockid=CLOCK_MONOTONIC mode=REL|HARD", 1);
	assert_int_equal(ev.clockid, IL_CLOCK_MONOTONIC);
	ev = decode("hrtimer_init: hrtimer=00000000f57c1ce5 clockid=CLOCK_REALTIME mode=ABS", 1);
	assert_int_equal(ev.clockid, IL_CLOCK_REALTIME);

	ev = decode("timer_start: timer=000000008811f702 function=process_timeout expires=4295029984 "
		    "[timeout=1] bucket_expiry=4295029985 cpu=1 idx=33 flags=", 1);
	assert_int_equal(ev.type, IL_EV_TIMER_START);
	assert_int_equal(ev.expires, 4295029985ULL);
	assert_int_equal(ev.now, 4295029983ULL);
	assert_int_equal(ev.target_cpu, 1);
	assert_int_equal(ev.deferrable, 0);
	/* TIMER_DEFERRABLE: "D" among the flags, not a letter of another word. */
	ev = decode("timer_start: timer=00000000ad201371 function=delayed_work_timer_fn "
		    "expires=4295067500 [timeout=244] bucket_expiry=4295067504 cpu=0 idx=110 "
		    "flags=D|I", 1);
	assert_int_equal(ev.deferrable, 1);
	ev = decode("timer_start: timer=1 function=f expires=9 [timeout=1] flags=M|D", 1);
	assert_int_equal(ev.deferrable, 1);
	ev = decode("timer_start: timer=1 function=f expires=9 [timeout=1] flags=P|I", 1);
	assert_int_equal(ev.deferrable, 0);
	ev = decode("timer_start: timer=1 function=f expires=9 [timeout=1] flags=DX", 1);
	assert_int_equal(ev.deferrable, 0);
	ev = decode("timer_start: timer=1 function=f expires=9 [timeout=1]", 1);
	assert_int_equal(ev.deferrable, -1);
	ev = decode("timer_expire_entry: timer=00000000c55c07a8 function=tcp_orphan_update "
		    "now=4295029986 baseclk=4295029985", 1);
	assert_int_equal(ev.type, IL_EV_TIMER_EXPIRE);
	assert_int_equal(ev.now, 4295029986ULL);

	ev = decode("tick_stop: success=0 dependency=SCHED", 1);
	assert_int_equal(ev.type, IL_EV_TICK_STOP);
	assert_int_equal(ev.success, 0);
	assert_string_equal(ev.label, "SCHED");
}

static void test_decode_irqs_ipis_sched(void **state)
{
	struct il_trace_event ev;

	ev = decode("irq_handler_entry: irq=36 name=virtio1-req.0", 1);
	assert_int_equal(ev.type, IL_EV_IRQ);
	assert_int_equal(ev.irq, 36);
	assert_string_equal(ev.label, "virtio1-req.0");
	ev = decode("irq_handler_exit: irq=36 ret=handled", 1);
	assert_int_equal(ev.type, IL_EV_IRQ_EXIT);
	ev = decode("call_function_single_entry: vector=251", 1);
	assert_int_equal(ev.type, IL_EV_IRQ_VECTOR);
	assert_int_equal(ev.vector, 251);
	assert_string_equal(ev.label, "call_function_single");
	ev = decode("irq_vectors:local_timer_exit: vector=236", 1);
	assert_int_equal(ev.type, IL_EV_IRQ_EXIT);
	assert_string_equal(ev.label, "local_timer");
	/* Names ending in _entry without vector= are other events, skipped. */
	decode("softirq_entry: vec=7 [action=SCHED]", 0);
	decode("vector_alloc: irq=1 vector=0 reserved=0 ret=0", 0);
	assert_true(il_trace_vector_is_local_timer("local_timer"));
	assert_false(il_trace_vector_is_local_timer("reschedule"));
	/* powerpc's decrementer (arch/powerpc/include/asm/trace.h): a local-timer vector */
	ev = decode("powerpc:timer_interrupt_entry: pt_regs=00000000b5d1c2a3", 1);
	assert_int_equal(ev.type, IL_EV_IRQ_VECTOR);
	assert_int_equal(ev.vector, 0);
	assert_string_equal(ev.label, "timer_interrupt");
	assert_true(il_trace_vector_is_local_timer(ev.label));
	ev = decode("timer_interrupt_exit: pt_regs=00000000b5d1c2a3", 1);
	assert_int_equal(ev.type, IL_EV_IRQ_EXIT);
	/* the same names with other fields are other events, skipped */
	decode("timer_interrupt_entry: irq=5", 0);
	decode("timer_interrupt_exit:", 0);

	ev = decode("ipi_send_cpu: cpu=1 callsite=ttwu_queue_wakelist+0x11d/0x150 callback=x", 1);
	assert_int_equal(ev.type, IL_EV_IPI_SEND);
	assert_int_equal(ev.target_cpu, 1);
	assert_string_equal(ev.label, "ttwu_queue_wakelist");
	ev = decode("ipi_send_cpumask: cpumask=0-3 callsite=smp_call_function_many_cond+0x1 callback=y", 1);
	assert_int_equal(ev.target_cpu, -1);
	ev = decode("ipi_raise: target_mask=00000000,00000002 (Rescheduling interrupts)", 1);
	assert_string_equal(ev.label, "Rescheduling interrupts");
	ev = decode("ipi_entry: (Function call interrupts)", 1);
	assert_int_equal(ev.type, IL_EV_IPI_ENTRY);
	assert_string_equal(ev.label, "Function call interrupts");

	ev = decode("sched_wakeup: comm=pingpong pid=13971 prio=120 target_cpu=000", 1);
	assert_int_equal(ev.next_pid, 13971);
	assert_int_equal(ev.target_cpu, 0);
	assert_string_equal(ev.label, "pingpong");
	ev = decode("sched_wakeup:         rcu_preempt:15 [120] CPU:001", 1);
	assert_int_equal(ev.next_pid, 15);
	assert_int_equal(ev.target_cpu, 1);
	assert_string_equal(ev.label, "rcu_preempt");
	ev = decode("sched_wake_idle_without_ipi: cpu=2", 1);
	assert_int_equal(ev.type, IL_EV_SCHED_WAKEUP);
	assert_int_equal(ev.target_cpu, 2);
	ev = decode("sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> "
		    "next_comm=pingpong next_pid=13971 next_prio=120", 1);
	assert_int_equal(ev.prev_pid, 0);
	assert_int_equal(ev.next_pid, 13971);
	ev = decode("sched_switch:         rcu_preempt:15 [120] W ==> swapper/1:0 [120]", 1);
	assert_int_equal(ev.prev_pid, 15);
	assert_int_equal(ev.next_pid, 0);
	assert_string_equal(ev.label, "swapper/1");

	decode("guest_halt_poll_ns: halt_poll_ns 0 (shrink 0)", 0);
	decode("no colon here", -1);
}

/* ---- readers ------------------------------------------------------------------------------ */

struct diags {
	int n;
	u64 lines[16];
	char msgs[16][128];
};

static void record_diag(void *ctx, const char *path, u64 line, const char *msg)
{
	struct diags *d = ctx;

	if (d->n < 16) {
		d->lines[d->n] = line;
		snprintf(d->msgs[d->n], sizeof(d->msgs[0]), "%s", msg);
	}
	d->n++;
}

static struct il_trace *open_text(const char *text, const char *format, FILE **f)
{
	struct il_error err = { 0 };
	struct il_trace *t;

	*f = fmemopen((void *)text, strlen(text), "r");
	assert_non_null(*f);
	t = il_trace_open_file(*f, "mem", format, &err);
	if (!t)
		fail_msg("open: %s", err.msg);
	return t;
}

static const char *reader_of(const char *text)
{
	static char name[32];
	FILE *f;
	struct il_trace *t = open_text(text, NULL, &f);

	snprintf(name, sizeof(name), "%s", il_trace_reader_name(t));
	il_trace_close(t);
	fclose(f);
	return name;
}

static void test_detection(void **state)
{
	const char *line = "          <idle>-0       [000] d..1.   553.500019: cpu_idle: state=1 cpu_id=0\n";
	struct il_error err = { 0 };
	char buf[512];
	FILE *f;

	snprintf(buf, sizeof(buf), "# tracer: nop\n#\n%s", line);
	assert_string_equal(reader_of(buf), "ftrace");
	assert_string_equal(reader_of(line), "ftrace"); /* trace_pipe: no header */
	snprintf(buf, sizeof(buf), "cpus=2\n%s", line);
	assert_string_equal(reader_of(buf), "trace-cmd");
	snprintf(buf, sizeof(buf), "version = 6\ncpus=2\n%s", line);
	assert_string_equal(reader_of(buf), "trace-cmd");
	assert_string_equal(reader_of("inst:   <idle>-0       0d..1.   699.544979475: cpu_idle: state=1 cpu_id=0\n"),
			    "trace-cmd");
	assert_string_equal(reader_of("         swapper     0 [000]   959.436025038:      power:cpu_idle: state=1 cpu_id=0\n"),
			    "perf");
	snprintf(buf, sizeof(buf), "idlestat version = 0.8\ncpus=1\nclusterA:\n\tcpu0\n%s", line);
	assert_string_equal(reader_of(buf), "idlestat");

	f = fmemopen((void *)"hello world\nnot a trace\n", 24, "r");
	assert_null(il_trace_open_file(f, "mem", NULL, &err));
	assert_non_null(strstr(err.msg, "not a trace"));
	fclose(f);
	f = fmemopen((void *)line, strlen(line), "r");
	assert_null(il_trace_open_file(f, "mem", "nosuchformat", &err));
	assert_non_null(strstr(err.msg, "unknown trace format 'nosuchformat'"));
	/* without a place for the reason, the open still fails */
	fclose(f);
	f = fmemopen((void *)line, strlen(line), "r");
	assert_null(il_trace_open_file(f, "mem", "nosuchformat", NULL));
	fclose(f);
}

static void test_dat_magic(void **state)
{
	static const char magic[] = "\027\010\104tracing6\0\0\0\0\0";
	FILE *f = fmemopen((void *)magic, sizeof(magic), "r");
	struct il_error err = { 0 };
	struct il_trace *t = il_trace_open_file(f, "mem.dat", NULL, &err);

	/* Either libtracecmd refuses this stub, or the reader says it is not built in. */
	assert_null(t);
	assert_non_null(strstr(err.msg, "dat"));
	fclose(f);
}

static void test_headers(void **state)
{
	const char *ftrace = "# tracer: nop\n"
			     "#\n"
			     "# entries-in-buffer/entries-written: 2/2   #P:4\n"
			     "  <idle>-0  [003] d..1.  1.000001: cpu_idle: state=1 cpu_id=3\n";
	const char *idlestat = "idlestat version = 0.8\ncpus=2\nclusterA:\n\tcore0\n\t\tcpu0\n"
			       "\tcore1\n\t\tcpu1\ncpuid 0:\n\tPOLL\n\t0\n\tC1\n\t2\n\tC6\n\t600\n"
			       "\t(null)\n\t-1\n\t(null)\n\t-1\n\t(null)\n\t-1\n\t(null)\n\t-1\n"
			       "\t(null)\n\t-1\n\t(null)\n\t-1\n\t(null)\n\t-1\n\t(null)\n\t-1\n"
			       "\t(null)\n\t-1\n\t(null)\n\t-1\n\t(null)\n\t-1\n\t(null)\n\t-1\n"
			       "\t(null)\n\t-1\n"
			       "  <idle>-0  [000] d..1.  1.000001: cpu_idle: state=2 cpu_id=0\n";
	struct il_trace_event ev;
	struct il_trace *t;
	FILE *f;

	t = open_text(ftrace, NULL, &f);
	assert_int_equal(il_trace_next(t, &ev), 1);
	assert_int_equal(il_trace_info(t)->ncpus, 4);
	assert_int_equal(ev.cpu, 3);
	assert_int_equal(il_trace_next(t, &ev), 0);
	assert_int_equal(il_trace_counts(t)->comments, 3);
	il_trace_close(t);
	fclose(f);

	t = open_text(idlestat, NULL, &f);
	assert_int_equal(il_trace_info(t)->ncpus, 2);
	assert_int_equal(il_trace_info(t)->header_states, 3);
	assert_string_equal(il_trace_info(t)->state_name[2], "C6");
	assert_int_equal(il_trace_info(t)->state_residency_us[2], 600);
	assert_int_equal(il_trace_next(t, &ev), 1);
	assert_int_equal(ev.state, 2);
	assert_int_equal(ev.line, 41); /* 8 header lines and 16 name/residency pairs */
	il_trace_close(t);
	fclose(f);
}

static void test_bad_input(void **state)
{
	const char *text =
		"# tracer: nop\n"
		"# entries-in-buffer/entries-written: 9/9   #P:2\n"
		"  <idle>-0  [000] d..1.  5.000010: cpu_idle: state=1 cpu_id=0\n"   /* 3 */
		"garbage\n"                                                          /* 4 */
		"  <idle>-0  [000] d..1.  5.0000\n"                                  /* 5 truncated */
		"  <idle>-0  [005] d..1.  5.000011: cpu_idle: state=1 cpu_id=5\n"   /* 6 CPU 5 of 2 */
		"  <idle>-0  [000] d..1.  4.000000: cpu_idle: state=4294967295 cpu_id=0\n" /* 7 back */
		"  <idle>-0  [000] d..1.  5.000012: cpu_idle: state=1x cpu_id=0\n"  /* 8 fields */
		"  <idle>-0  [001] d..1.  4.500000: cpu_idle: state=1 cpu_id=1\n"   /* 9 other CPU: ok */
		"\n"
		"  <idle>-0  [000] d..1.  5.000020: cpu_idle: state=4294967295 cpu_id=0"; /* 11, no \n */
	struct diags d = { 0 };
	struct il_trace_event ev;
	const struct il_trace_counts *c;
	struct il_trace *t;
	u64 lines[8];
	int n = 0;
	FILE *f;

	t = open_text(text, NULL, &f);
	il_trace_set_diag(t, record_diag, &d);
	while (il_trace_next(t, &ev) == 1)
		lines[n++] = ev.line;
	assert_int_equal(n, 3);
	assert_int_equal(lines[0], 3);
	assert_int_equal(lines[1], 9);
	assert_int_equal(lines[2], 11);
	c = il_trace_counts(t);
	assert_int_equal(c->bad_lines, 3);
	assert_int_equal(c->bad_cpu, 1);
	assert_int_equal(c->out_of_order, 1);
	assert_int_equal(d.n, 5);
	assert_int_equal(d.lines[0], 4);
	assert_int_equal(d.lines[1], 5);
	assert_int_equal(d.lines[2], 6);
	assert_non_null(strstr(d.msgs[2], "CPU 5"));
	assert_int_equal(d.lines[3], 7);
	assert_non_null(strstr(d.msgs[3], "goes back"));
	assert_int_equal(d.lines[4], 8);
	il_trace_close(t);
	fclose(f);
}

static void test_long_and_binary_lines(void **state)
{
	size_t len = IL_TRACE_MAX_LINE * 3 + 200;
	char *text = malloc(len + 1);
	const char *tail = "\n  <idle>-0  [000] d..1.  5.000010: cpu_idle: state=1 cpu_id=0\n";
	struct il_trace_event ev;
	struct il_trace *t;
	FILE *f;

	assert_non_null(text);
	memset(text, 'x', len);
	memcpy(text + 5, "\0\xff\x01", 3); /* NUL and high bytes inside a line */
	strcpy(text + len - strlen(tail), tail);
	f = fmemopen(text, len, "r");
	t = il_trace_open_file(f, "mem", "ftrace", NULL);
	assert_non_null(t);
	assert_int_equal(il_trace_next(t, &ev), 1);
	assert_int_equal(ev.line, 2);
	assert_int_equal(il_trace_counts(t)->bad_lines, 1);
	assert_int_equal(il_trace_next(t, &ev), 0);
	il_trace_close(t);
	fclose(f);
	free(text);
}

/* ---- fixtures: every format of one excerpt gives the same events -------------------------- */

struct digest {
	u64 n[IL_EV__COUNT];
	u64 hash;
};

/* Fold the fields every reader must agree on. */
static void fold(struct digest *d, const struct il_trace_event *ev)
{
	u64 v[] = { ev->type, ev->cpu, ev->ts_ns, ev->state, ev->timer, ev->expires, ev->irq,
		    ev->vector, (u64)ev->target_cpu, (u64)ev->next_pid };

	d->n[ev->type]++;
	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		d->hash = (d->hash ^ v[i]) * 0x100000001b3ULL;
	for (const char *p = ev->label; *p; p++)
		d->hash = (d->hash ^ (u64)(unsigned char)*p) * 0x100000001b3ULL;
}

static struct digest read_fixture(const char *path, const char *want_reader)
{
	struct il_error err = { 0 };
	struct il_trace *t = il_trace_open(path, NULL, &err);
	struct il_trace_event ev;
	struct digest d = { { 0 }, 0xcbf29ce484222325ULL };

	if (!t)
		fail_msg("%s: %s", path, err.msg);
	assert_string_equal(il_trace_reader_name(t), want_reader);
	while (il_trace_next(t, &ev) == 1)
		fold(&d, &ev);
	assert_int_equal(il_trace_counts(t)->bad_lines, 0);
	il_trace_close(t);
	return d;
}

static void test_fixture_formats_agree(void **state)
{
	static const struct {
		const char *file, *reader;
	} variants[] = {
		{ "ladder-flags4.trace", "ftrace" }, { "ladder-noflags.trace", "ftrace" },
		{ "ladder.pipe", "ftrace" },         { "ladder.tcreport", "trace-cmd" },
		{ "ladder.perf", "perf" },           { "ladder.idlestat", "idlestat" },
	};
	struct digest ref = read_fixture(FIXTURES "ladder-head.trace", "ftrace");

	/* The excerpt: 5 enters, 4 exits, all on CPU 0 (the VM's CPU1 records none). */
	assert_int_equal(ref.n[IL_EV_CPU_IDLE], 9);
	assert_int_equal(ref.n[IL_EV_HRTIMER_START], 8);
	assert_int_equal(ref.n[IL_EV_SCHED_SWITCH], 16);
	for (size_t i = 0; i < ARRAY_SIZE(variants); i++) {
		char path[256];
		struct digest d;

		snprintf(path, sizeof(path), FIXTURES "%s", variants[i].file);
		d = read_fixture(path, variants[i].reader);
		assert_memory_equal(d.n, ref.n, sizeof(d.n));
		if (d.hash != ref.hash)
			fail_msg("%s decodes to other events than ladder-head.trace", path);
	}
}

static void test_fixture_vm_recordings(void **state)
{
	struct digest text = read_fixture(FIXTURES "vm.trace", "ftrace");
	struct digest perf = read_fixture(FIXTURES "vm.perf", "perf");
	struct digest idl = read_fixture(FIXTURES "vm.idlestat", "idlestat");

	assert_int_equal(text.n[IL_EV_CPU_IDLE], 164);
	assert_int_equal(text.n[IL_EV_HRTIMER_START], 78);
	assert_int_equal(perf.n[IL_EV_CPU_IDLE], 70);
	assert_int_equal(idl.n[IL_EV_CPU_IDLE], 30);
	assert_int_equal(idl.n[IL_EV_IRQ], 0);
}

/* The binary trace.dat holds the same recording as vm.trace, but with ns timestamps. */
static void test_fixture_dat(void **state)
{
	const char *name, *desc, *unavailable = NULL;
	char tmp[] = "/tmp/idlelab-test-dat-XXXXXX", cmd[512];
	struct il_error err = { 0 };
	struct il_trace *t;
	struct il_trace_event ev;
	u64 n[IL_EV__COUNT] = { 0 };
	struct digest text;
	int fd;

	for (int i = 0; il_trace_reader_at(i, &name, &desc, &unavailable) == 0; i++)
		if (!strcmp(name, "dat"))
			break;
	if (unavailable)
		skip();
	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "xz -dc " FIXTURES "vm.dat.xz > %s", tmp);
	if (system(cmd) != 0) {
		unlink(tmp);
		skip();
	}
	t = il_trace_open(tmp, NULL, &err);
	if (!t)
		fail_msg("%s", err.msg);
	assert_string_equal(il_trace_reader_name(t), "dat");
	assert_string_equal(il_trace_info(t)->instance, "idlelab_fixture");
	while (il_trace_next(t, &ev) == 1)
		n[ev.type]++;
	il_trace_close(t);
	unlink(tmp);
	text = read_fixture(FIXTURES "vm.trace", "ftrace");
	assert_memory_equal(n, text.n, sizeof(n));
}

/* ---- compressed traces (lib/trace/codec.c) ----------------------------------------------- */

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_LZMA
#include <lzma.h>
#endif
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

/* @n bytes of @in compressed as @kind into a malloc'ed buffer; NULL when not built in. */
static unsigned char *compress_as(enum il_compression kind, const char *in, size_t n, size_t *len)
{
	size_t cap = n + n / 2 + 4096;
	unsigned char *out = malloc(cap);

	assert_non_null(out);
	*len = 0;
	switch (kind) {
#ifdef HAVE_ZLIB
	case IL_CODEC_GZIP: {
		z_stream z = { 0 };

		assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
		z.next_in = (Bytef *)in;
		z.avail_in = (uInt)n;
		z.next_out = out;
		z.avail_out = (uInt)cap;
		assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
		*len = cap - z.avail_out;
		deflateEnd(&z);
		return out;
	}
#endif
#ifdef HAVE_LZMA
	case IL_CODEC_XZ:
		assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (const uint8_t *)in, n,
							 out, len, cap), LZMA_OK);
		return out;
#endif
#ifdef HAVE_ZSTD
	case IL_CODEC_ZSTD:
		*len = ZSTD_compress(out, cap, in, n, 3);
		assert_false(ZSTD_isError(*len));
		return out;
#endif
	default:
		free(out);
		return NULL;
	}
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Why the last read_memory() failed, opening or reading. */
static struct il_error read_error;

static struct digest read_memory(const void *data, size_t len, struct il_trace_counts *counts,
				 int *last)
{
	FILE *f = fmemopen((void *)data, len, "r");
	struct digest d = { { 0 }, 0xcbf29ce484222325ULL };
	struct il_trace_event ev;
	struct il_trace *t;
	int r;

	assert_non_null(f);
	t = il_trace_open_file(f, "mem", NULL, &read_error);
	if (!t && errno == EBADMSG) {
		/* damaged within the first buffer: the open fails, saying why */
		*last = -1;
		fclose(f);
		return d;
	}
	if (!t)
		fail_msg("%s", read_error.msg);
	while ((r = il_trace_next(t, &ev)) == 1)
		fold(&d, &ev);
	*last = r;
	if (r < 0)
		snprintf(read_error.msg, sizeof(read_error.msg), "%s", il_trace_error(t));
	*counts = *il_trace_counts(t);
	il_trace_close(t);
	fclose(f);
	return d;
}

/*
 * Each compression of a trace several times the size of the line buffer and of the codec's
 * input buffer gives the same events and counts as the plain text; two streams back to back
 * read as their concatenation; a cut stream is an error (EBADMSG), never a silent end.
 */
static void test_compressed(void **state)
{
	static const enum il_compression kinds[] = { IL_CODEC_GZIP, IL_CODEC_XZ, IL_CODEC_ZSTD };
	size_t one_len, plain_len, tested = 0;
	char *one = read_all(FIXTURES "vm.trace", &one_len), *plain;
	struct il_trace_counts pc, cc;
	struct digest ref;
	int last;

	/* 20 copies: 1.4 MB of text; the later copies go back in time and are counted as such. */
	plain_len = one_len * 20;
	plain = malloc(plain_len);
	assert_non_null(plain);
	for (int i = 0; i < 20; i++)
		memcpy(plain + one_len * (size_t)i, one, one_len);
	ref = read_memory(plain, plain_len, &pc, &last);
	assert_int_equal(last, 0);
	assert_true(pc.out_of_order > 0);
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		size_t len, len1;
		unsigned char *z = compress_as(kinds[k], plain, plain_len, &len), *z1, *two;
		struct digest d;

		if (!z) {
			assert_non_null(il_codec_unavailable(kinds[k]));
			continue;
		}
		tested++;
		assert_int_equal(il_codec_detect(z, len), kinds[k]);
		d = read_memory(z, len, &cc, &last);
		assert_int_equal(last, 0);
		if (d.hash != ref.hash)
			fail_msg("%s: other events than the plain text", il_codec_name(kinds[k]));
		assert_memory_equal(&cc, &pc, sizeof(cc));

		/* Two streams of one copy each: the events of two copies. */
		z1 = compress_as(kinds[k], one, one_len, &len1);
		two = malloc(2 * len1);
		assert_non_null(two);
		memcpy(two, z1, len1);
		memcpy(two + len1, z1, len1);
		{
			struct il_trace_counts c2, p2;
			struct digest a = read_memory(two, 2 * len1, &c2, &last), b;

			assert_int_equal(last, 0);
			b = read_memory(plain, 2 * one_len, &p2, &last);
			assert_true(a.hash == b.hash);
			assert_int_equal(c2.lines, p2.lines);
		}

		/* Cut in the middle: the open or a read ends with an error, errno EBADMSG. */
		read_memory(z, len / 2, &cc, &last);
		assert_int_equal(last, -1);
		assert_int_equal(errno, EBADMSG);
		assert_non_null(strstr(read_error.msg, "corrupt"));
		free(two);
		free(z1);
		free(z);
	}
	if (!tested)
		skip();
	free(plain);
	free(one);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timestamps),
		cmocka_unit_test(test_heads),
		cmocka_unit_test(test_decode_power_and_timers),
		cmocka_unit_test(test_decode_irqs_ipis_sched),
		cmocka_unit_test(test_detection),
		cmocka_unit_test(test_dat_magic),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_long_and_binary_lines),
		cmocka_unit_test(test_fixture_formats_agree),
		cmocka_unit_test(test_fixture_vm_recordings),
		cmocka_unit_test(test_fixture_dat),
		cmocka_unit_test(test_compressed),
	};

	return cmocka_run_group_tests_name("trace", tests, NULL, NULL);
}
