/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_JOBSECTION_H
#define RDMAIO_TOOLS_JOBSECTION_H

/* One job section of a fio job file. */
struct rio_jobsection {
	char *name;
	int listen; /* it, or a [global] before it, sets `listen`: a target */
};

/*
 * The job sections of a fio job file's text, in order ([global] left out),
 * from a file or as the result's job_files[] keep it. `listen` is what
 * makes a job passive in librdmaio and in fio's net engine: such a job is a
 * target (a TCP server) and belongs on the server host. Returns the count,
 * or -ENOMEM.
 */
int rio_jobsection_parse(const char *text, struct rio_jobsection **out);
void rio_jobsection_free(struct rio_jobsection *s, int n);

/*
 * What a job file's text sets key to for job section name: the section's
 * own line, else the last [global] before it (fio's order). The text as
 * written, ${VAR} and all; "" for a flag. Malloc'd; NULL when nothing sets
 * it, there is no such section, or out of memory.
 */
char *rio_jobsection_value(const char *text, const char *name, const char *key);

#endif
