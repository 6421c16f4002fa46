/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_NUMA_H
#define RDMAIO_TOOLS_NUMA_H

#include <json-c/json.h>

/*
 * Where the RDMA NIC is: jobs run fastest on the CPUs of the NUMA node its
 * PCI function hangs off, and a job on another node's CPUs crosses the
 * interconnect for every buffer. rdmaio run binds itself, and so the fio it
 * starts here (processes inherit the CPU affinity), to that node's CPUs.
 */
struct rio_numa {
	int node; /* the RDMA devices' node; -1: none known */
	int nodes; /* NUMA nodes of this host; 0: not known */
	char cpus[256]; /* the node's CPUs as sysfs lists them; "" without */
	int placed; /* this process is bound to cpus */
	char note[320]; /* why it was not placed, or where */
};

/*
 * Decides from this host's environment status (rdmaio-status/1: the
 * numa_node and numa_cpus of each hardware RDMA device with an ACTIVE port,
 * and numa_nodes): the devices' node when they share one; none (with the
 * reason in note) for software devices, devices on several nodes, or when
 * want is 0 (--no-numa).
 */
void rio_numa_plan(json_object *status, int want, struct rio_numa *out);

/* Binds this process to n->cpus when n has a node; sets placed, or says
 * why not in note. Returns 0 or -errno (said in note, not printed). */
int rio_numa_place(struct rio_numa *n);

/* The result's host.numa; NULL when out of memory. */
json_object *rio_numa_json(const struct rio_numa *n);

#endif
