// SPDX-License-Identifier: GPL-2.0-only
/*
 * frame.c - which framework rules (idle loop, QoS, polling window, accounting, kernel version)
 * a patch is judged under, chosen in one place for both sides.
 *
 * A patched file has a blob no preset follows. Loaded on its own it would get the rules of
 * the newest preset of its family and era, while the unpatched file gets those of the preset
 * whose upstream blob it is: a comment-only change then "changes" 2 % of the decisions
 * (Debian 6.12's menu.c: the 6.19+ wakeup-latency QoS rule on one side only). The base
 * decides for both sides, in this order:
 *   1. the preset whose upstream file has the base file's blob (several: the one of the
 *      tree's version, else the first listed);
 *   2. the preset of the tree's version (its top Makefile's VERSION.PATCHLEVEL.SUBLEVEL),
 *      exactly, else of its VERSION.PATCHLEVEL;
 *   3. the preset given by the user (--as);
 *   4. where the caller allows it, the base side's own preset (a built-in preset as OLD), or
 *      the guess from the file's era that il_kgov_load() makes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kgov.h"

/* Mainline releases and stable trees: not the menu-1 .. menu-5 steps of a series ("v6.14+3"). */
static bool release_preset(const struct il_preset *p)
{
	return p->kernel && !strchr(p->kernel, '+') && !il_kgov_is_loaded(p);
}

/* @family NULL: any */
static bool same_family(const struct il_preset *p, const char *family)
{
	return !family || (p->gov && p->gov->name && !strcmp(p->gov->name, family));
}

/* The preset of @family whose upstream is @blob; among several, the one of @tree_kver. */
static const struct il_preset *by_blob(const char *family, const char *blob, int tree_kver,
				       int *matches)
{
	const struct il_preset *first = NULL;
	char prefix[13];

	*matches = 0;
	if (!blob || strlen(blob) < 12)
		return NULL;
	snprintf(prefix, sizeof(prefix), "%.12s", blob);
	for (int i = 0; i < il_preset_count(); i++) {
		const struct il_preset *p = il_preset_at(i);

		if (!same_family(p, family) || !p->upstream || !strstr(p->upstream, prefix))
			continue;
		(*matches)++;
		if (tree_kver && p->kver == tree_kver && release_preset(p))
			return p;
		if (!first)
			first = p;
	}
	return first;
}

const struct il_preset *il_kgov_find_by_blob(const char *hex, const char *family)
{
	int matches;

	return by_blob(family, hex, 0, &matches);
}

/* The release preset of @family for @kver exactly, else for its VERSION.PATCHLEVEL. */
static const struct il_preset *by_version(const char *family, int kver, bool *exact)
{
	const struct il_preset *minor = NULL;

	for (int i = 0; i < il_preset_count(); i++) {
		const struct il_preset *p = il_preset_at(i);

		if (!same_family(p, family) || !release_preset(p))
			continue;
		if (p->kver == kver) {
			*exact = true;
			return p;
		}
		if (!minor && (p->kver >> 8) == (kver >> 8))
			minor = p;
	}
	*exact = false;
	return minor;
}

static void kver_string(int kver, char *buf, size_t cap)
{
	snprintf(buf, cap, "%d.%d.%d", kver >> 16, (kver >> 8) & 0xff, kver & 0xff);
}

int il_kgov_framework_choose(const struct il_kgov_framework_query *q,
			     struct il_kgov_framework *fw, struct il_error *err)
{
	const struct il_preset *p;
	char ver[32];
	bool exact;
	int matches;

	memset(fw, 0, sizeof(*fw));
	p = by_blob(q->family, q->blob, q->tree_kver, &matches);
	if (p) {
		fw->preset = p;
		fw->why = IL_KGOV_FW_BLOB;
		snprintf(fw->reason, sizeof(fw->reason), "the base file's blob %.12s is %s's%s",
			 q->blob, p->name, matches > 1 ? q->tree_kver && p->kver == q->tree_kver ?
			 " (and the tree's version)" : " (the first of several)" : "");
		return 0;
	}
	if (q->tree_kver) {
		kver_string(q->tree_kver, ver, sizeof(ver));
		p = by_version(q->family, q->tree_kver, &exact);
		if (p) {
			fw->preset = p;
			fw->why = IL_KGOV_FW_TREE;
			snprintf(fw->reason, sizeof(fw->reason), "the base file's blob %.12s is no "
				 "preset's; the tree is %s%s", q->blob ? q->blob : "?", ver,
				 exact ? "" : ", the preset of its VERSION.PATCHLEVEL");
			return 0;
		}
	}
	if (q->as) {
		fw->preset = q->as;
		fw->why = IL_KGOV_FW_AS;
		snprintf(fw->reason, sizeof(fw->reason), "the base file's blob "
			 "%.12s is no preset's%s%s", q->blob ? q->blob : "?",
			 q->tree_kver ? ", no preset for the tree's " : "",
			 q->tree_kver ? ver : "");
		return 0;
	}
	if (q->fallback) {
		fw->preset = q->fallback;
		fw->why = IL_KGOV_FW_FALLBACK;
		snprintf(fw->reason, sizeof(fw->reason), "%s", q->fallback_reason ?
			 q->fallback_reason : "the base side's own preset");
		return 0;
	}
	il_error_set(err, q->base_name ? q->base_name : "base", 0,
		     "the base file's blob %.12s is no %s preset's%s%s", q->blob ? q->blob : "?",
		     q->family, q->tree_kver ? " and the tree's version " : "",
		     q->tree_kver ? ver : "");
	return il_error_need(err, IL_NEED_PRESET);
}

int il_kgov_parse_makefile_version(const char *text, int *kver, char *version, size_t cap)
{
	long v[3] = { -1, -1, -1 };
	static const char *const keys[3] = { "VERSION", "PATCHLEVEL", "SUBLEVEL" };

	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');

		for (int k = 0; k < 3; k++) {
			size_t n = strlen(keys[k]);
			const char *s = line;
			char *end;

			if (strncmp(s, keys[k], n))
				continue;
			s += n;
			while (*s == ' ' || *s == '\t')
				s++;
			if (*s++ != '=')
				continue;
			v[k] = strtol(s, &end, 10);
			if (end == s || v[k] < 0 || v[k] > 255)
				v[k] = -2;
		}
		line = nl ? nl + 1 : NULL;
	}
	if (v[0] < 0 || v[1] < 0)
		return -1;
	if (v[2] < 0)
		v[2] = 0;
	*kver = IL_KV((int)v[0], (int)v[1], (int)v[2]);
	snprintf(version, cap, "%ld.%ld.%ld", v[0], v[1], v[2]);
	return 0;
}
