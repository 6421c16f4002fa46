// SPDX-License-Identifier: MIT
/*
 * nfsd control: versions, grace and lease must be written before the first
 * portlist write (they fail with EBUSY after it); a running server without
 * RDMA only gets the RDMA listener added.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <stdlib.h>

#include "rc_log.h"
#include "nfsd.h"
#include "helper.h"
#include "rc_spawn.h"

static void plan_str(const struct nr_nfsd_req *req,
		     const struct nr_nfsd_state *st, char *out, size_t len)
{
	enum nr_nfsd_step steps[NR_NFSD_NSTEPS];
	int n = nr_nfsd_plan(req, st, steps), i;

	out[0] = '\0';
	for (i = 0; i < n; i++)
		snprintf(out + strlen(out), len - strlen(out), "%s%s",
			 i ? " " : "", nr_nfsd_step_name(steps[i]));
}

static void plan__fresh_start_writes_versions_before_portlist(void **state)
{
	struct nr_nfsd_req req = { .rdma_port = 20049,
				   .grace = 15,
				   .lease = 10 };
	struct nr_nfsd_state st = { 0 };
	char plan[256];

	(void)state;
	plan_str(&req, &st, plan, sizeof(plan));
	assert_string_equal(plan, "versions grace lease tcp rdma threads");
	req.grace = req.lease = 0;
	plan_str(&req, &st, plan, sizeof(plan));
	assert_string_equal(plan, "versions tcp rdma threads");
}

static void plan__running_without_rdma_adds_only_rdma(void **state)
{
	struct nr_nfsd_req req = { .rdma_port = 20049, .grace = 15 };
	struct nr_nfsd_state st = { .running = 1, .threads = 8 };
	char plan[256];

	(void)state;
	plan_str(&req, &st, plan, sizeof(plan));
	assert_string_equal(plan, "rdma");
}

static void plan__running_with_rdma_is_a_no_op(void **state)
{
	struct nr_nfsd_req req = { .rdma_port = 20049 };
	struct nr_nfsd_state st = { .running = 1, .has_rdma = 1, .threads = 8 };
	char plan[256];

	(void)state;
	plan_str(&req, &st, plan, sizeof(plan));
	assert_string_equal(plan, "");
	req.threads = 8;
	plan_str(&req, &st, plan, sizeof(plan));
	assert_string_equal(plan, "");
	req.threads = 16;
	plan_str(&req, &st, plan, sizeof(plan));
	assert_string_equal(plan, "threads");
}

static void plan__listeners_without_threads_get_threads(void **state)
{
	struct nr_nfsd_req req = { .rdma_port = 20049 };
	struct nr_nfsd_state st = { .running = 1, .has_rdma = 1 };
	char plan[256];

	(void)state;
	plan_str(&req, &st, plan, sizeof(plan));
	assert_string_equal(plan, "threads");
}

static void versions__default_list(void **state)
{
	char line[64];

	(void)state;
	assert_int_equal(
		nr_nfsd_versions_line("3,4,4.1,4.2", line, sizeof(line)), 0);
	assert_string_equal(line, "-2 +3 +4 +4.0 +4.1 +4.2\n");
	assert_int_equal(nr_nfsd_versions_line("4.2", line, sizeof(line)), 0);
	assert_string_equal(line, "-2 -3 +4 -4.0 -4.1 +4.2\n");
	assert_int_equal(nr_nfsd_versions_line("3", line, sizeof(line)), 0);
	assert_string_equal(line, "-2 +3 -4\n");
	assert_int_equal(nr_nfsd_versions_line("4.0 3", line, sizeof(line)), 0);
	assert_string_equal(line, "-2 +3 +4 +4.0 -4.1 -4.2\n");
}

static void versions__rejects_unknown_and_empty(void **state)
{
	char line[64];

	(void)state;
	assert_int_equal(nr_nfsd_versions_line("2", line, sizeof(line)),
			 -EINVAL);
	assert_int_equal(nr_nfsd_versions_line("4.3", line, sizeof(line)),
			 -EINVAL);
	assert_int_equal(nr_nfsd_versions_line(",", line, sizeof(line)),
			 -EINVAL);
	assert_int_equal(nr_nfsd_versions_line("", line, sizeof(line)),
			 -EINVAL);
}

static void portlist_has__whole_lines_only(void **state)
{
	(void)state;
	assert_true(
		nr_nfsd_portlist_has("rdma 20049\ntcp 2049", "rdma", 20049));
	assert_true(
		nr_nfsd_portlist_has("tcp 2049\nrdma 20049", "rdma", 20049));
	assert_false(
		nr_nfsd_portlist_has("rdma 200490\ntcp 2049", "rdma", 20049));
	assert_false(nr_nfsd_portlist_has("xrdma 20049", "rdma", 20049));
	assert_false(nr_nfsd_portlist_has("", "rdma", 20049));
	assert_true(nr_nfsd_portlist_has("tcp 2049", "tcp", 2049));
}

/* Helpers come from the system's folders, whatever the caller's PATH says. */
static void helper_path__system_folders_only(void **state)
{
	char path[4096];

	(void)state;
	assert_int_equal(setenv("PATH", "/nonexistent:.", 1), 0);
	assert_int_equal(rc_helper_path("true", path, sizeof(path)), 0);
	assert_true(!strcmp(path, "/usr/bin/true") ||
		    !strcmp(path, "/bin/true"));
	assert_int_equal(rc_helper_path("rdmaio-no-such-helper", path,
					sizeof(path)),
			 -ENOENT);
	assert_int_equal(rc_helper_path("./true", path, sizeof(path)), -EINVAL);
	assert_int_equal(rc_helper_path("true", path, 8), -ENAMETOOLONG);
	rc_log_set_quiet(1);
	assert_int_equal(nr_spawn_wait((char *[]){ "false", NULL }), 1);
	assert_int_equal(
		nr_spawn_wait((char *[]){ "rdmaio-no-such-helper", NULL }),
		-ENOENT);
	rc_log_set_quiet(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			plan__fresh_start_writes_versions_before_portlist),
		cmocka_unit_test(plan__running_without_rdma_adds_only_rdma),
		cmocka_unit_test(plan__running_with_rdma_is_a_no_op),
		cmocka_unit_test(plan__listeners_without_threads_get_threads),
		cmocka_unit_test(versions__default_list),
		cmocka_unit_test(versions__rejects_unknown_and_empty),
		cmocka_unit_test(portlist_has__whole_lines_only),
		cmocka_unit_test(helper_path__system_folders_only),
	};

	rc_log_set_quiet(1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
