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
	"rdmaio run --no-numa, or a run that could not bind itself (its note says why): run without --no-numa",
	NULL,
};

/* Whether a numa_cpu_nodes= list ("1", "0-1", "all") names node alone. */
static int only_node(const char *list, int node)
{
	unsigned char set[RIO_CPULIST_MAX / 8], one[RIO_CPULIST_MAX / 8];

	if (rio_cpulist_parse(list, set) || node >= RIO_CPULIST_MAX)
		return 0;
	memset(one, 0, sizeof(one));
	one[node / 8] = (unsigned char)(1u << (node % 8));
	return !memcmp(set, one, sizeof(set));
}

/* A job of this host whose own CPUs reach past the node's, into msg. */
static int job_crosses(const struct rio_fio_output *fio, json_object *job_files,
		       const struct rio_hostmap *map, int node,
		       const unsigned char *cpus, char *msg, size_t len)
{
	unsigned char set[RIO_CPULIST_MAX / 8];
	const struct rio_fio_job *e;
	int i, n = rio_fio_output_njobs(fio), bad = 0;
	char *v, *nodes;

	for (i = 0; i < n && !bad; i++) {
		e = rio_fio_output_job(fio, i);
		if (!rio_hostmap_is_local(map, e->host))
			continue;
		v = rio_check_job_setting(fio, job_files, e, "cpus_allowed");
		nodes = rio_check_job_setting(fio, job_files, e,
					      "numa_cpu_nodes");
		if (v && !rio_cpulist_parse(v, set) &&
		    !rio_cpulist_within(set, cpus)) {
			snprintf(
				msg, len,
				"job %s runs on cpus_allowed=%s, past NUMA node %d's CPUs, the RDMA device's: its buffers cross the interconnect",
				e->jobname ?: "?", v, node);
			bad = 1;
		} else if (nodes && !only_node(nodes, node)) {
			snprintf(
				msg, len,
				"job %s runs on numa_cpu_nodes=%s, not on NUMA node %d, the RDMA device's: its buffers cross the interconnect",
				e->jobname ?: "?", nodes, node);
			bad = 1;
		}
		free(v);
		free(nodes);
	}
	return bad;
}

void rio_check_numa(const struct rio_fio_output *fio, json_object *job_files,
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
	bad = job_crosses(fio, job_files, map, node, cpus, msg, sizeof(msg));
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
			: nodes == 1
				? "one NUMA node: the jobs cannot cross to another"
				: "the host's NUMA nodes are not known: the jobs were not placed");
	}
	rio_check_add(checks, "numa", host, -1, NULL, bad ? "flagged" : "pass",
		      NAN, NAN, msg, bad ? numa_causes : NULL);
	*flagged += bad;
}
