/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_CPUSTAT_H
#define RDMAIO_TOOLS_CPUSTAT_H

#include <json-c/json.h>

/* The columns of /proc/stat's "cpu" line that rdmaio keeps, in its order. */
enum rio_cpustat_field {
	RIO_CPU_USER,
	RIO_CPU_NICE,
	RIO_CPU_SYSTEM,
	RIO_CPU_IDLE,
	RIO_CPU_IOWAIT,
	RIO_CPU_IRQ,
	RIO_CPU_SOFTIRQ,
	RIO_CPU_STEAL,
	RIO_CPU_NFIELDS
};

/* One reading of a host's CPU time counters, summed over its CPUs. */
struct rio_cpustat {
	double t; /* when it was read: s on the reader's CLOCK_MONOTONIC */
	double ticks[RIO_CPU_NFIELDS]; /* in 1/hz s */
	int hz; /* the kernel's USER_HZ */
	int ncpu;
};

/* Reads root/proc/stat now. Returns 0 or a negative code. */
int rio_cpustat_read(const char *root, struct rio_cpustat *s);

/* CLOCK_MONOTONIC in seconds. */
double rio_cpustat_now(void);

/*
 * One `rdmaio cpu-watch` line: {"schema": "rdmaio-cpu/1", "t": ..., "hz":
 * ..., "ncpu": ..., "ticks": [user, nice, system, idle, iowait, irq,
 * softirq, steal]}, and back. Parsing checks every field; returns 0 or
 * -EINVAL.
 */
json_object *rio_cpustat_json(const struct rio_cpustat *s);
int rio_cpustat_parse(const char *line, struct rio_cpustat *s);

/*
 * The CPU time in seconds spent in field between times a and b of a series
 * of readings (ascending t), interpolated linearly between readings. NaN
 * when [a, b] is not inside the series.
 */
double rio_cpustat_between(const struct rio_cpustat *v, int n, double a,
			   double b, enum rio_cpustat_field field);

#endif
