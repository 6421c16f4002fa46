/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_RUNRECORD_H
#define RDMAIO_TOOLS_RUNRECORD_H

#include <json-c/json.h>

#include "result/cpustat.h"

struct rio_hostmap;

/*
 * What running fio recorded, as the result takes it: the hosts of a
 * client/server run and their share of the jobs, fio's job tasks seen on
 * this host, and each watched host's CPU readings. run/ fills these in;
 * result/ reads them and never the watches themselves.
 */

/* One fio --server host of a client/server run, and its share of the jobs. */
struct rio_fio_host {
	char *client; /* as fio --client= takes it: HOST[,PORT], sock:PATH */
	const char *role; /* "server", "client", or NULL for --client */
	int local; /* rdmaio started this fio --server on this host */
	char **jobs; /* the job files sent there (not owned) */
	int njobs;
	char **sections; /* fio --section filters; none: every section */
	int *section_job; /* the index in jobs[] of each section's file */
	int nsections;
};

/* One of fio's job processes (or, with `thread`, job threads) on this
 * host, as the task watch saw it. */
struct rio_task {
	int id; /* pid, or tid with `thread` */
	int runner; /* the pid of the fio that ran it */
	double first; /* first seen, s on CLOCK_MONOTONIC */
	double last; /* last seen alive */
	double gone; /* first seen gone; 0 while alive */
	int thread;
};

/* One host's CPU counters over the run, on this host's clock, and for a
 * remote host the fio job tasks its watch saw there. */
struct rio_cpu_series {
	const char *client; /* NULL: this host; else its fio --client name */
	const char *command; /* what read them there; NULL: this host */
	const struct rio_cpustat *v; /* ascending t; NULL when none */
	int n;
	double clock_offset_s; /* added to the host's own clock */
	int bad_lines; /* lines of its watch that did not parse */
	const struct rio_task *tasks; /* a remote host's, on this clock */
	int ntasks;
	/* The remote watch reports tasks (an older rdmaio's does not). */
	int tasks_watched;
};

/* When one fio run ran: s on this host's CLOCK_MONOTONIC. */
struct rio_run_span {
	double start, end;
};

/*
 * The lines `rdmaio cpu-watch` prints besides its readings: a header,
 * {"schema": "rdmaio-tasks/1"}, saying that it reports fio's job tasks,
 * then one line per task when it is first seen and again when it is gone:
 * {"schema": "rdmaio-task/1", "id", "runner", "thread", "first", "last",
 * "gone"} (times on the watching host's clock, gone 0 while alive).
 * Parsing returns 0 (a task), 1 (the header) or -EINVAL.
 */
json_object *rio_runrecord_tasks_header_json(void);
json_object *rio_runrecord_task_json(const struct rio_task *t);
int rio_runrecord_task_parse(const char *line, struct rio_task *t);

/* One run of fio's command line (fio.runs[].argv): a run split by role
 * runs fio once per job file. */
struct rio_fio_argv {
	const char *const *v; /* NULL-terminated */
	size_t n;
	/* the run's [global] options (fio.runs[].global_options); NULL:
	 * none kept (one run: they are the output's own) */
	json_object *globals;
};

struct rio_fio_argvs {
	struct rio_fio_argv *v;
	size_t n;
};

/* Reads the command lines of runs (the record rio_fio_run fills in, or a
 * result's fio.runs; NULL: none), which must outlive them. Returns 0 or
 * -ENOMEM (then empty). Free with rio_runrecord_argvs_free. */
int rio_runrecord_argvs_read(json_object *runs, struct rio_fio_argvs *out);
void rio_runrecord_argvs_free(struct rio_fio_argvs *argvs);

/* The result's fio.hosts: client, host name, role, local, job files and
 * sections of each. */
json_object *rio_runrecord_hosts_json(const struct rio_fio_host *hosts,
				      int nhosts,
				      const struct rio_hostmap *map);

/* The result's cpu.hosts[] entry of a series, without its host: readings,
 * hz, ncpu, command, clock_offset_s, bad_lines. */
json_object *rio_runrecord_series_json(const struct rio_cpu_series *s);

#endif
