/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_JSONREAD_H
#define RDMAIO_TOOLS_JSONREAD_H

#include <json-c/json.h>

/* fio's JSON or a result: larger is no file rdmaio or fio makes. */
#define RIO_JSON_MAX_BYTES (512 << 20)

/* obj[key] or NULL when obj is not an object or has no such key. */
json_object *rio_json_get(json_object *obj, const char *key);

/* obj[key] as a double; def when absent or not a number. */
double rio_json_num(json_object *obj, const char *key, double def);

/* obj[key] as a string; NULL when absent or not a string. */
const char *rio_json_str(json_object *obj, const char *key);

/* Length of an array; 0 for NULL or a non-array (json-c asserts). */
size_t rio_json_len(json_object *arr);

/*
 * The first member of arr whose key is the string value, or NULL; a member
 * without that string never matches, nor does anything when value is NULL.
 */
json_object *rio_json_find(json_object *arr, const char *key,
			   const char *value);

/* A number, or JSON null for NaN. */
json_object *rio_json_num_or_null(double v);

/*
 * Parses text that must hold exactly one JSON object; errors name what/name
 * and the byte where parsing stopped.
 */
int rio_json_parse(const char *text, size_t len, const char *what,
		   const char *name, json_object **out);

/* Parses a whole file; prints an error naming the file and the cause. */
int rio_json_load(const char *path, const char *what, json_object **out);

#endif
