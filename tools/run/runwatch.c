// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "result/cpustat.h"
#include "run/cpuwatch.h"
#include "rc_log.h"
#include "run/mountwatch.h"
#include "result/hostmap.h"
#include "result/result.h"
#include "run/runwatch.h"
#include "base/strv.h"
#include "run/taskwatch.h"

/* ssh with a login shell on an emulated host takes seconds, not minutes. */
#define FIRST_READING_S 60

struct rio_runwatch {
	struct rio_mountwatch *mounts;
	struct rio_cpuwatch *cpu;
	struct rio_taskwatch *tasks;
	struct rio_run_span *spans; /* each fio run's */
	int nspans;
};

/* Every remote host's first reading, before fio starts. */
static int first_readings(struct rio_runwatch *w)
{
	int i = 0, ret = rio_cpuwatch_wait_first(w->cpu, FIRST_READING_S, &i);

	if (ret == -EPIPE)
		rc_err("run: --remote-cpu for %s: '%s' ended without printing a reading (run it by hand: it must print `rdmaio cpu-watch` lines until stopped); no result written",
		       rio_cpuwatch_client(w->cpu, i),
		       rio_cpuwatch_command(w->cpu, i));
	else if (ret)
		rc_err("run: --remote-cpu for %s: '%s' printed no reading in %d s (a slow ssh login, or a command that is not `rdmaio cpu-watch`); no result written",
		       rio_cpuwatch_client(w->cpu, i),
		       rio_cpuwatch_command(w->cpu, i), FIRST_READING_S);
	return ret ? -EIO : 0;
}

static int start_remote_cpu(struct rio_runwatch *w, const char *cmd,
			    const struct rio_fio_host *hosts, int nhosts)
{
	char *name, **argv;
	int i, ret = 0, remotes = 0;

	for (i = 0; i < nhosts && !ret; i++) {
		if (hosts[i].local)
			continue;
		remotes++;
		name = rio_hostmap_fio_name(hosts[i].client);
		ret = name ? rio_strv_split(cmd, 'h', name, &argv) : -ENOMEM;
		free(name);
		if (ret == -EINVAL)
			rc_err("run: --remote-cpu '%s' has no word to run (give a command, e.g. 'ssh -- %%h rdmaio cpu-watch')",
			       cmd);
		if (ret)
			break;
		ret = rio_cpuwatch_add_remote(w->cpu, hosts[i].client, argv);
		rio_strv_free(argv);
	}
	if (!ret && !remotes) {
		rc_err("run: --remote-cpu watches the CPU of hosts other than this one; give --client HOST or a --server-host/--client-host that is not 'local' (this host's own is always watched)");
		ret = -EINVAL;
	}
	return ret ? ret : first_readings(w);
}

int rio_runwatch_start(const char *cpu_cmd, const struct rio_fio_host *hosts,
		       int nhosts, struct rio_runwatch **out)
{
	struct rio_runwatch *w = calloc(1, sizeof(*w));
	int ret = -ENOMEM;

	*out = NULL;
	if (!w)
		return -ENOMEM;
	w->mounts = rio_mountwatch_new("");
	w->cpu = rio_cpuwatch_new("");
	w->tasks = rio_taskwatch_new("", getpid());
	if (w->mounts && w->cpu && w->tasks)
		ret = cpu_cmd ? start_remote_cpu(w, cpu_cmd, hosts, nhosts) : 0;
	if (ret) {
		rio_runwatch_delete(&w);
		return ret;
	}
	rio_runwatch_tick(w);
	*out = w;
	return 0;
}

void rio_runwatch_tick(void *arg)
{
	struct rio_runwatch *w = arg;

	rio_mountwatch_sample(w->mounts);
	rio_cpuwatch_sample(w->cpu);
	rio_taskwatch_sample(w->tasks, rio_cpustat_now());
}

void rio_runwatch_edge(void *arg, int end)
{
	struct rio_runwatch *w = arg;
	struct rio_run_span *ns;

	if (end) {
		if (w->nspans)
			w->spans[w->nspans - 1].end = rio_cpustat_now();
		return;
	}
	ns = realloc(w->spans, (w->nspans + 1) * sizeof(*ns));
	if (!ns)
		return;
	w->spans = ns;
	ns[w->nspans++] = (struct rio_run_span){ rio_cpustat_now(), NAN };
}

int rio_runwatch_finish(struct rio_runwatch *w, struct rio_result_in *in)
{
	int i, ret;

	/* Readings past the last job's end, from every host: a remote one
	 * arrives up to an interval after it was taken. */
	for (i = 0; i < 3; i++) {
		usleep(100000);
		rio_runwatch_tick(w);
	}
	rio_cpuwatch_stop(w->cpu);
	in->mounts_during_run = rio_mountwatch_seen(w->mounts);
	in->tasks = rio_taskwatch_tasks(w->tasks, &in->ntasks);
	in->fio_run_spans = w->spans;
	in->nfio_run_spans = w->nspans;
	ret = rio_cpuwatch_record(w->cpu, &in->cpu, &in->ncpu);
	if (ret)
		rc_call_err(-ret, "rio_cpuwatch_record(%d series)",
			    rio_cpuwatch_count(w->cpu));
	return ret;
}

void rio_runwatch_delete(struct rio_runwatch **w)
{
	if (!w || !*w)
		return;
	rio_mountwatch_delete(&(*w)->mounts);
	rio_cpuwatch_delete(&(*w)->cpu);
	rio_taskwatch_delete(&(*w)->tasks);
	free((*w)->spans);
	free(*w);
	*w = NULL;
}
