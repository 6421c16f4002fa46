/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_FIOENTRY_H
#define RDMAIO_TOOLS_FIOENTRY_H

#include <json-c/json.h>
#include <stddef.h>

struct rio_hostmap;

/*
 * fio's output as the checks may read it: with several job files, fio's
 * top-level "global options" are the last file's [global] only, which
 * would be read as every job's; such an output is given without them (a
 * new reference to a shallow copy). One job file: the output itself.
 */
json_object *rio_fio_attributable(json_object *output, size_t njob_files);

/*
 * Number of per-job entries in fio's output (jobs[], or client_stats[]
 * without fio's "All clients" sum) and the i-th one with its host.
 */
int rio_fio_entry_count(json_object *output);
json_object *rio_fio_entry(json_object *output, int i,
			   const struct rio_hostmap *hosts, const char **host);
/* Whether an entry of client_stats is fio's "All clients" sum. */
int rio_fio_entry_is_sum(json_object *e);

#endif
