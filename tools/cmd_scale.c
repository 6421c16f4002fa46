// SPDX-License-Identifier: MIT
/* rdmaio scale: one set of jobs run by 1, 2, ... client hosts at once. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "base/text.h"
#include "rc_log.h"
#include "read/scaling.h"
#include "result/result.h"

static int load_all(struct rio_args *a, json_object **docs)
{
	int i;

	for (i = 0; i < a->npos; i++)
		if (rio_result_load(a->pos[i], &docs[i]) ||
		    rio_text_clean_json(docs[i], RIO_TEXT_MARKDOWN) < 0)
			return -EINVAL;
	return 0;
}

int rio_cmd_scale(struct rio_args *a)
{
	struct rio_scaling *s = NULL;
	json_object **docs;
	int i, ret = 2;

	if (a->npos < 2) {
		rc_err("scale: give two results or more, each of the same jobs run by another number of client hosts (rdmaio scale ONE.json TWO.json ...)");
		return 2;
	}
	docs = calloc(a->npos, sizeof(*docs));
	if (!docs)
		return 1;
	if (!load_all(a, docs)) {
		ret = rio_scaling_new(docs, (const char *const *)a->pos,
				      a->npos, &s);
		if (ret == -ENOMEM)
			rc_call_err(ENOMEM, "%s", "scale");
		/* What makes no scale was said: a usage error. */
		ret = ret == -EINVAL ? 2 : ret ? 1 : 0;
	}
	if (!ret) {
		ret = rio_scaling_report(s, stdout) ? 1 : 0;
		if (!ret && a->plot && rio_scaling_plot(s, a->plot))
			ret = 1;
	}
	rio_scaling_delete(&s);
	for (i = 0; i < a->npos; i++)
		json_object_put(docs[i]);
	free(docs);
	return ret;
}
