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

/*
 * Whether every ${NAME} the job files use (outside comments) is set in the
 * environment: fio refuses a whole file for one that is not. 0, or -EINVAL
 * after naming the file, the line and the variable (or read_job's error).
 */
int rio_jobfiles_check_env(char *const paths[], int n);

struct rio_jobsection;

/*
 * The job sections of the fio job file at path (rio_jobsection_parse()),
 * or a negative code after naming the file.
 */
int rio_jobfile_sections(const char *path, struct rio_jobsection **out);

#endif
