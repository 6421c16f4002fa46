/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_STRV_H
#define RDMAIO_TOOLS_STRV_H

#include <json-c/json.h>

/* Appends s (not copied) to the growing array *v of *n strings; -ENOMEM. */
int rio_strv_push(char ***v, int *n, char *s);

/* The n strings of v as a JSON array (n < 0: up to a NULL entry). */
json_object *rio_strv_json(char *const *v, int n);

/* A NULL-terminated argv as one line, words joined by blanks (to show, not
 * to run). Malloc'd; NULL when out of memory. */
char *rio_strv_join(char *const *argv);

/*
 * Splits cmd on blanks into a NULL-terminated argv (no shell: no quotes, no
 * expansions) in which every "%" key becomes value and "%%" becomes "%"
 * (--remote-env's %h, --baseline's %o). Returns 0, or -EINVAL for a command
 * with no word. Free with rio_strv_free().
 */
int rio_strv_split(const char *cmd, char key, const char *value, char ***argv);
void rio_strv_free(char **argv);

#endif
