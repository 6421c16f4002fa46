/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_RESULT_H
#define RDMAIO_TOOLS_RESULT_H

#include <json-c/json.h>

#include "result/check.h"
#include "result/runrecord.h"

struct rio_hostmap;

/* What a result is built from; the result takes its own references. */
struct rio_result_in {
	int argc;
	char *const *argv; /* rdmaio's own command line */
	const char *fio; /* binary, for its version */
	json_object *job_files;
	json_object *
		fio_runs; /* {argv, exit_status, ...} per run; NULL: imported */
	int fio_exit_status;
	const char *imported_from; /* NULL when rdmaio ran fio */
	const struct rio_fio_host *hosts; /* fio --client hosts, none locally */
	int nhosts;
	json_object *fio_output;
	json_object *mounts_during_run; /* NULL when fio did not run here */
	json_object *remote_hosts; /* rio_remote_gather's, NULL without one */
	struct rio_link_opt link;
	const char *root; /* prefix of /proc and /sys: "" outside tests */
	const struct rio_cpu_series *cpu; /* the hosts' CPU during the run */
	int ncpu; /* 0: not watched */
	const struct rio_task *tasks; /* fio's job tasks seen on this host */
	int ntasks;
	/* When each fio run ran, on this host's clock (fio_runs' order). */
	const struct rio_run_span *fio_run_spans;
	int nfio_run_spans;
	json_object *baselines; /* --baseline's records (baseline.h), or NULL */
	json_object *numa; /* host.numa (run/numa.h), or NULL: not placed */
	/*
	 * rdmaio run --repeat N with N > 1: each round's fio_runs,
	 * fio_exit_status, fio_output, mounts_during_run, cpu, ncpu, tasks,
	 * ntasks, fio_run_spans and baselines, which in's own then leaves unused; NULL: one run, in's.
	 */
	const struct rio_result_in *rounds;
	int nrounds;
};

/*
 * Builds a complete result document: versions, host, environment, fio's
 * output, results, comparisons, links, checks and warnings. *flagged gets
 * the number of flagged checks. Returns 0 or a negative code.
 */
int rio_result_build(const struct rio_result_in *in, json_object **doc,
		     int *flagged);

/*
 * Serializes doc, validates exactly those bytes against the built-in schema
 * and only then writes them atomically to path.
 */
int rio_result_write(json_object *doc, const char *path);

/*
 * The names of a result's hosts: this host's, and each fio --client
 * host's as fio.hosts[] (or remote_hosts[]) recorded it. NULL: no memory.
 */
struct rio_hostmap *rio_result_hostmap(json_object *doc);

/*
 * How far the result's ratios may be taken, from its warnings about the
 * hosts: "software RDMA on an emulated CPU: ratios only", ...; NULL when
 * nothing limits them. From the warnings themselves, or from whether it
 * warned of software RDMA and of an emulated CPU.
 */
const char *rio_result_caveat(json_object *warnings);
const char *rio_result_caveat_of(int sw, int emu);

/*
 * What rdmaio check reads of a result, or of fio's own JSON: whether doc
 * is fio's own JSON (no fio block: nothing of its hosts is known), its
 * fio output (doc itself for fio's JSON), its fio runs (fio.runs: NULL
 * but for a run split by role), its environment's status and how many
 * rounds it holds (0 without rounds[]). None is a new reference.
 */
int rio_result_is_bare_fio(json_object *doc);
json_object *rio_result_fio_output(json_object *doc);
/* Round k's fio output (0-based; doc's own without rounds), not a new
 * reference; NULL when there is none. */
json_object *rio_result_round_fio_output(json_object *doc, int k);
json_object *rio_result_fio_runs(json_object *doc);
json_object *rio_result_env_status(json_object *doc);
int rio_result_nrounds(json_object *doc);

/*
 * The result doc as if it had round i (0-based) only: that round's fio,
 * NFS mounts, results, comparisons and cpu with doc's other members, for
 * the checks of one fio run. doc itself when it has no rounds. A new
 * reference; NULL when i is out of range.
 */
json_object *rio_result_round_view(json_object *doc, int i);

/* Loads a result and checks it against the schema; prints why not. */
int rio_result_load(const char *path, json_object **doc);

#endif
