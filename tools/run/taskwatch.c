// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rc_file.h"
#include "run/taskwatch.h"

struct proc {
	int pid, ppid;
	int fio, server;
};

struct rio_taskwatch {
	char *root;
	pid_t self;
	struct rio_task *t; /* every task ever seen, processes and threads */
	int n;
	struct rio_task *out; /* the job tasks, built on demand */
	int nout;
};

struct rio_taskwatch *rio_taskwatch_new(const char *root, pid_t self)
{
	struct rio_taskwatch *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->root = strdup(root);
	w->self = self;
	if (!w->root) {
		free(w);
		return NULL;
	}
	return w;
}

/* "pid (comm) S ppid ...": comm may hold spaces and parentheses. */
static int read_stat(const char *root, int pid, struct proc *p)
{
	char path[4200], buf[512], *rp, state;
	FILE *f;
	size_t len;

	snprintf(path, sizeof(path), "%s/proc/%d/stat", root, pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	rp = strrchr(buf, ')');
	if (!rp || sscanf(rp + 1, " %c %d", &state, &p->ppid) != 2)
		return -EINVAL;
	/* A job that exited waits as a zombie until fio reaps it, maybe
	 * after fio started the next job: it ended already. */
	if (state == 'Z' || state == 'X')
		return -ESRCH;
	p->pid = pid;
	p->fio = !strncmp(strchr(buf, '(') ?: "", "(fio)", 5);
	return 0;
}

/* fio --server=... among the process's arguments. */
static int is_server(const char *root, int pid)
{
	char path[4200], *text, *p;
	size_t len;
	int found = 0;

	snprintf(path, sizeof(path), "%s/proc/%d/cmdline", root, pid);
	if (rc_file_read(path, &text, &len, RC_FILE_PROC_MAX))
		return 0;
	for (p = text; p < text + len; p += strlen(p) + 1)
		found |= !strncmp(p, "--server", 8);
	free(text);
	return found;
}

static int scan_procs(struct rio_taskwatch *w, struct proc **out)
{
	char path[4200];
	struct proc *v = NULL, *nv;
	struct dirent *d;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/proc", w->root);
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv)
			break;
		v = nv;
		if (!read_stat(w->root, atoi(d->d_name), &v[n]) && v[n].fio)
			n++;
	}
	closedir(dir);
	*out = v;
	return n;
}

static struct proc *find(struct proc *v, int n, int pid)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i].pid == pid)
			return &v[i];
	return NULL;
}

/*
 * fio --server forks a child per connection, which forks one per run
 * ("fio_backend"): that one forks the jobs, two levels below the server.
 */
static int is_runner(const struct rio_taskwatch *w, struct proc *v, int n,
		     const struct proc *p)
{
	const struct proc *conn = find(v, n, p->ppid), *server;

	if (w->self && p->ppid == w->self)
		return !p->server;
	server = conn ? find(v, n, conn->ppid) : NULL;
	return server && server->server;
}

/*
 * A fio --server of ours: one self started, or with self 0 any on the
 * host. Its children carry its command line, so there it is the one whose
 * parent is no fio (a shell, init after --daemonize).
 */
static int is_our_server(const struct rio_taskwatch *w, struct proc *v, int n,
			 const struct proc *p)
{
	if (w->self ? p->ppid != w->self : find(v, n, p->ppid) != NULL)
		return 0;
	return is_server(w->root, p->pid);
}

static void seen(struct rio_taskwatch *w, int id, int runner, int thread,
		 double now)
{
	struct rio_task *nt;
	int i;

	for (i = 0; i < w->n; i++)
		if (w->t[i].id == id && !w->t[i].gone) {
			w->t[i].last = now;
			return;
		}
	nt = realloc(w->t, (w->n + 1) * sizeof(*nt));
	if (!nt)
		return;
	w->t = nt;
	nt[w->n++] = (struct rio_task){ .id = id,
					.runner = runner,
					.first = now,
					.last = now,
					.thread = thread };
}

static void runner_threads(struct rio_taskwatch *w, int runner, double now)
{
	char path[4200];
	struct dirent *d;
	DIR *dir;
	int tid;

	snprintf(path, sizeof(path), "%s/proc/%d/task", w->root, runner);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		tid = atoi(d->d_name);
		if (tid > 0 && tid != runner)
			seen(w, tid, runner, 1, now);
	}
	closedir(dir);
}

void rio_taskwatch_sample(struct rio_taskwatch *w, double now)
{
	struct proc *v = NULL, *parent;
	int i, n = scan_procs(w, &v);

	for (i = 0; i < n; i++)
		v[i].server = is_our_server(w, v, n, &v[i]);
	for (i = 0; i < n; i++) {
		parent = find(v, n, v[i].ppid);
		if (is_runner(w, v, n, &v[i]))
			runner_threads(w, v[i].pid, now);
		else if (parent && is_runner(w, v, n, parent))
			seen(w, v[i].pid, parent->pid, 0, now);
	}
	for (i = 0; i < w->n; i++)
		if (!w->t[i].gone && w->t[i].last != now)
			w->t[i].gone = now;
	free(v);
}

static int by_start(const void *a, const void *b)
{
	const struct rio_task *x = a, *y = b;

	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* fio's helper thread: the runner's first thread, made before any job. */
static int is_helper(const struct rio_taskwatch *w, const struct rio_task *t)
{
	int i;

	for (i = 0; i < w->n; i++)
		if (w->t[i].runner == t->runner && w->t[i].thread &&
		    w->t[i].id < t->id)
			return 0;
	return 1;
}

const struct rio_task *rio_taskwatch_tasks(struct rio_taskwatch *w, int *n)
{
	struct rio_task *t;
	int i;

	free(w->out);
	w->out = calloc(w->n ? w->n : 1, sizeof(*w->out));
	w->nout = 0;
	for (i = 0; w->out && i < w->n; i++) {
		t = &w->t[i];
		/* fio may start a thread of its own for a moment (seen
		 * once); a job's lives for its runtime. */
		if (t->thread && (is_helper(w, t) || t->first == t->last))
			continue;
		w->out[w->nout++] = *t;
	}
	if (w->out)
		qsort(w->out, w->nout, sizeof(*w->out), by_start);
	*n = w->nout;
	return w->out;
}

void rio_taskwatch_delete(struct rio_taskwatch **w)
{
	if (!w || !*w)
		return;
	free((*w)->t);
	free((*w)->out);
	free((*w)->root);
	free(*w);
	*w = NULL;
}
