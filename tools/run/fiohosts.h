/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_FIOHOSTS_H
#define RDMAIO_TOOLS_FIOHOSTS_H

#include <json-c/json.h>

#include "run/fiorun.h"

struct rio_hostmap;

/* The word that makes a host this one: rdmaio starts its fio --server. */
#define RIO_FIOHOSTS_LOCAL "local"

/*
 * --server-host SERVER --client-host CLIENT...: every job file's target
 * sections (those with `listen`: librdmaio targets, fio net servers) go to
 * SERVER, all others to each CLIENT (nclients >= 1), as fio --section
 * filters; a host left with no section is left out. Fails (after saying
 * why) when a section name is a target in one file and a client in
 * another, or a file has no section.
 */
int rio_fiohosts_split(const char *server, char *const clients[], int nclients,
		       char *const jobs[], int njobs,
		       struct rio_fio_host **hosts, int *nhosts);

/*
 * -EINVAL after saying why when two of the client hosts are one host (by
 * the host in fio's form: its jobs would run twice there and count as two
 * clients), or one is the server while there are several (a one-host run
 * is one --client-host local with --server-host local).
 */
int rio_fiohosts_distinct(const char *server, char *const clients[],
			  int nclients);

/*
 * A host as fio's --client takes it (HOST, HOST,PORT, ip:, ip6:, sock:PATH,
 * or local), given with option opt: -EINVAL after saying why when it, or
 * the host in it, begins with '-' (ssh, scp and fio would read it as an
 * option: -oProxyCommand=... runs a command) or holds a blank or a control
 * character (a remote shell would split it).
 */
int rio_fiohosts_check(const char *opt, const char *spec);

/* Appends a --client HOST with its own job files (not copied). */
int rio_fiohosts_add(struct rio_fio_host **hosts, int *nhosts,
		     const char *client, char **jobs, int njobs);

void rio_fiohosts_free(struct rio_fio_host *hosts, int nhosts);

#endif
