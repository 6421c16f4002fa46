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
#define FAIR_MAX_NOTES 8

/* One side of an NFS comparison: where its files were, and who served
 * them. */
struct side {
	const char *jobname, *host;
	const struct rio_env_mount *m;
	const struct rio_env_host *server; /* the host exporting it, or NULL */
	const struct rio_env_export *exp;
	int depth; /* iodepth x numjobs, summed over the hosts that ran it */
	int by_proto; /* no path known: the host's one mount of its proto */
};

/* What the two sides differ in beyond the transport, and each fix. */
struct notes {
	char *what[FAIR_MAX_NOTES], *fix[FAIR_MAX_NOTES + 1];
	int n;
};

static void note(struct notes *ns, const char *what, const char *fix)
{
	if (ns->n == FAIR_MAX_NOTES)
		return;
	ns->what[ns->n] = strdup(what);
	ns->fix[ns->n] = strdup(fix);
	ns->n++;
}

static void notes_free(struct notes *ns)
{
	int i;

	for (i = 0; i < ns->n; i++) {
		free(ns->what[i]);
		free(ns->fix[i]);
	}
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

/*
 * fio 3.33's client mode prints a job's options only for the first job of
 * a file when numjobs clones the jobs (it looks them up by thread number):
 * a job without a path is taken to be on the host's one NFS mount of the
 * proto its name says, when there is exactly one.
 */
static const struct rio_env_mount *mount_by_proto(const struct rio_env_mount *v,
						  size_t n, const char *tr)
{
	const struct rio_env_mount *m = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!is_nfs(&v[i]) || !v[i].proto ||
		    strncmp(v[i].proto, tr, strlen(tr)))
			continue;
		if (m)
			return NULL;
		m = &v[i];
	}
	return m;
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
		   struct side *s)
{
	const struct rio_env_mount *mounts;
	char *path = rio_check_job_path(in->fio, e);
	size_t n, wlen;

	memset(s, 0, sizeof(*s));
	s->jobname = e->jobname;
	s->host = e->host;
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
			 "NFS version %s (RDMA) against %s (TCP)",
			 a->vers ?: "?", b->vers ?: "?");
		note(ns, what,
		     "mount both with the same --vers (3 for both on one client: NFSv4.1+ merges a second mount of one server into the first's transport)");
	}
	/* A size the mount table did not show is not known: no verdict. */
	if (a->rsize && b->rsize && a->wsize && b->wsize &&
	    (a->rsize != b->rsize || a->wsize != b->wsize)) {
		rs = a->rsize < b->rsize ? a->rsize : b->rsize;
		ws = a->wsize < b->wsize ? a->wsize : b->wsize;
		snprintf(what, sizeof(what),
			 "rsize/wsize %d/%d (RDMA) against %d/%d (TCP)",
			 a->rsize, a->wsize, b->rsize, b->wsize);
		snprintf(
			fix, sizeof(fix),
			"mount both with -o rsize=%d,wsize=%d (the smaller of each: RDMA's largest depends on the device)",
			rs, ws);
		note(ns, what, fix);
	}
	if (a->timeo != b->timeo) {
		snprintf(what, sizeof(what), "timeo %d (RDMA) against %d (TCP)",
			 a->timeo, b->timeo);
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
			"the RDMA side mounts %s and the TCP side %s: not the same export of the same server",
			r->m->source, t->m->source);
		note(ns, what,
		     "mount the same export of the same server for both sides, by the same address");
	}
	if (!rio_streq_or_null(export_sync(r->exp), export_sync(t->exp))) {
		snprintf(what, sizeof(what),
			 "the RDMA side's export is %s and the TCP side's %s",
			 export_sync(r->exp) ?: "not known",
			 export_sync(t->exp) ?: "not known");
		note(ns, what,
		     "export both with the same sync or async option (sync is the safe default; async acknowledges writes before they are stored)");
	}
}

/* The tuning a fast link or a deep job needs, missing on one side. */
static void compare_tuning(const struct side *r, const struct side *t,
			   double link_gbps, struct notes *ns)
{
	const struct rio_env_host *srv = r->server;
	int depth = r->depth > t->depth ? r->depth : t->depth;
	char what[512], fix[256];

	if (link_gbps > FAIR_NCONNECT_GBPS && t->m->nconnect < 2) {
		snprintf(
			what, sizeof(what),
			"TCP has one connection on a %.0f Gb/s link: one NFS/TCP connection tops out near 2 GB/s, where the field mounts several",
			link_gbps);
		note(ns, what,
		     "mount the TCP side with --nconnect 8 (about 8 per 100 Gb/s)");
	}
	/* Past the server's CPUs more threads add nothing to a RAM-backed
	 * export; below them the thread pool caps both sides. */
	if (srv && srv->nfsd_threads > 0 && srv->nfsd_threads < depth &&
	    srv->nfsd_threads < srv->cpu_count) {
		snprintf(
			what, sizeof(what),
			"%s runs %d nfsd threads on %d CPUs for %d requests in flight: the thread pool, not the transport, caps both sides",
			srv->hostname ?: "the server", srv->nfsd_threads,
			srv->cpu_count, depth);
		snprintf(
			fix, sizeof(fix),
			"start the server with more threads: nfsrdma server start --threads %d",
			depth < srv->cpu_count ? depth : srv->cpu_count);
		note(ns, what, fix);
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

static void say_same(char *msg, size_t len, const struct side *r,
		     const struct side *t)
{
	const struct rio_env_host *srv = r->server;
	int depth = r->depth > t->depth ? r->depth : t->depth;
	char d[32] = "an unknown number of";
	size_t k;

	if (depth > 0)
		snprintf(d, sizeof(d), "%d", depth);
	k = (size_t)snprintf(
		msg, len,
		"the RDMA and TCP sides differ only in the transport: %s, NFS version %s, rsize/wsize %d/%d, timeo %d, %s export, TCP nconnect %d",
		r->m->source, r->m->vers ?: "?", r->m->rsize, r->m->wsize,
		r->m->timeo, export_sync(r->exp) ?: "an unknown",
		t->m->nconnect);
	if (k < len && srv && srv->nfsd_threads > 0)
		snprintf(
			msg + k, len - k,
			", %d nfsd threads on %d CPUs for %s request%s in flight",
			srv->nfsd_threads, srv->cpu_count, d,
			depth == 1 ? "" : "s");
}

static void fair_check(json_object *checks, const struct side *r,
		       const struct side *t, int gid, double gbps, int *flagged)
{
	json_object *set = json_object_new_object(), *last;
	struct notes ns = { 0 };
	size_t wlen, k;
	char msg[4096];
	int i;

	compare_servers(r, t, &ns);
	compare_mounts(r, t, &ns);
	compare_tuning(r, t, gbps, &ns);
	rio_summary_transport(r->jobname, &wlen);
	k = (size_t)snprintf(msg, sizeof(msg), "%.*s on %s: ", (int)wlen,
			     r->jobname, r->host);
	if (!ns.n)
		say_same(msg + k, sizeof(msg) - k, r, t);
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
	last = json_object_array_get_idx(checks,
					 json_object_array_length(checks) - 1);
	if (set && last) {
		json_object_object_add(set, "rdma", side_json(r));
		json_object_object_add(set, "tcp", side_json(t));
		json_object_object_add(last, "settings", set);
	} else {
		json_object_put(set);
	}
	*flagged += ns.n > 0;
	notes_free(&ns);
}

/* The -tcp job of the rdma job e's workload on e's host, or NULL. */
static const struct rio_fio_job *tcp_twin(const struct rio_fio_output *fio,
					  const struct rio_fio_job *e,
					  size_t wlen)
{
	const struct rio_fio_job *f;
	int i, n = rio_fio_output_njobs(fio);

	for (i = 0; i < n; i++) {
		f = rio_fio_output_job(fio, i);
		if (rio_streq(f->host, e->host) && f->jobname &&
		    strlen(f->jobname) == wlen + 4 &&
		    !strncmp(f->jobname, e->jobname, wlen) &&
		    !strcmp(f->jobname + wlen, "-tcp"))
			return f;
	}
	return NULL;
}

void rio_check_fairness(const struct rio_fio_output *fio,
			const struct rio_resultenv *env, json_object *job_files,
			const struct rio_links *links, json_object *checks,
			int *flagged)
{
	const struct fair_in in = { fio, env, job_files };
	json_object *done = json_object_new_object();
	const struct rio_fio_job *e, *f;
	int i, n = rio_fio_output_njobs(fio);
	struct side r, t;
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
		f = tcp_twin(fio, e, wlen);
		if (f && side_of(&in, e, &r) && side_of(&in, f, &t))
			fair_check(checks, &r, &t, e->groupid,
				   links_gbps(links), flagged);
	}
	json_object_put(done);
}
