// SPDX-License-Identifier: GPL-2.0-only
/*
 * text.c - the rt-app file as text: json-c's leniencies blanked out, and positions found
 * again for the reader's messages (jansson keeps none for values).
 *
 * DOC: finding a key's position
 *
 * The reader walks the parsed value and keeps the path it is at as a list of member (or
 * element) numbers. jansson iterates an object's members in file order and refuses
 * duplicate keys here, so member number k of an object is the k-th key in the text. To
 * place a message the text is scanned once more, skipping whole values, down that path;
 * no key needs to be decoded or compared.
 */
#include <stdint.h>

#include "rtapp-local.h"

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The offset just past the string that starts at @i (a '"'), or @len if it never ends. */
static size_t skip_string(const char *s, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return len;
}

/* Replace s[from, to) by spaces, keeping newlines. */
static void blank(char *s, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (s[i] != '\n')
			s[i] = ' ';
}

/* The end (just past the closing mark) of the comment at @i, or SIZE_MAX if it never ends. */
static size_t comment_end(const char *s, size_t len, size_t i)
{
	if (s[i + 1] == '/') {
		while (i < len && s[i] != '\n')
			i++;
		return i;
	}
	for (i += 2; i + 1 < len; i++)
		if (s[i] == '*' && s[i + 1] == '/')
			return i + 2;
	return SIZE_MAX;
}

int rt_text_clean(char *s, size_t len, size_t *bad)
{
	size_t comma = SIZE_MAX; /* a comma followed only by blanks and comments so far */
	size_t i = 0;

	while (i < len) {
		char c = s[i];

		if (c == '"') {
			i = skip_string(s, len, i);
			comma = SIZE_MAX;
		} else if (c == '/' && i + 1 < len && (s[i + 1] == '*' || s[i + 1] == '/')) {
			size_t end = comment_end(s, len, i);

			if (end == SIZE_MAX) {
				*bad = i;
				return -1;
			}
			blank(s, i, end);
			i = end;
		} else {
			if ((c == '}' || c == ']') && comma != SIZE_MAX)
				s[comma] = ' ';
			if (c == ',')
				comma = i;
			else if (!is_ws(c))
				comma = SIZE_MAX;
			i++;
		}
	}
	return 0;
}

static size_t skip_ws(const char *s, size_t len, size_t i)
{
	while (i < len && is_ws(s[i]))
		i++;
	return i;
}

/* The offset just past the value at @i. */
static size_t skip_value(const char *s, size_t len, size_t i)
{
	int depth = 0;

	if (i >= len)
		return len;
	if (s[i] == '"')
		return skip_string(s, len, i);
	if (s[i] != '{' && s[i] != '[') {
		while (i < len && !is_ws(s[i]) && s[i] != ',' && s[i] != '}' && s[i] != ']')
			i++;
		return i;
	}
	while (i < len) {
		char c = s[i];

		if (c == '"') {
			i = skip_string(s, len, i);
			continue;
		}
		if (c == '{' || c == '[')
			depth++;
		else if ((c == '}' || c == ']') && --depth == 0)
			return i + 1;
		i++;
	}
	return len;
}

/*
 * In the object or array at @i, the offset of member (element) @index: of its key for an
 * object, of the element for an array; *@value: where that member's value starts.
 * Returns the closing bracket's offset if there are fewer members.
 */
static size_t find_member(const char *s, size_t len, size_t i, const struct rt_seg *seg,
			  size_t *value)
{
	bool object = seg->key != NULL;

	i++; /* the opening bracket */
	for (size_t m = 0;; m++) {
		size_t at;

		i = skip_ws(s, len, i);
		if (i >= len || s[i] == '}' || s[i] == ']')
			break;
		at = i;
		if (object) {
			i = skip_ws(s, len, skip_string(s, len, i));
			if (i < len && s[i] == ':')
				i++;
			i = skip_ws(s, len, i);
		}
		if (m == seg->index) {
			*value = i;
			return at;
		}
		i = skip_ws(s, len, skip_value(s, len, i));
		if (i < len && s[i] == ',')
			i++;
	}
	*value = i;
	return i;
}

size_t rt_text_locate(const char *s, size_t len, const struct rt_seg *path, int n)
{
	size_t i = skip_ws(s, len, 0), at = i;

	for (int d = 0; d < n && i < len; d++) {
		char open = path[d].key ? '{' : '[';

		if (s[i] != open)
			return i;
		at = find_member(s, len, i, &path[d], &i);
	}
	return n ? at : i;
}

void rt_text_line_col(const char *s, size_t len, size_t off, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n') {
			(*line)++;
			*col = 1;
		} else if ((c & 0xc0) != 0x80) { /* not a UTF-8 continuation byte */
			(*col)++;
		}
	}
}
