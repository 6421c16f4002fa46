/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_UNITS_H
#define RDMAIO_TOOLS_UNITS_H

#include <stddef.h>

/*
 * Figures as a person reads them: three significant digits and the unit
 * that keeps the number between 1 and 1000 (1024 for bytes). NaN prints
 * "-". The buffers get at most 32 bytes.
 */
#define RIO_UNITS_LEN 32

/* Bytes/s as B/s..TiB/s, or with gbit set as bits/s in Gb/s (perftest's
 * --report_gbits: decimal, 10^9 bits). */
void rio_units_rate(char *buf, double bytes_per_s, int gbit);

/* Bytes as B..TiB. */
void rio_units_bytes(char *buf, double bytes);

/* Nanoseconds as ns, µs (UTF-8), ms or s. */
void rio_units_ns(char *buf, double ns);

/* A count or rate of operations: 338, 5.84k, 1.20M. */
void rio_units_count(char *buf, double v);

/* A ratio: 0.58x, 2.40x, 12.3x. */
void rio_units_ratio(char *buf, double v);

#endif
