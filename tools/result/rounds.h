/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_ROUNDS_H
#define RDMAIO_TOOLS_ROUNDS_H

#include <json-c/json.h>

/*
 * A result of several rounds (rdmaio run --repeat N) keeps each round's
 * results and comparisons in rounds[], and sums them up at the top: each
 * entry matched across the rounds (results by host, job name and
 * occurrence; comparisons by host, workload and directions) with every
 * number the median over the rounds that have it, and an "over_rounds"
 * member holding the spread of the figures that matter (median, min and
 * max; for the RDMA/TCP ratios also their geometric mean and its 95 % t
 * interval on log ratios, see stats.h).
 */

/* The level of the ratios' intervals. */
#define RIO_ROUNDS_LEVEL 0.95

/* The top-level "results" of rounds (the rounds[] array of a result). */
json_object *rio_rounds_results(json_object *rounds);

/* The top-level "comparisons", without verdicts (rio_derive_verdicts). */
json_object *rio_rounds_comparisons(json_object *rounds);

/* The top-level "baselines": each --baseline by name, its figures the
 * medians, over_rounds its bandwidth's and time's spread. */
json_object *rio_rounds_baselines(json_object *rounds);

/* The number at a dotted path ("read.clat_ns.p50"), NaN when absent. */
double rio_rounds_num(json_object *o, const char *path);

#endif
