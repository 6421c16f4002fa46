/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_JOBPATH_H
#define RDMAIO_TOOLS_JOBPATH_H

/*
 * Job files by name, so that an installed rdmaio needs no checkout:
 * `rdmaio run verbs/bw` finds DATADIR/jobs/verbs/bw.fio. DATADIR is
 * $RDMAIO_DATADIR when that is set and not empty (the tests point it at a
 * staged install), else the folder make compiled in from PREFIX
 * (PREFIX/share/rdmaio).
 */

/* The data folder in use (see above); never NULL. */
const char *rio_jobpath_datadir(void);

/*
 * The job file ARG names, malloc'd: ARG itself when it names an existing
 * file (or one that exists but cannot be looked at: the reader then says
 * why); else, unless ARG is spelled as a path (a leading "/", "./" or
 * "../"), DATADIR/jobs/ARG or DATADIR/jobs/ARG.fio, the first that is a
 * regular file. NULL with errno: ENOENT when found nowhere, EEXIST when
 * a bare ARG names both a file here and another installed one, ENOMEM.
 */
char *rio_jobpath_resolve(const char *arg);

/*
 * The job files installed under DATADIR/jobs by the names
 * rio_jobpath_resolve() takes ("latency/rdma-vs-tcp, nfs/rand4k, ..."),
 * sorted, malloc'd; "" when there are none (or no such folder). NULL with
 * errno ENOMEM.
 */
char *rio_jobpath_installed(void);

/* Says on stderr that NAME was found nowhere, naming the installed ones. */
void rio_jobpath_report_missing(const char *name);

/*
 * Replaces each of the N job names in V by rio_jobpath_resolve()'s path.
 * The new strings are also pushed onto *OWNED (*NOWNED of them), which the
 * caller frees with rio_jobpath_free() once V is no longer used. Returns 0;
 * -ENOENT after rio_jobpath_report_missing(); -ENOMEM after saying so.
 */
int rio_jobpath_resolve_all(char **v, int n, char ***owned, int *nowned);

/* Frees what rio_jobpath_resolve_all() pushed onto OWNED, and OWNED. */
void rio_jobpath_free(char **owned, int nowned);

#endif
