// SPDX-License-Identifier: MIT
/*
 * Unit tests of what a result says about CPU and how it says it: /proc/stat
 * readings and the cpu-watch line, counters between two times, fio's job
 * tasks found in a temporary /proc, jobs' windows and the hosts' CPU over
 * them, human units, CSV quoting, verdicts.
 */
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "result/check.h"
#include "result/cpucost.h"
#include "result/cpustat.h"
#include "run/cpuwatch.h"
#include "read/csvout.h"
#include "result/derive.h"
#include "result/fiooutput.h"
#include "result/hostmap.h"
#include "result/resultdoc.h"
#include "result/runrecord.h"
#include "base/jsonread.h"
#include "run/taskwatch.h"
#include "base/units.h"

#define GIB (1024.0 * 1024 * 1024)

static char root[64];

static void put(const char *rel, const char *text, size_t len)
{
	char path[256], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

static void put_str(const char *rel, const char *text)
{
	put(rel, text, strlen(text));
}

static int setup_root(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/rdmaio-test-cpu.XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int teardown_root(void **state)
{
	(void)state;
	return nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void cpustat__reads_the_cpu_line_and_counts_cpus(void **state)
{
	struct rio_cpustat s;

	(void)state;
	put_str("proc/stat", "cpu  100 5 200 1000 7 3 11 2 0 0\n"
			     "cpu0 50 2 100 500 3 1 5 1 0 0\n"
			     "cpu1 50 3 100 500 4 2 6 1 0 0\n"
			     "intr 12345\nctxt 99\n");
	assert_int_equal(rio_cpustat_read(root, &s), 0);
	assert_int_equal(s.ncpu, 2);
	assert_true(s.ticks[RIO_CPU_USER] == 100);
	assert_true(s.ticks[RIO_CPU_SOFTIRQ] == 11);
	assert_true(s.ticks[RIO_CPU_STEAL] == 2);
	assert_true(s.hz > 0);
	put_str("proc/stat", "intr 1\n");
	assert_int_equal(rio_cpustat_read(root, &s), -EINVAL);
}

static void cpustat__line_round_trips_and_rejects_garbage(void **state)
{
	struct rio_cpustat a = { .t = 12.5, .hz = 100, .ncpu = 4 }, b;
	const char *text;
	json_object *o;
	int i;

	(void)state;
	for (i = 0; i < RIO_CPU_NFIELDS; i++)
		a.ticks[i] = 1000 + i;
	o = rio_cpustat_json(&a);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	assert_int_equal(rio_cpustat_parse(text, &b), 0);
	assert_true(b.t == 12.5 && b.hz == 100 && b.ncpu == 4);
	for (i = 0; i < RIO_CPU_NFIELDS; i++)
		assert_true(b.ticks[i] == a.ticks[i]);
	json_object_put(o);
	assert_int_equal(rio_cpustat_parse("not json", &b), -EINVAL);
	assert_int_equal(
		rio_cpustat_parse(
			"{\"schema\":\"rdmaio-cpu/1\",\"t\":1,\"hz\":100,\"ncpu\":1,\"ticks\":[1,2,3]}",
			&b),
		-EINVAL);
	assert_int_equal(
		rio_cpustat_parse(
			"{\"schema\":\"rdmaio-cpu/1\",\"t\":1,\"hz\":100,\"ncpu\":1,\"ticks\":[1,2,3,4,5,6,7,-8]}",
			&b),
		-EINVAL);
	assert_int_equal(
		rio_cpustat_parse(
			"{\"schema\":\"rdmaio-env/1\",\"t\":1,\"hz\":100,\"ncpu\":1,\"ticks\":[1,2,3,4,5,6,7,8]}",
			&b),
		-EINVAL);
}

/* Readings every 0.5 s from t0, user at rate[0] ticks/s, system at rate[1]
 * from t = 11 to 13 only. */
static void series(struct rio_cpustat *v, int n, double t0)
{
	double user = 0, sys = 0;
	int i;

	for (i = 0; i < n; i++) {
		memset(&v[i], 0, sizeof(v[i]));
		v[i].t = t0 + 0.5 * i;
		v[i].hz = 100;
		v[i].ncpu = 2;
		if (i) {
			user += 25;
			if (v[i].t > 11 && v[i].t <= 13)
				sys += 50;
		}
		v[i].ticks[RIO_CPU_USER] = user;
		v[i].ticks[RIO_CPU_SYSTEM] = sys;
	}
}

static void cpustat__between_interpolates_inside_the_series(void **state)
{
	struct rio_cpustat v[13];

	(void)state;
	series(v, 13, 8); /* 8.0 .. 14.0 */
	assert_true(fabs(rio_cpustat_between(v, 13, 9, 10, RIO_CPU_USER) -
			 0.5) < 1e-9);
	/* Between readings: a quarter of a step of 25 ticks. */
	assert_true(fabs(rio_cpustat_between(v, 13, 9, 9.125, RIO_CPU_USER) -
			 0.0625) < 1e-9);
	assert_true(fabs(rio_cpustat_between(v, 13, 11, 13, RIO_CPU_SYSTEM) -
			 2.0) < 1e-9);
	assert_true(isnan(rio_cpustat_between(v, 13, 7, 9, RIO_CPU_USER)));
	assert_true(isnan(rio_cpustat_between(v, 13, 13, 15, RIO_CPU_USER)));
	assert_true(isnan(rio_cpustat_between(v, 13, 10, 9, RIO_CPU_USER)));
}

static void proc(int pid, int ppid, const char *comm, const char *cmdline,
		 size_t cmdlen)
{
	char rel[64], text[128];

	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	snprintf(text, sizeof(text), "%d (%s) S %d 1 1 0 -1\n", pid, comm,
		 ppid);
	put_str(rel, text);
	snprintf(rel, sizeof(rel), "proc/%d/cmdline", pid);
	put(rel, cmdline, cmdlen);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", pid, pid);
	put_str(rel, text);
}

static void thread_of(int pid, int tid)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", pid, tid);
	put_str(rel, "x");
}

/* The process exits: its /proc entry moves out of /proc. */
static void gone(int pid)
{
	char from[128], to[128];

	snprintf(from, sizeof(from), "%s/proc/%d", root, pid);
	snprintf(to, sizeof(to), "%s/gone-%d", root, pid);
	assert_int_equal(rename(from, to), 0);
}

static void taskwatch__finds_fio_jobs_of_our_runners(void **state)
{
	static const char server[] = "fio\0--server=sock:/x\0";
	const struct rio_task *t;
	struct rio_taskwatch *w;
	int n;

	(void)state;
	proc(200, 100, "fio", "fio\0j.fio", 10); /* a plain fio */
	thread_of(200, 201); /* its helper thread */
	thread_of(200, 202); /* a job with `thread` beside job processes */
	proc(300, 200, "fio", "fio", 4); /* two job processes */
	proc(301, 200, "fio", "fio", 4);
	proc(400, 100, "fio", "fio", 4); /* a fio with `thread` */
	thread_of(400, 401);
	thread_of(400, 402);
	proc(500, 100, "fio", server, sizeof(server)); /* a fio --server */
	proc(501, 500, "fio", "fio", 4); /* its connection child */
	proc(503, 501, "fio", "fio", 4); /* the child for one run */
	proc(502, 503, "fio", "fio", 4);
	proc(600, 100, "ssh", "ssh", 4); /* not fio */
	proc(601, 200, "fio", "fio", 4); /* a job that ended, not reaped */
	put_str("proc/601/stat", "601 (fio) Z 200 1 1 0 -1\n");
	proc(700, 1, "fio", "fio", 4); /* someone else's fio */
	proc(701, 700, "fio", "fio", 4);
	w = rio_taskwatch_new(root, 100);
	assert_non_null(w);
	rio_taskwatch_sample(w, 1.0);
	gone(300);
	rio_taskwatch_sample(w, 2.0);
	gone(301);
	gone(502);
	rio_taskwatch_sample(w, 3.0);
	t = rio_taskwatch_tasks(w, &n);
	/* 202, 300, 301, 402 (401 is the helper), 502; 201 is a helper too;
	 * 501 and 503 run no job themselves, 600 and 701 are not ours, 601
	 * ended. */
	assert_int_equal(n, 5);
	assert_int_equal(t[0].id, 202);
	assert_true(t[0].thread && t[0].runner == 200 && t[0].gone == 0);
	assert_int_equal(t[1].id, 300);
	assert_true(t[1].first == 1.0 && t[1].last == 1.0 && t[1].gone == 2.0);
	assert_int_equal(t[2].id, 301);
	assert_true(t[2].last == 2.0 && t[2].gone == 3.0);
	assert_int_equal(t[3].id, 402);
	assert_true(t[3].thread && t[3].gone == 0);
	assert_int_equal(t[4].id, 502);
	assert_int_equal(t[4].runner, 503);
	rio_taskwatch_delete(&w);
	assert_null(w);
	rio_taskwatch_delete(&w);
}

static json_object *parse(const char *text)
{
	json_object *o = json_tokener_parse(text);

	assert_non_null(o);
	return o;
}

static json_object *attribute(json_object *results, json_object *comps,
			      json_object *out, struct rio_hostmap *map,
			      struct rio_cpuwatch *cw,
			      const struct rio_task *tasks, int n)
{
	json_object *doc = json_object_new_object(), *cpu;
	struct rio_cpucost_in in = {
		.doc = doc, .map = map, .tasks = tasks, .ntasks = n
	};
	struct rio_fio_output *fio;

	json_object_object_add(doc, "results", json_object_get(results));
	json_object_object_add(doc, "comparisons", json_object_get(comps));
	assert_int_equal(rio_cpuwatch_record(cw, &in.cpu, &in.ncpu), 0);
	assert_int_equal(rio_fio_output_read(out, 1, map, &fio), 0);
	in.fio = fio;
	assert_int_equal(rio_cpucost_attribute(&in, &cpu), 0);
	rio_fio_output_delete(&fio);
	json_object_put(doc);
	return cpu;
}

static const char two_jobs[] =
	"{\"jobs\": ["
	"{\"jobname\": \"seq-read-rdma\", \"groupid\": 0, \"job_runtime\": 1000,"
	" \"read\": {\"io_bytes\": 1073741824, \"bw_bytes\": 1073741824, \"iops\": 1024, \"total_ios\": 1024}},"
	"{\"jobname\": \"seq-read-tcp\", \"groupid\": 1, \"job_runtime\": 2000,"
	" \"read\": {\"io_bytes\": 1073741824, \"bw_bytes\": 536870912, \"iops\": 512, \"total_ios\": 1024}}]}";

/* cpu-watch's mode: every fio --server's runs on the host, whoever started
 * them; the server's children carry its command line. */
static void taskwatch__without_self_watches_every_fio_server(void **state)
{
	static const char server[] = "fio\0--server=198.18.0.3,8766\0";
	const struct rio_task *t;
	struct rio_taskwatch *w;
	int n;

	(void)state;
	/* A root of its own: the test above left its processes. */
	assert_int_equal(teardown_root(NULL), 0);
	assert_int_equal(setup_root(NULL), 0);
	proc(10, 1, "fio", server, sizeof(server)); /* after --daemonize */
	proc(11, 10, "fio", server, sizeof(server)); /* its connection */
	proc(12, 11, "fio", server, sizeof(server)); /* one run */
	proc(13, 12, "fio", server, sizeof(server)); /* its two jobs */
	proc(14, 12, "fio", server, sizeof(server));
	proc(20, 1, "fio", "fio\0j.fio", 10); /* a plain fio: not a server's */
	proc(21, 20, "fio", "fio", 4);
	w = rio_taskwatch_new(root, 0);
	assert_non_null(w);
	rio_taskwatch_sample(w, 1.0);
	gone(14);
	rio_taskwatch_sample(w, 2.0);
	t = rio_taskwatch_tasks(w, &n);
	assert_int_equal(n, 2);
	assert_true(t[0].id == 13 && t[0].runner == 12 && !t[0].gone);
	assert_true(t[1].id == 14 && t[1].gone == 2.0);
	rio_taskwatch_delete(&w);
}

static void task_line__round_trips_and_rejects_garbage(void **state)
{
	const struct rio_task in = {
		.id = 42, .runner = 7, .first = 1.5, .last = 2.25, .gone = 2.5
	};
	json_object *o = rio_runrecord_task_json(&in);
	struct rio_task t;

	(void)state;
	assert_int_equal(
		rio_runrecord_task_parse(json_object_to_json_string(o), &t), 0);
	assert_memory_equal(&t, &in, sizeof(t));
	json_object_put(o);
	o = rio_runrecord_tasks_header_json();
	assert_int_equal(
		rio_runrecord_task_parse(json_object_to_json_string(o), &t), 1);
	json_object_put(o);
	/* A reading, no id, a gone before last, a pid that is no pid. */
	assert_int_equal(
		rio_runrecord_task_parse("{\"schema\":\"rdmaio-cpu/1\"}", &t),
		-EINVAL);
	assert_int_equal(
		rio_runrecord_task_parse(
			"{\"schema\":\"rdmaio-task/1\",\"runner\":1,\"thread\":false,\"first\":1,\"last\":1,\"gone\":0}",
			&t),
		-EINVAL);
	assert_int_equal(
		rio_runrecord_task_parse(
			"{\"schema\":\"rdmaio-task/1\",\"id\":2,\"runner\":1,\"thread\":false,\"first\":1,\"last\":3,\"gone\":2}",
			&t),
		-EINVAL);
	assert_int_equal(
		rio_runrecord_task_parse(
			"{\"schema\":\"rdmaio-task/1\",\"id\":-2,\"runner\":1,\"thread\":false,\"first\":1,\"last\":1,\"gone\":0}",
			&t),
		-EINVAL);
	assert_int_equal(rio_runrecord_task_parse("not json", &t), -EINVAL);
}

/* The overlap check over this host's tasks and a remote host's. */
static json_object *overlap(const struct rio_task *local, int nlocal,
			    const struct rio_task *remote, int nremote,
			    int watched, const char *server_role, int *flagged)
{
	static const struct rio_cpustat v[] = {
		{ .t = 0 }, { .t = 0.1 }, { .t = 0.2 }, { .t = 10 }
	};
	const struct rio_cpu_series cpu[] = {
		{ .v = v, .n = 4 },
		{ .client = "b,8765",
		  .v = v,
		  .n = 4,
		  .tasks = remote,
		  .ntasks = nremote,
		  .tasks_watched = watched },
		{ .client = "s,8765", .v = v, .n = 4, .tasks_watched = 1 },
	};
	const struct rio_fio_host hosts[] = {
		{ .client = "sock:/x", .role = "client", .local = 1 },
		{ .client = "b,8765", .role = "client" },
		{ .client = "s,8765", .role = server_role },
	};
	/* The second run failed: no end. */
	const struct rio_run_span spans[] = { { 1, 6 }, { 7, NAN } };
	struct rio_hostmap *map = rio_hostmap_new("a");
	json_object *checks = json_object_new_array();

	assert_non_null(map);
	assert_int_equal(rio_hostmap_add(map, "b", "host-b"), 0);
	rio_check_overlap(&(const struct rio_overlap_in){ .hosts = hosts,
							  .nhosts = 3,
							  .tasks = local,
							  .ntasks = nlocal,
							  .cpu = cpu,
							  .ncpu = 3,
							  .spans = spans,
							  .nspans = 2,
							  .map = map },
			  checks, flagged);
	rio_hostmap_delete(&map);
	return checks;
}

static void overlap__flags_a_client_host_that_started_late(void **state)
{
	const struct rio_task
		a[] = { { .id = 5, .first = 1.1, .last = 3.0, .gone = 3.1 },
			{ .id = 6, .first = 3.1, .last = 5.0, .gone = 5.1 } },
		late[] = { { .id = 9, .first = 3.0, .last = 5.2, .gone = 5.3 },
			   /* before the run: not its */
			   { .id = 8, .first = 0.1, .last = 0.5, .gone = 0.6 } },
		ok[] = { { .id = 9, .first = 1.2, .last = 5.0, .gone = 5.2 } };
	json_object *c;
	const char *msg;
	int flagged;

	(void)state;
	c = overlap(a, 2, ok, 1, 1, "server", &flagged);
	assert_int_equal(flagged, 0);
	assert_int_equal(rio_json_len(c), 1); /* the run that ended */
	assert_string_equal(rio_json_str(json_object_array_get_idx(c, 0),
					 "status"),
			    "pass");
	assert_string_equal(rio_json_str(json_object_array_get_idx(c, 0),
					 "host"),
			    RIO_DERIVE_ALL_CLIENTS);
	json_object_put(c);

	c = overlap(a, 2, late, 2, 1, "server", &flagged);
	assert_int_equal(flagged, 1);
	msg = rio_json_str(json_object_array_get_idx(c, 0), "message");
	assert_non_null(strstr(msg, "a 0.10-4.10 s, host-b 2.00-4.30 s"));
	assert_non_null(strstr(msg, "host-b started 1.90 s late"));
	assert_null(strstr(msg, "ended"));
	json_object_put(c);

	/* A plain --client third host with no tasks in the run: two ran. */
	c = overlap(a, 2, late, 2, 1, NULL, &flagged);
	assert_int_equal(flagged, 1);
	assert_non_null(
		strstr(rio_json_str(json_object_array_get_idx(c, 0), "message"),
		       "2 client hosts at once"));
	json_object_put(c);
}

static void overlap__unknown_tasks_skip_and_one_client_is_no_check(void **state)
{
	const struct rio_task a[] = { { .id = 5, .first = 1.1, .last = 3.0 } };
	json_object *c;
	int flagged;

	(void)state;
	c = overlap(a, 1, NULL, 0, 0, "server", &flagged);
	assert_int_equal(flagged, 0);
	assert_int_equal(rio_json_len(c), 1);
	assert_string_equal(rio_json_str(json_object_array_get_idx(c, 0),
					 "status"),
			    "skipped");
	assert_non_null(
		strstr(rio_json_str(json_object_array_get_idx(c, 0), "message"),
		       "host-b: fio's jobs there were not watched"));
	json_object_put(c);

	/* Without a client host beside this one: nothing to compare. */
	c = json_object_new_array();
	rio_check_overlap(&(const struct rio_overlap_in){ .hosts = NULL }, c,
			  &flagged);
	assert_int_equal(rio_json_len(c), 0);
	json_object_put(c);
}

static void cpucost__windows_end_with_the_tasks(void **state)
{
	struct rio_task tasks[2] = {
		{ .id = 1, .first = 8.5, .last = 9.9, .gone = 10.1 },
		{ .id = 2, .first = 10.4, .last = 12.9, .gone = 13.1 },
	};
	json_object *out = parse(two_jobs), *results, *comps, *cpu, *hc, *doc;
	struct rio_hostmap *map = rio_hostmap_new("h");
	struct rio_cpuwatch *cw = rio_cpuwatch_new(root);
	struct rio_cpustat v[13];
	int i;

	(void)state;
	series(v, 13, 8);
	for (i = 0; i < 13; i++)
		assert_int_equal(rio_cpuwatch_add_reading(cw, &v[i]), 0);
	assert_int_equal(rio_cpuwatch_add_reading(cw, &v[3]), -EINVAL);
	results = parse("[{}, {}]");
	comps = parse(
		"[{\"host\": \"h\", \"workload\": \"seq-read\", \"kind\": \"bandwidth\","
		" \"rdma\": {\"jobname\": \"seq-read-rdma\"}, \"tcp\": {\"jobname\": \"seq-read-tcp\"},"
		" \"bw_ratio\": 2.0, \"iops_ratio\": 2.0}]");
	cpu = attribute(results, comps, out, map, cw, tasks, 2);
	assert_string_equal(rio_json_str(cpu, "match"), "one task per job");
	/* Job 1: [9, 10], user only: 0.5 s of 2 CPUs' 2 s. */
	hc = json_object_array_get_idx(
		rio_json_get(json_object_array_get_idx(results, 0), "host_cpu"),
		0);
	assert_string_equal(rio_json_str(hc, "host"), "h");
	assert_true(fabs(rio_json_num(hc, "busy_s", 0) - 0.5) < 1e-6);
	assert_true(fabs(rio_json_num(hc, "busy_pct", 0) - 25) < 1e-6);
	assert_true(fabs(rio_json_num(hc, "per_gib_s", 0) - 0.5) < 1e-6);
	/* Job 2: [11, 13]: user 1 s and system 2 s. */
	hc = json_object_array_get_idx(
		rio_json_get(json_object_array_get_idx(results, 1), "host_cpu"),
		0);
	assert_true(fabs(rio_json_num(hc, "system_s", 0) - 2) < 1e-6);
	assert_true(fabs(rio_json_num(hc, "busy_s", 0) - 3) < 1e-6);
	hc = json_object_array_get_idx(
		rio_json_get(json_object_array_get_idx(comps, 0),
			     "host_cpu_per_gib"),
		0);
	assert_true(fabs(rio_json_num(hc, "ratio", 0) - 0.5 / 3) < 1e-6);
	doc = json_object_new_object();
	json_object_object_add(doc, "comparisons", json_object_get(comps));
	assert_int_equal(rio_derive_verdicts(doc, "emulated CPU: ratios only"),
			 0);
	json_object_put(doc);
	assert_string_equal(
		rio_json_str(json_object_array_get_idx(comps, 0), "verdict"),
		"seq-read: RDMA vs TCP 2.00x bandwidth, 0.17x CPU per GiB on h (emulated CPU: ratios only)");
	json_object_put(cpu);
	json_object_put(results);
	json_object_put(comps);
	json_object_put(out);
	rio_cpuwatch_delete(&cw);
	rio_hostmap_delete(&map);
}

static void cpucost__unmatched_tasks_give_no_window(void **state)
{
	struct rio_task tasks[3] = {
		{ .id = 1, .first = 8.5, .last = 9.9, .gone = 10.1 },
		{ .id = 2, .first = 10.4, .last = 12.9, .gone = 13.1 },
		{ .id = 3, .first = 13.4, .last = 13.5, .gone = 13.6 },
	};
	json_object *out = parse(two_jobs), *results = parse("[{}, {}]");
	struct rio_hostmap *map = rio_hostmap_new("h");
	struct rio_cpuwatch *cw = rio_cpuwatch_new(root);
	json_object *comps = parse("[]"), *cpu;

	(void)state;
	cpu = attribute(results, comps, out, map, cw, tasks, 3);
	assert_false(json_object_get_boolean(rio_json_get(cpu, "matched")));
	assert_null(rio_json_get(json_object_array_get_idx(results, 0),
				 "host_cpu"));
	json_object_put(cpu);
	/* Three tasks, two of them at once: two groups for two jobs. */
	tasks[1].first = 9.0;
	cpu = attribute(results, comps, out, map, cw, tasks, 3);
	assert_string_equal(rio_json_str(cpu, "match"),
			    "one group of tasks running together per job");
	json_object_put(cpu);
	json_object_put(results);
	json_object_put(comps);
	json_object_put(out);
	rio_cpuwatch_delete(&cw);
	rio_hostmap_delete(&map);
}

static void units__human_figures(void **state)
{
	char b[RIO_UNITS_LEN];

	(void)state;
	rio_units_ns(b, 2701131800.0);
	assert_string_equal(b, "2.70 s");
	rio_units_ns(b, 142336);
	assert_string_equal(b, "142 µs");
	rio_units_ns(b, 999.96e3);
	assert_string_equal(b, "1.00 ms");
	rio_units_ns(b, 850);
	assert_string_equal(b, "850 ns");
	rio_units_ns(b, NAN);
	assert_string_equal(b, "-");
	rio_units_rate(b, 46718, 0);
	assert_string_equal(b, "45.6 KiB/s");
	rio_units_rate(b, 9.0 * GIB, 0);
	assert_string_equal(b, "9.00 GiB/s");
	rio_units_rate(b, 12.5e9 / 8, 1);
	assert_string_equal(b, "12.5 Gb/s");
	rio_units_count(b, 5839.8);
	assert_string_equal(b, "5.84k");
	rio_units_count(b, 338.2);
	assert_string_equal(b, "338");
	rio_units_ratio(b, 0.583);
	assert_string_equal(b, "0.58x");
	rio_units_ratio(b, 12.34);
	assert_string_equal(b, "12.3x");
}

static void csv__quotes_and_leaves_unknowns_empty(void **state)
{
	json_object *doc = parse(
		"{\"results\": [{\"host\": \"h,1\", \"jobname\": \"a \\\"b\\\"\", \"role\": \"client\","
		" \"read\": {\"bw_bytes\": 100, \"iops\": 2, \"clat_ns\": {\"p50\": 5}}}],"
		" \"comparisons\": []}");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct rio_resultdoc *rd;

	(void)state;
	assert_int_equal(rio_resultdoc_read(doc, &rd), 0);
	assert_int_equal(rio_csv_write(rd, f), 0);
	rio_resultdoc_delete(&rd);
	fclose(f);
	assert_non_null(strstr(text, "record,host,name,role,kind,direction,"));
	assert_non_null(strstr(
		text,
		"\njob,\"h,1\",\"a \"\"b\"\"\",client,,read,100,2,5,,,,,,,,,,,,,,,,,,,\n"));
	free(text);
	json_object_put(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpustat__reads_the_cpu_line_and_counts_cpus),
		cmocka_unit_test(cpustat__line_round_trips_and_rejects_garbage),
		cmocka_unit_test(
			cpustat__between_interpolates_inside_the_series),
		cmocka_unit_test(taskwatch__finds_fio_jobs_of_our_runners),
		cmocka_unit_test(
			taskwatch__without_self_watches_every_fio_server),
		cmocka_unit_test(task_line__round_trips_and_rejects_garbage),
		cmocka_unit_test(
			overlap__flags_a_client_host_that_started_late),
		cmocka_unit_test(
			overlap__unknown_tasks_skip_and_one_client_is_no_check),
		cmocka_unit_test(cpucost__windows_end_with_the_tasks),
		cmocka_unit_test(cpucost__unmatched_tasks_give_no_window),
		cmocka_unit_test(units__human_figures),
		cmocka_unit_test(csv__quotes_and_leaves_unknowns_empty),
	};

	return cmocka_run_group_tests(tests, setup_root, teardown_root);
}
