// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "result/envdoc.h"
#include "result/envstatus.h"
#include "result/host.h"
#include "base/jsonread.h"
#include "rc_log.h"
#include "result/schema.h"

#define ENVDOC_SCHEMA "rdmaio-env/1"

json_object *rio_envdoc_describe(const char *fio, const char *root)
{
	json_object *doc = json_object_new_object(), *host, *env, *warnings;
	char created[32];
	time_t now = time(NULL);
	struct tm tm;

	warnings = json_object_new_array();
	host = rio_host_describe(root);
	env = rio_envstatus_gather(root, warnings);
	if (!doc || !host || !env || rio_host_warn_cpu(host, warnings)) {
		json_object_put(doc);
		json_object_put(host);
		json_object_put(env);
		json_object_put(warnings);
		return NULL;
	}
	gmtime_r(&now, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_object_add(doc, "schema",
			       json_object_new_string(ENVDOC_SCHEMA));
	json_object_object_add(doc, "created", json_object_new_string(created));
	json_object_object_add(doc, "versions", rio_host_versions(fio));
	json_object_object_add(doc, "host", host);
	json_object_object_add(doc, "environment", env);
	json_object_object_add(doc, "warnings", warnings);
	return doc;
}

int rio_envdoc_parse(const char *text, size_t len, const char *name,
		     json_object **doc)
{
	const char *schema;
	char err[1024];
	int ret;

	*doc = NULL;
	ret = rio_json_parse(text, len, "rdmaio env document", name, doc);
	if (ret)
		return ret;
	schema = rio_json_str(*doc, "schema");
	if (!schema || strcmp(schema, ENVDOC_SCHEMA)) {
		rc_err("rdmaio env document %s: \"schema\" is %s%s%s, not \"" ENVDOC_SCHEMA
		       "\" (not the output of `rdmaio env`, or of an rdmaio of another version)",
		       name, schema ? "\"" : "", schema ? schema : "missing",
		       schema ? "\"" : "");
		ret = -EINVAL;
	} else if (rio_schema_validate_env(*doc, err, sizeof(err))) {
		rc_err("rdmaio env document %s: does not match results-schema/result.schema.json $defs/env %s",
		       name, err);
		ret = -EINVAL;
	}
	if (ret) {
		json_object_put(*doc);
		*doc = NULL;
	}
	return ret;
}
