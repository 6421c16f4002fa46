// SPDX-License-Identifier: MIT
/* rdmaio env: this host's rdmaio-env/1 document, printed or written. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "rc_file.h"
#include "rc_log.h"
#include "result/envdoc.h"
#include "result/outfile.h"

int rio_cmd_env(struct rio_args *a)
{
	json_object *doc, *back = NULL;
	const char *text;
	int ret;

	if (a->npos) {
		rc_err("env: takes no file argument (rdmaio env [-o FILE]); '%s' is one",
		       a->pos[0]);
		return 2;
	}
	if (a->output &&
	    rio_outfile_check(a->output, "rdmaio-env/",
			      "an `rdmaio env` document", a->force, NULL, 0))
		return 1;
	doc = rio_envdoc_describe(a->fio, "");
	if (!doc) {
		rc_call_err(ENOMEM, "env: describe this host");
		return 1;
	}
	text = json_object_to_json_string_ext(
		doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			     JSON_C_TO_STRING_NOSLASHESCAPE);
	/* Check the very bytes a reader will get, as run does for results. */
	ret = text ? rio_envdoc_parse(text, strlen(text), "(this host's)",
				      &back)
		   : -ENOMEM;
	json_object_put(back);
	if (ret) {
		rc_err("env: the document does not validate; nothing written (this is a bug in rdmaio: please report it)");
	} else if (a->output) {
		ret = rc_file_replace(a->output, text, strlen(text), 0644);
		if (ret)
			rc_err("env: cannot write %s: %s (check the folder exists and is writable)",
			       a->output, strerror(-ret));
	} else if (printf("%s\n", text) < 0 || fflush(stdout)) {
		rc_call_err(errno, "write(%s)", "stdout");
		ret = -EIO;
	}
	json_object_put(doc);
	return ret ? 1 : 0;
}
