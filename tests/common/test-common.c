// SPDX-License-Identifier: MIT
/*
 * common/'s log, file and spawn objects on their own: the message formats
 * both programs print, atomic replace, reads with a deadline, and root's
 * helpers by absolute path.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "rc_file.h"
#include "rc_log.h"
#include "rc_spawn.h"

/* Runs fn with stderr in a temporary file; returns what it printed. */
static char *stderr_of(void (*fn)(void))
{
	char *text = NULL;
	int fd = fileno(tmpfile()), saved = dup(2);

	fflush(stderr);
	dup2(fd, 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	assert_int_equal(rc_file_read_fd(fd, &text, NULL, 1 << 20), 0);
	return text;
}

static void say_call_err(void)
{
	rc_log_init("prog");
	rc_call_err(-ENOENT, "open(%s)", "/nowhere");
	rc_call_err(EACCES, "mkdir(%s)", "/x");
}

static void say_diag(void)
{
	rc_log_init("prog");
	rc_diag("run it as root", "export %s: permission denied", "/srv");
	rc_diag(NULL, "no fix here");
	rc_warn("software RDMA");
	rc_err("plain");
}

static void log__formats(void **state)
{
	char *t;

	(void)state;
	t = stderr_of(say_call_err);
	assert_string_equal(t, "prog: open(/nowhere) failed: No such file or "
			       "directory\nprog: mkdir(/x) failed: Permission "
			       "denied\n");
	free(t);
	t = stderr_of(say_diag);
	assert_string_equal(t, "prog: export /srv: permission denied\n"
			       "  fix: run it as root\n"
			       "prog: no fix here\n"
			       "prog: warning: software RDMA\n"
			       "prog: plain\n");
	free(t);
	rc_log_set_quiet(1);
	t = stderr_of(say_diag);
	rc_log_set_quiet(0);
	assert_string_equal(t, "");
	free(t);
}

static void file__replace_is_whole_and_leaves_no_temp(void **state)
{
	char dir[] = "/tmp/rc-test-XXXXXX", path[64], *text = NULL;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	assert_int_equal(rc_file_replace(path, "old\n", 4, 0600), 0);
	assert_int_equal(rc_file_replace(path, "new\n", 4, 0644), 0);
	assert_int_equal(rc_file_read(path, &text, NULL, 1 << 20), 0);
	assert_string_equal(text, "new\n");
	free(text);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_int_equal(unlink(path), 0);
	/* Nothing else is left: the folder is empty again. */
	assert_int_equal(rmdir(dir), 0);
	rc_log_set_quiet(1);
	assert_int_equal(rc_file_replace(path, "x", 1, 0644), -ENOENT);
	rc_log_set_quiet(0);
	assert_int_equal(rc_file_exists(path), 0);
}

static void file__read_stream_keeps_its_deadline(void **state)
{
	struct timespec t0, t1;
	char *text = NULL;
	size_t len = 0;
	int fds[2];
	long ms;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], "abc", 3), 3);
	close(fds[1]);
	assert_int_equal(
		rc_file_read_stream(fds[0], &text, &len, 1000, 1 << 20), 0);
	assert_int_equal(len, 3);
	assert_string_equal(text, "abc");
	free(text);
	close(fds[0]);
	/* A writer that never closes its end: the read ends at the limit. */
	assert_int_equal(pipe(fds), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(rc_file_read_stream(fds[0], &text, &len, 200, 1 << 20),
			 -ETIMEDOUT);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 +
	     (t1.tv_nsec - t0.tv_nsec) / 1000000;
	assert_true(ms >= 190 && ms < 5000);
	close(fds[0]);
	close(fds[1]);
}

/* A child that never stops printing: the capture stops at its bound,
 * says so and kills it, where the whole stream would fill the memory. */
static void spawn__capture_has_a_bound(void **state)
{
	char *argv[] = { "yes", "0123456789abcdef", NULL }, *out = NULL;
	struct timespec t0, t1;
	long ms;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(rc_spawn_capture(argv, &out, 1 << 20, 10, 0), -EFBIG);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_null(out);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 +
	     (t1.tv_nsec - t0.tv_nsec) / 1000000;
	assert_true(ms < 5000);
	/* Exactly the bound is still whole. */
	assert_int_equal(rc_spawn_capture((char *[]){ "head", "-c1048576",
						      "/dev/zero", NULL },
					  &out, 1 << 20, 10, 0),
			 0);
	free(out);
	assert_int_equal(rc_spawn_capture((char *[]){ "head", "-c1048577",
						      "/dev/zero", NULL },
					  &out, 1 << 20, 10, 0),
			 -EFBIG);
}

static void spawn__helpers_by_absolute_path(void **state)
{
	char path[256];

	(void)state;
	assert_int_equal(rc_helper_path("true", path, sizeof(path)), 0);
	assert_int_equal(path[0], '/');
	assert_int_equal(rc_spawn_helper(path, (char *[]){ "true", NULL }), 0);
	assert_int_equal(rc_helper_path("false", path, sizeof(path)), 0);
	assert_int_equal(rc_spawn_helper(path, (char *[]){ "false", NULL }), 1);
	assert_int_equal(rc_helper_path("../bin/true", path, sizeof(path)),
			 -EINVAL);
	assert_int_equal(rc_helper_path("", path, sizeof(path)), -EINVAL);
	assert_int_equal(rc_helper_path("rdmaio-no-such", path, sizeof(path)),
			 -ENOENT);
}

/* A helper sees PATH=RC_HELPER_DIRS and LC_ALL=C, nothing of ours. */
static void spawn__helpers_get_a_clean_environment(void **state)
{
	char path[256], out[] = "/tmp/rc-env-XXXXXX", *text = NULL;
	int fd = mkstemp(out), saved = dup(1);

	(void)state;
	assert_true(fd >= 0 && saved >= 0);
	setenv("RC_TEST_SECRET", "leak", 1);
	assert_int_equal(rc_helper_path("env", path, sizeof(path)), 0);
	fflush(stdout);
	dup2(fd, 1);
	assert_int_equal(rc_spawn_helper(path, (char *[]){ "env", NULL }), 0);
	dup2(saved, 1);
	close(saved);
	unsetenv("RC_TEST_SECRET");
	assert_int_equal(rc_file_read(out, &text, NULL, 1 << 20), 0);
	assert_string_equal(text, "PATH=" RC_HELPER_DIRS "\nLC_ALL=C\n");
	free(text);
	close(fd);
	unlink(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(log__formats),
		cmocka_unit_test(file__replace_is_whole_and_leaves_no_temp),
		cmocka_unit_test(file__read_stream_keeps_its_deadline),
		cmocka_unit_test(spawn__capture_has_a_bound),
		cmocka_unit_test(spawn__helpers_by_absolute_path),
		cmocka_unit_test(spawn__helpers_get_a_clean_environment),
	};

	return cmocka_run_group_tests_name("common", tests, NULL, NULL);
}
