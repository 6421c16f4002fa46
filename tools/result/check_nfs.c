// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/streq.h"
#include "result/check.h"
#include "result/fiooutput.h"
#include "result/hostmap.h"
#include "result/jobsection.h"
#include "base/jsonread.h"
#include "result/resultenv.h"
#include "result/summary.h"

static const char *const mismatch_causes[] = {
	"two mount points were swapped (RDMAIO_NFS_RDMA_DIR, RDMAIO_NFS_TCP_DIR, RDMAIO_NFS_TCPN_DIR)",
	"NFSv4.1+ session trunking: a second mount of one server reuses the first mount's transport (use vers=3 for both)",
	"the job's name does not say the transport its directory is mounted with",
	NULL,
};

static const char *const one_connection_causes[] = {
	"the -tcp-nconnect job's mount has one connection: Linux keeps one NFS client per server address, protocol and version, whose first mount sets its connections, so a --nconnect mount beside a plain TCP mount of the same address gets one (mount it by a second address of the server, with --nconnect 8)",
	"the job's name does not say the transport its directory is mounted with",
	NULL,
};

/* Whether mount m carries transport tr, a job name's: -tcp-nconnect is
 * TCP with several connections. */
static int transport_is(const struct rio_env_mount *m, const char *tr)
{
	if (!m->proto)
		return 0;
	if (!strcmp(tr, "tcp-nconnect"))
		return !strcmp(m->proto, "tcp") && m->nconnect > 1;
	return !strcmp(m->proto, tr);
}

/* ",nconnect=8" when the mount has several connections. */
static const char *nconnect_of(const struct rio_env_mount *m, char *buf,
			       size_t n)
{
	buf[0] = '\0';
	if (m->nconnect > 1)
		snprintf(buf, n, ",nconnect=%d", m->nconnect);
	return buf;
}

char *rio_check_job_path(const struct rio_fio_output *fio,
			 const struct rio_fio_job *job)
{
	const char *keys[] = { "filename", "directory" }, *v;
	size_t sc, k;

	for (sc = 0; sc < 2; sc++)
		for (k = 0; k < 2; k++) {
			v = sc ? rio_fio_output_global(fio, keys[k])
			       : rio_fio_job_option(fio, job, keys[k]);
			/* Several files are ':'-separated; the first one
			 * tells the mount. */
			if (v && v[0] == '/')
				return strndup(v, strcspn(v, ":"));
		}
	return NULL;
}

char *rio_check_job_setting(const struct rio_fio_output *fio,
			    json_object *job_files, const struct rio_fio_job *e,
			    const char *key)
{
	const char *v = rio_fio_job_setting(fio, e, key), *text;
	char *w = NULL;
	size_t i;

	if (v)
		return strdup(v);
	for (i = 0; !w && e->jobname && i < rio_json_len(job_files); i++) {
		text = rio_json_str(json_object_array_get_idx(job_files, i),
				    "text");
		w = text ? rio_jobsection_value(text, e->jobname, key) : NULL;
	}
	return w;
}

char *rio_check_nfs_server(const char *source)
{
	const char *colon;

	if (source[0] == '[') {
		colon = strchr(source, ']');
		return colon ? strndup(source + 1, colon - source - 1) : NULL;
	}
	colon = strchr(source, ':');
	return colon ? strndup(source, colon - source) : NULL;
}

const struct rio_env_mount *rio_check_mount_of(const struct rio_env_mount *v,
					       size_t n, const char *path)
{
	const struct rio_env_mount *best = NULL;
	size_t i, len, best_len = 0;

	for (i = 0; i < n; i++) {
		if (!v[i].mountpoint)
			continue;
		len = strlen(v[i].mountpoint);
		if (!strcmp(v[i].mountpoint, "/"))
			len = 0;
		if (strncmp(path, v[i].mountpoint, len) ||
		    (path[len] != '/' && path[len]) ||
		    (best && len <= best_len))
			continue;
		best = &v[i];
		best_len = len;
	}
	return best;
}

static const char *const local_causes[] = {
	"the NFS mount failed or was unmounted before the job ran, leaving the mount point a plain local folder (mount it before rdmaio run, or check the mount command's status in exec_prerun)",
	"the job's directory or filename points to the wrong folder (a typo, or RDMAIO_NFS_RDMA_DIR / RDMAIO_NFS_TCP_DIR / RDMAIO_NFS_TCPN_DIR left at a local default)",
	"the job does not use NFS at all: then its name should not end in -rdma, -tcp or -tcp-nconnect",
	"the file system was mounted in another mount namespace (a container) than rdmaio's, whose mount table rdmaio read",
	NULL,
};

/* A job whose files are on no NFS mount measured the local file system. */
static void not_on_nfs(json_object *checks, const char *host, int gid,
		       const char *name, const char *path, const char *tr,
		       int *flagged)
{
	char msg[1024];

	snprintf(
		msg, sizeof(msg),
		"job %s uses %s, which is on no NFS mount during the run: it measured the local file system, not NFS over %s",
		name, path,
		strcmp(tr, "tcp-nconnect") ? tr
					   : "tcp with several connections");
	rio_check_add(checks, "nfs-transport", host, gid, NULL, "flagged", NAN,
		      NAN, msg, local_causes);
	(*flagged)++;
}

void rio_check_nfs_transport(const struct rio_fio_output *fio,
			     const struct rio_hostmap *hosts,
			     const struct rio_resultenv *env,
			     json_object *checks, int *flagged)
{
	int i, n = rio_fio_output_njobs(fio), ok, gid;
	const char *host, *name, *tr, *proto, *const *causes;
	const struct rio_env_mount *m, *mounts;
	const struct rio_fio_job *e;
	size_t wlen, nmounts;
	char msg[1024], nc[32], *path;

	/* Without a record of the mounts nothing can be told. */
	if (!env || !rio_resultenv_mounts_recorded(env))
		return;
	mounts = rio_resultenv_mounts(env, &nmounts);
	for (i = 0; i < n; i++) {
		e = rio_fio_output_job(fio, i);
		host = e->host;
		name = e->jobname;
		tr = name ? rio_summary_transport(name, &wlen) : NULL;
		/* Mounts were read on this host: remote jobs cannot be told. */
		if (!tr || !rio_hostmap_is_local(hosts, host))
			continue;
		path = rio_check_job_path(fio, e);
		gid = e->groupid;
		m = path ? rio_check_mount_of(mounts, nmounts, path) : NULL;
		/* A device (NVMe over fabrics, say) is no file system. */
		if (!m && path && strncmp(path, "/dev/", 5))
			not_on_nfs(checks, host, gid, name, path, tr, flagged);
		if (!m) {
			free(path);
			continue;
		}
		proto = m->proto;
		ok = transport_is(m, tr);
		snprintf(
			msg, sizeof(msg),
			"job %s uses %s on %s mounted at %s with proto=%s%s: %s",
			name, path, m->source, m->mountpoint,
			proto ? proto : "unknown",
			nconnect_of(m, nc, sizeof(nc)),
			ok ? "as its name says"
			   : "not the transport its name says");
		causes = mismatch_causes;
		if (rio_streq(tr, "tcp-nconnect") && rio_streq(proto, "tcp"))
			causes = one_connection_causes;
		rio_check_add(checks, "nfs-transport", host, gid, NULL,
			      ok ? "pass" : "flagged", NAN, NAN, msg,
			      ok ? NULL : causes);
		*flagged += !ok;
		free(path);
	}
}
