/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * governors.h - the one explicit list of governor families.
 *
 * Each family FOO lives in lib/gov/FOO.c and defines
 *	const struct il_preset il_presets_FOO[];  (terminated by an entry with .name == NULL)
 * Adding a family means adding one line here and one file there.
 */
#ifndef IDLELAB_GOVERNORS_H
#define IDLELAB_GOVERNORS_H

#include "../governor.h"

#define IL_GOVERNORS(X) \
	X(menu)         \
	X(teo)          \
	X(ladder)       \
	X(haltpoll)     \
	X(oracle)       \
	X(idlelab)

#define IL_DECLARE_PRESETS(fam) extern const struct il_preset il_presets_##fam[];
IL_GOVERNORS(IL_DECLARE_PRESETS)
#undef IL_DECLARE_PRESETS

/* Aliases users may type instead of a preset name. */
#define IL_ALIASES(X)               \
	X("menu", "menu-7.1")       \
	X("teo", "teo-7.1")         \
	X("ladder", "ladder-7.1")      \
	X("haltpoll", "haltpoll-7.0") \
	X("idlelab", "idlelab-1") \
	X("oracle", "oracle-heuristic")

/**
 * il_preset_builtin - a preset of the list above, or an alias of one, by name; NULL
 * otherwise. il_preset_find() (lib/presets.c) adds the "file:" presets of kgov on top.
 */
const struct il_preset *il_preset_builtin(const char *name);

#endif /* IDLELAB_GOVERNORS_H */
