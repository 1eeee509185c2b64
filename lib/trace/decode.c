// SPDX-License-Identifier: GPL-2.0-only
/*
 * decode.c - the event part of a text trace line: "cpu_idle: state=1 cpu_id=0".
 *
 * The fields are printed by each event's print fmt (ftrace, perf) or by a libtraceevent
 * plugin (trace-cmd report): the same keys in a different order, pointers hashed
 * ("00000000ebf66ecb") or raw ("0xffff888627c1c6f8"), function names with or without an
 * offset ("tick_nohz_handler/0x0"), and sched_switch/sched_wakeup in the plugins' own
 * "comm:pid [prio]" shape. So fields are looked up by key, never by position.
 */
#include <stdio.h>
#include <string.h>

#include "trace-local.h"

static inline bool is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

static inline bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Variants of one event type that need their own field decoding. */
enum kind {
	K_IDLE, K_MISS, K_HR_SETUP, K_HR_START, K_HR_CANCEL, K_HR_EXPIRE, K_TM_START,
	K_TM_CANCEL, K_TM_EXPIRE, K_TICK_STOP, K_IRQ, K_IRQ_EXIT, K_VECTOR, K_VECTOR_EXIT,
	K_IPI_CPU, K_IPI_MASK, K_IPI_RAISE, K_IPI_ENTRY, K_WAKEUP, K_WAKE_NO_IPI, K_SWITCH,
};

struct known_event {
	const char *name;
	unsigned char len;
	unsigned char kind;
	unsigned char type;
};

#define EV(n, k, t) { n, sizeof(n) - 1, k, t }
static const struct known_event known[] = {
	EV("cpu_idle", K_IDLE, IL_EV_CPU_IDLE),
	EV("cpu_idle_miss", K_MISS, IL_EV_CPU_IDLE_MISS),
	EV("hrtimer_setup", K_HR_SETUP, IL_EV_HRTIMER_SETUP),
	EV("hrtimer_init", K_HR_SETUP, IL_EV_HRTIMER_SETUP),
	EV("hrtimer_start", K_HR_START, IL_EV_HRTIMER_START),
	EV("hrtimer_cancel", K_HR_CANCEL, IL_EV_HRTIMER_CANCEL),
	EV("hrtimer_expire_entry", K_HR_EXPIRE, IL_EV_HRTIMER_EXPIRE),
	EV("timer_start", K_TM_START, IL_EV_TIMER_START),
	EV("timer_cancel", K_TM_CANCEL, IL_EV_TIMER_CANCEL),
	EV("timer_expire_entry", K_TM_EXPIRE, IL_EV_TIMER_EXPIRE),
	EV("tick_stop", K_TICK_STOP, IL_EV_TICK_STOP),
	EV("irq_handler_entry", K_IRQ, IL_EV_IRQ),
	EV("irq_handler_exit", K_IRQ_EXIT, IL_EV_IRQ_EXIT),
	EV("ipi_send_cpu", K_IPI_CPU, IL_EV_IPI_SEND),
	EV("ipi_send_cpumask", K_IPI_MASK, IL_EV_IPI_SEND),
	EV("ipi_raise", K_IPI_RAISE, IL_EV_IPI_SEND),
	EV("ipi_entry", K_IPI_ENTRY, IL_EV_IPI_ENTRY),
	EV("sched_wakeup", K_WAKEUP, IL_EV_SCHED_WAKEUP),
	EV("sched_wake_idle_without_ipi", K_WAKE_NO_IPI, IL_EV_SCHED_WAKEUP),
	EV("sched_switch", K_SWITCH, IL_EV_SCHED_SWITCH),
};
#undef EV

#define N_KNOWN (sizeof(known) / sizeof(known[0]))

/* Events named like irq_vectors' but that are not: their fields differ. */
static bool is_vector_event(const char *fields, const char *end)
{
	return end - fields >= 7 && !memcmp(fields, "vector=", 7);
}

/*
 * Names hash on their length and first and last characters into a small open-addressed
 * table of known[] indexes (+1; 0 is empty), built on first use. Every line's name is
 * looked up, so this is on the hot path of reading.
 */
#define NAME_SLOTS 128

static unsigned int name_hash(const char *name, size_t len)
{
	return ((unsigned int)len * 31U + (unsigned char)name[0] * 7U +
		(unsigned char)name[len - 1]) % NAME_SLOTS;
}

static const unsigned char *name_table(void)
{
	static unsigned char slots[NAME_SLOTS];
	static bool built;

	if (!built) {
		for (size_t i = 0; i < N_KNOWN; i++) {
			unsigned int h = name_hash(known[i].name, known[i].len);

			while (slots[h])
				h = (h + 1) % NAME_SLOTS;
			slots[h] = (unsigned char)(i + 1);
		}
		built = true;
	}
	return slots;
}

static const struct known_event *lookup(const char *name, size_t len)
{
	const unsigned char *slots = name_table();

	for (unsigned int h = name_hash(name, len); slots[h]; h = (h + 1) % NAME_SLOTS) {
		const struct known_event *k = &known[slots[h] - 1];

		if (k->len == len && !memcmp(k->name, name, len))
			return k;
	}
	return NULL;
}

static bool ends_with(const char *s, size_t len, const char *suffix, size_t slen)
{
	return len > slen && !memcmp(s + len - slen, suffix, slen);
}

/* Value of "key=" (@klen bytes of key) among blank-separated tokens, or NULL. */
static const char *field_n(const char *p, const char *end, const char *key, size_t klen)
{
	while (p < end) {
		while (p < end && is_blank(*p))
			p++;
		if ((size_t)(end - p) > klen && p[klen] == '=' && *p == *key && !memcmp(p, key, klen))
			return p + klen + 1;
		while (p < end && !is_blank(*p))
			p++;
	}
	return NULL;
}

/* Keys are string literals: their length is known at compile time. */
#define field(p, end, key) field_n(p, end, key, sizeof(key) - 1)

static bool parse_u64(const char *p, const char *end, u64 *out)
{
	u64 v = 0;
	const char *s = p;

	while (p < end && is_digit(*p)) {
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (u64)(*p++ - '0');
	}
	*out = v;
	/* "state=1x" is malformed, not state 1; "[timeout=1]" and "1," end a value. */
	return p > s && (p == end || is_blank(*p) || *p == ']' || *p == ',');
}

static bool parse_int(const char *p, const char *end, int *out)
{
	bool neg = p < end && *p == '-';
	u64 v;

	if (!parse_u64(p + neg, end, &v) || v > 0x7fffffff)
		return false;
	*out = neg ? -(int)v : (int)v;
	return true;
}

static int hex_digit(char c)
{
	if (is_digit(c))
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* A pointer: hashed "00000000ebf66ecb" or raw "0xffff888627c1c6f8". */
static bool parse_ptr(const char *p, const char *end, u64 *out)
{
	u64 v = 0;
	int n = 0, d;

	if (end - p > 2 && p[0] == '0' && (p[1] | 0x20) == 'x')
		p += 2;
	while (p < end && (d = hex_digit(*p)) >= 0 && n < 16) {
		v = v << 4 | (u64)d;
		p++;
		n++;
	}
	*out = v;
	return n > 0;
}

static bool key_u64_n(const char *f, const char *end, const char *key, size_t klen, u64 *out)
{
	const char *v = field_n(f, end, key, klen);

	return v && parse_u64(v, end, out);
}

static bool key_u32_n(const char *f, const char *end, const char *key, size_t klen, u32 *out)
{
	u64 v;

	if (!key_u64_n(f, end, key, klen, &v) || v > UINT32_MAX)
		return false;
	*out = (u32)v;
	return true;
}

static bool key_int_n(const char *f, const char *end, const char *key, size_t klen, int *out)
{
	const char *v = field_n(f, end, key, klen);

	return v && parse_int(v, end, out);
}

static bool key_ptr_n(const char *f, const char *end, const char *key, size_t klen, u64 *out)
{
	const char *v = field_n(f, end, key, klen);

	return v && parse_ptr(v, end, out);
}

/* Copy a value up to a blank, dropping "+0x.../0x..." offsets of symbols. */
static void copy_label(char *dst, const char *v, const char *end, bool symbol)
{
	size_t n = 0;

	while (v < end && !is_blank(*v) && n < IL_TRACE_LABEL_LEN - 1) {
		if (symbol && (*v == '+' || *v == '/'))
			break;
		dst[n++] = *v++;
	}
	dst[n] = '\0';
}

static void key_label_n(const char *f, const char *end, const char *key, size_t klen, char *dst,
			bool symbol)
{
	const char *v = field_n(f, end, key, klen);

	if (v)
		copy_label(dst, v, end, symbol);
	else
		dst[0] = '\0';
}

#define key_u64(f, end, key, out) key_u64_n(f, end, key, sizeof(key) - 1, out)
#define key_u32(f, end, key, out) key_u32_n(f, end, key, sizeof(key) - 1, out)
#define key_int(f, end, key, out) key_int_n(f, end, key, sizeof(key) - 1, out)
#define key_ptr(f, end, key, out) key_ptr_n(f, end, key, sizeof(key) - 1, out)
#define key_label(f, end, key, dst, symbol) key_label_n(f, end, key, sizeof(key) - 1, dst, symbol)

static int decode_idle(const char *f, const char *end, struct il_trace_event *ev)
{
	return key_u32(f, end, "state", &ev->state) && key_u32(f, end, "cpu_id", &ev->cpu_id);
}

static int decode_miss(const char *f, const char *end, struct il_trace_event *ev)
{
	const char *type = field(f, end, "type");

	if (!type || !decode_idle(f, end, ev))
		return 0;
	if (end - type >= 5 && !memcmp(type, "below", 5))
		ev->below = true;
	else if (end - type >= 5 && !memcmp(type, "above", 5))
		ev->below = false;
	else
		return 0;
	return 1;
}

static int clock_from_name(const char *v, const char *end)
{
	static const struct {
		const char *name;
		int id;
	} clocks[] = {
		{ "CLOCK_REALTIME", IL_CLOCK_REALTIME }, { "CLOCK_MONOTONIC", IL_CLOCK_MONOTONIC },
		{ "CLOCK_BOOTTIME", IL_CLOCK_BOOTTIME }, { "CLOCK_TAI", IL_CLOCK_TAI },
	};
	int id;

	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		size_t n = strlen(clocks[i].name);

		if ((size_t)(end - v) >= n && !memcmp(v, clocks[i].name, n) &&
		    (v + n == end || is_blank(v[n])))
			return clocks[i].id;
	}
	return parse_int(v, end, &id) ? id : IL_CLOCK_UNKNOWN;
}

static int decode_hr_setup(const char *f, const char *end, struct il_trace_event *ev)
{
	const char *v = field(f, end, "clockid");

	ev->clockid = v ? clock_from_name(v, end) : IL_CLOCK_UNKNOWN;
	return key_ptr(f, end, "hrtimer", &ev->timer);
}

static int decode_hr_start(const char *f, const char *end, struct il_trace_event *ev)
{
	if (!key_ptr(f, end, "hrtimer", &ev->timer) || !key_u64(f, end, "expires", &ev->expires))
		return 0;
	if (!key_u64(f, end, "softexpires", &ev->softexpires))
		ev->softexpires = 0;
	key_label(f, end, "function", ev->label, true);
	return 1;
}

static int decode_hr_expire(const char *f, const char *end, struct il_trace_event *ev)
{
	if (!key_ptr(f, end, "hrtimer", &ev->timer) || !key_u64(f, end, "now", &ev->now))
		return 0;
	key_label(f, end, "function", ev->label, true);
	return 1;
}

static int decode_tm_start(const char *f, const char *end, struct il_trace_event *ev)
{
	if (!key_ptr(f, end, "timer", &ev->timer) || !key_u64(f, end, "expires", &ev->expires))
		return 0;
	/* "[timeout=N]": jiffies now = expires - N, which ties jiffies to the trace clock. */
	if (key_u64(f, end, "[timeout", &ev->now) && ev->now <= ev->expires)
		ev->now = ev->expires - ev->now;
	else
		ev->now = 0;
	/* bucket_expiry (5.x+) is when the wheel really fires; prefer it. */
	key_u64(f, end, "bucket_expiry", &ev->expires);
	if (!key_int(f, end, "cpu", &ev->target_cpu))
		ev->target_cpu = -1;
	key_label(f, end, "function", ev->label, true);
	return 1;
}

static int decode_tm_expire(const char *f, const char *end, struct il_trace_event *ev)
{
	if (!key_ptr(f, end, "timer", &ev->timer) || !key_u64(f, end, "now", &ev->now))
		return 0;
	key_label(f, end, "function", ev->label, true);
	return 1;
}

static int decode_tick_stop(const char *f, const char *end, struct il_trace_event *ev)
{
	if (!key_int(f, end, "success", &ev->success))
		return 0;
	key_label(f, end, "dependency", ev->label, false);
	return 1;
}

static int decode_irq(const char *f, const char *end, struct il_trace_event *ev)
{
	if (!key_int(f, end, "irq", &ev->irq))
		return 0;
	key_label(f, end, "name", ev->label, false);
	return 1;
}

static int decode_vector(const char *name, size_t name_len, size_t suffix, const char *f,
			 const char *end, struct il_trace_event *ev)
{
	size_t n = name_len - suffix;

	if (!key_int(f, end, "vector", &ev->vector))
		return 0;
	if (n >= IL_TRACE_LABEL_LEN)
		n = IL_TRACE_LABEL_LEN - 1;
	memcpy(ev->label, name, n);
	ev->label[n] = '\0';
	return 1;
}

/* The text between the first '(' and ')' (ipi_raise/ipi_entry reasons). */
static void paren_label(const char *f, const char *end, char *dst)
{
	const char *open = memchr(f, '(', (size_t)(end - f)), *close;
	size_t n;

	dst[0] = '\0';
	if (!open)
		return;
	close = memchr(open, ')', (size_t)(end - open));
	n = (size_t)((close ? close : end) - open - 1);
	if (n >= IL_TRACE_LABEL_LEN)
		n = IL_TRACE_LABEL_LEN - 1;
	memcpy(dst, open + 1, n);
	dst[n] = '\0';
}

static int decode_ipi(int kind, const char *f, const char *end, struct il_trace_event *ev)
{
	ev->target_cpu = -1;
	switch (kind) {
	case K_IPI_CPU:
		if (!key_int(f, end, "cpu", &ev->target_cpu))
			return 0;
		key_label(f, end, "callsite", ev->label, true);
		return 1;
	case K_IPI_MASK:
		key_label(f, end, "callsite", ev->label, true);
		return field(f, end, "cpumask") != NULL;
	case K_IPI_RAISE:
	default:
		paren_label(f, end, ev->label);
		return 1;
	}
}

/* "comm:pid [prio]": the pid after the last ':' of the token before " [". */
static bool plugin_comm_pid(const char *s, const char *end, int *pid, char *comm)
{
	const char *br = s, *colon = NULL;
	size_t n;

	while (br < end && !(br[0] == ' ' && br + 1 < end && br[1] == '['))
		br++;
	for (const char *p = s; p < br; p++)
		if (*p == ':')
			colon = p;
	if (!colon || !parse_int(colon + 1, br, pid))
		return false;
	if (comm) {
		n = (size_t)(colon - s);
		if (n >= IL_TRACE_LABEL_LEN)
			n = IL_TRACE_LABEL_LEN - 1;
		memcpy(comm, s, n);
		comm[n] = '\0';
	}
	return true;
}

static int decode_wakeup(const char *f, const char *end, struct il_trace_event *ev)
{
	const char *v;

	if (key_int(f, end, "pid", &ev->next_pid)) {
		key_label(f, end, "comm", ev->label, false);
		if (!key_int(f, end, "target_cpu", &ev->target_cpu))
			ev->target_cpu = -1;
		return 1;
	}
	/* plugin: "comm:pid [prio] CPU:001" (older: "... success=1 CPU:001") */
	if (!plugin_comm_pid(f, end, &ev->next_pid, ev->label))
		return 0;
	v = NULL;
	for (const char *p = f; p + 4 <= end; p++)
		if (!memcmp(p, "CPU:", 4)) {
			v = p + 4;
			break;
		}
	if (!v || !parse_int(v, end, &ev->target_cpu))
		ev->target_cpu = -1;
	return 1;
}

static int decode_switch(const char *f, const char *end, struct il_trace_event *ev)
{
	const char *arrow;

	if (key_int(f, end, "prev_pid", &ev->prev_pid)) {
		key_label(f, end, "next_comm", ev->label, false);
		return key_int(f, end, "next_pid", &ev->next_pid);
	}
	for (arrow = f; arrow + 4 <= end && memcmp(arrow, " ==>", 4); arrow++)
		;
	if (arrow + 4 > end)
		return 0;
	if (!plugin_comm_pid(f, arrow, &ev->prev_pid, NULL))
		return 0;
	f = arrow + 4;
	while (f < end && is_blank(*f))
		f++;
	return plugin_comm_pid(f, end, &ev->next_pid, ev->label);
}

static int decode_fields(int kind, const char *name, size_t len, const char *f,
			 const char *end, struct il_trace_event *ev)
{
	switch (kind) {
	case K_IDLE:
		return decode_idle(f, end, ev);
	case K_MISS:
		return decode_miss(f, end, ev);
	case K_HR_SETUP:
		return decode_hr_setup(f, end, ev);
	case K_HR_START:
		return decode_hr_start(f, end, ev);
	case K_HR_CANCEL:
		return key_ptr(f, end, "hrtimer", &ev->timer);
	case K_HR_EXPIRE:
		return decode_hr_expire(f, end, ev);
	case K_TM_START:
		return decode_tm_start(f, end, ev);
	case K_TM_CANCEL:
		return key_ptr(f, end, "timer", &ev->timer);
	case K_TM_EXPIRE:
		return decode_tm_expire(f, end, ev);
	case K_TICK_STOP:
		return decode_tick_stop(f, end, ev);
	case K_IRQ:
		return decode_irq(f, end, ev);
	case K_IRQ_EXIT:
		return key_int(f, end, "irq", &ev->irq);
	case K_VECTOR:
		return decode_vector(name, len, 6, f, end, ev);
	case K_VECTOR_EXIT:
		return decode_vector(name, len, 5, f, end, ev);
	case K_IPI_CPU:
	case K_IPI_MASK:
	case K_IPI_RAISE:
		return decode_ipi(kind, f, end, ev);
	case K_IPI_ENTRY:
		paren_label(f, end, ev->label);
		return 1;
	case K_WAKEUP:
		return decode_wakeup(f, end, ev);
	case K_WAKE_NO_IPI:
		/* A polling CPU told to reschedule without an IPI: woken task unknown. */
		ev->next_pid = -1;
		snprintf(ev->label, sizeof(ev->label), "wake_idle_without_ipi");
		return key_int(f, end, "cpu", &ev->target_cpu);
	case K_SWITCH:
		return decode_switch(f, end, ev);
	}
	return 0;
}

/* irq_vectors:*_entry / *_exit, recognised by suffix and their "vector=" field. */
static bool vector_kind(const char *name, size_t len, const char *f, const char *end,
			int *kind, int *type)
{
	if (!is_vector_event(f, end))
		return false;
	if (ends_with(name, len, "_entry", 6)) {
		*kind = K_VECTOR;
		*type = IL_EV_IRQ_VECTOR;
		return true;
	}
	if (ends_with(name, len, "_exit", 5)) {
		*kind = K_VECTOR_EXIT;
		*type = IL_EV_IRQ_EXIT;
		return true;
	}
	return false;
}

int il_trace_decode(const char *s, const char *end, struct il_trace_event *ev, const char **why)
{
	return il_trace_decode_masked(s, end, IL_EV_ALL, ev, why, NULL);
}

int il_trace_decode_masked(const char *s, const char *end, u32 mask, struct il_trace_event *ev,
			   const char **why, enum il_ev *skipped)
{
	const char *colon = s, *name = s, *f;
	const struct known_event *k;
	int kind, type;
	size_t len;

	/* The name ends at the first ':' followed by a blank or the line end. */
	while ((colon = memchr(colon, ':', (size_t)(end - colon))) != NULL &&
	       colon + 1 < end && !is_blank(colon[1]))
		colon++;
	if (!colon) {
		*why = "no event name";
		return -1;
	}
	/* perf: "power:cpu_idle" -> "cpu_idle" */
	for (const char *p = s; p < colon; p++)
		if (*p == ':')
			name = p + 1;
	len = (size_t)(colon - name);
	if (!len) {
		*why = "no event name";
		return -1;
	}
	f = colon + 1;
	while (f < end && is_blank(*f))
		f++;

	k = lookup(name, len);
	if (k) {
		kind = k->kind;
		type = k->type;
	} else if (!vector_kind(name, len, f, end, &kind, &type)) {
		return 0;
	}
	if (!(mask & IL_EV_BIT(type))) {
		/* Known but not wanted: counted under its type, never decoded. */
		if (skipped)
			*skipped = (enum il_ev)type;
		return 0;
	}
	/* Fields the event does not have read as 0, never as a previous event's. */
	memset(ev, 0, sizeof(*ev));
	ev->type = (enum il_ev)type;
	if (!decode_fields(kind, name, len, f, end, ev)) {
		*why = "malformed fields";
		return -1;
	}
	return 1;
}
