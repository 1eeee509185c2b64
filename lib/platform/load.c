// SPDX-License-Identifier: GPL-2.0-only
/*
 * load.c - where a platform comes from: a built-in (embedded at build time) or a file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"
#include "platforms.h"
#include "util/array.h"

static const struct {
	const char *name;
	const char *text;
} builtins[] = {
#define IL_BUILTIN_ENTRY(name, sym) { name, il_plat_text_##sym },
	IL_PLATFORMS(IL_BUILTIN_ENTRY)
#undef IL_BUILTIN_ENTRY
};

/* Platform files are small; anything bigger is not one. */
#define IL_PLAT_FILE_MAX (1 << 20)

int il_platform_builtin_count(void)
{
	return (int)ARRAY_SIZE(builtins);
}

const char *il_platform_builtin_name(int i)
{
	return i >= 0 && i < il_platform_builtin_count() ? builtins[i].name : NULL;
}

const char *il_platform_builtin_text(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(builtins); i++)
		if (!strcmp(builtins[i].name, name))
			return builtins[i].text;
	return NULL;
}

bool il_platform_is_path(const char *spec)
{
	size_t len = strlen(spec);

	return strchr(spec, '/') || (len >= 5 && !strcmp(spec + len - 5, ".plat"));
}

/* Read all of @path into a malloc'ed buffer. */
static char *read_file(const char *path, size_t *len, struct il_error *err)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (!f) {
		il_error_set(err, path, 0, "cannot open: %s", strerror(errno));
		return NULL;
	}
	buf = malloc(IL_PLAT_FILE_MAX + 1);
	if (!buf) {
		fclose(f);
		il_error_set(err, path, 0, "out of memory");
		return NULL;
	}
	errno = 0;
	*len = fread(buf, 1, IL_PLAT_FILE_MAX + 1, f);
	if (ferror(f) || *len > IL_PLAT_FILE_MAX) {
		if (ferror(f))
			il_error_set(err, path, 0, "cannot read: %s",
				     strerror(errno ? errno : EIO));
		else
			il_error_set(err, path, 0, "larger than %d bytes", IL_PLAT_FILE_MAX);
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

int il_platform_load_file(const char *path, struct il_platform *plat, struct il_error *err)
{
	size_t len;
	char *text = read_file(path, &len, err);
	int ret;

	if (!text)
		return -1;
	ret = il_platform_parse(text, len, path, plat, err);
	free(text);
	return ret;
}

int il_platform_load(const char *spec, struct il_platform *plat, struct il_error *err)
{
	char origin[IL_PLAT_ORIGIN_LEN];
	const char *text;

	if (il_platform_is_path(spec))
		return il_platform_load_file(spec, plat, err);
	text = il_platform_builtin_text(spec);
	if (!text)
		return il_error_set(err, spec, 0,
				    "no such built-in platform (see 'idlelab platforms')");
	snprintf(origin, sizeof(origin), "builtin:%s", spec);
	return il_platform_parse(text, strlen(text), origin, plat, err);
}

void il_platform_device_init(const struct il_platform *plat, struct il_device *dev)
{
	il_platform_cpu_device_init(plat, 0, dev);
}

void il_platform_cpu_device_init(const struct il_platform *plat, unsigned int cpu,
				 struct il_device *dev)
{
	il_platform_table_device_init(plat, il_platform_cpu_table(plat, cpu), dev);
}

void il_platform_table_device_init(const struct il_platform *plat, int t, struct il_device *dev)
{
	const struct il_driver *drv = plat->ntables > 1 ? &plat->tables[t].drv : &plat->drv;

	memset(dev, 0, sizeof(*dev));
	for (int i = 0; i < drv->state_count; i++) {
		if (drv->states[i].flags & CPUIDLE_FLAG_UNUSABLE)
			dev->states_usage[i].disable |= CPUIDLE_STATE_DISABLED_BY_DRIVER;
		if (drv->states[i].flags & CPUIDLE_FLAG_OFF)
			dev->states_usage[i].disable |= CPUIDLE_STATE_DISABLED_BY_USER;
	}
}
