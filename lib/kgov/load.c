// SPDX-License-Identifier: GPL-2.0-only
/*
 * load.c - load a kgov object and offer its governor as a preset.
 *
 * A loaded object becomes a struct il_preset named "file:PATH" (or "file:PATH@LIKE") whose
 * governor is the kernel file's, and whose framework rules and kernel version are those of a
 * built-in preset ("like"): the one given, else the built-in preset that follows the same
 * upstream blob, else a guess from the file's era (4.16: two-argument select; 4.17: µs fields;
 * later: the newest preset of the family). Presets are kept for the life of the process.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kgov.h"
#include "../gov/governors.h"
#include "../../kshim/kshim-abi.h"

_Static_assert(ENOENT == 2, "kshim reports -ENOENT as -2");

struct kgov_loaded {
	struct il_preset preset;
	char name[PATH_MAX + 64];
	char upstream[160];
	char path[PATH_MAX];
	const struct il_preset *like;
	const struct kshim_module *mod;
	void *handle;
	struct kgov_loaded *next;
};

static struct kgov_loaded *loaded;

static const struct il_core_rules *core_for_kver(int kver)
{
	if (kver < IL_KV(4, 17, 0))
		return &il_core_4_16;
	if (kver < IL_KV(5, 0, 0))
		return &il_core_4_17;
	return &il_core_7_0;
}

/* The newest built-in preset of @family with (or without) the 4.x µs units and select form. */
static const struct il_preset *guess_like(const struct kshim_file *f)
{
	const struct il_preset *best = NULL;

	for (int i = 0; i < il_preset_count(); i++) {
		const struct il_preset *p = il_preset_at(i);
		bool era_4_16 = p->kver < IL_KV(4, 17, 0), era_4_x = p->kver < IL_KV(5, 0, 0);

		if (strcmp(p->gov->name, f->family) || il_kgov_is_loaded(p))
			continue;
		if (era_4_16 != (f->select_nargs == 2) || era_4_x != !!f->units_us)
			continue;
		if (!best || p->kver > best->kver)
			best = p;
	}
	return best;
}

bool il_kgov_is_loaded(const struct il_preset *p)
{
	for (struct kgov_loaded *l = loaded; l; l = l->next)
		if (&l->preset == p)
			return true;
	return false;
}

static struct kgov_loaded *loaded_of(const struct il_preset *p)
{
	for (struct kgov_loaded *l = loaded; l; l = l->next)
		if (&l->preset == p)
			return l;
	return NULL;
}

const char *il_kgov_source(const struct il_preset *p)
{
	struct kgov_loaded *l = loaded_of(p);

	return l ? l->mod->file->source : NULL;
}

const char *il_kgov_blob(const struct il_preset *p)
{
	struct kgov_loaded *l = loaded_of(p);

	return l ? l->mod->file->blob : NULL;
}

const struct il_preset *il_kgov_like(const struct il_preset *p)
{
	struct kgov_loaded *l = loaded_of(p);

	return l ? l->like : NULL;
}

int il_kgov_counters(const struct il_preset *p, struct il_kgov_counters *c)
{
	struct kgov_loaded *l = loaded_of(p);

	if (!l) {
		errno = ENOENT;
		return -1;
	}
	c->warns = l->mod->warn_count();
	c->printks = l->mod->printk_count();
	c->shim_errors = l->mod->shim_error_count();
	return 0;
}

static const struct kshim_module *open_module(const char *path, void **handle, struct il_error *err)
{
	const struct kshim_module *mod;

	/* @path is absolute (realpath()), so dlopen() does not search the library path */
	*handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!*handle) {
		il_error_set(err, path, 0, "cannot load: %s", dlerror());
		return NULL;
	}
	mod = dlsym(*handle, "kshim_module");
	if (!mod) {
		il_error_set(err, path, 0, "not a kgov object (no kshim_module; build it with "
			     "`idlelab kgov build`)");
		goto fail;
	}
	if (mod->abi != KSHIM_ABI_VERSION || mod->il_device_size != sizeof(struct il_device) ||
	    mod->il_driver_size != sizeof(struct il_driver) ||
	    mod->il_governor_size != sizeof(struct il_governor)) {
		il_error_set(err, path, 0,
			     "built by another idlelab version (ABI %d, this one %d); rebuild it "
			     "with `idlelab kgov build`",
			     mod->abi, KSHIM_ABI_VERSION);
		goto fail;
	}
	return mod;
fail:
	dlclose(*handle);
	*handle = NULL;
	return NULL;
}

const struct il_preset *il_kgov_load(const char *path, const struct il_kgov_load_opts *opts,
				     struct il_error *err)
{
	const struct il_preset *like = opts ? opts->like : NULL;
	const struct kshim_module *mod;
	struct kgov_loaded *l;
	char real[PATH_MAX];
	void *handle;
	int ret;

	if (!realpath(path, real)) {
		il_error_set(err, path, 0, "%s", strerror(errno));
		return NULL;
	}
	for (l = loaded; l; l = l->next)
		if (!strcmp(l->path, real) && (!like || l->like == like))
			return &l->preset;
	/*
	 * Another preset of an object already loaded (other framework rules) shares the object:
	 * nothing in it is per preset, the governor state is per device and the rules are read
	 * through dev->preset. dlopen() hands out the same object again.
	 */
	mod = open_module(real, &handle, err);
	if (!mod)
		return NULL;
	ret = mod->init();
	if (ret) {
		il_error_set(err, path, 0, "the file's init failed (%s)",
			     ret == -ENOENT ? "no governor registered" : strerror(-ret));
		goto fail;
	}
	if (!like)
		like = il_kgov_find_by_blob(mod->file->blob, mod->file->family);
	if (!like)
		like = guess_like(mod->file);
	l = calloc(1, sizeof(*l));
	if (!l) {
		il_error_set(err, path, 0, "out of memory");
		goto fail;
	}
	snprintf(l->path, sizeof(l->path), "%s", real);
	snprintf(l->name, sizeof(l->name), "file:%s%s%s", path, opts && opts->like ? "@" : "",
		 opts && opts->like ? opts->like->name : "");
	snprintf(l->upstream, sizeof(l->upstream), "%s blob %.12s (compiled with kshim)",
		 strrchr(mod->file->source, '/') ? strrchr(mod->file->source, '/') + 1 :
		 mod->file->source, mod->file->blob);
	l->mod = mod;
	l->handle = handle;
	l->like = like;
	l->preset.name = l->name;
	l->preset.gov = mod->governor();
	l->preset.kver = like ? like->kver :
			 mod->file->select_nargs == 2 ? IL_KV(4, 16, 0) :
			 mod->file->units_us ? IL_KV(4, 17, 0) : IL_KV(7, 1, 0);
	l->preset.core = like ? like->core : core_for_kver(l->preset.kver);
	l->preset.kernel = like ? like->kernel : "kgov";
	l->preset.upstream = l->upstream;
	l->preset.changes = "an upstream file compiled with kgov";
	l->preset.cfg = NULL;
	l->next = loaded;
	loaded = l;
	return &l->preset;
fail:
	dlclose(handle);
	return NULL;
}

const struct il_preset *il_kgov_preset_find(const char *spec, struct il_error *err)
{
	struct il_kgov_load_opts opts = { 0 };
	char path[PATH_MAX];
	const char *at = strrchr(spec, '@');
	const struct il_preset *p;

	snprintf(path, sizeof(path), "%.*s", at ? (int)(at - spec) : (int)strlen(spec), spec);
	if (at) {
		/* a built-in port only: "file:A.so@file:B.so" is not a preset */
		opts.like = il_preset_builtin(at + 1);
		if (!opts.like) {
			il_error_set(err, path, 0, "unknown preset '%s' after '@' (see "
				     "'idlelab governors')", at + 1);
			errno = ENOENT;
			return NULL;
		}
	}
	p = il_kgov_load(path, &opts, err);
	if (!p && !errno)
		errno = ENOENT;
	return p;
}
