/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_CSVOUT_H
#define RDMAIO_TOOLS_CSVOUT_H

#include <stdio.h>

struct rio_resultdoc;

/*
 * A result as CSV (RFC 4180) for spreadsheets: one header line, then a
 * "job" row per job and direction and a "pair" row per RDMA/TCP pair, in
 * plain units (bytes/s, ns, CPU seconds); a figure not known is empty.
 * Returns 0, or -EIO when out could not be written.
 */
int rio_csv_write(const struct rio_resultdoc *rd, FILE *out);

#endif
