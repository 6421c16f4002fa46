// SPDX-License-Identifier: MIT
/*
 * The server's kernel settings against a temporary root (NFSRDMA_ROOT):
 * a value below the kernel's own is refused with nothing changed; each
 * change is recorded with the value before it, and put back; a record
 * nfsrdma did not write puts nothing back.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
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

#include "rundir.h"
#include "tuning.h"

static char root[64];

static const char *const files[] = {
	"/proc/sys/net/core/rmem_max",
	"/proc/sys/net/core/wmem_max",
	"/proc/sys/net/ipv4/tcp_rmem",
	"/proc/sys/net/ipv4/tcp_wmem",
	"/proc/sys/sunrpc/svc_rdma/max_requests",
};

/* Debian 12's kernel's values. */
static const char *const defaults[] = { "212992\n", "212992\n",
					"4096\t131072\t6291456\n",
					"4096\t16384\t4194304\n", "64\n" };

static void put(const char *abs, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, abs);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const char *get(const char *abs)
{
	static char buf[256];
	char path[256];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, abs);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void mkdirs(const char *abs)
{
	char path[256], *p;

	snprintf(path, sizeof(path), "%s%s", root, abs);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
}

static int setup(void **state)
{
	size_t i;

	(void)state;
	snprintf(root, sizeof(root), "/tmp/nfsrdma-tuning-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	setenv("NFSRDMA_ROOT", root, 1);
	mkdirs(NR_RUN_DIR); /* /run: nfsrdma makes its folder */
	for (i = 0; i < 5; i++) {
		mkdirs(files[i]);
		put(files[i], defaults[i]);
	}
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static int teardown(void **state)
{
	(void)state;
	return nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void rm_record(void)
{
	char path[160];

	snprintf(path, sizeof(path), "%s%s", root, NR_RUN_DIR "/settings");
	assert_int_equal(unlink(path), 0);
}

static void assert_defaults(void)
{
	size_t i;

	for (i = 0; i < 5; i++)
		assert_string_equal(get(files[i]), defaults[i]);
	assert_null(get(NR_RUN_DIR "/settings"));
}

static void check__a_limit_below_the_kernels_is_refused(void **state)
{
	/* The field's recipe: 4 MiB, below tcp_rmem's 6 MiB. */
	struct nr_tuning_req req = { .sock_buf = 4194304 };
	struct nr_tuning_undo u;

	(void)state;
	assert_int_equal(nr_tuning_check(&req), -EINVAL);
	assert_int_equal(nr_tuning_apply(&req, &u), -EINVAL);
	assert_defaults();
	req = (struct nr_tuning_req){ .rdma_requests = 32 };
	assert_int_equal(nr_tuning_check(&req), -EINVAL);
	assert_defaults();
}

static void apply__records_then_restore_puts_back(void **state)
{
	struct nr_tuning_req req = { .sock_buf = 8388608,
				     .rdma_requests = 128 };
	struct nr_tuning_undo u;

	(void)state;
	assert_int_equal(nr_tuning_check(&req), 0);
	assert_int_equal(nr_tuning_apply(&req, &u), 0);
	assert_string_equal(get(files[0]), "8388608\n");
	assert_string_equal(get(files[2]), "4096\t131072\t8388608\n");
	assert_string_equal(get(files[3]), "4096\t16384\t8388608\n");
	assert_string_equal(get(files[4]), "128\n");
	assert_string_equal(get(NR_RUN_DIR "/settings"),
			    "net.core.rmem_max 212992\n"
			    "net.core.wmem_max 212992\n"
			    "net.ipv4.tcp_rmem 4096\t131072\t6291456\n"
			    "net.ipv4.tcp_wmem 4096\t16384\t4194304\n"
			    "sunrpc.svc_rdma.max_requests 64\n");
	assert_int_equal(nr_tuning_restore(), 0);
	assert_defaults();
	/* Nothing recorded: nothing to do. */
	assert_int_equal(nr_tuning_restore(), 0);
}

static void apply__a_second_start_keeps_the_first_values(void **state)
{
	struct nr_tuning_req req = { .sock_buf = 16777216 };
	struct nr_tuning_undo u;

	(void)state;
	assert_int_equal(nr_tuning_apply(&req, &u), 0);
	/* Lower than now but not than the kernel's own: allowed. */
	req.sock_buf = 8388608;
	assert_int_equal(nr_tuning_apply(&req, &u), 0);
	assert_string_equal(get(files[1]), "8388608\n");
	req.sock_buf = 4194304;
	assert_int_equal(nr_tuning_apply(&req, &u), -EINVAL);
	assert_string_equal(get(files[1]), "8388608\n");
	assert_int_equal(nr_tuning_restore(), 0);
	assert_defaults();
}

/* A second start that fails puts back what it raised, and only that: the
 * first start's settings and record stay for server stop. */
static void undo__a_failed_second_start_puts_back_its_own(void **state)
{
	struct nr_tuning_req req = { .sock_buf = 16777216 };
	struct nr_tuning_undo u;

	(void)state;
	assert_int_equal(nr_tuning_apply(&req, &u), 0);
	req = (struct nr_tuning_req){ .sock_buf = 33554432,
				      .rdma_requests = 256 };
	assert_int_equal(nr_tuning_apply(&req, &u), 0);
	assert_string_equal(get(files[0]), "33554432\n");
	assert_string_equal(get(files[4]), "256\n");
	assert_int_equal(nr_tuning_undo(&u), 0);
	assert_string_equal(get(files[0]), "16777216\n");
	assert_string_equal(get(files[2]), "4096\t131072\t16777216\n");
	assert_string_equal(get(files[4]), defaults[4]);
	assert_string_equal(get(NR_RUN_DIR "/settings"),
			    "net.core.rmem_max 212992\n"
			    "net.core.wmem_max 212992\n"
			    "net.ipv4.tcp_rmem 4096\t131072\t6291456\n"
			    "net.ipv4.tcp_wmem 4096\t16384\t4194304\n");
	assert_int_equal(nr_tuning_restore(), 0);
	assert_defaults();
	/* A first start that fails leaves no record. */
	assert_int_equal(nr_tuning_apply(&req, &u), 0);
	assert_int_equal(nr_tuning_undo(&u), 0);
	assert_defaults();
}

static void restore__a_forged_record_writes_nothing(void **state)
{
	(void)state;
	/* A setting nfsrdma does not know, though the file is there. */
	mkdirs("/proc/sys/kernel/core_pattern");
	put("/proc/sys/kernel/core_pattern", "core\n");
	put(NR_RUN_DIR "/settings", "kernel.core_pattern |/tmp/x\n");
	assert_int_equal(nr_tuning_restore(), -EINVAL);
	assert_string_equal(get("/proc/sys/kernel/core_pattern"), "core\n");
	put(NR_RUN_DIR "/settings", "net.core.rmem_max 1 2 3\n");
	assert_int_equal(nr_tuning_restore(), -EINVAL);
	put(NR_RUN_DIR "/settings",
	    "net.core.rmem_max 1\nnet.core.rmem_max 2\n");
	assert_int_equal(nr_tuning_restore(), -EINVAL);
	assert_string_equal(get(files[0]), defaults[0]);
	rm_record();
	assert_defaults();
}

static void check__a_kernel_without_svcrdma_is_said(void **state)
{
	struct nr_tuning_req req = { .rdma_requests = 128 };
	char path[160];

	(void)state;
	snprintf(path, sizeof(path), "%s%s", root, files[4]);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(nr_tuning_check(&req), -ENOENT);
	put(files[4], defaults[4]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(check__a_limit_below_the_kernels_is_refused),
		cmocka_unit_test(apply__records_then_restore_puts_back),
		cmocka_unit_test(apply__a_second_start_keeps_the_first_values),
		cmocka_unit_test(undo__a_failed_second_start_puts_back_its_own),
		cmocka_unit_test(restore__a_forged_record_writes_nothing),
		cmocka_unit_test(check__a_kernel_without_svcrdma_is_said),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
