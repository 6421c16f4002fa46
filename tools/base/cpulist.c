// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpulist.h"

static int number(const char **p, unsigned long *v)
{
	char *end;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	*v = strtoul(*p, &end, 10);
	*p = end;
	return *v < RIO_CPULIST_MAX ? 0 : -EINVAL;
}

int rio_cpulist_parse(const char *list, unsigned char *set)
{
	const char *p = list;
	unsigned long a, b;

	memset(set, 0, RIO_CPULIST_MAX / 8);
	for (;;) {
		if (number(&p, &a))
			return -EINVAL;
		b = a;
		if (*p == '-' && (p++, number(&p, &b) || b < a))
			return -EINVAL;
		for (; a <= b; a++)
			set[a / 8] |= (unsigned char)(1u << (a % 8));
		if (*p != ',')
			break;
		p++;
	}
	return *p && strcmp(p, "\n") ? -EINVAL : 0;
}

int rio_cpulist_within(const unsigned char *a, const unsigned char *b)
{
	size_t i;

	for (i = 0; i < RIO_CPULIST_MAX / 8; i++)
		if (a[i] & ~b[i])
			return 0;
	return 1;
}
