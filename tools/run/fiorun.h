/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_FIORUN_H
#define RDMAIO_TOOLS_FIORUN_H

#include <json-c/json.h>

#include "result/runrecord.h"

struct rio_fio_run {
	const char *fio; /* binary, searched on PATH */
	char *const *jobs; /* every job file, in order */
	int njobs;
	const struct rio_fio_host *hosts; /* client/server mode; none: local */
	int nhosts;
	unsigned timeout_s; /* 0: no limit */
	void (*tick)(void *); /* called about every 100 ms while fio runs */
	/* Called with tick_arg as each fio starts (end 0) and ends (1). */
	void (*edge)(void *tick_arg, int end);
	void *tick_arg;
};

/*
 * Spawns fio with --output-format=json+ and its stdout in a temporary file,
 * then parses that JSON. With --section filters (hosts split by role), fio
 * runs once per job file, since fio applies --section to the first job file
 * it reads only; the runs follow one another, as fio runs job files, and
 * their entries are joined into one output (fio's header from the first
 * run, every run's client_stats; the runs' [global] options, which belong
 * to one job file each, go to *runs). *runs gets {argv, exit_status,
 * global_options} per fio run. Returns 0, or a negative code after printing
 * why (fio missing, fio failed, no JSON, a host sent jobs that has no
 * entry: fio drops a host it cannot reach and still exits 0).
 */
int rio_fio_run(const struct rio_fio_run *r, json_object **runs,
		int *exit_status, json_object **output);

/*
 * Parses fio output text: fio may print warnings before its JSON, so parsing
 * starts at the first line that begins with '{'.
 */
int rio_fio_parse(const char *text, size_t len, const char *name,
		  json_object **output);

#endif
