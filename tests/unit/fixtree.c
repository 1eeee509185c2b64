// SPDX-License-Identifier: GPL-2.0-only
/*
 * fixtree.c - private copies of the fixture trees for the live unit tests (fixtree.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "fixtree.h"

#define FIXTURES "tests/fixtures/sysfs"

void fixtree_sh(const char *fmt, ...)
{
	char cmd[2 * PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

void fixtree_copy(char *root, const char *tag, const char *name)
{
	snprintf(root, PATH_MAX, "/tmp/idlelab-test-%s.XXXXXX", tag);
	assert_non_null(mkdtemp(root));
	assert_int_equal(chmod(root, 0755), 0);
	if (name)
		fixtree_sh("cp -R '" FIXTURES "/%s/.' '%s/'", name, root);
}

void fixtree_remove(char *root)
{
	if (root[0])
		fixtree_sh("rm -rf '%s'", root);
	root[0] = '\0';
}

void fixtree_put(const char *root, const char *rel, const char *value)
{
	char path[PATH_MAX];
	FILE *f;

	assert_true((size_t)snprintf(path, sizeof(path), "%s%s", root, rel) < sizeof(path));
	fixtree_sh("mkdir -p \"$(dirname '%s')\"", path);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", value);
	assert_int_equal(fclose(f), 0);
}
