/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_TASKWATCH_H
#define RDMAIO_TOOLS_TASKWATCH_H

#include <sys/types.h>

#include "result/runrecord.h"

/*
 * fio's job processes (or, with `thread`, job threads) on this host, seen
 * by walking /proc about every 100 ms while fio runs: the fio processes
 * rdmaio started are "runners" (a plain fio, or the child a local fio
 * --server forks for each run), and every fio child process of a runner is
 * one job, as is every thread of a runner but its main one and its first
 * (fio's helper thread, made before any job): the jobs with `thread`.
 * Each is a struct rio_task (result/runrecord.h).
 */
struct rio_taskwatch;

/*
 * Walks root/proc for descendants of self ("" and getpid() outside tests);
 * self 0: the runs of every fio --server on the host, as `rdmaio
 * cpu-watch` reports them for a host that rdmaio reaches as a --client.
 */
struct rio_taskwatch *rio_taskwatch_new(const char *root, pid_t self);

/* One walk, at time now (s on CLOCK_MONOTONIC). */
void rio_taskwatch_sample(struct rio_taskwatch *w, double now);

/*
 * The job tasks seen, in the order fio started them (first seen, then id):
 * fio starts jobs in the order of its output's entries. The array stays
 * owned by w.
 */
const struct rio_task *rio_taskwatch_tasks(struct rio_taskwatch *w, int *n);

void rio_taskwatch_delete(struct rio_taskwatch **w);

#endif
