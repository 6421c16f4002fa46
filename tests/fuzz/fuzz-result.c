// SPDX-License-Identifier: MIT
/*
 * rdmaio's result loader and JSON Schema validator on any document: no
 * crash, no leak, and a document it accepts gives a host map.
 */
#include <json-c/json.h>
#include <stdint.h>
#include <stdlib.h>

#include "result/hostmap.h"
#include "result/result.h"
#include "result/schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *doc;
	char err[512];

	if (!tok)
		return 0;
	doc = json_tokener_parse_ex(tok, (const char *)data, (int)size);
	json_tokener_free(tok);
	if (!doc)
		return 0;
	if (rio_schema_validate_result(doc, err, sizeof(err)) == 0) {
		struct rio_hostmap *m = rio_result_hostmap(doc);

		rio_hostmap_delete(&m);
	}
	rio_schema_validate_env(doc, err, sizeof(err));
	json_object_put(doc);
	return 0;
}
