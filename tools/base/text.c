// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"

/* The length of the UTF-8 sequence at s (1-4) and its code point in *cp,
 * or 0 when it is not one: overlong forms, surrogates and values past
 * U+10FFFF are not UTF-8 either. */
static int utf8_seq(const unsigned char *s, unsigned *cp)
{
	static const unsigned min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	int n, i;

	if (s[0] < 0x80)
		n = 1, *cp = s[0];
	else if ((s[0] & 0xe0) == 0xc0)
		n = 2, *cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, *cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, *cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	if (*cp < min[n] || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return n;
}

/* Code points a terminal acts on instead of showing: C0, DEL, C1, and the
 * bidirectional embeddings, overrides and isolates that reorder a line. */
static int is_control(unsigned cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) ||
	       (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f;
}

/* Writes the cleaned s to out (NULL: only counts) and returns its length. */
static size_t clean_into(char *out, const char *s, int flags)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = 0;
	unsigned cp;
	int n;

	while (*p) {
		n = utf8_seq(p, &cp);
		if (!n || is_control(cp)) {
			if (out)
				out[len] = '?';
			len++;
			p += n ? n : 1;
			continue;
		}
		if (cp == '|' && (flags & RIO_TEXT_MARKDOWN)) {
			if (out)
				out[len] = '\\';
			len++;
		}
		if (out)
			memcpy(out + len, p, n);
		len += n;
		p += n;
	}
	if (out)
		out[len] = '\0';
	return len;
}

int rio_text_is_clean(const char *s, int flags)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned cp;
	int n;

	for (; *p; p += n) {
		n = utf8_seq(p, &cp);
		if (!n || is_control(cp) ||
		    (cp == '|' && (flags & RIO_TEXT_MARKDOWN)))
			return 0;
	}
	return 1;
}

char *rio_text_clean(const char *s, int flags)
{
	char *out = malloc(clean_into(NULL, s, flags) + 1);

	if (out)
		clean_into(out, s, flags);
	return out;
}

int rio_text_clean_json(json_object *doc, int flags)
{
	const char *s;
	int n = 0, k;
	char *c;
	size_t i;

	switch (json_object_get_type(doc)) {
	case json_type_string:
		s = json_object_get_string(doc);
		if (rio_text_is_clean(s, flags))
			return 0;
		c = rio_text_clean(s, flags);
		if (!c || json_object_set_string(doc, c) != 1) {
			free(c);
			return -ENOMEM;
		}
		free(c);
		return 1;
	case json_type_array:
		for (i = 0; i < json_object_array_length(doc); i++) {
			k = rio_text_clean_json(
				json_object_array_get_idx(doc, i), flags);
			if (k < 0)
				return k;
			n += k;
		}
		return n;
	case json_type_object: {
		json_object_object_foreach(doc, key, val)
		{
			(void)key;
			k = rio_text_clean_json(val, flags);
			if (k < 0)
				return k;
			n += k;
		}
		return n;
	}
	default:
		return 0;
	}
}
