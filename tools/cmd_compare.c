// SPDX-License-Identifier: MIT
/* rdmaio compare: two results, and whether a change is beyond noise. */
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "base/text.h"
#include "rc_log.h"
#include "read/compare.h"
#include "result/result.h"

int rio_cmd_compare(struct rio_args *a)
{
	json_object *old_doc = NULL, *new_doc = NULL;
	int ret = 2, n;

	if (a->npos != 2) {
		rc_err("compare: give two result files (rdmaio compare OLD.json NEW.json)");
		return 2;
	}
	if (!rio_result_load(a->pos[0], &old_doc) &&
	    !rio_result_load(a->pos[1], &new_doc) &&
	    rio_text_clean_json(old_doc, RIO_TEXT_MARKDOWN) >= 0 &&
	    rio_text_clean_json(new_doc, RIO_TEXT_MARKDOWN) >= 0) {
		n = rio_compare(old_doc, new_doc, a->noise, stdout);
		ret = n < 0 ? 2 : n > 0;
		if (n < 0)
			rc_err("compare: %s: nothing compared", strerror(-n));
	}
	json_object_put(old_doc);
	json_object_put(new_doc);
	return ret;
}
