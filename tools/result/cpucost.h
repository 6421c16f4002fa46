/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_CPUCOST_H
#define RDMAIO_TOOLS_CPUCOST_H

#include <json-c/json.h>

#include "result/runrecord.h"
#include "result/summary.h"

struct rio_fio_output;
struct rio_hostmap;

/*
 * The hosts' CPU time over each job's own time window, in the result.
 *
 * A job's window ends when its process (or thread) ended on this host, as
 * the task watch saw it (within 50 ms), and starts the job's I/O time
 * before that (fio's per-direction runtime, the longest of a group's jobs),
 * which leaves out its set-up (file layout, connecting). Entries and tasks
 * are matched per fio run when the run was split by --section (a run's
 * entries are its job file's sections; its tasks, those of the k-th fio that
 * ran here), else all at once: a task per entry, in order; or as many tasks
 * per entry, in the order fio made them (numjobs with group_reporting); or a
 * group of tasks that ran at the same time per entry. A run that fits none
 * gets no windows, and the result says why. Jobs on other hosts get none
 * (their tasks are not seen from here); the CPU of every watched host is
 * still counted over the windows of this host's jobs.
 *
 * Adds doc's results[i].host_cpu (job i of fio) and each of its
 * comparisons' host_cpu_per_gib (its pairs read through resultdoc.h), and
 * sets *cpu to the result's "cpu" object: method, match, and each host's
 * series. tasks may be NULL (a run imported from JSON). Returns 0, or
 * -ENOMEM with *cpu NULL.
 */
struct rio_cpucost_in {
	/* the result or round being built: results[], one per entry of
	 * fio's output, and comparisons[] */
	json_object *doc;
	const struct rio_fio_output *fio;
	const struct rio_hostmap *map;
	const struct rio_cpu_series *cpu; /* every watched host's */
	int ncpu;
	const struct rio_task *tasks; /* NULL: a run imported from JSON */
	int ntasks;
	const struct rio_fio_host *hosts; /* --section filters per host */
	int nhosts;
};

int rio_cpucost_attribute(const struct rio_cpucost_in *in, json_object **cpu);

/*
 * Every watched host's CPU over [a, b] (this host's CLOCK_MONOTONIC) for
 * what moved m, as host_cpu objects; a host whose series does not cover
 * the window is left out. For a --baseline's run.
 */
json_object *rio_cpucost_window(const struct rio_cpu_series *cpu, int ncpu,
				const struct rio_hostmap *map, double a,
				double b, struct rio_moved m);

#endif
