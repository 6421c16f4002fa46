// SPDX-License-Identifier: MIT
/*
 * Where fio runs against the RDMA device's NUMA node: the plan from an
 * environment status (as rc_status_collect reads a sysfs, which
 * tests/deploy/test-status.c checks against a temporary root), the bind in
 * a child process, the CPU lists, and the numa check of a result.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/cpulist.h"
#include "base/jsonread.h"
#include "result/check.h"
#include "result/fiooutput.h"
#include "result/hostmap.h"
#include "run/numa.h"

/* mlx5_0 on node NODE (with CPUs CPUS) of two, and a Soft-RoCE device. */
static json_object *status(int node, const char *cpus, const char *state)
{
	char doc[1024];

	snprintf(doc, sizeof(doc),
		 "{\"schema\":\"rdmaio-status/1\",\"numa_nodes\":2,"
		 "\"rdma_devices\":["
		 "{\"name\":\"mlx5_0\",\"transport\":\"hardware\","
		 "\"numa_node\":%d,\"numa_cpus\":\"%s\","
		 "\"ports\":[{\"port\":1,\"state\":\"%s\"}]},"
		 "{\"name\":\"rxe0\",\"transport\":\"software\","
		 "\"numa_node\":null,\"numa_cpus\":null,"
		 "\"ports\":[{\"port\":1,\"state\":\"ACTIVE\"}]}]}",
		 node, cpus, state);
	return json_tokener_parse(doc);
}

static void cpulist__parses_sysfs_and_fio_lists(void **state)
{
	unsigned char a[RIO_CPULIST_MAX / 8], b[RIO_CPULIST_MAX / 8];

	(void)state;
	assert_int_equal(rio_cpulist_parse("0-3,8,10-11\n", a), 0);
	assert_int_equal(a[0], 0x0f);
	assert_int_equal(a[1], 0x0d);
	assert_int_equal(rio_cpulist_parse("8", b), 0);
	assert_true(rio_cpulist_within(b, a));
	assert_false(rio_cpulist_within(a, b));
	assert_int_equal(rio_cpulist_parse("", a), -EINVAL);
	assert_int_equal(rio_cpulist_parse("3-1", a), -EINVAL);
	assert_int_equal(rio_cpulist_parse("1,", a), -EINVAL);
	assert_int_equal(rio_cpulist_parse("0-99999", a), -EINVAL);
	assert_int_equal(rio_cpulist_parse("0-3:2", a), -EINVAL);
}

static void plan__the_active_hardware_devices_node(void **state)
{
	json_object *st = status(1, "1", "ACTIVE");
	struct rio_numa n;

	(void)state;
	rio_numa_plan(st, 1, &n);
	assert_int_equal(n.node, 1);
	assert_int_equal(n.nodes, 2);
	assert_string_equal(n.cpus, "1");
	assert_string_equal(n.note, "");
	rio_numa_plan(st, 0, &n);
	assert_int_equal(n.node, 1);
	assert_non_null(strstr(n.note, "--no-numa: jobs not placed"));
	json_object_put(st);
	/* A port that is down carries no jobs: only the software device is
	 * left, and it has no node. */
	st = status(1, "1", "DOWN");
	rio_numa_plan(st, 1, &n);
	assert_int_equal(n.node, -1);
	assert_non_null(strstr(n.note, "Soft-RoCE have none"));
	json_object_put(st);
}

static void plan__devices_on_two_nodes_are_not_placed(void **state)
{
	json_object *st = status(0, "0", "ACTIVE"), *devs, *d;
	struct rio_numa n;

	(void)state;
	devs = rio_json_get(st, "rdma_devices");
	d = json_tokener_parse(
		"{\"name\":\"mlx5_1\",\"transport\":\"hardware\","
		"\"numa_node\":1,\"numa_cpus\":\"1\","
		"\"ports\":[{\"port\":1,\"state\":\"ACTIVE\"}]}");
	json_object_array_add(devs, d);
	rio_numa_plan(st, 1, &n);
	assert_int_equal(n.node, -1);
	assert_non_null(strstr(n.note, "on NUMA nodes 0 and 1"));
	json_object_put(st);
}

/* The bind in a child: the test's own CPUs stay as they were. The node's
 * CPU is the first this test may run on (a cpuset may leave out CPU 0). */
static void place__binds_to_the_nodes_cpus(void **state)
{
	char cpu[16], note[64];
	struct rio_numa n;
	json_object *st;
	cpu_set_t set;
	int c, wst;
	pid_t pid;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	for (c = 0; c < CPU_SETSIZE && !CPU_ISSET(c, &set); c++)
		;
	snprintf(cpu, sizeof(cpu), "%d", c);
	snprintf(note, sizeof(note), "fio ran on NUMA node 1's CPUs %d", c);
	st = status(1, cpu, "ACTIVE");
	rio_numa_plan(st, 1, &n);
	json_object_put(st);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (rio_numa_place(&n) || !n.placed ||
		    sched_getaffinity(0, sizeof(set), &set) ||
		    CPU_COUNT(&set) != 1 || !CPU_ISSET(c, &set) ||
		    !strstr(n.note, note))
			_exit(1);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &wst, 0), pid);
	assert_true(WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
}

/* A result's checks from fio output out, host.numa numa and job_files
 * jf (NULL: none). */
static json_object *numa_checks_jf(const char *out, const char *numa,
				   const char *jf, int *flagged)
{
	json_object *o = json_tokener_parse(out),
		    *nm = json_tokener_parse(numa);
	json_object *files = jf ? json_tokener_parse(jf) : NULL;
	json_object *checks = json_object_new_array();
	struct rio_hostmap *map = rio_hostmap_new("h");
	struct rio_fio_output *fio;

	assert_int_equal(rio_fio_output_read(o, 1, map, &fio), 0);
	*flagged = 0;
	rio_check_numa(fio, files, map, nm, checks, flagged);
	json_object_put(files);
	rio_fio_output_delete(&fio);
	rio_hostmap_delete(&map);
	json_object_put(o);
	json_object_put(nm);
	return checks;
}

static json_object *numa_checks(const char *out, const char *numa, int *flagged)
{
	return numa_checks_jf(out, numa, NULL, flagged);
}

#define JOB(opts)                                                              \
	"{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"bw-rdma\","    \
	"\"groupid\":0,\"error\":0,\"job options\":{" opts "}}]}"

static void check__a_job_past_the_node_is_flagged(void **state)
{
	const char *placed = "{\"node\":1,\"nodes\":2,\"cpus\":\"8-15\","
			     "\"placed\":true,\"note\":\"fio ran on NUMA node "
			     "1's CPUs 8-15, the RDMA device's\"}";
	json_object *c;
	int flagged;

	(void)state;
	c = numa_checks(JOB("\"rw\":\"read\""), placed, &flagged);
	assert_int_equal(flagged, 0);
	assert_string_equal(rio_json_str(json_object_array_get_idx(c, 0),
					 "status"),
			    "pass");
	json_object_put(c);
	c = numa_checks(JOB("\"cpus_allowed\":\"0-9\""), placed, &flagged);
	assert_int_equal(flagged, 1);
	assert_string_equal(
		rio_json_str(json_object_array_get_idx(c, 0), "message"),
		"job bw-rdma runs on cpus_allowed=0-9, past NUMA node 1's CPUs, the RDMA device's: its buffers cross the interconnect");
	json_object_put(c);
	c = numa_checks(JOB("\"numa_cpu_nodes\":\"0\""), placed, &flagged);
	assert_int_equal(flagged, 1);
	json_object_put(c);
	c = numa_checks(JOB("\"numa_cpu_nodes\":\"0-1\""), placed, &flagged);
	assert_int_equal(flagged, 1);
	json_object_put(c);
	c = numa_checks(JOB("\"numa_cpu_nodes\":\"1\""), placed, &flagged);
	assert_int_equal(flagged, 0);
	json_object_put(c);
	/* fio's client mode printed no options: the job file's [global]. */
	c = numa_checks_jf(JOB("\"rw\":\"read\""), placed,
			   "[{\"path\":\"j.fio\",\"text\":\"[global]\\n"
			   "cpus_allowed=0-9\\n[bw-rdma]\\nrw=read\\n\"}]",
			   &flagged);
	assert_int_equal(flagged, 1);
	json_object_put(c);
}

static void check__unplaced_on_two_nodes_is_flagged_none_skipped(void **state)
{
	json_object *c;
	int flagged;

	(void)state;
	c = numa_checks(JOB("\"rw\":\"read\""),
			"{\"node\":1,\"nodes\":2,\"cpus\":\"8-15\","
			"\"placed\":false,\"note\":\"--no-numa: jobs not "
			"placed\"}",
			&flagged);
	assert_int_equal(flagged, 1);
	assert_non_null(
		strstr(rio_json_str(json_object_array_get_idx(c, 0), "message"),
		       "could run on any of this host's 2 NUMA nodes"));
	json_object_put(c);
	/* The lab: Soft-RoCE has no node, and the check says so. */
	c = numa_checks(JOB("\"rw\":\"read\""),
			"{\"node\":null,\"nodes\":1,\"cpus\":null,"
			"\"placed\":false,\"note\":\"no hardware RDMA device "
			"with an ACTIVE port has a NUMA node\"}",
			&flagged);
	assert_int_equal(flagged, 0);
	assert_string_equal(rio_json_str(json_object_array_get_idx(c, 0),
					 "status"),
			    "skipped");
	json_object_put(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpulist__parses_sysfs_and_fio_lists),
		cmocka_unit_test(plan__the_active_hardware_devices_node),
		cmocka_unit_test(plan__devices_on_two_nodes_are_not_placed),
		cmocka_unit_test(place__binds_to_the_nodes_cpus),
		cmocka_unit_test(check__a_job_past_the_node_is_flagged),
		cmocka_unit_test(
			check__unplaced_on_two_nodes_is_flagged_none_skipped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
