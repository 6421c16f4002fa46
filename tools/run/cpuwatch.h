/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_CPUWATCH_H
#define RDMAIO_TOOLS_CPUWATCH_H

#include <json-c/json.h>

#include "result/cpustat.h"
#include "result/runrecord.h"

/*
 * The CPU counters of every host of a run, as time series on this host's
 * clock: this host's read from /proc/stat about every 100 ms while fio
 * runs, each remote host's from a command (`--remote-cpu`, e.g. `ssh HOST
 * rdmaio cpu-watch`) that prints one rdmaio-cpu/1 line per reading. A
 * remote reading is stamped with the remote's own monotonic clock; it is
 * put on this host's clock by the smallest (arrival here - remote stamp)
 * over all its lines, so the error is the fastest line's delay, a few ms
 * over ssh. Its command's task lines (rdmaio-task/1: fio's jobs there) are
 * kept with the series and moved by the same offset.
 */
struct rio_cpuwatch;

struct rio_cpuwatch *rio_cpuwatch_new(const char *root);

/* Starts argv for the host fio calls client; its stdout is read as lines.
 * Returns 0 or a negative code after saying why. */
int rio_cpuwatch_add_remote(struct rio_cpuwatch *w, const char *client,
			    char *const argv[]);

/* Adds one reading of this host's counters, later than the last one.
 * Returns 0, -EINVAL (not later) or -ENOMEM. */
int rio_cpuwatch_add_reading(struct rio_cpuwatch *w,
			     const struct rio_cpustat *c);

/* Reads this host's counters and every line the remote commands sent. */
void rio_cpuwatch_sample(struct rio_cpuwatch *w);

/*
 * Waits until every remote command has sent a reading, for at most
 * timeout_s: a reading before fio starts is what lets the first job's
 * window begin inside the series (ssh and a login shell can take seconds).
 * Returns 0, -EPIPE (a command ended without one) or -ETIMEDOUT, with the
 * series in *which.
 */
int rio_cpuwatch_wait_first(struct rio_cpuwatch *w, double timeout_s,
			    int *which);

/* The command of series i ("/proc/stat" reader: NULL for this host). */
const char *rio_cpuwatch_command(const struct rio_cpuwatch *w, int i);

/* Reads what is left and stops the remote commands (by pid). */
void rio_cpuwatch_stop(struct rio_cpuwatch *w);

/* Series: index 0 is this host (client NULL), then each remote one. */
int rio_cpuwatch_count(const struct rio_cpuwatch *w);
const char *rio_cpuwatch_client(const struct rio_cpuwatch *w, int i);

/*
 * Every series as the result takes it, its readings on this host's clock:
 * *n of them in *out (this host's first). They stay owned by w, valid until
 * its next reading or its end. Returns 0 or -ENOMEM.
 */
int rio_cpuwatch_record(struct rio_cpuwatch *w,
			const struct rio_cpu_series **out, int *n);

void rio_cpuwatch_delete(struct rio_cpuwatch **w);

#endif
