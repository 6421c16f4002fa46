// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json_pointer.h>

#include "base/jsonread.h"
#include "result/schema.h"

/* The schema file is the single source: the assembler copies it in. */
__asm__(".pushsection .rodata\n"
	".balign 16\n"
	".globl rio_schema_blob\n"
	".hidden rio_schema_blob\n"
	"rio_schema_blob:\n"
	".incbin \"" RDMAIO_SCHEMA_FILE "\"\n"
	".byte 0\n"
	".popsection\n");

extern const char rio_schema_blob[] __attribute__((visibility("hidden")));

const char *rio_schema_text(void)
{
	return rio_schema_blob;
}

struct vctx {
	json_object *root;
	char *err;
	size_t errlen;
	char path[1024];
};

static int fail(struct vctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct vctx *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "at %s: %s", *c->path ? c->path : "/", msg);
	return -EINVAL;
}

static int validate(struct vctx *c, json_object *s, json_object *v);

static const char *type_name(json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "boolean";
	case json_type_double:
		return "number";
	case json_type_int:
		return "integer";
	case json_type_object:
		return "object";
	case json_type_array:
		return "array";
	case json_type_string:
		return "string";
	}
	return "unknown";
}

static int type_is(json_object *v, const char *t)
{
	const char *have = type_name(v);
	double d;

	if (!strcmp(t, have))
		return 1;
	if (!strcmp(t, "number"))
		return !strcmp(have, "integer");
	if (!strcmp(t, "integer") && !strcmp(have, "number")) {
		d = json_object_get_double(v);
		return isfinite(d) && d == floor(d);
	}
	return 0;
}

static int check_type(struct vctx *c, json_object *t, json_object *v)
{
	size_t i;

	if (json_object_is_type(t, json_type_string))
		return type_is(v, json_object_get_string(t))
			       ? 0
			       : fail(c, "expected %s",
				      json_object_get_string(t));
	for (i = 0; i < rio_json_len(t); i++)
		if (type_is(v, json_object_get_string(
				       json_object_array_get_idx(t, i))))
			return 0;
	return fail(c, "expected one of %s",
		    json_object_to_json_string_ext(t, JSON_C_TO_STRING_PLAIN));
}

/* Descends into a member or element, keeping the JSON pointer for errors. */
static int validate_at(struct vctx *c, json_object *s, json_object *v,
		       const char *key, size_t idx)
{
	size_t len = strlen(c->path);
	int ret;

	if (key)
		snprintf(c->path + len, sizeof(c->path) - len, "/%s", key);
	else
		snprintf(c->path + len, sizeof(c->path) - len, "/%zu", idx);
	ret = validate(c, s, v);
	if (!ret)
		c->path[len] = '\0';
	return ret;
}

static int check_object(struct vctx *c, json_object *s, json_object *v)
{
	json_object *props = rio_json_get(s, "properties");
	json_object *req = rio_json_get(s, "required");
	json_object *addl = rio_json_get(s, "additionalProperties");
	json_object *ps;
	size_t i;
	int ret;

	if (!json_object_is_type(v, json_type_object))
		return 0;
	for (i = 0; req && i < rio_json_len(req); i++) {
		const char *k = json_object_get_string(
			json_object_array_get_idx(req, i));

		if (!json_object_object_get_ex(v, k, NULL))
			return fail(c, "missing required member \"%s\"", k);
	}
	json_object_object_foreach(v, key, val)
	{
		ps = NULL;
		if (props && json_object_object_get_ex(props, key, &ps))
			ret = validate_at(c, ps, val, key, 0);
		else if (addl && json_object_is_type(addl, json_type_boolean))
			ret = json_object_get_boolean(addl)
				      ? 0
				      : fail(c, "unexpected member \"%s\"",
					     key);
		else if (addl)
			ret = validate_at(c, addl, val, key, 0);
		else
			ret = 0;
		if (ret)
			return ret;
	}
	return 0;
}

static int check_pattern(struct vctx *c, const char *re, json_object *v)
{
	regex_t rx;
	int ret;

	if (!json_object_is_type(v, json_type_string))
		return 0;
	if (regcomp(&rx, re, REG_EXTENDED | REG_NOSUB))
		return fail(c, "schema pattern %s does not compile", re);
	ret = regexec(&rx, json_object_get_string(v), 0, NULL, 0);
	regfree(&rx);
	return ret ? fail(c, "does not match pattern %s", re) : 0;
}

/* minimum or exclusiveMinimum (k) kv, of a number. */
static int check_minimum(struct vctx *c, const char *k, json_object *kv,
			 json_object *v)
{
	double d;

	if (!type_is(v, "number"))
		return 0;
	d = json_object_get_double(v);
	if (d < json_object_get_double(kv) ||
	    (k[0] == 'e' && d == json_object_get_double(kv)))
		return fail(c, "below the %s", k);
	return 0;
}

static int check_keyword(struct vctx *c, const char *k, json_object *kv,
			 json_object *s, json_object *v)
{
	size_t i;

	if (!strcmp(k, "type"))
		return check_type(c, kv, v);
	if (!strcmp(k, "const"))
		return json_object_equal(kv, v)
			       ? 0
			       : fail(c, "must be %s",
				      json_object_to_json_string(kv));
	if (!strcmp(k, "enum")) {
		for (i = 0; i < rio_json_len(kv); i++)
			if (json_object_equal(json_object_array_get_idx(kv, i),
					      v))
				return 0;
		return fail(c, "must be one of %s",
			    json_object_to_json_string_ext(
				    kv, JSON_C_TO_STRING_PLAIN));
	}
	if (!strcmp(k, "properties") || !strcmp(k, "required") ||
	    !strcmp(k, "additionalProperties"))
		return strcmp(k, "properties") ? 0 : check_object(c, s, v);
	if (!strcmp(k, "items")) {
		for (i = 0; json_object_is_type(v, json_type_array) &&
			    i < rio_json_len(v);
		     i++)
			if (validate_at(c, kv, json_object_array_get_idx(v, i),
					NULL, i))
				return -EINVAL;
		return 0;
	}
	if (!strcmp(k, "pattern"))
		return check_pattern(c, json_object_get_string(kv), v);
	if (!strcmp(k, "minimum") || !strcmp(k, "exclusiveMinimum"))
		return check_minimum(c, k, kv, v);
	if (!strcmp(k, "minItems"))
		return !json_object_is_type(v, json_type_array) ||
				       rio_json_len(v) >=
					       (size_t)json_object_get_int64(kv)
			       ? 0
			       : fail(c, "has fewer items than its minItems %s",
				      json_object_get_string(kv));
	if (!strcmp(k, "anyOf")) {
		char save[sizeof(c->path)];

		memcpy(save, c->path, sizeof(save));
		for (i = 0; i < rio_json_len(kv); i++) {
			if (!validate(c, json_object_array_get_idx(kv, i), v))
				return 0;
			memcpy(c->path, save, sizeof(save));
		}
		return fail(c, "matches none of the allowed forms (%s)",
			    c->err);
	}
	if (!strcmp(k, "$ref")) {
		const char *ref = json_object_get_string(kv);
		json_object *target;

		if (ref[0] != '#' ||
		    json_pointer_get(c->root, ref + 1, &target))
			return fail(c, "schema $ref %s cannot be resolved",
				    ref);
		return validate(c, target, v);
	}
	if (!strcmp(k, "$schema") || !strcmp(k, "$id") || !strcmp(k, "title") ||
	    !strcmp(k, "description") || !strcmp(k, "$defs") ||
	    !strcmp(k, "$comment"))
		return 0;
	return fail(c,
		    "schema keyword %s is not supported by rdmaio's validator",
		    k);
}

static int validate(struct vctx *c, json_object *s, json_object *v)
{
	int ret;

	if (json_object_is_type(s, json_type_boolean))
		return json_object_get_boolean(s)
			       ? 0
			       : fail(c, "%s", "not allowed");
	json_object_object_foreach(s, k, kv)
	{
		ret = check_keyword(c, k, kv, s, v);
		if (ret)
			return ret;
	}
	/* additionalProperties without properties still constrains members. */
	if (!rio_json_get(s, "properties") &&
	    (rio_json_get(s, "required") ||
	     rio_json_get(s, "additionalProperties")))
		return check_object(c, s, v);
	return 0;
}

int rio_schema_validate(json_object *schema, json_object *doc, char *err,
			size_t errlen)
{
	struct vctx c = { .root = schema, .err = err, .errlen = errlen };

	err[0] = '\0';
	return validate(&c, schema, doc);
}

/* Validates doc against the built-in schema's member at pointer ("": all). */
static int validate_builtin(const char *pointer, json_object *doc, char *err,
			    size_t errlen)
{
	const char *text = rio_schema_text();
	json_object *schema, *target;
	struct vctx c = { .err = err, .errlen = errlen };
	int ret;

	err[0] = '\0';
	ret = rio_json_parse(text, strlen(text), "built-in schema",
			     "result.schema.json", &schema);
	if (ret) {
		snprintf(err, errlen, "built-in schema does not parse");
		return ret;
	}
	if (json_pointer_get(schema, pointer, &target)) {
		snprintf(err, errlen, "built-in schema has no %s", pointer);
		ret = -EINVAL;
	} else {
		c.root = schema;
		ret = validate(&c, target, doc);
	}
	json_object_put(schema);
	return ret;
}

int rio_schema_validate_result(json_object *doc, char *err, size_t errlen)
{
	return validate_builtin("", doc, err, errlen);
}

int rio_schema_validate_env(json_object *doc, char *err, size_t errlen)
{
	return validate_builtin("/$defs/env", doc, err, errlen);
}
