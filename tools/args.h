/* SPDX-License-Identifier: MIT */
/*
 * rdmaio's parsed command line: what each option set, the files given, and
 * the defaults before any option. The option tables (rdmaio.c) name an
 * option by its letter or OPT_ value; rio_args_set_option() is what it sets.
 */
#ifndef RDMAIO_TOOLS_ARGS_H
#define RDMAIO_TOOLS_ARGS_H

#include <stdbool.h>

#include "options.h"
#include "result/check.h"

struct rio_baseline;

/* What the tables and rio_args_set_option() call the options without a
 * letter. */
enum {
	OPT_CLIENT = OPT_LONG,
	OPT_FIO,
	OPT_FIO_JSON,
	OPT_TIMEOUT,
	OPT_GBPS,
	OPT_LL,
	OPT_MTU,
	OPT_EXPECT,
	OPT_PLOT,
	OPT_NOISE,
	OPT_REMOTE_ENV,
	OPT_SERVER_HOST,
	OPT_CLIENT_HOST,
	OPT_REMOTE_CPU,
	OPT_CSV,
	OPT_UNITS,
	OPT_INTERVAL,
	OPT_MAX_S,
	OPT_REPEAT,
	OPT_BASELINE,
	OPT_FORCE,
	OPT_NO_NUMA
};

/* One --client HOST and the job files that follow it. */
struct rio_client_arg {
	const char *host;
	char **jobs;
	int njobs;
};

struct rio_args {
	int argc; /* rdmaio's own command line, for the result */
	char **argv;
	const char *output, *fio, *fio_json, *plot, *remote_env, *remote_cpu;
	const char *server_host;
	char **client_hosts; /* --client-host, in the order given */
	int nclient_hosts;
	struct rio_client_arg *clients;
	int nclients;
	struct rio_baseline **baselines; /* --baseline, in the order given */
	int nbaselines;
	unsigned timeout_s, repeat;
	double noise;
	bool csv, gbit, force;
	bool no_numa; /* run: leave fio's CPUs as they are */
	unsigned interval_ms, max_s; /* cpu-watch */
	struct rio_link_opt link;
	char **pos;
	int npos;
	char **resolved; /* job paths rio_jobpath_resolve_all() made */
	int nresolved;
};

/* The defaults, before any option: what main starts from. */
void rio_args_init(struct rio_args *a, int argc, char **argv);

/*
 * Option C (a letter or OPT_ value) with its argument ARG; only the options
 * of the subcommand's tables get this far. C == RIO_OPT_FILE: a job file,
 * the last --client's when one came before it, as in fio. 0, or an error
 * after saying it (rio_opt_take_fn).
 */
int rio_args_set_option(struct rio_args *a, int c, char *arg);

void rio_args_free(struct rio_args *a);

#endif
