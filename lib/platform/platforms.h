/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * platforms.h - the one explicit list of built-in platforms.
 *
 * Each entry X(name, sym) is a file platforms/<name>.plat, which the build embeds as the
 * string il_plat_text_<sym> (lib/platform/embed.sh; <sym> is <name> with '-' and '.' turned
 * into '_'). Adding a platform means adding the file and one line here.
 */
#ifndef IDLELAB_PLATFORMS_H
#define IDLELAB_PLATFORMS_H

#define IL_PLATFORMS(X)                 \
	X("i5-10600k", i5_10600k)       \
	X("skx", skx)                   \
	X("icx", icx)                   \
	X("spr", spr)                   \
	X("rk3399", rk3399)             \
	X("rk3588", rk3588)             \
	X("mt8195", mt8195)             \
	X("msm8998", msm8998)           \
	X("haltpoll-vm", haltpoll_vm)   \
	X("pseries", pseries)           \
	X("adl", adl)                   \
	X("zen2-acpi", zen2_acpi)

#define IL_DECLARE_PLATFORM_TEXT(name, sym) extern const char il_plat_text_##sym[];
IL_PLATFORMS(IL_DECLARE_PLATFORM_TEXT)
#undef IL_DECLARE_PLATFORM_TEXT

#endif /* IDLELAB_PLATFORMS_H */
