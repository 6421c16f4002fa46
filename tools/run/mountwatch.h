/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_MOUNTWATCH_H
#define RDMAIO_TOOLS_MOUNTWATCH_H

#include <json-c/json.h>

/*
 * Records every NFS mount seen in the mount table while fio runs: jobs mount
 * in exec_prerun and unmount in exec_postrun, so the table before or after
 * the run does not show what the jobs used.
 */
struct rio_mountwatch;

struct rio_mountwatch *rio_mountwatch_new(const char *root);

/* Reads the mount table once; usable as a rc_spawn_run_tick callback. */
void rio_mountwatch_sample(void *watch);

/* The distinct mounts seen, in first-seen order (a new reference). */
json_object *rio_mountwatch_seen(struct rio_mountwatch *w);

void rio_mountwatch_delete(struct rio_mountwatch **w);

#endif
