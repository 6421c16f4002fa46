// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/streq.h"
#include "result/check.h"
#include "base/jsonread.h"
#include "result/fiooutput.h"
#include "result/resultenv.h"
#include "result/summary.h"

/* One connection of NFS over TCP moves about 2 GB/s: past this link rate
 * the field mounts TCP with several (nconnect). */
#define FAIR_NCONNECT_GBPS 25.0
/* Five per TCP side, three of tuning. */
#define FAIR_MAX_NOTES 16

/* The sides of an NFS comparison: how a job's name ends, what a person
 * calls it, and its key in the check's settings. */
struct kind {
	const char *suffix, *name, *key;
};

enum { RDMA_SIDE, TCP_SIDE, NCONNECT_SIDE, NSIDES };

static const struct kind kinds[NSIDES] = {
	{ "-rdma", "RDMA", "rdma" },
	{ "-tcp", "TCP", "tcp" },
	{ "-tcp-nconnect", "TCP nconnect", "tcp_nconnect" },
};

/* One side of an NFS comparison: where its files were, and who served
 * them. */
struct side {
	const char *jobname, *host;
	const struct kind *kind;
	const struct rio_env_mount *m;
	const struct rio_env_host *server; /* the host exporting it, or NULL */
	const struct rio_env_export *exp;
	int depth; /* iodepth x numjobs, summed over the hosts that ran it */
	int by_proto; /* no path known: the host's one mount of its proto */
};

/* What the sides differ in beyond the transport, and the fixes: one of
 * each, as two TCP sides may need the same. */
struct notes {
	char *what[FAIR_MAX_NOTES], *fix[FAIR_MAX_NOTES + 1];
	int n, nfix;
};

static void note(struct notes *ns, const char *what, const char *fix)
{
	int i;

	if (ns->n == FAIR_MAX_NOTES)
		return;
	ns->what[ns->n++] = strdup(what);
	for (i = 0; i < ns->nfix && strcmp(ns->fix[i] ?: "", fix); i++)
		;
	if (i == ns->nfix)
		ns->fix[ns->nfix++] = strdup(fix);
}

static void notes_free(struct notes *ns)
{
	int i;

	for (i = 0; i < ns->n; i++)
		free(ns->what[i]);
	for (i = 0; i < ns->nfix; i++)
		free(ns->fix[i]);
}

/* What the check reads: fio's output, the hosts, and the job files'
 * texts (the result's job_files[]). */
struct fair_in {
	const struct rio_fio_output *fio;
	const struct rio_resultenv *env;
	json_object *job_files;
};

static char *setting(const struct fair_in *in, const struct rio_fio_job *e,
		     const char *key)
{
	return rio_check_job_setting(in->fio, in->job_files, e, key);
}

/* A plain number setting (1 when unset); 0 when it is not a number
 * (${VAR} in a job file: its value is not known). */
static int setting_int(const struct fair_in *in, const struct rio_fio_job *e,
		       const char *key)
{
	char *v = setting(in, e, key), *end;
	long n = 1;

	if (v) {
		n = strtol(v, &end, 10);
		if (end == v || *end || n < 1 || n > 1 << 20)
			n = 0;
	}
	free(v);
	return (int)n;
}

/* Requests the job keeps in flight, summed over the hosts that ran it:
 * the server sees them all. numjobs without group_reporting repeats an
 * entry per job, which carries numjobs too: one entry per host counts. */
static int job_depth(const struct fair_in *in, const char *name)
{
	const struct rio_fio_output *fio = in->fio;
	const struct rio_fio_job *e, *f;
	int i, j, n = rio_fio_output_njobs(fio), depth = 0, seen, d;

	for (i = 0; i < n; i++) {
		e = rio_fio_output_job(fio, i);
		if (!rio_streq(e->jobname, name))
			continue;
		for (j = 0, seen = 0; j < i && !seen; j++) {
			f = rio_fio_output_job(fio, j);
			seen = rio_streq(f->jobname, name) &&
			       rio_streq(f->host, e->host);
		}
		if (seen)
			continue;
		d = setting_int(in, e, "iodepth") *
		    setting_int(in, e, "numjobs");
		if (!d)
			return 0;
		depth += d;
	}
	return depth;
}

static int has_addr(const struct rio_env_host *h, const char *addr)
{
	size_t i;

	for (i = 0; addr && i < h->naddresses; i++)
		if (rio_streq(h->addresses[i], addr))
			return 1;
	return 0;
}

/* The export holding the mount's source path: the longest export path
 * that is a prefix of it, on the host with the source's address first. */
static void find_export(const struct rio_resultenv *env, struct side *s)
{
	const char *path = strstr(s->m->source, ":/");
	const struct rio_env_host *h;
	char *addr = rio_check_nfs_server(s->m->source);
	size_t i, k, len, nh = 1 + rio_resultenv_nremotes(env);
	long score, best = -1;

	for (k = 0; path && k < nh; k++) {
		h = k ? rio_resultenv_remote(env, k - 1)
		      : rio_resultenv_host(env);
		for (i = 0; i < h->nexports; i++) {
			len = h->exports[i].path ? strlen(h->exports[i].path)
						 : 0;
			if (!len ||
			    strncmp(path + 1, h->exports[i].path, len) ||
			    (path[1 + len] && path[1 + len] != '/'))
				continue;
			score = (long)has_addr(h, addr) << 24 | (long)len;
			if (score <= best)
				continue;
			best = score;
			s->server = h;
			s->exp = &h->exports[i];
		}
	}
	free(addr);
}

/* "sync" or "async" (exports(5): sync unless async is given); NULL for
 * an export not known. */
static const char *export_sync(const struct rio_env_export *e)
{
	size_t i;

	if (!e)
		return NULL;
	for (i = 0; i < e->noptions; i++)
		if (rio_streq(e->options[i], "async"))
			return "async";
	return "sync";
}

static int is_nfs(const struct rio_env_mount *m)
{
	return m && m->fstype && !strncmp(m->fstype, "nfs", 3) && m->source;
}

/* Whether mount m is of transport tr (a job name's: "rdma", "tcp",
 * "tcp-nconnect"): its proto, and when strict, for TCP, whether it has
 * several connections. */
static int mount_is(const struct rio_env_mount *m, const char *tr, int strict)
{
	int several = rio_streq(tr, "tcp-nconnect");

	if (!is_nfs(m) || !m->proto || !tr)
		return 0;
	if (several || rio_streq(tr, "tcp"))
		return !strncmp(m->proto, "tcp", 3) &&
		       (!strict || (m->nconnect > 1) == several);
	return !strncmp(m->proto, tr, strlen(tr));
}

/* The one mount of v that is of transport tr, or NULL (none, or several). */
static const struct rio_env_mount *
only_mount(const struct rio_env_mount *v, size_t n, const char *tr, int strict)
{
	const struct rio_env_mount *m = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!mount_is(&v[i], tr, strict))
			continue;
		if (m)
			return NULL;
		m = &v[i];
	}
	return m;
}

/*
 * fio 3.33's client mode prints a job's options only for the first job of
 * a file when numjobs clones the jobs (it looks them up by thread number):
 * a job without a path is taken to be on the host's one NFS mount of the
 * transport its name says, when there is exactly one. A host's only TCP
 * mount serves either TCP job, whatever its connections (the check then
 * says what they are).
 */
static const struct rio_env_mount *mount_by_proto(const struct rio_env_mount *v,
						  size_t n, const char *tr)
{
	return only_mount(v, n, tr, 1) ?: only_mount(v, n, tr, 0);
}

/* Whether the job file gives the job files (a directory or filename):
 * a job on a file system, not a network one. */
static int uses_files(const struct fair_in *in, const struct rio_fio_job *e)
{
	char *d = setting(in, e, "directory"), *f = setting(in, e, "filename");
	int yes = d || f;

	free(d);
	free(f);
	return yes;
}

/* 1 with s filled when the job's files lie on an NFS mount. */
static int side_of(const struct fair_in *in, const struct rio_fio_job *e,
		   const struct kind *kind, struct side *s)
{
	const struct rio_env_mount *mounts;
	char *path = rio_check_job_path(in->fio, e);
	size_t n, wlen;

	memset(s, 0, sizeof(*s));
	s->jobname = e->jobname;
	s->host = e->host;
	s->kind = kind;
	mounts = rio_resultenv_host_mounts(
		in->env, rio_resultenv_host_named(in->env, e->host), &n);
	s->m = path ? rio_check_mount_of(mounts, n, path) : NULL;
	if (!path && uses_files(in, e)) {
		s->m = mount_by_proto(mounts, n,
				      rio_summary_transport(e->jobname, &wlen));
		s->by_proto = s->m != NULL;
	}
	free(path);
	if (!is_nfs(s->m))
		return 0;
	find_export(in->env, s);
	s->depth = job_depth(in, e->jobname);
	return 1;
}

static void add_int(json_object *o, const char *key, int v)
{
	json_object_object_add(o, key, v > 0 ? json_object_new_int(v) : NULL);
}

static void add_str(json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, v ? json_object_new_string(v) : NULL);
}

/* One side's settings, as the report's table shows them. */
static json_object *side_json(const struct side *s)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	add_str(o, "jobname", s->jobname);
	add_str(o, "mount_found_by", s->by_proto ? "proto" : "path");
	add_str(o, "host", s->host);
	add_str(o, "source", s->m->source);
	add_str(o, "mountpoint", s->m->mountpoint);
	add_str(o, "proto", s->m->proto);
	add_str(o, "vers", s->m->vers);
	add_int(o, "rsize", s->m->rsize);
	add_int(o, "wsize", s->m->wsize);
	add_int(o, "nconnect", s->m->nconnect);
	add_int(o, "timeo", s->m->timeo);
	add_str(o, "server", s->server ? s->server->hostname : NULL);
	add_str(o, "export", s->exp ? s->exp->path : NULL);
	add_str(o, "export_sync", export_sync(s->exp));
	add_int(o, "nfsd_threads", s->server ? s->server->nfsd_threads : 0);
	add_int(o, "depth", s->depth);
	return o;
}

/* Where the two mounts differ, each with what both should have. */
static void compare_mounts(const struct side *r, const struct side *t,
			   struct notes *ns)
{
	const struct rio_env_mount *a = r->m, *b = t->m;
	char what[512], fix[512];
	int rs, ws;

	if (!rio_streq_or_null(a->vers, b->vers)) {
		snprintf(what, sizeof(what),
			 "NFS version %s (RDMA) against %s (%s)",
			 a->vers ?: "?", b->vers ?: "?", t->kind->name);
		note(ns, what,
		     "mount both with the same --vers (3 for both on one client: NFSv4.1+ merges a second mount of one server into the first's transport)");
	}
	/* A size the mount table did not show is not known: no verdict. */
	if (a->rsize && b->rsize && a->wsize && b->wsize &&
	    (a->rsize != b->rsize || a->wsize != b->wsize)) {
		rs = a->rsize < b->rsize ? a->rsize : b->rsize;
		ws = a->wsize < b->wsize ? a->wsize : b->wsize;
		snprintf(what, sizeof(what),
			 "rsize/wsize %d/%d (RDMA) against %d/%d (%s)",
			 a->rsize, a->wsize, b->rsize, b->wsize, t->kind->name);
		snprintf(
			fix, sizeof(fix),
			"mount both with -o rsize=%d,wsize=%d (the smaller of each: RDMA's largest depends on the device)",
			rs, ws);
		note(ns, what, fix);
	}
	if (a->timeo != b->timeo) {
		snprintf(what, sizeof(what), "timeo %d (RDMA) against %d (%s)",
			 a->timeo, b->timeo, t->kind->name);
		note(ns, what, "mount both with the same -o timeo=");
	}
}

/* Where the two sides' servers and exports differ. */
static void compare_servers(const struct side *r, const struct side *t,
			    struct notes *ns)
{
	const char *ra = strstr(r->m->source, ":/"),
		   *ta = strstr(t->m->source, ":/");
	char what[1024];

	if (!ra || !ta || strcmp(ra, ta) || r->server != t->server) {
		snprintf(
			what, sizeof(what),
			"the RDMA side mounts %s and the %s side %s: not the same export of the same server",
			r->m->source, t->kind->name, t->m->source);
		note(ns, what,
		     t->kind == &kinds[TCP_SIDE]
			     ? "mount the same export of the same server for both sides, by the same address"
			     : "mount the same export of the same server for both sides (TCP with nconnect by a second address of the server: one address keeps one NFS client, whose first mount sets its connections)");
	}
	if (!rio_streq_or_null(export_sync(r->exp), export_sync(t->exp))) {
		snprintf(what, sizeof(what),
			 "the RDMA side's export is %s and the %s side's %s",
			 export_sync(r->exp) ?: "not known", t->kind->name,
			 export_sync(t->exp) ?: "not known");
		note(ns, what,
		     "export both with the same sync or async option (sync is the safe default; async acknowledges writes before they are stored)");
	}
}

static double links_gbps(const struct rio_links *links)
{
	double g = 0;
	size_t i;

	for (i = 0; links && i < links->n; i++)
		if (links->v[i].rate_gbps > g)
			g = links->v[i].rate_gbps;
	return g;
}

/* The most requests in flight of any side: the server sees each side's
 * jobs in turn. */
static int max_depth(const struct side *const *v, int n)
{
	int i, d = 0;

	for (i = 0; i < n; i++)
		d = v[i]->depth > d ? v[i]->depth : d;
	return d;
}

/*
 * The tuning a fast link or a deep job needs, missing: TCP with one
 * connection when no side has several, a -tcp-nconnect side with one, the
 * server's thread pool.
 */
static void compare_tuning(const struct side *const *v, int n, double link_gbps,
			   struct notes *ns)
{
	const struct rio_env_host *srv = v[0]->server;
	const struct side *t = NULL, *tn = NULL;
	int i, depth = max_depth(v, n);
	char what[512], fix[256];

	for (i = 1; i < n; i++) {
		if (v[i]->kind == &kinds[TCP_SIDE])
			t = v[i];
		else
			tn = v[i];
	}
	if (tn && tn->m->nconnect < 2)
		note(ns,
		     "the TCP nconnect side has one connection: its mount has no nconnect=",
		     "mount it with --nconnect 8 by a second address of the server (one address keeps one client, whose first mount sets its connections)");
	if (t && !tn && link_gbps > FAIR_NCONNECT_GBPS && t->m->nconnect < 2) {
		snprintf(
			what, sizeof(what),
			"TCP has one connection on a %.0f Gb/s link: one NFS/TCP connection tops out near 2 GB/s, where the field mounts several",
			link_gbps);
		note(ns, what,
		     "add a -tcp-nconnect job on a mount with --nconnect 8 (about 8 per 100 Gb/s)");
	}
	/* Past the server's CPUs more threads add nothing to a RAM-backed
	 * export; below them the thread pool caps every side. */
	if (srv && srv->nfsd_threads > 0 && srv->nfsd_threads < depth &&
	    srv->nfsd_threads < srv->cpu_count) {
		snprintf(
			what, sizeof(what),
			"%s runs %d nfsd threads on %d CPUs for %d requests in flight: the thread pool, not the transport, caps every side",
			srv->hostname ?: "the server", srv->nfsd_threads,
			srv->cpu_count, depth);
		snprintf(
			fix, sizeof(fix),
			"start the server with more threads: nfsrdma server start --threads %d",
			depth < srv->cpu_count ? depth : srv->cpu_count);
		note(ns, what, fix);
	}
}

static void say_same(char *msg, size_t len, const struct side *const *v, int n)
{
	const struct side *r = v[0];
	const struct rio_env_host *srv = r->server;
	int i, depth = max_depth(v, n);
	char d[32] = "an unknown number of";
	size_t k;

	if (depth > 0)
		snprintf(d, sizeof(d), "%d", depth);
	k = (size_t)snprintf(
		msg, len,
		"the RDMA and %s sides differ only in the transport: %s, NFS version %s, rsize/wsize %d/%d, timeo %d, %s export",
		n > 2 ? "both TCP" : v[1]->kind->name, r->m->source,
		r->m->vers ?: "?", r->m->rsize, r->m->wsize, r->m->timeo,
		export_sync(r->exp) ?: "an unknown");
	for (i = 1; i < n && k < len; i++)
		k += (size_t)snprintf(msg + k, len - k, ", %s %d connection%s",
				      v[i]->kind->name, v[i]->m->nconnect ?: 1,
				      v[i]->m->nconnect > 1 ? "s" : "");
	if (k < len && srv && srv->nfsd_threads > 0)
		snprintf(
			msg + k, len - k,
			", %d nfsd threads on %d CPUs for %s request%s in flight",
			srv->nfsd_threads, srv->cpu_count, d,
			depth == 1 ? "" : "s");
}

/* The check's settings: each side's, under its transport's key. */
static void add_settings(json_object *checks, const struct side *const *v,
			 int n)
{
	json_object *set = json_object_new_object(), *last;
	int i;

	last = json_object_array_get_idx(checks,
					 json_object_array_length(checks) - 1);
	if (!set || !last) {
		json_object_put(set);
		return;
	}
	for (i = 0; i < n; i++)
		json_object_object_add(set, v[i]->kind->key, side_json(v[i]));
	json_object_object_add(last, "settings", set);
}

/* v: the RDMA side, then its TCP sides (n in all). */
static void fair_check(json_object *checks, const struct side *const *v, int n,
		       int gid, double gbps, int *flagged)
{
	const struct side *r = v[0];
	struct notes ns = { 0 };
	size_t wlen, k;
	char msg[4096];
	int i;

	for (i = 1; i < n; i++) {
		compare_servers(r, v[i], &ns);
		compare_mounts(r, v[i], &ns);
	}
	compare_tuning(v, n, gbps, &ns);
	rio_summary_transport(r->jobname, &wlen);
	k = (size_t)snprintf(msg, sizeof(msg), "%.*s on %s: ", (int)wlen,
			     r->jobname, r->host);
	if (!ns.n)
		say_same(msg + k, sizeof(msg) - k, v, n);
	else
		k += (size_t)snprintf(
			msg + k, sizeof(msg) - k,
			"the RDMA and TCP sides differ in more than the transport: ");
	for (i = 0; i < ns.n && k < sizeof(msg); i++)
		k += (size_t)snprintf(msg + k, sizeof(msg) - k, "%s%s",
				      i ? "; " : "", ns.what[i]);
	rio_check_add(checks, "fairness", r->host, gid, NULL,
		      ns.n ? "flagged" : "pass", NAN, NAN, msg,
		      ns.n ? (const char *const *)ns.fix : NULL);
	add_settings(checks, v, n);
	*flagged += ns.n > 0;
	notes_free(&ns);
}

/* The job "<workload>-<suffix>" of the rdma job e's workload on e's host,
 * or NULL. */
static const struct rio_fio_job *twin(const struct rio_fio_output *fio,
				      const struct rio_fio_job *e, size_t wlen,
				      const char *suffix)
{
	const struct rio_fio_job *f;
	int i, n = rio_fio_output_njobs(fio);

	for (i = 0; i < n; i++) {
		f = rio_fio_output_job(fio, i);
		if (rio_streq(f->host, e->host) && f->jobname &&
		    strlen(f->jobname) > wlen &&
		    !strncmp(f->jobname, e->jobname, wlen) &&
		    !strcmp(f->jobname + wlen, suffix))
			return f;
	}
	return NULL;
}

/* The RDMA job e's check, with each of its TCP twins on NFS. */
static void check_workload(const struct fair_in *in,
			   const struct rio_fio_job *e, size_t wlen,
			   double gbps, json_object *checks, int *flagged)
{
	const struct side *v[NSIDES];
	const struct rio_fio_job *f;
	struct side s[NSIDES];
	int k, n = 1;

	if (!side_of(in, e, &kinds[RDMA_SIDE], &s[0]))
		return;
	v[0] = &s[0];
	for (k = TCP_SIDE; k < NSIDES; k++) {
		f = twin(in->fio, e, wlen, kinds[k].suffix);
		if (f && side_of(in, f, &kinds[k], &s[n])) {
			v[n] = &s[n];
			n++;
		}
	}
	if (n > 1)
		fair_check(checks, v, n, e->groupid, gbps, flagged);
}

void rio_check_fairness(const struct rio_fio_output *fio,
			const struct rio_resultenv *env, json_object *job_files,
			const struct rio_links *links, json_object *checks,
			int *flagged)
{
	const struct fair_in in = { fio, env, job_files };
	json_object *done = json_object_new_object();
	const struct rio_fio_job *e;
	int i, n = rio_fio_output_njobs(fio);
	char key[512];
	size_t wlen;

	for (i = 0; env && done && i < n; i++) {
		e = rio_fio_output_job(fio, i);
		if (!e->jobname ||
		    !rio_streq(rio_summary_transport(e->jobname, &wlen),
			       "rdma"))
			continue;
		snprintf(key, sizeof(key), "%s\n%s", e->host ?: "", e->jobname);
		if (json_object_object_get_ex(done, key, NULL))
			continue;
		json_object_object_add(done, key, NULL);
		check_workload(&in, e, wlen, links_gbps(links), checks,
			       flagged);
	}
	json_object_put(done);
}
