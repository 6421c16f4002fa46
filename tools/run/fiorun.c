// SPDX-License-Identifier: MIT
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/fiorun.h"
#include "result/fiooutput.h"
#include "result/hostmap.h"
#include "base/jsonread.h"
#include "rc_file.h"
#include "rc_log.h"
#include "rc_spawn.h"
#include "base/strv.h"
#include "base/tmpdir.h"

/*
 * fio's chatter before its JSON that says nothing went wrong: the job
 * lines ("NAME: (g=0): rw=...", "..." for numjobs), "Starting N processes",
 * "NAME: Laying out IO file (...)", a passive job's "fio: waiting for
 * connection", blank lines; in client mode each comes after "<HOST> ".
 */
static int noise(const char *line, size_t n)
{
	const char *end = line + n, *p;

	if (n && line[0] == '<' && (p = memchr(line, '>', n)) && p + 1 < end) {
		line = p + 2;
		n = end > line ? (size_t)(end - line) : 0;
	}
	while (n && (line[n - 1] == ' ' || line[n - 1] == '\r'))
		n--;
	if (!n || (n == 3 && !strncmp(line, "...", 3)) ||
	    (n >= 9 && !strncmp(line, "Starting ", 9)) ||
	    (n == 27 && !strncmp(line, "fio: waiting for connection", 27)))
		return 1;
	p = memchr(line, ':', n);
	return p && (((size_t)(end - p) > 6 && !strncmp(p, ": (g=", 5)) ||
		     ((size_t)(end - p) > 20 &&
		      !strncmp(p, ": Laying out IO file", 20)));
}

/* Prints the lines of text[0..end) that are not noise, each after prefix. */
static void print_kept(const char *prefix, const char *text, const char *end)
{
	const char *p, *eol;

	for (p = text; p < end; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;
		if (!noise(p, eol - p))
			fprintf(stderr, "%s%.*s\n", prefix, (int)(eol - p), p);
	}
}

/* Warns with the lines before the JSON that are not noise. */
static void warn_prefix(const char *name, const char *text, const char *json)
{
	const char *p, *eol;
	char *kept = NULL;
	size_t klen = 0;
	FILE *f = open_memstream(&kept, &klen);

	if (!f)
		return;
	for (p = text; p < json; p = eol + 1) {
		eol = memchr(p, '\n', json - p);
		if (!eol)
			eol = json;
		if (!noise(p, eol - p))
			fprintf(f, "%s%.*s", klen ? "\n" : "", (int)(eol - p),
				p);
		fflush(f);
	}
	fclose(f);
	if (klen)
		rc_warn("%s: fio printed text before its JSON: %s", name, kept);
	free(kept);
}

/* The first line that starts with '{', NULL when none. */
static const char *json_start(const char *text)
{
	const char *p = text;

	while (p && *p != '{') {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return p;
}

int rio_fio_parse(const char *text, size_t len, const char *name,
		  json_object **output)
{
	const char *p = json_start(text);
	int ret;

	if (!p) {
		rc_err("%s: no JSON object in fio's output (did fio run with --output-format=json or json+?)",
		       name);
		return -EINVAL;
	}
	if (p != text)
		warn_prefix(name, text, p);
	ret = rio_json_parse(p, len - (p - text), "fio output", name, output);
	if (ret)
		return ret;
	if (!rio_fio_output_is_fio(*output)) {
		rc_err("%s: JSON has no \"fio version\" and jobs[] or client_stats[]: not fio's JSON output",
		       name);
		json_object_put(*output);
		*output = NULL;
		return -EINVAL;
	}
	return 0;
}

struct argv_buf {
	char **v;
	char **owned; /* the "--client=HOST" and "--section=NAME" strings */
	int nowned;
};

static void free_argv(struct argv_buf *a)
{
	while (a->nowned)
		free(a->owned[--a->nowned]);
	free(a->owned);
	free(a->v);
}

static char *own(struct argv_buf *a, const char *opt, const char *val)
{
	char *s;

	if (asprintf(&s, "%s=%s", opt, val) < 0)
		return NULL;
	a->owned[a->nowned++] = s;
	return s;
}

/*
 * fio's client grammar: the job files right after --client=HOST go to that
 * host, and the options after them (--section) apply to that host alone.
 * With only set, just that job file, to the hosts that run some of it.
 */
static json_object *build_argv(const struct rio_fio_run *r, const char *only,
			       struct argv_buf *a)
{
	int n = 2 + r->njobs, nown = 0, i, h, k = 0;
	const struct rio_fio_host *ho;

	for (h = 0; h < r->nhosts; h++) {
		n += 1 + r->hosts[h].njobs + r->hosts[h].nsections;
		nown += 1 + r->hosts[h].nsections;
	}
	a->v = calloc(n + 1, sizeof(*a->v));
	a->owned = calloc(nown + 1, sizeof(*a->owned));
	a->nowned = 0;
	if (!a->v || !a->owned)
		goto fail;
	a->v[k++] = (char *)r->fio;
	a->v[k++] = "--output-format=json+";
	for (i = 0; !r->nhosts && i < r->njobs; i++)
		a->v[k++] = r->jobs[i];
	for (h = 0; h < r->nhosts; h++) {
		ho = &r->hosts[h];
		for (i = 0; only && i < ho->njobs && strcmp(ho->jobs[i], only);
		     i++)
			;
		if (only && i == ho->njobs)
			continue;
		if (!(a->v[k++] = own(a, "--client", ho->client)))
			goto fail;
		for (i = 0; i < ho->njobs; i++)
			if (!only || !strcmp(ho->jobs[i], only))
				a->v[k++] = ho->jobs[i];
		for (i = 0; i < ho->nsections; i++) {
			if (only && strcmp(ho->jobs[ho->section_job[i]], only))
				continue;
			if (!(a->v[k++] = own(a, "--section", ho->sections[i])))
				goto fail;
		}
	}
	return rio_strv_json(a->v, k);
fail:
	free_argv(a);
	return NULL;
}

/* Whether output has an entry of fio's from host (fio's name for it). */
static int host_has_entry(json_object *output, const char *host)
{
	json_object *a = rio_fio_output_entries(output), *e;
	const char *name;
	size_t i;

	for (i = 0; i < rio_json_len(a); i++) {
		e = json_object_array_get_idx(a, i);
		name = rio_json_str(e, "hostname");
		if (!rio_fio_output_is_sum(e) && name && !strcmp(name, host))
			return 1;
	}
	return 0;
}

/*
 * fio's client drops a host whose fio --server refuses the connection or
 * goes away before it runs, and still exits 0: its sum would then be of
 * fewer hosts than the run was given. Every host sent jobs (only: as
 * build_argv picks them) must have entries.
 */
static int hosts_all_ran(const struct rio_fio_run *r, const char *only,
			 json_object *output)
{
	const struct rio_fio_host *ho;
	char *name;
	int h, i, ret = 0;

	for (h = 0; h < r->nhosts && !ret; h++) {
		ho = &r->hosts[h];
		for (i = 0; only && i < ho->njobs && strcmp(ho->jobs[i], only);
		     i++)
			;
		if (only && i == ho->njobs)
			continue;
		name = rio_hostmap_fio_name(ho->client);
		if (!name) {
			rc_call_err(ENOMEM, "fio's hosts(%s)", ho->client);
			return -ENOMEM;
		}
		if (!host_has_entry(output, name)) {
			rc_err("fio ran no job on %s host %s%s%s: fio drops a host whose fio --server it cannot reach, and still exits 0 (its message is above); check that fio --server runs there and listens on that address (for a socket forwarded by ssh, that the far end's socket exists); no result written",
			       ho->role ? ho->role : "client",
			       ho->local
				       ? "local (this host's own fio --server)"
				       : ho->client,
			       only ? " for " : "", only ? only : "");
			ret = -EIO;
		}
		free(name);
	}
	return ret;
}

static int dash_name(const char *job)
{
	rc_err("job file %s: a name starting with '-' reads as a fio option; pass it as ./%s",
	       job, job);
	return -EINVAL;
}

/* One fio run: *output gets its JSON, runs its argv and exit status. */
static int run_once(const struct rio_fio_run *r, const char *only,
		    json_object *runs, int *exit_status, json_object **output)
{
	struct argv_buf argv = { 0 };
	json_object *jargv, *run;
	char *text = NULL;
	int fd, ret;
	size_t len;

	*output = NULL;
	jargv = build_argv(r, only, &argv);
	if (!jargv)
		return -ENOMEM;
	run = json_object_new_object();
	json_object_object_add(run, "argv", jargv);
	json_object_array_add(runs, run);
	fd = rio_tmpdir_scratch();
	if (fd < 0) {
		ret = fd;
		goto out;
	}
	if (r->edge)
		r->edge(r->tick_arg, 0);
	ret = rc_spawn_run_tick(argv.v, fd, r->timeout_s, r->tick, r->tick_arg);
	if (r->edge)
		r->edge(r->tick_arg, 1);
	if (ret < 0) {
		rc_err("cannot start fio '%s': %s (install fio or pass --fio PATH)",
		       r->fio, strerror(-ret));
		goto out;
	}
	*exit_status = ret;
	json_object_object_add(run, "exit_status", json_object_new_int(ret));
	if (ret) {
		/* In client mode the servers' messages came on fio's stdout,
		 * before its JSON. */
		if (r->nhosts &&
		    !rc_file_read_fd(fd, &text, &len, RIO_JSON_MAX_BYTES))
			print_kept("rdmaio: fio said: ", text,
				   json_start(text) ? json_start(text)
						    : text + len);
		if (ret == 128 + SIGPIPE && r->nhosts)
			rc_err("fio was killed by SIGPIPE: a fio --server it sent jobs to closed the connection (check that fio --server runs there; for a socket forwarded by ssh, that the far end's socket exists); no result written");
		else if (ret > 128)
			rc_err("fio was killed by signal %d (%s); no result written",
			       ret - 128, strsignal(ret - 128));
		else
			rc_err("fio exited with status %d (its messages are above); no result written",
			       ret);
		ret = -EIO;
		goto out;
	}
	ret = rc_file_read_fd(fd, &text, &len, RIO_JSON_MAX_BYTES);
	if (ret == -EFBIG)
		rc_err("fio printed more than %d MiB on its stdout, more than the JSON of any run (a fio --server it reached may be sending junk); no result written",
		       RIO_JSON_MAX_BYTES >> 20);
	else if (ret)
		rc_call_err(-ret, "read(%s)",
			    "fio's output from its scratch file");
	if (ret)
		goto out;
	ret = rio_fio_parse(text, len, "fio's stdout", output);
	if (!ret && r->nhosts && (ret = hosts_all_ran(r, only, *output))) {
		json_object_put(*output);
		*output = NULL;
	}
	if (!ret)
		json_object_object_add(
			run, "global_options",
			json_object_get(rio_fio_output_globals(*output)));
out:
	if (fd >= 0)
		close(fd);
	free(text);
	free_argv(&argv);
	return ret;
}

static int has_sections(const struct rio_fio_run *r)
{
	int h;

	for (h = 0; h < r->nhosts; h++)
		if (r->hosts[h].nsections)
			return 1;
	return 0;
}

int rio_fio_run(const struct rio_fio_run *r, json_object **runs,
		int *exit_status, json_object **output)
{
	json_object *one = NULL;
	int i, ret = 0;

	*output = NULL;
	/* fio would take such a name for an option. */
	for (i = 0; i < r->njobs; i++)
		if (r->jobs[i][0] == '-')
			return dash_name(r->jobs[i]);
	*runs = json_object_new_array();
	if (!has_sections(r))
		ret = run_once(r, NULL, *runs, exit_status, output);
	for (i = 0; has_sections(r) && i < r->njobs && !ret; i++) {
		ret = run_once(r, r->jobs[i], *runs, exit_status, &one);
		if (ret)
			break;
		if (!*output) {
			*output = one;
			/* Each run's [global] is one job file's: kept per run. */
			rio_fio_output_drop_globals(*output);
		} else {
			rio_fio_output_join(*output, one);
			json_object_put(one);
		}
		one = NULL;
	}
	if (ret) {
		json_object_put(*output);
		*output = NULL;
		json_object_put(*runs);
		*runs = NULL;
	}
	return ret;
}
