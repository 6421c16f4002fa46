/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_RESULTENV_H
#define RDMAIO_TOOLS_RESULTENV_H

#include <stddef.h>

#include <json-c/json.h>

/*
 * What a result says its figures were measured on, read once into
 * structs (results-schema/README.md names each): this host and every
 * --client host whose environment was recorded (versions, CPU, RDMA ports,
 * NFS exports and mounts), the NFS mounts seen during the run, where
 * fio's client/server mode sent the jobs, the job files. A string the result
 * lacks is NULL, a number 0; strings live as long as the model.
 */
struct rio_resultenv;

/* One RDMA port (environment.status.rdma_devices[].ports[]). */
struct rio_env_port {
	int port, active_mtu;
	const char *state, *link_layer, *rate, *netdev;
	double rate_gbps; /* 0: not known */
};

struct rio_env_device {
	const char *name, *driver, *transport;
	const struct rio_env_port *ports;
	size_t nports;
};

/* One NFS export (environment.status.exports[]). */
struct rio_env_export {
	const char *path, *clients;
	const char *const *options;
	size_t noptions;
};

/* An NFS mount (environment.status.nfs_mounts[], or
 * environment.nfs_mounts_during_run[]); a number it lacks is 0, but
 * nconnect 1: the kernel leaves it out at its default, one connection. */
struct rio_env_mount {
	const char *source, *mountpoint, *fstype, *proto, *vers;
	int port, rsize, wsize, nconnect, timeo;
};

/* One host's setup: this host's, or a --client host's (remote_hosts[]). */
struct rio_env_host {
	const char *client, *host; /* remote only: fio's name, and the host's */
	const char *role; /* remote only: fio.hosts[]'s role, NULL for none */
	const char *hostname, *kernel, *cpu_model;
	const char *const *addresses; /* host.addresses */
	size_t naddresses;
	int has_addresses; /* 0: none recorded (not even an empty list) */
	int cpu_count, cpu_emulated;
	int lab; /* host.lab: an rdmaio lab guest */
	const char *rdmaio, *fio, *rdma_core; /* versions */
	const char *source; /* where its environment came from */
	const struct rio_env_device *devices;
	size_t ndevices;
	const struct rio_env_export *exports;
	size_t nexports;
	const struct rio_env_mount *mounts; /* when its status was taken */
	size_t nmounts;
	int nfsd_threads; /* -1: not recorded */
};

/* A job file the run used (job_files[]). */
struct rio_env_job_file {
	const char *path, *sha256;
};

/* Where fio's client/server mode sent jobs (fio.hosts[]). */
struct rio_env_fio_host {
	const char *client, *host, *role;
	int local;
};

/* Reads doc (a result). Returns 0, or -ENOMEM (nothing allocated). */
int rio_resultenv_read(json_object *doc, struct rio_resultenv **out);
/* Reads the parts of a result while it is built: its host object, its
 * remote_hosts and the NFS mounts seen during the run (each may be
 * NULL). */
int rio_resultenv_read_parts(json_object *host, json_object *remote_hosts,
			     json_object *mounts, struct rio_resultenv **out);
/* The same with this host's environment (its status: devices, exports,
 * nfsd). */
int rio_resultenv_read_run(json_object *host, json_object *environment,
			   json_object *remote_hosts, json_object *mounts,
			   struct rio_resultenv **out);
/* Reads an environment's status alone (a result's environment.status,
 * as rio_envstatus_gather makes it): the model's host then has its RDMA
 * devices, exports and NFS mounts, nothing else. */
int rio_resultenv_read_status(json_object *status, struct rio_resultenv **out);
void rio_resultenv_delete(struct rio_resultenv **env);

const struct rio_env_host *rio_resultenv_host(const struct rio_resultenv *env);

/* The host whose hostname is name: this one, or a --remote-env host;
 * NULL for none. */
const struct rio_env_host *
rio_resultenv_host_named(const struct rio_resultenv *env, const char *name);

/* The --client hosts whose environment was recorded (--remote-env);
 * remotes_recorded says whether the result has remote_hosts at all. */
int rio_resultenv_remotes_recorded(const struct rio_resultenv *env);
size_t rio_resultenv_nremotes(const struct rio_resultenv *env);
const struct rio_env_host *rio_resultenv_remote(const struct rio_resultenv *env,
						size_t i);

/* The NFS mounts seen while fio ran; mounts_recorded says whether they
 * were watched at all (not for an imported fio JSON). */
int rio_resultenv_mounts_recorded(const struct rio_resultenv *env);
size_t rio_resultenv_nmounts(const struct rio_resultenv *env);
/* All of them at once: *n of them. */
const struct rio_env_mount *
rio_resultenv_mounts(const struct rio_resultenv *env, size_t *n);
const struct rio_env_mount *rio_resultenv_mount(const struct rio_resultenv *env,
						size_t i);

/* The NFS mounts known of host h (*n of them): this host's as seen during
 * the run, a --remote-env host's as its environment was taken; none for
 * NULL. */
const struct rio_env_mount *
rio_resultenv_host_mounts(const struct rio_resultenv *env,
			  const struct rio_env_host *h, size_t *n);

size_t rio_resultenv_nfio_hosts(const struct rio_resultenv *env);
const struct rio_env_fio_host *
rio_resultenv_fio_host(const struct rio_resultenv *env, size_t i);

/* The hosts fio's client/server mode ran on, as fio names them
 * (fio.clients[]). */
size_t rio_resultenv_nfio_clients(const struct rio_resultenv *env);
const char *rio_resultenv_fio_client(const struct rio_resultenv *env, size_t i);

size_t rio_resultenv_njob_files(const struct rio_resultenv *env);
const struct rio_env_job_file *
rio_resultenv_job_files(const struct rio_resultenv *env, size_t *n);
const struct rio_env_job_file *
rio_resultenv_job_file(const struct rio_resultenv *env, size_t i);

/* Whether an export of path was what some job's mount used: a mount's
 * "SERVER:PATH" source ends in it. */
int rio_resultenv_export_used(const struct rio_resultenv *env,
			      const char *path);

#endif
