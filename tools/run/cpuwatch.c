// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/cpuwatch.h"
#include "rc_log.h"
#include "rc_spawn.h"
#include "base/strv.h"

#define LINE_MAX_LEN 1024

struct series {
	char *client; /* NULL: this host */
	char *command;
	pid_t pid;
	int fd; /* the command's stdout, -1 once closed */
	char buf[LINE_MAX_LEN];
	size_t blen;
	struct rio_cpustat *v; /* remote: t is the remote's clock */
	int n;
	double offset; /* this host's clock - the remote's */
	int bad; /* lines that were not readings */
	struct rio_cpustat *local; /* v on this host's clock */
	struct rio_task *tasks; /* remote: on the remote's clock */
	int ntasks;
	int tasks_watched; /* its command said it reports tasks */
	struct rio_task *local_tasks; /* tasks on this host's clock */
};

struct rio_cpuwatch {
	char *root;
	struct series *s;
	int n;
	struct rio_cpu_series *rec; /* rio_cpuwatch_record's */
};

static int add_series(struct rio_cpuwatch *w, struct series **out)
{
	struct series *ns = realloc(w->s, (w->n + 1) * sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	w->s = ns;
	*out = &ns[w->n++];
	memset(*out, 0, sizeof(**out));
	(*out)->fd = -1;
	(*out)->offset = INFINITY;
	return 0;
}

struct rio_cpuwatch *rio_cpuwatch_new(const char *root)
{
	struct rio_cpuwatch *w = calloc(1, sizeof(*w));
	struct series *s;

	if (!w)
		return NULL;
	w->root = strdup(root);
	if (!w->root || add_series(w, &s)) {
		rio_cpuwatch_delete(&w);
		return NULL;
	}
	return w;
}

static int push(struct series *s, const struct rio_cpustat *c)
{
	struct rio_cpustat *nv = realloc(s->v, (s->n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	s->v = nv;
	nv[s->n++] = *c;
	return 0;
}

int rio_cpuwatch_add_remote(struct rio_cpuwatch *w, const char *client,
			    char *const argv[])
{
	struct series *s;
	int p[2], ret;

	if (pipe2(p, O_CLOEXEC)) {
		ret = -errno;
		rc_call_err(-ret, "pipe2(%s)", "O_CLOEXEC");
		return ret;
	}
	ret = add_series(w, &s);
	if (!ret) {
		s->client = strdup(client);
		s->command = rio_strv_join(argv);
		ret = s->client && s->command ? 0 : -ENOMEM;
	}
	if (!ret)
		ret = rc_spawn_start(argv, p[1], -1, &s->pid);
	close(p[1]);
	if (ret) {
		close(p[0]);
		return ret;
	}
	fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
	s->fd = p[0];
	return 0;
}

/* Three hours of readings at cpu-watch's fastest interval (10 ms): lines
 * beyond that are counted as bad, not kept, so a command that floods its
 * stdout cannot take rdmaio's memory. */
#define MAX_READINGS (1 << 20)

/* As many tasks as a host can have processes by default (pid_max). */
#define MAX_TASKS (1 << 15)

/* A task line: a new task, or one seen before (same id and start) gone. */
static int take_task(struct series *s, const struct rio_task *t)
{
	struct rio_task *nt;
	int i;

	for (i = 0; i < s->ntasks; i++)
		if (s->tasks[i].id == t->id && s->tasks[i].first == t->first) {
			s->tasks[i] = *t;
			return 0;
		}
	if (s->ntasks >= MAX_TASKS)
		return -ENOSPC;
	nt = realloc(s->tasks, (s->ntasks + 1) * sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	s->tasks = nt;
	nt[s->ntasks++] = *t;
	return 0;
}

static void take_line(struct series *s, char *line, double arrival)
{
	struct rio_cpustat c;
	struct rio_task t;
	int ret;

	if (rio_cpustat_parse(line, &c)) {
		ret = rio_runrecord_task_parse(line, &t);
		if (ret == 1)
			s->tasks_watched = 1;
		else if (ret || !s->tasks_watched || take_task(s, &t))
			s->bad++;
		return;
	}
	if (s->n >= MAX_READINGS || (s->n && c.t <= s->v[s->n - 1].t)) {
		s->bad++;
		return;
	}
	s->offset = fmin(s->offset, arrival - c.t);
	push(s, &c);
}

/* Whatever the command wrote since the last call, line by line. */
static void drain(struct series *s)
{
	double now = rio_cpustat_now();
	char *nl;
	ssize_t r;

	while (s->fd >= 0) {
		r = read(s->fd, s->buf + s->blen, sizeof(s->buf) - 1 - s->blen);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0 || errno != EAGAIN) {
				close(s->fd);
				s->fd = -1;
			}
			return;
		}
		s->blen += (size_t)r;
		s->buf[s->blen] = '\0';
		while ((nl = strchr(s->buf, '\n'))) {
			*nl = '\0';
			take_line(s, s->buf, now);
			s->blen -= (size_t)(nl + 1 - s->buf);
			memmove(s->buf, nl + 1, s->blen + 1);
		}
		/* A line longer than the buffer is no reading: drop it. */
		if (s->blen == sizeof(s->buf) - 1) {
			s->bad++;
			s->blen = 0;
		}
	}
}

int rio_cpuwatch_add_reading(struct rio_cpuwatch *w,
			     const struct rio_cpustat *c)
{
	if (w->s[0].n && c->t <= w->s[0].v[w->s[0].n - 1].t)
		return -EINVAL;
	return push(&w->s[0], c);
}

void rio_cpuwatch_sample(struct rio_cpuwatch *w)
{
	struct rio_cpustat c;
	int i;

	if (!rio_cpustat_read(w->root, &c))
		rio_cpuwatch_add_reading(w, &c);
	for (i = 1; i < w->n; i++)
		drain(&w->s[i]);
}

int rio_cpuwatch_wait_first(struct rio_cpuwatch *w, double timeout_s,
			    int *which)
{
	double end = rio_cpustat_now() + timeout_s;
	int i, waiting;

	do {
		for (i = 1, waiting = 0; i < w->n; i++) {
			drain(&w->s[i]);
			if (w->s[i].n)
				continue;
			*which = i;
			/* Its command ended, or will print nothing more. */
			if (w->s[i].fd < 0)
				return -EPIPE;
			waiting = 1;
		}
		if (waiting)
			usleep(50000);
	} while (waiting && rio_cpustat_now() < end);
	return waiting ? -ETIMEDOUT : 0;
}

const char *rio_cpuwatch_command(const struct rio_cpuwatch *w, int i)
{
	return w->s[i].command;
}

void rio_cpuwatch_stop(struct rio_cpuwatch *w)
{
	int i;

	for (i = 1; w && i < w->n; i++) {
		drain(&w->s[i]);
		if (w->s[i].pid > 0)
			rc_spawn_stop(w->s[i].pid, 2);
		w->s[i].pid = 0;
		if (w->s[i].fd >= 0)
			close(w->s[i].fd);
		w->s[i].fd = -1;
	}
}

int rio_cpuwatch_count(const struct rio_cpuwatch *w)
{
	return w->n;
}

const char *rio_cpuwatch_client(const struct rio_cpuwatch *w, int i)
{
	return w->s[i].client;
}

/* Series s on this host's clock: its own readings, or a remote one's
 * moved by its offset (a copy, kept in s); NULL without readings or
 * memory. */
static const struct rio_cpustat *local_clock(struct series *s)
{
	int k;

	if (!s->client)
		return s->v;
	free(s->local);
	s->local = calloc(s->n ? s->n : 1, sizeof(*s->local));
	if (!s->local)
		return NULL;
	for (k = 0; k < s->n; k++) {
		s->local[k] = s->v[k];
		s->local[k].t += s->offset;
	}
	return s->local;
}

/* A remote series' tasks on this host's clock (a copy kept in s). */
static const struct rio_task *local_tasks(struct series *s)
{
	int k;

	free(s->local_tasks);
	s->local_tasks = calloc(s->ntasks ? s->ntasks : 1, sizeof(*s->tasks));
	if (!s->local_tasks)
		return NULL;
	for (k = 0; k < s->ntasks; k++) {
		s->local_tasks[k] = s->tasks[k];
		s->local_tasks[k].first += s->offset;
		if (s->tasks[k].gone)
			s->local_tasks[k].gone += s->offset;
		/* Still alive at the watch's last reading: only a task's
		 * first and gone lines are sent. */
		else if (s->n)
			s->local_tasks[k].last = s->v[s->n - 1].t;
		s->local_tasks[k].last += s->offset;
	}
	return s->local_tasks;
}

int rio_cpuwatch_record(struct rio_cpuwatch *w,
			const struct rio_cpu_series **out, int *n)
{
	struct rio_cpu_series *rec =
		realloc(w->rec, (w->n ? w->n : 1) * sizeof(*rec));
	struct series *s;
	int i;

	if (!rec)
		return -ENOMEM;
	w->rec = rec;
	for (i = 0; i < w->n; i++) {
		s = &w->s[i];
		rec[i] = (struct rio_cpu_series){ .client = s->client,
						  .command = s->command,
						  .v = local_clock(s),
						  .n = s->n,
						  .clock_offset_s = s->offset,
						  .bad_lines = s->bad,
						  .ntasks = s->ntasks,
						  .tasks_watched =
							  s->tasks_watched };
		if (s->client && s->n)
			rec[i].tasks = local_tasks(s);
		if (s->n && (!rec[i].v || (s->client && !rec[i].tasks)))
			return -ENOMEM;
	}
	*out = rec;
	*n = w->n;
	return 0;
}

void rio_cpuwatch_delete(struct rio_cpuwatch **w)
{
	int i;

	if (!w || !*w)
		return;
	rio_cpuwatch_stop(*w);
	for (i = 0; i < (*w)->n; i++) {
		free((*w)->s[i].client);
		free((*w)->s[i].command);
		free((*w)->s[i].v);
		free((*w)->s[i].local);
		free((*w)->s[i].tasks);
		free((*w)->s[i].local_tasks);
	}
	free((*w)->s);
	free((*w)->rec);
	free((*w)->root);
	free(*w);
	*w = NULL;
}
