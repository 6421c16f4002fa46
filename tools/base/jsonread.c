// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rc_file.h"
#include "base/jsonread.h"
#include "rc_log.h"

json_object *rio_json_get(json_object *obj, const char *key)
{
	json_object *v;

	if (!obj || !json_object_is_type(obj, json_type_object))
		return NULL;
	if (!json_object_object_get_ex(obj, key, &v))
		return NULL;
	return v;
}

double rio_json_num(json_object *obj, const char *key, double def)
{
	json_object *v = rio_json_get(obj, key);

	if (!v || !(json_object_is_type(v, json_type_int) ||
		    json_object_is_type(v, json_type_double)))
		return def;
	return json_object_get_double(v);
}

const char *rio_json_str(json_object *obj, const char *key)
{
	json_object *v = rio_json_get(obj, key);

	if (!v || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

size_t rio_json_len(json_object *arr)
{
	if (!arr || !json_object_is_type(arr, json_type_array))
		return 0;
	return json_object_array_length(arr);
}

json_object *rio_json_find(json_object *arr, const char *key, const char *value)
{
	const char *s;
	size_t i;

	if (!value)
		return NULL;
	for (i = 0; i < rio_json_len(arr); i++) {
		s = rio_json_str(json_object_array_get_idx(arr, i), key);
		if (s && !strcmp(s, value))
			return json_object_array_get_idx(arr, i);
	}
	return NULL;
}

json_object *rio_json_num_or_null(double v)
{
	if (isnan(v))
		return NULL;
	return json_object_new_double(v);
}

int rio_json_parse(const char *text, size_t len, const char *what,
		   const char *name, json_object **out)
{
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	json_object *o;
	size_t end;

	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	o = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (jerr == json_tokener_continue) {
		rc_err("%s %s: JSON ends early (truncated file?)", what, name);
		json_object_put(o);
		return -EINVAL;
	}
	if (!o || jerr != json_tokener_success) {
		rc_err("%s %s: not valid JSON at byte %zu: %s", what, name, end,
		       json_tokener_error_desc(jerr));
		json_object_put(o);
		return -EINVAL;
	}
	if (end < len && text[end + strspn(text + end, " \t\r\n")]) {
		rc_err("%s %s: unexpected data after the JSON value at byte %zu",
		       what, name, end);
		json_object_put(o);
		return -EINVAL;
	}
	if (!json_object_is_type(o, json_type_object)) {
		rc_err("%s %s: top level is not a JSON object", what, name);
		json_object_put(o);
		return -EINVAL;
	}
	*out = o;
	return 0;
}

int rio_json_load(const char *path, const char *what, json_object **out)
{
	char *text;
	size_t len;
	int ret;

	ret = rc_file_read(path, &text, &len, RIO_JSON_MAX_BYTES);
	if (ret == -EFBIG)
		rc_err("%s %s: larger than %d MiB, more than any fio run or rdmaio result makes: not loaded (check that it is the file you meant)",
		       what, path, RIO_JSON_MAX_BYTES >> 20);
	else if (ret)
		rc_err("%s %s: cannot read it: %s", what, path, strerror(-ret));
	if (ret)
		return ret;
	ret = rio_json_parse(text, len, what, path, out);
	free(text);
	return ret;
}
