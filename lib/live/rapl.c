// SPDX-License-Identifier: GPL-2.0-only
/*
 * rapl.c - package energy from the powercap sysfs class (Documentation/power/powercap/
 * powercap.rst): energy_uj counts microjoules and wraps to 0 after max_energy_range_uj.
 *
 * Only the "intel-rapl" control type is used (AMD Zen registers under the same name). Its
 * subzones ("intel-rapl:0:0", core/uncore/dram) are parts of a package and would count
 * twice, "psys" covers the whole platform and overlaps the packages, and "intel-rapl-mmio"
 * is a second interface to the same package counters: so the sum is over the zones
 * "intel-rapl:N" whose name starts with "package".
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live.h"

#define POWERCAP_DIR "/sys/class/powercap"
#define RAPL_PREFIX "intel-rapl:"

/* "intel-rapl:3" -> true; "intel-rapl:3:1", "intel-rapl", "intel-rapl-mmio:0" -> false. */
static bool is_package_zone_dir(const char *name)
{
	const char *p = name + strlen(RAPL_PREFIX);

	if (strncmp(name, RAPL_PREFIX, strlen(RAPL_PREFIX)) || !*p)
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

static int cmp_zone(const void *a, const void *b)
{
	return strcmp(((const struct il_live_rapl_zone *)a)->name,
		      ((const struct il_live_rapl_zone *)b)->name);
}

/* Read the zone's name and range; keep it if it is a package. Return 1 kept, 0 not, -1 error. */
static int add_zone(struct il_live_rapl *rapl, const char *dir, struct il_error *err)
{
	struct il_live_rapl_zone *z = &rapl->zone[rapl->nzones];
	char path[IL_LIVE_PATH_MAX + 32];

	if (strlen(dir) >= sizeof(z->dir))
		return il_error_set(err, dir, 0, "path too long");
	snprintf(path, sizeof(path), "%s/name", dir);
	if (il_live_read_text(path, z->name, sizeof(z->name)))
		return il_error_set(err, path, 0, "cannot read the zone name: %s", strerror(errno));
	if (strncmp(z->name, "package", 7))
		return 0;
	if (rapl->nzones == IL_LIVE_RAPL_MAX)
		return il_error_set(err, dir, 0, "more than %d RAPL package zones",
				    IL_LIVE_RAPL_MAX);
	strcpy(z->dir, dir);
	snprintf(path, sizeof(path), "%s/max_energy_range_uj", dir);
	if (il_live_read_u64(path, &z->max_range_uj))
		z->max_range_uj = 0;
	rapl->nzones++;
	return 1;
}

int il_live_rapl_open(const struct il_live *lv, struct il_live_rapl *rapl, struct il_error *err)
{
	char dir[IL_LIVE_PATH_MAX], zdir[IL_LIVE_PATH_MAX];
	struct dirent *de;
	u64 probe;
	DIR *d;

	memset(rapl, 0, sizeof(*rapl));
	rapl->status = IL_RAPL_ABSENT;
	if (il_live_path(lv, dir, sizeof(dir), POWERCAP_DIR))
		return il_error_set(err, lv->root, 0, "path too long");
	d = opendir(dir);
	if (!d) {
		snprintf(rapl->why, sizeof(rapl->why), "no %s (%s)", dir, strerror(errno));
		return 0;
	}
	while ((de = readdir(d))) {
		if (!is_package_zone_dir(de->d_name))
			continue;
		if ((size_t)snprintf(zdir, sizeof(zdir), "%s/%s", dir, de->d_name) >=
		    sizeof(zdir)) {
			closedir(d);
			return il_error_set(err, dir, 0, "path too long");
		}
		if (add_zone(rapl, zdir, err) < 0) {
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	if (!rapl->nzones) {
		snprintf(rapl->why, sizeof(rapl->why),
			 "no RAPL package zone (intel-rapl:N named package-N) in %s", dir);
		return 0;
	}
	qsort(rapl->zone, (size_t)rapl->nzones, sizeof(rapl->zone[0]), cmp_zone);
	for (int i = 0; i < rapl->nzones; i++) {
		snprintf(zdir, sizeof(zdir), "%s/energy_uj", rapl->zone[i].dir);
		if (il_live_read_u64(zdir, &probe)) {
			rapl->status = IL_RAPL_UNREADABLE;
			snprintf(rapl->why, sizeof(rapl->why), "cannot read %s: %s%s", zdir,
				 strerror(errno),
				 errno == EACCES ?
					" (energy_uj is readable by root only since the 2020 "
					"Platypus fix)" : "");
			return 0;
		}
	}
	rapl->status = IL_RAPL_OK;
	return 0;
}

int il_live_rapl_read(const struct il_live_rapl *rapl, u64 *uj, struct il_error *err)
{
	char path[IL_LIVE_PATH_MAX + 16];

	for (int i = 0; i < rapl->nzones; i++) {
		snprintf(path, sizeof(path), "%s/energy_uj", rapl->zone[i].dir);
		if (il_live_read_u64(path, &uj[i]))
			return il_error_set(err, path, 0, "cannot read: %s", strerror(errno));
	}
	return 0;
}

bool il_live_energy_delta(u64 before, u64 after, u64 max_range_uj, u64 *out)
{
	if (after >= before) {
		*out = after - before;
		return true;
	}
	/* One wrap: the counter ran from before up to the top of its range, then from 0. */
	if (!max_range_uj || before > max_range_uj)
		return false;
	*out = (max_range_uj - before) + after;
	return true;
}
