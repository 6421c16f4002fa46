/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_ENVDOC_H
#define RDMAIO_TOOLS_ENVDOC_H

#include <stddef.h>

#include <json-c/json.h>

/*
 * The `rdmaio env` document (schema "rdmaio-env/1", results-schema $defs/env):
 * this host's versions, description, environment and warnings, gathered by the
 * same functions `rdmaio run` uses for its own. fio is the binary to ask for
 * its version; root prefixes /proc and /sys ("" outside tests). NULL when
 * out of memory.
 */
json_object *rio_envdoc_describe(const char *fio, const char *root);

/*
 * Parses text as an rdmaio env document and validates it against the
 * built-in schema. On failure prints why, naming name (JSON syntax and the
 * byte where it stopped, another schema, or the first schema violation), and
 * returns -EINVAL.
 */
int rio_envdoc_parse(const char *text, size_t len, const char *name,
		     json_object **doc);

#endif
