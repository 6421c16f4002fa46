/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_ARENA_H
#define RDMAIO_TOOLS_ARENA_H

#include <stddef.h>

/*
 * The arrays of a model read from JSON, freed together: a model that
 * allocates only through its arena is freed in one call, whatever point
 * its reading stopped at. Zero-initialised: struct rio_arena a = { 0 }.
 */
struct rio_arena {
	void **v;
	size_t n;
};

/* n zeroed entries of size bytes, plus one (never NULL for n = 0), owned
 * by a; NULL when out of memory. */
void *rio_arena_calloc(struct rio_arena *a, size_t n, size_t size);

/* Frees every array of a; safe on an empty arena. */
void rio_arena_free(struct rio_arena *a);

#endif
