// SPDX-License-Identifier: MIT
/* rdmaio check: the checks of a fio JSON or a result, printed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "base/jsonread.h"
#include "base/text.h"
#include "rc_log.h"
#include "result/check.h"
#include "result/fiooutput.h"
#include "result/hostmap.h"
#include "result/result.h"
#include "result/resultenv.h"
#include "result/resultdoc.h"
#include "result/runrecord.h"

/* Some check is flagged: not a failure to run, not a pass either. */
#define EXIT_FLAGGED 3

static int is_fio_output(json_object *output)
{
	return rio_fio_output_is_fio(output) && rio_fio_output_count(output);
}

/*
 * Cleans every string of doc for the terminal but the job files' texts,
 * which only the checks parse (a job's options that fio left out) and
 * which nothing prints: their lines would run into one.
 */
static int clean_but_job_texts(json_object *doc)
{
	json_object *jf = rio_json_get(doc, "job_files"), *f, **texts;
	size_t i, n = rio_json_len(jf);
	int ret;

	texts = calloc(n ? n : 1, sizeof(*texts));
	if (!texts)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		f = json_object_array_get_idx(jf, i);
		/* A hand-made result may hold anything there. */
		if (!json_object_is_type(f, json_type_object))
			continue;
		texts[i] = json_object_get(rio_json_get(f, "text"));
		json_object_object_del(f, "text");
	}
	ret = rio_text_clean_json(doc, 0);
	for (i = 0; i < n; i++)
		if (texts[i])
			json_object_object_add(json_object_array_get_idx(jf, i),
					       "text", texts[i]);
	free(texts);
	return ret;
}

/* A fio JSON, or a result and the fio output in it (a new reference; NULL
 * for a result of rounds, whose every round has its own). */
static int check_input(const char *path, json_object **doc,
		       json_object **output)
{
	if (rio_json_load(path, "input", doc))
		return 1;
	if (clean_but_job_texts(*doc) < 0) {
		json_object_put(*doc);
		return 1;
	}
	*output = rio_result_nrounds(*doc)
			  ? NULL
			  : json_object_get(rio_result_fio_output(*doc));
	if (!*output || is_fio_output(*output))
		return 0;
	rc_err("check: %s is neither fio JSON output (with jobs) nor an rdmaio result",
	       path);
	json_object_put(*output);
	json_object_put(*doc);
	return 1;
}

/* The checks and warnings, read through the result's model. */
static int print_checks(json_object *checks, json_object *warnings)
{
	json_object *doc = json_object_new_object();
	const struct rio_res_check *c;
	struct rio_resultdoc *rd;
	size_t i, j;
	int err;

	if (!doc)
		return -ENOMEM;
	json_object_object_add(doc, "checks", json_object_get(checks));
	json_object_object_add(doc, "warnings", json_object_get(warnings));
	err = rio_resultdoc_read(doc, &rd);
	json_object_put(doc);
	if (err)
		return err;
	for (i = 0; i < rio_resultdoc_nchecks(rd); i++) {
		c = rio_resultdoc_check(rd, i);
		printf("%s %s: %s\n", c->status, c->name, c->message);
		for (j = 0; j < c->ncauses; j++)
			printf("  %s: %s\n",
			       strcmp(c->name, "fairness") ? "likely cause"
							   : "fix",
			       c->causes[j]);
	}
	for (i = 0; i < rio_resultdoc_nwarnings(rd); i++)
		printf("warning: %s\n", rio_resultdoc_warning(rd, i)->message);
	rio_resultdoc_delete(&rd);
	return 0;
}

/* Checks one run of fio (doc: a fio JSON, a result, a round of one) and
 * prints them; returns how many are flagged, -1 when out of memory. A
 * result's job files say whose [global] fio's "global options" are. */
static int check_run(json_object *doc, json_object *output,
		     const struct rio_hostmap *map,
		     const struct rio_links *links)
{
	struct rio_resultenv *env = NULL;
	json_object *checks, *warnings;
	struct rio_fio_argvs runs;
	struct rio_fio_output *fio;
	int flagged = 0;

	if (rio_resultenv_read(doc, &env)) {
		rc_err("check: out of memory reading the result's hosts");
		return -1;
	}
	if (rio_fio_output_read(output, (int)rio_resultenv_njob_files(env), map,
				&fio)) {
		rc_err("check: out of memory reading fio's output");
		rio_resultenv_delete(&env);
		return -1;
	}
	if (rio_runrecord_argvs_read(rio_result_fio_runs(doc), &runs)) {
		rc_err("check: out of memory reading fio's command lines");
		rio_fio_output_delete(&fio);
		rio_resultenv_delete(&env);
		return -1;
	}
	warnings = json_object_new_array();
	checks = rio_check_run(fio, &runs, map, links, warnings, &flagged);
	rio_runrecord_argvs_free(&runs);
	if (checks) {
		rio_check_nfs_transport(fio, map, env, checks, &flagged);
		if (!rio_result_is_bare_fio(doc)) {
			rio_check_loopback(fio, env, checks, &flagged);
			rio_check_fairness(fio, env,
					   rio_json_get(doc, "job_files"),
					   links, checks, &flagged);
			rio_check_numa(fio, rio_json_get(doc, "job_files"), map,
				       rio_json_get(rio_json_get(doc, "host"),
						    "numa"),
				       checks, &flagged);
		}
	}
	if (!checks || print_checks(checks, warnings)) {
		rc_err("check: out of memory making or printing the checks");
		flagged = -1;
	}
	rio_fio_output_delete(&fio);
	rio_resultenv_delete(&env);
	json_object_put(checks);
	json_object_put(warnings);
	return flagged;
}

/* Each round of a result of rounds, as the run of fio it was; -1 when one
 * holds no fio output. */
static int check_rounds(const char *path, json_object *doc,
			const struct rio_hostmap *map,
			const struct rio_links *links)
{
	int k, n = rio_result_nrounds(doc), flagged = 0, r;
	json_object *view, *output;

	for (k = 0; k < n && flagged >= 0; k++) {
		view = rio_result_round_view(doc, k);
		output = json_object_get(rio_result_fio_output(view));
		if (is_fio_output(output)) {
			printf("%sround %d of %d:\n", k ? "\n" : "", k + 1, n);
			r = check_run(view, output, map, links);
			flagged = r < 0 ? -1 : flagged + r;
		} else {
			rc_err("check: %s: round %d holds no fio output with jobs (not an rdmaio result of rounds)",
			       path, k + 1);
			flagged = -1;
		}
		json_object_put(output);
		json_object_put(view);
	}
	return flagged;
}

int rio_cmd_check(struct rio_args *a)
{
	struct rio_hostmap *map = NULL;
	json_object *doc, *output;
	struct rio_links links;
	int flagged = 0, ret = 1;

	if (a->npos != 1) {
		rc_err("check: give one fio JSON or rdmaio result (rdmaio check FILE.json)");
		return 2;
	}
	if (check_input(a->pos[0], &doc, &output))
		return 1;
	switch (rio_check_links(&a->link, rio_result_env_status(doc), &links)) {
	case 0:
		map = rio_result_hostmap(doc);
		break;
	case -EINVAL:
		ret = 2;
		break;
	default:
		rc_call_err(ENOMEM, "check: the links of %s", a->pos[0]);
	}
	if (map) {
		flagged = output ? check_run(doc, output, map, &links)
				 : check_rounds(a->pos[0], doc, map, &links);
		ret = flagged < 0 ? 1 : flagged ? EXIT_FLAGGED : 0;
	}
	rio_hostmap_delete(&map);
	rio_check_links_free(&links);
	json_object_put(output);
	json_object_put(doc);
	return ret;
}
