// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <signal.h>
#include <dirent.h>
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rc_log.h"
#include "rc_proc.h"
#include "spawn.h"
#include "sysfile.h"

int nr_helper_path(const char *name, char *out, size_t len)
{
	const char *dir = NR_HELPER_DIRS, *end;
	struct stat st;
	int n;

	if (!name[0] || strchr(name, '/'))
		return -EINVAL;
	for (; *dir; dir = *end ? end + 1 : end) {
		end = strchrnul(dir, ':');
		n = snprintf(out, len, "%.*s/%s", (int)(end - dir), dir, name);
		if (n < 0 || (size_t)n >= len)
			return -ENAMETOOLONG;
		if (!stat(out, &st) && S_ISREG(st.st_mode) &&
		    !access(out, X_OK))
			return 0;
	}
	return -ENOENT;
}

/*
 * A child starts with no signal held, even inside nr_sigdefer_begin(), and
 * in a process group of its own: Ctrl-C at the terminal reaches nfsrdma,
 * which decides what to undo, and not exportfs half-way through etab.
 */
static int spawn_clean(pid_t *pid, const char *path, char *const argv[],
		       char *const env[])
{
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	int ret;

	ret = posix_spawnattr_init(&attr);
	if (ret)
		return ret;
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGHUP);
	sigaddset(&dfl, SIGQUIT);
	sigaddset(&dfl, SIGPIPE);
	ret = posix_spawnattr_setsigmask(&attr, &none);
	if (!ret)
		ret = posix_spawnattr_setsigdefault(&attr, &dfl);
	if (!ret)
		ret = posix_spawnattr_setpgroup(&attr, 0);
	if (!ret)
		ret = posix_spawnattr_setflags(
			&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
				       POSIX_SPAWN_SETPGROUP);
	if (!ret)
		ret = posix_spawn(pid, path, NULL, &attr, argv, env);
	posix_spawnattr_destroy(&attr);
	return ret;
}

int nr_spawn_wait(char *const argv[])
{
	static char *const clean_env[] = { "PATH=" NR_HELPER_DIRS, "LC_ALL=C",
					   NULL };
	char path[4096], fix[256];
	int ret, status;
	pid_t pid;

	ret = nr_helper_path(argv[0], path, sizeof(path));
	if (ret) {
		snprintf(
			fix, sizeof(fix),
			"install the package that ships %s (nfs-kernel-server, "
			"nfs-common or rpcbind)",
			argv[0]);
		rc_diag(fix, "helper %s: not found in %s", argv[0],
			NR_HELPER_DIRS);
		return ret;
	}
	ret = spawn_clean(&pid, path, argv, clean_env);
	if (ret) {
		rc_call_err(ret, "posix_spawn(%s)", path);
		return -ret;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			ret = -errno;
			rc_call_err(ret, "waitpid(%s)", path);
			return ret;
		}
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
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
