// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonread.h"
#include "base/arena.h"
#include "base/streq.h"
#include "result/resultenv.h"

struct rio_resultenv {
	/* held: the strings point into them (a result; a status alone; or
	 * a result's host, remote_hosts and mounts while it is built) */
	json_object *held[4];
	struct rio_arena arena; /* every array of the model */
	struct rio_env_host host;
	struct rio_env_host *remotes;
	size_t nremotes;
	struct rio_env_mount *mounts;
	size_t nmounts;
	struct rio_env_fio_host *fio_hosts;
	size_t nfio_hosts;
	const char **fio_clients;
	size_t nfio_clients;
	struct rio_env_job_file *job_files;
	size_t njob_files;
	int remotes_recorded, mounts_recorded;
};

/* The parts of a result the model reads; a part it lacks is NULL. */
struct parts {
	json_object *host, *versions, *environment, *mounts, *fio;
	json_object *remote_hosts, *job_files;
};

static int int_of(json_object *o, const char *key, int def)
{
	return (int)rio_json_num(o, key, def);
}

/* The strings of arr into a new array of the model, NULL when out of
 * memory. */
static const char **strings_of(struct rio_resultenv *env, json_object *arr,
			       size_t *n)
{
	const char **v;
	size_t i;

	*n = rio_json_len(arr);
	v = rio_arena_calloc(&env->arena, *n, sizeof(*v));
	for (i = 0; v && i < *n; i++)
		v[i] = json_object_get_string(
			json_object_array_get_idx(arr, i));
	return v;
}

static int ports_of(struct rio_resultenv *env, struct rio_env_device *d,
		    json_object *arr)
{
	struct rio_env_port *v;
	json_object *p;
	size_t i;

	d->nports = rio_json_len(arr);
	d->ports = v = rio_arena_calloc(&env->arena, d->nports, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < d->nports; i++) {
		p = json_object_array_get_idx(arr, i);
		v[i] = (struct rio_env_port){
			.port = int_of(p, "port", 0),
			.active_mtu = int_of(p, "active_mtu", 0),
			.state = rio_json_str(p, "state"),
			.link_layer = rio_json_str(p, "link_layer"),
			.rate = rio_json_str(p, "rate"),
			.rate_gbps = rio_json_num(p, "rate_gbps", 0),
			.netdev = rio_json_str(p, "netdev"),
		};
	}
	return 0;
}

static int devices_of(struct rio_resultenv *env, struct rio_env_host *h,
		      json_object *arr)
{
	struct rio_env_device *v;
	json_object *d;
	size_t i;

	h->ndevices = rio_json_len(arr);
	h->devices = v = rio_arena_calloc(&env->arena, h->ndevices, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < h->ndevices; i++) {
		d = json_object_array_get_idx(arr, i);
		v[i].name = rio_json_str(d, "name");
		v[i].driver = rio_json_str(d, "driver");
		v[i].transport = rio_json_str(d, "transport");
		if (ports_of(env, &v[i], rio_json_get(d, "ports")))
			return -ENOMEM;
	}
	return 0;
}

static int exports_of(struct rio_resultenv *env, struct rio_env_host *h,
		      json_object *arr)
{
	struct rio_env_export *v;
	json_object *e;
	size_t i;

	h->nexports = rio_json_len(arr);
	h->exports = v = rio_arena_calloc(&env->arena, h->nexports, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < h->nexports; i++) {
		e = json_object_array_get_idx(arr, i);
		v[i].path = rio_json_str(e, "path");
		v[i].clients = rio_json_str(e, "clients");
		v[i].options = strings_of(env, rio_json_get(e, "options"),
					  &v[i].noptions);
		if (!v[i].options)
			return -ENOMEM;
	}
	return 0;
}

/* The mounts of arr into a new array of the model, NULL when out of
 * memory. */
static struct rio_env_mount *mounts_of(struct rio_resultenv *env,
				       json_object *arr, size_t *n)
{
	struct rio_env_mount *v;
	json_object *m;
	size_t i;

	*n = rio_json_len(arr);
	v = rio_arena_calloc(&env->arena, *n, sizeof(*v));
	for (i = 0; v && i < *n; i++) {
		m = json_object_array_get_idx(arr, i);
		v[i] = (struct rio_env_mount){
			.source = rio_json_str(m, "source"),
			.mountpoint = rio_json_str(m, "mountpoint"),
			.fstype = rio_json_str(m, "fstype"),
			.proto = rio_json_str(m, "proto"),
			.vers = rio_json_str(m, "vers"),
			.port = int_of(m, "port", 0),
			.rsize = int_of(m, "rsize", 0),
			.wsize = int_of(m, "wsize", 0),
			.nconnect = int_of(m, "nconnect", 1),
			.timeo = int_of(m, "timeo", 0),
		};
	}
	return v;
}

/* A host from its host and versions objects and its environment (the
 * result's own, or a remote_hosts[] entry's env). */
static int host_of(struct rio_resultenv *env, struct rio_env_host *h,
		   json_object *host, json_object *ver, json_object *envdoc)
{
	json_object *cpu = rio_json_get(host, "cpu");
	json_object *st = rio_json_get(envdoc, "status");

	h->hostname = rio_json_str(host, "hostname");
	h->has_addresses = rio_json_get(host, "addresses") != NULL;
	h->addresses = strings_of(env, rio_json_get(host, "addresses"),
				  &h->naddresses);
	h->kernel = rio_json_str(ver, "kernel");
	h->cpu_model = rio_json_str(cpu, "model");
	h->cpu_count = int_of(cpu, "count", 0);
	h->cpu_emulated =
		json_object_get_boolean(rio_json_get(cpu, "emulated"));
	h->lab = json_object_get_boolean(rio_json_get(host, "lab"));
	h->rdmaio = rio_json_str(ver, "rdmaio");
	h->fio = rio_json_str(ver, "fio");
	h->rdma_core = rio_json_str(ver, "rdma_core");
	h->source = rio_json_str(envdoc, "source");
	h->mounts = mounts_of(env, rio_json_get(st, "nfs_mounts"), &h->nmounts);
	h->nfsd_threads = int_of(rio_json_get(st, "nfsd"), "threads", -1);
	if (!h->addresses || !h->mounts ||
	    devices_of(env, h, rio_json_get(st, "rdma_devices")))
		return -ENOMEM;
	return exports_of(env, h, rio_json_get(st, "exports"));
}

static void fio_hosts_of(struct rio_resultenv *env, json_object *arr)
{
	json_object *h;
	size_t i;

	for (i = 0; i < env->nfio_hosts; i++) {
		h = json_object_array_get_idx(arr, i);
		env->fio_hosts[i] = (struct rio_env_fio_host){
			.client = rio_json_str(h, "client"),
			.host = rio_json_str(h, "host"),
			.role = rio_json_str(h, "role"),
			.local = json_object_get_boolean(
				rio_json_get(h, "local")),
		};
	}
}

/* The role fio.hosts[] gives the host fio calls client, NULL for none. */
static const char *role_of(const struct rio_resultenv *env, const char *client)
{
	size_t i;

	for (i = 0; client && i < env->nfio_hosts; i++)
		if (env->fio_hosts[i].client &&
		    !strcmp(env->fio_hosts[i].client, client))
			return env->fio_hosts[i].role;
	return NULL;
}

static int remotes_of(struct rio_resultenv *env, json_object *arr)
{
	struct rio_env_host *h;
	json_object *r, *e;
	size_t i;

	for (i = 0; i < env->nremotes; i++) {
		r = json_object_array_get_idx(arr, i);
		e = rio_json_get(r, "env");
		h = &env->remotes[i];
		h->client = rio_json_str(r, "client");
		h->host = rio_json_str(r, "host");
		h->role = role_of(env, h->client);
		if (host_of(env, h, rio_json_get(e, "host"),
			    rio_json_get(e, "versions"),
			    rio_json_get(e, "environment")))
			return -ENOMEM;
	}
	return 0;
}

/* fio.clients[] and job_files[]: what ran where, and from which files. */
static int inputs_of(struct rio_resultenv *env, const struct parts *p)
{
	json_object *fc = rio_json_get(p->fio, "clients");
	json_object *jf = p->job_files, *j;
	size_t i;

	env->fio_clients = strings_of(env, fc, &env->nfio_clients);
	env->njob_files = rio_json_len(jf);
	env->job_files = rio_arena_calloc(&env->arena, env->njob_files,
					  sizeof(*env->job_files));
	if (!env->fio_clients || !env->job_files)
		return -ENOMEM;
	for (i = 0; i < env->njob_files; i++) {
		j = json_object_array_get_idx(jf, i);
		env->job_files[i].path = rio_json_str(j, "path");
		env->job_files[i].sha256 = rio_json_str(j, "sha256");
	}
	return 0;
}

static int read_all(struct rio_resultenv *env, const struct parts *p)
{
	json_object *fh = rio_json_get(p->fio, "hosts");

	env->mounts_recorded = p->mounts != NULL;
	env->mounts = mounts_of(env, p->mounts, &env->nmounts);
	env->nfio_hosts = rio_json_len(fh);
	env->fio_hosts = rio_arena_calloc(&env->arena, env->nfio_hosts,
					  sizeof(*env->fio_hosts));
	env->remotes_recorded = p->remote_hosts != NULL;
	env->nremotes = rio_json_len(p->remote_hosts);
	env->remotes = rio_arena_calloc(&env->arena, env->nremotes,
					sizeof(*env->remotes));
	if (!env->mounts || !env->fio_hosts || !env->remotes ||
	    inputs_of(env, p))
		return -ENOMEM;
	fio_hosts_of(env, fh);
	if (host_of(env, &env->host, p->host, p->versions, p->environment))
		return -ENOMEM;
	return remotes_of(env, p->remote_hosts);
}

/* A model of the parts, holding the n objects of held. */
static int read_new(const struct parts *p, json_object *const *held, int n,
		    struct rio_resultenv **out)
{
	struct rio_resultenv *env = calloc(1, sizeof(*env));
	int i;

	*out = NULL;
	if (!env)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		env->held[i] = json_object_get(held[i]);
	if (read_all(env, p)) {
		rio_resultenv_delete(&env);
		return -ENOMEM;
	}
	*out = env;
	return 0;
}

int rio_resultenv_read(json_object *doc, struct rio_resultenv **out)
{
	json_object *e = rio_json_get(doc, "environment");
	struct parts p = {
		.host = rio_json_get(doc, "host"),
		.versions = rio_json_get(doc, "versions"),
		.environment = e,
		.mounts = rio_json_get(e, "nfs_mounts_during_run"),
		.fio = rio_json_get(doc, "fio"),
		.remote_hosts = rio_json_get(doc, "remote_hosts"),
		.job_files = rio_json_get(doc, "job_files"),
	};

	return read_new(&p, &doc, 1, out);
}

int rio_resultenv_read_run(json_object *host, json_object *environment,
			   json_object *remote_hosts, json_object *mounts,
			   struct rio_resultenv **out)
{
	struct parts p = { .host = host,
			   .environment = environment,
			   .mounts = mounts,
			   .remote_hosts = remote_hosts };
	json_object *held[4] = { host, environment, remote_hosts, mounts };

	return read_new(&p, held, 4, out);
}

int rio_resultenv_read_parts(json_object *host, json_object *remote_hosts,
			     json_object *mounts, struct rio_resultenv **out)
{
	return rio_resultenv_read_run(host, NULL, remote_hosts, mounts, out);
}

int rio_resultenv_read_status(json_object *status, struct rio_resultenv **out)
{
	struct rio_resultenv *env = calloc(1, sizeof(*env));

	*out = NULL;
	if (!env)
		return -ENOMEM;
	env->held[0] = json_object_get(status);
	env->host.mounts = mounts_of(env, rio_json_get(status, "nfs_mounts"),
				     &env->host.nmounts);
	if (!env->host.mounts ||
	    devices_of(env, &env->host, rio_json_get(status, "rdma_devices")) ||
	    exports_of(env, &env->host, rio_json_get(status, "exports"))) {
		rio_resultenv_delete(&env);
		return -ENOMEM;
	}
	*out = env;
	return 0;
}

void rio_resultenv_delete(struct rio_resultenv **envp)
{
	struct rio_resultenv *env = *envp;
	int i;

	if (!env)
		return;
	rio_arena_free(&env->arena);
	for (i = 0; i < (int)(sizeof(env->held) / sizeof(env->held[0])); i++)
		json_object_put(env->held[i]);
	free(env);
	*envp = NULL;
}

const struct rio_env_host *rio_resultenv_host(const struct rio_resultenv *env)
{
	return &env->host;
}

int rio_resultenv_remotes_recorded(const struct rio_resultenv *env)
{
	return env->remotes_recorded;
}

const struct rio_env_mount *
rio_resultenv_host_mounts(const struct rio_resultenv *env,
			  const struct rio_env_host *h, size_t *n)
{
	*n = 0;
	if (h == &env->host)
		return rio_resultenv_mounts(env, n);
	if (!h)
		return NULL;
	*n = h->nmounts;
	return h->mounts;
}

const struct rio_env_host *
rio_resultenv_host_named(const struct rio_resultenv *env, const char *name)
{
	size_t i;

	if (rio_streq(env->host.hostname, name))
		return &env->host;
	/* A later --remote-env entry of one host describes it last. */
	for (i = env->nremotes; i-- > 0;)
		if (rio_streq(env->remotes[i].hostname, name))
			return &env->remotes[i];
	return NULL;
}

size_t rio_resultenv_nremotes(const struct rio_resultenv *env)
{
	return env->nremotes;
}

const struct rio_env_host *rio_resultenv_remote(const struct rio_resultenv *env,
						size_t i)
{
	return i < env->nremotes ? &env->remotes[i] : NULL;
}

int rio_resultenv_mounts_recorded(const struct rio_resultenv *env)
{
	return env->mounts_recorded;
}

const struct rio_env_mount *
rio_resultenv_mounts(const struct rio_resultenv *env, size_t *n)
{
	*n = env->nmounts;
	return env->mounts;
}

size_t rio_resultenv_nmounts(const struct rio_resultenv *env)
{
	return env->nmounts;
}

const struct rio_env_mount *rio_resultenv_mount(const struct rio_resultenv *env,
						size_t i)
{
	return i < env->nmounts ? &env->mounts[i] : NULL;
}

size_t rio_resultenv_nfio_hosts(const struct rio_resultenv *env)
{
	return env->nfio_hosts;
}

const struct rio_env_fio_host *
rio_resultenv_fio_host(const struct rio_resultenv *env, size_t i)
{
	return i < env->nfio_hosts ? &env->fio_hosts[i] : NULL;
}

size_t rio_resultenv_nfio_clients(const struct rio_resultenv *env)
{
	return env->nfio_clients;
}

const char *rio_resultenv_fio_client(const struct rio_resultenv *env, size_t i)
{
	return i < env->nfio_clients ? env->fio_clients[i] : NULL;
}

const struct rio_env_job_file *
rio_resultenv_job_files(const struct rio_resultenv *env, size_t *n)
{
	*n = env->njob_files;
	return env->job_files;
}

size_t rio_resultenv_njob_files(const struct rio_resultenv *env)
{
	return env->njob_files;
}

const struct rio_env_job_file *
rio_resultenv_job_file(const struct rio_resultenv *env, size_t i)
{
	return i < env->njob_files ? &env->job_files[i] : NULL;
}

int rio_resultenv_export_used(const struct rio_resultenv *env, const char *path)
{
	const char *colon;
	size_t i;

	for (i = 0; path && i < env->nmounts; i++) {
		colon = env->mounts[i].source
				? strrchr(env->mounts[i].source, ':')
				: NULL;
		if (colon && !strcmp(colon + 1, path))
			return 1;
	}
	return 0;
}
