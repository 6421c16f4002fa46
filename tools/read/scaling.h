/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_SCALING_H
#define RDMAIO_TOOLS_SCALING_H

#include <json-c/json.h>
#include <stdio.h>

/*
 * One set of jobs run several times, each time by another number of client
 * hosts at once (make demo CLIENTS=N runs 1 to N): per RDMA/TCP workload
 * and count, the aggregate bandwidth of each transport (a result's "all
 * clients" pair; its one pair where one client host ran it) and the CPU per
 * GiB of the host that served them (a watched host that ran none of the
 * pair's jobs).
 */
struct rio_scaling;

/*
 * docs[i] is the result read from names[i] (which messages name). Fails
 * with -EINVAL, after saying why, when a result has no RDMA/TCP pair,
 * client hosts without a sum of them, or the count of another one; with
 * -ENOMEM. The results must outlive the model.
 */
int rio_scaling_new(json_object *const *docs, const char *const *names,
		    size_t n, struct rio_scaling **out);
void rio_scaling_delete(struct rio_scaling **s);

/* Markdown: the table by workload and count, how each workload went from
 * the fewest clients to the most, and each count's verdict. */
int rio_scaling_report(const struct rio_scaling *s, FILE *f);

/* The chart (.svg or .png): aggregate bandwidth, and the server's CPU per
 * GiB, against the number of client hosts, RDMA and TCP per workload. */
int rio_scaling_plot(const struct rio_scaling *s, const char *path);

#endif
