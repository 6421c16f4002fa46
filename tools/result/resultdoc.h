/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_RESULTDOC_H
#define RDMAIO_TOOLS_RESULTDOC_H

#include <stddef.h>

#include <json-c/json.h>

/*
 * A result's figures read once into structs (results-schema/README.md
 * names each): its jobs (results[]), pairs (comparisons[]), baselines and
 * the hosts whose CPU was watched. The readers of a result take these,
 * not keys. A number the result holds as null, or lacks, is NaN; a string
 * it lacks is NULL. Strings live as long as the model.
 */
struct rio_resultdoc;

/* Completion latency percentiles of one direction or side, ns. */
struct rio_res_lat {
	double mean, p50, p99, p99_9;
};

/* One direction of a job (results[].read, .write). */
struct rio_res_dir {
	int set; /* 0: the job moved nothing this way (null) */
	double io_bytes, bw_bytes, iops, runtime_ms, total_ios;
	struct rio_res_lat clat;
};

/* One host's CPU over a window (host_cpu[]), or a pair's RDMA over TCP
 * CPU per unit there (host_cpu_per_gib[]: rdma_s, tcp_s, ratio). */
struct rio_res_cpu {
	const char *host;
	double busy_s, per_gib_s, per_kio_s;
	double rdma_s, tcp_s, ratio;
};

struct rio_res_cpus {
	const struct rio_res_cpu *v;
	size_t n;
};

enum { RIO_RES_READ, RIO_RES_WRITE, RIO_RES_NDIRS };

/* results[i]: one fio job entry. */
struct rio_res_job {
	const char *host, *jobname, *role, *workload, *transport;
	int groupid, error;
	struct rio_res_dir dir[RIO_RES_NDIRS];
	int has_fio_cpu; /* fio_cpu not null */
	double fio_cpu_s, fio_cpu_per_gib_s;
	struct rio_res_cpus host_cpu;
};

/* One transport's side of a pair. */
struct rio_res_side {
	const char *jobname;
	double bw_bytes, iops, fio_cpu_per_gib_s;
	struct rio_res_lat clat;
};

/* comparisons[i]: a workload's RDMA job against its TCP job. */
struct rio_res_pair {
	const char *host, *workload, *kind, *verdict;
	const char *direction, *tcp_direction;
	struct rio_res_side rdma, tcp;
	double bw_ratio, iops_ratio, p50_ratio, p99_ratio;
	double fio_cpu_per_gib_ratio;
	struct rio_res_cpus host_cpu_per_gib;
};

/* baselines[i]: a --baseline copy. */
struct rio_res_baseline {
	const char *name, *error;
	double bw_bytes;
	struct rio_res_cpus host_cpu;
};

/* Reads doc (a result). Returns 0, or -ENOMEM (nothing allocated). */
int rio_resultdoc_read(json_object *doc, struct rio_resultdoc **out);
void rio_resultdoc_delete(struct rio_resultdoc **rd);

/* This host's name (host.hostname). */
const char *rio_resultdoc_hostname(const struct rio_resultdoc *rd);

size_t rio_resultdoc_njobs(const struct rio_resultdoc *rd);
const struct rio_res_job *rio_resultdoc_job(const struct rio_resultdoc *rd,
					    size_t i);
size_t rio_resultdoc_npairs(const struct rio_resultdoc *rd);
const struct rio_res_pair *rio_resultdoc_pair(const struct rio_resultdoc *rd,
					      size_t i);
size_t rio_resultdoc_nbaselines(const struct rio_resultdoc *rd);
const struct rio_res_baseline *
rio_resultdoc_baseline(const struct rio_resultdoc *rd, size_t i);

/* The hosts whose CPU was watched, in the result's order (cpu.hosts[], a
 * result of rounds: its first round's). */
size_t rio_resultdoc_ncpu_hosts(const struct rio_resultdoc *rd);
const char *rio_resultdoc_cpu_host(const struct rio_resultdoc *rd, size_t i);

/* The entry of cpus for host, or NULL. */
const struct rio_res_cpu *rio_res_cpus_find(const struct rio_res_cpus *cpus,
					    const char *host);

#endif
