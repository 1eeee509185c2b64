// SPDX-License-Identifier: GPL-2.0-only
/*
 * param.c - governor tunables, the lab's form of a governor's module parameters.
 *
 * DOC: tunables
 *
 * In the kernel a governor tunable is a module_param() of the governor file: one global
 * variable, readable and writable in /sys/module/<file>/parameters/. Here each device keeps
 * its own copy inside its governor data, so CPUs (or runs) can differ:
 *
 *  1. A governor lists its tunables in il_governor.params, each with a type, a default and
 *     the offset of its value in the per-CPU data.
 *  2. il_gov_bind() zeroes the data, then il_gov_param_defaults() stores every default,
 *     then enable() runs, so a governor sees the kernel's defaults from the first select.
 *  3. il_gov_set_param() parses a string the way the kernel parses a write to the parameter
 *     file (kstrtouint() with base 0, kstrtobool()), so the same strings work in both.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "governors.h"

const struct il_param *il_gov_find_param(const struct il_governor *gov, const char *name)
{
	if (!gov || !gov->params || !name)
		return NULL;
	for (const struct il_param *p = gov->params; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

static void *param_slot(const struct il_device *dev, const struct il_param *p)
{
	return (char *)dev->governor_data + p->offset;
}

static void param_store(const struct il_device *dev, const struct il_param *p, u64 value)
{
	switch (p->type) {
	case IL_PARAM_UINT:
		*(unsigned int *)param_slot(dev, p) = (unsigned int)value;
		break;
	case IL_PARAM_BOOL:
		*(bool *)param_slot(dev, p) = value != 0;
		break;
	}
}

static u64 param_load(const struct il_device *dev, const struct il_param *p)
{
	switch (p->type) {
	case IL_PARAM_UINT:
		return *(const unsigned int *)param_slot(dev, p);
	case IL_PARAM_BOOL:
		return *(const bool *)param_slot(dev, p);
	}
	return 0;
}

void il_gov_param_defaults(struct il_device *dev)
{
	const struct il_governor *gov = dev->preset ? dev->preset->gov : NULL;

	if (!gov || !gov->params || !dev->governor_data)
		return;
	for (const struct il_param *p = gov->params; p->name; p++)
		param_store(dev, p, p->def);
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/*
 * The kernel's kstrtouint(s, 0): an optional '+', then decimal, "0x" hex or "0" octal
 * digits, then at most one newline. No sign, no spaces, nothing else.
 */
static int parse_uint(const char *s, unsigned int *out)
{
	unsigned int base = 10;
	u64 v = 0;
	const char *start;

	if (*s == '+')
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && digit_value(s[2]) < 16) {
		base = 16;
		s += 2;
	} else if (s[0] == '0') {
		base = 8;
	}
	start = s;
	for (; *s && *s != '\n'; s++) {
		unsigned int d = (unsigned int)digit_value(*s);

		if (d >= base)
			return -EINVAL;
		v = v * base + d;
		if (v > UINT_MAX)
			return -ERANGE;
	}
	if (s == start || (*s == '\n' && s[1] != '\0'))
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

/* The kernel's kstrtobool(); a missing value means "set", as for a bare boot parameter. */
static int parse_bool(const char *s, bool *out)
{
	if (!s) {
		*out = true;
		return 0;
	}
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		*out = true;
		return 0;
	case 'n': case 'N': case 'f': case 'F': case '0':
		*out = false;
		return 0;
	case 'o': case 'O':
		if (s[1] == 'n' || s[1] == 'N') {
			*out = true;
			return 0;
		}
		if (s[1] == 'f' || s[1] == 'F') {
			*out = false;
			return 0;
		}
		break;
	}
	return -EINVAL;
}

static int param_parse(const struct il_param *p, const char *value, u64 *out)
{
	unsigned int u;
	bool b;
	int ret;

	switch (p->type) {
	case IL_PARAM_UINT:
		if (!value)
			return -EINVAL;
		ret = parse_uint(value, &u);
		if (!ret)
			*out = u;
		return ret;
	case IL_PARAM_BOOL:
		ret = parse_bool(value, &b);
		if (!ret)
			*out = b;
		return ret;
	}
	return -EINVAL;
}

static const struct il_param *bound_param(const struct il_device *dev, const char *name)
{
	if (!dev->preset || !dev->governor_data)
		return NULL;
	return il_gov_find_param(dev->preset->gov, name);
}

int il_gov_set_param(struct il_device *dev, const char *name, const char *value)
{
	const struct il_param *p = bound_param(dev, name);
	u64 v;
	int ret;

	if (!p) {
		errno = ENOENT;
		return -1;
	}
	ret = param_parse(p, value, &v);
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	param_store(dev, p, v);
	return 0;
}

int il_gov_get_param(const struct il_device *dev, const char *name, u64 *value)
{
	const struct il_param *p = bound_param(dev, name);

	if (!p) {
		errno = ENOENT;
		return -1;
	}
	*value = param_load(dev, p);
	return 0;
}
