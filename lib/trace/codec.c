// SPDX-License-Identifier: GPL-2.0-only
/*
 * codec.c - compressed traces: gzip (zlib), xz (liblzma) and zstd (libzstd), decompressed
 * while reading.
 *
 * How it works:
 *  1. il_codec_detect() looks at the first bytes of the file, never at its name, and names
 *     the compression whose magic they carry (RFC 1952, the xz file format, RFC 8878).
 *  2. il_codec_open() starts a streaming decoder. The bytes already read for the magic are
 *     its first input, so a pipe needs no seeking.
 *  3. il_codec_read() fills the trace's line buffer with decompressed bytes: the decoder
 *     reads the file through a fixed input buffer, so memory stays flat whatever the size
 *     of the trace. Concatenated streams (gzip members, xz streams, zstd frames) are read
 *     one after the other, as gzip -d, xz -d and zstd -d do.
 *  4. Each library is optional (HAVE_ZLIB, HAVE_LZMA, HAVE_ZSTD from the Makefile); without
 *     it the file is still recognised, and the error says which package to install.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace-local.h"
#include "util/array.h"

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_LZMA
#include <lzma.h>
#endif
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

/* Compressed bytes read from the file at a time. */
#define CODEC_IN_LEN (64 * 1024)

struct il_codec_format {
	enum il_compression kind;
	const char *name;
	unsigned char magic[6];
	size_t magic_len;
	const char *unavailable; /* NULL when built in */
};

static const struct il_codec_format formats[] = {
	{ IL_CODEC_GZIP, "gzip", { 0x1f, 0x8b }, 2,
#ifdef HAVE_ZLIB
	  NULL },
#else
	  "this idlelab was built without zlib (install zlib1g-dev and rebuild)" },
#endif
	{ IL_CODEC_XZ, "xz", { 0xfd, '7', 'z', 'X', 'Z', 0x00 }, 6,
#ifdef HAVE_LZMA
	  NULL },
#else
	  "this idlelab was built without liblzma (install liblzma-dev and rebuild)" },
#endif
	{ IL_CODEC_ZSTD, "zstd", { 0x28, 0xb5, 0x2f, 0xfd }, 4,
#ifdef HAVE_ZSTD
	  NULL },
#else
	  "this idlelab was built without libzstd (install libzstd-dev and rebuild)" },
#endif
};

#define N_FORMATS (int)ARRAY_SIZE(formats)

struct il_codec {
	const struct il_codec_format *fmt;
	const char *name;   /* the trace's path, for messages */
	struct il_error *err; /* where corrupt data is explained (the trace's) */
	FILE *f;
	unsigned char *in;  /* compressed bytes [in_pos, in_len) not yet given to the decoder */
	size_t in_pos, in_len;
	bool in_eof;
	bool stream_end;    /* the last stream ended exactly at in_pos */
	bool out_full;      /* the last read filled its buffer: the decoder may hold more */
	u64 raw_read;       /* compressed bytes read from the file */
#ifdef HAVE_ZLIB
	z_stream z;
#endif
#ifdef HAVE_LZMA
	lzma_stream x;
#endif
#ifdef HAVE_ZSTD
	ZSTD_DStream *zs;
#endif
};

static const struct il_codec_format *find_format(enum il_compression kind)
{
	for (int i = 0; i < N_FORMATS; i++)
		if (formats[i].kind == kind)
			return &formats[i];
	return NULL;
}

enum il_compression il_codec_detect(const unsigned char *head, size_t len)
{
	for (int i = 0; i < N_FORMATS; i++)
		if (len >= formats[i].magic_len &&
		    !memcmp(head, formats[i].magic, formats[i].magic_len))
			return formats[i].kind;
	return IL_CODEC_NONE;
}

const char *il_codec_name(enum il_compression kind)
{
	const struct il_codec_format *f = find_format(kind);

	return f ? f->name : "none";
}

const char *il_codec_unavailable(enum il_compression kind)
{
	const struct il_codec_format *f = find_format(kind);

	return f ? f->unavailable : NULL;
}

/* Refill the compressed input when the decoder has used it up. Return: 0, or -1 (errno). */
static int refill(struct il_codec *c)
{
	size_t n;

	if (c->in_pos < c->in_len || c->in_eof)
		return 0;
	n = fread(c->in, 1, CODEC_IN_LEN, c->f);
	if (n == 0) {
		if (ferror(c->f))
			return -1;
		c->in_eof = true;
	}
	c->in_pos = 0;
	c->in_len = n;
	c->raw_read += n;
	return 0;
}

static int corrupt(struct il_codec *c, const char *what)
{
	il_trace_fail(c->err, "%s: corrupt %s data: %s", c->name, c->fmt->name, what);
	errno = EBADMSG;
	return -1;
}

#ifdef HAVE_ZLIB
static int gz_start(struct il_codec *c)
{
	/* 15 + 16: a gzip header and trailer around the deflate data. */
	return inflateInit2(&c->z, 15 + 16) == Z_OK ? 0 : -1;
}

static ssize_t gz_read(struct il_codec *c, char *dst, size_t cap)
{
	c->z.next_out = (Bytef *)dst;
	c->z.avail_out = (uInt)cap;
	while (c->z.avail_out == cap) {
		int r;

		if (refill(c) < 0)
			return -1;
		if (c->in_pos == c->in_len && !c->out_full)
			return c->stream_end ? 0 : corrupt(c, "the file ends inside a stream");
		c->out_full = false;
		if (c->stream_end && c->in_pos < c->in_len) {
			/* Another gzip member follows. */
			if (inflateReset(&c->z) != Z_OK)
				return corrupt(c, "cannot restart the decoder");
			c->stream_end = false;
		}
		c->z.next_in = c->in + c->in_pos;
		c->z.avail_in = (uInt)(c->in_len - c->in_pos);
		r = inflate(&c->z, Z_NO_FLUSH);
		c->in_pos = c->in_len - c->z.avail_in;
		if (r == Z_STREAM_END)
			c->stream_end = true;
		else if (r != Z_OK && r != Z_BUF_ERROR)
			return corrupt(c, c->z.msg ? c->z.msg : "inflate failed");
	}
	c->out_full = c->z.avail_out == 0;
	return (ssize_t)(cap - c->z.avail_out);
}
#endif

#ifdef HAVE_LZMA
static int xz_start(struct il_codec *c)
{
	lzma_stream init = LZMA_STREAM_INIT;

	c->x = init;
	return lzma_stream_decoder(&c->x, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK ? 0 : -1;
}

static const char *xz_error(lzma_ret r)
{
	switch (r) {
	case LZMA_MEM_ERROR:
		return "out of memory";
	case LZMA_FORMAT_ERROR:
		return "not an xz stream";
	case LZMA_OPTIONS_ERROR:
		return "unsupported compression options";
	case LZMA_DATA_ERROR:
		return "the compressed data is damaged";
	default:
		return "decoder error";
	}
}

static ssize_t xz_read(struct il_codec *c, char *dst, size_t cap)
{
	c->x.next_out = (uint8_t *)dst;
	c->x.avail_out = cap;
	while (c->x.avail_out == cap && !c->stream_end) {
		lzma_ret r;

		if (refill(c) < 0)
			return -1;
		c->x.next_in = c->in + c->in_pos;
		c->x.avail_in = c->in_len - c->in_pos;
		r = lzma_code(&c->x, c->in_eof ? LZMA_FINISH : LZMA_RUN);
		c->in_pos = c->in_len - c->x.avail_in;
		if (r == LZMA_STREAM_END)
			c->stream_end = true;
		else if (r == LZMA_BUF_ERROR)
			return corrupt(c, "the file ends inside a stream");
		else if (r != LZMA_OK)
			return corrupt(c, xz_error(r));
	}
	return (ssize_t)(cap - c->x.avail_out);
}
#endif

#ifdef HAVE_ZSTD
static int zst_start(struct il_codec *c)
{
	c->zs = ZSTD_createDStream();
	if (!c->zs || ZSTD_isError(ZSTD_initDStream(c->zs)))
		return -1;
	c->stream_end = true; /* nothing started yet: the end of the file may come */
	return 0;
}

static ssize_t zst_read(struct il_codec *c, char *dst, size_t cap)
{
	ZSTD_outBuffer out = { dst, cap, 0 };

	while (out.pos == 0) {
		ZSTD_inBuffer in;
		size_t r;

		if (refill(c) < 0)
			return -1;
		if (c->in_pos == c->in_len && !c->out_full)
			return c->stream_end ? 0 : corrupt(c, "the file ends inside a frame");
		in.src = c->in;
		in.size = c->in_len;
		in.pos = c->in_pos;
		r = ZSTD_decompressStream(c->zs, &out, &in);
		c->in_pos = in.pos;
		if (ZSTD_isError(r))
			return corrupt(c, ZSTD_getErrorName(r));
		/* 0: a frame is complete and flushed; the next bytes start a new one. */
		c->stream_end = r == 0;
		c->out_full = out.pos == out.size;
	}
	return (ssize_t)out.pos;
}
#endif

struct il_codec *il_codec_open(enum il_compression kind, FILE *f, const char *name,
			       const unsigned char *head, size_t len, struct il_error *err)
{
	struct il_codec *c = calloc(1, sizeof(*c));
	int r = -1;

	if (!c || !(c->in = malloc(CODEC_IN_LEN)) || len > CODEC_IN_LEN) {
		free(c);
		il_trace_fail(err, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	c->fmt = find_format(kind);
	c->name = name;
	c->err = err;
	c->f = f;
	memcpy(c->in, head, len);
	c->in_len = len;
	c->raw_read = len;
	switch (kind) {
#ifdef HAVE_ZLIB
	case IL_CODEC_GZIP:
		r = gz_start(c);
		break;
#endif
#ifdef HAVE_LZMA
	case IL_CODEC_XZ:
		r = xz_start(c);
		break;
#endif
#ifdef HAVE_ZSTD
	case IL_CODEC_ZSTD:
		r = zst_start(c);
		break;
#endif
	default:
		break;
	}
	if (r < 0) {
		il_trace_fail(err, "cannot start the %s decoder", il_codec_name(kind));
		il_codec_close(c);
		errno = ENOMEM;
		return NULL;
	}
	return c;
}

ssize_t il_codec_read(struct il_codec *c, char *dst, size_t cap)
{
	if (!cap)
		return 0;
	switch (c->fmt->kind) {
#ifdef HAVE_ZLIB
	case IL_CODEC_GZIP:
		return gz_read(c, dst, cap);
#endif
#ifdef HAVE_LZMA
	case IL_CODEC_XZ:
		return xz_read(c, dst, cap);
#endif
#ifdef HAVE_ZSTD
	case IL_CODEC_ZSTD:
		return zst_read(c, dst, cap);
#endif
	default:
		errno = ENOTSUP;
		return -1;
	}
}

u64 il_codec_raw_read(const struct il_codec *c)
{
	return c->raw_read;
}

void il_codec_close(struct il_codec *c)
{
	if (!c)
		return;
	if (c->fmt) {
		switch (c->fmt->kind) {
#ifdef HAVE_ZLIB
		case IL_CODEC_GZIP:
			inflateEnd(&c->z);
			break;
#endif
#ifdef HAVE_LZMA
		case IL_CODEC_XZ:
			lzma_end(&c->x);
			break;
#endif
#ifdef HAVE_ZSTD
		case IL_CODEC_ZSTD:
			ZSTD_freeDStream(c->zs);
			break;
#endif
		default:
			break;
		}
	}
	free(c->in);
	free(c);
}
