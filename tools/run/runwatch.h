/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_RUNWATCH_H
#define RDMAIO_TOOLS_RUNWATCH_H

#include "run/fiorun.h"

struct rio_result_in;

/*
 * What rdmaio watches on the hosts while fio runs, about every 100 ms: this
 * host's NFS mounts, its CPU counters and fio's job tasks, and each remote
 * host's CPU counters through cpu_cmd (`--remote-cpu`, NULL: none).
 */
struct rio_runwatch;

/*
 * Starts watching; cpu_cmd runs once per host that is not this one (split
 * on blanks, %h as in --remote-env), before fio starts. Returns 0, or a
 * negative code after saying why (-EINVAL: no remote host for cpu_cmd).
 */
int rio_runwatch_start(const char *cpu_cmd, const struct rio_fio_host *hosts,
		       int nhosts, struct rio_runwatch **w);

/* One round of watching: rio_fio_run's tick. */
void rio_runwatch_tick(void *w);

/* A fio run starts (end 0) or ends (1): rio_fio_run's edge. */
void rio_runwatch_edge(void *w, int end);

/*
 * Stops the remote commands and hands what was seen to the result's
 * inputs: mounts_during_run, cpu, tasks and fio_run_spans (which stay
 * owned by w: delete w after the result is built). Returns 0 or -ENOMEM (said).
 */
int rio_runwatch_finish(struct rio_runwatch *w, struct rio_result_in *in);

void rio_runwatch_delete(struct rio_runwatch **w);

#endif
