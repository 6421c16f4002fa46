/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_BASELINE_H
#define RDMAIO_TOOLS_BASELINE_H

#include <json-c/json.h>

/*
 * A baseline: one command timed beside fio's jobs, such as a file copied
 * with scp between the same two hosts (`--baseline 'scp=scp HOST:FILE %o'`).
 * rdmaio makes a private folder, runs the command (split on blanks, no
 * shell, found on PATH) with %o naming a file in that folder, and takes the
 * size of the regular file the command left there as the bytes it moved,
 * and the wall-clock time from its start to its exit (its own start-up and
 * any login included) as the time. The file and the folder go afterwards.
 */
struct rio_baseline;

/* Parses NAME=CMD. Returns 0, or -EINVAL after saying why. */
int rio_baseline_parse(const char *spec, struct rio_baseline **out);

/* What a run is called: NAME. */
const char *rio_baseline_name(const struct rio_baseline *b);

/*
 * Runs the baseline once, calling tick(arg) about every 100 ms while it
 * runs and stopping it after timeout_s. Appends its record to runs: {name,
 * command, argv, exit_status, bytes, elapsed_s, bw_bytes, cpu_s (user and
 * system time of the command and the children it waited for), window
 * {start_s, end_s} on this host's CLOCK_MONOTONIC, error}. Returns 0, -EIO
 * when the command failed (said why; the record has the error) or -ENOMEM.
 */
int rio_baseline_run(const struct rio_baseline *b, unsigned timeout_s,
		     void (*tick)(void *), void *arg, json_object *runs);

void rio_baseline_delete(struct rio_baseline **b);

#endif
