/* SPDX-License-Identifier: MIT */
/*
 * A result-shaped document whose every name comes from fuzz input: the
 * pair's workload, host and job names, a per-host CPU row, a sweep's jobs
 * and fio's json+ entries with latency bins, so that each place the chart,
 * the CSV and the report print a name is reached.
 */
#ifndef FUZZ_NAMED_DOC_H
#define FUZZ_NAMED_DOC_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>

#define NAMED_DOC_NAMES 6
/* Longer names add nothing a shorter one cannot hold, and the chart's
 * fixed label buffers would then cut twin and name differently. */
#define NAMED_DOC_NAME_MAX 24

/* Splits data at NUL bytes into up to NAMED_DOC_NAMES names (missing ones
 * are ""); the first byte picks the shape (paired or jobs alone). twin
 * replaces every byte but digits, '-', ' ', '(' and ')' by two letters:
 * the same structure (sweep, labels), no byte that could be code; "All
 * clients", fio's sum over hosts, stays itself. */
json_object *named_doc_new(const uint8_t *data, size_t size, int twin);

#endif
