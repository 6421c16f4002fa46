/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_STREQ_H
#define RDMAIO_TOOLS_STREQ_H

#include <string.h>

/* Whether a and b are both set and equal: a name that is not there never
 * matches. */
static inline int rio_streq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* Whether a and b are equal, two absent strings included: for a key of
 * several parts of which a document may lack one in both places. */
static inline int rio_streq_or_null(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

#endif
