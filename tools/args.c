// SPDX-License-Identifier: MIT
/* rdmaio's parsed command line: each option's value checked and set. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "base/strv.h"
#include "rc_log.h"
#include "run/baseline.h"
#include "run/fiohosts.h"
#include "run/jobpath.h"

void rio_args_init(struct rio_args *a, int argc, char **argv)
{
	*a = (struct rio_args){ .argc = argc,
				.argv = argv,
				.fio = "fio",
				.noise = 5,
				.repeat = 1,
				.interval_ms = 100,
				.max_s = 3600 };
}

static int number(const char *opt, const char *s, double min, double max,
		  double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || isnan(*v) || *v < min || *v > max) {
		rc_err("option --%s: '%s' is not a number in %g..%g", opt, s,
		       min, max);
		return -EINVAL;
	}
	return 0;
}

#define BASELINES_MAX 8

static int add_baseline(struct rio_args *a, const char *spec)
{
	struct rio_baseline **nb, *b;
	int i, ret;

	if (a->nbaselines == BASELINES_MAX) {
		rc_err("run: more than %d --baseline commands", BASELINES_MAX);
		return -EINVAL;
	}
	ret = rio_baseline_parse(spec, &b);
	if (ret)
		return ret;
	for (i = 0; i < a->nbaselines; i++)
		if (!strcmp(rio_baseline_name(a->baselines[i]),
			    rio_baseline_name(b))) {
			rc_err("run: two --baseline commands are named %s: give each its own name",
			       rio_baseline_name(b));
			rio_baseline_delete(&b);
			return -EINVAL;
		}
	nb = realloc(a->baselines, (a->nbaselines + 1) * sizeof(*nb));
	if (!nb) {
		rio_baseline_delete(&b);
		return -ENOMEM;
	}
	a->baselines = nb;
	nb[a->nbaselines++] = b;
	return 0;
}

static int add_client(struct rio_args *a, const char *host)
{
	struct rio_client_arg *nc =
		realloc(a->clients, (a->nclients + 1) * sizeof(*nc));

	if (!nc)
		return -ENOMEM;
	a->clients = nc;
	nc[a->nclients++] = (struct rio_client_arg){ .host = host };
	return 0;
}

static int add_positional(struct rio_args *a, char *arg)
{
	struct rio_client_arg *c =
		a->nclients ? &a->clients[a->nclients - 1] : NULL;

	return c ? rio_strv_push(&c->jobs, &c->njobs, arg)
		 : rio_strv_push(&a->pos, &a->npos, arg);
}

void rio_args_free(struct rio_args *a)
{
	while (a->nclients)
		free(a->clients[--a->nclients].jobs);
	while (a->nbaselines)
		rio_baseline_delete(&a->baselines[--a->nbaselines]);
	free(a->baselines);
	free(a->clients);
	free(a->client_hosts);
	free(a->pos);
	rio_jobpath_free(a->resolved, a->nresolved);
}

static int rounds(struct rio_args *a, const char *arg)
{
	double v;

	if (number("repeat", arg, 1, 100, &v))
		return -EINVAL;
	if (v != (unsigned)v) {
		rc_err("option --repeat: '%s' is not a whole number of rounds (1..100)",
		       arg);
		return -EINVAL;
	}
	a->repeat = (unsigned)v;
	return 0;
}

static int units(struct rio_args *a, const char *arg)
{
	if (strcmp(arg, "binary") && strcmp(arg, "gbit")) {
		rc_err("option --units: '%s' is neither 'binary' (KiB/s, MiB/s, GiB/s) nor 'gbit' (Gb/s, as perftest's --report_gbits)",
		       arg);
		return -EINVAL;
	}
	a->gbit = !strcmp(arg, "gbit");
	return 0;
}

/* LINK options: the link that run and check judge against. */
static int link_option(struct rio_link_opt *l, int c, char *arg)
{
	double v;

	switch (c) {
	case OPT_GBPS:
		return number("link-gbps", arg, 0.001, 1e6, &l->rate_gbps);
	case OPT_LL:
		l->link_layer = arg;
		return 0;
	case OPT_MTU:
		if (number("mtu", arg, 256, 4096, &v))
			return -EINVAL;
		l->mtu = (int)v;
		return 0;
	default:
		return number("expect-link-pct", arg, 1, 100, &l->expect_pct);
	}
}

int rio_args_set_option(struct rio_args *a, int c, char *arg)
{
	double v;

	switch (c) {
	case RIO_OPT_FILE:
		return add_positional(a, arg);
	case 'o':
		a->output = arg;
		break;
	case OPT_CLIENT:
		return rio_fiohosts_check("client", arg) ?: add_client(a, arg);
	case OPT_SERVER_HOST:
		a->server_host = arg;
		return rio_fiohosts_check("server-host", arg);
	case OPT_CLIENT_HOST:
		return rio_fiohosts_check("client-host", arg)
			       ?: rio_strv_push(&a->client_hosts,
						&a->nclient_hosts, arg);
	case OPT_FIO:
		a->fio = arg;
		break;
	case OPT_FIO_JSON:
		a->fio_json = arg;
		break;
	case OPT_TIMEOUT:
		if (number("timeout", arg, 1, 86400, &v))
			return -EINVAL;
		a->timeout_s = (unsigned)v;
		break;
	case OPT_GBPS:
	case OPT_LL:
	case OPT_MTU:
	case OPT_EXPECT:
		return link_option(&a->link, c, arg);
	case OPT_PLOT:
		a->plot = arg;
		break;
	case OPT_REMOTE_ENV:
		a->remote_env = arg;
		break;
	case OPT_NOISE:
		return number("noise", arg, 0, 1000, &a->noise);
	case OPT_REMOTE_CPU:
		a->remote_cpu = arg;
		break;
	case OPT_CSV:
		a->csv = true;
		break;
	case OPT_UNITS:
		return units(a, arg);
	case OPT_INTERVAL:
		if (number("interval-ms", arg, 10, 60000, &v))
			return -EINVAL;
		a->interval_ms = (unsigned)v;
		break;
	case OPT_MAX_S:
		if (number("max-s", arg, 1, 7 * 86400, &v))
			return -EINVAL;
		a->max_s = (unsigned)v;
		break;
	case OPT_REPEAT:
		return rounds(a, arg);
	case OPT_BASELINE:
		return add_baseline(a, arg);
	case OPT_FORCE:
		a->force = true;
		break;
	case OPT_NO_NUMA:
		a->no_numa = true;
		break;
	default:
		rc_err("option %d is in a table but not in rio_args_set_option() (a bug in tools/args.c)",
		       c);
		return -EINVAL;
	}
	return 0;
}
