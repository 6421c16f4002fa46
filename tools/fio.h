/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_FIO_H
#define RDMAIO_TOOLS_FIO_H

#include <json-c/json.h>

struct rio_fio_run {
	const char *fio; /* binary, searched on PATH */
	char *const *jobs;
	int njobs;
	char *const *clients; /* fio --client hosts, none for a local run */
	int nclients;
	unsigned timeout_s; /* 0: no limit */
	void (*tick)(void *); /* called about every 100 ms while fio runs */
	void *tick_arg;
};

/*
 * Spawns fio with --output-format=json+ and its stdout in a temporary file,
 * then parses that JSON. *argv_out gets the exact argv as a JSON array.
 * Returns 0, or a negative code after printing why (fio missing, fio failed,
 * no JSON).
 */
int rio_fio_run(const struct rio_fio_run *r, json_object **argv_out,
		int *exit_status, json_object **output);

/*
 * Parses fio output text: fio may print warnings before its JSON, so parsing
 * starts at the first line that begins with '{'.
 */
int rio_fio_parse(const char *text, size_t len, const char *name,
		  json_object **output);

/*
 * Number of per-job entries in fio's output (jobs[], or client_stats[]
 * without fio's "All clients" sum) and the i-th one with its host.
 */
int rio_fio_entry_count(json_object *output);
json_object *rio_fio_entry(json_object *output, int i, const char *local_host,
			   const char **host);

#endif
