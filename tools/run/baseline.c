// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/baseline.h"
#include "result/cpustat.h"
#include "rc_log.h"
#include "rc_spawn.h"
#include "base/strv.h"
#include "base/tmpdir.h"

#define NAME_MAX_LEN 32

struct rio_baseline {
	char *name;
	char *cmd;
};

/* A name that can stand in a table, a CSV field and a file name. */
static bool good_name(const char *s, size_t n)
{
	size_t i;

	if (!n || n > NAME_MAX_LEN)
		return false;
	for (i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._-",
			    s[i]))
			return false;
	return s[0] != '.' && s[0] != '-';
}

/* Whether cmd has %o, not counting an escaped %%o. */
static bool has_out(const char *cmd)
{
	const char *p;

	for (p = cmd; *p; p++) {
		if (p[0] != '%')
			continue;
		if (p[1] == 'o')
			return true;
		if (p[1] == '%')
			p++;
	}
	return false;
}

int rio_baseline_parse(const char *spec, struct rio_baseline **out)
{
	const char *eq = strchr(spec, '=');
	struct rio_baseline *b;

	*out = NULL;
	if (!eq) {
		rc_err("run: --baseline '%s': give NAME=CMD, e.g. 'scp=scp HOST:/srv/FILE %%o' (%%o: the copy it writes on this host)",
		       spec);
		return -EINVAL;
	}
	if (!good_name(spec, eq - spec)) {
		rc_err("run: --baseline '%.*s': a name is 1 to %d letters, digits, '.', '_' or '-', not starting with '.' or '-'",
		       (int)(eq - spec), spec, NAME_MAX_LEN);
		return -EINVAL;
	}
	if (!eq[1 + strspn(eq + 1, " \t\n")]) {
		rc_err("run: --baseline %.*s: no command after '='",
		       (int)(eq - spec), spec);
		return -EINVAL;
	}
	if (!has_out(eq + 1)) {
		rc_err("run: --baseline %.*s: '%s' has no %%o; put %%o where the command writes its copy on this host (rdmaio measures that file, then removes it)",
		       (int)(eq - spec), spec, eq + 1);
		return -EINVAL;
	}
	b = calloc(1, sizeof(*b));
	if (b) {
		b->name = strndup(spec, eq - spec);
		b->cmd = strdup(eq + 1);
	}
	if (!b || !b->name || !b->cmd) {
		rio_baseline_delete(&b);
		return -ENOMEM;
	}
	*out = b;
	return 0;
}

const char *rio_baseline_name(const struct rio_baseline *b)
{
	return b->name;
}

void rio_baseline_delete(struct rio_baseline **b)
{
	if (!b || !*b)
		return;
	free((*b)->name);
	free((*b)->cmd);
	free(*b);
	*b = NULL;
}

static double cpu_of(const struct rusage *r)
{
	return r->ru_utime.tv_sec + r->ru_utime.tv_usec / 1e6 +
	       r->ru_stime.tv_sec + r->ru_stime.tv_usec / 1e6;
}

/* What one run of the command did, while it is measured. */
struct outcome {
	int status;
	double start, end, cpu_s;
	long long bytes; /* -1: no regular file */
	char error[512];
};

/* The size of what the command left at path, or why it is no copy. */
static void measure_copy(const char *path, struct outcome *o)
{
	struct stat st;

	o->bytes = -1;
	if (lstat(path, &st))
		snprintf(o->error, sizeof(o->error),
			 "exited 0 but left no file at %%o");
	else if (!S_ISREG(st.st_mode))
		snprintf(o->error, sizeof(o->error),
			 "left something other than a regular file at %%o");
	else if (!st.st_size)
		snprintf(o->error, sizeof(o->error),
			 "left an empty file at %%o");
	else
		o->bytes = st.st_size;
}

static void run_measured(char **argv, const char *path, unsigned timeout_s,
			 void (*tick)(void *), void *arg, struct outcome *o)
{
	struct rusage r0, r1;

	getrusage(RUSAGE_CHILDREN, &r0);
	o->start = rio_cpustat_now();
	o->status =
		rc_spawn_run_tick(argv, STDERR_FILENO, timeout_s, tick, arg);
	o->end = rio_cpustat_now();
	getrusage(RUSAGE_CHILDREN, &r1);
	o->cpu_s = cpu_of(&r1) - cpu_of(&r0);
	o->bytes = -1;
	if (o->status < 0)
		snprintf(o->error, sizeof(o->error), "could not start: %s",
			 strerror(-o->status));
	else if (timeout_s && o->end - o->start >= timeout_s)
		snprintf(
			o->error, sizeof(o->error),
			"did not finish within %u s and was stopped (raise --timeout)",
			timeout_s);
	else if (o->status > 128)
		snprintf(
			o->error, sizeof(o->error),
			"ended with status %d (killed by signal %d, or its own exit status)",
			o->status, o->status - 128);
	else if (o->status)
		snprintf(o->error, sizeof(o->error), "exited %d", o->status);
	else
		measure_copy(path, o);
}

static json_object *record(const struct rio_baseline *b, char **argv,
			   const struct outcome *o)
{
	json_object *r = json_object_new_object(), *w;
	double elapsed = o->end - o->start;
	bool ok = o->bytes > 0;

	json_object_object_add(r, "name", json_object_new_string(b->name));
	json_object_object_add(r, "command", json_object_new_string(b->cmd));
	json_object_object_add(r, "argv", rio_strv_json(argv, -1));
	json_object_object_add(r, "exit_status",
			       json_object_new_int(o->status));
	json_object_object_add(r, "bytes",
			       ok ? json_object_new_int64(o->bytes) : NULL);
	json_object_object_add(r, "elapsed_s", json_object_new_double(elapsed));
	json_object_object_add(
		r, "bw_bytes",
		ok && elapsed > 0 ? json_object_new_double(o->bytes / elapsed)
				  : NULL);
	json_object_object_add(r, "cpu_s", json_object_new_double(o->cpu_s));
	w = json_object_new_object();
	json_object_object_add(w, "start_s", json_object_new_double(o->start));
	json_object_object_add(w, "end_s", json_object_new_double(o->end));
	json_object_object_add(r, "window", w);
	json_object_object_add(r, "error",
			       ok ? NULL : json_object_new_string(o->error));
	return r;
}

/* Removes the copy and its folder; whatever else is left there stays,
 * and the user is told where. */
static void remove_copy(const char *dir, const char *path)
{
	struct stat st;

	if (!lstat(path, &st) && S_ISREG(st.st_mode))
		unlink(path);
	if (rmdir(dir))
		rc_warn("--baseline left %s (%s): remove it by hand", dir,
			strerror(errno));
}

/* A run that could not start still leaves a record: every round has one. */
static int not_run(const struct rio_baseline *b, struct outcome *o,
		   json_object *runs)
{
	char *none[] = { NULL };

	o->bytes = -1;
	o->status = -1;
	json_object_array_add(runs, record(b, none, o));
	rc_err("run: --baseline %s %s; the result keeps the error instead of its figures",
	       b->name, o->error);
	return -EIO;
}

int rio_baseline_run(const struct rio_baseline *b, unsigned timeout_s,
		     void (*tick)(void *), void *arg, json_object *runs)
{
	struct outcome o = { 0 };
	char *dir, *path = NULL, **argv = NULL;
	int ret = rio_tmpdir_new("baseline", 4000, &dir, o.error,
				 sizeof(o.error));

	if (ret)
		return ret == -ENOMEM ? ret : not_run(b, &o, runs);
	if (asprintf(&path, "%s/%s", dir, b->name) < 0)
		path = NULL;
	ret = path ? rio_strv_split(b->cmd, 'o', path, &argv) : -ENOMEM;
	if (!ret) {
		run_measured(argv, path, timeout_s, tick, arg, &o);
		json_object_array_add(runs, record(b, argv, &o));
		ret = o.bytes > 0 ? 0 : -EIO;
		if (ret)
			rc_err("run: --baseline %s: '%s' %s (run it by hand to see why); the result keeps the error instead of its figures",
			       b->name, b->cmd, o.error);
	}
	remove_copy(dir, path ? path : dir);
	rio_strv_free(argv);
	free(path);
	free(dir);
	return ret;
}
