/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_HOST_H
#define RDMAIO_TOOLS_HOST_H

#include <json-c/json.h>

/*
 * The result's "host" object. root prefixes /proc paths ("" on a real host,
 * a temporary folder in unit tests).
 */
json_object *rio_host_describe(const char *root);

/* The result's "versions" object; fio is the fio binary to ask. */
json_object *rio_host_versions(const char *fio);

/* Adds an "emulated-cpu" warning when host (rio_host_describe) says so;
 * 0, or -ENOMEM when host could not be read (the caller fails: a result
 * without the warning would read as if measured on hardware). */
int rio_host_warn_cpu(json_object *host, json_object *warnings);

/* Adds an {"code","message"} warning to the array. */
void rio_warn_add(json_object *warnings, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
