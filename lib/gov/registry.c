// SPDX-License-Identifier: GPL-2.0-only
/*
 * registry.c - preset lookup over the IL_GOVERNORS() list, and binding a preset to a CPU.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "governors.h"
#include "util/array.h"

static const struct il_preset *const families[] = {
#define IL_FAMILY_ENTRY(fam) il_presets_##fam,
	IL_GOVERNORS(IL_FAMILY_ENTRY)
#undef IL_FAMILY_ENTRY
};

static const struct {
	const char *alias;
	const char *target;
} aliases[] = {
#define IL_ALIAS_ENTRY(a, t) { a, t },
	IL_ALIASES(IL_ALIAS_ENTRY)
#undef IL_ALIAS_ENTRY
};

int il_preset_count(void)
{
	int n = 0;

	for (size_t f = 0; f < ARRAY_SIZE(families); f++)
		for (const struct il_preset *p = families[f]; p->name; p++)
			n++;
	return n;
}

const struct il_preset *il_preset_at(int i)
{
	for (size_t f = 0; f < ARRAY_SIZE(families); f++)
		for (const struct il_preset *p = families[f]; p->name; p++)
			if (i-- == 0)
				return p;
	return NULL;
}

const char *il_preset_alias_target(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(aliases[i].alias, name))
			return aliases[i].target;
	return NULL;
}

const struct il_preset *il_preset_builtin(const char *name)
{
	const char *target = il_preset_alias_target(name);

	if (target)
		name = target;
	for (int i = 0; i < il_preset_count(); i++) {
		const struct il_preset *p = il_preset_at(i);

		if (!strcmp(p->name, name))
			return p;
	}
	return NULL;
}

int il_gov_bind(struct il_driver *drv, struct il_device *dev, const struct il_preset *preset)
{
	const struct il_governor *gov = preset->gov;
	int ret;

	dev->preset = preset;
	dev->governor_data = calloc(1, gov->data_size ? gov->data_size : 1);
	if (!dev->governor_data) {
		errno = ENOMEM;
		return -1;
	}
	il_gov_param_defaults(dev);
	if (gov->enable) {
		ret = gov->enable(drv, dev);
		if (ret < 0) {
			free(dev->governor_data);
			dev->governor_data = NULL;
			errno = -ret;
			return -1;
		}
	}
	return 0;
}

void il_gov_unbind(struct il_driver *drv, struct il_device *dev)
{
	if (dev->preset && dev->preset->gov->disable)
		dev->preset->gov->disable(drv, dev);
	free(dev->governor_data);
	dev->governor_data = NULL;
	dev->preset = NULL;
}
