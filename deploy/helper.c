// SPDX-License-Identifier: MIT
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "helper.h"
#include "rc_log.h"
#include "rc_proc.h"
#include "rc_spawn.h"

int nr_spawn_wait(char *const argv[])
{
	char path[4096], fix[256];
	int ret;

	ret = rc_helper_path(argv[0], path, sizeof(path));
	if (ret) {
		snprintf(
			fix, sizeof(fix),
			"install the package that ships %s (nfs-kernel-server, "
			"nfs-common or rpcbind)",
			argv[0]);
		rc_diag(fix, "helper %s: not found in %s", argv[0],
			RC_HELPER_DIRS);
		return ret;
	}
	return rc_spawn_helper(path, argv);
}

pid_t nr_daemon_start(char *const argv[], const char *why)
{
	char fix[160];
	pid_t pid;
	int ret;

	if (rc_proc_running(argv[0]))
		return 0;
	/* Their state folders come from systemd-tmpfiles and the package
	 * scripts, which a minimal system may lack. */
	if (!strcmp(argv[0], "rpcbind"))
		mkdir("/run/rpcbind", 0755);
	ret = nr_spawn_wait(argv);
	if (ret == -ENOENT)
		return ret;
	/* It forked into the background: none ran before, so this one is
	 * the one just started (a daemon that is socket-activated in the
	 * same milliseconds would be taken for it). */
	pid = rc_proc_find(argv[0]);
	if (ret == 0 && pid > 0)
		return pid;
	/* Failed, yet its daemon may have forked: ours, so stopped. */
	nr_daemon_stop(pid, argv[0]);
	snprintf(fix, sizeof(fix),
		 "install nfs-kernel-server/nfs-common/rpcbind and run '%s' to "
		 "see why",
		 argv[0]);
	rc_diag(fix, "%s (%s) did not start (status %d)", argv[0], why, ret);
	return ret < 0 ? ret : -ESRCH;
}

int nr_daemon_ensure(char *const argv[], const char *why)
{
	pid_t pid = nr_daemon_start(argv, why);

	return pid < 0 ? (int)pid : 0;
}

int nr_daemon_stop(pid_t pid, const char *comm)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	int i;

	/* The pid may have been reused since: only a process that still
	 * has the daemon's name is ours. */
	if (pid <= 0 || !rc_proc_is(pid, comm))
		return 0;
	if (kill(pid, SIGTERM) && errno != ESRCH) {
		rc_call_err(errno, "kill(%d, SIGTERM) (%s)", (int)pid, comm);
		return -errno;
	}
	for (i = 0; i < 150 && rc_proc_is(pid, comm); i++)
		nanosleep(&tick, NULL);
	if (!rc_proc_is(pid, comm))
		return 0;
	rc_diag(NULL, "%s (pid %d) did not stop within 3 s of SIGTERM", comm,
		(int)pid);
	return -ETIMEDOUT;
}
