/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_JOBFILE_H
#define RDMAIO_TOOLS_JOBFILE_H

#include <json-c/json.h>

/*
 * Builds the result's "job_files" array: path, sha256 and full text of each
 * job file. Fails with a message naming the file when one cannot be read or
 * is not text.
 */
int rio_jobfiles_record(char *const paths[], int n, json_object **out);

#endif
