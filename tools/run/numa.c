// SPDX-License-Identifier: MIT
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpulist.h"
#include "base/jsonread.h"
#include "run/numa.h"

/* A hardware device with an ACTIVE port: the one the jobs can use. */
static int device_active(json_object *dev)
{
	json_object *ports = rio_json_get(dev, "ports");
	const char *st;
	size_t i;

	if (!rio_json_str(dev, "transport") ||
	    strcmp(rio_json_str(dev, "transport"), "hardware"))
		return 0;
	for (i = 0; i < rio_json_len(ports); i++) {
		st = rio_json_str(json_object_array_get_idx(ports, i), "state");
		if (st && !strcmp(st, "ACTIVE"))
			return 1;
	}
	return 0;
}

void rio_numa_plan(json_object *status, int want, struct rio_numa *out)
{
	json_object *devs = rio_json_get(status, "rdma_devices"), *d;
	const char *cpus = NULL;
	int node = -1, other = -1, n;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->node = -1;
	out->nodes = (int)rio_json_num(status, "numa_nodes", 0);
	for (i = 0; i < rio_json_len(devs); i++) {
		d = json_object_array_get_idx(devs, i);
		n = (int)rio_json_num(d, "numa_node", -1);
		if (!device_active(d) || n < 0)
			continue;
		if (node < 0) {
			node = n;
			cpus = rio_json_str(d, "numa_cpus");
		} else if (n != node) {
			other = n;
		}
	}
	if (node < 0)
		snprintf(
			out->note, sizeof(out->note),
			"no hardware RDMA device with an ACTIVE port has a NUMA node (software devices such as Soft-RoCE have none; a one-socket host may report none): jobs not placed");
	else if (other >= 0)
		snprintf(
			out->note, sizeof(out->note),
			"the RDMA devices sit on NUMA nodes %d and %d: jobs not placed; give each job cpus_allowed= for the device it uses",
			node, other);
	else if (!cpus || strlen(cpus) >= sizeof(out->cpus))
		snprintf(
			out->note, sizeof(out->note),
			"the CPUs of NUMA node %d (the RDMA device's) are not known: jobs not placed",
			node);
	if (out->note[0])
		return;
	out->node = node;
	snprintf(out->cpus, sizeof(out->cpus), "%s", cpus);
	if (!want)
		snprintf(
			out->note, sizeof(out->note),
			"--no-numa: jobs not placed; the RDMA device is on NUMA node %d (CPUs %s)",
			node, cpus);
}

static int bind_to(const unsigned char *set)
{
	size_t size = CPU_ALLOC_SIZE(RIO_CPULIST_MAX), i;
	cpu_set_t *cs = CPU_ALLOC(RIO_CPULIST_MAX);
	int ret = 0;

	if (!cs)
		return -ENOMEM;
	CPU_ZERO_S(size, cs);
	for (i = 0; i < RIO_CPULIST_MAX; i++)
		if (set[i / 8] & (1u << (i % 8)))
			CPU_SET_S(i, size, cs);
	if (sched_setaffinity(0, size, cs))
		ret = -errno;
	CPU_FREE(cs);
	return ret;
}

int rio_numa_place(struct rio_numa *n)
{
	unsigned char set[RIO_CPULIST_MAX / 8];
	int ret;

	if (n->node < 0 || n->note[0])
		return 0;
	ret = rio_cpulist_parse(n->cpus, set);
	if (!ret)
		ret = bind_to(set);
	if (ret)
		snprintf(
			n->note, sizeof(n->note),
			"binding to NUMA node %d's CPUs %s failed (%s): jobs not placed",
			n->node, n->cpus, strerror(-ret));
	else
		snprintf(n->note, sizeof(n->note),
			 "fio ran on NUMA node %d's CPUs %s, the RDMA device's",
			 n->node, n->cpus);
	n->placed = !ret;
	return ret;
}

json_object *rio_numa_json(const struct rio_numa *n)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(
		o, "node", n->node >= 0 ? json_object_new_int(n->node) : NULL);
	json_object_object_add(o, "nodes",
			       n->nodes > 0 ? json_object_new_int(n->nodes)
					    : NULL);
	json_object_object_add(
		o, "cpus", n->cpus[0] ? json_object_new_string(n->cpus) : NULL);
	json_object_object_add(o, "placed", json_object_new_boolean(n->placed));
	json_object_object_add(o, "note", json_object_new_string(n->note));
	return o;
}
