// SPDX-License-Identifier: MIT
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/check.h"
#include "result/fiooutput.h"
#include "result/resultenv.h"

static const char *const loopback_causes[] = {
	"the server side ran on the same host as the client (make demo HOSTS=1, or a SERVER= that is this host's own address)",
	"run it between two hosts: make demo (two lab guests), or make demo LAB=0 SERVER=<another host>",
	NULL,
};

/*
 * The job's peer and what it is (into what): its hostname option, or the
 * server of the NFS mount its files are on; *rdma says whether it goes over
 * RDMA (an rdma ioengine, or a proto=rdma mount), -1 when that is not known.
 * NULL for a target, or a job whose peer cannot be told.
 */
static char *job_peer(const struct rio_fio_output *fio,
		      const struct rio_fio_job *e,
		      const struct rio_env_mount *mounts, size_t nmounts,
		      char *what, size_t wlen, int *rdma)
{
	const char *h = rio_fio_job_setting(fio, e, "hostname"), *engine;
	const struct rio_env_mount *m;
	char *path, *peer = NULL;

	if (rio_fio_job_setting(fio, e, "listen"))
		return NULL;
	if (h) {
		engine = rio_fio_job_setting(fio, e, "ioengine");
		*rdma = !engine ? -1 : strstr(engine, "rdma") != NULL;
		snprintf(what, wlen, "its hostname=");
		return strdup(h);
	}
	path = rio_check_job_path(fio, e);
	m = path ? rio_check_mount_of(mounts, nmounts, path) : NULL;
	if (m && m->fstype && !strncmp(m->fstype, "nfs", 3) && m->source) {
		peer = rio_check_nfs_server(m->source);
		*rdma = m->proto && !strncmp(m->proto, "rdma", 4);
		snprintf(what, wlen, "the NFS server of %s", m->mountpoint);
	}
	free(path);
	return peer;
}

static int same_addr(const char *numeric, const char *have)
{
	size_t n = strcspn(have, "%"); /* fe80::1%eth0 */

	return strlen(numeric) == n && !strncmp(numeric, have, n);
}

/* 1 when peer (an address or a name) is one of the host's addresses, or
 * a loopback one. */
static int is_own(const char *peer, const struct rio_env_host *h)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai, *a;
	char buf[NI_MAXHOST];
	int own = 0;
	size_t i;

	if (getaddrinfo(peer, NULL, &hints, &ai))
		return -1;
	for (a = ai; a && !own; a = a->ai_next) {
		if (getnameinfo(a->ai_addr, a->ai_addrlen, buf, sizeof(buf),
				NULL, 0, NI_NUMERICHOST))
			continue;
		own = !strncmp(buf, "127.", 4) || !strcmp(buf, "::1");
		for (i = 0; !own && i < h->naddresses; i++)
			own = h->addresses[i] &&
			      same_addr(buf, h->addresses[i]);
	}
	freeaddrinfo(ai);
	return own;
}

/* h: what is known of the job's host (NULL: nothing). */
static void check_one(json_object *checks, const struct rio_fio_job *e,
		      const char *peer, const char *what, int rdma,
		      const struct rio_env_host *h, int *flagged)
{
	const char *name = e->jobname, *host = e->host;
	int gid = e->groupid, own, addrs = h && h->has_addresses;
	char msg[1024];

	own = addrs ? is_own(peer, h) : -1;
	if (own < 0) {
		snprintf(
			msg, sizeof(msg), "job %s on %s: its peer %s (%s) %s",
			name, host, peer, what,
			addrs ? "does not resolve here"
			      : "cannot be told apart from the host: no addresses recorded for it (record them with --remote-env)");
		rio_check_add(checks, "loopback", host, gid, NULL, "skipped",
			      NAN, NAN, msg, NULL);
		return;
	}
	if (!own)
		snprintf(msg, sizeof(msg),
			 "job %s on %s: its peer %s (%s) is another host", name,
			 host, peer, what);
	else
		snprintf(
			msg, sizeof(msg),
			"job %s on %s: its peer %s (%s) is an address of %s itself: %s: this is not a network comparison",
			name, host, peer, what, host,
			rdma > 0
				? "RDMA to its own address is looped back by the device (by Soft-RoCE, in software) and never crosses a link"
			: !rdma ? "TCP over loopback never reaches a NIC"
				: "traffic to one's own address never leaves the host (TCP over loopback never reaches a NIC; RDMA is looped back by the device)");
	rio_check_add(checks, "loopback", host, gid, NULL,
		      own ? "flagged" : "pass", NAN, NAN, msg,
		      own ? loopback_causes : NULL);
	*flagged += own;
}

void rio_check_loopback(const struct rio_fio_output *fio,
			const struct rio_resultenv *env, json_object *checks,
			int *flagged)
{
	json_object *done = json_object_new_object();
	int i, n = rio_fio_output_njobs(fio);
	char what[512], key[512], *peer;
	const struct rio_env_mount *mounts;
	const struct rio_env_host *h;
	const struct rio_fio_job *e;
	const char *host, *name;
	size_t nmounts;
	int rdma = 0;

	if (!env || !done) {
		json_object_put(done);
		return;
	}
	for (i = 0; i < n; i++) {
		e = rio_fio_output_job(fio, i);
		host = e->host;
		name = e->jobname;
		/* numjobs=N gives N entries of one job: one check. */
		snprintf(key, sizeof(key), "%s\n%s", host, name ? name : "");
		if (!name || json_object_object_get_ex(done, key, NULL))
			continue;
		json_object_object_add(done, key, NULL);
		h = rio_resultenv_host_named(env, host);
		mounts = rio_resultenv_host_mounts(env, h, &nmounts);
		peer = job_peer(fio, e, mounts, nmounts, what, sizeof(what),
				&rdma);
		if (peer)
			check_one(checks, e, peer, what, rdma, h, flagged);
		free(peer);
	}
	json_object_put(done);
}
