/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_SCHEMA_H
#define RDMAIO_TOOLS_SCHEMA_H

#include <stddef.h>

#include <json-c/json.h>

/* results-schema/result.schema.json, built into the binary. */
const char *rio_schema_text(void);

/*
 * Validates doc against schema (a JSON Schema using the keywords our schema
 * uses: type, const, enum, required, properties, additionalProperties,
 * items, pattern, minimum, exclusiveMinimum, anyOf, $ref to "#/..."). Returns
 * 0, or -EINVAL with the first problem and its JSON pointer in err.
 */
int rio_schema_validate(json_object *schema, json_object *doc, char *err,
			size_t errlen);

/* Validates against the built-in result schema. */
int rio_schema_validate_result(json_object *doc, char *err, size_t errlen);

/* Validates an `rdmaio env` document (the schema's $defs/env). */
int rio_schema_validate_env(json_object *doc, char *err, size_t errlen);

#endif
