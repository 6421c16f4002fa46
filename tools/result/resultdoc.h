/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_RESULTDOC_H
#define RDMAIO_TOOLS_RESULTDOC_H

#include <stddef.h>

#include <json-c/json.h>

/*
 * A result's figures read once into structs (results-schema/README.md
 * names each): its jobs (results[]), pairs (comparisons[]), baselines,
 * the hosts whose CPU was watched, and what its checks and warnings
 * said. The readers of a result take these, not keys. A number the result holds as null, or lacks, is NaN; a string
 * it lacks is NULL. Strings live as long as the model.
 */
struct rio_resultdoc;

/* One figure over the rounds (a result of rounds' over_rounds): its
 * median, smallest and largest round, and how many rounds had it; set 0
 * when the result holds none (null, or not a result of rounds). */
struct rio_res_spread {
	int set, n;
	double median, min, max;
};

/* An RDMA/TCP ratio over the rounds: its spread, with the geometric
 * mean of the rounds' ratios and its 95 % interval (NaN: none). */
struct rio_res_ratio {
	struct rio_res_spread spread;
	double geomean, ci95_low, ci95_high;
};

/* A direction's or a side's figures over the rounds. */
struct rio_res_figures {
	int set;
	struct rio_res_spread bw_bytes, iops, p50, p99;
};

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
	double fio_cpu_s, fio_cpu_per_gib_s, fio_cpu_per_kio_s;
	double fio_usr_pct, fio_sys_pct;
	struct rio_res_cpus host_cpu;
	struct {
		int rounds; /* 0: not a result of rounds */
		struct rio_res_figures dir[RIO_RES_NDIRS];
	} over_rounds;
};

/* One transport's side of a pair. */
struct rio_res_side {
	const char *jobname;
	double bw_bytes, iops, fio_cpu_per_gib_s;
	struct rio_res_lat clat;
};

/* A pair's CPU ratio on one host over the rounds. */
struct rio_res_host_ratio {
	const char *host;
	struct rio_res_ratio ratio;
};

/* comparisons[i]: a workload's RDMA job against one of its TCP jobs:
 * against is "tcp" (also for a result from before it was said) or
 * "tcp-nconnect", and tcp that job's side. */
struct rio_res_pair {
	const char *host, *workload, *against, *kind, *verdict;
	/* The hosts an "all clients" pair sums; none for one host's. */
	const char **clients;
	size_t nclients;
	const char *direction, *tcp_direction;
	struct rio_res_side rdma, tcp;
	double bw_ratio, iops_ratio, p50_ratio, p99_ratio;
	double fio_cpu_per_gib_ratio;
	struct rio_res_cpus host_cpu_per_gib;
	struct {
		int rounds; /* 0: not a result of rounds */
		struct rio_res_figures rdma, tcp;
		struct rio_res_ratio bw_ratio, iops_ratio, p50_ratio, p99_ratio,
			fio_cpu_per_gib_ratio;
		const struct rio_res_host_ratio *host_cpu_per_gib;
		size_t nhost_cpu_per_gib;
	} over_rounds;
};

/* baselines[i]: a --baseline copy. */
struct rio_res_baseline {
	const char *name, *command, *error;
	double bytes, elapsed_s, bw_bytes, cpu_per_gib_s;
	struct rio_res_cpus host_cpu;
	struct {
		int rounds, failed; /* rounds 0: not a result of rounds */
		struct rio_res_spread bw_bytes, elapsed_s;
	} over_rounds;
};

/* One side of an NFS comparison (checks[].settings.rdma, .tcp,
 * .tcp_nconnect): its mount, export and server; a number it lacks is 0, a
 * side the check lacks has no jobname. */
struct rio_res_fair_side {
	const char *jobname, *host, *source, *mountpoint, *proto, *vers;
	const char *server, *export, *export_sync;
	int rsize, wsize, nconnect, timeo, nfsd_threads, depth;
};

enum { RIO_RES_NFAIR = 3 };

/* checks[i]: one check of the run. */
struct rio_res_check {
	const char *name, *status, *message, *host;
	/* a fairness check's settings, RIO_RES_NFAIR of them: RDMA, TCP,
	 * TCP nconnect; NULL for none */
	const struct rio_res_fair_side *settings;
	const char *const *causes; /* likely_causes */
	size_t ncauses;
	const int *rounds; /* a result of rounds: the rounds it came out in */
	size_t nrounds;
};

/* warnings[i]. */
struct rio_res_warning {
	const char *code, *message;
};

/* Reads doc (a result). Returns 0, or -ENOMEM (nothing allocated). */
int rio_resultdoc_read(json_object *doc, struct rio_resultdoc **out);
void rio_resultdoc_delete(struct rio_resultdoc **rd);

/* This host's name (host.hostname). */
const char *rio_resultdoc_hostname(const struct rio_resultdoc *rd);

/* How many rounds it holds (rdmaio run --repeat N), 0 without rounds[]. */
int rio_resultdoc_nrounds(const struct rio_resultdoc *rd);

/* Round k (0-based) as a model of its own: its jobs and pairs as that
 * round measured them (rounds[k]); for k = 0 of a result without rounds,
 * the result itself. NULL past the last. */
const struct rio_resultdoc *rio_resultdoc_round(const struct rio_resultdoc *rd,
						int k);

/* Whether the hosts' CPU was watched (cpu), and how its windows were
 * matched to the jobs (cpu.match; NULL when not said). */
int rio_resultdoc_has_cpu(const struct rio_resultdoc *rd);
const char *rio_resultdoc_cpu_match(const struct rio_resultdoc *rd);

/* The links' payload ceiling, bytes/s: the sum over links[] (each port
 * the jobs used); NaN without links. */
double rio_resultdoc_link_ceiling(const struct rio_resultdoc *rd);

/* Whether the jobs (pairs) come from more than one host: their labels
 * then name it. */
int rio_resultdoc_jobs_multi_host(const struct rio_resultdoc *rd);
int rio_resultdoc_pairs_multi_host(const struct rio_resultdoc *rd);

size_t rio_resultdoc_njobs(const struct rio_resultdoc *rd);
const struct rio_res_job *rio_resultdoc_job(const struct rio_resultdoc *rd,
					    size_t i);
size_t rio_resultdoc_npairs(const struct rio_resultdoc *rd);
const struct rio_res_pair *rio_resultdoc_pair(const struct rio_resultdoc *rd,
					      size_t i);
/*
 * A job is the same job in another result or round when its host and job
 * name are; a pair when its host, workload, TCP side and directions are. numjobs
 * without group_reporting repeats a job, so the occ-th (0-based) of them
 * is matched with the occ-th: occurrence says how many entries before
 * entry i are the same, find the occ-th like like (NULL when none).
 */
int rio_resultdoc_job_occurrence(const struct rio_resultdoc *rd, size_t i);
const struct rio_res_job *rio_resultdoc_job_find(const struct rio_resultdoc *rd,
						 const struct rio_res_job *like,
						 int occ);
/* Pair p of rd as it is against another TCP ("tcp", "tcp-nconnect"): the
 * same host, workload and directions, so the same RDMA side; NULL when rd
 * has none. */
const struct rio_res_pair *
rio_resultdoc_pair_against(const struct rio_resultdoc *rd,
			   const struct rio_res_pair *p, const char *against);

/* What a person calls the TCP side of p: "TCP", "TCP nconnect". */
const char *rio_res_pair_against_name(const struct rio_res_pair *p);

/* Whether p is against TCP with several connections ("tcp-nconnect"). */
int rio_res_pair_is_nconnect(const struct rio_res_pair *p);

/* Whether host ran pair p's jobs: its host, or one an "all clients" pair
 * sums. */
int rio_res_pair_ran_on(const struct rio_res_pair *p, const char *host);
int rio_resultdoc_pair_occurrence(const struct rio_resultdoc *rd, size_t i);
/* Whether rd pairs p's workload on p's host against p's TCP more than once
 * (a mixed job's read and write): its verdicts and tables then name p's
 * direction. */
int rio_resultdoc_pair_is_one_of_several(const struct rio_resultdoc *rd,
					 const struct rio_res_pair *p);
const struct rio_res_pair *
rio_resultdoc_pair_find(const struct rio_resultdoc *rd,
			const struct rio_res_pair *like, int occ);

size_t rio_resultdoc_nbaselines(const struct rio_resultdoc *rd);
const struct rio_res_baseline *
rio_resultdoc_baseline(const struct rio_resultdoc *rd, size_t i);

size_t rio_resultdoc_nchecks(const struct rio_resultdoc *rd);
const struct rio_res_check *rio_resultdoc_check(const struct rio_resultdoc *rd,
						size_t i);
size_t rio_resultdoc_nwarnings(const struct rio_resultdoc *rd);
/* Whether a warning of this code ("software-rdma") is among them. */
int rio_resultdoc_warned(const struct rio_resultdoc *rd, const char *code);
const struct rio_res_warning *
rio_resultdoc_warning(const struct rio_resultdoc *rd, size_t i);

/* The hosts whose CPU was watched, in the result's order (cpu.hosts[], a
 * result of rounds: its first round's). */
size_t rio_resultdoc_ncpu_hosts(const struct rio_resultdoc *rd);
const char *rio_resultdoc_cpu_host(const struct rio_resultdoc *rd, size_t i);

/* The entry of cpus for host, or NULL. */
const struct rio_res_cpu *rio_res_cpus_find(const struct rio_res_cpus *cpus,
					    const char *host);

#endif
