/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_DERIVE_H
#define RDMAIO_TOOLS_DERIVE_H

#include <json-c/json.h>

struct rio_fio_output;
struct rio_resultdoc;
struct rio_res_pair;

/* The host of a comparison that sums several hosts' jobs. */
#define RIO_DERIVE_ALL_CLIENTS "all clients"

/*
 * The result's "comparisons": for each host and workload that has both a
 * "<workload>-rdma" and a "<workload>-tcp" job, and each direction both
 * moved data in, bandwidth and IOPS (summed over the job's entries) side by
 * side with their RDMA/TCP ratio and completion latency percentiles; the
 * same against "<workload>-tcp-nconnect" ("against": which TCP). Then,
 * for each such pair that two or more hosts ran (several fio --client hosts
 * at once), the same over all of them: host RIO_DERIVE_ALL_CLIENTS, the
 * hosts' names in "clients".
 */
json_object *rio_derive_comparisons(const struct rio_fio_output *fio);

/*
 * Each of doc's comparisons gets its "verdict": one line of its ratios in
 * words (with the hosts' CPU per unit of work when host_cpu_per_gib is
 * known, fio's own client CPU otherwise), ending in caveat (NULL: none),
 * e.g. "software RDMA on an emulated CPU: ratios only". doc is a result,
 * or a round of one, read through the result's model (resultdoc.h).
 * Returns 0, or -ENOMEM with no verdict added.
 */
int rio_derive_verdicts(json_object *doc, const char *caveat);

/*
 * Adds key to each of doc's comparisons: what fn makes of its pair, read
 * through the result's model (rd, whose strings live until the model is
 * gone: the pairs are written after). Returns 0, or -errno with none added.
 */
typedef json_object *rio_derive_pair_fn(const struct rio_resultdoc *rd,
					const struct rio_res_pair *p,
					void *ctx);
int rio_derive_pairs_add(json_object *doc, const char *key,
			 rio_derive_pair_fn *fn, void *ctx);

#endif
