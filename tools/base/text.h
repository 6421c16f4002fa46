/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_TEXT_H
#define RDMAIO_TOOLS_TEXT_H

#include <json-c/json.h>
#include <stddef.h>

/*
 * Text that came from a result, a job file, fio or another host, made safe
 * to show: it may hold anything, but a terminal must not take it for
 * control sequences, and a report must not take it for its own lines. Each
 * control character (C0, DEL, C1), bidirectional override and byte that is
 * not UTF-8 becomes one '?'; with RIO_TEXT_MARKDOWN a '|' also becomes
 * "\|", so a name cannot add a column to a Markdown table.
 */
#define RIO_TEXT_MARKDOWN 1

/* The cleaned s; the caller frees it. NULL when out of memory. */
char *rio_text_clean(const char *s, int flags);

/* 1 when s needs no cleaning. */
int rio_text_is_clean(const char *s, int flags);

/* Cleans every string value in doc, in place; how many changed, or
 * -ENOMEM. For documents that are only shown, never written back. */
int rio_text_clean_json(json_object *doc, int flags);

#endif
