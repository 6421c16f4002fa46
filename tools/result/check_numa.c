// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpulist.h"
#include "base/jsonread.h"
#include "base/streq.h"
#include "result/check.h"
#include "result/fiooutput.h"
#include "result/hostmap.h"

static const char *const numa_causes[] = {
	"a job's cpus_allowed= or numa_cpu_nodes= names CPUs of another NUMA node than the RDMA device's: give it the device's node's CPUs",
	"rdmaio run --no-numa, or a run that could not bind itself: run without --no-numa, or bind fio yourself (numactl --cpunodebind)",
	NULL,
};

/* A job of this host whose own CPUs reach past the node's, into msg. */
static int job_crosses(const struct rio_fio_output *fio,
		       const struct rio_hostmap *map, int node,
		       const unsigned char *cpus, char *msg, size_t len)
{
	unsigned char set[RIO_CPULIST_MAX / 8];
	const struct rio_fio_job *e;
	const char *v, *nodes;
	int i, n = rio_fio_output_njobs(fio);

	for (i = 0; i < n; i++) {
		e = rio_fio_output_job(fio, i);
		if (!rio_hostmap_is_local(map, e->host))
			continue;
		v = rio_fio_job_setting(fio, e, "cpus_allowed");
		nodes = rio_fio_job_setting(fio, e, "numa_cpu_nodes");
		if (v && !rio_cpulist_parse(v, set) &&
		    !rio_cpulist_within(set, cpus)) {
			snprintf(
				msg, len,
				"job %s runs on cpus_allowed=%s, past NUMA node %d's CPUs, the RDMA device's: its buffers cross the interconnect",
				e->jobname ?: "?", v, node);
			return 1;
		}
		if (nodes && atoi(nodes) != node) {
			snprintf(
				msg, len,
				"job %s runs on numa_cpu_nodes=%s, not on NUMA node %d, the RDMA device's: its buffers cross the interconnect",
				e->jobname ?: "?", nodes, node);
			return 1;
		}
	}
	return 0;
}

void rio_check_numa(const struct rio_fio_output *fio,
		    const struct rio_hostmap *map, json_object *numa,
		    json_object *checks, int *flagged)
{
	const char *host = rio_hostmap_local(map), *cpus_s;
	unsigned char cpus[RIO_CPULIST_MAX / 8];
	int node, nodes, placed, bad;
	const char *note;
	char msg[1024];

	if (!numa)
		return;
	node = (int)rio_json_num(numa, "node", -1);
	nodes = (int)rio_json_num(numa, "nodes", 0);
	placed = json_object_get_boolean(rio_json_get(numa, "placed"));
	note = rio_json_str(numa, "note") ?: "";
	cpus_s = rio_json_str(numa, "cpus");
	if (node < 0 || !cpus_s || rio_cpulist_parse(cpus_s, cpus)) {
		rio_check_add(checks, "numa", host, -1, NULL, "skipped", NAN,
			      NAN, note, NULL);
		return;
	}
	bad = job_crosses(fio, map, node, cpus, msg, sizeof(msg));
	if (!bad && !placed && nodes > 1) {
		snprintf(
			msg, sizeof(msg),
			"fio's jobs could run on any of this host's %d NUMA nodes: %s",
			nodes, note);
		bad = 1;
	} else if (!bad) {
		snprintf(
			msg, sizeof(msg), "%s",
			placed ? note
			       : "one NUMA node: the jobs cannot cross to another");
	}
	rio_check_add(checks, "numa", host, -1, NULL, bad ? "flagged" : "pass",
		      NAN, NAN, msg, bad ? numa_causes : NULL);
	*flagged += bad;
}
