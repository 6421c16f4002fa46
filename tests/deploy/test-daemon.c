// SPDX-License-Identifier: MIT
/*
 * The records of the daemons nfsrdma started, against a temporary root
 * (NFSRDMA_ROOT), with children of this test standing in for the daemons:
 * a record stops only the very process it names (pid, start time and
 * executable), a forged or stale one stops nothing, a daemon stops when its
 * last user lets it go, and a records folder or record that is not
 * nfsrdma's own is refused without a signal sent.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "daemon.h"
#include "rc_log.h"
#include "rc_proc.h"

static char root[64], dir[128];

static int setup(void **state)
{
	char run[96];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/nfsrdma-daemon-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(run, sizeof(run), "%s/run", root);
	snprintf(dir, sizeof(dir), "%s%s", root, NR_RUN_DIR);
	setenv("NFSRDMA_ROOT", root, 1);
	return mkdir(run, 0755);
}

static void rm_dir(void)
{
	char path[256];
	const char *names[] = { "rpcbind", "rpc.mountd", "rpc.statd", "lock" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	if (rmdir(dir))
		unlink(dir);
}

static int teardown(void **state)
{
	char run[96];

	(void)state;
	rm_dir();
	snprintf(run, sizeof(run), "%s/run", root);
	rmdir(run);
	return rmdir(root);
}

/* A child that waits to be stopped, ignoring SIGTERM when stubborn. */
static pid_t child(int stubborn)
{
	pid_t pid = fork();

	if (pid == 0) {
		/* A failed assertion leaves no stand-in running. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (stubborn)
			signal(SIGTERM, SIG_IGN);
		for (;;)
			pause();
	}
	assert_true(pid > 0);
	/* Its identity is read once it runs as itself. */
	usleep(20000);
	return pid;
}

/* 1 while pid is our child and has not exited; reaps it once it has. */
static int alive(pid_t pid)
{
	int status;

	return waitpid(pid, &status, WNOHANG) == 0;
}

static void finish(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void write_file(const char *name, const char *text, mode_t mode)
{
	char path[256];
	int fd;

	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void write_record(const char *name, const struct rc_proc_id *id,
			 const char *users)
{
	char text[512];

	snprintf(text, sizeof(text), "pid %d\nstart %llu\nexe %s\nusers %s\n",
		 (int)id->pid, id->start, id->exe, users);
	write_file(name, text, 0600);
}

static int record_exists(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

/* A record rewritten is a new file (atomic replace): a new inode. */
static ino_t record_ino(const char *name)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(stat(path, &st), 0);
	return st.st_ino;
}

static void read_record(const char *name, char *out, size_t len)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, out, len - 1);
	close(fd);
	assert_true(n >= 0);
	out[n] = '\0';
}

static void id__reads_this_process(void **state)
{
	struct rc_proc_id id;
	char exe[256];
	ssize_t n;

	(void)state;
	assert_int_equal(rc_proc_id_read(getpid(), &id), 0);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = '\0';
	assert_string_equal(id.exe, exe);
	assert_int_equal(id.ppid, getppid());
	assert_true(id.start > 0 && id.start <= rc_proc_ticks_now());
	assert_string_equal(id.comm, "test-daemon");
	assert_int_equal(rc_proc_id_read(0, &id), -ESRCH);
}

static void stop__only_the_process_recorded(void **state)
{
	struct rc_proc_id id, forged, now;
	pid_t pid = child(0);

	(void)state;
	assert_int_equal(rc_proc_id_read(pid, &id), 0);
	/* The same pid, started at another time: pid reused since. */
	forged = id;
	forged.start++;
	assert_int_equal(rc_proc_stop(&forged, 1000, &now), 1);
	assert_int_equal(now.pid, pid);
	assert_true(alive(pid));
	/* The same pid and start, another executable. */
	forged = id;
	snprintf(forged.exe, sizeof(forged.exe), "/usr/sbin/rpcbind");
	assert_int_equal(rc_proc_stop(&forged, 1000, NULL), 1);
	assert_true(alive(pid));
	assert_int_equal(rc_proc_stop(&id, 2000, NULL), 0);
	assert_false(alive(pid));
	/* Gone: nothing to stop, nothing signalled. */
	assert_int_equal(rc_proc_stop(&id, 1000, &now), 1);
	assert_int_equal(now.pid, 0);
}

static void stop__times_out_on_a_stubborn_process(void **state)
{
	struct rc_proc_id id;
	pid_t pid = child(1);

	(void)state;
	assert_int_equal(rc_proc_id_read(pid, &id), 0);
	assert_int_equal(rc_proc_stop(&id, 200, NULL), -ETIMEDOUT);
	assert_true(alive(pid));
	finish(pid);
}

static void find_since__new_processes_of_a_name(void **state)
{
	struct rc_proc_id found[4];
	unsigned long long since;
	pid_t a, b;
	int n;

	(void)state;
	/* Start times count in ticks of 10 ms: this process is older. */
	usleep(30000);
	since = rc_proc_ticks_now();
	a = child(0);
	b = child(0);
	n = rc_proc_find_since("test-daemon", since, found, 4);
	/* The two children; this process started before since. */
	assert_int_equal(n, 2);
	assert_true((found[0].pid == a && found[1].pid == b) ||
		    (found[0].pid == b && found[1].pid == a));
	assert_int_equal(found[0].ppid, getpid());
	finish(a);
	finish(b);
}

static void release__stops_the_daemon_recorded(void **state)
{
	struct rc_proc_id id;
	pid_t pid = child(0);
	ino_t ino;

	(void)state;
	assert_int_equal(rc_proc_id_read(pid, &id), 0);
	write_record("rpc.mountd", &id, "server");
	/* Another user's release leaves it, and its record as it was. */
	ino = record_ino("rpc.mountd");
	assert_int_equal(nr_daemon_release("rpc.mountd", NR_DAEMON_MOUNT), 0);
	assert_true(alive(pid));
	assert_int_equal(record_ino("rpc.mountd"), ino);
	assert_int_equal(nr_daemon_release("rpc.mountd", NR_DAEMON_SERVER), 0);
	assert_false(alive(pid));
	assert_false(record_exists("rpc.mountd"));
	/* Nothing recorded: nothing to do. */
	assert_int_equal(nr_daemon_release("rpc.mountd", NR_DAEMON_SERVER), 0);
	rm_dir();
}

static void release__stops_rpcbind_after_its_last_user(void **state)
{
	struct rc_proc_id id;
	char text[512];
	pid_t pid = child(0);

	(void)state;
	assert_int_equal(rc_proc_id_read(pid, &id), 0);
	write_record("rpcbind", &id, "server mount");
	assert_int_equal(nr_daemon_release("rpcbind", NR_DAEMON_SERVER), 0);
	assert_true(alive(pid));
	read_record("rpcbind", text, sizeof(text));
	assert_non_null(strstr(text, "\nusers mount\n"));
	assert_int_equal(nr_daemon_release("rpcbind", NR_DAEMON_MOUNT), 0);
	assert_false(alive(pid));
	assert_false(record_exists("rpcbind"));
	rm_dir();
}

static void release__forged_record_stops_nothing(void **state)
{
	struct rc_proc_id id;
	pid_t pid = child(0);

	(void)state;
	assert_int_equal(rc_proc_id_read(pid, &id), 0);
	/* A pid now given to another process: its start time differs. */
	id.start += 7;
	write_record("rpc.statd", &id, "mount");
	assert_int_equal(nr_daemon_release("rpc.statd", NR_DAEMON_MOUNT), 0);
	assert_true(alive(pid));
	assert_false(record_exists("rpc.statd"));
	finish(pid);
	rm_dir();
}

static void release__refuses_what_is_not_a_record(void **state)
{
	static const char *const bad[] = {
		"pid 1\n",
		"pid 1\nstart 2\nexe /x\nusers server nobody\n",
		"pid 1\npid 1\nstart 2\nexe /x\nusers server\n",
		"pid -1\nstart 2\nexe /x\nusers server\n",
		"pid 1\nstart 2\nexe relative\nusers server\n",
		"pid 1\nstart 2x\nexe /x\nusers server\n",
	};
	struct rc_proc_id id;
	char big[2048], path[256];
	pid_t pid = child(0);
	size_t i, len;

	(void)state;
	assert_int_equal(rc_proc_id_read(pid, &id), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_file("rpcbind", bad[i], 0600);
		assert_int_equal(nr_daemon_release("rpcbind", NR_DAEMON_SERVER),
				 -EINVAL);
		assert_true(record_exists("rpcbind"));
	}
	/* A true record followed by padding: longer than any written. */
	len = (size_t)snprintf(big, sizeof(big),
			       "pid %d\nstart %llu\nexe %s\nusers server\n",
			       (int)pid, id.start, id.exe);
	memset(big + len, '\n', 1200);
	big[len + 1200] = '\0';
	write_file("rpcbind", big, 0600);
	assert_int_equal(nr_daemon_release("rpcbind", NR_DAEMON_SERVER),
			 -EINVAL);
	/* A symbolic link planted as a record, to a true record elsewhere. */
	write_record("rpc.statd", &id, "server");
	snprintf(path, sizeof(path), "%s/rpcbind", dir);
	unlink(path);
	assert_int_equal(symlink("rpc.statd", path), 0);
	assert_int_equal(nr_daemon_release("rpcbind", NR_DAEMON_SERVER),
			 -EINVAL);
	assert_true(alive(pid));
	/* Only the daemons nfsrdma starts have records. */
	assert_int_equal(nr_daemon_release("../etc/passwd", NR_DAEMON_SERVER),
			 -EINVAL);
	finish(pid);
	rm_dir();
}

static void run_dir__must_be_roots_0700_and_no_link(void **state)
{
	struct rc_proc_id id;
	char target[160];
	pid_t pid = child(0);

	(void)state;
	assert_int_equal(rc_proc_id_read(pid, &id), 0);
	write_record("rpc.mountd", &id, "server");
	chmod(dir, 0755);
	assert_int_equal(nr_daemon_release("rpc.mountd", NR_DAEMON_SERVER),
			 -EPERM);
	assert_true(alive(pid));
	assert_true(record_exists("rpc.mountd"));
	chmod(dir, 0700);
	/* The folder swapped for a link to one holding the same record. */
	snprintf(target, sizeof(target), "%s.real", dir);
	assert_int_equal(rename(dir, target), 0);
	assert_int_equal(symlink(target, dir), 0);
	assert_int_equal(nr_daemon_release("rpc.mountd", NR_DAEMON_SERVER),
			 -ELOOP);
	assert_true(alive(pid));
	unlink(dir);
	assert_int_equal(rename(target, dir), 0);
	finish(pid);
	rm_dir();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(id__reads_this_process),
		cmocka_unit_test(stop__only_the_process_recorded),
		cmocka_unit_test(stop__times_out_on_a_stubborn_process),
		cmocka_unit_test(find_since__new_processes_of_a_name),
		cmocka_unit_test(release__stops_the_daemon_recorded),
		cmocka_unit_test(release__stops_rpcbind_after_its_last_user),
		cmocka_unit_test(release__forged_record_stops_nothing),
		cmocka_unit_test(release__refuses_what_is_not_a_record),
		cmocka_unit_test(run_dir__must_be_roots_0700_and_no_link),
	};

	rc_log_set_quiet(1);
	return cmocka_run_group_tests(tests, setup, teardown);
}
