/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rtapp-local.h - the reader's private helpers, shared by rtapp.c, text.c and parse.c.
 */
#ifndef IDLELAB_RTAPP_LOCAL_H
#define IDLELAB_RTAPP_LOCAL_H

#include "rtapp.h"

/* ---- memory (rtapp.c): everything a workload points to is freed with it ------------------ */

struct il_rtapp_mem;

/** rt_mem_new - a workload with its zeroed memory; NULL when out of memory */
struct il_rtapp *rt_mem_new(void);
/** rt_alloc - @size zeroed bytes that live as long as @rt; NULL when out of memory */
void *rt_alloc(struct il_rtapp *rt, size_t size);
/** rt_strdup - a copy of @s that lives as long as @rt */
char *rt_strdup(struct il_rtapp *rt, const char *s);
/** rt_res_add - append a resource; Return: its index, or -1 when out of memory */
int rt_res_add(struct il_rtapp *rt, const struct il_rtapp_res *res);
/** rt_res_at - resource @i, writable (the reader counts barrier users as it goes) */
struct il_rtapp_res *rt_res_at(struct il_rtapp *rt, int i);

/* ---- the text (text.c) ------------------------------------------------------------------- */

/*
 * rt_text_clean - blank out, in place, what json-c accepts and jansson does not: C and C++
 * comments and a comma right before '}' or ']'. Newlines stay, so positions do not move.
 * Return: 0, or -1 with *@bad the offset of an unterminated comment.
 */
int rt_text_clean(char *s, size_t len, size_t *bad);

/*
 * One step of a path into the JSON value: the index-th member of an object or element of
 * an array.
 */
struct rt_seg {
	const char *key;  /* object member: its key (for messages); NULL for an array element */
	size_t index;     /* member or element number, from 0, in file order */
};

/**
 * rt_text_locate - the offset in @s of the key (or array element) at the end of @path,
 * or of the value @path leads to when @n is 0; @s must be valid JSON (after rt_text_clean)
 */
size_t rt_text_locate(const char *s, size_t len, const struct rt_seg *path, int n);

/** rt_text_line_col - the 1-based line and column (in characters) of offset @off */
void rt_text_line_col(const char *s, size_t len, size_t off, int *line, int *col);

#endif /* IDLELAB_RTAPP_LOCAL_H */
