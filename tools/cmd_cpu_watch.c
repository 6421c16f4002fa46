// SPDX-License-Identifier: MIT
/* rdmaio cpu-watch: what --remote-cpu runs on another host. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "args.h"
#include "cmd.h"
#include "rc_log.h"
#include "result/cpustat.h"
#include "result/runrecord.h"
#include "run/taskwatch.h"

/* The tasks already printed: each once when first seen, once when gone. */
struct sent {
	struct rio_task *v;
	int n;
};

static int put_json(FILE *out, json_object *o)
{
	int ret =
		fprintf(out, "%s\n",
			json_object_to_json_string_ext(
				o, JSON_C_TO_STRING_PLAIN |
					   JSON_C_TO_STRING_NOSLASHESCAPE)) < 0;

	json_object_put(o);
	return ret;
}

static struct rio_task *sent_find(struct sent *s, const struct rio_task *t)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].id == t->id && s->v[i].first == t->first)
			return &s->v[i];
	return NULL;
}

/* Prints the tasks that are new or gone since the last call. */
static int put_tasks(struct rio_taskwatch *w, struct sent *s, FILE *out)
{
	const struct rio_task *t;
	struct rio_task *old, *nv;
	int i, n, ret = 0;

	t = rio_taskwatch_tasks(w, &n);
	for (i = 0; i < n && !ret; i++) {
		old = sent_find(s, &t[i]);
		if (old && old->gone == t[i].gone)
			continue;
		if (!old) {
			nv = realloc(s->v, (s->n + 1) * sizeof(*nv));
			if (!nv)
				return -ENOMEM;
			s->v = nv;
			old = &nv[s->n++];
		}
		*old = t[i];
		ret = put_json(out, rio_runrecord_task_json(&t[i]));
	}
	return ret;
}

static int watch(struct rio_taskwatch *w, unsigned interval_ms, unsigned max_s)
{
	double end = rio_cpustat_now() + max_s;
	struct timespec ts = { .tv_sec = interval_ms / 1000,
			       .tv_nsec = (interval_ms % 1000) * 1000000L };
	struct sent sent = { 0 };
	struct rio_cpustat s;
	int ret;

	if (put_json(stdout, rio_runrecord_tasks_header_json()))
		return 0;
	do {
		ret = rio_cpustat_read("", &s);
		if (ret) {
			rc_call_err(-ret, "read(%s)", "/proc/stat");
			break;
		}
		rio_taskwatch_sample(w, s.t);
		ret = put_json(stdout, rio_cpustat_json(&s));
		ret = ret ?: put_tasks(w, &sent, stdout);
		ret = ret ?: fflush(stdout) ? 1 : 0;
		if (ret == -ENOMEM) {
			rc_call_err(ENOMEM, "realloc(%d tasks)", sent.n + 1);
			break;
		}
		/* The reader went away (rdmaio stopped its ssh): done. */
		if (ret) {
			ret = 0;
			break;
		}
		nanosleep(&ts, NULL);
	} while (rio_cpustat_now() < end);
	free(sent.v);
	return ret;
}

int rio_cmd_cpu_watch(struct rio_args *a)
{
	struct rio_taskwatch *w;
	int ret;

	if (a->npos) {
		rc_err("cpu-watch: takes no file argument; '%s' is one",
		       a->pos[0]);
		return 2;
	}
	/* Every fio --server's runs: rdmaio reaches this host as a client. */
	w = rio_taskwatch_new("", 0);
	if (!w) {
		rc_call_err(ENOMEM, "rio_taskwatch_new(%s)", "/proc");
		return 1;
	}
	ret = watch(w, a->interval_ms, a->max_s);
	rio_taskwatch_delete(&w);
	return ret ? 1 : 0;
}
