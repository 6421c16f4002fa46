// SPDX-License-Identifier: MIT
#include <stdlib.h>

#include "base/arena.h"

void *rio_arena_calloc(struct rio_arena *a, size_t n, size_t size)
{
	void **v = realloc(a->v, (a->n + 1) * sizeof(*v));
	void *p;

	if (!v)
		return NULL;
	a->v = v;
	p = calloc(n + 1, size);
	if (p)
		a->v[a->n++] = p;
	return p;
}

void rio_arena_free(struct rio_arena *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	*a = (struct rio_arena){ 0 };
}
