/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_stream.h - a fuzz input as a read-only stream, for the readers that take a FILE.
 */
#ifndef IDLELAB_FUZZ_STREAM_H
#define IDLELAB_FUZZ_STREAM_H

#include <stdint.h>
#include <stdio.h>

/* NULL for an empty input (fmemopen() refuses size 0) or when no stream can be made. */
static inline FILE *fuzz_stream(const uint8_t *data, size_t size)
{
	return size ? fmemopen((void *)data, size, "r") : NULL;
}

#endif /* IDLELAB_FUZZ_STREAM_H */
