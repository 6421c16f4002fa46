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

/* One job section of a fio job file. */
struct rio_jobfile_section {
	char *name;
	int listen; /* it, or a [global] before it, sets `listen`: a target */
};

/*
 * The job sections of a fio job file, in order ([global] left out). `listen`
 * is what makes a job passive in librdmaio and in fio's net engine: such a
 * job is a target (a TCP server) and belongs on the server host. Returns the
 * count, or a negative code after naming the file.
 */
int rio_jobfile_sections(const char *path, struct rio_jobfile_section **out);
/* The same from a job file's text, as the result's job_files[] keep it. */
int rio_jobfile_sections_text(const char *text,
			      struct rio_jobfile_section **out);
void rio_jobfile_sections_free(struct rio_jobfile_section *s, int n);

#endif
