// SPDX-License-Identifier: GPL-2.0-only
/*
 * blob.c - git's blob id of a file (what `git hash-object FILE` prints), so that kgov can say
 * which upstream version a file is and find the built-in preset that follows it.
 *
 * The id is the SHA-1 (FIPS 180-4) of "blob <length>\0" followed by the bytes.
 */
#include <stdio.h>
#include <string.h>

#include "kgov.h"

struct sha1 {
	uint32_t h[5];
	uint64_t len;          /* bytes hashed so far */
	unsigned char buf[64];
	size_t fill;
};

static uint32_t rol(uint32_t v, int n)
{
	return (v << n) | (v >> (32 - n));
}

static void sha1_block(struct sha1 *c, const unsigned char *p)
{
	uint32_t w[80], a = c->h[0], b = c->h[1], d3 = c->h[2], d = c->h[3], e = c->h[4];

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 80; i++)
		w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	for (int i = 0; i < 80; i++) {
		uint32_t f, k, t;

		if (i < 20) {
			f = (b & d3) | (~b & d);
			k = 0x5a827999;
		} else if (i < 40) {
			f = b ^ d3 ^ d;
			k = 0x6ed9eba1;
		} else if (i < 60) {
			f = (b & d3) | (b & d) | (d3 & d);
			k = 0x8f1bbcdc;
		} else {
			f = b ^ d3 ^ d;
			k = 0xca62c1d6;
		}
		t = rol(a, 5) + f + e + k + w[i];
		e = d;
		d = d3;
		d3 = rol(b, 30);
		b = a;
		a = t;
	}
	c->h[0] += a;
	c->h[1] += b;
	c->h[2] += d3;
	c->h[3] += d;
	c->h[4] += e;
}

static void sha1_init(struct sha1 *c)
{
	static const uint32_t h0[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476,
					0xc3d2e1f0 };

	memcpy(c->h, h0, sizeof(h0));
	c->len = 0;
	c->fill = 0;
}

static void sha1_update(struct sha1 *c, const void *data, size_t n)
{
	const unsigned char *p = data;

	c->len += n;
	while (n) {
		size_t take = 64 - c->fill < n ? 64 - c->fill : n;

		memcpy(c->buf + c->fill, p, take);
		c->fill += take;
		p += take;
		n -= take;
		if (c->fill == 64) {
			sha1_block(c, c->buf);
			c->fill = 0;
		}
	}
}

static void sha1_final(struct sha1 *c, unsigned char out[20])
{
	uint64_t bits = c->len * 8;
	unsigned char pad = 0x80, zero = 0, lenbuf[8];

	sha1_update(c, &pad, 1);
	while (c->fill != 56)
		sha1_update(c, &zero, 1);
	for (int i = 0; i < 8; i++)
		lenbuf[i] = (unsigned char)(bits >> (56 - 8 * i));
	sha1_update(c, lenbuf, 8);
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 4; j++)
			out[4 * i + j] = (unsigned char)(c->h[i] >> (24 - 8 * j));
}

void kgov_blob_sha1(const void *data, size_t len, char hex[41])
{
	struct sha1 c;
	unsigned char digest[20];
	char header[32];
	int n = snprintf(header, sizeof(header), "blob %zu", len);

	sha1_init(&c);
	sha1_update(&c, header, (size_t)n + 1); /* with its NUL */
	sha1_update(&c, data, len);
	sha1_final(&c, digest);
	for (int i = 0; i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}
