// SPDX-License-Identifier: GPL-2.0-only
/*
 * decode.c - the event part of a text trace line: "cpu_idle: state=1 cpu_id=0".
 *
 * The fields are printed by each event's print fmt (ftrace, perf) or by a libtraceevent
 * plugin (trace-cmd report): the same keys in a different order, pointers hashed
 * ("00000000ebf66ecb") or raw ("0xffff888627c1c6f8"), function names with or without an
 * offset ("tick_nohz_handler/0x0"), and sched_switch/sched_wakeup in the plugins' own
 * "comm:pid [prio]" shape. So fields are looked up by key, never by position.
 *
 * Speed: every line's name is classified (known_kind(), a switch on its length), and only
 * the events a consumer asked for are decoded, in one pass over their fields that tries the
 * kernel's order of keys first (find_fields()); numbers and scans go eight bytes at a time
 * where they can (trace-local.h). Whatever the input, the result is that of the plain
 * key-by-key lookup: these are shortcuts, not a second parser.
 */
#include <stdio.h>
#include <string.h>

#include "trace-local.h"
#include "util/array.h"

static inline bool is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

/* Variants of one event type that need their own field decoding; K_NONE: not a known name. */
enum kind {
	K_NONE, K_IDLE, K_MISS, K_HR_SETUP, K_HR_START, K_HR_CANCEL, K_HR_EXPIRE, K_TM_START,
	K_TM_CANCEL, K_TM_EXPIRE, K_TICK_STOP, K_IRQ, K_IRQ_EXIT, K_VECTOR, K_VECTOR_EXIT,
	K_PPC_TIMER, K_PPC_TIMER_EXIT, K_IPI_CPU, K_IPI_MASK, K_IPI_RAISE, K_IPI_ENTRY, K_WAKEUP,
	K_WAKE_NO_IPI, K_SWITCH,
};

static const unsigned char kind_type[] = {
	[K_NONE] = IL_EV_OTHER,
	[K_IDLE] = IL_EV_CPU_IDLE,
	[K_MISS] = IL_EV_CPU_IDLE_MISS,
	[K_HR_SETUP] = IL_EV_HRTIMER_SETUP,
	[K_HR_START] = IL_EV_HRTIMER_START,
	[K_HR_CANCEL] = IL_EV_HRTIMER_CANCEL,
	[K_HR_EXPIRE] = IL_EV_HRTIMER_EXPIRE,
	[K_TM_START] = IL_EV_TIMER_START,
	[K_TM_CANCEL] = IL_EV_TIMER_CANCEL,
	[K_TM_EXPIRE] = IL_EV_TIMER_EXPIRE,
	[K_TICK_STOP] = IL_EV_TICK_STOP,
	[K_IRQ] = IL_EV_IRQ,
	[K_IRQ_EXIT] = IL_EV_IRQ_EXIT,
	[K_VECTOR] = IL_EV_IRQ_VECTOR,
	[K_VECTOR_EXIT] = IL_EV_IRQ_EXIT,
	[K_PPC_TIMER] = IL_EV_IRQ_VECTOR,
	[K_PPC_TIMER_EXIT] = IL_EV_IRQ_EXIT,
	[K_IPI_CPU] = IL_EV_IPI_SEND,
	[K_IPI_MASK] = IL_EV_IPI_SEND,
	[K_IPI_RAISE] = IL_EV_IPI_SEND,
	[K_IPI_ENTRY] = IL_EV_IPI_ENTRY,
	[K_WAKEUP] = IL_EV_SCHED_WAKEUP,
	[K_WAKE_NO_IPI] = IL_EV_SCHED_WAKEUP,
	[K_SWITCH] = IL_EV_SCHED_SWITCH,
};

/* Events named like irq_vectors' but that are not: their fields differ. */
static bool is_vector_event(const char *fields, const char *end)
{
	return end - fields >= 7 && !memcmp(fields, "vector=", 7);
}

/*
 * The kind of a known event name. Every line's name is looked up, so this is the hot path
 * of reading: a switch on the length and one distinguishing character leaves at most one
 * candidate, compared with a memcmp of constant length (which the compiler inlines).
 */
static int known_kind(const char *name, size_t len)
{
#define IS(lit, k) (!memcmp(name, lit, sizeof(lit) - 1) ? (k) : K_NONE)
	switch (len) {
	case 8:
		return IS("cpu_idle", K_IDLE);
	case 9:
		if (name[0] == 't')
			return IS("tick_stop", K_TICK_STOP);
		return name[4] == 'r' ? IS("ipi_raise", K_IPI_RAISE) : IS("ipi_entry", K_IPI_ENTRY);
	case 11:
		return IS("timer_start", K_TM_START);
	case 12:
		switch (name[0]) {
		case 'h':
			return IS("hrtimer_init", K_HR_SETUP);
		case 't':
			return IS("timer_cancel", K_TM_CANCEL);
		case 'i':
			return IS("ipi_send_cpu", K_IPI_CPU);
		default:
			return name[6] == 'w' ? IS("sched_wakeup", K_WAKEUP) :
						IS("sched_switch", K_SWITCH);
		}
	case 13:
		if (name[0] == 'c')
			return IS("cpu_idle_miss", K_MISS);
		return name[8] == 's' && name[9] == 'e' ? IS("hrtimer_setup", K_HR_SETUP) :
							  IS("hrtimer_start", K_HR_START);
	case 14:
		return IS("hrtimer_cancel", K_HR_CANCEL);
	case 16:
		return name[1] == 'r' ? IS("irq_handler_exit", K_IRQ_EXIT) :
					IS("ipi_send_cpumask", K_IPI_MASK);
	case 17:
		return IS("irq_handler_entry", K_IRQ);
	case 18:
		return IS("timer_expire_entry", K_TM_EXPIRE);
	case 20:
		return name[0] == 'h' ? IS("hrtimer_expire_entry", K_HR_EXPIRE) :
					IS("timer_interrupt_exit", K_PPC_TIMER_EXIT);
	case 21:
		return IS("timer_interrupt_entry", K_PPC_TIMER);
	case 27:
		return IS("sched_wake_idle_without_ipi", K_WAKE_NO_IPI);
	default:
		return K_NONE;
	}
#undef IS
}

static bool ends_with(const char *s, size_t len, const char *suffix, size_t slen)
{
	return len > slen && !memcmp(s + len - slen, suffix, slen);
}

/*
 * A key of "key=value" fields, padded with NULs to 16 bytes so that it can be compared a
 * word at a time (a longer literal does not compile); the length is known at compile time.
 */
struct key {
	char name[16];
	size_t len;
};

#define KEY(s) { s, sizeof(s) - 1 }
#define N_KEYS(keys) (ARRAY_SIZE(keys))

/* Whether the k->len bytes at @p (all before @end) are the key's name. */
static inline bool key_equals(const char *p, const char *end, const struct key *k)
{
	if (IL_SCAN_WORDS && k->len < 8 && end - p >= 8)
		return !((il_load8(p) ^ il_load8(k->name)) & ((1ULL << (8 * k->len)) - 1));
	if (IL_SCAN_WORDS && end - p >= 16)
		return il_load8(p) == il_load8(k->name) &&
		       !((il_load8(p + 8) ^ il_load8(k->name + 8)) &
			 ((1ULL << (8 * (k->len - 8))) - 1));
	return !memcmp(p, k->name, k->len);
}

/* Whether the token at @p is "@k=" (the caller knows @p is not past @end). */
static inline bool token_has_key(const char *p, const char *end, const struct key *k)
{
	return (size_t)(end - p) > k->len && p[k->len] == '=' && key_equals(p, end, k);
}

/*
 * find_fields - the values of @n keys in one pass over the blank-separated tokens at @p
 * @vals: vals[i] is set to the value of the first token "keys[i]=value", or NULL
 *
 * A token's key is what precedes its first '='; none of our keys contains a blank or '='.
 * The keys are listed in the order the kernel prints them, so the first tokens are tried
 * against the next key in that order without reading their key first; at the first token
 * that is not, the general scan takes over. The pass stops as soon as every key is found.
 */
static void find_fields(const char *p, const char *end, const struct key *keys, int n,
			const char **vals)
{
	int missing = n, i;

	for (i = 0; i < n; i++)
		vals[i] = NULL;
	/* In order: token i has key i, so it is the first with that key. */
	for (i = 0; i < n; i++) {
		while (p < end && il_is_blank(*p))
			p++;
		if (p == end || !token_has_key(p, end, &keys[i]))
			break;
		vals[i] = p + keys[i].len + 1;
		if (--missing == 0)
			return;
		p = il_find_blank(vals[i], end);
	}
	while (p < end) {
		const char *tok;

		while (p < end && il_is_blank(*p))
			p++;
		tok = p;
		p = il_find_blank_eq(p, end);
		if (p < end && *p == '=') {
			size_t len = (size_t)(p - tok);

			for (i = 0; i < n; i++) {
				if (vals[i] || keys[i].len != len ||
				    !key_equals(tok, end, &keys[i]))
					continue;
				vals[i] = p + 1;
				if (--missing == 0)
					return;
				break;
			}
			p = il_find_blank(p + 1, end);
		}
	}
}

/* Any 19 digits fit in a u64; the check for overflow starts with the 20th. */
#define SAFE_DIGITS 19

/*
 * How many digits start at @p, if they end within the next 16 bytes and those can be read
 * as words; else -1.
 */
static int short_digit_run(const char *p, const char *end)
{
	int n;

	if (!IL_SCAN_WORDS || end - p < 8)
		return -1;
	n = il_leading_digits(il_load8(p));
	if (n < 8)
		return n;
	if (end - p < 16)
		return -1;
	n = il_leading_digits(il_load8(p + 8));
	return n < 8 ? 8 + n : -1;
}

/* The digits at @p as a number (*@out even when no terminator follows, as the loop reads). */
static bool parse_u64(const char *p, const char *end, u64 *out)
{
	const char *s = p, *safe;
	int n = short_digit_run(p, end);
	u64 v = 0;

	if (n >= 0) {
		/* At most 15 digits: no overflow. */
		v = n ? il_digits_at(p, n, end) : 0;
		p += n;
	} else {
		safe = end - p > SAFE_DIGITS ? p + SAFE_DIGITS : end;
		while (p < safe && is_digit(*p))
			v = v * 10 + (u64)(*p++ - '0');
		while (p < end && is_digit(*p)) {
			if (v > (UINT64_MAX - 9) / 10)
				return false;
			v = v * 10 + (u64)(*p++ - '0');
		}
	}
	*out = v;
	/* "state=1x" is malformed, not state 1; "[timeout=1]" and "1," end a value. */
	return p > s && (p == end || il_is_blank(*p) || *p == ']' || *p == ',');
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

/* Values found by find_fields(): NULL when the key was not there. */
static bool val_u64(const char *v, const char *end, u64 *out)
{
	return v && parse_u64(v, end, out);
}

static bool val_u32(const char *v, const char *end, u32 *out)
{
	u64 x;

	if (!val_u64(v, end, &x) || x > UINT32_MAX)
		return false;
	*out = (u32)x;
	return true;
}

static bool val_int(const char *v, const char *end, int *out)
{
	return v && parse_int(v, end, out);
}

static bool val_ptr(const char *v, const char *end, u64 *out)
{
	return v && parse_ptr(v, end, out);
}

/* Copy a value up to a blank, dropping "+0x.../0x..." offsets of symbols. */
static void copy_label(char *dst, const char *v, const char *end, bool symbol)
{
	const char *e = end - v > IL_TRACE_LABEL_LEN - 1 ? v + IL_TRACE_LABEL_LEN - 1 : end;
	const char *p = v;

	if (IL_SCAN_WORDS) {
		for (; e - p >= 8; p += 8) {
			u64 x = il_load8(p), m = il_bytes_eq(x, ' ') | il_bytes_eq(x, '\t');

			if (symbol)
				m |= il_bytes_eq(x, '+') | il_bytes_eq(x, '/');
			if (m) {
				p += __builtin_ctzll(m) >> 3;
				goto copy;
			}
		}
	}
	while (p < e && !il_is_blank(*p) && !(symbol && (*p == '+' || *p == '/')))
		p++;
copy:
	memcpy(dst, v, (size_t)(p - v));
	dst[p - v] = '\0';
}

static void val_label(const char *v, const char *end, char *dst, bool symbol)
{
	if (v)
		copy_label(dst, v, end, symbol);
	else
		dst[0] = '\0';
}

/* Whether the "A|B|C" value at @v (NULL: no such field) has the one-letter flag @flag. */
static bool has_flag(const char *v, const char *end, char flag)
{
	for (const char *p = v; p && p < end && !il_is_blank(*p); p++)
		if (*p == flag && (p == v || p[-1] == '|') &&
		    (p + 1 == end || p[1] == '|' || il_is_blank(p[1])))
			return true;
	return false;
}

/* Each decoder looks its keys up in one pass: FIND(keys) fills v[] in the order of keys[]. */
#define FIND(keys) find_fields(f, end, keys, (int)N_KEYS(keys), v)

/*
 * cpu_idle is most of the events a trace's statistics need, so its fields in the layout
 * the kernel prints, "state=%u cpu_id=%u", are located directly: the first token is then
 * the first with key "state" and the second the first with key "cpu_id", as
 * find_fields() would find them. Any other layout takes find_fields().
 */
static int decode_idle(const char *f, const char *end, struct il_trace_event *ev)
{
	static const struct key keys[] = { KEY("state"), KEY("cpu_id") };
	const char *v[N_KEYS(keys)], *p = f + 6;

	if (end - f > 6 && !memcmp(f, "state=", 6)) {
		while (p < end && is_digit(*p))
			p++;
		if (end - p > 8 && !memcmp(p, " cpu_id=", 8)) {
			v[0] = f + 6;
			v[1] = p + 8;
			return val_u32(v[0], end, &ev->state) && val_u32(v[1], end, &ev->cpu_id);
		}
	}
	FIND(keys);
	return val_u32(v[0], end, &ev->state) && val_u32(v[1], end, &ev->cpu_id);
}

static int decode_miss(const char *f, const char *end, struct il_trace_event *ev)
{
	static const struct key keys[] = { KEY("cpu_id"), KEY("state"), KEY("type") };
	const char *v[N_KEYS(keys)], *type;

	FIND(keys);
	type = v[2];
	if (!type || !val_u32(v[1], end, &ev->state) || !val_u32(v[0], end, &ev->cpu_id))
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

	for (size_t i = 0; i < ARRAY_SIZE(clocks); i++) {
		size_t n = strlen(clocks[i].name);

		if ((size_t)(end - v) >= n && !memcmp(v, clocks[i].name, n) &&
		    (v + n == end || il_is_blank(v[n])))
			return clocks[i].id;
	}
	return parse_int(v, end, &id) ? id : IL_CLOCK_UNKNOWN;
}

static int decode_hr_setup(const char *f, const char *end, struct il_trace_event *ev)
{
	static const struct key keys[] = { KEY("hrtimer"), KEY("clockid") };
	const char *v[N_KEYS(keys)];

	FIND(keys);
	ev->clockid = v[1] ? clock_from_name(v[1], end) : IL_CLOCK_UNKNOWN;
	return val_ptr(v[0], end, &ev->timer);
}

static int decode_hr_start(const char *f, const char *end, struct il_trace_event *ev)
{
	static const struct key keys[] = { KEY("hrtimer"), KEY("function"), KEY("expires"),
					   KEY("softexpires") };
	const char *v[N_KEYS(keys)];

	FIND(keys);
	if (!val_ptr(v[0], end, &ev->timer) || !val_u64(v[2], end, &ev->expires))
		return 0;
	if (!val_u64(v[3], end, &ev->softexpires))
		ev->softexpires = 0;
	val_label(v[1], end, ev->label, true);
	return 1;
}

/* hrtimer_expire_entry and timer_expire_entry: the pointer under @keys[0], function, now. */
static int decode_expire(const struct key *keys, const char *f, const char *end,
			 struct il_trace_event *ev)
{
	const char *v[3];

	find_fields(f, end, keys, 3, v);
	if (!val_ptr(v[0], end, &ev->timer) || !val_u64(v[2], end, &ev->now))
		return 0;
	val_label(v[1], end, ev->label, true);
	return 1;
}

static int decode_tm_start(const char *f, const char *end, struct il_trace_event *ev)
{
	static const struct key keys[] = { KEY("timer"), KEY("function"), KEY("expires"),
					   KEY("[timeout"), KEY("bucket_expiry"), KEY("cpu"),
					   KEY("flags") };
	const char *v[N_KEYS(keys)];

	FIND(keys);
	if (!val_ptr(v[0], end, &ev->timer) || !val_u64(v[2], end, &ev->expires))
		return 0;
	/* "[timeout=N]": jiffies now = expires - N, which ties jiffies to the trace clock. */
	if (val_u64(v[3], end, &ev->now) && ev->now <= ev->expires)
		ev->now = ev->expires - ev->now;
	else
		ev->now = 0;
	/* bucket_expiry (5.x+) is when the wheel really fires; prefer it. */
	val_u64(v[4], end, &ev->expires);
	if (!val_int(v[5], end, &ev->target_cpu))
		ev->target_cpu = -1;
	ev->deferrable = v[6] ? has_flag(v[6], end, 'D') : -1;
	val_label(v[1], end, ev->label, true);
	return 1;
}

/* An int under one key and, if @label_key, a label: tick_stop, irq_handler_entry. */
static int decode_int_label(const struct key *keys, bool label_key, const char *f,
			    const char *end, int *out, struct il_trace_event *ev)
{
	const char *v[2];

	find_fields(f, end, keys, label_key ? 2 : 1, v);
	if (!val_int(v[0], end, out))
		return 0;
	if (label_key)
		val_label(v[1], end, ev->label, false);
	return 1;
}

static int decode_ptr(const struct key *key, const char *f, const char *end,
		      struct il_trace_event *ev)
{
	const char *v;

	find_fields(f, end, key, 1, &v);
	return val_ptr(v, end, &ev->timer);
}

static int decode_vector(const char *name, size_t name_len, size_t suffix, const char *f,
			 const char *end, struct il_trace_event *ev)
{
	static const struct key keys[] = { KEY("vector") };
	size_t n = name_len - suffix;

	if (!decode_int_label(keys, false, f, end, &ev->vector, ev))
		return 0;
	if (n >= IL_TRACE_LABEL_LEN)
		n = IL_TRACE_LABEL_LEN - 1;
	memcpy(ev->label, name, n);
	ev->label[n] = '\0';
	return 1;
}

/*
 * powerpc's decrementer, the CPU's local timer: powerpc:timer_interrupt_entry / _exit
 * (arch/powerpc/include/asm/trace.h, ppc64_interrupt_class: "pt_regs=%p"), traced by
 * timer_interrupt() in arch/powerpc/kernel/time.c. It is no irq_handler_entry: delivered as
 * an irq_vectors-like entry, vector 0, label IL_TRACE_PPC_TIMER.
 */
static int decode_ppc_timer(struct il_trace_event *ev)
{
	memcpy(ev->label, IL_TRACE_PPC_TIMER, sizeof(IL_TRACE_PPC_TIMER));
	return 1;
}

/* Events named like powerpc's but that are not: their fields differ. */
static bool is_ppc_interrupt_event(const char *fields, const char *end)
{
	return end - fields >= 8 && !memcmp(fields, "pt_regs=", 8);
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
	static const struct key cpu_keys[] = { KEY("cpu"), KEY("callsite") };
	static const struct key mask_keys[] = { KEY("cpumask"), KEY("callsite") };
	const char *v[2];

	ev->target_cpu = -1;
	switch (kind) {
	case K_IPI_CPU:
		find_fields(f, end, cpu_keys, 2, v);
		if (!val_int(v[0], end, &ev->target_cpu))
			return 0;
		val_label(v[1], end, ev->label, true);
		return 1;
	case K_IPI_MASK:
		find_fields(f, end, mask_keys, 2, v);
		val_label(v[1], end, ev->label, true);
		return v[0] != NULL;
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
	/* "prio" is not used: it is listed so that the kernel's layout matches in order. */
	static const struct key keys[] = { KEY("comm"), KEY("pid"), KEY("prio"),
					   KEY("target_cpu") };
	const char *v[N_KEYS(keys)];

	FIND(keys);
	if (val_int(v[1], end, &ev->next_pid)) {
		val_label(v[0], end, ev->label, false);
		if (!val_int(v[3], end, &ev->target_cpu))
			ev->target_cpu = -1;
		return 1;
	}
	/* plugin: "comm:pid [prio] CPU:001" (older: "... success=1 CPU:001") */
	if (!plugin_comm_pid(f, end, &ev->next_pid, ev->label))
		return 0;
	v[0] = NULL;
	for (const char *p = f; p + 4 <= end; p++)
		if (!memcmp(p, "CPU:", 4)) {
			v[0] = p + 4;
			break;
		}
	if (!val_int(v[0], end, &ev->target_cpu))
		ev->target_cpu = -1;
	return 1;
}

static int decode_switch(const char *f, const char *end, struct il_trace_event *ev)
{
	/* prev_comm is not used: it is listed so that the kernel's layout matches in order. */
	static const struct key keys[] = { KEY("prev_comm"), KEY("prev_pid"), KEY("next_comm"),
					   KEY("next_pid") };
	const char *v[N_KEYS(keys)], *arrow;

	FIND(keys);
	if (val_int(v[1], end, &ev->prev_pid)) {
		val_label(v[2], end, ev->label, false);
		return val_int(v[3], end, &ev->next_pid);
	}
	for (arrow = f; arrow + 4 <= end && memcmp(arrow, " ==>", 4); arrow++)
		;
	if (arrow + 4 > end)
		return 0;
	if (!plugin_comm_pid(f, arrow, &ev->prev_pid, NULL))
		return 0;
	f = arrow + 4;
	while (f < end && il_is_blank(*f))
		f++;
	return plugin_comm_pid(f, end, &ev->next_pid, ev->label);
}

static int decode_fields(int kind, const char *name, size_t len, const char *f,
			 const char *end, struct il_trace_event *ev)
{
	static const struct key hrtimer[] = { KEY("hrtimer"), KEY("function"), KEY("now") };
	static const struct key timer[] = { KEY("timer"), KEY("function"), KEY("now") };
	static const struct key tick[] = { KEY("success"), KEY("dependency") };
	static const struct key irq[] = { KEY("irq"), KEY("name") };
	static const struct key cpu[] = { KEY("cpu") };

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
		return decode_ptr(hrtimer, f, end, ev);
	case K_HR_EXPIRE:
		return decode_expire(hrtimer, f, end, ev);
	case K_TM_START:
		return decode_tm_start(f, end, ev);
	case K_TM_CANCEL:
		return decode_ptr(timer, f, end, ev);
	case K_TM_EXPIRE:
		return decode_expire(timer, f, end, ev);
	case K_TICK_STOP:
		return decode_int_label(tick, true, f, end, &ev->success, ev);
	case K_IRQ:
		return decode_int_label(irq, true, f, end, &ev->irq, ev);
	case K_IRQ_EXIT:
		return decode_int_label(irq, false, f, end, &ev->irq, ev);
	case K_VECTOR:
		return decode_vector(name, len, 6, f, end, ev);
	case K_VECTOR_EXIT:
		return decode_vector(name, len, 5, f, end, ev);
	case K_PPC_TIMER:
	case K_PPC_TIMER_EXIT:
		return decode_ppc_timer(ev);
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
		return decode_int_label(cpu, false, f, end, &ev->target_cpu, ev);
	case K_SWITCH:
		return decode_switch(f, end, ev);
	}
	return 0;
}

/* irq_vectors:*_entry / *_exit, recognised by suffix and their "vector=" field. */
static int vector_kind(const char *name, size_t len, const char *f, const char *end)
{
	if (!is_vector_event(f, end))
		return K_NONE;
	if (ends_with(name, len, "_entry", 6))
		return K_VECTOR;
	if (ends_with(name, len, "_exit", 5))
		return K_VECTOR_EXIT;
	return K_NONE;
}

int il_trace_decode(const char *s, const char *end, struct il_trace_event *ev, const char **why)
{
	return il_trace_decode_masked(s, end, IL_EV_ALL, ev, why, NULL);
}

int il_trace_decode_masked(const char *s, const char *end, u32 mask, struct il_trace_event *ev,
			   const char **why, enum il_ev *skipped)
{
	const char *p, *name = s, *f;
	int kind, type;
	size_t len;

	/*
	 * The name ends at the first ':' followed by a blank or the line end; a ':' followed
	 * by anything else ends perf's subsystem ("power:cpu_idle" -> "cpu_idle").
	 */
	for (p = s; (p = memchr(p, ':', (size_t)(end - p))) != NULL; p++) {
		if (p + 1 == end || il_is_blank(p[1]))
			break;
		name = p + 1;
	}
	if (!p || !(len = (size_t)(p - name))) {
		*why = "no event name";
		return -1;
	}
	f = p + 1;
	while (f < end && il_is_blank(*f))
		f++;

	kind = known_kind(name, len);
	if ((kind == K_PPC_TIMER || kind == K_PPC_TIMER_EXIT) && !is_ppc_interrupt_event(f, end))
		kind = K_NONE;
	if (kind == K_NONE && (kind = vector_kind(name, len, f, end)) == K_NONE)
		return 0;
	type = kind_type[kind];
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
