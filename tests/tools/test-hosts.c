// SPDX-License-Identifier: MIT
/*
 * Several hosts in one result: which job sections go to the server host
 * and which to each client host, which client hosts are one host, the names the result gives fio's --client
 * hosts, and the loopback check on the peers of their jobs.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "result/check.h"
#include "result/fiooutput.h"
#include "run/fiorun.h"
#include "run/fiohosts.h"
#include "result/hostmap.h"
#include "result/resultenv.h"
#include "run/jobfile.h"
#include "result/jobsection.h"
#include "base/jsonread.h"

static char dir[] = "/tmp/rdmaio-test-hosts.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* Writes text to DIR/name and returns the path (static buffer per slot). */
static char *job(int slot, const char *name, const char *text)
{
	static char paths[4][256];
	FILE *f;

	snprintf(paths[slot], sizeof(paths[slot]), "%s/%s", dir, name);
	f = fopen(paths[slot], "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return paths[slot];
}

static json_object *parse(const char *text)
{
	json_object *o = json_tokener_parse(text);

	assert_non_null(o);
	return o;
}

static void sections__listen_marks_targets_and_global_carries_it(void **state)
{
	struct rio_jobsection *s;
	int n;

	(void)state;
	n = rio_jobfile_sections(
		job(0, "a.fio",
		    "; listen in a comment does not count\n"
		    "[global]\nioengine=null\n"
		    "[t]\n  listen\n[c]\nhostname=x\n# listen\n"
		    "[t2]\nlisten=1\n[c2]\nlisten = 0\n"
		    "[global]\nlisten\n[t3]\nrw=read\n"),
		&s);
	assert_int_equal(n, 5);
	assert_string_equal(s[0].name, "t");
	assert_true(s[0].listen);
	assert_string_equal(s[1].name, "c");
	assert_false(s[1].listen);
	assert_true(s[2].listen);
	assert_false(s[3].listen);
	assert_string_equal(s[4].name, "t3");
	assert_true(s[4].listen);
	rio_jobsection_free(s, n);
	assert_true(rio_jobfile_sections("/nonexistent/x.fio", &s) < 0);
}

static void split__targets_to_server_clients_to_client(void **state)
{
	char *local[1] = { "local" };
	char *jobs[2] = {
		job(0, "verbs.fio",
		    "[global]\nsize=1m\n[tgt]\nlisten\n[wr]\nhostname=h\n"
		    "[srv-tcp]\nlisten\nioengine=net\n[rd]\nhostname=h\n"),
		job(1, "nfs.fio", "[seq-rdma]\nrw=read\n[seq-tcp]\nrw=read\n"),
	};
	struct rio_fio_host *h;
	int n;

	(void)state;
	assert_int_equal(
		rio_fiohosts_split("sock:/s", local, 1, jobs, 2, &h, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(h[0].client, "sock:/s");
	assert_string_equal(h[0].role, "server");
	assert_false(h[0].local);
	/* NFS jobs have no target: only the first file goes to the server. */
	assert_int_equal(h[0].njobs, 1);
	assert_ptr_equal(h[0].jobs[0], jobs[0]);
	assert_int_equal(h[0].nsections, 2);
	assert_string_equal(h[0].sections[0], "tgt");
	assert_string_equal(h[0].sections[1], "srv-tcp");
	assert_string_equal(h[1].role, "client");
	assert_true(h[1].local);
	assert_int_equal(h[1].njobs, 2);
	assert_int_equal(h[1].nsections, 4);
	assert_string_equal(h[1].sections[2], "seq-rdma");
	rio_fiohosts_free(h, n);
}

static void split__host_without_sections_sits_out(void **state)
{
	char *cli[1] = { "cli" };
	char *jobs[1] = { job(0, "n.fio", "[a-rdma]\n[a-tcp]\n") };
	struct rio_fio_host *h;
	int n;

	(void)state;
	assert_int_equal(rio_fiohosts_split("srv", cli, 1, jobs, 1, &h, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(h[0].role, "client");
	rio_fiohosts_free(h, n);
}

static void split__refuses_a_name_with_two_roles_and_empty_files(void **state)
{
	char *cli[1] = { "c" };
	char *clash[2] = { job(0, "a.fio", "[x]\nlisten\n"),
			   job(1, "b.fio", "[x]\nhostname=h\n") };
	char *empty[1] = { job(2, "e.fio", "; nothing\n[global]\nbs=4k\n") };
	struct rio_fio_host *h = (void *)1;
	int n = 1;

	(void)state;
	assert_true(rio_fiohosts_split("s", cli, 1, clash, 2, &h, &n) < 0);
	assert_null(h);
	assert_int_equal(n, 0);
	assert_true(rio_fiohosts_split("s", cli, 1, empty, 1, &h, &n) < 0);
	/* No client host: nothing to give the client sections to. */
	assert_int_equal(rio_fiohosts_split("s", cli, 0, clash, 1, &h, &n),
			 -EINVAL);
}

/* Every client host runs all the client sections, with copies of its own. */
static void split__every_client_host_gets_the_client_sections(void **state)
{
	char *jobs[2] = {
		job(0, "v.fio", "[tgt]\nlisten\n[wr]\nhostname=h\n"),
		job(1, "n.fio", "[seq-rdma]\n[seq-tcp]\n"),
	};
	char *cli[3] = { "c1", "ip6:fd18::3", "sock:/c3" };
	struct rio_fio_host *h;
	int n, i;

	(void)state;
	assert_int_equal(rio_fiohosts_split("s", cli, 3, jobs, 2, &h, &n), 0);
	assert_int_equal(n, 4);
	assert_string_equal(h[0].role, "server");
	assert_int_equal(h[0].nsections, 1);
	for (i = 1; i < 4; i++) {
		assert_string_equal(h[i].client, cli[i - 1]);
		assert_string_equal(h[i].role, "client");
		assert_int_equal(h[i].njobs, 2);
		assert_ptr_equal(h[i].jobs[1], jobs[1]);
		assert_int_equal(h[i].nsections, 3);
		assert_string_equal(h[i].sections[0], "wr");
		assert_string_equal(h[i].sections[2], "seq-tcp");
		assert_int_equal(h[i].section_job[2], 1);
	}
	/* Copies, not the first client's strings: each is freed once. */
	assert_ptr_not_equal(h[1].sections[0], h[2].sections[0]);
	rio_fiohosts_free(h, n);
}

static void distinct__refuses_one_host_twice_and_the_server(void **state)
{
	char *two[2] = { "c1", "c2" }, *dup[3] = { "c1", "ip:c2", "c2,8765" };
	char *srv[2] = { "c1", "s" }, *one[1] = { "local" };
	char *locals[2] = { "local", "c2" };

	(void)state;
	assert_int_equal(rio_fiohosts_distinct("s", two, 2), 0);
	/* ip:c2 and c2,8765 are both host c2, as fio names results. */
	assert_int_equal(rio_fiohosts_distinct("s", dup, 3), -EINVAL);
	assert_int_equal(rio_fiohosts_distinct("s", srv, 2), -EINVAL);
	/* The one-host run stays: one client host, this one, as the server. */
	assert_int_equal(rio_fiohosts_distinct("local", one, 1), 0);
	assert_int_equal(rio_fiohosts_distinct("local", locals, 2), -EINVAL);
}

static void hostmap__fio_names_become_host_names(void **state)
{
	struct rio_hostmap *m = rio_hostmap_new("client-1");

	(void)state;
	assert_int_equal(rio_hostmap_add(m, "/tmp/s/fio.sock", NULL), 0);
	assert_int_equal(rio_hostmap_add(m, "/tmp/r/fio.sock", "server-1"), 0);
	assert_string_equal(rio_hostmap_name(m, NULL), "client-1");
	assert_string_equal(rio_hostmap_name(m, "/tmp/s/fio.sock"), "client-1");
	assert_string_equal(rio_hostmap_name(m, "/tmp/r/fio.sock"), "server-1");
	assert_string_equal(rio_hostmap_name(m, "10.0.0.9"), "10.0.0.9");
	assert_true(rio_hostmap_is_local(m, "client-1"));
	assert_false(rio_hostmap_is_local(m, "server-1"));
	rio_hostmap_delete(&m);
	assert_null(m);
	rio_hostmap_delete(&m);
	assert_string_equal(rio_hostmap_name(NULL, "x"), "x");
}

static json_object *check_named(json_object *checks, const char *job)
{
	char prefix[128];
	size_t i;

	snprintf(prefix, sizeof(prefix), "job %s on ", job);
	for (i = 0; i < rio_json_len(checks); i++) {
		json_object *c = json_object_array_get_idx(checks, i);

		if (!strncmp(rio_json_str(c, "message"), prefix,
			     strlen(prefix)))
			return c;
	}
	fail_msg("no loopback check for %s", job);
	return NULL;
}

static void loopback__own_peers_flagged_others_pass(void **state)
{
	json_object *out = parse(
		"{\"fio version\":\"fio-3.33\",\"client_stats\":["
		"{\"jobname\":\"tgt\",\"hostname\":\"/s.sock\",\"groupid\":0,"
		"\"job options\":{\"listen\":\"\"}},"
		"{\"jobname\":\"rtt-rdma\",\"hostname\":\"/c.sock\",\"groupid\":0,"
		"\"job options\":{\"hostname\":\"198.18.0.1\"}},"
		"{\"jobname\":\"rtt-tcp\",\"hostname\":\"/c.sock\",\"groupid\":1,"
		"\"job options\":{\"hostname\":\"127.0.0.1\",\"ioengine\":\"net\"}},"
		"{\"jobname\":\"own-rdma\",\"hostname\":\"/c.sock\",\"groupid\":1,"
		"\"job options\":{\"hostname\":\"198.18.0.2\","
		"\"ioengine\":\"external:/x/librdmaio.so\"}},"
		"{\"jobname\":\"seq-tcp\",\"hostname\":\"/c.sock\",\"groupid\":2,"
		"\"job options\":{\"directory\":\"/mnt/t/d\"}},"
		"{\"jobname\":\"seq-tcp\",\"hostname\":\"/c.sock\",\"groupid\":2,"
		"\"job options\":{\"directory\":\"/mnt/t/d\"}},"
		"{\"jobname\":\"seq-rdma\",\"hostname\":\"/c.sock\",\"groupid\":3,"
		"\"job options\":{\"directory\":\"/mnt/r\"}},"
		"{\"jobname\":\"far\",\"hostname\":\"/x.sock\",\"groupid\":4,"
		"\"job options\":{\"hostname\":\"198.18.0.2\"}},"
		"{\"jobname\":\"All clients\"}]}");
	/* What the result knows of the hosts: this one's addresses and
	 * mounts during the run, the server's from --remote-env. */
	json_object *facts = parse(
		"{\"host\":{\"hostname\":\"cli\",\"addresses\":[\"127.0.0.1\","
		"\"198.18.0.2\",\"fe80::1%eth0\"]},\"environment\":{"
		"\"nfs_mounts_during_run\":["
		"{\"source\":\"198.18.0.2:/e\",\"mountpoint\":\"/mnt/t\","
		"\"fstype\":\"nfs\",\"proto\":\"tcp\"},"
		"{\"source\":\"[fd18::1]:/e\",\"mountpoint\":\"/mnt/r\","
		"\"fstype\":\"nfs4\",\"proto\":\"rdma\"}]},"
		"\"remote_hosts\":[{\"env\":{\"host\":{\"hostname\":\"srv\","
		"\"addresses\":[\"198.18.0.1\"]},\"environment\":{\"status\":{"
		"\"nfs_mounts\":[]}}}}]}");
	struct rio_resultenv *env;
	struct rio_hostmap *m = rio_hostmap_new("cli");
	json_object *checks = json_object_new_array(), *c;
	struct rio_fio_output *fio;
	int flagged = 0;

	(void)state;
	assert_int_equal(rio_hostmap_add(m, "/c.sock", NULL), 0);
	assert_int_equal(rio_hostmap_add(m, "/s.sock", "srv"), 0);
	assert_int_equal(rio_fio_output_read(out, 1, m, &fio), 0);
	assert_int_equal(rio_resultenv_read(facts, &env), 0);
	rio_check_loopback(fio, env, checks, &flagged);
	rio_resultenv_delete(&env);
	rio_fio_output_delete(&fio);
	/* The target has no peer; seq-tcp's two entries give one check. */
	assert_int_equal(rio_json_len(checks), 6);
	assert_int_equal(flagged, 3);
	c = check_named(checks, "rtt-rdma");
	assert_string_equal(rio_json_str(c, "status"), "pass");
	assert_string_equal(rio_json_str(c, "name"), "loopback");
	assert_string_equal(rio_json_str(c, "host"), "cli");
	c = check_named(checks, "rtt-tcp");
	assert_string_equal(rio_json_str(c, "status"), "flagged");
	assert_non_null(strstr(rio_json_str(c, "message"),
			       "TCP over loopback never reaches a NIC"));
	assert_true(rio_json_len(rio_json_get(c, "likely_causes")) > 0);
	c = check_named(checks, "own-rdma");
	assert_string_equal(rio_json_str(c, "status"), "flagged");
	assert_non_null(strstr(rio_json_str(c, "message"),
			       "RDMA to its own address is looped back"));
	c = check_named(checks, "seq-tcp");
	assert_string_equal(rio_json_str(c, "status"), "flagged");
	assert_non_null(
		strstr(rio_json_str(c, "message"), "NFS server of /mnt/t"));
	c = check_named(checks, "seq-rdma");
	assert_string_equal(rio_json_str(c, "status"), "pass");
	/* A host nobody described cannot be told: skipped, not passed. */
	c = check_named(checks, "far");
	assert_string_equal(rio_json_str(c, "status"), "skipped");
	json_object_put(checks);
	json_object_put(facts);
	json_object_put(out);
	rio_hostmap_delete(&m);
}

/* Which host's facts a job is judged by: this host before a --remote-env
 * entry of the same name; a remote host by its own addresses and the NFS
 * mounts of its environment; a host recorded without addresses is
 * skipped, one with none but loopback's is judged by those. */
static void loopback__hosts_by_name_with_their_own_mounts(void **state)
{
	static const char *const want[][2] = { { "own", "flagged" },
					       { "srv-tcp", "flagged" },
					       { "b", "skipped" },
					       { "e", "pass" } };
	json_object *out = parse(
		"{\"fio version\":\"fio-3.33\",\"client_stats\":["
		"{\"jobname\":\"own\",\"hostname\":\"/c.sock\",\"groupid\":0,"
		"\"job options\":{\"hostname\":\"198.18.0.2\"}},"
		"{\"jobname\":\"srv-tcp\",\"hostname\":\"/s.sock\",\"groupid\":0,"
		"\"job options\":{\"directory\":\"/mnt/s/x\"}},"
		"{\"jobname\":\"b\",\"hostname\":\"/b.sock\",\"groupid\":0,"
		"\"job options\":{\"hostname\":\"198.18.0.9\"}},"
		"{\"jobname\":\"e\",\"hostname\":\"/e.sock\",\"groupid\":0,"
		"\"job options\":{\"hostname\":\"198.18.0.9\"}}]}");
	json_object *doc = parse(
		"{\"host\":{\"hostname\":\"cli\",\"addresses\":[\"198.18.0.2\"]},"
		"\"remote_hosts\":["
		"{\"env\":{\"host\":{\"hostname\":\"srv\",\"addresses\":["
		"\"198.18.0.1\"]},\"environment\":{\"status\":{\"nfs_mounts\":["
		"{\"source\":\"198.18.0.1:/e\",\"mountpoint\":\"/mnt/s\","
		"\"fstype\":\"nfs\",\"proto\":\"tcp\"}]}}}},"
		"{\"env\":{\"host\":{\"hostname\":\"cli\",\"addresses\":[]}}},"
		"{\"env\":{\"host\":{\"hostname\":\"bare\"}}},"
		"{\"env\":{\"host\":{\"hostname\":\"empty\",\"addresses\":[]}}}]}");
	struct rio_hostmap *m = rio_hostmap_new("cli");
	json_object *checks = json_object_new_array(), *c;
	struct rio_fio_output *fio;
	struct rio_resultenv *env;
	int flagged = 0;
	size_t i;

	(void)state;
	assert_int_equal(rio_hostmap_add(m, "/c.sock", NULL), 0);
	assert_int_equal(rio_hostmap_add(m, "/s.sock", "srv"), 0);
	assert_int_equal(rio_hostmap_add(m, "/b.sock", "bare"), 0);
	assert_int_equal(rio_hostmap_add(m, "/e.sock", "empty"), 0);
	assert_int_equal(rio_fio_output_read(out, 1, m, &fio), 0);
	assert_int_equal(rio_resultenv_read(doc, &env), 0);
	rio_check_loopback(fio, env, checks, &flagged);
	rio_check_loopback(fio, NULL, checks, &flagged);
	rio_resultenv_delete(&env);
	rio_fio_output_delete(&fio);
	assert_int_equal(rio_json_len(checks), 4);
	assert_int_equal(flagged, 2);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_string_equal(
			rio_json_str(check_named(checks, want[i][0]), "status"),
			want[i][1]);
	c = check_named(checks, "srv-tcp");
	assert_string_equal(rio_json_str(c, "host"), "srv");
	assert_non_null(
		strstr(rio_json_str(c, "message"), "NFS server of /mnt/s"));
	json_object_put(checks);
	json_object_put(doc);
	json_object_put(out);
	rio_hostmap_delete(&m);
}

/* With several job files fio's "global options" are the last file's. */
static void attributable__drops_globals_of_several_files(void **state)
{
	json_object *out = parse("{\"fio version\":\"fio-3.33\","
				 "\"global options\":{\"ioengine\":\"libaio\"},"
				 "\"jobs\":[{\"jobname\":\"a\"}]}");
	struct rio_hostmap *m = rio_hostmap_new("h");
	struct rio_fio_output *one, *two;

	(void)state;
	assert_int_equal(rio_fio_output_read(out, 1, m, &one), 0);
	assert_int_equal(rio_fio_output_read(out, 2, m, &two), 0);
	assert_string_equal(rio_fio_output_global(one, "ioengine"), "libaio");
	assert_null(rio_fio_output_global(two, "ioengine"));
	assert_null(rio_fio_job_setting(two, rio_fio_output_job(two, 0),
					"ioengine"));
	assert_int_equal(rio_fio_output_njobs(two), 1);
	/* The output itself keeps them. */
	assert_non_null(rio_json_get(out, "global options"));
	rio_fio_output_delete(&two);
	rio_fio_output_delete(&one);
	rio_hostmap_delete(&m);
	json_object_put(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			sections__listen_marks_targets_and_global_carries_it),
		cmocka_unit_test(split__targets_to_server_clients_to_client),
		cmocka_unit_test(split__host_without_sections_sits_out),
		cmocka_unit_test(
			split__refuses_a_name_with_two_roles_and_empty_files),
		cmocka_unit_test(
			split__every_client_host_gets_the_client_sections),
		cmocka_unit_test(
			distinct__refuses_one_host_twice_and_the_server),
		cmocka_unit_test(hostmap__fio_names_become_host_names),
		cmocka_unit_test(loopback__own_peers_flagged_others_pass),
		cmocka_unit_test(loopback__hosts_by_name_with_their_own_mounts),
		cmocka_unit_test(attributable__drops_globals_of_several_files),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
