/* SPDX-License-Identifier: MIT */
/*
 * The machine's RDMA and NFS state as one json-c object, schema
 * "rdmaio-status/1" (documented in deploy/README.md). Facts that cannot be
 * read are null, never guessed.
 */
#ifndef NR_STATUS_H
#define NR_STATUS_H

struct json_object;

#define NR_STATUS_SCHEMA "rdmaio-status/1"

/* Builds the status object; NULL only when memory runs out. */
struct json_object *nr_status_collect(void);

/* "10 Gb/sec (1X FDR10)" -> 10.0; -1 when it does not parse. */
double nr_status_rate_gbps(const char *rate);

/* "5: LinkUp" -> "LINK_UP"; NULL when unknown. */
const char *nr_status_phys_state(const char *sysfs);

int nr_cmd_status(int argc, char **argv);

#endif
