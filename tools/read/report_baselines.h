/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_REPORT_BASELINES_H
#define RDMAIO_TOOLS_REPORT_BASELINES_H

#include <stdio.h>

#include "result/resultdoc.h"

/*
 * The report's part on a result's baselines (rdmaio run --baseline): one
 * verdict line per baseline, read against the sequential read pairs (a
 * comparison of kind bandwidth, reads on both sides), and a table of the
 * baselines and those pairs' sides with their bandwidth, the ratio to the
 * first baseline and each host's CPU per GiB (rates in Gb/s when gbit).
 * Nothing without baselines.
 */
void rio_report_baselines_verdicts(const struct rio_resultdoc *rd, FILE *out);
void rio_report_baselines_table(const struct rio_resultdoc *rd, int gbit,
				FILE *out);

#endif
