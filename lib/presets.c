// SPDX-License-Identifier: GPL-2.0-only
/*
 * presets.c - il_preset_find(): a preset by name, built-in (lib/gov/) or "file:OBJ.so[@PRESET]",
 * an upstream file built by `idlelab kgov build` (lib/kgov/).
 *
 * It sits above both: lib/gov knows only its own list, lib/kgov loads objects, and neither
 * calls the other to resolve a name.
 */
#include <string.h>

#include "gov/governors.h"
#include "kgov/kgov.h"

static bool is_file_preset(const char *name)
{
	return !strncmp(name, "file:", 5);
}

const struct il_preset *il_preset_lookup(const char *name, struct il_error *err)
{
	err->msg[0] = '\0';
	if (is_file_preset(name))
		return il_kgov_preset_find(name + 5, err);
	return il_preset_builtin(name);
}

const struct il_preset *il_preset_find(const char *name)
{
	struct il_error err;

	return il_preset_lookup(name, &err);
}
