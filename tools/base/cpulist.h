/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_CPULIST_H
#define RDMAIO_TOOLS_CPULIST_H

#include <stddef.h>

/* Enough for every CPU sysfs can list on hosts rdmaio meets. */
#define RIO_CPULIST_MAX 4096

/*
 * A CPU list as sysfs and fio's cpus_allowed write it ("0-3,8,10-11") into
 * set, a bitmap of RIO_CPULIST_MAX bits (RIO_CPULIST_MAX / 8 bytes, as
 * sched_setaffinity takes it); -EINVAL for one that is not such a list.
 */
int rio_cpulist_parse(const char *list, unsigned char *set);

/* Whether every CPU of a is in b. */
int rio_cpulist_within(const unsigned char *a, const unsigned char *b);

#endif
